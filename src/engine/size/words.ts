/**
 * Word units: maximal runs of non-whitespace (JavaScript `\S`, i.e. not Unicode
 * White_Space). Words keep their punctuation ("data." is one word); a chunk of words is
 * the original slice from its first word's start to its last word's end, whitespace and all.
 * @module
 */
import { isSpace } from '../text.js';
import { wordCut } from './safe-cuts.js';
import type { UnitSegmenter, UnitSpans } from './types.js';

export { isBlank } from '../text.js';

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

/** What joining at `p` adds to the words of the halves: −1 where `p` falls inside a word (two halves of one word), else 0. */
export function wordJoinSize(text: string, p: number): number {
  return isSpace(text.charCodeAt(p - 1)) || isSpace(text.charCodeAt(p)) ? 0 : -1;
}

/** Word units. */
export const wordUnits: UnitSegmenter = {
  unit: 'word',
  name: 'word',
  segment: segmentWords,
  size: countWords,
  count: countWords,
  safeCut: wordCut,
  additive: true,
  blankUnits: false,
  joinSize: wordJoinSize,
  gapSize: () => 0,
};
