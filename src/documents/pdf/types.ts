/**
 * The shapes `chunkwise/pdf` hands out: a PDF's document text and what maps its offsets
 * back to pages, lines, glyph boxes, headings and page furniture. Coordinates are PDF
 * user-space units (points, 1/72 inch) from the page's top-left corner as displayed, x to
 * the right and y down (pdf.js's viewport at scale 1).
 * @module
 */

/** A rectangle on one page: PDF points from the page's top-left corner (y down). */
export interface PdfBox {
  /** Page number, 1-based. */
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A page of the document text. */
export interface PdfPage {
  /** Page number, 1-based. */
  number: number;
  /** Page size in points (as displayed, rotation applied). */
  width: number;
  height: number;
  /** The page's range in the document text, UTF-16 code units, `[start, end)`. */
  start: number;
  end: number;
}

/**
 * One pdf.js text item (a run of glyphs in one font on one baseline) as it lies in the
 * document text: `text.slice(start, end)` is the item's string (trimmed), `box` its glyphs'
 * extent. Within a run, glyph positions are the item's advance divided evenly by UTF-16
 * code unit (pdf.js gives positions per item, not per glyph).
 */
export interface PdfTextRun {
  start: number;
  end: number;
  box: PdfBox;
  /** Index of the item in pdf.js's `page.getTextContent().items` of its page. */
  item: number;
  /** Offset of the run's text within that item's `str`. */
  itemOffset: number;
  /** Font size in points. */
  fontSize: number;
  bold: boolean;
}

/** A line of the document text (runs on one baseline within one column). */
export interface PdfLine {
  start: number;
  end: number;
  box: PdfBox;
  /**
   * Column of the line within its band, 0 = leftmost; -1 for a line of a band read across
   * the page (a title, an abstract, a full-width table) on a page that has columns; 0 for
   * every line of a page without columns.
   */
  column: number;
  /**
   * Block index on its page, in reading order: a page is cut into bands at lines that lie
   * across the column gap; each column of a band, and each band read across, is a block.
   */
  band: number;
}

/**
 * A heading inferred from font size and weight: a short line larger than the body, or bold
 * (at any indentation), or italic and numbered; consecutive lines of one style are one
 * heading (a title set on two lines).
 */
export interface PdfHeading {
  start: number;
  end: number;
  /** 1 = the largest heading style; deeper numbering (`2.1.`, a letter `B.` under roman `IV.`) adds a level. */
  level: number;
  text: string;
}

/** A page header or footer: a line repeated (digits aside) at the same place on most pages. */
export interface PdfFurniture {
  start: number;
  end: number;
  page: number;
  kind: 'header' | 'footer';
  text: string;
}

/** What {@link extractPdf} returns. */
export interface PdfDocumentText {
  /** The document text: pages in order; paragraphs separated by `\n\n`, lines by `\n`. */
  text: string;
  pages: PdfPage[];
  runs: PdfTextRun[];
  lines: PdfLine[];
  headings: PdfHeading[];
  furniture: PdfFurniture[];
  /**
   * The ranges a chunker runs on, in order: the body text of a run of pages that a
   * paragraph runs over (usually one page). Page breaks between sections are boundaries
   * no chunk crosses; headers and footers outside every section belong to no chunk.
   */
  sections: { start: number; end: number }[];
}

/** Options of {@link extractPdf}. */
export interface ExtractPdfOptions {
  /** Password of an encrypted PDF. */
  password?: string;
  /** Name of the document for error messages (a file name). Default `"<bytes>"`. */
  source?: string;
  /**
   * The pdf.js module to use (`import * as pdfjs from 'pdfjs-dist'`, with its worker set
   * up, in a browser). Default: `pdfjs-dist/legacy/build/pdf.mjs`, run without a worker
   * thread (pdf.js's in-thread worker) and without any network fetch.
   */
  pdfjs?: unknown;
  /** Most pages read; a PDF with more is a `DocumentError` (reason `too-large`). Default 10,000. */
  maxPages?: number;
  /** Most text items on one page; a page with more is a `DocumentError` (reason `too-large`). Default 200,000. */
  maxItemsPerPage?: number;
}
