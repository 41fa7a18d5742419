/**
 * Query-Adaptive Semantic Chunking (QASC): chunks built at query time, per query.
 *
 * Source: SPEC section 2, from the summary of the QASC paper in
 * `shared/seeds/004_*` (Dutch): seed sentences by a percentile threshold, context
 * windows around them, an exponentially decaying weighted score, merging and
 * alignment to paragraph breaks. Parameter names follow the paper (p, m, λ, κ).
 * @module
 */
import * as wasm from '../../bindings/index.js';
import { chunkId, hashText, type Chunk, type ChunkMetadata } from '../core/chunk.js';
import { HashingEmbedder } from '../embedders/hashing-embedder.js';
import type { Embedder } from '../embedders/types.js';
import { EmbeddingError, InvalidInputError, InvalidOptionError } from '../core/errors.js';
import { integerOption, localeOption, numberOption, requireInteger, requireOneOf } from '../core/options.js';
import { getTokenizer } from '../size/tokens.js';
import { paragraphBreaks, sentenceSpans, type SentenceSpans } from '../segment/sentence-spans.js';
import { WasmMatrix } from './wasm-matrix.js';

/** The kernels QASC's steps run on: the WASM ones (`bindings/`) or the TypeScript reference (`src/kernels/reference.ts`). */
export interface QascKernels {
  percentile(values: Float32Array, p: number): number;
  decayScores(sims: Float32Array, lo: Int32Array, hi: Int32Array, r: Int32Array, lambda: number): Float64Array;
  mergeIntervals(starts: Int32Array, ends: Int32Array, gap?: number): { starts: Int32Array; ends: Int32Array; group: Int32Array };
}

/** The WASM kernels (default). */
export const WASM_QASC_KERNELS: QascKernels = {
  percentile: (v, p) => wasm.percentile(v, p),
  decayScores: (s, lo, hi, r, l) => wasm.decayScores(s, lo, hi, r, l),
  mergeIntervals: (s, e, gap) => wasm.mergeIntervals(s, e, gap),
};

/** QASC parameters, under the paper's names (SPEC section 2). */
export interface QascParams {
  /** Percentile of the sims that is the seed threshold τ (step 2). Default 75. */
  p?: number;
  /** Window radius in sentences on each side of a seed (step 3). Default 2. */
  m?: number;
  /** Decay rate λ of the weights α_i = exp(−λ·|i − r|) (step 4). Default 0.5. */
  lambda?: number;
  /** A window is kept when S ≥ κ·τ (step 4). Default 0.6. */
  kappa?: number;
  /**
   * `fixed` (default): the window is [r − m, r + m]. `adaptive`: starting from that
   * window, each side grows one sentence at a time while the next sentence's sim is
   * ≥ τ₂ (the `secondaryPercentile`-th percentile), up to `maxRadius` from the seed.
   */
  window?: 'fixed' | 'adaptive';
  /** Percentile of the sims that is the secondary threshold τ₂ of adaptive windows. Default 50. */
  secondaryPercentile?: number;
  /** Largest distance (sentences) an adaptive window reaches from its seed. Default 5. */
  maxRadius?: number;
  /** A chunk boundary moves to the nearest paragraph break at most this many sentence boundaries away (step 5). Default 1; 0 disables. */
  alignDistance?: number;
}

/** Thresholds computed elsewhere (hybrid mode: over all candidates' sentences), used instead of the percentiles of `sims`. */
export interface QascThresholds {
  tau: number;
  tau2: number;
}

/** {@link QascParams} with every default filled in. */
export type ResolvedQascParams = Required<QascParams>;

/** The defaults of SPEC section 2. */
export const QASC_DEFAULTS: ResolvedQascParams = {
  p: 75,
  m: 2,
  lambda: 0.5,
  kappa: 0.6,
  window: 'fixed',
  secondaryPercentile: 50,
  maxRadius: 5,
  alignDistance: 1,
};

/**
 * Validates QASC parameters and fills in defaults.
 * @throws {InvalidOptionError} naming the parameter: p and secondaryPercentile in
 *   [0, 100]; m, maxRadius, alignDistance integers ≥ 0 (maxRadius ≥ m); lambda ≥ 0;
 *   kappa finite; window `fixed` or `adaptive`.
 */
export function resolveQascParams(o: QascParams = {}): ResolvedQascParams {
  const m = integerOption('m', o.m, QASC_DEFAULTS.m, 0);
  const window = requireOneOf('window', o.window ?? QASC_DEFAULTS.window, ['fixed', 'adaptive'] as const);
  const maxRadius = integerOption('maxRadius', o.maxRadius, Math.max(QASC_DEFAULTS.maxRadius, m), 0);
  if (maxRadius < m) throw new InvalidOptionError('maxRadius', maxRadius, `must be ≥ m (${m})`);
  return {
    p: numberOption('p', o.p, QASC_DEFAULTS.p, 0, 100),
    m,
    lambda: numberOption('lambda', o.lambda, QASC_DEFAULTS.lambda, 0),
    kappa: numberOption('kappa', o.kappa, QASC_DEFAULTS.kappa),
    window,
    secondaryPercentile: numberOption('secondaryPercentile', o.secondaryPercentile, QASC_DEFAULTS.secondaryPercentile, 0, 100),
    maxRadius,
    alignDistance: integerOption('alignDistance', o.alignDistance, QASC_DEFAULTS.alignDistance, 0),
  };
}

/** One candidate window of step 3–4. Sentence indices; `hi` exclusive. */
export interface QascWindow {
  seed: number;
  lo: number;
  hi: number;
  /** S = Σ α_i·sim_i / Σ α_i over [lo, hi), α_i = exp(−λ·|i − seed|). */
  score: number;
  /** S ≥ κ·τ. */
  kept: boolean;
}

/** One chunk of sentences [lo, hi) after merging and alignment (step 5). */
export interface QascSpan {
  lo: number;
  hi: number;
  /** The best score S among the kept windows merged into it. */
  score: number;
  /** Seed sentence indices of its kept windows, ascending. */
  seeds: number[];
  /** [lo, hi) before paragraph alignment (after merging). */
  mergedLo: number;
  mergedHi: number;
}

/** Everything QASC computed for one query: the explanation of its chunks. */
export interface QascPlan {
  /** sim_i per sentence (step 1). */
  sims: Float32Array;
  /** τ: the p-th percentile of sims (step 2). */
  tau: number;
  /** τ₂: the secondary threshold (adaptive windows). */
  tau2: number;
  /** Seed sentence indices, ascending (sim ≥ τ). */
  seeds: number[];
  /** One window per seed (steps 3–4). */
  windows: QascWindow[];
  /** Merged, aligned chunks, best score first, ties by position (steps 5–6). */
  spans: QascSpan[];
}

/**
 * QASC steps 2–6 on the sims of one document's sentences (SPEC section 2):
 * 2. τ = percentile(sims, p) (numpy linear); seeds are the i with sim_i ≥ τ.
 * 3. Window [max(0, r − m), min(n, r + m + 1)) per seed r; `adaptive` then grows each
 *    side while the next sentence's sim ≥ τ₂ and the distance to r stays ≤ maxRadius.
 * 4. S = Σ α_i·sim_i / Σ α_i, α_i = exp(−λ·|i − r|) (kernel decayScores); kept when S ≥ κ·τ.
 * 5. Kept windows, sorted by lo, are merged when they overlap or touch (kernel
 *    mergeIntervals, gap 0 on half-open ranges; one pass merges whole chains, which is
 *    the iteration); then each chunk's lo moves to the nearest paragraph break b
 *    (breaks[b] = 1) with |b − lo| ≤ alignDistance and b ≤ its first seed (no seed is cut
 *    off), hi likewise with b ≥ last seed + 1; at equal distance lo moves outward (taking
 *    in the heading above) and hi inward (leaving out the next section's heading); chunks that alignment made overlap are merged again (gap −1: chunks it
 *    made merely adjacent stay apart). A merged chunk's S is the best S of its windows.
 * 6. Chunks ranked by S (descending), ties by position.
 * @param sims sim_i, n values (f32)
 * @param breaks n + 1 flags: 1 where boundary b (before sentence b) is a paragraph break
 * @param kernels WASM (default) or the TypeScript reference
 * @param thresholds τ and τ₂ to use instead of the percentiles of `sims`
 * @throws {InvalidOptionError} for a parameter out of range.
 * @throws {InvalidInputError} when breaks is not of length n + 1.
 */
export function planQasc(
  sims: Float32Array,
  breaks: Uint8Array,
  params: QascParams = {},
  kernels: QascKernels = WASM_QASC_KERNELS,
  thresholds?: QascThresholds,
): QascPlan {
  const P = resolveQascParams(params);
  const n = sims.length;
  if (breaks.length !== n + 1) throw new InvalidInputError(`breaks of length n + 1 = ${n + 1}`, breaks.length);
  if (n === 0) return { sims, tau: NaN, tau2: NaN, seeds: [], windows: [], spans: [] };
  const tau = thresholds ? thresholds.tau : kernels.percentile(sims, P.p);
  const tau2 = thresholds ? thresholds.tau2 : P.window === 'adaptive' ? kernels.percentile(sims, P.secondaryPercentile) : NaN;
  const seeds: number[] = [];
  for (let i = 0; i < n; i++) if (sims[i] >= tau) seeds.push(i);
  const k = seeds.length;
  const lo = new Int32Array(k);
  const hi = new Int32Array(k);
  const r = Int32Array.from(seeds);
  for (let j = 0; j < k; j++) {
    let a = Math.max(0, seeds[j] - P.m);
    let b = Math.min(n, seeds[j] + P.m + 1);
    if (P.window === 'adaptive') {
      while (a > 0 && seeds[j] - (a - 1) <= P.maxRadius && sims[a - 1] >= tau2) a--;
      while (b < n && b - seeds[j] <= P.maxRadius && sims[b] >= tau2) b++;
    }
    lo[j] = a;
    hi[j] = b;
  }
  const scores = k ? kernels.decayScores(sims, lo, hi, r, P.lambda) : new Float64Array(0);
  const keep = P.kappa * tau;
  const windows: QascWindow[] = [];
  for (let j = 0; j < k; j++) windows.push({ seed: seeds[j], lo: lo[j], hi: hi[j], score: scores[j], kept: scores[j] >= keep });

  // step 5: merge overlapping or adjacent windows; align to paragraph breaks; merge what
  // alignment made overlap (not what it made merely adjacent: those stay two chunks)
  let spans: QascSpan[] = windows
    .filter((w) => w.kept)
    .map((w) => ({ lo: w.lo, hi: w.hi, score: w.score, seeds: [w.seed], mergedLo: w.lo, mergedHi: w.hi }));
  spans = mergeSpans(spans, kernels, 0).map((s) => alignSpan(s, breaks, P.alignDistance));
  spans = mergeSpans(spans, kernels, -1);
  spans.sort((a, b) => b.score - a.score || a.lo - b.lo);
  return { sims, tau, tau2, seeds, windows, spans };
}

function mergeSpans(spans: QascSpan[], kernels: QascKernels, gap: number): QascSpan[] {
  if (spans.length <= 1) return spans;
  const sorted = [...spans].sort((a, b) => a.lo - b.lo || a.hi - b.hi);
  const m = kernels.mergeIntervals(Int32Array.from(sorted.map((s) => s.lo)), Int32Array.from(sorted.map((s) => s.hi)), gap);
  const out: QascSpan[] = [];
  for (let g = 0; g < m.starts.length; g++) out.push({ lo: m.starts[g], hi: m.ends[g], score: -Infinity, seeds: [], mergedLo: Infinity, mergedHi: -Infinity });
  sorted.forEach((s, i) => {
    const o = out[m.group[i]];
    o.score = Math.max(o.score, s.score);
    o.seeds.push(...s.seeds);
    o.mergedLo = Math.min(o.mergedLo, gap === 0 ? o.lo : s.mergedLo);
    o.mergedHi = Math.max(o.mergedHi, gap === 0 ? o.hi : s.mergedHi);
  });
  for (const o of out) o.seeds = [...new Set(o.seeds)].sort((a, b) => a - b);
  return out;
}

function alignSpan(s: QascSpan, breaks: Uint8Array, dist: number): QascSpan {
  if (dist === 0) return s;
  const n = breaks.length - 1;
  const firstSeed = s.seeds[0];
  const lastSeed = s.seeds[s.seeds.length - 1];
  let lo = s.lo;
  if (!breaks[lo]) {
    for (let delta = 1; delta <= dist; delta++) {
      if (lo - delta >= 0 && breaks[lo - delta]) {
        lo -= delta;
        break;
      }
      if (lo + delta <= firstSeed && breaks[lo + delta]) {
        lo += delta;
        break;
      }
    }
  }
  let hi = s.hi;
  if (!breaks[hi]) {
    for (let delta = 1; delta <= dist; delta++) {
      if (hi - delta >= lastSeed + 1 && hi - delta > lo && breaks[hi - delta]) {
        hi -= delta;
        break;
      }
      if (hi + delta <= n && breaks[hi + delta]) {
        hi += delta;
        break;
      }
    }
  }
  return { ...s, lo, hi };
}

/** A document made ready for queries: its sentences, paragraph breaks and sentence vectors. */
export interface PreparedDocument {
  text: string;
  sentences: SentenceSpans;
  /** n + 1 paragraph-break flags (see {@link paragraphBreaks}). */
  breaks: Uint8Array;
  /** n × d sentence vectors, kept in WASM memory across queries. */
  vectors: WasmMatrix;
  sourceHash: string;
}

/** Metadata of a QASC chunk. */
export interface QascChunkMetadata extends ChunkMetadata {
  strategy: 'qasc';
  /** S of the chunk (step 4; the best window merged into it). */
  score: number;
  /** Seed sentence indices. */
  seeds: number[];
  /** Sentence range [sentenceStart, sentenceEnd) in the document's sentences. */
  sentenceStart: number;
  sentenceEnd: number;
  /** The query-level numbers and this chunk's windows, with `explain: true`. */
  explain?: { tau: number; tau2: number; keepThreshold: number; windows: QascWindow[]; mergedRange: [number, number]; seedSims: number[] };
}

/** A QASC chunk: a {@link Chunk} with its score and seeds in metadata. */
export interface QascChunk extends Chunk {
  metadata: QascChunkMetadata;
}

/** Options of {@link QueryAdaptiveChunker}. */
export interface QascOptions extends QascParams {
  /** Embeds sentences and queries. Default `new HashingEmbedder()`. */
  embedder?: Embedder;
  /** BCP 47 locale for sentence segmentation. Default `en`. */
  locale?: string;
  /** Put the explanation (τ, τ₂, windows, seed sims) in each chunk's metadata. Default false. */
  explain?: boolean;
}

/**
 * QASC over whole documents (SPEC section 2): `query(document, q)` returns the chunks
 * relevant to q, best first. A query-time strategy: chunks cover only what is relevant,
 * so "nothing lost" does not apply; every chunk still has `text === document.slice(start, end)`.
 * Sentence vectors of the last documents prepared are reused (see {@link prepare}).
 *
 * @example
 * ```ts
 * const qasc = new QueryAdaptiveChunker({ p: 75, m: 2, lambda: 0.5, kappa: 0.6 });
 * const [best] = await qasc.query(text, 'wat is de latentie van QASC?');
 * best.metadata.score; best.metadata.seeds; best.start; best.end;
 * ```
 * @throws {InvalidOptionError} at construction for a parameter out of range.
 */
export class QueryAdaptiveChunker {
  readonly embedder: Embedder;
  readonly params: ResolvedQascParams;
  readonly locale: string;
  readonly explain: boolean;
  #cache: PreparedDocument | undefined;

  constructor(options: QascOptions = {}) {
    this.embedder = options.embedder ?? new HashingEmbedder();
    if (typeof this.embedder?.embed !== 'function') throw new InvalidOptionError('embedder', options.embedder, 'an Embedder with embed(texts)');
    this.params = resolveQascParams(options);
    this.locale = localeOption('locale', options.locale);
    this.explain = options.explain ?? false;
  }

  /**
   * Splits `text` into sentences and embeds them (step 1, document side). The result can
   * be queried many times with {@link queryPrepared}; {@link query} keeps the last one.
   * @throws {InvalidInputError} when `text` is not a string.
   * @throws {EmbeddingError} when the embedder fails or returns the wrong shape.
   */
  async prepare(text: string): Promise<PreparedDocument> {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
    const sentences = sentenceSpans(text, this.locale);
    const list: string[] = [];
    for (let i = 0; i < sentences.count; i++) list.push(text.slice(sentences.starts[i], sentences.ends[i]));
    const d = this.embedder.dimension;
    const data = list.length ? await this.embedder.embed(list) : new Float32Array(0);
    checkMatrix(data, list.length, d);
    return { text, sentences, breaks: paragraphBreaks(text, sentences), vectors: new WasmMatrix(data, d), sourceHash: hashText(text) };
  }

  /**
   * The chunks of `text` relevant to `query`, best first.
   * @param options.topK keep only the best k chunks (default: all kept chunks)
   * @throws {InvalidInputError} when text or query is not a string.
   */
  async query(text: string, query: string, options: { topK?: number } = {}): Promise<QascChunk[]> {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
    if (!this.#cache || this.#cache.text !== text) this.#cache = await this.prepare(text);
    return this.queryPrepared(this.#cache, query, options);
  }

  /** Embeds `query` (step 1, query side): a d-vector. */
  async embedQuery(query: string): Promise<Float32Array> {
    if (typeof query !== 'string') throw new InvalidInputError('query must be a string', query);
    const v = await this.embedder.embed([query]);
    checkMatrix(v, 1, this.embedder.dimension);
    return v;
  }

  /** {@link query} on a document from {@link prepare}. */
  async queryPrepared(doc: PreparedDocument, query: string, options: { topK?: number } = {}): Promise<QascChunk[]> {
    const q = await this.embedQuery(query);
    const sims = doc.sentences.count ? doc.vectors.cosine(q) : new Float32Array(0);
    const plan = planQasc(sims, doc.breaks, this.params);
    let spans = plan.spans;
    if (options.topK !== undefined) spans = spans.slice(0, requireInteger('topK', options.topK, 1));
    return spans.map((s, rank) => qascChunk(doc, s, rank, plan, this.params, this.explain));
  }
}

/**
 * Builds the chunk for span `s` (sentence indices of `doc`) of a plan: offsets from the
 * first sentence's start to the last one's end. `simsOffset` is the document index of
 * `plan.sims[0]` when the plan ran on a range of the document (hybrid mode).
 */
export function qascChunk(
  doc: Pick<PreparedDocument, 'text' | 'sentences' | 'sourceHash'>,
  s: QascSpan,
  rank: number,
  plan: QascPlan,
  params: ResolvedQascParams,
  explain: boolean,
  simsOffset = 0,
): QascChunk {
  const start = doc.sentences.starts[s.lo];
  const end = doc.sentences.ends[s.hi - 1];
  const text = doc.text.slice(start, end);
  const metadata: QascChunkMetadata = {
    strategy: 'qasc',
    unit: 'sentence',
    unitCount: s.hi - s.lo,
    overlap: 0,
    score: s.score,
    seeds: s.seeds,
    sentenceStart: s.lo,
    sentenceEnd: s.hi,
  };
  if (explain) {
    metadata.explain = {
      tau: plan.tau,
      tau2: plan.tau2,
      keepThreshold: params.kappa * plan.tau,
      windows: plan.windows.filter((w) => w.seed >= s.mergedLo && w.seed < s.mergedHi),
      mergedRange: [s.mergedLo, s.mergedHi],
      seedSims: s.seeds.map((i) => plan.sims[i - simsOffset] ?? NaN),
    };
  }
  return {
    id: chunkId(doc.sourceHash, start, end),
    index: rank,
    text,
    start,
    end,
    tokenCount: getTokenizer('cl100k_base').count(text),
    metadata,
  };
}

/** @throws {EmbeddingError} unless `m` is a Float32Array of rows × d. */
export function checkMatrix(m: unknown, rows: number, d: number): asserts m is Float32Array {
  if (!(m instanceof Float32Array) || m.length !== rows * d) {
    throw new EmbeddingError(`The embedder returned ${(m as Float32Array)?.length} values, expected ${rows} × ${d}`);
  }
}
