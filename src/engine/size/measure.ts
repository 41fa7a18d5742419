/**
 * Range measures: the size of any range `[start, end)` of one text, memoized, so a
 * packer that asks twice (a binary search, an overlap step back) pays once.
 *
 * Characters and words are answered from checkpointed prefix counts in O(1) after one
 * O(n) pass (1/32 of the text's length in memory, built on first use); tokens and custom
 * sizers measure `text.slice(start, end)` and remember the answer. Core module.
 * @module
 */
import { lowerBound } from '../search.js';
import { isSpace } from '../text.js';
import { isUnspacedScript, segmentWords, WORD_PIECE } from './words.js';
import { noSurrogates } from './chars.js';
import type { Sizer } from './types.js';

/** Checkpoint spacing of the prefix counts (UTF-16 code units). */
const STEP = 32;

/** Sizes of ranges of one text in one unit. */
export interface RangeMeasure {
  /** The text measured. */
  readonly text: string;
  readonly sizer: Sizer;
  /** Units of `text.slice(start, end)` measured on its own. */
  size(start: number, end: number): number;
  /** What the whitespace in `[start, end)` adds between two joined pieces ({@link Sizer.gapSize}). */
  gap(start: number, end: number): number;
  /** Sizes of ranges `[starts[k], ends[k])` for k < count, into `out` (one call for many pieces, each measured once: not memoized). */
  sizeMany(starts: ArrayLike<number>, ends: ArrayLike<number>, count: number, out: Float64Array): Float64Array;
  /** True when {@link size} costs O(1) (characters, words): a packer may search with it freely. */
  readonly cheap: boolean;
  /** Sizer calls made so far (work counting for linear-time tests). */
  readonly calls: number;
}

/** How a measure that slices and measures remembers its answers. */
export interface RangeMeasureOptions {
  /**
   * `all` (default): every range asked for, so a packer's searches pay once; `recent`:
   * the last two only, for a caller that asks about each range about once (blocks of a
   * megabyte document), where a memo keyed by range grows slower than linearly.
   */
  readonly memo?: 'all' | 'recent';
}

/**
 * The range measure of `text` in `sizer`'s unit.
 * @param text the text all ranges refer to (UTF-16 offsets).
 * @param sizer the unit; `char` and `word` sizers get the O(1) prefix-count measure.
 */
export function rangeMeasure(text: string, sizer: Sizer, options: RangeMeasureOptions = {}): RangeMeasure {
  if (sizer.unit === 'char') return new CharMeasure(text, sizer);
  if (sizer.unit === 'word') return new WordMeasure(text, sizer);
  return options.memo === 'recent' ? new RecentMeasure(text, sizer) : new MemoMeasure(text, sizer);
}

/** Code points: `end − start` minus the surrogate pairs inside, from checkpointed counts. */
class CharMeasure implements RangeMeasure {
  readonly cheap = true;
  calls = 0;
  /** pairs[k] = surrogate pairs whose low half lies before k·STEP; undefined: none in the text. */
  #pairs: Int32Array | undefined | null = null;
  constructor(readonly text: string, readonly sizer: Sizer) {}

  #build(): Int32Array | undefined {
    const t = this.text;
    const n = t.length;
    if (noSurrogates(t)) return undefined;
    const pairs = new Int32Array(Math.floor(n / STEP) + 2);
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (i % STEP === 0) pairs[i / STEP] = count;
      if (isLowOfPair(t, i)) count++;
    }
    pairs[Math.floor(n / STEP) + 1] = count;
    if (n % STEP === 0) pairs[n / STEP] = count;
    return pairs;
  }

  /** Pairs whose low half lies before `p`. */
  #before(pairs: Int32Array, p: number): number {
    const k = Math.floor(p / STEP);
    let count = pairs[k];
    for (let i = k * STEP; i < p; i++) if (isLowOfPair(this.text, i)) count++;
    return count;
  }

  size(start: number, end: number): number {
    this.calls++;
    if (end <= start) return 0;
    if (this.#pairs === null) this.#pairs = this.#build();
    const pairs = this.#pairs;
    if (!pairs) return end - start;
    // a pair cut by `start` counts its low half as one unit (a lone surrogate)
    let inside = this.#before(pairs, end) - this.#before(pairs, start);
    if (isLowOfPair(this.text, start)) inside--;
    return end - start - inside;
  }

  gap(start: number, end: number): number {
    return this.size(start, end);
  }

  sizeMany(starts: ArrayLike<number>, ends: ArrayLike<number>, count: number, out: Float64Array): Float64Array {
    if (this.#pairs === null) this.#pairs = this.#build();
    if (this.#pairs) for (let k = 0; k < count; k++) out[k] = this.size(starts[k], ends[k]);
    else {
      for (let k = 0; k < count; k++) out[k] = Math.max(0, ends[k] - starts[k]);
      this.calls += count;
    }
    return out;
  }
}

/** Sizes one by one: the {@link RangeMeasure.sizeMany} of measures without a bulk path. */
function sizeEach(m: RangeMeasure, starts: ArrayLike<number>, ends: ArrayLike<number>, count: number, out: Float64Array): Float64Array {
  for (let k = 0; k < count; k++) out[k] = m.size(starts[k], ends[k]);
  return out;
}

/** True when text[i] is the low half of a surrogate pair. */
function isLowOfPair(t: string, i: number): boolean {
  const c = t.charCodeAt(i);
  if (c < 0xdc00 || c > 0xdfff || i === 0) return false;
  const h = t.charCodeAt(i - 1);
  return h >= 0xd800 && h <= 0xdbff;
}

/** A letter or digit: what makes an `Intl.Segmenter` word segment word-like. */
const WORD_LIKE = /[\p{L}\p{N}]/u;

/** Words (runs of non-whitespace): word starts counted from checkpointed prefix counts. */
class WordMeasure implements RangeMeasure {
  readonly cheap = true;
  calls = 0;
  /** starts[k] = word starts p ≥ 1 (non-space after a space) before k·STEP. */
  #starts: Int32Array | undefined;
  /** The starts of the text's word units, where words split inside runs of non-whitespace (unspaced scripts, long runs). */
  #units: Int32Array | undefined;
  constructor(readonly text: string, readonly sizer: Sizer) {}

  #build(): Int32Array {
    const t = this.text;
    const n = t.length;
    const starts = new Int32Array(Math.floor(n / STEP) + 2);
    let count = 0;
    let prevSpace = n > 0 ? isSpace(t.charCodeAt(0)) : true;
    let runStart = 0;
    starts[0] = 0;
    for (let i = 1; i <= n; i++) {
      if (i % STEP === 0) starts[i / STEP] = count;
      if (i === n) break;
      const c = t.charCodeAt(i);
      const space = isSpace(c);
      if (!space && prevSpace) {
        count++;
        runStart = i;
      }
      if (!space && ((c >= 0x0e00 && isUnspacedScript(c)) || i - runStart >= WORD_PIECE || (i === 1 && isUnspacedScript(t.charCodeAt(0))))) {
        // words split inside runs of non-whitespace: count the starts of the text's own units
        this.#units = segmentWords(t).starts;
        return starts;
      }
      prevSpace = space;
    }
    starts[Math.floor(n / STEP) + 1] = count;
    return starts;
  }

  /** Word starts p in [1, q). */
  #before(q: number): number {
    const starts = (this.#starts ??= this.#build());
    const units = this.#units;
    if (units) {
      // units whose start lies in [1, q): binary search
      return lowerBound(units, q) - (units.length > 0 && units[0] === 0 && q > 0 ? 1 : 0);
    }
    const k = Math.floor(q / STEP);
    let count = starts[k];
    const t = this.text;
    for (let i = Math.max(1, k * STEP); i < q; i++) {
      if (!isSpace(t.charCodeAt(i)) && isSpace(t.charCodeAt(i - 1))) count++;
    }
    return count;
  }

  size(start: number, end: number): number {
    this.calls++;
    if (end <= start) return 0;
    const first = isSpace(this.text.charCodeAt(start)) ? 0 : 1;
    if (end - start <= 1) return first;
    const n = first + this.#before(end) - this.#before(start + 1);
    return this.#units && first ? n - this.#leadJoins(start, end) : n;
  }

  /**
   * 1 where `start` falls inside a unit whose rest before the next unit start `u < end`
   * holds no letter or digit (punctuation such as `「` after `。`): on its own, the
   * text's first word runs on to its first word-like segment, so that unit and the next
   * are one word (the rule of src/engine/size/words.ts); else 0.
   */
  #leadJoins(start: number, end: number): number {
    const units = this.#units!;
    let lo = 0;
    let hi = units.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (units[mid] <= start) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && units[lo - 1] === start) return 0;
    const next = lo < units.length ? units[lo] : end;
    if (next >= end) return 0;
    for (let i = start; i < next; i++) if (isSpace(this.text.charCodeAt(i))) return 0;
    return WORD_LIKE.test(this.text.slice(start, next)) ? 0 : 1;
  }

  gap(): number {
    return 0;
  }

  sizeMany(starts: ArrayLike<number>, ends: ArrayLike<number>, count: number, out: Float64Array): Float64Array {
    return sizeEach(this, starts, ends, count, out);
  }
}

/** Any other sizer: `size(text.slice(start, end))`, remembered per range. */
class MemoMeasure implements RangeMeasure {
  readonly cheap = false;
  calls = 0;
  readonly #memo = new Map<number, number>();
  readonly #wide: boolean;
  constructor(readonly text: string, readonly sizer: Sizer) {
    // start·(n+1) + end is an exact double key below 2^53
    this.#wide = (text.length + 1) * (text.length + 1) >= 2 ** 53;
  }

  size(start: number, end: number): number {
    if (end <= start) return 0;
    const key = this.#wide ? -1 : start * (this.text.length + 1) + end;
    if (key >= 0) {
      const hit = this.#memo.get(key);
      if (hit !== undefined) return hit;
    }
    this.calls++;
    const n = this.sizer.size(this.text.slice(start, end));
    if (key >= 0) this.#memo.set(key, n);
    return n;
  }

  gap(start: number, end: number): number {
    return gapOf(this, start, end);
  }

  /**
   * Not remembered: the ranges of a bulk call are the pieces of one level, each asked for
   * once and kept by the caller. Putting them in the memo made it a Map of one entry per
   * piece (a million for a 1 MB word cut into grapheme clusters) keyed by heap numbers,
   * whose upkeep and garbage grew faster than the text (a 1.6 MB word: 6.2 s, now 2.6 s).
   */
  sizeMany(starts: ArrayLike<number>, ends: ArrayLike<number>, count: number, out: Float64Array): Float64Array {
    for (let k = 0; k < count; k++) {
      if (ends[k] <= starts[k]) out[k] = 0;
      else {
        this.calls++;
        out[k] = this.sizer.size(this.text.slice(starts[k], ends[k]));
      }
    }
    return out;
  }
}

/** What the whitespace in `[start, end)` adds between two joined pieces: the sizer's gapSize, else its size. */
function gapOf(m: RangeMeasure, start: number, end: number): number {
  if (end <= start) return 0;
  return m.sizer.gapSize ? m.sizer.gapSize(m.text.slice(start, end)) : m.size(start, end);
}

/** Any other sizer: `size(text.slice(start, end))`, the last two answers remembered. */
class RecentMeasure implements RangeMeasure {
  readonly cheap = false;
  calls = 0;
  #s0 = -1;
  #e0 = -1;
  #v0 = 0;
  #s1 = -1;
  #e1 = -1;
  #v1 = 0;
  constructor(
    readonly text: string,
    readonly sizer: Sizer,
  ) {}

  size(start: number, end: number): number {
    if (end <= start) return 0;
    if (start === this.#s0 && end === this.#e0) return this.#v0;
    if (start === this.#s1 && end === this.#e1) return this.#v1;
    this.calls++;
    const v = this.sizer.size(this.text.slice(start, end));
    this.#s1 = this.#s0;
    this.#e1 = this.#e0;
    this.#v1 = this.#v0;
    this.#s0 = start;
    this.#e0 = end;
    this.#v0 = v;
    return v;
  }

  gap(start: number, end: number): number {
    return gapOf(this, start, end);
  }

  sizeMany(starts: ArrayLike<number>, ends: ArrayLike<number>, count: number, out: Float64Array): Float64Array {
    return sizeEach(this, starts, ends, count, out);
  }
}
