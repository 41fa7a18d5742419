/**
 * Query-Adaptive Semantic Chunking (QASC): chunks built at query time, per query.
 *
 * Source: the QASC paper (query-adaptive semantic chunking): seed sentences by a percentile threshold, context
 * windows around them, an exponentially decaying weighted score, merging and
 * alignment to paragraph breaks. Parameter names follow the paper (p, m, λ, κ).
 * @module
 */
import { documentIdOf, type ChunkCallOptions, workOf } from '../../engine/ids.js';
import * as wasm from '../../../bindings/index.js';
import type { Chunk, ChunkMetadata } from '../../engine/chunk.js';
import { Assembler, type PlannedChunk } from '../../engine/assemble.js';
import { defineStrategy } from '../../engine/define.js';
import { HashingEmbedder } from '../../embedders/hashing-embedder.js';
import type { Embedder } from '../../embedders/types.js';
import { EmbeddingError, InvalidInputError, InvalidOptionError } from '../../engine/errors.js';
import { requireInteger } from '../../engine/options/options.js';
import { rejectUnknownOptions } from '../../engine/options/schema.js';
import type { Tokenizer } from '../../engine/size/types.js';
import { paragraphBreaks, sentenceSpans, type SentenceSpans } from '../../engine/boundaries/sentence-spans.js';
import { headingSentences, snapToBreaks, type SentenceStructure } from '../../engine/boundaries/structure.js';
import { detectLocale } from '../../engine/boundaries/locale.js';
import { isCaseless } from '../../engine/boundaries/sentences.js';
import { WasmMatrix } from '../../engine/wasm-matrix.js';
import { addWork, type Work } from '../../engine/work.js';
export { QASC_DEFAULTS, QASC_SCHEMA, requireQuery, QASC_PARAM_NAMES, resolveQascLocale, resolveQascParams, resolveQascTokenizer, type QascParams, type QascThresholds, type ResolvedQascParams } from './params.js';
export { spanScore } from './score.js';
import { decayTable, nearestSeedWeights, spanScoreWith } from './score.js';
import { QASC_SCHEMA, requireQuery, QASC_PARAM_NAMES, resolveQascParams, resolveQascTokenizer, withoutNoFloor, type QascParams, type QascThresholds, type ResolvedQascParams } from './params.js';

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

/** One chunk of sentences [lo, hi) after merging, snapping and the size cap (step 5). */
export interface QascSpan {
  lo: number;
  hi: number;
  /**
   * S over the chunk's own sentences: Σ α_i·sim_i / Σ α_i over [lo, hi) with
   * α_i = exp(−λ·dᵢ), dᵢ the distance to the nearest of its seeds (for one window, the
   * window's S).
   */
  score: number;
  /** Seed sentence indices inside [lo, hi), ascending. */
  seeds: number[];
  /** [lo, hi) after merging the kept windows, before snapping (for a piece of a split chunk: the piece). */
  mergedLo: number;
  mergedHi: number;
  /** Tokens of the chunk's text when the plan counted them (size cap). */
  tokenCount?: number;
  /** One sentence larger than maxChunkSize. */
  oversized?: boolean;
}

/** Everything QASC computed for one query: the explanation of its chunks. */
export interface QascPlan {
  /** sim_i per sentence (step 1). */
  sims: Float32Array;
  /** τ: the p-th percentile of sims (step 2). */
  tau: number;
  /** τ₂: the secondary threshold (adaptive windows). */
  tau2: number;
  /** Seed sentence indices, ascending (sim ≥ τ and sim ≥ minSimilarity). */
  seeds: number[];
  /** One window per seed (steps 3–4). */
  windows: QascWindow[];
  /** Merged, snapped, size-capped chunks, best score first, ties by position (steps 5–6). */
  spans: QascSpan[];
}

/** The document structure {@link planQasc} needs beyond the sims: breaks, headings and sizes of its sentences. */
export interface QascStructure extends SentenceStructure {
  /** Tokens of each sentence's text (n entries), for `maxChunkSize`; without them chunks are not capped. */
  tokens?: Int32Array;
  /** Exact tokens of the text from sentence lo's start to sentence hi − 1's end; default: the sum of `tokens`. */
  countTokens?: (lo: number, hi: number) => number;
}

/**
 * QASC steps 2–6 on the sims of one document's sentences (the choices where the paper
 * is silent are listed in docs/qasc.md):
 * 2. τ = percentile(sims, p) (numpy linear); seeds are the i with sim_i ≥ τ (and
 *    sim_i ≥ minSimilarity).
 * 3. `fixed`: window [max(0, r − m), min(n, r + m + 1)) per seed r. `adaptive`: from
 *    [r, r + 1), each side grows while the next sentence's sim ≥ τ₂ and its distance to
 *    r is ≤ maxRadius.
 * 4. S = Σ α_i·sim_i / Σ α_i, α_i = exp(−λ·|i − r|) (kernel decayScores); kept when S ≥ κ·τ.
 * 5. Kept windows, sorted by lo, are merged when they overlap or touch (kernel
 *    mergeIntervals; one pass merges whole chains, which is the iteration). Each chunk's
 *    ends snap to paragraph or section breaks within alignDistance without cutting off a
 *    seed, and a chunk never ends on a heading ({@link snapToBreaks}); chunks that
 *    snapping made overlap or touch are merged again. A chunk over maxChunkSize tokens
 *    is split at its weakest boundary b — the lowest (ρ_{b−1} + ρ_b)/2, ρ_i = α_i·sim_i
 *    with α_i decaying with the distance to the chunk's nearest seed — recursively; a
 *    piece without a seed is dropped, and a piece never ends on a heading.
 * 6. Each chunk's S is computed over its own sentences (see {@link QascSpan.score});
 *    chunks are ranked by S (descending), ties by position.
 * @param sims sim_i, n values (f32)
 * @param structure the paragraph-break flags (n + 1), or breaks, headings and token counts
 * @param kernels WASM (default) or the TypeScript reference
 * @param thresholds τ and τ₂ to use instead of the percentiles of `sims`
 * @param work counters the work is added to: `qascSteps`, the sentences, seeds and windows
 *   the loops visit (windows, merging, snapping, the size cap's pieces and the seeds each looks up)
 * @throws {InvalidOptionError} for a parameter out of range.
 * @throws {InvalidInputError} when breaks is not of length n + 1, or headings / tokens not of length n.
 */
export function planQasc(
  sims: Float32Array,
  structure: Uint8Array | QascStructure,
  params: QascParams = {},
  kernels: QascKernels = WASM_QASC_KERNELS,
  thresholds?: QascThresholds,
  work?: Work,
): QascPlan {
  const P = resolveQascParams(params);
  const n = sims.length;
  const st: QascStructure = structure instanceof Uint8Array ? { breaks: structure } : structure;
  if (st.breaks.length !== n + 1) throw new InvalidInputError(`breaks of length n + 1 = ${n + 1}`, st.breaks.length);
  if (st.headings && st.headings.length !== n) throw new InvalidInputError(`headings of length n = ${n}`, st.headings.length);
  if (st.tokens && st.tokens.length !== n) throw new InvalidInputError(`tokens of length n = ${n}`, st.tokens.length);
  if (n === 0) return { sims, tau: NaN, tau2: NaN, seeds: [], windows: [], spans: [] };
  const tau = thresholds ? thresholds.tau : kernels.percentile(sims, P.p);
  const tau2 = thresholds ? thresholds.tau2 : P.window === 'adaptive' ? kernels.percentile(sims, P.secondaryPercentile) : NaN;
  const seeds: number[] = [];
  for (let i = 0; i < n; i++) if (sims[i] >= tau && sims[i] >= P.minSimilarity) seeds.push(i);
  const k = seeds.length;
  addWork(work, 'qascSteps', n + k);
  const lo = new Int32Array(k);
  const hi = new Int32Array(k);
  const r = Int32Array.from(seeds);
  for (let j = 0; j < k; j++) {
    const seed = seeds[j];
    let a: number;
    let b: number;
    if (P.window === 'adaptive') {
      a = seed;
      b = seed + 1;
      while (a > 0 && seed - (a - 1) <= P.maxRadius && sims[a - 1] >= tau2) a--;
      while (b < n && b - seed <= P.maxRadius && sims[b] >= tau2) b++;
    } else {
      a = Math.max(0, seed - P.m);
      b = Math.min(n, seed + P.m + 1);
    }
    lo[j] = a;
    hi[j] = b;
  }
  const scores = k ? kernels.decayScores(sims, lo, hi, r, P.lambda) : new Float64Array(0);
  const keep = P.kappa * tau;
  const windows: QascWindow[] = [];
  for (let j = 0; j < k; j++) windows.push({ seed: seeds[j], lo: lo[j], hi: hi[j], score: scores[j], kept: scores[j] >= keep });

  // step 5: merge overlapping or adjacent windows; snap to breaks (never ending on a
  // heading); merge what snapping made overlap or adjacent; cap the size
  let spans: QascSpan[] = windows
    .filter((w) => w.kept)
    .map((w) => ({ lo: w.lo, hi: w.hi, score: NaN, seeds: [w.seed], mergedLo: w.lo, mergedHi: w.hi }));
  spans = mergeSpans(spans, kernels, work);
  const snapped: QascSpan[] = [];
  for (const s of spans) {
    const at = snapToBreaks(s.lo, s.hi, st, P.alignDistance, { lo: s.seeds[0], hi: s.seeds[s.seeds.length - 1] + 1 });
    addWork(work, 'qascSteps', 1 + s.seeds.length);
    const inside = at ? s.seeds.filter((x) => x >= at.lo && x < at.hi) : [];
    if (at && inside.length) snapped.push({ ...s, lo: at.lo, hi: at.hi, seeds: inside });
  }
  const decay = decayTable(P.lambda, n);
  spans = mergeSpans(snapped, kernels, work).flatMap((s) => capSpan(s, sims, st, P, decay, work));
  for (const s of spans) s.score = spanScoreWith(sims, s.lo, s.hi, s.seeds, decay);
  spans.sort((a, b) => b.score - a.score || a.lo - b.lo);
  return { sims, tau, tau2, seeds, windows, spans };
}

/** Merges spans that overlap or touch (kernel mergeIntervals, gap 0); seeds are joined, merged ranges widened. */
function mergeSpans(spans: QascSpan[], kernels: QascKernels, work: Work | undefined): QascSpan[] {
  const k = spans.length;
  addWork(work, 'qascSteps', k);
  if (k <= 1) return spans;
  const order = Array.from({ length: k }, (_, i) => i).sort((x, y) => spans[x].lo - spans[y].lo || spans[x].hi - spans[y].hi);
  const los = new Int32Array(k);
  const his = new Int32Array(k);
  for (let i = 0; i < k; i++) {
    los[i] = spans[order[i]].lo;
    his[i] = spans[order[i]].hi;
  }
  const m = kernels.mergeIntervals(los, his, 0);
  const out: QascSpan[] = [];
  for (let g = 0; g < m.starts.length; g++) out.push({ lo: m.starts[g], hi: m.ends[g], score: NaN, seeds: [], mergedLo: Infinity, mergedHi: -Infinity });
  for (let i = 0; i < k; i++) {
    const s = spans[order[i]];
    const o = out[m.group[i]];
    for (const x of s.seeds) o.seeds.push(x);
    if (s.mergedLo < o.mergedLo) o.mergedLo = s.mergedLo;
    if (s.mergedHi > o.mergedHi) o.mergedHi = s.mergedHi;
  }
  for (const o of out) {
    const seeds = o.seeds;
    let sorted = true;
    for (let i = 1; i < seeds.length && sorted; i++) sorted = seeds[i - 1] <= seeds[i];
    if (!sorted) seeds.sort((x, y) => x - y);
    let w = 0;
    for (let i = 0; i < seeds.length; i++) if (i === 0 || seeds[i] !== seeds[w - 1]) seeds[w++] = seeds[i];
    seeds.length = w;
  }
  return out;
}

/**
 * The size cap of step 5: `s` itself when it fits maxChunkSize (or no token counts are
 * given), else its pieces: split at the weakest boundary (lowest (ρ_{b−1} + ρ_b)/2,
 * ρ_i = α_i·sim_i with α from s's nearest seed; ties to the lower boundary) until every
 * piece fits or is one sentence; pieces without a seed are dropped, and pieces that end
 * on a heading lose it. The boundary minimum is a sparse-table range minimum, so a span
 * of L sentences costs O(L log L) however the splits fall.
 */
function capSpan(s: QascSpan, sims: Float32Array, st: QascStructure, P: ResolvedQascParams, decay: Float64Array, work: Work | undefined): QascSpan[] {
  const tokens = st.tokens;
  if (!tokens) return [s];
  const max = P.maxChunkSize;
  const len = s.hi - s.lo;
  let total = 0;
  for (let i = s.lo; i < s.hi; i++) total += tokens[i];
  if (total <= max) {
    const count = st.countTokens ? st.countTokens(s.lo, s.hi) : total;
    if (count <= max) return [{ ...s, tokenCount: count }];
  }
  const prefix = new Float64Array(len + 1);
  for (let i = 0; i < len; i++) prefix[i + 1] = prefix[i] + tokens[s.lo + i];
  const exact = (a: number, b: number): number => (st.countTokens ? st.countTokens(a, b) : prefix[b - s.lo] - prefix[a - s.lo]);
  // boundary weights w[b − lo] for b in (lo, hi), and a sparse table of their argmin
  const alpha = new Float64Array(len);
  nearestSeedWeights(s.lo, s.hi, s.seeds, decay, alpha);
  const w = new Float64Array(len);
  for (let b = 1; b < len; b++) w[b] = (alpha[b - 1] * sims[s.lo + b - 1] + alpha[b] * sims[s.lo + b]) / 2;
  const table: Int32Array[] = [Int32Array.from({ length: len }, (_, i) => i)];
  addWork(work, 'qascSteps', len);
  for (let step = 1; 2 * step <= len; step *= 2) {
    addWork(work, 'qascSteps', len);
    const prev = table[table.length - 1];
    const row = new Int32Array(len);
    for (let i = 0; i + 2 * step <= len; i++) {
      const x = prev[i];
      const y = prev[i + step];
      row[i] = w[y] < w[x] ? y : x;
    }
    table.push(row);
  }
  /** argmin of w over [i, j] (i ≤ j, indices relative to lo); ties to the lower index. */
  const argmin = (i: number, j: number): number => {
    const level = 31 - Math.clz32(j - i + 1);
    const x = table[level][i];
    const y = table[level][j - (1 << level) + 1];
    return w[y] < w[x] ? y : x;
  };
  const out: QascSpan[] = [];
  const seedAt = (i: number): number => s.seeds[i];
  const stack: Array<[number, number]> = [[s.lo, s.hi]];
  while (stack.length) {
    let [a, b] = stack.pop()!;
    if (st.headings) while (b > a && st.headings[b - 1]) b--;
    // the piece's seeds by binary search, copied only for a piece that is kept: a piece
    // costs O(log k), however unevenly the splits fall (peeling one sentence at a time
    // off a chunk of k seeds made filtering them k·n)
    const first = firstAtLeast(s.seeds.length, seedAt, a);
    const end = firstAtLeast(s.seeds.length, seedAt, b, first);
    addWork(work, 'qascSteps', 1 + Math.ceil(Math.log2(s.seeds.length + 1)));
    if (first === end) continue;
    const estimate = prefix[b - s.lo] - prefix[a - s.lo];
    const count = b - a === 1 || estimate <= max ? exact(a, b) : Infinity;
    if (count <= max || b - a === 1) {
      addWork(work, 'qascSteps', end - first);
      const seeds = s.seeds.slice(first, end);
      out.push({ lo: a, hi: b, score: NaN, seeds, mergedLo: a, mergedHi: b, tokenCount: count, ...(count > max ? { oversized: true } : {}) });
      continue;
    }
    const c = s.lo + argmin(a + 1 - s.lo, b - 1 - s.lo);
    stack.push([c, b], [a, c]);
  }
  return out.sort((x, y) => x.lo - y.lo);
}

/** The first i in [from, length) with key(i) ≥ x, key ascending (length if none): a binary search. */
function firstAtLeast(length: number, key: (i: number) => number, x: number, from = 0): number {
  let lo = from;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(mid) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The sentence structure of a document, from {@link analyzeSentences}: what QASC plans over. */
export interface SentenceAnalysis {
  /** The locale used: the one given, or the detected one for `auto`. */
  locale: string;
  sentences: SentenceSpans;
  /** n + 1 paragraph/section-break flags ({@link paragraphBreaks}). */
  breaks: Uint8Array;
  /** n heading flags ({@link headingSentences}). */
  headings: Uint8Array;
  /** n token counts: each sentence's text in the tokenizer's encoding. */
  tokens: Int32Array;
}

/**
 * Splits `text` into sentences (locale `auto`: detected, {@link detectLocale}; a text
 * without capitals is split as caseless, {@link isCaseless}) and finds its breaks,
 * headings and per-sentence token counts.
 */
export function analyzeSentences(text: string, locale: string, tokenizer: Tokenizer): SentenceAnalysis {
  const used = locale === 'auto' ? detectLocale(text) : locale;
  const sentences = sentenceSpans(text, used, { caseless: isCaseless(text) });
  const headings = headingSentences(text, sentences);
  const tokens = new Int32Array(sentences.count);
  for (let i = 0; i < sentences.count; i++) tokens[i] = tokenizer.count(text.slice(sentences.starts[i], sentences.ends[i]));
  return { locale: used, sentences, breaks: paragraphBreaks(text, sentences, headings), headings, tokens };
}

/** The {@link QascStructure} of sentences [a, b) of an analysed text (a = 0, b = n: all of it), with exact token counts. */
export function qascStructure(text: string, doc: SentenceAnalysis, tokenizer: Tokenizer, a = 0, b = doc.sentences.count): QascStructure {
  const { starts, ends } = doc.sentences;
  return {
    breaks: doc.breaks.subarray(a, b + 1),
    headings: doc.headings.subarray(a, b),
    tokens: doc.tokens.subarray(a, b),
    countTokens: (lo, hi) => (hi - lo === 1 ? doc.tokens[a + lo] : tokenizer.count(text.slice(starts[a + lo], ends[a + hi - 1]))),
  };
}

/** A document made ready for queries: its sentences, breaks, headings, token counts and sentence vectors. */
export interface PreparedDocument extends SentenceAnalysis {
  text: string;
  /** n × d sentence vectors, kept in WASM memory across queries. */
  vectors: WasmMatrix;
}

/** Metadata of a QASC chunk. */
export interface QascChunkMetadata extends ChunkMetadata {
  strategy: 'qasc';
  /** S of the chunk over its own sentences (see {@link QascSpan.score}). */
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
  /** The question `chunk(text)` answers (`query(text, question)` takes one per call). */
  query?: string;
  /** Embeds sentences and queries. Default `new HashingEmbedder()`. */
  embedder?: Embedder;
  /** BCP 47 locale for sentence segmentation, or `auto` (default): detected per document ({@link detectLocale}). */
  locale?: string;
  /** Token encoding of `maxChunkSize` and `tokenCount`: `cl100k_base` (default) or `o200k_base`. */
  encoding?: string;
  /** A tokenizer to use instead of the built-in one for `encoding`. */
  tokenizer?: Tokenizer;
  /** Put the explanation (τ, τ₂, windows, seed sims) in each chunk's metadata. Default false. */
  explain?: boolean;
}

/** Options of {@link QueryAdaptiveChunker.query}. */
export interface QascQueryOptions extends ChunkCallOptions {
  /** Keep only the best k chunks (default: all kept chunks). */
  topK?: number;
}

/**
 * QASC over whole documents: `query(document, q)` returns the chunks
 * relevant to q, best first. A query-time strategy: chunks cover only what is relevant,
 * so "nothing lost" does not apply; every chunk still has `text === document.slice(start, end)`.
 * Sentence vectors of the last documents prepared are reused (see {@link prepare}).
 *
 * @example
 * ```ts
 * const qasc = new QueryAdaptiveChunker({ p: 75, m: 1, lambda: 0.5, kappa: 0.6 }); // the defaults
 * const [best] = await qasc.query(text, 'wat is de latentie van QASC?');
 * best.metadata.score; best.metadata.seeds; best.start; best.end;
 * ```
 * @throws {InvalidOptionError} at construction for a parameter out of range, a bad locale or encoding.
 */
export class QueryAdaptiveChunker extends defineStrategy({
  name: 'qasc',
  description: 'query-adaptive semantic chunking: chunks built per question (query) from seed sentences, context windows and a decaying score; maxChunkSize in tokens',
  schema: QASC_SCHEMA,
  budget: { size: 'maxChunkSize' },
  async: true,
}) {
  readonly embedder: Embedder = this.options.embedder ?? new HashingEmbedder();
  readonly params: ResolvedQascParams = paramsOf(this.options);
  /** `auto` or a BCP 47 tag. */
  readonly locale: string = this.options.locale;
  readonly tokenizer: Tokenizer = resolveQascTokenizer(this.options.encoding, this.options.tokenizer);
  readonly explain: boolean = this.options.explain;
  #cache: PreparedDocument | undefined;

  constructor(options: QascOptions = {}) {
    super(withoutNoFloor(options));
  }

  /**
   * The chunks of `text` relevant to the `query` option, best first ({@link query} with it).
   * @throws {InvalidOptionError} when the chunker was built without a `query`.
   * @throws {InvalidInputError} when text is not a string.
   */
  override async chunk(text: string, options?: QascQueryOptions): Promise<QascChunk[]> {
    return this.query(text, this.#question(), options);
  }

  /** The planned chunks of `text` for the `query` option, best first (what {@link chunk} assembles). */
  async spans(text: string): Promise<PlannedChunk[]> {
    const question = this.#question();
    const doc = await this.#document(text);
    return this.#planned(doc, await this.embedQuery(question), {});
  }

  /** The `query` option. @throws {InvalidOptionError} without one. */
  #question(): string {
    const q = this.options.query;
    if (q === undefined) throw new InvalidOptionError('query', q, 'a question: QASC builds chunks per query (give the query option, or call query(text, question))');
    return q;
  }

  /** The prepared `text`: the last one again, else {@link prepare}. */
  async #document(text: string): Promise<PreparedDocument> {
    if (!this.#cache || this.#cache.text !== text) this.#cache = await this.prepare(text);
    return this.#cache;
  }

  /**
   * Splits `text` into sentences, finds its breaks, headings and sentence sizes, and
   * embeds the sentences (step 1, document side). The result can be queried many times
   * with {@link queryPrepared}; {@link query} keeps the last one.
   * @throws {InvalidInputError} when `text` is not a string.
   * @throws {EmbeddingError} when the embedder fails or returns the wrong shape.
   */
  async prepare(text: string): Promise<PreparedDocument> {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
    const analysis = analyzeSentences(text, this.locale, this.tokenizer);
    const { sentences } = analysis;
    const list: string[] = [];
    for (let i = 0; i < sentences.count; i++) list.push(text.slice(sentences.starts[i], sentences.ends[i]));
    const d = this.embedder.dimension;
    const data = list.length ? await this.embedder.embed(list) : new Float32Array(0);
    checkMatrix(data, list.length, d);
    return { ...analysis, text, vectors: new WasmMatrix(data, d) };
  }

  /**
   * The chunks of `text` relevant to `query`, best first.
   * @param options.topK keep only the best k chunks (default: all kept chunks)
   * @param options.documentId enters every chunk id (default `''`; see `ChunkCallOptions`)
   * @throws {InvalidInputError} when text or query is not a string.
   */
  async query(text: string, query: string, options: QascQueryOptions = {}): Promise<QascChunk[]> {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
    requireQuery(query);
    rejectUnknownOptions<QascQueryOptions>('query()', options, { topK: true, documentId: true, work: true });
    return this.queryPrepared(await this.#document(text), query, options);
  }

  /** Embeds `query` (step 1, query side): a d-vector. */
  async embedQuery(query: string): Promise<Float32Array> {
    requireQuery(query);
    const v = await this.embedder.embed([query]);
    checkMatrix(v, 1, this.embedder.dimension);
    return v;
  }

  /** {@link query} on a document from {@link prepare}. */
  async queryPrepared(doc: PreparedDocument, query: string, options: QascQueryOptions = {}): Promise<QascChunk[]> {
    return this.queryVector(doc, await this.embedQuery(query), options);
  }

  /** {@link queryPrepared} with the query already embedded (a d-vector): steps 1 (sims) to 6, no embedding. */
  queryVector(doc: PreparedDocument, q: Float32Array, options: QascQueryOptions = {}): QascChunk[] {
    return assembleQasc(doc.text, this.#planned(doc, q, options), this.tokenizer, documentIdOf(options));
  }

  /** Steps 1 (sims) to 6 of {@link queryVector}: the planned chunks, best first. */
  #planned(doc: PreparedDocument, q: Float32Array, options: QascQueryOptions): PlannedChunk[] {
    checkMatrix(q, 1, this.embedder.dimension);
    const sims = doc.sentences.count ? doc.vectors.cosine(q) : new Float32Array(0);
    const work = workOf(options);
    const plan = planQasc(sims, qascStructure(doc.text, doc, this.tokenizer), this.params, undefined, undefined, work);
    let spans = plan.spans;
    if (options.topK !== undefined) spans = spans.slice(0, requireInteger('topK', options.topK, 1));
    return spans.map((s) => qascPlanned(doc, s, plan, this.params, this.explain, this.tokenizer, 0, work));
  }
}

/** The QASC parameters of resolved options (`minSimilarity` absent: none, −Infinity). */
function paramsOf(o: Readonly<Record<string, unknown>>): ResolvedQascParams {
  const params = {} as Record<string, unknown>;
  for (const name of Object.keys(QASC_PARAM_NAMES)) params[name] = o[name];
  params.minSimilarity ??= -Infinity;
  return params as ResolvedQascParams;
}

/**
 * The planned chunk for span `s` (sentence indices of `doc`) of a plan: offsets from the
 * first sentence's start to the last one's end, its sentences as `unitCount`, its tokens,
 * QASC's metadata. {@link assembleQasc} makes the chunks. `simsOffset` is the document
 * index of `plan.sims[0]` when the plan ran on a range of the document (hybrid mode).
 */
export function qascPlanned(
  doc: Pick<PreparedDocument, 'text' | 'sentences'>,
  s: QascSpan,
  plan: QascPlan,
  params: ResolvedQascParams,
  explain: boolean,
  tokenizer: Tokenizer,
  simsOffset = 0,
  work?: Work,
): PlannedChunk {
  const start = doc.sentences.starts[s.lo];
  const end = doc.sentences.ends[s.hi - 1];
  const metadata: Record<string, unknown> = { score: s.score, seeds: s.seeds, sentenceStart: s.lo, sentenceEnd: s.hi };
  if (explain) {
    const from = Math.min(s.lo, s.mergedLo);
    const to = Math.max(s.hi, s.mergedHi);
    metadata.explain = {
      tau: plan.tau,
      tau2: plan.tau2,
      keepThreshold: params.kappa * plan.tau,
      windows: windowsOfSeeds(plan.windows, from, to, work),
      mergedRange: [s.mergedLo, s.mergedHi],
      seedSims: s.seeds.map((i) => plan.sims[i - simsOffset] ?? NaN),
    };
  }
  return {
    start,
    end,
    unitCount: s.hi - s.lo,
    tokenCount: s.tokenCount ?? tokenizer.count(doc.text.slice(start, end)),
    metadata,
    ...(s.oversized ? { oversized: true } : {}),
  };
}

/**
 * The windows whose seed lies in [from, to): `windows` are in seed order (one per seed,
 * ascending), so a binary search finds them — the explanation of each of n chunks costs
 * its own windows, not all of them.
 */
function windowsOfSeeds(windows: readonly QascWindow[], from: number, to: number, work: Work | undefined): QascWindow[] {
  const a = firstAtLeast(windows.length, (i) => windows[i].seed, from);
  const b = firstAtLeast(windows.length, (i) => windows[i].seed, to, a);
  addWork(work, 'qascSteps', 1 + Math.ceil(Math.log2(windows.length + 1)) + b - a);
  return windows.slice(a, b);
}

/**
 * QASC's chunks of one document, in rank order (index = rank), through the one assembler:
 * content-addressed ids (with `documentId`), `unit: 'sentence'` (every planned span
 * carries its sentence count), `overlap` 0 (ranked results are not in text order).
 */
export function assembleQasc(text: string, planned: PlannedChunk[], tokenizer: Tokenizer, documentId = ''): QascChunk[] {
  return new Assembler({ strategy: 'qasc', unitName: 'sentence', tokenCount: (t) => tokenizer.count(t), overlap: 'none', documentId }).add(text, planned) as QascChunk[];
}

/** @throws {EmbeddingError} unless `m` is a Float32Array of rows × d. */
export function checkMatrix(m: unknown, rows: number, d: number): asserts m is Float32Array {
  if (!(m instanceof Float32Array) || m.length !== rows * d) {
    throw new EmbeddingError(`The embedder returned ${(m as Float32Array)?.length} values, expected ${rows} × ${d}`);
  }
}
