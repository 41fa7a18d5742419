/**
 * Recursive chunking: split on an ordered separator list only where a piece is still
 * too large, then merge small pieces back up to the budget.
 *
 * Source: the algorithm of LangChain's
 * `RecursiveCharacterTextSplitter` (@langchain/textsplitters 1.0.2, `_splitText` and
 * `mergeSplits`), which this chunker reproduces piece for piece while tracking exact
 * offsets. Deliberate differences are listed in `docs/recursive.md`.
 *
 * The strategy is its boundaries (`src/segment/separators.ts`) and its options schema;
 * packing is the shared packer's `langchain` policy (`src/plan/pack.ts`), chunks come
 * from the shared assembler (`src/plan/assemble.ts`).
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { InvalidOptionError } from '../core/errors.js';
import { resolveOptions, type StrategySchema } from '../core/schema.js';
import { isBlank, isSpace, requireText, trimSpan } from '../core/text.js';
import { documentIdOf, type ChunkCallOptions } from '../core/ids.js';
import { Assembler, type PlannedChunk } from '../plan/assemble.js';
import { pack, type PackLevel, type PackStats } from '../plan/pack.js';
import { rangeMeasure, type RangeMeasure } from '../size/measure.js';
import { resolveUnits, UNIT_OPTIONS, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';
import {
  DEFAULT_SEPARATORS,
  isGraphemeSeparator,
  LANGCHAIN_SEPARATORS,
  SEPARATOR_KINDS,
  SeparatorIndex,
  type Separator,
  type SeparatorKind,
  type SeparatorPlacement,
} from '../segment/separators.js';

export { DEFAULT_SEPARATORS, LANGCHAIN_SEPARATORS, type Separator, type SeparatorKind };

/**
 * Where a separator goes when text is split on it: `true` or `'start'` (default, as
 * LangChain JS): at the start of the piece after it; `'end'`: at the end of the piece
 * before it (LangChain Python's `keep_separator="end"`); `false`: in no piece, so a chunk
 * never starts or ends with it (it stays inside a chunk, which is an exact source slice).
 */
export type KeepSeparator = boolean | 'start' | 'end';

/** Options of {@link RecursiveChunker}. */
export interface RecursiveOptions extends UnitOptions {
  /** Budget per chunk in `unit`s, an integer ≥ 1. Default 512. */
  chunkSize?: number;
  /** Units consecutive merged chunks may share, an integer in [0, chunkSize). Default min(64, ⌊chunkSize/8⌋). */
  chunkOverlap?: number;
  /** Ordered separators, coarsest first. Default {@link DEFAULT_SEPARATORS}. */
  separators?: readonly Separator[];
  /** See {@link KeepSeparator}. Default `true`. */
  keepSeparator?: KeepSeparator;
}

/** Why `value` is not a separator list, or undefined. */
function separatorsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty array of strings and { kind } objects';
  for (const s of value) {
    const ok = typeof s === 'string' || (typeof s === 'object' && s !== null && SEPARATOR_KINDS.includes((s as { kind: SeparatorKind }).kind));
    if (!ok) return `each must be a string or { kind: ${SEPARATOR_KINDS.join(' | ')} }, got ${JSON.stringify(s)}`;
  }
  return undefined;
}

/** The default overlap of the size-and-overlap strategies: min(64, ⌊chunkSize/8⌋). */
export const defaultOverlap = (r: Readonly<Record<string, unknown>>): number => Math.min(64, Math.floor((r.chunkSize as number) / 8));

/** The options schema of the recursive strategy. */
export const RECURSIVE_SCHEMA: StrategySchema = {
  name: 'recursive',
  options: {
    chunkSize: { type: 'integer', min: 1, default: 512, doc: 'budget per chunk, in units' },
    chunkOverlap: {
      type: 'integer',
      min: 0,
      default: defaultOverlap,
      defaultDoc: 'min(64, ⌊chunkSize/8⌋)',
      doc: 'units consecutive merged chunks may share; less than chunkSize',
    },
    separators: {
      type: 'json',
      default: DEFAULT_SEPARATORS,
      defaultDoc: 'paragraph, line, sentence, `" "`, `""`',
      doc: 'ordered separators, coarsest first: strings or `{"kind": "paragraph"|"line"|"sentence"|"grapheme"}`',
      check: separatorsProblem,
    },
    keepSeparator: {
      type: 'enum',
      values: [true, false, 'start', 'end'],
      default: true,
      doc: 'where a separator goes: `true`/`start` begins the next piece (LangChain JS), `end` ends the previous one, `false` in no piece',
    },
    ...UNIT_OPTIONS,
  },
  check(r) {
    if ((r.chunkOverlap as number) >= (r.chunkSize as number)) {
      throw new InvalidOptionError('chunkOverlap', r.chunkOverlap, `must be < chunkSize (${r.chunkSize})`);
    }
    if (r.keepSeparator === false) {
      for (const s of r.separators as Separator[]) {
        if (typeof s === 'string' && !isBlank(s)) {
          throw new InvalidOptionError('keepSeparator', false, `separator ${JSON.stringify(s)} holds non-whitespace text, which would be lost; use true, 'start' or 'end'`);
        }
      }
    }
  },
};

/**
 * Splits text on an ordered list of separators, coarsest first, only where a piece is
 * still over `chunkSize` units, and merges consecutive small pieces back into chunks
 * of at most `chunkSize` units that share up to `chunkOverlap` units: LangChain's
 * `RecursiveCharacterTextSplitter` algorithm, with budgets in characters (code points),
 * words or tokens and exact offsets.
 *
 * Each chunk is `source.slice(start, end)` with whitespace trimmed at both ends (what
 * LangChain's `.trim()` removes), so with `keepSeparator: true` and LangChain's
 * separators its text equals LangChain's chunk text, on LF and CRLF text alike. The
 * budget is checked on the exact emitted text (for tokens: the text re-encoded on its
 * own); a chunk is over budget only when one grapheme cluster alone is, and then it
 * carries `metadata.oversized`. Runs in time linear in the text for a fixed separator
 * list (plus the overlap's repeats).
 *
 * @example
 * ```ts
 * const chunker = new RecursiveChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 200 });
 * for (const c of chunker.chunk(text)) console.log(c.start, c.end, c.text === text.slice(c.start, c.end));
 * ```
 * @throws {InvalidOptionError} at construction for an unknown option (with the closest
 *   valid name), chunkSize not an integer ≥ 1, chunkOverlap not an integer in
 *   [0, chunkSize), separators not a non-empty array of strings and `{ kind }` objects,
 *   keepSeparator not a boolean, `'start'` or `'end'`, or keepSeparator false with a
 *   separator that holds non-whitespace (it would be lost).
 */
export class RecursiveChunker {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly separators: readonly Separator[];
  readonly keepSeparator: SeparatorPlacement;
  readonly unit: ResolvedUnits['unit'];
  readonly encoding: string;
  readonly #resolved: ResolvedUnits;
  /** Operations of the last `chunk` call (pieces measured, occurrences visited): for tests of linear time. */
  lastOperations = 0;

  constructor(options: RecursiveOptions = {}) {
    const o = resolveOptions<RecursiveOptions>(RECURSIVE_SCHEMA, options);
    this.chunkSize = o.chunkSize;
    this.chunkOverlap = o.chunkOverlap;
    this.separators = o.separators;
    this.keepSeparator = o.keepSeparator === true ? 'start' : o.keepSeparator;
    this.#resolved = resolveUnits(o);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
  }

  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks.
   * @param text the source; offsets are UTF-16 indices into it.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string, options?: ChunkCallOptions): Chunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    const spans = this.spans(text);
    return new Assembler({ strategy: 'recursive', units: this.#resolved, documentId: documentIdOf(options) }).add(text, spans);
  }

  /**
   * The planned spans of `text` (what {@link chunk} assembles): for strategies that use
   * the recursive splitter inside their own structure.
   */
  spans(text: string, start = 0, end = text.length, measure: RangeMeasure = rangeMeasure(text, this.#resolved.units)): PlannedChunk[] {
    const index = new SeparatorIndex(text, this.separators, this.keepSeparator);
    const stats: PackStats = { steps: 0, exact: 0 };
    const tree = new PieceTree(text, index, measure, this.keepSeparator);
    const out = pack(tree.level(start, end, 0), { max: this.chunkSize, policy: 'langchain', overlapUnits: this.chunkOverlap }, [], stats);
    this.lastOperations = index.ops + stats.steps + stats.exact + measure.calls;
    return out;
  }
}

/** The boundary tree of one text: separator pieces, level by level, built as the packer descends. */
class PieceTree {
  constructor(
    readonly text: string,
    readonly index: SeparatorIndex,
    readonly measure: RangeMeasure,
    readonly keep: SeparatorPlacement,
  ) {}

  /**
   * The pieces of [s, e) at the separator LangChain's `_splitText` picks from `level` on
   * (grapheme clusters where none occurs: the last resort, which has no finer level).
   */
  level(s: number, e: number, level: number): PackLevel {
    return new PieceLevel(this, s, e, level);
  }

  #zeros = new Float64Array(0);

  /** A zero-filled array of at least `n` entries, shared by levels (read only). */
  zeros(n: number): Float64Array {
    if (this.#zeros.length < n) this.#zeros = new Float64Array(Math.max(n, this.#zeros.length * 2));
    return this.#zeros;
  }
}

/** One level of the tree: the pieces of a range at one separator. */
class PieceLevel implements PackLevel {
  readonly count: number;
  readonly sums: { sizes: Float64Array; prefix: Float64Array; gapBefore: Float64Array };
  readonly descend: ((k: number) => PackLevel | undefined) | undefined;
  readonly #tree: PieceTree;
  readonly #starts: Int32Array;
  readonly #ends: Int32Array;
  readonly #sep: number;

  /**
   * @param clusters at the last resort in tokens or words: split into grapheme clusters
   *   themselves (a unit run's finer level) rather than into unit runs ({@link unitRuns})
   */
  constructor(tree: PieceTree, s: number, e: number, level: number, clusters = false) {
    const { index, measure } = tree;
    const seps = index.separators;
    const sep = index.choose(level, s, e);
    const terminal = sep === -1 || isGraphemeSeparator(seps[sep]);
    const next = terminal ? seps.length : sep + 1;
    const graphemes = index.pieces(sep, s, e);
    const runs = terminal && !clusters && measure.sizer.unit !== 'char' && graphemes.count > 1 ? unitRuns(measure, s, e, graphemes.ends, graphemes.count) : undefined;
    const { starts, ends, count } = runs ?? graphemes;
    // sizes of the raw pieces (LangChain's lengthFunction) and, without kept separators,
    // of the separator text between pieces (mergeSplits adds it per join)
    const sizes = measure.sizeMany(starts, ends, count, new Float64Array(count));
    // gaps only where separators are kept in no piece; otherwise pieces tile the range
    // (in words, a join inside a word counts −1: `日本語。` + `中文。` is one word, not two)
    const words = measure.sizer.unit === 'word';
    const gaps = tree.keep === false || words ? new Float64Array(count) : tree.zeros(count);
    if (tree.keep === false) {
      for (let k = 1; k < count; k++) if (starts[k] > ends[k - 1]) gaps[k] = measure.size(ends[k - 1], starts[k]);
    }
    if (words) {
      const t = tree.text;
      for (let k = 1; k < count; k++) if (starts[k] === ends[k - 1] && !isSpace(t.charCodeAt(starts[k] - 1)) && !isSpace(t.charCodeAt(starts[k]))) gaps[k] -= 1;
    }
    const prefix = new Float64Array(count + 1);
    let sum = 0;
    for (let k = 0; k < count; k++) prefix[k + 1] = sum += gaps[k] + sizes[k];
    this.count = count;
    this.sums = { sizes, prefix, gapBefore: gaps };
    this.#tree = tree;
    this.#starts = starts;
    this.#ends = ends;
    this.#sep = sep;
    this.descend = runs
      ? (k) => (runs.clusters[k] > 1 ? new PieceLevel(tree, starts[k], ends[k], level, true) : undefined)
      : terminal
        ? undefined
        : (k) => tree.level(starts[k], ends[k], next);
  }

  start(k: number): number {
    return this.#starts[k];
  }

  end(k: number): number {
    return this.#ends[k];
  }

  size(k: number): number {
    return this.sums.sizes[k];
  }

  estimate(a: number, b: number): number {
    const { prefix, gapBefore } = this.sums;
    return prefix[b + 1] - prefix[a] - gapBefore[a];
  }

  /** [s, e) without whitespace at either end (String.prototype.trim's set). */
  #trim(a: number, b: number): [number, number] {
    const { start, end } = trimSpan(this.#tree.text, this.#starts[a], this.#ends[b]);
    return [start, end];
  }

  exact(a: number, b: number): number {
    const [ts, te] = this.#trim(a, b);
    return a === b && ts === this.#starts[a] && te === this.#ends[a] ? this.sums.sizes[a] : this.#tree.measure.size(ts, te);
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    const [ts, te] = this.#trim(a, b);
    if (ts >= te) return undefined;
    const chunk: PlannedChunk = { start: ts, end: te, unitCount: size, metadata: { separatorLevel: this.#sep } };
    if (oversized) chunk.oversized = true;
    return chunk;
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
