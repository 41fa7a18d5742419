/**
 * QASC's hybrid mode for scale: pre-chunked documents in an in-memory vector index, the top-k chunks
 * for the query, then QASC only inside those candidates.
 * @module
 */
import { cosineMatVec, mergeIntervals, percentile, topK as topKernel } from '../../../bindings/index.js';
import { HashingEmbedder } from '../../embedders/hashing-embedder.js';
import type { Embedder } from '../../embedders/types.js';
import { InvalidInputError, InvalidOptionError } from '../../engine/errors.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { integerOption, requireInteger, requireOneOf } from '../../engine/options/options.js';
import { rejectUnknownOptions, UnknownOptionError } from '../../engine/options/schema.js';
import type { Chunker } from '../../engine/chunker.js';
import { FixedSizeChunker } from '../fixed-size/fixed-size.js';
import {
  analyzeSentences,
  checkMatrix,
  planQasc,
  qascPlanned,
  assembleQasc,
  qascStructure,
  resolveQascLocale,
  resolveQascParams,
  resolveQascTokenizer,
  requireQuery,
  QASC_PARAM_NAMES,
  type QascChunk,
  type QascParams,
  type QascSpan,
  type ResolvedQascParams,
  type SentenceAnalysis,
} from './qasc.js';
import type { Tokenizer } from '../../engine/size/types.js';
import { WasmMatrix } from '../../engine/wasm-matrix.js';

/**
 * Candidate pre-chunks to read per result returned in hybrid mode: 3 (k results from the
 * top 3k pre-chunks; `QascRetriever`'s default and the CLI's). QASC returns parts of its
 * candidates, so it reads more candidates than it returns results. The choice of the sweep
 * over window × rank × candidates ∈ {2k … 6k} with both evaluation embedders, by the rule of
 * docs/evaluation.md ("How the strategies' defaults are chosen"; docs/qasc.md;
 * `scripts/defaults-sweep.ts`).
 */
export const QASC_CANDIDATES_PER_RESULT = 3;

/** Options of {@link QascIndex}. */
export interface QascIndexOptions {
  /** Embeds chunks, sentences and queries. Default `new HashingEmbedder()`. */
  embedder?: Embedder;
  /** Pre-chunks documents added without chunks. Default `FixedSizeChunker` (256 tokens, 32 overlap, in `encoding`). */
  chunker?: Chunker;
  /** BCP 47 locale for sentence segmentation, or `auto` (default): detected per document. */
  locale?: string;
  /** Token encoding of `maxChunkSize`, `tokenCount` and the default pre-chunks: `cl100k_base` (default) or `o200k_base`. */
  encoding?: string;
  /** A tokenizer to use instead of the built-in one for `encoding`. */
  tokenizer?: Tokenizer;
  /** QASC parameters (p, m, lambda, kappa, window, secondaryPercentile, maxRadius, alignDistance, maxChunkSize, minSimilarity); defaults {@link QASC_DEFAULTS}. */
  qasc?: QascParams;
  /**
   * How results are ranked across candidates. `fused` (default): by
   * {@link QascResult.seedScore} + {@link QascResult.candidateScore}, the sum of the two
   * stages' cosines with the query (CombSUM, Fox & Shaw 1994): the sentence index's (the
   * chunk's best seed) and the pre-chunk index's (the best candidate it lies in) — the
   * seed's hybrid architecture retrieves candidates first and QASC re-chunks them, so both
   * stages' evidence ranks the result (docs/qasc.md, "Hybrid mode choices"). `seed`: by
   * the best seed's similarity alone; `score`: by S, as in whole-document mode (SPEC
   * step 6). Ties by the candidate's similarity, then by position.
   */
  rank?: 'fused' | 'seed' | 'score';
  /** Put the explanation in each result's metadata. Default false. */
  explain?: boolean;
}

/** A QASC chunk found by {@link QascIndex.query}, with offsets into its source document. */
export interface QascResult extends QascChunk {
  /** The id given to {@link QascIndex.addDocument}. */
  documentId: string;
  /** Indices (in the document's pre-chunks) of the candidate chunks it was found in. */
  candidates: number[];
  /** Cosine similarity of the best of those candidate chunks to the query. */
  candidateScore: number;
  /** Cosine similarity of the chunk's best seed sentence to the query. */
  seedScore: number;
}

interface IndexedDocument extends SentenceAnalysis {
  id: string;
  text: string;
  /** n × d sentence vectors. */
  vectors: Float32Array;
  /** Pre-chunks: offsets and the sentences [a, b) they overlap. */
  chunks: Array<{ start: number; end: number; a: number; b: number }>;
  /** Row of the first pre-chunk in the index's chunk matrix. */
  firstRow: number;
}

/**
 * An in-memory QASC index over many documents (hybrid mode). `addDocument` splits a
 * document into sentences and pre-chunks (your chunks or the `chunker`'s), embeds both;
 * `query(q, { topK })` ranks all pre-chunks by cosine with q (WASM `cosineMatVec` over
 * the chunk matrix kept in WASM memory, then `topK`), joins the top-k candidates of each
 * document into sentence ranges (a candidate covers the sentences it overlaps; touching
 * or overlapping ranges join), takes τ (and τ₂) as percentiles of the sims of all
 * candidate sentences (one threshold per query, so scores compare across documents), and
 * runs QASC steps 2–5 ({@link planQasc}) inside each range. Results, ranked by the best
 * seed's plus the best candidate's similarity ({@link QascIndexOptions.rank}), carry
 * their `documentId` and offsets into that document (`text === document.slice(start, end)`).
 *
 * @example
 * ```ts
 * const index = new QascIndex();
 * await index.addDocument('readme', readmeText);
 * const results = await index.query('how do I install it?', { topK: 5 });
 * results[0].documentId; results[0].start; results[0].metadata.score;
 * ```
 */
export class QascIndex {
  readonly embedder: Embedder;
  readonly params: ResolvedQascParams;
  /** `auto` or a BCP 47 tag. */
  readonly locale: string;
  readonly tokenizer: Tokenizer;
  readonly rank: 'fused' | 'seed' | 'score';
  readonly explain: boolean;
  readonly #chunker: Chunker;
  readonly #docs: IndexedDocument[] = [];
  readonly #byId = new Map<string, IndexedDocument>();
  #chunkRows: Float32Array[] = [];
  #matrix: WasmMatrix | undefined;
  /** Document of each chunk row. */
  #rowDoc: number[] = [];

  /** @throws {InvalidOptionError} for a QASC parameter out of range, a bad locale or encoding, or an embedder/chunker without the needed method. */
  constructor(options: QascIndexOptions = {}) {
    for (const key of Object.keys(options ?? {})) {
      if (key in QASC_PARAM_NAMES) throw new UnknownOptionError(key, (options as Record<string, unknown>)[key], 'QascIndex', `qasc.${key}`, ['qasc: { ' + key + ' }'], '');
    }
    rejectUnknownOptions<QascIndexOptions>('QascIndex', options, {
      embedder: true,
      chunker: true,
      locale: true,
      encoding: true,
      tokenizer: true,
      qasc: true,
      rank: true,
      explain: true,
    });
    this.embedder = options.embedder ?? new HashingEmbedder();
    if (typeof this.embedder?.embed !== 'function') throw new InvalidOptionError('embedder', options.embedder, 'an Embedder with embed(texts)');
    this.tokenizer = resolveQascTokenizer(options.encoding, options.tokenizer);
    this.#chunker =
      options.chunker ?? new FixedSizeChunker({ unit: 'token', tokenizer: this.tokenizer, chunkSize: 256, chunkOverlap: 32, countTokens: false });
    if (typeof this.#chunker?.chunk !== 'function') throw new InvalidOptionError('chunker', options.chunker, 'a Chunker with chunk(text)');
    this.params = resolveQascParams(options.qasc ?? {});
    this.locale = resolveQascLocale(options.locale);
    this.rank = requireOneOf('rank', options.rank ?? 'fused', ['fused', 'seed', 'score'] as const);
    this.explain = options.explain ?? false;
  }

  /** Number of documents. */
  get documentCount(): number {
    return this.#docs.length;
  }
  /** Number of pre-chunks over all documents. */
  get chunkCount(): number {
    return this.#rowDoc.length;
  }

  /**
   * Adds a document.
   * @param id a unique id, returned with results
   * @param text the document (offsets are UTF-16 code units into it)
   * @param chunks pre-chunks as UTF-16 spans of `text` (e.g. from any chunker); default: the index's chunker
   * @throws {InvalidInputError} for a duplicate or non-string id, a non-string text, or a span outside the text.
   * @throws {EmbeddingError} when the embedder fails.
   */
  async addDocument(id: string, text: string, chunks?: ReadonlyArray<{ start: number; end: number }>): Promise<void> {
    if (typeof id !== 'string') throw new InvalidInputError('document id must be a string', id);
    if (this.#byId.has(id)) throw new InvalidInputError('document ids must be unique', id);
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
    const spans = chunks ?? (await this.#chunker.chunk(text));
    for (const c of spans) {
      if (!(Number.isInteger(c.start) && Number.isInteger(c.end) && c.start >= 0 && c.end <= text.length && c.start <= c.end)) {
        throw new InvalidInputError(`chunk spans within the text (0…${text.length})`, { start: c.start, end: c.end });
      }
    }
    const analysis = analyzeSentences(text, this.locale, this.tokenizer);
    const { sentences } = analysis;
    const n = sentences.count;
    const d = this.embedder.dimension;
    const sentenceTexts: string[] = [];
    for (let i = 0; i < n; i++) sentenceTexts.push(text.slice(sentences.starts[i], sentences.ends[i]));
    const kept = spans.filter((c) => c.end > c.start);
    const all = await (sentenceTexts.length + kept.length
      ? this.embedder.embed([...sentenceTexts, ...kept.map((c) => text.slice(c.start, c.end))])
      : Promise.resolve(new Float32Array(0)));
    checkMatrix(all, n + kept.length, d);
    const docChunks: IndexedDocument['chunks'] = [];
    for (let k = 0; k < kept.length; k++) {
      const c = kept[k];
      // sentences overlapping [start, end): first with end > start, up to the last with start < end
      let a = 0;
      while (a < n && sentences.ends[a] <= c.start) a++;
      let b = a;
      while (b < n && sentences.starts[b] < c.end) b++;
      if (b === a) continue; // whitespace only
      docChunks.push({ start: c.start, end: c.end, a, b });
      this.#chunkRows.push(all.slice((n + k) * d, (n + k + 1) * d));
      this.#rowDoc.push(this.#docs.length);
    }
    const doc: IndexedDocument = {
      ...analysis,
      id,
      text,
      vectors: all.slice(0, n * d),
      chunks: docChunks,
      firstRow: this.#rowDoc.length - docChunks.length,
    };
    this.#docs.push(doc);
    this.#byId.set(id, doc);
    this.#matrix = undefined;
  }

  /** The chunk matrix in WASM memory, built after additions. */
  #chunkMatrix(): WasmMatrix {
    if (!this.#matrix) {
      const d = this.embedder.dimension;
      const data = new Float32Array(this.#chunkRows.length * d);
      this.#chunkRows.forEach((row, i) => data.set(row, i * d));
      this.#matrix = new WasmMatrix(data, d);
    }
    return this.#matrix;
  }

  /**
   * QASC over the top-k pre-chunks for `query`.
   * @param options.topK candidate pre-chunks (default 5)
   * @param options.maxResults results returned (default: all QASC chunks found in the candidates)
   * @returns QASC chunks, best first (see {@link QascIndexOptions.rank}), with documentId and offsets into their document
   * @throws {InvalidInputError} when query is not a string; {@link InvalidOptionError} for a bad topK.
   */
  async query(query: string, options: { topK?: number; maxResults?: number } = {}): Promise<QascResult[]> {
    requireQuery(query);
    rejectUnknownOptions<{ topK?: number; maxResults?: number }>('query()', options, { topK: true, maxResults: true });
    const k = integerOption('topK', options.topK, 5, 1);
    const maxResults = options.maxResults === undefined ? Infinity : requireInteger('maxResults', options.maxResults, 1);
    if (this.chunkCount === 0) return [];
    const d = this.embedder.dimension;
    const q = await this.embedder.embed([query]);
    checkMatrix(q, 1, d);
    const matrix = this.#chunkMatrix();
    const chunkSims = matrix.cosine(q);
    const top = topKernel(chunkSims, k);
    // candidates per document → sentence ranges
    const perDoc = new Map<number, number[]>();
    for (const row of top) {
      const di = this.#rowDoc[row];
      if (!perDoc.has(di)) perDoc.set(di, []);
      perDoc.get(di)!.push(row);
    }
    const ranges: Array<{ doc: IndexedDocument; a: number; b: number; rows: number[]; sims: Float32Array }> = [];
    for (const [di, rows] of [...perDoc.entries()].sort((x, y) => x[0] - y[0])) {
      const doc = this.#docs[di];
      const cs = rows.map((r) => ({ row: r, ...doc.chunks[r - doc.firstRow] })).sort((x, y) => x.a - y.a || x.b - y.b);
      const merged = mergeIntervals(Int32Array.from(cs.map((c) => c.a)), Int32Array.from(cs.map((c) => c.b)), 0);
      for (let g = 0; g < merged.starts.length; g++) {
        const a = merged.starts[g];
        const b = merged.ends[g];
        const sims = cosineMatVec(doc.vectors.subarray(a * d, b * d), d, q);
        ranges.push({ doc, a, b, rows: cs.filter((_, i) => merged.group[i] === g).map((c) => c.row), sims });
      }
    }
    const allSims = new Float32Array(ranges.reduce((s, r) => s + r.sims.length, 0));
    let at = 0;
    for (const r of ranges) {
      allSims.set(r.sims, at);
      at += r.sims.length;
    }
    const tau = percentile(allSims, this.params.p);
    const tau2 = this.params.window === 'adaptive' ? percentile(allSims, this.params.secondaryPercentile) : NaN;
    // planned chunks per document (assembled together: ids numbered per document)
    type Found = { planned: PlannedChunk; extra: Omit<QascResult, keyof QascChunk> };
    const perDocFound = new Map<IndexedDocument, Found[]>();
    for (const r of ranges) {
      const plan = planQasc(r.sims, qascStructure(r.doc.text, r.doc, this.tokenizer, r.a, r.b), this.params, undefined, { tau, tau2 });
      const shift = (s: QascSpan): QascSpan => ({
        lo: s.lo + r.a,
        hi: s.hi + r.a,
        score: s.score,
        seeds: s.seeds.map((i) => i + r.a),
        mergedLo: s.mergedLo + r.a,
        mergedHi: s.mergedHi + r.a,
        ...(s.tokenCount === undefined ? {} : { tokenCount: s.tokenCount }),
        ...(s.oversized ? { oversized: true } : {}),
      });
      const shifted = { ...plan, seeds: plan.seeds.map((i) => i + r.a), windows: plan.windows.map((w) => ({ ...w, seed: w.seed + r.a, lo: w.lo + r.a, hi: w.hi + r.a })) };
      const found = perDocFound.get(r.doc) ?? perDocFound.set(r.doc, []).get(r.doc)!;
      for (const s of plan.spans) {
        const span = shift(s);
        const candidates = r.rows.filter((row) => {
          const c = r.doc.chunks[row - r.doc.firstRow];
          return c.a < span.hi && c.b > span.lo;
        });
        found.push({
          planned: qascPlanned(r.doc, span, shifted, this.params, this.explain, this.tokenizer, r.a),
          extra: {
            documentId: r.doc.id,
            candidates: candidates.map((row) => row - r.doc.firstRow),
            candidateScore: Math.max(...candidates.map((row) => chunkSims[row])),
            seedScore: Math.max(...s.seeds.map((i) => r.sims[i])),
          },
        });
      }
    }
    const results: QascResult[] = [];
    for (const [doc, found] of perDocFound) {
      const chunks = assembleQasc(doc.text, found.map((f) => f.planned), this.tokenizer, doc.id);
      chunks.forEach((c, i) => results.push({ ...c, ...found[i].extra }));
    }
    const key =
      this.rank === 'fused'
        ? (x: QascResult) => x.seedScore + x.candidateScore
        : this.rank === 'seed'
          ? (x: QascResult) => x.seedScore
          : (x: QascResult) => x.metadata.score;
    results.sort((x, y) => key(y) - key(x) || y.candidateScore - x.candidateScore || x.start - y.start);
    const out = results.slice(0, maxResults);
    out.forEach((c, i) => (c.index = i));
    return out;
  }
}
