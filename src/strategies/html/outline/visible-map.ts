/**
 * The map from an HTML document's visible text back to its source. Core module.
 * @module
 */
import { upperBound } from '../../../engine/search.js';
import { IntList } from '../tree.js';

/**
 * Where each character of the visible text comes from: segments `[v, v + len)` of the
 * visible text copied from `[src, src + srcLen)` of the source — one to one when the
 * lengths agree, else (a character reference, collapsed whitespace) as a whole; text
 * between segments (separators the walk adds: line breaks, ` | `) comes from nowhere.
 */
export class VisibleMap {
  readonly #v = new IntList();
  readonly #src = new IntList();
  readonly #len = new IntList();
  readonly #srcLen = new IntList();

  /** Segments so far. */
  get count(): number {
    return this.#v.length;
  }

  /** Appends a segment, merging it into the previous one where both are one to one and adjacent. */
  add(v: number, src: number, len: number, srcLen: number): void {
    const n = this.#v.length;
    if (n > 0 && len === srcLen) {
      const k = n - 1;
      const pv = this.#v.data[k];
      const pl = this.#len.data[k];
      const ps = this.#src.data[k];
      if (pl === this.#srcLen.data[k] && v - (pv + pl) === src - (ps + pl) && v - (pv + pl) <= 1 && v >= pv + pl) {
        // contiguous, or separated by one collapsed whitespace character that maps to one source character
        this.#len.data[k] = this.#srcLen.data[k] = v + len - pv;
        return;
      }
    }
    this.#v.push(v);
    this.#src.push(src);
    this.#len.push(len);
    this.#srcLen.push(srcLen);
  }

  /** The source spans the visible text comes from, in order, adjacent ones merged: `[start, end)` pairs. */
  sourceSpans(): { start: number; end: number }[] {
    const out: { start: number; end: number }[] = [];
    for (let k = 0; k < this.#v.length; k++) {
      const start = this.#src.data[k];
      const end = start + this.#srcLen.data[k];
      const last = out[out.length - 1];
      if (last && last.end === start) last.end = end;
      else out.push({ start, end });
    }
    return out;
  }

  /** Index of the last segment starting at or before `v`, or −1. */
  #find(v: number): number {
    return upperBound(this.#v.data, v, 0, this.#v.length) - 1;
  }

  /** The source offset where visible offset `v` starts (text from nowhere: the next segment's start; −1 if none). */
  sourceStart(v: number): number {
    const k = this.#find(v);
    if (k >= 0 && v < this.#v.data[k] + this.#len.data[k]) {
      return this.#len.data[k] === this.#srcLen.data[k] ? this.#src.data[k] + (v - this.#v.data[k]) : this.#src.data[k];
    }
    return k + 1 < this.#v.length ? this.#src.data[k + 1] : -1;
  }

  /** The source offset where the visible text before `vEnd` ends (text from nowhere: the previous segment's end; −1 if none). */
  sourceEnd(vEnd: number): number {
    const k = this.#find(vEnd - 1);
    if (k < 0) return -1;
    const v = this.#v.data[k];
    const len = this.#len.data[k];
    if (vEnd <= v + len && len === this.#srcLen.data[k]) return this.#src.data[k] + (vEnd - v);
    return this.#src.data[k] + this.#srcLen.data[k];
  }
}
