/**
 * Character units: Unicode code points, so a surrogate pair is never cut. A lone
 * surrogate is a unit of its own.
 * @module
 */
import { firstSurrogate } from '../../../bindings/index.js';
import { charCut } from './safe-cuts.js';
import type { UnitSegmenter, UnitSpans } from './types.js';

/** Code points of `text` with UTF-16 offsets: unit i is `text.slice(starts[i], ends[i])`. */
export function segmentChars(text: string): UnitSpans {
  const n = text.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    let w = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) w = 2;
    }
    starts[count] = i;
    ends[count] = i + w;
    count++;
    i += w;
  }
  return { starts: starts.subarray(0, count), ends: ends.subarray(0, count), count };
}

/** Number of code points in `text` (a lone surrogate counts as one). */
export function countChars(text: string): number {
  let count = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** True when `text.slice(from, to)` holds no surrogate, so each of its code points is one code unit. */
export function noSurrogates(text: string, from = 0, to = text.length): boolean {
  return firstSurrogate(text, from, to) < 0;
}

/** What joining at `p` adds to the code points of the halves: −1 between the halves of a surrogate pair (each alone counts 1), else 0. */
export function charJoinSize(text: string, p: number): number {
  const c = text.charCodeAt(p - 1);
  const d = text.charCodeAt(p);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? -1 : 0;
}

/** Character units (code points). */
export const charUnits: UnitSegmenter = {
  unit: 'char',
  name: 'char',
  segment: segmentChars,
  singleCodeUnits: noSurrogates,
  size: countChars,
  count: countChars,
  safeCut: charCut,
  additive: true,
  clusterAligned: true,
  joinSize: charJoinSize,
  gapSize: countChars,
};
