/**
 * Streaming sliding-window (and fixed-size) chunking: the windows of SPEC section 1
 * ("Sliding-window rules (exact)") planned over units as they arrive, each chunk yielded
 * as soon as no later text can change it. The chunks equal `chunk(wholeText)` exactly:
 * same text, offsets (UTF-16, into the whole stream), token counts, metadata and ids.
 * Core module: no Node built-ins.
 *
 * Memory: the buffer holds the text from the start of the next window (or of the chunk
 * held back) to the end of the last piece, plus that span's unit offsets: about one
 * window plus one piece, whatever the length of the stream.
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { PrefixIds } from '../core/ids.js';
import type { ResolvedUnits } from '../size/resolve.js';
import type { PlannedSpan } from '../plan/windows.js';
import { isBlank } from '../core/text.js';
import { safeCutFor, type SafeCut } from './safe-cuts.js';
import { textPieces, type TextSource } from './source.js';

/** What a sliding-window chunker passes to {@link slidingWindowStream}. */
export interface SlidingStreamConfig {
  windowSize: number;
  stride: number;
  resolved: ResolvedUnits;
  /** Strategy name for metadata (`sliding` or `fixed`). */
  strategy: string;
}

/** Growable parallel arrays of unit offsets (global UTF-16 offsets, as doubles: a stream may pass 2^31). */
class UnitBuffer {
  starts = new Float64Array(4096);
  ends = new Float64Array(4096);
  /** Global index of slot 0. */
  base = 0;
  /** Units stored (slots in use). */
  length = 0;
  get total(): number {
    return this.base + this.length;
  }
  push(start: number, end: number): void {
    if (this.length === this.starts.length) {
      const s = new Float64Array(this.length * 2);
      s.set(this.starts);
      this.starts = s;
      const e = new Float64Array(this.length * 2);
      e.set(this.ends);
      this.ends = e;
    }
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
  }
  start(i: number): number {
    return this.starts[i - this.base];
  }
  end(i: number): number {
    return this.ends[i - this.base];
  }
  /** Drops units with global index < i. */
  dropBefore(i: number): void {
    const k = Math.min(i - this.base, this.length);
    if (k <= 0) return;
    this.starts.copyWithin(0, k, this.length);
    this.ends.copyWithin(0, k, this.length);
    this.length -= k;
    this.base += k;
  }
}

/**
 * Chunks a text stream with sliding windows. Yields chunks in order, each as soon as it
 * is decided (a window is decided once the units it covers, and one unit with
 * non-whitespace text after them, have arrived).
 * @throws {InvalidInputError} when the source is not a stream/iterable or a piece is not a string.
 */
export async function* slidingWindowStream(source: TextSource, config: SlidingStreamConfig): AsyncGenerator<Chunk> {
  const { windowSize: W, stride, strategy } = config;
  const { units, tokenizer, countTokens, unit } = config.resolved;
  const measure = unit === 'token' ? units.count : undefined;
  // token units cut safely only for the tiktoken encodings; another tokenizer is segmented once, at the end
  const safeCut: SafeCut =
    unit !== 'token' || tokenizer?.safeCuts === 'tiktoken' ? safeCutFor(unit) : (_text, from) => from;
  const gaps = stride > W;
  const wordsNeverBlank = unit === 'word';

  let buf = ''; // the stream's text from offset bufStart on
  let bufStart = 0;
  let segAt = 0; // text before this offset is segmented into units
  const u = new UnitBuffer(); // units, numbered from the first with non-whitespace text
  let started = false;
  let known = 0; // units [0, known) end at or before the last unit with non-whitespace text seen

  // planner state, as in planSpans
  let k = 0;
  let covered = 0;
  let pending: PlannedSpan | undefined;

  // chunk state
  const ids = new PrefixIds();
  let index = 0;
  let prevEnd = 0;
  let prevUnitEnd = 0;

  const segment = (to: number): void => {
    if (to <= segAt) return;
    const from = segAt - bufStart;
    const text = buf.slice(from, to - bufStart);
    const spans = units.segment(text);
    for (let i = 0; i < spans.count; i++) {
      const s = spans.starts[i];
      const e = spans.ends[i];
      const blank = wordsNeverBlank ? false : isBlank(text.slice(s, e));
      if (!started) {
        if (blank) continue;
        started = true;
      }
      u.push(segAt + s, segAt + e);
      if (!blank) known = u.total;
    }
    segAt = to;
  };

  const fit = (s: number, e: number): PlannedSpan => {
    const start = u.start(s);
    let end = u.end(e - 1);
    if (!measure) return { unitStart: s, unitEnd: e, start, end, unitCount: e - s, oversized: false };
    let count = measure(buf.slice(start - bufStart, end - bufStart));
    while (count > W && e - s > 1) {
      e--;
      end = u.end(e - 1);
      count = measure(buf.slice(start - bufStart, end - bufStart));
    }
    return { unitStart: s, unitEnd: e, start, end, unitCount: count, oversized: count > W };
  };

  const toChunk = (p: PlannedSpan): Chunk => {
    const text = buf.slice(p.start - bufStart, p.end - bufStart);
    const i = index++;
    const tokenCount = unit === 'token' ? p.unitCount : countTokens && tokenizer ? tokenizer.count(text) : -1;
    const chunk: Chunk = {
      id: ids.id(buf, p.start, p.end, bufStart),
      index: i,
      text,
      start: p.start,
      end: p.end,
      tokenCount,
      metadata: {
        strategy,
        unit: units.name,
        unitCount: p.unitCount,
        overlap: i === 0 ? 0 : Math.max(0, prevEnd - p.start),
        overlapUnits: i === 0 ? 0 : Math.max(0, prevUnitEnd - p.unitStart),
        ...(p.oversized ? { oversized: true } : {}),
      },
    };
    prevEnd = p.end;
    prevUnitEnd = p.unitEnd;
    return chunk;
  };

  /** Plans every window that is decided; with `final`, all the rest (n is then `known`). */
  const plan = (final: boolean): Chunk[] => {
    const out: Chunk[] = [];
    for (;;) {
      const n = known;
      if (final && covered >= n) break;
      let s: number;
      let e: number;
      const sk = k * stride;
      if (final) {
        const exists = sk < n && (k === 0 || (k - 1) * stride + W < n);
        if (exists && (gaps || sk <= covered)) {
          s = sk;
          e = Math.min(sk + W, n);
          k++;
        } else if (gaps) {
          break;
        } else {
          s = covered;
          e = Math.min(s + W, n);
        }
      } else if (gaps || sk <= covered) {
        if (sk + W > n) break; // window k is not decided yet
        s = sk;
        e = sk + W;
        k++;
      } else {
        if (covered + W > n) break;
        s = covered;
        e = covered + W;
      }
      const span = fit(s, e);
      covered = Math.max(covered, span.unitEnd);
      if (span.end <= span.start) continue;
      if (pending && span.end <= pending.end) continue; // wholly inside the previous span
      if (pending && span.start <= pending.start) pending = span; // the previous lies inside this one
      else {
        if (pending) out.push(toChunk(pending));
        pending = span;
      }
    }
    return out;
  };

  /** Drops text and units no later window or held-back chunk needs. */
  const compact = (): void => {
    let keepUnit = Math.min(k * stride, covered);
    if (pending) keepUnit = Math.min(keepUnit, pending.unitStart);
    u.dropBefore(keepUnit);
    let keepText = segAt;
    if (u.length > 0 && keepUnit < u.total) keepText = Math.min(keepText, u.start(Math.max(keepUnit, u.base)));
    if (pending) keepText = Math.min(keepText, pending.start);
    if (keepText > bufStart) {
      ids.advance(buf, keepText, bufStart);
      buf = buf.slice(keepText - bufStart);
      bufStart = keepText;
    }
  };

  for await (const piece of textPieces(source)) {
    if (piece.length === 0) continue;
    buf += piece;
    const cut = safeCut(buf, segAt - bufStart);
    segment(bufStart + cut);
    for (const chunk of plan(false)) yield chunk;
    compact();
  }
  segment(bufStart + buf.length);
  for (const chunk of plan(true)) yield chunk;
  if (pending) {
    const last = toChunk(pending);
    pending = undefined;
    yield last;
  }
}
