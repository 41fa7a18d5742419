/**
 * Character classes of Markdown's scanner and its inline parser, by UTF-16 code unit
 * (CommonMark §2.1 "Characters and lines"), and the small searches over a range of a
 * text they share. Core module.
 * @module
 */

const PUNCT = /[\p{P}\p{S}]/u;
const SPACE = /\s/;

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

/**
 * micromark's `classifyCharacter` of the code unit at `i` (micromark classifies UTF-16
 * code units, so half of a surrogate pair is "other"): 1 whitespace (or none), 2
 * punctuation, 0 other.
 */
export function classify(s: string, i: number): number {
  if (i < 0 || i >= s.length) return 1;
  const c = s.charCodeAt(i);
  if (c < 128) {
    if (c <= 32) return c === 32 || (c >= 9 && c <= 13) ? 1 : 0;
    return isAsciiPunct(c) ? 2 : 0;
  }
  if (c >= 0xd800 && c <= 0xdfff) return 0;
  const ch = s[i];
  if (SPACE.test(ch)) return 1;
  return PUNCT.test(ch) ? 2 : 0;
}

/** What `\s` matches, for one code unit. */
export function isWhite(c: number): boolean {
  return c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && SPACE.test(String.fromCharCode(c));
}

/** GFM's `atext` of literal email autolinks: `+ - . _` and ASCII alphanumerics. */
export function isAtext(c: number): boolean {
  return c === 43 || c === 45 || c === 46 || c === 95 || isAlnum(c);
}

/** Characters of an email autolink's local part. */
export function isEmailLocal(c: number): boolean {
  return isAlnum(c) || (c >= 33 && c <= 47 && c !== 34 && c !== 40 && c !== 41 && c !== 44) || c === 61 || c === 63 || c === 94 || c === 95 || c === 96 || c === 123 || c === 124 || c === 125 || c === 126;
}

/** Skips spaces, tabs and line endings. */
export function skipWs(s: string, i: number): number {
  while (i < s.length && (isSpaceTab(s.charCodeAt(i)) || isLineEnd(s.charCodeAt(i)))) i++;
  return i;
}
