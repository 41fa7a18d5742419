/**
 * Semantic chunking: breaks where neighbouring sentences drift apart in embedding space.
 *
 * Source: LangChain's `SemanticChunker` (langchain_experimental/text_splitter.py, after Greg
 * Kamradt's "5 levels of text splitting"), whose breakpoint rules are reproduced here.
 * @module
 */
import { cosineMatVec, cosineNeighbours, percentile } from '../../../bindings/index.js';
import { HashingEmbedder } from '../../embedders/hashing-embedder.js';
import type { Embedder } from '../../embedders/types.js';
import { embedChecked } from '../../engine/callbacks.js';
import { checkedSplitter, type SpanSplitter, type SplitSpan } from '../../engine/splitter.js';
import { recursiveSpanSplitter, slidingSpanSplitter, type SpanSplitterOptions } from '../../engine/pack/fallback.js';
import { localeProblem } from '../../engine/options/options.js';
import { notAbove, OPTION_SHAPES, typed, type OptionsOf, type StrategySchema } from '../../engine/options/schema.js';
import { defineStrategy, MAX_CHUNK_SIZE_BUDGET } from '../../engine/define.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { sentenceSpans } from '../../engine/boundaries/sentence-spans.js';
import { UNIT_OPTIONS, type UnitOptions } from '../../engine/size/resolve.js';
import { addWork, type Work } from '../../engine/work.js';

/** How the break threshold is chosen from the distances (LangChain's `breakpoint_threshold_type`). */
export type BreakpointType = 'percentile' | 'standardDeviation' | 'interquartile' | 'gradient';
/** The breakpoint types. */
export const BREAKPOINT_TYPES: readonly BreakpointType[] = ['percentile', 'standardDeviation', 'interquartile', 'gradient'];
/** Default `threshold` amount per breakpoint type (LangChain's `BREAKPOINT_DEFAULTS`). */
export const BREAKPOINT_DEFAULTS: Readonly<Record<BreakpointType, number>> = {
  percentile: 98,
  standardDeviation: 3,
  interquartile: 1.5,
  gradient: 95,
};

/** A span [start, end) in UTF-16 code units (`oversized` when one unit alone exceeds the budget). */
export type Span = SplitSpan;
export type { SpanSplitter };


/** The options schema of the semantic strategy. */
export const SEMANTIC_SCHEMA = {
  name: 'semantic',
  options: {
    embedder: typed<Embedder>()({ type: 'object', doc: 'embeds sentences (n × d row-major Float32Array); default a HashingEmbedder (d = 384); CLI `--embedder hashing|static:<folder>|onnx:<folder>`', shape: OPTION_SHAPES.embedder }),
    breakpoint: { type: 'enum', values: BREAKPOINT_TYPES, default: 'percentile', doc: 'how the break threshold is chosen from the neighbour distances' },
    threshold: {
      type: 'number',
      min: 0,
      default: (r: Readonly<Record<string, unknown>>) => BREAKPOINT_DEFAULTS[r.breakpoint as BreakpointType],
      defaultDoc: '98 (percentile), 95 (gradient), 3 (standardDeviation), 1.5 (interquartile)',
      doc: 'the percentile (0–100), standard deviations or IQR multiplier of `breakpoint`',
      check: (v, r) => ((r.breakpoint === 'percentile' || r.breakpoint === 'gradient') && (v as number) > 100 ? 'must be a percentile in [0, 100]' : undefined),
    },
    bufferSize: { type: 'integer', min: 0, default: 1, doc: 'sentences on each side joined to a sentence before embedding it' },
    maxChunkSize: { type: 'integer', min: 1, default: 512, doc: 'no chunk is larger (units); a larger group is split by the recursive splitter' },
    minChunkSize: { type: 'integer', min: 0, default: 0, doc: 'a break is skipped while the chunk before it is smaller (units); a smaller piece joins its more similar neighbour' },
    locale: { type: 'string', default: 'en', doc: 'BCP 47 locale of the text for sentence segmentation (`auto`: detected from the text)', check: localeProblem, cli: { placeholder: '<tag>' } },
    splitter: typed<SpanSplitter>()({ type: 'function', doc: 'splits the text of a group larger than maxChunkSize: (text, maxChunkSize) => spans (default: the recursive splitter)' }),
    ...UNIT_OPTIONS,
  },
  check: notAbove('minChunkSize', 'maxChunkSize'),
} as const satisfies StrategySchema;

/** Options of {@link SemanticChunker} (sizes in `unit`s, tokens by default): read from {@link SEMANTIC_SCHEMA}. */
export type SemanticOptions = OptionsOf<typeof SEMANTIC_SCHEMA>;

/**
 * The break threshold of a list of neighbour distances, as LangChain's SemanticChunker
 * computes it (`_calculate_breakpoint_threshold`), with numpy's conventions:
 * - `percentile`: percentile(distances, amount), linear interpolation;
 * - `standardDeviation`: mean + amount · std (population std, ddof = 0);
 * - `interquartile`: mean + amount · (q75 − q25);
 * - `gradient`: values = numpy.gradient(distances) (central differences inside, one-sided
 *   at the ends), threshold = percentile(values, amount); breaks compare those values.
 *
 * A break follows sentence i when `values[i] > threshold` (strict, as LangChain), so equal
 * distances (identical sentences) never break. With no distance (one sentence), or fewer
 * than two for `gradient` (numpy raises there), the threshold is +Infinity: no break.
 * @param distances cosine distances 1 − cos between neighbours (n − 1 values)
 * @returns the threshold and the values compared against it
 */
export function breakpointThreshold(
  distances: Float32Array,
  type: BreakpointType,
  amount: number,
): { threshold: number; values: Float32Array } {
  const n = distances.length;
  if (n === 0 || (type === 'gradient' && n < 2)) return { threshold: Infinity, values: distances };
  if (type === 'percentile') return { threshold: percentile(distances, amount), values: distances };
  if (type === 'gradient') {
    const g = new Float32Array(n);
    g[0] = distances[1] - distances[0];
    g[n - 1] = distances[n - 1] - distances[n - 2];
    for (let i = 1; i < n - 1; i++) g[i] = (distances[i + 1] - distances[i - 1]) / 2;
    return { threshold: percentile(g, amount), values: g };
  }
  let sum = 0;
  for (let i = 0; i < n; i++) sum += distances[i];
  const mean = sum / n;
  if (type === 'standardDeviation') {
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (distances[i] - mean) ** 2;
    return { threshold: mean + amount * Math.sqrt(ss / n), values: distances };
  }
  const iqr = percentile(distances, 75) - percentile(distances, 25);
  return { threshold: mean + amount * iqr, values: distances };
}

/**
 * Semantic chunking: the text is split into sentences
 * (`splitSentences`, Intl.Segmenter); each sentence, joined with `bufferSize`
 * neighbours on each side (LangChain's `combine_sentences`, joined by a space), is
 * embedded once; the cosine distance 1 − cos between each buffered sentence and the next
 * (WASM `cosineNeighbours`; a zero vector has cos 0, distance 1, never NaN) is compared
 * with a threshold from {@link breakpointThreshold}; a chunk ends after sentence i when
 * `values[i] > threshold` (strict) — unless the chunk so far is under `minChunkSize`.
 * A last chunk under `minChunkSize` joins the one before. A chunk over `maxChunkSize`
 * is split by `splitter` (default: the recursive splitter), so no chunk exceeds maxChunkSize
 * whatever the distances (except one indivisible unit, flagged `oversized`).
 *
 * Chunks are trimmed of whitespace at both ends, do not overlap, and cover every
 * non-whitespace character; `chunk.text === text.slice(chunk.start, chunk.end)`.
 * Metadata: `sentenceStart`, `sentenceEnd` (sentence indices, end exclusive),
 * `threshold`, `breakValue` (the value that closed the chunk, absent for the last one)
 * and `split: true` on pieces of an oversized group.
 *
 * @example
 * ```ts
 * const chunker = new SemanticChunker({ breakpoint: 'percentile', threshold: 90, maxChunkSize: 256 });
 * const chunks = await chunker.chunk(text);
 * ```
 * @throws {InvalidOptionError} at construction for an unknown breakpoint type, a negative
 *   or non-finite threshold, bufferSize not an integer ≥ 0, or minChunkSize > maxChunkSize.
 */
export class SemanticChunker extends defineStrategy({
  name: 'semantic',
  description: 'breaks where neighbouring sentences drift apart (breakpoint: percentile, standardDeviation, interquartile, gradient); maxChunkSize (or chunkSize) caps chunks',
  schema: SEMANTIC_SCHEMA,
  ...MAX_CHUNK_SIZE_BUDGET,
  async: true,
}) {
  readonly embedder: Embedder = this.options.embedder ?? new HashingEmbedder();
  readonly breakpoint: BreakpointType = this.options.breakpoint;
  readonly threshold: number = this.options.threshold;
  readonly bufferSize: number = this.options.bufferSize;
  readonly minChunkSize: number = this.options.minChunkSize;
  readonly maxChunkSize: number = this.options.maxChunkSize;
  readonly locale: string = this.options.locale;
  /** Splits [start, end) of `text` into pieces of at most `max` units (offsets into `text`). */
  readonly #splitter: (text: string, start: number, end: number, max: number) => Span[] = this.#makeSplitter();

  #makeSplitter(): (text: string, start: number, end: number, max: number) => Span[] {
    const user = this.options.splitter;
    const split = user ? checkedSplitter('splitter', user) : recursiveSplitter(this.options);
    return (text, start, end, max) => split(text.slice(start, end), max).map((p) => ({ ...p, start: start + p.start, end: start + p.end }));
  }

  /**
   * The planned chunks of `text` (not blank): sentences, their distances, the breaks, the
   * groups cut at maxChunkSize. `chunk(text, options)` (see {@link AsyncShell.chunk})
   * assembles them; it throws {@link EmbeddingError} when the embedder returns a matrix
   * of the wrong size (or, one of chunkwise's, fails), `CallbackError` when the embedder
   * (or another option that is a function) throws (`option` names it, `cause` is the
   * original), `InvalidOptionError` when a user sizer or splitter returns something unusable.
   */
  spans(text: string): Promise<PlannedChunk[]> {
    return this.plannedSpans(text, undefined);
  }

  protected override async plannedSpans(text: string, work: Work | undefined): Promise<PlannedChunk[]> {
    const s = sentenceSpans(text, this.locale);
    const n = s.count;
    const sentences: string[] = [];
    for (let i = 0; i < n; i++) sentences.push(text.slice(s.starts[i], s.ends[i]));
    const groups: Array<{ a: number; b: number; breakValue?: number }> = [];
    let threshold = Infinity;
    if (n > 1) {
      const buffered = sentences.map((_, i) =>
        sentences.slice(Math.max(0, i - this.bufferSize), Math.min(n, i + this.bufferSize + 1)).join(' '),
      );
      const d = this.embedder.dimension;
      const matrix = await embedChecked(this.embedder, buffered);
      const sims = cosineNeighbours(matrix, d);
      const distances = new Float32Array(n - 1);
      for (let i = 0; i < n - 1; i++) distances[i] = 1 - sims[i];
      const bp = breakpointThreshold(distances, this.breakpoint, this.threshold);
      threshold = bp.threshold;
      let a = 0;
      for (let i = 0; i < n - 1; i++) {
        if (!(bp.values[i] > threshold)) continue;
        if (this.minChunkSize > 0 && this.measure(text.slice(s.starts[a], s.ends[i]), work) < this.minChunkSize) continue;
        groups.push({ a, b: i + 1, breakValue: bp.values[i] });
        a = i + 1;
      }
      groups.push({ a, b: n });
      const last = groups[groups.length - 1];
      if (groups.length > 1 && this.minChunkSize > 0 && this.measure(text.slice(s.starts[last.a], s.ends[n - 1]), work) < this.minChunkSize) {
        groups.pop();
        const prev = groups[groups.length - 1];
        prev.b = n;
        delete prev.breakValue;
      }
    } else groups.push({ a: 0, b: n });

    const planned: PlannedChunk[] = [];
    for (const g of groups) {
      const start = s.starts[g.a];
      const end = s.ends[g.b - 1];
      const size = this.measure(text.slice(start, end), work);
      let pieces: Span[] = size <= this.maxChunkSize ? [{ start, end }] : this.#splitter(text, start, end, this.maxChunkSize);
      if (pieces.length > 1 && this.minChunkSize > 0) pieces = await this.#mergeShort(text, pieces, work);
      for (const p of pieces) {
        const unitCount = pieces.length === 1 ? size : this.measure(text.slice(p.start, p.end), work);
        const chunk: PlannedChunk = {
          start: p.start,
          end: p.end,
          unitCount,
          metadata: {
            sentenceStart: g.a,
            sentenceEnd: g.b,
            threshold,
            ...(g.breakValue !== undefined && p === pieces[pieces.length - 1] ? { breakValue: g.breakValue } : {}),
            ...(pieces.length > 1 ? { split: true } : {}),
          },
        };
        if (p.oversized || unitCount > this.maxChunkSize) chunk.oversized = true;
        planned.push(chunk);
      }
    }
    return planned;
  }

  /**
   * Pieces of one group cut at maxChunkSize, with every piece under minChunkSize merged
   * into its more similar neighbour (cosine of their embeddings) where the merged piece
   * stays within maxChunkSize; a short piece neither neighbour can take stays as it is.
   *
   * The first short piece is merged first, again and again: pieces are a linked list and
   * the search for the next short piece resumes where the last merge happened (every
   * piece before it was neither short nor mergeable and stays so: sizes before it do not
   * change, and a piece found stuck stays stuck), so the pass is linear in the pieces.
   */
  async #mergeShort(text: string, pieces: Span[], work: Work | undefined): Promise<Span[]> {
    const out = pieces.map((p) => ({ ...p, size: this.measure(text.slice(p.start, p.end), work) }));
    const n = out.length;
    // a doubly linked list over `out`: a merge keeps the left node and unlinks the right one
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      next[k] = k + 1 < n ? k + 1 : -1;
      prev[k] = k - 1;
    }
    const d = this.embedder.dimension;
    const vectors = new Map<string, Float32Array>();
    const key = (p: Span): string => `${p.start}:${p.end}`;
    const vector = async (spans: Span[]): Promise<void> => {
      const missing = spans.filter((p) => !vectors.has(key(p)));
      if (!missing.length) return;
      const m = await embedChecked(this.embedder, missing.map((p) => text.slice(p.start, p.end)));
      missing.forEach((p, k) => vectors.set(key(p), m.subarray(k * d, (k + 1) * d)));
    };
    const stuck = new Set<number>(); // starts of short pieces no neighbour can take
    const fits = (a: number, b: number): boolean => this.measure(text.slice(out[a].start, out[b].end), work) <= this.maxChunkSize;
    const head = n > 0 ? 0 : -1;
    for (let i = head; i >= 0; ) {
      addWork(work, 'mergeSteps', 1);
      if (!(out[i].size < this.minChunkSize && !stuck.has(out[i].start))) {
        i = next[i];
        continue;
      }
      const left = prev[i];
      const right = next[i];
      const canLeft = left >= 0 && fits(left, i);
      const canRight = right >= 0 && fits(i, right);
      if (!canLeft && !canRight) {
        stuck.add(out[i].start);
        i = right;
        continue;
      }
      let toRight = canRight && !canLeft;
      if (canLeft && canRight) {
        await vector([out[i], out[left], out[right]]);
        // the cosines of the right and the left neighbour with the piece (WASM)
        const pair = new Float32Array(2 * d);
        pair.set(vectors.get(key(out[right]))!, 0);
        pair.set(vectors.get(key(out[left]))!, d);
        const [toR, toL] = cosineMatVec(pair, d, vectors.get(key(out[i]))!);
        toRight = toR > toL;
      }
      const [a, b] = toRight ? [i, right] : [left, i];
      out[a] = { start: out[a].start, end: out[b].end, size: this.measure(text.slice(out[a].start, out[b].end), work) };
      next[a] = next[b];
      if (next[b] >= 0) prev[next[b]] = a;
      i = a; // everything before a is unchanged: resume the search at the merged piece
    }
    const merged: Span[] = [];
    for (let k = head; k >= 0; k = next[k]) merged.push(out[k]);
    return merged;
  }
}

/** The unit options a default splitter takes: the semantic chunker's unit, no overlap. */
function splitterUnits(options: UnitOptions): SpanSplitterOptions {
  const { unit, encoding, tokenizer, sizer, lengthFunction } = options;
  return { unit, encoding, tokenizer, sizer, lengthFunction, chunkOverlap: 0 };
}

/**
 * The default {@link SpanSplitter}: the recursive splitter's piece tree with `chunkSize =
 * maxChunkSize`, no overlap, in the same unit and encoding, over the group's text, so an
 * over-long group is cut at paragraph, line and sentence ends and spaces first.
 */
export function recursiveSplitter(options: UnitOptions = {}): SpanSplitter {
  return recursiveSpanSplitter(splitterUnits(options));
}

/**
 * A {@link SpanSplitter} of fixed-size windows with `chunkSize = maxChunkSize`, no
 * overlap, in the same unit and encoding, over the group's text.
 */
export function fixedSizeSplitter(options: UnitOptions = {}): SpanSplitter {
  return slidingSpanSplitter(splitterUnits(options));
}
