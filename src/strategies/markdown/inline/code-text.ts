/**
 * Code spans (CommonMark §6.1): a backtick run closed by the next run of the same length,
 * found through an index of the text's backtick runs (linear time). Core module.
 * @module
 */
import type { InlineParser } from './parser.js';

/** A code span at `i` (a run of backticks), or the run as text. */
export function codeSpan(p: InlineParser, i: number): number {
  const s = p.s;
  let j = i;
  while (s.charCodeAt(j) === 96) j++;
  const len = j - i;
  const close = closingRun(p, len, j);
  if (close < 0) {
    p.pending += s.slice(i, j);
    return j;
  }
  let content = s.slice(j, close).replace(/\r\n|\r|\n/g, ' ');
  if (content.length >= 2 && content.charCodeAt(0) === 32 && content.charCodeAt(content.length - 1) === 32 && /[^ ]/.test(content)) content = content.slice(1, -1);
  p.step(close - j);
  p.piece(content);
  return close + len;
}

/** The start of the first run of exactly `len` backticks at or after `from`, or -1. */
function closingRun(p: InlineParser, len: number, from: number): number {
  if (!p.ticks) {
    const runs = new Map<number, number[]>();
    const s = p.s;
    for (let k = 0; k < s.length; k++) {
      if (s.charCodeAt(k) !== 96) continue;
      let e = k;
      while (s.charCodeAt(e) === 96) e++;
      let list = runs.get(e - k);
      if (!list) runs.set(e - k, (list = []));
      list.push(k);
      k = e - 1;
    }
    p.step(s.length);
    p.ticks = runs;
  }
  const list = p.ticks.get(len);
  if (!list) return -1;
  const cursors = (p.tickCursor ??= new Map());
  let k = cursors.get(len) ?? 0;
  while (k < list.length && list[k] < from) {
    p.step();
    k++;
  }
  cursors.set(len, k);
  return k < list.length ? list[k] : -1;
}
