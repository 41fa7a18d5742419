/**
 * `chunkwise/pdf`: PDF documents in, chunks out with the page and the glyph boxes each
 * chunk came from. Text comes from Mozilla's pdf.js (`pdfjs-dist`, an optional peer
 * dependency, loaded only by this entry); any strategy then chunks the document text.
 *
 * - {@link extractPdf} turns a PDF's bytes into one document text in reading order (each
 *   page cut into bands at lines that lie across the column gap, a band's columns read left
 *   to right, a table's rows kept whole) and a provenance map from UTF-16 offset ranges of
 *   that text to pages and boxes.
 * - {@link PdfChunker} runs a chunker on that text; each chunk gets `metadata.pages`,
 *   `metadata.boxes` and `metadata.headingPath`, and `text === documentText.slice(start, end)`.
 *
 * Coordinates are PDF user-space units (points, 1/72 inch) measured from the page's
 * top-left corner as displayed, x to the right and y down: pdf.js's viewport at scale 1.
 * Multiply by a scale to draw on a page rendered at that scale.
 *
 * The parts, one idea each (src/documents/pdf/): `load` (pdf.js, pages to pieces),
 * `layout` (rows, bands, columns), `furniture` (running headers and footers), `headings`
 * (from type), `text` (the document text and its maps), `provenance` (chunks' pages,
 * boxes, heading paths); `types` holds the shapes.
 * @module
 */
import type { Chunker } from '../engine/chunker.js';
import { DocumentError } from './document-error.js';
import { extractPdf } from './pdf/load.js';
import { PdfChunker, type PdfChunk } from './pdf/provenance.js';
import type { ExtractPdfOptions, PdfDocumentText } from './pdf/types.js';

export { DocumentError };
export { extractPdf, loadPdfJs } from './pdf/load.js';
export { PdfChunker, pdfBoxes, type PdfChunk, type PdfChunkMetadata } from './pdf/provenance.js';
export type { ExtractPdfOptions, PdfBox, PdfDocumentText, PdfFurniture, PdfHeading, PdfLine, PdfPage, PdfTextRun } from './pdf/types.js';

/**
 * Extracts a PDF and chunks it: {@link extractPdf} then {@link PdfChunker}.
 * @throws as {@link extractPdf} and the chunker
 */
export async function chunkPdf(bytes: Uint8Array, chunker: Chunker, options: ExtractPdfOptions = {}): Promise<{ document: PdfDocumentText; chunks: PdfChunk[] }> {
  const document = await extractPdf(bytes, options);
  return { document, chunks: await new PdfChunker(chunker).chunk(document) };
}
