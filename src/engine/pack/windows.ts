/**
 * Window planning over units: the exact sliding-window rules below, as a {@link StreamPlan} — the same steps plan a whole string (one
 * final step) and a stream (a step per arrival of text), so the two agree by
 * construction.
 *
 * Units are laid out from the first to the last unit with non-whitespace text; windows
 * start at unit 0, stride, 2·stride, …; the last window is the first that reaches the
 * last unit. Where a window's text, measured on its own, has more units than the window
 * (BPE tokens re-encode differently at a cut inside a word), its end moves back by whole
 * units until it fits (one memoized binary search); a following window then starts no
 * later than that end, so no text is lost. A window whose text is whitespace only (a
 * long run of spaces in char units) is not emitted. Core module.
 * @module
 */
import { isBlank, isSpace } from '../text.js';
import type { ResolvedUnits } from '../size/resolve.js';
import type { StepResult, StreamPlan } from '../stream/stream-plan.js';
import type { PlannedChunk } from '../assemble.js';

/** One planned window: units [unitStart, unitEnd), text [start, end) (stream offsets). */
export interface PlannedSpan {
  unitStart: number;
  unitEnd: number;
  start: number;
  end: number;
  /** Units of the span's text measured on its own (≤ windowSize unless `oversized`). */
  unitCount: number;
  /** The span holds a single unit whose text alone exceeds the budget. */
  oversized: boolean;
}

/**
 * Growable unit offsets (stream offsets as doubles: a stream may pass 2^31 code units);
 * a whole string's units are adopted as they are (Int32Array, no copy), and units that
 * are one code unit each are not stored at all (unit i is `[origin + i, origin + i + 1)`).
 */
class UnitBuffer {
  starts: Float64Array | Int32Array = new Float64Array(1024);
  ends: Float64Array | Int32Array = new Float64Array(1024);
  /** ≥ 0: units are single code units from this stream offset on, and `starts`/`ends` are unused. */
  origin = -1;
  /** Global index of slot 0. */
  base = 0;
  /** Units stored. */
  length = 0;
  get total(): number {
    return this.base + this.length;
  }
  /** Takes `starts`/`ends` (offsets from 0) as the buffer's first `count` units. */
  adopt(starts: Int32Array, ends: Int32Array, count: number): void {
    this.starts = starts;
    this.ends = ends;
    this.length = count;
  }
  /** Takes `count` units of one code unit each, the first at stream offset `origin`, as the buffer's first units. */
  adoptCodeUnits(origin: number, count: number): void {
    this.origin = origin;
    this.length = count;
  }
  push(start: number, end: number): void {
    if (this.origin >= 0) {
      // later text may hold wider units: store the single-code-unit ones from here on
      const cap = Math.max(1024, this.length * 2);
      this.starts = new Float64Array(cap);
      this.ends = new Float64Array(cap);
      for (let k = 0; k < this.length; k++) {
        this.starts[k] = this.origin + this.base + k;
        this.ends[k] = this.origin + this.base + k + 1;
      }
      this.origin = -1;
    }
    if (this.length === this.starts.length || !(this.starts instanceof Float64Array)) {
      const s = new Float64Array(Math.max(1024, this.length * 2));
      s.set(this.starts.subarray(0, this.length));
      this.starts = s;
      const e = new Float64Array(Math.max(1024, this.length * 2));
      e.set(this.ends.subarray(0, this.length));
      this.ends = e;
    }
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
  }
  start(i: number): number {
    return this.origin >= 0 ? this.origin + i : this.starts[i - this.base];
  }
  end(i: number): number {
    return this.origin >= 0 ? this.origin + i + 1 : this.ends[i - this.base];
  }
  /** Drops units with global index < i. */
  dropBefore(i: number): void {
    const k = Math.min(i - this.base, this.length);
    if (k <= 0) return;
    if (this.origin >= 0) {
      this.length -= k;
      this.base += k;
      return;
    }
    this.starts.copyWithin(0, k, this.length);
    this.ends.copyWithin(0, k, this.length);
    this.length -= k;
    this.base += k;
  }
}

/** State carried between steps. */
export interface WindowState {
  units: UnitBuffer;
  /** Stream offset up to which text is segmented into units. */
  segAt: number;
  /** A unit with non-whitespace text has been seen (units are numbered from it). */
  started: boolean;
  /** Units [0, known) end at or before the last unit with non-whitespace text seen. */
  known: number;
  /** Next window index. */
  k: number;
  /** Units [0, covered) lie in planned windows. */
  covered: number;
  /** The last planned window, held until the next one shows it is not inside it. */
  pending: PlannedSpan | undefined;
  /** Unit end of the last emitted window (for `overlapUnits`). */
  prevUnitEnd: number;
  emitted: number;
}

/**
 * Sliding windows of `windowSize` units moved by `stride` units, as a stream plan.
 * `stride > windowSize` (gaps) is allowed here; the chunker decides whether to accept it.
 */
export class WindowPlan implements StreamPlan<WindowState> {
  /** The metadata of the last window emitted, reused while the overlap stays the same. */
  #metadata: { readonly overlapUnits: number } | undefined;

  constructor(
    readonly windowSize: number,
    readonly stride: number,
    readonly units: ResolvedUnits,
  ) {}

  /** Steps are incremental (new text is segmented once, windows planned once): one per piece. */
  growth(): number {
    return 0;
  }

  initial(): WindowState {
    return { units: new UnitBuffer(), segAt: 0, started: false, known: 0, k: 0, covered: 0, pending: undefined, prevUnitEnd: 0, emitted: 0 };
  }

  /** Text of [start, end) (stream offsets) from the held `text` that starts at `offset`. */
  #slice(text: string, offset: number, start: number, end: number): string {
    return text.slice(start - offset, end - offset);
  }

  step(text: string, offset: number, st: WindowState, final: boolean): StepResult<WindowState> {
    const sizer = this.units.units;
    const W = this.windowSize;
    const stride = this.stride;
    const gaps = stride > W;
    const u = st.units;
    // 1. segment up to the sizer's last safe cut (everything when final)
    const from = st.segAt - offset;
    const to = final ? text.length : sizer.safeCut ? sizer.safeCut(text, from) : from;
    if (to > from && st.segAt === 0 && u.length === 0 && sizer.singleCodeUnits?.(text, from, to)) {
      // every unit is one code unit: no segmentation, units laid from the first non-blank one
      let first = from;
      while (first < to && isSpace(text.charCodeAt(first))) first++;
      let last = to - 1;
      while (last >= first && isSpace(text.charCodeAt(last))) last--;
      if (first < to) {
        st.started = true;
        u.adoptCodeUnits(offset + first, to - first);
        if (last >= first) st.known = last + 1 - first;
      }
      st.segAt = offset + to;
    } else if (to > from) {
      const piece = text.slice(from, to);
      const spans = sizer.segment(piece);
      const base = st.segAt;
      const blank = sizer.blankUnits === false ? () => false : (i: number) => isBlank(piece.slice(spans.starts[i], spans.ends[i]));
      let first = 0;
      if (!st.started) {
        while (first < spans.count && blank(first)) first++;
        st.started = first < spans.count;
      }
      if (st.started && first < spans.count) {
        if (base === 0 && u.length === 0 && first === 0) u.adopt(spans.starts, spans.ends, spans.count);
        else for (let i = first; i < spans.count; i++) u.push(base + spans.starts[i], base + spans.ends[i]);
        // units up to the last one with non-whitespace text are known to lie inside the text's span
        let last = spans.count - 1;
        while (last >= first && blank(last)) last--;
        if (last >= first) st.known = u.total - (spans.count - 1 - last);
      }
      st.segAt = offset + to;
    }
    // 2. plan every decided window (with final: all the rest; n is then `known`)
    const out: PlannedChunk[] = [];
    const n = st.known;
    const measure = sizer.additive ? undefined : (s: number, e: number) => sizer.size(this.#slice(text, offset, s, e));
    for (;;) {
      if (final && st.covered >= n) break;
      let s: number;
      let e: number;
      const sk = st.k * stride;
      if (final) {
        const exists = sk < n && (st.k === 0 || (st.k - 1) * stride + W < n);
        if (exists && (gaps || sk <= st.covered)) {
          s = sk;
          e = Math.min(sk + W, n);
          st.k++;
        } else if (gaps) {
          break; // with gaps the caller accepts units after the last window start being skipped
        } else {
          s = st.covered;
          e = Math.min(s + W, n);
        }
      } else if (gaps || sk <= st.covered) {
        if (sk + W > n) break; // window k is not decided yet
        s = sk;
        e = sk + W;
        st.k++;
      } else {
        if (st.covered + W > n) break;
        s = st.covered;
        e = st.covered + W;
      }
      const span = this.#fit(u, s, e, measure);
      st.covered = Math.max(st.covered, span.unitEnd);
      if (span.end <= span.start) continue;
      const pending = st.pending;
      if (pending && span.end <= pending.end) continue; // wholly inside the previous span
      if (pending && span.start <= pending.start) st.pending = span; // the previous lies inside this one
      else {
        if (pending) this.#emit(text, offset, st, pending, out);
        st.pending = span;
      }
    }
    if (final && st.pending) {
      this.#emit(text, offset, st, st.pending, out);
      st.pending = undefined;
    }
    // 3. what later windows still need
    let keepUnit = Math.min(st.k * stride, st.covered);
    if (st.pending) keepUnit = Math.min(keepUnit, st.pending.unitStart);
    u.dropBefore(keepUnit);
    let keepAt = st.segAt;
    if (u.length > 0 && keepUnit < u.total) keepAt = Math.min(keepAt, u.start(Math.max(keepUnit, u.base)));
    if (st.pending) keepAt = Math.min(keepAt, st.pending.start);
    return { chunks: out, keep: Math.max(0, keepAt - offset), state: st };
  }

  /**
   * Window [s, e) of units, its end moved back by whole units until its text measures
   * ≤ windowSize (binary search; sizers that are not additive only).
   */
  #fit(u: UnitBuffer, s: number, e: number, measure?: (start: number, end: number) => number): PlannedSpan {
    const W = this.windowSize;
    const start = u.start(s);
    if (!measure) return { unitStart: s, unitEnd: e, start, end: u.end(e - 1), unitCount: e - s, oversized: false };
    let count = measure(start, u.end(e - 1));
    if (count > W && e - s > 1) {
      // the longest prefix of units that fits: gallop down from the end (usually one or
      // two units too many), then binary search between the last bad and first good end
      let bad = e;
      let good = s + 1;
      let goodCount = -1;
      for (let step = 1; ; step *= 2) {
        const cand = Math.max(s + 1, e - step);
        const c = measure(start, u.end(cand - 1));
        if (c <= W) {
          good = cand;
          goodCount = c;
          break;
        }
        bad = cand;
        if (cand === s + 1) {
          goodCount = c; // one unit alone is over the budget: it stays, flagged
          break;
        }
      }
      while (bad - good > 1) {
        const mid = (good + bad) >> 1;
        const c = measure(start, u.end(mid - 1));
        if (c <= W) {
          good = mid;
          goodCount = c;
        } else bad = mid;
      }
      e = good;
      count = goodCount;
    }
    return { unitStart: s, unitEnd: e, start, end: u.end(e - 1), unitCount: count, oversized: count > W };
  }

  #emit(text: string, offset: number, st: WindowState, p: PlannedSpan, out: PlannedChunk[]): void {
    // a window whose text is whitespace only carries nothing (char units over a run of spaces)
    if (this.units.units.blankUnits !== false && isBlank(text, p.start - offset, p.end - offset)) return;
    const overlapUnits = st.emitted === 0 ? 0 : Math.max(0, st.prevUnitEnd - p.unitStart);
    // consecutive windows mostly share their overlap: one frozen metadata object for a run of equal ones (the assembler copies its fields)
    let metadata = this.#metadata;
    if (metadata?.overlapUnits !== overlapUnits) this.#metadata = metadata = Object.freeze({ overlapUnits });
    const chunk: PlannedChunk = { start: p.start - offset, end: p.end - offset, unitCount: p.unitCount, metadata };
    if (p.oversized) chunk.oversized = true;
    out.push(chunk);
    st.prevUnitEnd = p.unitEnd;
    st.emitted++;
  }
}
