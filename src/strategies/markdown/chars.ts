/**
 * Character classes of Markdown's scanner and its inline parser, by UTF-16 code unit
 * (CommonMark §2.1 "Characters and lines"), and the small searches over a range of a
 * text they share. Core module.
 * @module
 */

/** ASCII letters. */
export const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** ASCII digits. */
export const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** ASCII letters and digits. */
export const isAlnum = (c: number): boolean => isAlpha(c) || isDigit(c);
/** A space or a tab. */
export const isSpaceTab = (c: number): boolean => c === 32 || c === 9;
/** A line feed or a carriage return. */
export const isLineEnd = (c: number): boolean => c === 10 || c === 13;
/** ASCII punctuation (what a backslash escapes). */
export const isAsciiPunct = (c: number): boolean => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);

/** True when code unit `c` occurs in `[from, to)`. */
export function hasChar(t: string, c: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (t.charCodeAt(i) === c) return true;
  return false;
}

/** True when `[from, to)` holds only spaces and tabs. */
export function isBlankTail(t: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpaceTab(t.charCodeAt(i))) return false;
  return true;
}

/** The end of the run of code unit `c` that starts at `from`, at most `to` (`from` when none starts there). */
export function runEnd(t: string, from: number, to: number, c: number): number {
  while (from < to && t.charCodeAt(from) === c) from++;
  return from;
}
