/**
 * The document text of `chunkwise/pdf`: each page's lines (furniture and body, in reading
 * order) written out as one text, paragraphs separated by `\n\n` and lines by `\n`, with
 * the runs, lines, pages, headings, furniture and sections that map its offsets back.
 * @module
 */
import { FURNITURE_WINDOW } from './furniture.js';
import { bodyFontSize, headingStyle, headingStyles, numberingDepth, rankStyles } from './headings.js';
import { RUN_FIELDS, unpackLines, type LaidPage, type PageLine } from './page-lines.js';
import type { PdfDocumentText, PdfFurniture, PdfHeading, PdfLine, PdfPage, PdfTextRun } from './types.js';

/** A page unpacked, its body lines' heading styles, and whether a paragraph runs over onto it. */
interface ReadyPage {
  laid: LaidPage;
  header: PageLine[];
  body: PageLine[];
  footer: PageLine[];
  styles: (string | undefined)[];
  continues: boolean;
}

/**
 * Writes laid-out pages as one text, page by page, and records where everything went. The
 * body font size (which tells headings from body text) is the document's when it has at most
 * `window` pages, else that of its first `window` pages: those are held until it is known,
 * then each page is written as the next one arrives (a paragraph may run over onto it). Heading
 * levels rank the styles of the whole document; they are set at the end.
 */
export class DocumentTextWriter {
  readonly #wait: number;
  #bodySize: number | undefined;
  readonly #held: LaidPage[] = [];
  /** The page read and not written yet (its footer waits on whether the next page continues it). */
  #ready: ReadyPage | undefined;
  /** The last body line of the pages read. */
  #last: PageLine | undefined;
  #pageNumber = 0;
  /** The text of the page being written, in pieces (lines and separators). */
  #parts: string[] = [];
  /** The text of the pages written, one string a page: a page's lines are let go once it is written. */
  #pageTexts: string[] = [];
  #length = 0;
  readonly #pages: PdfPage[] = [];
  readonly #runs: PdfTextRun[] = [];
  readonly #lines: PdfLine[] = [];
  readonly #headings: PdfHeading[] = [];
  /** Each heading's style and numbering depth, for its level at the end. */
  readonly #headingStyles: { style: string; depth: number }[] = [];
  /** The heading styles seen. */
  readonly #styles = new Set<string>();
  readonly #furniture: PdfFurniture[] = [];
  readonly #sections: { start: number; end: number }[] = [];
  #section: { start: number; end: number } | undefined;

  /**
   * @param count the document's page count
   * @param window pages the body font size is read from in a longer document
   */
  constructor(count: number, window = FURNITURE_WINDOW) {
    this.#wait = Math.min(count, window);
  }

  /** Adds the next page. */
  add(laid: LaidPage): void {
    if (this.#bodySize !== undefined) {
      this.#read(laid);
      return;
    }
    this.#held.push(laid);
    if (this.#held.length >= this.#wait) this.#release();
  }

  /** The document text: call after the last page. */
  finish(): PdfDocumentText {
    if (this.#bodySize === undefined) this.#release();
    if (this.#ready) this.#write(this.#ready, false);
    this.#ready = undefined;
    if (this.#section) this.#sections.push(this.#section);
    const rank = rankStyles([[...this.#styles]]);
    this.#headings.forEach((h, k) => (h.level = rank.indexOf(this.#headingStyles[k].style) + this.#headingStyles[k].depth));
    const text = this.#pageTexts.join('');
    this.#pageTexts = [];
    return { text, pages: this.#pages, runs: this.#runs, lines: this.#lines, headings: this.#headings, furniture: this.#furniture, sections: this.#sections };
  }

  /** The body font size from the pages held, then those pages read. */
  #release(): void {
    const held = this.#held.splice(0);
    this.#bodySize = bodyFontSize(
      (function* () {
        for (const p of held) yield unpackLines(p.body);
      })(),
    );
    for (const p of held) this.#read(p);
  }

  #read(laid: LaidPage): void {
    const body = unpackLines(laid.body);
    const styles = headingStyles(body, this.#bodySize!);
    for (const style of styles) if (style !== undefined) this.#styles.add(style);
    // does the last body paragraph of the page before run over onto this one?
    const continues = this.#runsOver(this.#last, body[0]);
    if (body.length > 0) this.#last = body[body.length - 1];
    if (this.#ready) this.#write(this.#ready, continues);
    this.#ready = { laid, header: unpackLines(laid.header), body, footer: unpackLines(laid.footer), styles, continues };
  }

  #runsOver(last: PageLine | undefined, first: PageLine | undefined): boolean {
    const bodySize = this.#bodySize!;
    if (!last || !first || headingStyle(last, bodySize) !== undefined || headingStyle(first, bodySize) !== undefined) return false;
    return /\p{L}-$/u.test(last.text) || (!/[.!?:;)\]"”]$/u.test(last.text) && /^\p{Ll}/u.test(first.text));
  }

  #emitLine(l: PageLine, page: number, sep: string): number {
    this.#parts.push(sep, l.text);
    const start = this.#length + sep.length;
    this.#length = start + l.text.length;
    for (let k = l.firstRun; k < l.firstRun + l.runCount; k++) {
      const [offset, length, x0, y0, x1, y1, item, itemOffset, fontSize, bold] = l.runs.subarray(k * RUN_FIELDS, (k + 1) * RUN_FIELDS);
      // integers as small integers (`| 0`): read from a Float64Array they would be stored boxed, 16 bytes more each
      const at = start + (offset | 0);
      this.#runs.push({ start: at, end: at + (length | 0), box: { page, x0, y0, x1, y1 }, item: item | 0, itemOffset: itemOffset | 0, fontSize, bold: bold === 1 });
    }
    this.#lines.push({ start, end: this.#length, box: { page, x0: l.x0, y0: l.top, x1: l.x1, y1: l.bottom }, column: l.column | 0, band: l.band | 0 });
    return start;
  }

  #sepBefore(): string {
    return this.#length === 0 ? '' : '\n\n';
  }

  /** Writes a page: `next`, whether the page after continues its last paragraph. */
  #write(p: ReadyPage, next: boolean): void {
    const page = ++this.#pageNumber;
    const bodySize = this.#bodySize!;
    const firstLine = this.#lines.length;
    // headers and footers inside a paragraph running over the page stay on its lines
    for (const l of p.header) {
      const s = this.#emitLine(l, page, p.continues ? '\n' : this.#sepBefore());
      // the line's own text (a copy), not a slice of the document text: a slice keeps the whole text so far alive
      this.#furniture.push({ start: s, end: this.#length, page, kind: 'header', text: l.text });
    }
    if (!p.continues && this.#section) {
      this.#sections.push(this.#section);
      this.#section = undefined;
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
    let prev: PageLine | undefined;
    let prevStyle: string | undefined;
    p.body.forEach((l, k) => {
      const style = p.styles[k];
      const sameBlock = prev !== undefined && prev.column === l.column && prev.band === l.band;
      // the next line of a heading set on several lines
      const headingGoesOn = style !== undefined && style === prevStyle && sameBlock && l.baseline - prev!.baseline <= 1.6 * l.size;
      let sep: string;
      if (!prev) sep = p.continues ? '\n' : this.#sepBefore();
      else {
        const gap = l.baseline - prev.baseline;
        const newParagraph = !headingGoesOn && (!sameBlock || style !== undefined || prevStyle !== undefined || gap > pitch * 1.2 || gap < 0);
        sep = newParagraph ? '\n\n' : '\n';
      }
      const s = this.#emitLine(l, page, sep);
      this.#section ??= { start: s, end: this.#length };
      this.#section.end = this.#length;
      if (headingGoesOn) {
        const h = this.#headings[this.#headings.length - 1];
        h.end = this.#length;
        h.text = `${h.text} ${l.text}`;
      } else if (style !== undefined) {
        this.#headings.push({ start: s, end: this.#length, level: 0, text: l.text });
        this.#headingStyles.push({ style, depth: numberingDepth(l.text) });
      }
      prev = l;
      prevStyle = style;
    });
    for (const l of p.footer) {
      const s = this.#emitLine(l, page, next ? '\n' : this.#sepBefore());
      this.#furniture.push({ start: s, end: this.#length, page, kind: 'footer', text: l.text });
    }
    this.#pageTexts.push(this.#parts.join(''));
    this.#parts = [];
    const first = this.#lines[firstLine];
    const last = this.#lines[this.#lines.length - 1];
    this.#pages.push({ number: page, width: p.laid.width, height: p.laid.height, start: first?.start ?? this.#length, end: this.#lines.length > firstLine ? last.end : this.#length });
  }
}
