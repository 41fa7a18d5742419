/**
 * The document loader: bytes (PDF, DOCX, HTML, Markdown, text), by the source's extension
 * or else by their magic bytes, into the text a chunker runs on plus what maps its offsets
 * back to the document (a PDF's pages, lines and boxes: `pdf`, which `PdfChunker` turns
 * into `metadata.pages` and `metadata.boxes`). Core module (no Node built-in): pdf.js and
 * mammoth are imported on first use, by their own modules.
 * @module
 */
import { DocumentError } from './document-error.js';
import { documentKindOf, type DocumentKind } from './kind.js';
import type { PdfDocumentText } from './pdf.js';

export { documentKindOf, DOCUMENT_FILE_EXTENSIONS, type DocumentKind } from './kind.js';

/** A document as bytes, with a name (a path, a URL, a key): its extension decides the kind where it has one. */
export interface DocumentBytes {
  source: string;
  bytes: Uint8Array;
}

/** A loaded document: the text to chunk, its kind, and a PDF's layout (offsets into `text`). */
export interface LoadedDocument {
  source: string;
  kind: DocumentKind;
  /** The text a chunker runs on: a PDF's extracted text, a Word file's HTML (mammoth), the decoded text of the others. */
  text: string;
  /** A PDF's pages, lines, boxes and sections over `text` (chunk it with `PdfChunker`). */
  pdf?: PdfDocumentText;
}

/** Options of {@link loadDocument}. */
export interface LoadOptions {
  /** Password of an encrypted PDF. */
  password?: string;
  /** Encoding of a text document without a UTF-16 byte order mark (a WHATWG label); default UTF-8, which must be valid. */
  encoding?: string;
  /**
   * The pdf.js module to read a PDF with (`import * as pdfjs from 'pdfjs-dist'`, its worker
   * set up: what a browser gives); default the legacy build, imported on first use (Node).
   */
  pdfjs?: unknown;
}

/**
 * The decoder of a text whose first bytes are `head`: UTF-16 by its byte order mark,
 * else `encoding`, else strict UTF-8 (`fatal`: an invalid byte throws a TypeError). The
 * BOM is kept (U+FEFF at offset 0), as for UTF-8.
 * @throws {RangeError} for an encoding label TextDecoder does not know.
 */
export function textDecoderFor(head: Uint8Array, encoding?: string): TextDecoder {
  const bom = head.length >= 2 ? (head[0] === 0xff && head[1] === 0xfe ? 'utf-16le' : head[0] === 0xfe && head[1] === 0xff ? 'utf-16be' : undefined) : undefined;
  return new TextDecoder(bom ?? encoding ?? 'utf-8', { ignoreBOM: true, fatal: bom === undefined && encoding === undefined });
}

/**
 * Loads a document: a PDF through pdf.js (`extractPdf`: text in reading order, with pages
 * and boxes in `pdf`), a Word file through mammoth (its HTML, for the HTML strategy), HTML,
 * Markdown and text decoded ({@link textDecoderFor}).
 * @throws {DocumentError} for a PDF with no text layer, an encrypted PDF without its
 *   password, bytes that are not the document their name says, or text that is not valid
 *   UTF-8 when no `encoding` is given (reason `invalid`, naming the option).
 * @throws {MissingDependencyError} naming `pdfjs-dist` or `mammoth` when not installed.
 */
export async function loadDocument(doc: DocumentBytes, options: LoadOptions = {}): Promise<LoadedDocument> {
  const { source, bytes } = doc;
  const kind = documentKindOf(source, bytes);
  if (kind === 'pdf') {
    const { extractPdf } = await import('./pdf.js');
    const pdf = await extractPdf(bytes, { source, password: options.password, pdfjs: options.pdfjs });
    return { source, kind, text: pdf.text, pdf };
  }
  if (kind === 'docx') {
    const { docxToHtml } = await import('./docx.js');
    return { source, kind, text: (await docxToHtml(bytes, { source })).html };
  }
  try {
    return { source, kind, text: textDecoderFor(bytes, options.encoding).decode(bytes) };
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new DocumentError(source, 'invalid', 'not valid UTF-8; give its encoding (encoding: "latin1", or --input-encoding on the command line)');
  }
}
