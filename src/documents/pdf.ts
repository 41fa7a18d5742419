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
 * @module
 */
import type { Chunk } from '../engine/chunk.js';
import { ContentIds, documentIdOf, type ChunkCallOptions } from '../engine/ids.js';
import { DocumentError } from './document-error.js';
import { firstLine, InvalidInputError, InvalidOptionError, MissingDependencyError } from '../engine/errors.js';

export { DocumentError };
import type { Chunker } from '../engine/chunker.js';
import { fragments, markFurniture, type Fragment } from './pdf-furniture.js';
import { layoutLine, pageRows, readingOrder, spaced, type LayoutLine, type Piece } from './pdf-layout.js';

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

/** Defaults of {@link ExtractPdfOptions}' limits. */
const PDF_LIMITS = { maxPages: 10_000, maxItemsPerPage: 200_000 } as const;

// ---- pdf.js, as far as this module uses it ----
interface PdfJsItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
  fontName?: string;
}
interface PdfJsPage {
  getViewport(o: { scale: number }): { width: number; height: number; transform: number[] };
  getTextContent(): Promise<{ items: PdfJsItem[]; styles: Record<string, { ascent?: number; descent?: number }> }>;
  getOperatorList(): Promise<unknown>;
  commonObjs: { has?(id: string): boolean; get(id: string): unknown };
  cleanup?(): void;
}
interface PdfJsDocument {
  numPages: number;
  getPage(n: number): Promise<PdfJsPage>;
  destroy(): Promise<void>;
}
interface PdfJs {
  getDocument(o: Record<string, unknown>): { promise: Promise<PdfJsDocument> };
}

let pdfjsModule: Promise<PdfJs> | undefined;
/**
 * pdf.js's legacy build (it runs on Node 20 and in every browser).
 * @throws {MissingDependencyError} naming `pdfjs-dist` when it cannot be imported.
 */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs').then(
    (m) => m as unknown as PdfJs,
    (cause) => {
      pdfjsModule = undefined;
      throw new MissingDependencyError('pdfjs-dist', 'chunkwise/pdf', cause);
    },
  );
  return pdfjsModule;
}

/** Multiplies two affine transforms `[a b c d e f]` (pdf.js's `Util.transform`). */
function transform(m1: number[], m2: number[]): number[] {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/**
 * Bold font names: the words foundries use, and TeX's bold extended faces (Computer Modern
 * and EC `cmbx10`, `CMBX12`, `ecbx1000`, `SFBX1000`; sans and typewriter bold `cmssbx`,
 * `cmttb`), with the subset tag (`ABCDEF+`) stripped.
 */
const BOLD_FONT = /bold|black|heavy|semibold|demi|^(?:cm|ec|sf|lm)(?:ss|tt)?bx|^cmb\d|^cmttb|^sfb/i;
/** Italic and slanted font names: the foundries' words, TeX's `cmti10`, `cmsl10`, `ecti1000`, `CMBXTI10`. */
const ITALIC_FONT = /italic|oblique|-it$|^(?:cm|ec|sf|lm)(?:bx)?(?:ti|sl)\d/i;

/** The page's pieces: non-blank items, trimmed, in viewport coordinates; `checkItems` sees the item count first. */
async function pagePieces(page: PdfJsPage, checkItems: (items: number) => void): Promise<{ pieces: Piece[]; width: number; height: number }> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  checkItems(content.items.length);
  // font names (for weight) are known once the page's operators are parsed
  await page.getOperatorList();
  const fonts = new Map<string, { bold: boolean; italic: boolean }>();
  const pieces: Piece[] = [];
  content.items.forEach((item, index) => {
    const str = item.str ?? '';
    if (!item.transform || str.trim() === '') return;
    const font = item.fontName ?? '';
    if (!fonts.has(font)) {
      try {
        const obj = page.commonObjs.get(font) as { name?: string; bold?: boolean; italic?: boolean } | undefined;
        const name = (obj?.name ?? '').replace(/^[A-Z]{6}\+/, '');
        fonts.set(font, { bold: obj?.bold === true || BOLD_FONT.test(name), italic: obj?.italic === true || ITALIC_FONT.test(name) });
      } catch {
        fonts.set(font, { bold: false, italic: false });
      }
    }
    const t = transform(viewport.transform, item.transform);
    const size = Math.hypot(t[2], t[3]) || item.height || 1;
    const style = content.styles[font] ?? {};
    const ascent = style.ascent && style.ascent > 0 ? style.ascent : 0.8;
    const descent = style.descent && style.descent < 0 ? -style.descent : 0.2;
    const lead = str.length - str.trimStart().length;
    const text = str.trim();
    const perUnit = (item.width ?? 0) / str.length;
    const x0 = t[4] + lead * perUnit;
    pieces.push({
      str: text,
      item: index,
      itemOffset: lead,
      x0,
      x1: x0 + text.length * perUnit,
      top: t[5] - ascent * size,
      bottom: t[5] + descent * size,
      baseline: t[5],
      size,
      ...(fonts.get(font) ?? { bold: false, italic: false }),
    });
  });
  return { pieces, width: viewport.width, height: viewport.height };
}

const NUMBERING = /^(\d+(?:\.\d+)*)\.?\s/;
const ROMAN_NUMBERING = /^[IVXLC]+\.\s/;
const LETTER_NUMBERING = /^[A-Z]\.\s/;

/**
 * How deep a heading's numbering puts it: `2.1.` 2; a roman numeral (`IV.`, the sections of
 * IEEE and APS papers) 1, a capital letter (`B.`, their subsections) 2; unnumbered 1.
 */
function numberingDepth(text: string): number {
  const digits = NUMBERING.exec(text);
  if (digits) return digits[1].split('.').length;
  if (ROMAN_NUMBERING.test(text)) return 1;
  return LETTER_NUMBERING.test(text) ? 2 : 1;
}

/**
 * A line's heading style (`"<size>|<bold>|<italic>"`), or undefined for body text: a line of
 * at most 90 characters with a letter, larger than the body (1.15 times), bold throughout
 * or italic throughout and numbered, at
 * any indentation (a manual's indented subsections, a centred section title), that is not
 * a table row (no gap of 1.5 ems between its pieces). The style's size is the line's
 * largest type.
 */
function headingStyle(line: LayoutLine, bodySize: number): string | undefined {
  if (line.text.length > 90 || !/\p{L}/u.test(line.text)) return undefined;
  // italic only where numbered (`2.1. Measurements`): an italic line may be a quotation
  if (!(line.size >= bodySize * 1.15) && !line.bold && !(line.italic && NUMBERING.test(line.text))) return undefined;
  let max = 0;
  line.pieces.forEach((p, k) => {
    if (p.size > max) max = p.size;
    if (k > 0 && p.x0 - line.pieces[k - 1].x1 >= 1.5 * line.size) max = NaN;
  });
  // the style by the largest type of the line: small capitals' sizes average differently line by line
  return Number.isNaN(max) ? undefined : `${Math.round(max * 2) / 2}|${line.bold ? 1 : 0}|${line.italic ? 1 : 0}`;
}

/** Longest heading, in characters, when consecutive lines of one style make one (a title set on three lines). */
const MAX_HEADING = 160;

/**
 * The heading style of each body line of a page: consecutive lines of one style in one
 * block, no more than 1.6 of their size apart, are one heading (its lines all get the
 * style) when they hold at most {@link MAX_HEADING} characters and 3 lines; longer runs
 * (a bold paragraph) are body text.
 */
function headingStyles(body: readonly LayoutLine[], bodySize: number): (string | undefined)[] {
  const styles = body.map((l) => headingStyle(l, bodySize));
  for (let k = 0; k < body.length; ) {
    const style = styles[k];
    let end = k + 1;
    if (style !== undefined) {
      let chars = body[k].text.length;
      while (end < body.length && styles[end] === style && body[end].band === body[k].band && body[end].column === body[k].column && body[end].baseline - body[end - 1].baseline <= 1.6 * body[end].size) {
        chars += body[end].text.length + 1;
        end++;
      }
      if (end - k > 3 || chars > MAX_HEADING) for (let j = k; j < end; j++) styles[j] = undefined;
    }
    k = end;
  }
  return styles;
}

/**
 * Extracts a PDF's text in reading order with its provenance.
 * @param bytes the PDF file's bytes (not modified: pdf.js gets a copy)
 * @returns the document text, its pages, text runs (offset ranges → page and box), lines,
 *   inferred headings, page headers/footers and the sections a chunker runs on.
 * @throws {DocumentError} reason `password` for an encrypted PDF without the right
 *   password; `no-text` for a PDF with no text layer (scanned pages: run OCR first);
 *   `invalid` for bytes pdf.js cannot read or a page it fails on (a page tree that loops, a
 *   broken object: the message names the page); `too-large` past `maxPages` or
 *   `maxItemsPerPage`. The message is one line naming `source`.
 * @throws {InvalidOptionError} for a limit that is not a positive integer.
 * @throws {InvalidInputError} when `bytes` is not a Uint8Array.
 * @throws {MissingDependencyError} when `pdfjs-dist` is not installed.
 */
export async function extractPdf(bytes: Uint8Array, options: ExtractPdfOptions = {}): Promise<PdfDocumentText> {
  if (!(bytes instanceof Uint8Array)) throw new InvalidInputError('a PDF as a Uint8Array', bytes);
  const source = options.source ?? '<bytes>';
  const maxPages = limit(options.maxPages, 'maxPages', PDF_LIMITS.maxPages);
  const maxItems = limit(options.maxItemsPerPage, 'maxItemsPerPage', PDF_LIMITS.maxItemsPerPage);
  const pdfjs = (options.pdfjs as PdfJs | undefined) ?? (await loadPdfJs());
  let doc: PdfJsDocument;
  try {
    doc = await pdfjs.getDocument({
      data: bytes.slice(),
      password: options.password,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      useWorkerFetch: false,
      disableAutoFetch: true,
      disableStream: true,
      verbosity: 0,
    }).promise;
  } catch (error) {
    const e = error as { name?: string; code?: number; message?: string };
    if (e?.name === 'PasswordException') {
      throw new DocumentError(source, 'password', e.code === 2 ? 'the PDF is encrypted and the password given is wrong' : 'the PDF is encrypted: it needs a password');
    }
    throw new DocumentError(source, 'invalid', `not a PDF pdf.js can read (${firstLine(error)})`);
  }
  let n = 0;
  try {
    const count = doc.numPages;
    if (!Number.isInteger(count) || count < 1) throw new DocumentError(source, 'invalid', `the PDF's page tree holds no pages (page count ${count})`);
    if (count > maxPages) throw new DocumentError(source, 'too-large', `the PDF has ${count} pages, more than maxPages (${maxPages})`);
    const raw: { fragments: Fragment[]; width: number; height: number }[] = [];
    for (n = 1; n <= count; n++) {
      const page = await doc.getPage(n);
      const { pieces, width, height } = await pagePieces(page, (items) => {
        if (items > maxItems) throw new DocumentError(source, 'too-large', `page ${n} has ${items} text items, more than maxItemsPerPage (${maxItems})`);
      });
      raw.push({ fragments: fragments(pieces), width, height });
      page.cleanup?.();
      // pdf.js's in-thread worker answers in microtasks: a turn of the event loop per page lets
      // timers and I/O run during a long PDF (a server's other requests, a progress line)
      await yieldToEventLoop();
    }
    n = 0;
    if (raw.every((p) => p.fragments.length === 0)) {
      throw new DocumentError(source, 'no-text', `the PDF has no text layer (${count} page${count === 1 ? '' : 's'} of images?): it needs OCR first`);
    }
    markFurniture(raw);
    return layout(raw);
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    // pdf.js's own errors (a page tree that loops, a broken object) and anything a malformed page makes of the layout
    throw new DocumentError(source, 'invalid', `${n > 0 ? `page ${n}: ` : ''}the PDF is malformed (${firstLine(error) || (error as Error)?.name || 'unknown error'})`);
  } finally {
    await doc.destroy();
  }
}

/** Resolves after a turn of the event loop (setImmediate in Node, a zero timeout elsewhere). */
function yieldToEventLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}

/** A limit option: a positive integer (Infinity allowed), or the default. */
function limit(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value === Infinity || (Number.isInteger(value) && value > 0))) throw new InvalidOptionError(name, value, 'a positive integer');
  return value;
}

/** Lays the pages' lines out as one text and records where everything went. */
function layout(raw: { fragments: Fragment[]; width: number; height: number }[]): PdfDocumentText {
  const pageLines = raw.map((p) => {
    const piecesOf = (keep: (f: Fragment) => boolean) => p.fragments.filter(keep).flatMap((f) => f.pieces);
    const body = readingOrder(piecesOf((f) => !f.furniture));
    const furnitureLines = (kind: 'header' | 'footer') => pageRows(piecesOf((f) => f.furniture === kind)).map((r) => layoutLine(r.pieces, -1, -1, 0));
    return { body, header: furnitureLines('header'), footer: furnitureLines('footer') };
  });
  // body font size: the size most characters are set in
  const sizes = new Map<number, number>();
  for (const p of pageLines) for (const l of p.body) sizes.set(Math.round(l.size * 2) / 2, (sizes.get(Math.round(l.size * 2) / 2) ?? 0) + l.text.length);
  const bodySize = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  const styles = new Set<string>();
  const lineStyles = pageLines.map((p) => headingStyles(p.body, bodySize));
  for (const page of lineStyles) for (const s of page) if (s) styles.add(s);
  // heading styles ranked: larger first, bold before regular, upright before italic
  const key = (s: string) => s.split('|').map(Number);
  const rank = [...styles].sort((a, b) => {
    const [sa, ba, ia] = key(a);
    const [sb, bb, ib] = key(b);
    return sb - sa || bb - ba || ia - ib;
  });

  let text = '';
  const pages: PdfPage[] = [];
  const runs: PdfTextRun[] = [];
  const lines: PdfLine[] = [];
  const headings: PdfHeading[] = [];
  const furniture: PdfFurniture[] = [];
  const sections: { start: number; end: number }[] = [];
  let section: { start: number; end: number } | undefined;
  // does the last body paragraph of page i − 1 run over onto page i?
  let last: LayoutLine | undefined; // the last body line of the pages before
  const continues = pageLines.map((p) => {
    const before = last;
    if (p.body.length > 0) last = p.body[p.body.length - 1];
    return runsOver(before, p.body[0]);
  });
  function runsOver(last: LayoutLine | undefined, first: LayoutLine | undefined): boolean {
    if (!last || !first || headingStyle(last, bodySize) !== undefined || headingStyle(first, bodySize) !== undefined) return false;
    return /\p{L}-$/u.test(last.text) || (!/[.!?:;)\]"”]$/u.test(last.text) && /^\p{Ll}/u.test(first.text));
  }

  const emitLine = (l: LayoutLine, page: number, sep: string) => {
    text += sep;
    const start = text.length;
    l.pieces.forEach((p, k) => {
      if (k > 0 && spaced(l.pieces[k - 1], p)) text += ' ';
      runs.push({ start: text.length, end: text.length + p.str.length, box: { page, x0: p.x0, y0: p.top, x1: p.x1, y1: p.bottom }, item: p.item, itemOffset: p.itemOffset, fontSize: p.size, bold: p.bold });
      text += p.str;
    });
    lines.push({ start, end: text.length, box: { page, x0: l.x0, y0: l.top, x1: l.x1, y1: l.bottom }, column: l.column, band: l.band });
    return start;
  };
  const sepBefore = () => (text.length === 0 ? '' : '\n\n');

  pageLines.forEach((p, i) => {
    const page = i + 1;
    const firstLine = lines.length;
    // headers and footers inside a paragraph running over the page stay on its lines
    for (const l of p.header) {
      const s = emitLine(l, page, continues[i] ? '\n' : sepBefore());
      // the line's own text (a copy), not a slice of the document text: a slice keeps the whole text so far alive
      furniture.push({ start: s, end: text.length, page, kind: 'header', text: l.text });
    }
    if (!continues[i] && section) {
      sections.push(section);
      section = undefined;
    }
    // pitch: the most common baseline distance between consecutive lines of a column
    const gaps: number[] = [];
    for (let k = 1; k < p.body.length; k++) {
      const a = p.body[k - 1];
      const b = p.body[k];
      if (a.column === b.column && a.band === b.band) gaps.push(b.baseline - a.baseline);
    }
    gaps.sort((a, b) => a - b);
    const pitch = gaps.length ? gaps[Math.floor(gaps.length / 2)] : bodySize * 1.2;
    let prev: LayoutLine | undefined;
    let prevStyle: string | undefined;
    p.body.forEach((l, k) => {
      const style = lineStyles[i][k];
      const sameBlock = prev !== undefined && prev.column === l.column && prev.band === l.band;
      // the next line of a heading set on several lines
      const headingGoesOn = style !== undefined && style === prevStyle && sameBlock && l.baseline - prev!.baseline <= 1.6 * l.size;
      let sep: string;
      if (!prev) sep = continues[i] ? '\n' : sepBefore();
      else {
        const gap = l.baseline - prev.baseline;
        const newParagraph = !headingGoesOn && (!sameBlock || style !== undefined || prevStyle !== undefined || gap > pitch * 1.2 || gap < 0);
        sep = newParagraph ? '\n\n' : '\n';
      }
      const s = emitLine(l, page, sep);
      if (!section) section = { start: s, end: text.length };
      section.end = text.length;
      if (headingGoesOn) {
        const h = headings[headings.length - 1];
        h.end = text.length;
        h.text = `${h.text} ${l.text}`;
      } else if (style !== undefined) {
        headings.push({ start: s, end: text.length, level: rank.indexOf(style) + numberingDepth(l.text), text: l.text });
      }
      prev = l;
      prevStyle = style;
    });
    for (const l of p.footer) {
      const s = emitLine(l, page, continues[i + 1] ? '\n' : sepBefore());
      furniture.push({ start: s, end: text.length, page, kind: 'footer', text: l.text });
    }
    const mine = lines.slice(firstLine);
    pages.push({ number: page, width: raw[i].width, height: raw[i].height, start: mine[0]?.start ?? text.length, end: mine[mine.length - 1]?.end ?? text.length });
  });
  if (section) sections.push(section);
  return { text, pages, runs, lines, headings, furniture, sections };
}

/** The metadata {@link PdfChunker} adds to each chunk. */
export interface PdfChunkMetadata {
  /** The pages the chunk's text lies on, 1-based, inclusive. */
  pages: { first: number; last: number };
  /** Boxes of the chunk's glyphs: per page, one per run of lines of one column. */
  boxes: PdfBox[];
  /** The inferred headings above the chunk, outermost first. */
  headingPath: string[];
  /** Headers and footers inside the chunk (a paragraph running over a page), left out of `embedText`. */
  furniture?: { page: number; kind: 'header' | 'footer'; text: string }[];
}

/** A chunk made by {@link PdfChunker}. */
export type PdfChunk = Chunk & { metadata: Chunk['metadata'] & PdfChunkMetadata };

/**
 * Binary search: the first index in `items` (sorted by `end`) whose `end` is > `offset`.
 */
function firstEndingAfter(items: readonly { end: number }[], offset: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The boxes of the glyphs in `[start, end)` of the document text: the glyphs' extent per
 * line (glyph positions within a run by even division of its advance), merged down a
 * column while lines follow each other on one page in one column and band.
 */
export function pdfBoxes(doc: PdfDocumentText, start: number, end: number): PdfBox[] {
  const boxes: (PdfBox & { key: string })[] = [];
  let li = firstEndingAfter(doc.lines, start);
  let ri = firstEndingAfter(doc.runs, start);
  for (; li < doc.lines.length && doc.lines[li].start < end; li++) {
    const line = doc.lines[li];
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (; ri < doc.runs.length && doc.runs[ri].start < Math.min(end, line.end); ri++) {
      const r = doc.runs[ri];
      const a = Math.max(start, r.start);
      const b = Math.min(end, r.end);
      if (b <= a) continue;
      const per = (r.box.x1 - r.box.x0) / Math.max(1, r.end - r.start);
      x0 = Math.min(x0, r.box.x0 + (a - r.start) * per);
      x1 = Math.max(x1, r.box.x0 + (b - r.start) * per);
      y0 = Math.min(y0, r.box.y0);
      y1 = Math.max(y1, r.box.y1);
    }
    if (ri > 0 && doc.runs[ri - 1].end > Math.min(end, line.end)) ri--;
    if (x0 > x1) continue;
    const key = `${line.box.page}|${line.column}|${line.band}`;
    const last = boxes[boxes.length - 1];
    if (last && last.key === key && y0 - last.y1 < 2 * (y1 - y0)) {
      last.x0 = Math.min(last.x0, x0);
      last.x1 = Math.max(last.x1, x1);
      last.y0 = Math.min(last.y0, y0);
      last.y1 = Math.max(last.y1, y1);
    } else boxes.push({ page: line.box.page, x0, y0, x1, y1, key });
  }
  return boxes.map(({ page, x0, y0, x1, y1 }) => ({ page, x0, y0, x1, y1 }));
}

/**
 * `text` with the ranges in `drop` (offsets relative to `text`) left out and hyphenated
 * line ends re-joined (`gov-\nerns` → `governs`: a letter, `-`, a line break, a lower-case
 * letter).
 */
function embedTextOf(text: string, drop: { start: number; end: number }[]): string {
  let out = '';
  let at = 0;
  for (const d of drop) {
    out += text.slice(at, Math.max(at, d.start));
    at = Math.max(at, d.end);
  }
  out += text.slice(at);
  return out
    .replace(/(\p{L})-\n+(?=\p{Ll})/gu, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Chunks a PDF's document text with any chunker (a strategy from `createChunker`, a
 * `RecursiveChunker` …), section by section ({@link PdfDocumentText.sections}), so that no
 * chunk crosses a page break unless a paragraph runs over it, and adds provenance:
 * - `start`/`end` are offsets into `doc.text` (`text === doc.text.slice(start, end)`);
 *   `id` and `index` are recomputed over the whole document (ids as every strategy's:
 *   `<hash of doc.text up to end>:<start>-<end>`);
 * - `metadata.pages` `{ first, last }`, `metadata.boxes` (see {@link pdfBoxes}),
 *   `metadata.headingPath` (headings inferred from font size and weight);
 * - `embedText`: the text without page headers and footers, hyphenated line ends joined
 *   (set where it differs from `text`). The chunker's own `embedText` is replaced.
 */
export class PdfChunker {
  constructor(readonly chunker: Chunker) {}

  /**
   * @param doc what {@link extractPdf} returned
   * @throws whatever the chunker throws
   */
  async chunk(doc: PdfDocumentText, options?: ChunkCallOptions): Promise<PdfChunk[]> {
    const out: PdfChunk[] = [];
    const ids = new ContentIds(documentIdOf(options));
    for (const section of doc.sections) {
      const slice = doc.text.slice(section.start, section.end);
      for (const c of await this.chunker.chunk(slice)) {
        const start = c.start + section.start;
        const end = c.end + section.start;
        out.push(this.#provenance(doc, c, start, end, out.length, ids));
      }
    }
    return out;
  }

  #provenance(doc: PdfDocumentText, c: Chunk, start: number, end: number, index: number, ids: ContentIds): PdfChunk {
    const text = doc.text.slice(start, end);
    const boxes = pdfBoxes(doc, start, end);
    const pageNumbers = boxes.map((b) => b.page);
    const inside = doc.furniture.filter((f) => f.start < end && f.end > start);
    const embedText = embedTextOf(
      text,
      inside.map((f) => ({ start: Math.max(0, f.start - start), end: Math.min(text.length, f.end - start) })),
    );
    const chunk: PdfChunk = {
      ...c,
      id: ids.id(text, embedText),
      index,
      text,
      start,
      end,
      metadata: {
        ...c.metadata,
        pages: { first: Math.min(...pageNumbers), last: Math.max(...pageNumbers) },
        boxes,
        headingPath: headingPathAt(doc.headings, start + (text.length - text.trimStart().length)),
        ...(inside.length ? { furniture: inside.map((f) => ({ page: f.page, kind: f.kind, text: f.text })) } : {}),
      },
    };
    delete chunk.embedText;
    if (embedText !== text) chunk.embedText = embedText;
    return chunk;
  }
}

/** The headings in effect at `offset` (a heading starting there included), outermost first. */
function headingPathAt(headings: readonly PdfHeading[], offset: number): string[] {
  const stack: PdfHeading[] = [];
  for (const h of headings) {
    if (h.start > offset) break;
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.text);
}

/**
 * Extracts a PDF and chunks it: {@link extractPdf} then {@link PdfChunker}.
 * @throws as {@link extractPdf} and the chunker
 */
export async function chunkPdf(bytes: Uint8Array, chunker: Chunker, options: ExtractPdfOptions = {}): Promise<{ document: PdfDocumentText; chunks: PdfChunk[] }> {
  const document = await extractPdf(bytes, options);
  return { document, chunks: await new PdfChunker(chunker).chunk(document) };
}
