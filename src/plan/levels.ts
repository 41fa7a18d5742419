/**
 * {@link PackLevel}s over plain span arrays: what most boundary sources hand the packer.
 * Sizes come from a {@link RangeMeasure} (memoized), run estimates from prefix sums of
 * section sizes plus the sizes of the gaps between sections. Core module.
 * @module
 */
import type { RangeMeasure } from '../size/measure.js';
import type { PlannedChunk } from './assemble.js';
import type { OverlapPolicy, PackLevel } from './pack.js';

/** What a {@link SpanLevel} is built from besides its spans. */
export interface SpanLevelOptions {
  /** Overlap between runs (greedy policy). */
  overlap?: OverlapPolicy;
  /** See {@link PackLevel.hardBefore}. */
  hardBefore?: (i: number) => boolean;
  /** See {@link PackLevel.descend}. */
  descend?: (i: number) => PackLevel | undefined;
  /**
   * Gap sizes between sections: `measure` (default: {@link RangeMeasure.gap}, what the
   * whitespace adds) or `none` (sections tile the text, or gaps never count).
   */
  gaps?: 'measure' | 'none';
  /** Exact size of run a..b; default: the measure over `[start(a), end(b))`. */
  exact?: (a: number, b: number) => number;
  /** The chunk of run a..b; default: the span `[start(a), end(b))` with its size. */
  emit?: (a: number, b: number, size: number, oversized: boolean) => PlannedChunk | undefined;
}

/** Sections `[starts[i], ends[i])` of a measured text. */
export class SpanLevel implements PackLevel {
  readonly count: number;
  readonly overlap: OverlapPolicy | undefined;
  readonly hardBefore: ((i: number) => boolean) | undefined;
  readonly descend: ((i: number) => PackLevel | undefined) | undefined;
  readonly #measure: RangeMeasure;
  readonly #starts: ArrayLike<number>;
  readonly #ends: ArrayLike<number>;
  readonly #options: SpanLevelOptions;
  /** prefix[k] = Σ_{i<k} (gap before i + size i); gapBefore[i] = gap between i − 1 and i. */
  #prefix: Float64Array | undefined;
  #gapBefore: Float64Array | undefined;
  #sizes: Float64Array | undefined;

  constructor(measure: RangeMeasure, starts: ArrayLike<number>, ends: ArrayLike<number>, options: SpanLevelOptions = {}, count = starts.length) {
    this.#measure = measure;
    this.#starts = starts;
    this.#ends = ends;
    this.#options = options;
    this.count = count;
    this.overlap = options.overlap;
    this.hardBefore = options.hardBefore;
    this.descend = options.descend;
  }

  size(i: number): number {
    this.#sums();
    return this.#sizes![i];
  }

  /** Sizes of every section (one bulk measure), gaps and their prefix sums, on first use. */
  #sums(): Float64Array {
    if (this.#prefix) return this.#prefix;
    const n = this.count;
    const sizes = this.#measure.sizeMany(this.#starts, this.#ends, n, new Float64Array(n));
    const prefix = new Float64Array(n + 1);
    const gapBefore = new Float64Array(n);
    const gaps = this.#options.gaps !== 'none';
    for (let i = 0; i < n; i++) {
      const gap = gaps && i > 0 ? this.#measure.gap(this.#ends[i - 1], this.#starts[i]) : 0;
      gapBefore[i] = gap;
      prefix[i + 1] = prefix[i] + gap + sizes[i];
    }
    this.#sizes = sizes;
    this.#gapBefore = gapBefore;
    return (this.#prefix = prefix);
  }

  estimate(a: number, b: number): number {
    const prefix = this.#sums();
    return prefix[b + 1] - prefix[a] - this.#gapBefore![a];
  }

  exact(a: number, b: number): number {
    return this.#options.exact ? this.#options.exact(a, b) : this.#measure.size(this.#starts[a], this.#ends[b]);
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    if (this.#options.emit) return this.#options.emit(a, b, size, oversized);
    return { start: this.#starts[a], end: this.#ends[b], unitCount: size, ...(oversized ? { oversized } : {}) };
  }
}
