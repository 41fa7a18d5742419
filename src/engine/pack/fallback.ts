/**
 * The fallback level: the recursive splitter's piece tree, which any strategy descends
 * into where one of its sections does not fit the budget and its own structure gives
 * no finer cut (a long paragraph, an irregular table, a syntax leaf). No strategy builds
 * another strategy for it: the tree is split here, on the caller's own measure.
 *
 * The piece tree follows LangChain's `RecursiveCharacterTextSplitter`
 * (@langchain/textsplitters 1.0.2, `_splitText`): the pieces of a range at the coarsest
 * separator that occurs in it, each piece over the budget split at the next separator,
 * grapheme clusters last; the pieces are merged by the packer's `langchain` policy
 * (`mergeSplits`). Also here: the named span splitters of the `fallback` option
 * (`recursive`, `sliding`) and how a user's splitter's pieces become a level.
 * Core module: no Node built-ins.
 * @module
 */
import { checkedSplitter, type SpanSplitter, type SplitSpan } from '../splitter.js';
import { InvalidOptionError } from '../errors.js';
import { addWork, type Work } from '../work.js';
import { isBlank, isSpace, trimSpan, type TextSpan } from '../text.js';
import { DEFAULT_SEPARATORS, isGraphemeSeparator, SeparatorIndex, type PieceScratch, type Separator, type SeparatorPlacement } from '../boundaries/separators.js';
import { rangeMeasure, type RangeMeasure } from '../size/measure.js';
import { resolveUnits, type UnitOptions } from '../size/resolve.js';
import type { PlannedChunk } from '../assemble.js';
import { pack, type LevelPacker, type PackLevel, type PackStats } from './pack.js';
import { WindowPlan } from './windows.js';

/** How {@link splitRange} splits. */
export interface SplitOptions {
  /** The budget of a piece, in the measure's unit. */
  readonly max: number;
  /** Units consecutive merged pieces may share. Default 0. */
  readonly overlap?: number;
  /** Ordered separators, coarsest first. Default {@link DEFAULT_SEPARATORS}. */
  readonly separators?: readonly Separator[];
  /** Where a separator goes when text is split on it. Default `'start'`. */
  readonly keep?: SeparatorPlacement;
}

/**
 * The recursive splitter's pieces of `[start, end)` of `measure.text`: the piece tree
 * packed by the `langchain` policy within `options.max` units, each piece trimmed of
 * whitespace at both ends, `metadata.separatorLevel` the index of the separator it was
 * split at (−1: none occurred), `oversized` where one grapheme cluster alone is over
 * the budget. Offsets are UTF-16 code units of `measure.text`.
 * @param work counters the split's work is added to (for linear-time tests).
 */
export function splitRange(measure: RangeMeasure, start: number, end: number, options: SplitOptions, work?: Work): PlannedChunk[] {
  return new RangeSplitter(measure, options).split(start, end, options, work);
}

/**
 * {@link splitRange} over many ranges of one measured text: the separator index (each
 * separator's occurrences, found as far as a range needs them) is made once and shared,
 * so splitting the blocks of a document one by one costs their length, not a new index
 * and new scans per block. The pieces of a range are the same as {@link splitRange}'s.
 */
export class RangeSplitter {
  readonly #index: SeparatorIndex;
  readonly #tree: PieceTree;

  /** @param options the separators and their placement (the budget and overlap are per call) */
  constructor(
    readonly measure: RangeMeasure,
    options: Pick<SplitOptions, 'separators' | 'keep'> = {},
  ) {
    const keep = options.keep ?? 'start';
    this.#index = new SeparatorIndex(measure.text, options.separators ?? DEFAULT_SEPARATORS, keep);
    this.#tree = new PieceTree(measure.text, this.#index, measure, keep);
  }

  /** The pieces of `[start, end)` within `options.max` units (see {@link splitRange}). */
  split(start: number, end: number, options: Pick<SplitOptions, 'max' | 'overlap'>, work?: Work): PlannedChunk[] {
    const stats: PackStats = { steps: 0, exact: 0 };
    const calls = this.measure.calls;
    const ops = this.#index.ops;
    const out = pack(this.#tree.level(start, end, 0), { max: options.max, policy: 'langchain', overlapUnits: options.overlap ?? 0 }, [], stats);
    if (work) {
      // separator occurrences visited, packer steps, exact measures, sizer calls
      addWork(work, 'operations', this.#index.ops - ops + stats.steps + stats.exact + this.measure.calls - calls);
      addWork(work, 'packSteps', stats.steps + stats.exact);
    }
    return out;
  }
}

/** The boundary tree of one text: separator pieces, level by level, built as the packer descends. */
class PieceTree {
  /**
   * Arrays of the levels, one set per depth of descent: the packer finishes a level's
   * descents before it asks for the next one, so only one level per depth is in use at a
   * time, and a new level reuses its depth's arrays instead of allocating five.
   */
  readonly #scratch: LevelArrays[] = [];

  constructor(
    readonly text: string,
    readonly index: SeparatorIndex,
    readonly measure: RangeMeasure,
    readonly keep: SeparatorPlacement,
  ) {}

  /**
   * The pieces of [s, e) at the separator LangChain's `_splitText` picks from `level` on
   * (grapheme clusters where none occurs: the last resort, which has no finer level).
   * @param depth how many levels lie above it (0: the range given to {@link splitRange}).
   */
  level(s: number, e: number, level: number, depth = 0, clusters = false): PackLevel {
    const sep = this.index.choose(level, s, e);
    if (!clusters && this.keep === 'start' && sep >= 0 && this.index.cutUnit(sep) >= 0 && this.#lengths()) return new CutLevel(this, s, e, level, depth, sep);
    return new PieceLevel(this, s, e, level, depth, clusters, sep);
  }

  #plain: boolean | undefined;

  /** True when a range's size is its length: characters, in a text without surrogate pairs. */
  #lengths(): boolean {
    return (this.#plain ??= this.measure.sizer.unit === 'char' && this.measure.sizer.singleCodeUnits?.(this.text, 0, this.text.length) === true);
  }

  /** The arrays of depth `depth`, the sizes, gaps and prefix sums of at least `n` pieces (their contents are the caller's to fill; the pieces' arrays grow as they are filled). */
  arrays(depth: number, n: number): LevelArrays {
    let a = this.#scratch[depth];
    if (!a) this.#scratch[depth] = a = { pieces: { starts: new Int32Array(16), ends: new Int32Array(16) }, sizes: new Float64Array(16), gaps: new Float64Array(16), prefix: new Float64Array(16) };
    if (a.prefix.length < n + 1) {
      const m = Math.max(n + 1, 2 * a.prefix.length);
      a.sizes = new Float64Array(m);
      a.gaps = new Float64Array(m);
      a.prefix = new Float64Array(m);
    }
    return a;
  }
}

/** The arrays one level of a {@link PieceTree} fills: its pieces, their sizes, the gaps before them, the prefix sums. */
interface LevelArrays {
  pieces: PieceScratch;
  sizes: Float64Array;
  gaps: Float64Array;
  prefix: Float64Array;
}

/** One level of the tree: the pieces of a range at one separator. */
class PieceLevel implements PackLevel {
  readonly count: number;
  readonly sums: { sizes: Float64Array; prefix: Float64Array; gapBefore: Float64Array };
  readonly #tree: PieceTree;
  readonly #starts: Int32Array;
  readonly #ends: Int32Array;
  readonly #sep: number;
  readonly #level: number;
  readonly #depth: number;
  /** The separator after this level's (its pieces' finer level), or −1 at the last resort. */
  readonly #next: number;
  /** At the last resort in a unit other than characters: clusters per unit run. */
  readonly #clusters: Int32Array | undefined;

  /**
   * @param depth levels above this one (its arrays are that depth's: see {@link PieceTree.arrays})
   * @param clusters at the last resort in tokens or words: split into grapheme clusters
   *   themselves (a unit run's finer level) rather than into unit runs ({@link unitRuns})
   */
  /** @param sep the separator {@link SeparatorIndex.choose} picked for [s, e) from `level` on */
  constructor(tree: PieceTree, s: number, e: number, level: number, depth: number, clusters: boolean, sep: number) {
    const { index, measure } = tree;
    const seps = index.separators;
    const terminal = sep === -1 || isGraphemeSeparator(seps[sep]);
    const graphemes = index.pieces(sep, s, e, tree.arrays(depth, 0).pieces);
    const runs = terminal && !clusters && !measure.sizer.clusterAligned && graphemes.count > 1 ? unitRuns(measure, s, e, graphemes.ends, graphemes.count) : undefined;
    const { starts, ends, count } = runs ?? graphemes;
    const scratch = tree.arrays(depth, count);
    // sizes of the raw pieces (LangChain's lengthFunction) and, without kept separators,
    // of the separator text between pieces (mergeSplits adds it per join)
    const sizes = measure.sizeMany(starts, ends, count, scratch.sizes);
    // gaps only where separators are kept in no piece; otherwise pieces tile the range
    // (the sizer's joinSize: in words a join inside a word counts −1, `日本語。` + `中文。` is one word)
    const joinSize = measure.sizer.additive ? measure.sizer.joinSize : undefined;
    const gaps = scratch.gaps;
    gaps.fill(0, 0, count);
    if (tree.keep === false) {
      for (let k = 1; k < count; k++) if (starts[k] > ends[k - 1]) gaps[k] = measure.size(ends[k - 1], starts[k]);
    }
    if (joinSize) {
      const t = tree.text;
      for (let k = 1; k < count; k++) if (starts[k] === ends[k - 1]) gaps[k] += joinSize(t, starts[k]);
    }
    const prefix = scratch.prefix;
    let sum = 0;
    prefix[0] = 0;
    for (let k = 0; k < count; k++) prefix[k + 1] = sum += gaps[k] + sizes[k];
    this.count = count;
    this.sums = { sizes, prefix, gapBefore: gaps };
    this.#tree = tree;
    this.#starts = starts;
    this.#ends = ends;
    this.#sep = sep;
    this.#level = level;
    this.#depth = depth;
    this.#next = terminal ? -1 : sep + 1;
    this.#clusters = runs?.clusters;
  }

  /** The finer level of piece k: the next separator's pieces, a unit run's clusters, or none at the last resort. */
  descend(k: number): PackLevel | undefined {
    const tree = this.#tree;
    if (this.#clusters) return this.#clusters[k] > 1 ? tree.level(this.#starts[k], this.#ends[k], this.#level, this.#depth + 1, true) : undefined;
    return this.#next < 0 ? undefined : tree.level(this.#starts[k], this.#ends[k], this.#next, this.#depth + 1);
  }

  size(k: number): number {
    return this.sums.sizes[k];
  }

  estimate(a: number, b: number): number {
    const { prefix, gapBefore } = this.sums;
    return prefix[b + 1] - prefix[a] - gapBefore[a];
  }

  exact(a: number, b: number): number {
    const { start, end } = trimSpan(this.#tree.text, this.#starts[a], this.#ends[b]);
    return a === b && start === this.#starts[a] && end === this.#ends[a] ? this.sums.sizes[a] : this.#tree.measure.size(start, end);
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    const { start, end } = trimSpan(this.#tree.text, this.#starts[a], this.#ends[b]);
    if (start >= end) return undefined;
    const chunk: PlannedChunk = { start, end, unitCount: size, metadata: { separatorLevel: this.#sep } };
    if (oversized) chunk.oversized = true;
    return chunk;
  }
}

/**
 * The pieces of a range at a separator of one code unit (`' '`, `'\n'`) kept at the start
 * of the next piece, in characters of a text without surrogate pairs: each piece's size
 * is its length, so LangChain's merge needs only the cuts next to each chunk's end and
 * its overlap's start, found by `lastIndexOf` and `indexOf`
 * ({@link SeparatorIndex.lastCut}, {@link SeparatorIndex.nextCut}), not a list of every
 * piece, each sized, summed and visited (at a budget of 128 characters every sentence of
 * prose is cut into words: 22,845 pieces in 200,000 characters of finance.md). The chunks
 * are those of the packer's `mergeSplits` over the listed pieces, which the level still
 * lists if asked by index (as a {@link PieceLevel}).
 */
class CutLevel implements PackLevel {
  readonly #tree: PieceTree;
  readonly #s: number;
  readonly #e: number;
  readonly #level: number;
  readonly #depth: number;
  readonly #sep: number;
  #pieces: PieceLevel | undefined;
  /** The `metadata` of the level's chunks, one frozen object for all (the assembler copies its fields). */
  #metadata: { readonly separatorLevel: number } | undefined;

  constructor(tree: PieceTree, s: number, e: number, level: number, depth: number, sep: number) {
    this.#tree = tree;
    this.#s = s;
    this.#e = e;
    this.#level = level;
    this.#depth = depth;
    this.#sep = sep;
  }

  /** The pieces listed, for the packer's calls by index. */
  #listed(): PieceLevel {
    return (this.#pieces ??= new PieceLevel(this.#tree, this.#s, this.#e, this.#level, this.#depth, false, this.#sep));
  }

  get count(): number {
    return this.#listed().count;
  }

  get sums(): PieceLevel['sums'] {
    return this.#listed().sums;
  }

  size(k: number): number {
    return this.#listed().size(k);
  }

  estimate(a: number, b: number): number {
    return this.#listed().estimate(a, b);
  }

  exact(a: number, b: number): number {
    return this.#listed().exact(a, b);
  }

  descend(k: number): PackLevel | undefined {
    return this.#listed().descend(k);
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    return this.#listed().emit(a, b, size, oversized);
  }

  /**
   * `mergeSplits` from cut to cut. With the chunk starting at cut `a`, the pieces up to
   * the last cut `b` ≤ a + max fit; the piece from `b` to the next cut `n` does not. If
   * that piece alone is over the budget, the run [a, b) is emitted and the piece goes one
   * level finer (a new run starts after it); otherwise [a, b) is emitted and the next
   * chunk starts at the first cut ≥ max(b − overlap, n − max) (the pieces popped from the
   * front until what is left is within the overlap and the next piece fits), or at b.
   */
  mergeInto(p: LevelPacker): void {
    const { index } = this.#tree;
    const sep = this.#sep;
    const e = this.#e;
    const { max, overlap } = p;
    let a = this.#s;
    let steps = 0;
    for (;;) {
      steps++;
      if (e - a <= max) {
        this.#emitRun(p, a, e);
        break;
      }
      const b = index.lastCut(sep, a, a + max);
      // the next cut after b, or the range's end (no closure here: a function made per level costs more than the loop)
      let n = index.nextCut(sep, b + 1);
      if (n === -1 || n > e) n = e;
      if (n - b > max) {
        if (a < b) this.#emitRun(p, a, b);
        p.pack(this.#tree.level(b, n, sep + 1, this.#depth + 1));
        if (n >= e) break;
        a = n;
        continue;
      }
      this.#emitRun(p, a, b);
      const from = Math.max(b - overlap, n - max);
      a = from >= b ? b : index.nextCut(sep, from);
    }
    p.count(steps, 0);
  }

  /** Emits the pieces [a, b) as one chunk, trimmed (none when blank): its size is its length, within the budget. */
  #emitRun(p: LevelPacker, a: number, b: number): void {
    const { start, end } = trimSpan(this.#tree.text, a, b);
    const size = this.#tree.measure.size(start, end);
    p.count(0, 1);
    if (start >= end) return;
    p.push({ start, end, unitCount: size, metadata: (this.#metadata ??= Object.freeze({ separatorLevel: this.#sep })) });
  }
}

/**
 * The last resort in any unit but characters (tokens, words, a custom sizer's units):
 * the grapheme clusters of [s, e) grouped into runs that end where a unit of the whole
 * range ends at a cluster boundary (the range is segmented once), so pieces are about one
 * unit each. Each cluster as a piece, measured on its own, would count a long word's N
 * letters as N tokens though BPE merges them into about N / 8 (a 512-token budget held 64
 * tokens of `aaa…`), at one tokenizer call per cluster; in words, every letter counted
 * one word, so `'individual'` at a budget of 1 word was cut into letters. A run of several
 * clusters over the budget is split into its clusters (`clusters`: how many each run
 * holds). `ends`: the clusters' ends, ascending, the last = e.
 */
function unitRuns(measure: RangeMeasure, s: number, e: number, ends: Int32Array, count: number): { starts: Int32Array; ends: Int32Array; count: number; clusters: Int32Array } {
  const tokens = measure.sizer.segment(measure.text.slice(s, e));
  const runStarts = new Int32Array(count);
  const runEnds = new Int32Array(count);
  const clusters = new Int32Array(count);
  let runs = 0;
  let start = s;
  let first = 0; // the first cluster of the current run
  let t = 0;
  for (let k = 0; k < count; k++) {
    const end = ends[k];
    while (t < tokens.count && s + tokens.ends[t] < end) t++;
    if (k === count - 1 || (t < tokens.count && s + tokens.ends[t] === end)) {
      runStarts[runs] = start;
      runEnds[runs] = end;
      clusters[runs] = k + 1 - first;
      runs++;
      start = end;
      first = k + 1;
    }
  }
  return { starts: runStarts.subarray(0, runs), ends: runEnds.subarray(0, runs), count: runs, clusters: clusters.subarray(0, runs) };
}

/**
 * Pieces of a split as a level: each piece is a chunk of its own (a hard break before
 * every one), sized by `size` on first use; one over the budget is emitted whole and
 * flagged `oversized` by the packer.
 */
export class PiecesLevel implements PackLevel {
  readonly count: number;
  readonly #spans: readonly TextSpan[];
  readonly #size: (start: number, end: number) => number;
  readonly #emit: (start: number, end: number, size: number, oversized: boolean) => PlannedChunk | undefined;
  readonly #sizes: Float64Array;

  /**
   * @param spans the pieces, in order, disjoint (UTF-16 offsets of the packed text)
   * @param size what the budget is checked against for `[start, end)`
   * @param emit the chunk of one piece with its size
   */
  constructor(
    spans: readonly TextSpan[],
    size: (start: number, end: number) => number,
    emit: (start: number, end: number, size: number, oversized: boolean) => PlannedChunk | undefined,
  ) {
    this.count = spans.length;
    this.#spans = spans;
    this.#size = size;
    this.#emit = emit;
    this.#sizes = new Float64Array(spans.length).fill(-1);
  }

  size(i: number): number {
    if (this.#sizes[i] < 0) this.#sizes[i] = this.#size(this.#spans[i].start, this.#spans[i].end);
    return this.#sizes[i];
  }

  /** Runs never grow: every piece starts a chunk. */
  estimate(a: number, b: number): number {
    return a === b ? this.size(a) : Infinity;
  }

  exact(a: number, b: number): number {
    return a === b ? this.size(a) : this.#size(this.#spans[a].start, this.#spans[b].end);
  }

  hardBefore(): boolean {
    return true;
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    return this.#emit(this.#spans[a].start, this.#spans[b].end, size, oversized);
  }
}

/**
 * `pieces` of `text[from, to)` (offsets relative to `from`) in source offsets, each
 * placed by `place(start, end)` (identity, or a trim), with the text a splitter skipped
 * kept: each non-blank stretch before a placed piece or after the last, trimmed of
 * whitespace, is a piece of its own. Empty spans are dropped.
 */
export function coverSpans(text: string, from: number, to: number, pieces: readonly TextSpan[], place: (start: number, end: number) => TextSpan = (start, end) => ({ start, end })): TextSpan[] {
  const out: TextSpan[] = [];
  let covered = from;
  for (const p of pieces) {
    const { start, end } = place(from + p.start, from + p.end);
    if (end <= start) continue;
    if (start > covered && !isBlank(text.slice(covered, start))) out.push(trimSpan(text, covered, start));
    out.push({ start, end });
    covered = Math.max(covered, end);
  }
  if (covered < to && !isBlank(text.slice(covered, to))) out.push(trimSpan(text, covered, to));
  return out.filter((s) => s.end > s.start);
}

/** What a {@link SpanSplitterFactory} is given: the caller's unit options and overlap. */
export interface SpanSplitterOptions extends UnitOptions {
  /** Units shared by consecutive spans; clamped below each call's chunkSize. */
  chunkOverlap?: number;
}

/** Builds a {@link SpanSplitter} for a unit and overlap. */
export type SpanSplitterFactory = (options: SpanSplitterOptions) => SpanSplitter;

/** `chunkOverlap` clamped below `chunkSize` (default min(64, ⌊chunkSize/8⌋)). */
function overlapBelow(options: SpanSplitterOptions, chunkSize: number): number {
  return Math.max(0, Math.min(options.chunkOverlap ?? Math.min(64, Math.floor(chunkSize / 8)), chunkSize - 1));
}

/** Only the offsets (and the oversized flag) of planned spans. */
function offsets(spans: readonly PlannedChunk[]): SplitSpan[] {
  return spans.map((c) => (c.oversized ? { start: c.start, end: c.end, oversized: true } : { start: c.start, end: c.end }));
}

/**
 * A splitter over sliding windows (`windowSize = chunkSize`, `stride = chunkSize −
 * chunkOverlap`, the fixed-size strategy's windows) in the caller's unit.
 * @throws {InvalidOptionError} for an unknown unit or encoding.
 */
export const slidingSpanSplitter: SpanSplitterFactory = (options) => {
  const units = resolveUnits({ ...options, countTokens: false });
  return (text, chunkSize) => {
    const plan = new WindowPlan(chunkSize, chunkSize - overlapBelow(options, chunkSize), units);
    return offsets(plan.step(text, 0, plan.initial(), true).chunks);
  };
};

/**
 * A splitter over the piece tree ({@link splitRange}): paragraphs, lines, sentence ends,
 * spaces, then grapheme clusters, merged up to each call's chunkSize with `chunkOverlap`
 * (clamped below it), in the caller's unit and encoding.
 * @throws {InvalidOptionError} for an unknown unit or encoding.
 */
export const recursiveSpanSplitter: SpanSplitterFactory = (options) => {
  const units = resolveUnits({ ...options, countTokens: false });
  return (text, chunkSize) => offsets(splitRange(rangeMeasure(text, units.units), 0, text.length, { max: chunkSize, overlap: overlapBelow(options, chunkSize) }));
};

const fallbacks = new Map<string, SpanSplitterFactory>([
  ['recursive', recursiveSpanSplitter],
  ['sliding', slidingSpanSplitter],
]);

/** Registers a named fallback splitter for the `fallback` option of the structure-aware chunkers. */
export function registerFallback(name: string, factory: SpanSplitterFactory): void {
  fallbacks.set(name, factory);
}

/** Names of the registered fallback splitters. */
export function fallbackNames(): string[] {
  return [...fallbacks.keys()];
}

/**
 * Resolves the `fallback` option: a registered name or a splitter function (its output
 * checked by {@link checkedSplitter}).
 * @throws {InvalidOptionError} for a name that is not registered.
 */
export function resolveFallback(fallback: unknown, options: SpanSplitterOptions): SpanSplitter {
  if (typeof fallback === 'function') return checkedSplitter('fallback', fallback as SpanSplitter);
  const factory = typeof fallback === 'string' ? fallbacks.get(fallback) : undefined;
  if (!factory) {
    throw new InvalidOptionError('fallback', fallback, `one of ${fallbackNames().join(', ')} (registered splitters) or a function (text, chunkSize) => spans`);
  }
  return factory(options);
}
