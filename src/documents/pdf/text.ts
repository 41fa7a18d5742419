/**
 * The document text of `chunkwise/pdf`: each page's lines (furniture and body, in reading
 * order) written out as one text, paragraphs separated by `\n\n` and lines by `\n`, with
 * the runs, lines, pages, headings, furniture and sections that map its offsets back.
 * @module
 */
import type { Fragment } from './furniture.js';
import { bodyFontSize, headingStyle, headingStyles, numberingDepth, rankStyles } from './headings.js';
import { layoutLine, pageRows, readingOrder, spaced, type LayoutLine } from './layout.js';
import type { PdfDocumentText, PdfFurniture, PdfHeading, PdfLine, PdfPage, PdfTextRun } from './types.js';

/** Lays the pages' lines out as one text and records where everything went. */
export function documentText(raw: { fragments: Fragment[]; width: number; height: number }[]): PdfDocumentText {
  const pageLines = raw.map((p) => {
    const piecesOf = (keep: (f: Fragment) => boolean) => p.fragments.filter(keep).flatMap((f) => f.pieces);
    const body = readingOrder(piecesOf((f) => !f.furniture));
    const furnitureLines = (kind: 'header' | 'footer') => pageRows(piecesOf((f) => f.furniture === kind)).map((r) => layoutLine(r.pieces, -1, -1, 0));
    return { body, header: furnitureLines('header'), footer: furnitureLines('footer') };
  });
  const bodySize = bodyFontSize(pageLines.map((p) => p.body));
  const lineStyles = pageLines.map((p) => headingStyles(p.body, bodySize));
  const rank = rankStyles(lineStyles);

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
