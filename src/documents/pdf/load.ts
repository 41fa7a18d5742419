/**
 * Loading a PDF for `chunkwise/pdf`: pdf.js (`pdfjs-dist`, an optional peer dependency,
 * imported on first use) reads the file page by page; each page's text items become
 * positioned pieces (font size, weight, slant), grouped into fragments for furniture
 * detection in a window of pages, then laid out, packed and written ({@link DocumentTextWriter}).
 * @module
 */
import { DocumentError } from '../document-error.js';
import { firstLine, InvalidInputError, InvalidOptionError, MissingDependencyError } from '../../engine/errors.js';
import { FurnitureWindow, fragments } from './furniture.js';
import type { Piece } from './layout.js';
import { layOutPage, packPage, type PackedPage } from './page-lines.js';
import { DocumentTextWriter } from './text.js';
import type { ExtractPdfOptions, PdfDocumentText } from './types.js';

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

/** A font's weight and slant. */
interface FontStyle {
  bold: boolean;
  italic: boolean;
}

/**
 * The page's pieces: non-blank items, trimmed, in viewport coordinates; `checkItems` sees
 * the item count first. `known`: the styles of the document's fonts read on earlier pages
 * (pdf.js names a font once per document), added to here; the page's operators are parsed
 * (which makes pdf.js hand over its fonts' names) only when it uses a font not in it.
 */
async function pagePieces(page: PdfJsPage, known: Map<string, FontStyle>, checkItems: (items: number) => void): Promise<{ pieces: Piece[]; width: number; height: number }> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  checkItems(content.items.length);
  const read = (item: PdfJsItem) => item.transform !== undefined && (item.str ?? '').trim() !== '';
  // font names (for weight) are known once the page's operators are parsed
  if (content.items.some((item) => read(item) && !known.has(item.fontName ?? ''))) await page.getOperatorList();
  const fonts = new Map<string, FontStyle>();
  const pieces: Piece[] = [];
  content.items.forEach((item, index) => {
    if (!read(item)) return;
    const str = item.str!;
    const font = item.fontName ?? '';
    if (!known.has(font) && !fonts.has(font)) {
      try {
        const obj = page.commonObjs.get(font) as { name?: string; bold?: boolean; italic?: boolean } | undefined;
        const name = (obj?.name ?? '').replace(/^[A-Z]{6}\+/, '');
        known.set(font, { bold: obj?.bold === true || BOLD_FONT.test(name), italic: obj?.italic === true || ITALIC_FONT.test(name) });
      } catch {
        // not handed over (yet): regular on this page, asked again on the next
        fonts.set(font, { bold: false, italic: false });
      }
    }
    const t = transform(viewport.transform, item.transform!);
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
      ...(known.get(font) ?? fonts.get(font) ?? { bold: false, italic: false }),
    });
  });
  return { pieces, width: viewport.width, height: viewport.height };
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
  // pdf.js takes over the buffer it is given (it transfers it to its worker): it gets a copy.
  // This function returns before any await, so that while the pages are read nothing here
  // keeps the caller's bytes alive (a caller that lets them go does not hold the file twice)
  return extractCopy(bytes.slice(), source, maxPages, maxItems, options);
}

/** {@link extractPdf} on `data`, a copy of the caller's bytes that pdf.js takes over. */
async function extractCopy(data: Uint8Array, source: string, maxPages: number, maxItems: number, options: ExtractPdfOptions): Promise<PdfDocumentText> {
  const pdfjs = (options.pdfjs as PdfJs | undefined) ?? (await loadPdfJs());
  let doc: PdfJsDocument;
  try {
    doc = await pdfjs.getDocument({
      data,
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
  let destroyed = false;
  try {
    const count = doc.numPages;
    if (!Number.isInteger(count) || count < 1) throw new DocumentError(source, 'invalid', `the PDF's page tree holds no pages (page count ${count})`);
    if (count > maxPages) throw new DocumentError(source, 'too-large', `the PDF has ${count} pages, more than maxPages (${maxPages})`);
    // pages go through a window: furniture is decided once the pages around a page are read,
    // then the page is laid out and packed, and its pdf.js items and pieces are let go
    const window = new FurnitureWindow<PackedPage>(count);
    const writer = new DocumentTextWriter(count);
    let text = false;
    const fonts = new Map<string, FontStyle>();
    for (n = 1; n <= count; n++) {
      const page = await doc.getPage(n);
      const { pieces, width, height } = await pagePieces(page, fonts, (items) => {
        if (items > maxItems) throw new DocumentError(source, 'too-large', `page ${n} has ${items} text items, more than maxItemsPerPage (${maxItems})`);
      });
      const found = fragments(pieces);
      if (found.length > 0) text = true;
      for (const p of window.add(packPage(found, width, height), found, height)) writer.add(layOutPage(p.page, p.furniture));
      page.cleanup?.();
      // pdf.js's in-thread worker answers in microtasks: a turn of the event loop per page lets
      // timers and I/O run during a long PDF (a server's other requests, a progress line)
      await yieldToEventLoop();
    }
    n = 0;
    if (!text) {
      throw new DocumentError(source, 'no-text', `the PDF has no text layer (${count} page${count === 1 ? '' : 's'} of images?): it needs OCR first`);
    }
    // every page is read: pdf.js's copy of the file and the pages it caches go before the text is written
    destroyed = true;
    await doc.destroy();
    for (const p of window.finish()) writer.add(layOutPage(p.page, p.furniture));
    return writer.finish();
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    // pdf.js's own errors (a page tree that loops, a broken object) and anything a malformed page makes of the layout
    throw new DocumentError(source, 'invalid', `${n > 0 ? `page ${n}: ` : ''}the PDF is malformed (${firstLine(error) || (error as Error)?.name || 'unknown error'})`);
  } finally {
    if (!destroyed) await doc.destroy();
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
