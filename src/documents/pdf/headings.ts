/**
 * Headings for `chunkwise/pdf`, inferred from type: a short line larger than the body, or
 * bold, or italic and numbered; its level from the style's rank and its numbering.
 * @module
 */
import type { PdfHeading } from './types.js';

/** What a heading is inferred from: a line of one block of a page, its type, where it sits. */
export interface StyledLine {
  text: string;
  /** Font size, averaged over the line's characters. */
  size: number;
  /** The line's largest font size; NaN where pieces stand 1.5 ems apart or more (a table row). */
  typeSize: number;
  bold: boolean;
  italic: boolean;
  baseline: number;
  column: number;
  band: number;
}

const NUMBERING = /^(\d+(?:\.\d+)*)\.?\s/;
const ROMAN_NUMBERING = /^[IVXLC]+\.\s/;
const LETTER_NUMBERING = /^[A-Z]\.\s/;

/**
 * How deep a heading's numbering puts it: `2.1.` 2; a roman numeral (`IV.`, the sections of
 * IEEE and APS papers) 1, a capital letter (`B.`, their subsections) 2; unnumbered 1.
 */
export function numberingDepth(text: string): number {
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
export function headingStyle(line: StyledLine, bodySize: number): string | undefined {
  if (line.text.length > 90 || !/\p{L}/u.test(line.text)) return undefined;
  // italic only where numbered (`2.1. Measurements`): an italic line may be a quotation
  if (!(line.size >= bodySize * 1.15) && !line.bold && !(line.italic && NUMBERING.test(line.text))) return undefined;
  const max = line.typeSize;
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
export function headingStyles(body: readonly StyledLine[], bodySize: number): (string | undefined)[] {
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
/** The headings in effect at `offset` (a heading starting there included), outermost first. */
export function headingPathAt(headings: readonly PdfHeading[], offset: number): string[] {
  const stack: PdfHeading[] = [];
  for (const h of headings) {
    if (h.start > offset) break;
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.text);
}

/** The body font size: the size (to half a point) most characters of the pages' body lines are set in (read once, page by page); 10 for none. */
export function bodyFontSize(pages: Iterable<readonly StyledLine[]>): number {
  const sizes = new Map<number, number>();
  for (const body of pages) for (const l of body) sizes.set(Math.round(l.size * 2) / 2, (sizes.get(Math.round(l.size * 2) / 2) ?? 0) + l.text.length);
  return [...sizes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
}

/** The heading styles of the document's lines ({@link headingStyles} per page), ranked: larger first, bold before regular, upright before italic. */
export function rankStyles(pages: readonly (readonly (string | undefined)[])[]): string[] {
  const styles = new Set<string>();
  for (const page of pages) for (const s of page) if (s) styles.add(s);
  const key = (s: string) => s.split('|').map(Number);
  return [...styles].sort((a, b) => {
    const [sa, ba, ia] = key(a);
    const [sb, bb, ib] = key(b);
    return sb - sa || bb - ba || ia - ib;
  });
}
