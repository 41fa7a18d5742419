/**
 * The level kinds boundary sources hand the packer: {@link SpanLevel} (sections over
 * span arrays of a measured text: sizes from a {@link RangeMeasure}, run estimates from
 * prefix sums of section and gap sizes) and {@link TableRowsLevel} (a table's labelled
 * rows, whose parts carry a derived embed text after an optional prefix), and
 * {@link JoinSums} (exact run sizes from section sizes where the sizer cuts locally). The fallback
 * level (the recursive splitter's pieces) is in `fallback.ts`. Core module.
 * @module
 */
import { tablePartText } from '../boundaries/tables.js';
import type { RangeMeasure } from '../size/measure.js';
import type { TextSpan } from '../text.js';
import type { CutAt, Sizer } from '../size/types.js';
import type { PlannedChunk } from '../assemble.js';
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

/**
 * The span arrays of a {@link SpanLevel} for `count` sections: section i is
 * `[startOf(i), endOf(i))` (UTF-16 offsets).
 */
export function spanArrays(count: number, startOf: (i: number) => number, endOf: (i: number) => number): { starts: Int32Array; ends: Int32Array } {
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    starts[i] = startOf(i);
    ends[i] = endOf(i);
  }
  return { starts, ends };
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

/** What a {@link TableRowsLevel} is built from. */
export interface TableRowsOptions {
  /** The lines every part's embed text starts with (caption, header row); '' for none. */
  readonly header: string;
  /** The labelled body rows (`Header: value | Header: value`), one per section. */
  readonly rows: readonly string[];
  /** The budget's unit. */
  readonly sizer: Sizer;
  /** Text before every part's embed text (a heading path and a blank line); default ''. */
  readonly prefix?: string;
  /** Units of `prefix`. */
  readonly prefixSize?: number;
  /**
   * How a run's estimate sums its lines: `joined` (default) measures each line with its
   * line break, the last one's too; `apart` measures a line and a line break apart and
   * leaves out the last break. Each strategy's recorded outputs (Markdown: joined, HTML:
   * apart) depend on it where the estimate runs over the exact size (tokens).
   */
  readonly estimate?: 'joined' | 'apart';
  /** Size of the source text of rows a..b where the budget holds for it too (the embed text's alone otherwise). */
  readonly textSize?: (a: number, b: number) => number;
  /** The chunk of rows a..b given their embed text and exact size. */
  readonly emit: (a: number, b: number, embedText: string, size: number, oversized: boolean) => PlannedChunk | undefined;
}

/**
 * The rows of one table as a level: section k is body row k; a run's embed text is the
 * prefix, the header lines and its rows, one per line ({@link tablePartText}), and its
 * exact size that text's (at least the source text's, with `textSize`), so every part,
 * header lines included, fits the budget unless one row alone does not (a row is
 * indivisible: it is then a part of its own, flagged `oversized` by the packer). A run
 * grows by the sum of its lines' sizes; for an additive sizer ({@link Sizer.additive})
 * the exact size of the embed text is that sum less the line breaks it does not hold.
 */
export class TableRowsLevel implements PackLevel {
  readonly count: number;
  readonly #o: TableRowsOptions;
  readonly #prefix: Float64Array;
  /** The prefix and header lines (see {@link TableRowsOptions.estimate}): what a run adds to its rows. */
  readonly #base: number;
  /** The last row's line break, which the estimate counts and the embed text does not hold. */
  readonly #lastBreak: number;
  /** Embed sizes from parts split at local cuts, where the sizer declares them (see {@link #cutEmbed}). */
  readonly #cuts: { head: number; headText: boolean; noCut: Int32Array; alone: Float64Array; line: number } | undefined;
  /** The last exact answer (the packer asks for a run alone, then for the same run grown by none). */
  #lastA = -1;
  #lastB = -1;
  #lastExact = 0;

  constructor(options: TableRowsOptions) {
    const { rows, sizer, header } = options;
    this.count = rows.length;
    this.#o = options;
    this.#prefix = new Float64Array(rows.length + 1);
    const line = sizer.size('\n');
    const apart = options.estimate === 'apart';
    // an additive sizer's line with its break: the line's size, the break's and what the join
    // adds (read from the code units around it), without building the joined string
    const join = sizer.additive ? sizer.joinSize : undefined;
    const lineOf = apart
      ? (t: string) => sizer.size(t) + line
      : join
        ? (t: string) => sizer.size(t) + line + (t.length > 0 ? join.call(sizer, t.charAt(t.length - 1) + '\n', 1) : 0)
        : (t: string) => sizer.size(t + '\n');
    for (let k = 0; k < rows.length; k++) this.#prefix[k + 1] = this.#prefix[k] + lineOf(rows[k]);
    this.#base = (options.prefixSize ?? 0) + (header ? lineOf(header) : 0) - (apart ? line : 0);
    this.#lastBreak = apart ? 0 : line;
    const cutAt = sizer.additive || apart ? undefined : sizer.cutAt;
    const head = (options.prefix ?? '') + (header ? header + '\n' : '');
    if (cutAt && (head === '' || head.endsWith('\n'))) {
      // noCut[k]: rows before k that start with no cut after the line break before them
      const noCut = new Int32Array(rows.length + 1);
      for (let k = 0; k < rows.length; k++) noCut[k + 1] = noCut[k] + (rows[k].length > 0 && cutAt('\n' + rows[k].charAt(0), 1) ? 0 : 1);
      this.#cuts = { head: head ? sizer.size(head) : 0, headText: head !== '', noCut, alone: new Float64Array(rows.length).fill(-1), line };
    }
  }

  /**
   * The size of run a..b's embed text from its parts — the prefix and header lines with
   * their break, each row but the last with its break (the estimate's line sizes), the
   * last row alone — where the sizer's local cut ({@link CutAt}) holds at every join (a
   * row starting with a Latin letter after a line break: `Operator: …`), so the parts'
   * sizes add up exactly; undefined where a join is no cut (the text is measured whole).
   */
  #cutEmbed(a: number, b: number): number | undefined {
    const c = this.#cuts;
    if (!c || c.noCut[b + 1] - c.noCut[c.headText ? a : a + 1] !== 0) return undefined;
    let alone = c.alone[b];
    if (alone < 0) {
      // a row ending in a Latin letter is cut from its break too: its size is its line's less the break's
      const row = this.#o.rows[b];
      const cutAt = this.#o.sizer.cutAt!;
      alone = row.length > 0 && cutAt(row.charAt(row.length - 1) + '\n', 1) ? this.#prefix[b + 1] - this.#prefix[b] - c.line : this.#o.sizer.size(row);
      c.alone[b] = alone;
    }
    return c.head + this.#prefix[b] - this.#prefix[a] + alone;
  }

  /** Row i with the prefix and header lines: the smallest part that holds it. */
  size(i: number): number {
    return this.estimate(i, i);
  }

  estimate(a: number, b: number): number {
    return this.#base + this.#prefix[b + 1] - this.#prefix[a];
  }

  #embed(a: number, b: number): string {
    return (this.#o.prefix ?? '') + tablePartText(this.#o.header, this.#o.rows, a, b);
  }

  exact(a: number, b: number): number {
    if (a === this.#lastA && b === this.#lastB) return this.#lastExact;
    const embed = this.#o.sizer.additive ? this.estimate(a, b) - this.#lastBreak : (this.#cutEmbed(a, b) ?? this.#o.sizer.size(this.#embed(a, b)));
    const size = this.#o.textSize ? Math.max(this.#o.textSize(a, b), embed) : embed;
    this.#lastA = a;
    this.#lastB = b;
    this.#lastExact = size;
    return size;
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    return this.#o.emit(a, b, this.#embed(a, b), size, oversized);
  }
}

/**
 * Exact sizes of runs of sections (blocks) from their own sizes, for sizers that declare a
 * local cut ({@link CutAt}: tiktoken's encodings). Each block is split at its first and
 * last cut, `f` and `l` (both strictly inside it): its size is head [start, f) + middle
 * [f, l) + tail [l, end). A run a..b is the head of a, the middles, the joins
 * [l_i, f_j) to the next block j with a cut (a tail, the whitespace and any blocks without
 * a cut between, the next head: usually a few characters) and the tail of b, each split
 * at a cut, so its size is their sum — exact, from one measure per join instead of
 * measuring the run's text. A run that starts or ends at blocks without a cut inside
 * (no Latin letter next to a space or line break: `</div>`, a link definition) measures
 * the text from its start to its first cut, or from its last cut to its end, instead.
 */
export class JoinSums {
  /** Sum over blocks before i of middle + join to the next block with a cut. */
  readonly #sums: Float64Array;
  /** Join after block i (0 where none). */
  readonly #join: Float64Array;
  readonly #head: Float64Array;
  readonly #tail: Float64Array;
  /** Block i has a cut inside. */
  readonly #cut: Uint8Array;
  /** First and last cut inside block i (−1 where none). */
  readonly #first: Int32Array;
  readonly #last: Int32Array;
  /** The first block at or after i with a cut (n: none), the last at or before i (−1: none). */
  readonly #nextCut: Int32Array;
  readonly #prevCut: Int32Array;
  readonly #parts: readonly TextSpan[];
  readonly #size: (s: number, e: number) => number;

  /**
   * @param sizes each block's size
   * @param size the size of `[s, e)` of `text`
   * @param sizeSpans the sizes of many spans, one per span in order (the heads, tails and
   *   joins: one call for all of them, so a tokenizer may copy the text once); default
   *   `size` of each
   */
  constructor(
    text: string,
    parts: readonly TextSpan[],
    sizes: Float64Array,
    cutAt: CutAt,
    size: (s: number, e: number) => number,
    sizeSpans: (spans: readonly TextSpan[]) => ArrayLike<number> = (spans) => spans.map((x) => size(x.start, x.end)),
  ) {
    const n = parts.length;
    const first = new Int32Array(n).fill(-1);
    const last = new Int32Array(n).fill(-1);
    this.#head = new Float64Array(n);
    this.#tail = new Float64Array(n);
    this.#join = new Float64Array(n);
    this.#cut = new Uint8Array(n);
    this.#sums = new Float64Array(n + 1);
    // the spans to measure: head and tail of each block with a cut, then the joins
    const spans: TextSpan[] = [];
    for (let i = 0; i < n; i++) {
      const { start, end } = parts[i];
      let f = start + 1;
      while (f < end && !cutAt(text, f)) f++;
      if (f >= end) continue;
      let l = end - 1;
      while (l > f && !cutAt(text, l)) l--;
      first[i] = f;
      last[i] = l;
      this.#cut[i] = 1;
      spans.push({ start, end: f }, { start: l, end });
    }
    const edges = spans.length;
    let next = -1; // the next block with a cut after i
    for (let i = n - 1; i >= 0; i--) {
      if (!this.#cut[i]) continue;
      if (next >= 0) spans.push({ start: last[i], end: first[next] });
      next = i;
    }
    const measured = sizeSpans(spans);
    const middle = new Float64Array(n);
    next = -1;
    for (let i = n - 1, k = edges - 2, j = edges; i >= 0; i--) {
      if (!this.#cut[i]) continue;
      this.#head[i] = measured[k];
      this.#tail[i] = measured[k + 1];
      k -= 2;
      middle[i] = sizes[i] - this.#head[i] - this.#tail[i];
      if (next >= 0) this.#join[i] = measured[j++];
      next = i;
    }
    for (let i = 0; i < n; i++) this.#sums[i + 1] = this.#sums[i] + middle[i] + this.#join[i];
    this.#first = first;
    this.#last = last;
    this.#parts = parts;
    this.#size = size;
    this.#nextCut = new Int32Array(n);
    this.#prevCut = new Int32Array(n);
    for (let i = n - 1, c = n; i >= 0; i--) this.#nextCut[i] = c = this.#cut[i] ? i : c;
    for (let i = 0, c = -1; i < n; i++) this.#prevCut[i] = c = this.#cut[i] ? i : c;
  }

  /**
   * Exact size of the text from block a's start to block b's end (a ≤ b); undefined when
   * no block of the run has a cut. Blocks without a cut at either end of the run
   * (`</div>`, a link definition) join the run's head or tail, which is then measured on
   * its text (usually a few words): the run's first and last cuts still split it.
   */
  run(a: number, b: number): number | undefined {
    const a2 = this.#nextCut[a];
    const b2 = this.#prevCut[b];
    if (a2 > b2) return undefined;
    const head = a2 === a ? this.#head[a] : this.#size(this.#parts[a].start, this.#first[a2]);
    const tail = b2 === b ? this.#tail[b] : this.#size(this.#last[b2], this.#parts[b].end);
    return head + this.#sums[b2 + 1] - this.#sums[a2] - this.#join[b2] + tail;
  }
}
