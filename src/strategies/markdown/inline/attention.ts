/**
 * Emphasis, strong emphasis (CommonMark §6.2, the delimiter-run algorithm of its
 * appendix) and GFM strikethrough (`~`, `~~`): delimiter runs pushed as the parser meets
 * them, matched when the content (or a link's text) ends, markers cut from their pieces.
 * Core module.
 * @module
 */
import { classify } from '../chars.js';
import type { Delim, InlineParser } from './parser.js';

/** A run of `*`, `_` or `~` at `i`: a text piece and a delimiter (or plain text). */
export function attentionRun(p: InlineParser, i: number, ch: number): number {
  const s = p.s;
  let j = i;
  while (s.charCodeAt(j) === ch) j++;
  const count = j - i;
  const before = classify(s, i - 1);
  const after = classify(s, j);
  // micromark counts a neighbouring marker of another construct (GFM's ~) as an opener / closer
  const marker = (c: number) => c === 126;
  let canOpen: boolean;
  let canClose: boolean;
  if (ch === 126) {
    // GFM strikethrough: one or two tildes, not after another tilde
    if (count > 2) {
      p.pending += s.slice(i, j);
      return j;
    }
    canOpen = after === 0 || (after === 2 && before !== 0);
    canClose = before === 0 || (before === 2 && after !== 0);
  } else {
    // micromark's attention: whitespace 1, punctuation 2, other 0 (falsy)
    const open = after === 0 || (after === 2 && before !== 0) || marker(s.charCodeAt(j));
    const close = before === 0 || (before === 2 && after !== 0) || marker(s.charCodeAt(i - 1));
    canOpen = ch === 42 ? open : open && (before !== 0 || !close);
    canClose = ch === 42 ? close : close && (after !== 0 || !open);
  }
  const piece = p.piece(s.slice(i, j));
  if (p.firstKind === 0) p.firstKind = ch === 126 ? 126 : 42;
  if (canOpen || canClose) {
    const d: Delim = { piece, ch, count, canOpen, canClose, prev: p.delims, next: null };
    if (p.delims) p.delims.next = d;
    p.delims = d;
  }
  return j;
}

/**
 * Matches the delimiter runs above `bottom` and drops them from the stack. micromark
 * resolves emphasis (`*`, `_`) and strikethrough (`~`) one after the other — at the top
 * level in the order their first run occurs, inside a link strikethrough first — and a
 * span of the first kind encloses what is inside it, so a run of the second kind only
 * pairs with one in the same enclosing span. Markers used are cut from their pieces.
 */
export function emphasis(p: InlineParser, bottom: Delim | null, inLink = false): void {
  const runs: Delim[] = [];
  for (let d = bottom ? bottom.next : firstDelim(p); d; d = d.next) {
    p.step();
    runs.push(d);
  }
  if (runs.length === 0) {
    // no delimiter runs: nothing to match (the common case: text without emphasis)
    while (p.delims && p.delims !== bottom) removeDelim(p, p.delims);
    return;
  }
  const strikeFirst = inLink || p.firstKind === 126;
  const isFirst = (d: Delim) => (d.ch === 126) === strikeFirst;
  const region = new Int32Array(runs.length); // innermost span of the first kind around each run (-1: none)
  region.fill(-1);
  const spans = match(p, runs, isFirst, undefined);
  // regions: a sweep over the runs with the spans (properly nested) closed and opened;
  // a run may close and open several (inner spans matched first, so opened last)
  const opens: number[][] = runs.map(() => []);
  const closes = new Int32Array(runs.length);
  for (let k = spans.length - 1; k >= 0; k--) opens[spans[k][0]].push(k);
  for (const [, c] of spans) closes[c]++;
  const stack: number[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let k = 0; k < closes[i]; k++) stack.pop();
    region[i] = stack.length ? stack[stack.length - 1] : -1;
    for (const k of opens[i]) stack.push(k);
  }
  match(p, runs, (d) => !isFirst(d), region);
  while (p.delims && p.delims !== bottom) removeDelim(p, p.delims);
}

/**
 * CommonMark's delimiter algorithm (closers left to right, the nearest fitting opener)
 * over the runs `take` selects, openers limited to the closer's region when given.
 * @returns the matched pairs (indices into `runs`), in the order they matched.
 */
function match(p: InlineParser, runs: Delim[], take: (d: Delim) => boolean, region: Int32Array | undefined): [number, number][] {
  const pairs: [number, number][] = [];
  const idx: number[] = [];
  for (let i = 0; i < runs.length; i++) if (take(runs[i])) idx.push(i);
  const alive = idx.map(() => true);
  const openersBottom = new Map<string, number>();
  for (let ci = 0; ci < idx.length; ci++) {
    const closer = runs[idx[ci]];
    while (alive[ci] && closer.canClose && closer.count > 0) {
      p.step();
      const key = `${closer.ch}:${closer.canOpen ? 1 : 0}:${closer.count % 3}:${region ? region[idx[ci]] : 0}`;
      const floor = openersBottom.get(key) ?? -1;
      let oi = ci - 1;
      for (; oi > floor; oi--) {
        p.step();
        if (!alive[oi]) continue;
        const opener = runs[idx[oi]];
        if (opener.ch !== closer.ch || !opener.canOpen || opener.count === 0) continue;
        if (region && region[idx[oi]] !== region[idx[ci]]) continue;
        if (closer.ch === 126) {
          if (opener.count === closer.count) break;
        } else if (!((opener.canClose || closer.canOpen) && closer.count % 3 !== 0 && (opener.count + closer.count) % 3 === 0)) break;
      }
      if (oi <= floor) {
        openersBottom.set(key, ci - 1);
        if (!closer.canOpen) alive[ci] = false;
        break;
      }
      const opener = runs[idx[oi]];
      const use = closer.ch === 126 ? closer.count : opener.count >= 2 && closer.count >= 2 ? 2 : 1;
      opener.count -= use;
      closer.count -= use;
      p.out[opener.piece] = p.out[opener.piece].slice(use);
      p.out[closer.piece] = p.out[closer.piece].slice(use);
      pairs.push([idx[oi], idx[ci]]);
      // micromark's rule of three reads the runs' remaining lengths: an opener whose
      // length changed may now fit closers an earlier search ruled out below it
      for (const [key, f] of openersBottom) if (f >= oi) openersBottom.delete(key);
      for (let k = oi + 1; k < ci; k++) alive[k] = false;
      if (opener.count === 0) alive[oi] = false;
      if (closer.count === 0) alive[ci] = false;
    }
  }
  return pairs;
}

function firstDelim(p: InlineParser): Delim | null {
  let d = p.delims;
  while (d && d.prev) {
    p.step();
    d = d.prev;
  }
  return d;
}

export function removeDelim(p: InlineParser, d: Delim): void {
  if (d.prev) d.prev.next = d.next;
  if (d.next) d.next.prev = d.prev;
  else p.delims = d.prev;
}
