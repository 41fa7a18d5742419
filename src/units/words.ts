/**
 * Word units: maximal runs of non-whitespace (JavaScript `\S`, i.e. not Unicode
 * White_Space). Words keep their punctuation ("data." is one word); a chunk of words is
 * the original slice from its first word's start to its last word's end, whitespace and all.
 * @module
 */
import type { UnitSegmenter, UnitSpans } from './types.js';

/** Whitespace as JavaScript's `\s` defines it. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false; // U+0085 (NEL) is not \s: it is a control, not White_Space's Zs
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whitespace-delimited words of `text` with UTF-16 offsets. */
export function segmentWords(text: string): UnitSpans {
  const n = text.length;
  let starts = new Int32Array(Math.max(16, n >> 2));
  let ends = new Int32Array(starts.length);
  let count = 0;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const s = i;
    while (i < n && !isSpace(text.charCodeAt(i))) i++;
    if (count === starts.length) {
      const grownS = new Int32Array(count * 2);
      grownS.set(starts);
      starts = grownS;
      const grownE = new Int32Array(count * 2);
      grownE.set(ends);
      ends = grownE;
    }
    starts[count] = s;
    ends[count] = i;
    count++;
  }
  return { starts: starts.subarray(0, count), ends: ends.subarray(0, count), count };
}

/** Number of whitespace-delimited words in `text`. */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

/** True when `text` has no non-whitespace character. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** Word units. */
export const wordUnits: UnitSegmenter = {
  unit: 'word',
  name: 'word',
  segment: segmentWords,
  count: countWords,
};
