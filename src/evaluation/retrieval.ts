/**
 * Retrieval for the evaluation: the {@link Retriever} interface every evaluated system
 * implements, and {@link DenseIndex}, one embedding index over the chunks of all corpora
 * searched by cosine similarity with the WASM kernels (`cosineMatVec`, `topK`).
 * Core module: no Node built-ins.
 * @module
 */
import { cosineMatVec, getKernels, topK } from '../../bindings/index.js';
import type { Embedder } from '../embedders/types.js';
import { InvalidInputError, InvalidOptionError } from '../engine/errors.js';
import type { RetrievedSpan } from './metrics.js';

/**
 * Anything that answers a question with spans of the corpora. The evaluator only needs
 * this, so a chunk index, a hybrid QASC retriever (candidates from an index, QASC inside
 * them) or a peer library's chunks plug in alike.
 */
export interface Retriever {
  /** Name for tables, e.g. `fixed 400/200`. */
  readonly name: string;
  /**
   * The top `k` spans for `question`, best first (fewer if the index holds fewer).
   * Offsets are UTF-16 code units of the corpus named by `corpusId`.
   */
  retrieve(question: string, k: number): Promise<RetrievedSpan[]>;
  /**
   * Optional batch form: the same result as calling {@link retrieve} for each question,
   * done at once (the evaluator prefers it when present).
   */
  retrieveMany?(questions: readonly string[], k: number): Promise<RetrievedSpan[][]>;
}

/** A chunk to index: a span of one corpus and its text. */
export interface IndexedSpan extends RetrievedSpan {
  /** `corpus.slice(start, end)`: what is embedded. */
  text: string;
  /** Tokens of `text` (cl100k_base) when already known (a chunk's `tokenCount`), for statistics. */
  tokenCount?: number;
}

/** Progress of a long step: `done` of `total` items. */
export type ProgressCallback = (done: number, total: number) => void;

/** Options of {@link DenseIndex.build}. */
export interface DenseIndexOptions {
  /** Name for tables. Default `dense`. */
  name?: string;
  /** Texts per `embed` call. Default 64. */
  batchSize?: number;
  /** Called after each embedded batch with (chunks embedded, total chunks). */
  onProgress?: ProgressCallback;
}

/**
 * A flat (exact) vector index over chunks of several corpora.
 *
 * Vectors: `embedder.embed` of each chunk's text, an n × d row-major Float32Array.
 * Search: the question is embedded with the same embedder; scores are cosine
 * similarities computed by the WASM kernel `cosineMatVec`, and the k best are chosen
 * by the WASM `topK` (ties to the lower chunk index, so results are deterministic).
 * {@link retrieveMany} copies the n × d matrix into WASM memory once and keeps it there
 * for all questions of the batch (a `Kernels.job`, freed afterwards); {@link retrieve}
 * is a batch of one.
 */
export class DenseIndex implements Retriever {
  readonly name: string;
  /** The indexed spans, row i of the matrix is span i. */
  readonly spans: readonly IndexedSpan[];
  /** n × d row-major Float32Array of chunk vectors. */
  readonly matrix: Float32Array;
  readonly #embedder: Embedder;

  private constructor(name: string, spans: readonly IndexedSpan[], matrix: Float32Array, embedder: Embedder) {
    this.name = name;
    this.spans = spans;
    this.matrix = matrix;
    this.#embedder = embedder;
  }

  /**
   * Embeds every span's text and builds the index.
   * @throws {InvalidOptionError} for a batchSize that is not an integer ≥ 1.
   * @throws {EmbeddingError} when the embedder fails or returns a matrix of the wrong size.
   */
  static async build(spans: readonly IndexedSpan[], embedder: Embedder, options: DenseIndexOptions = {}): Promise<DenseIndex> {
    const batchSize = options.batchSize ?? 64;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new InvalidOptionError('batchSize', batchSize, 'an integer ≥ 1');
    const d = embedder.dimension;
    const matrix = new Float32Array(spans.length * d);
    for (let i = 0; i < spans.length; i += batchSize) {
      const batch = spans.slice(i, i + batchSize).map((s) => s.text);
      const vectors = await embedder.embed(batch);
      if (vectors.length !== batch.length * d) {
        throw new InvalidInputError(`the embedder returned ${vectors.length} values for ${batch.length} texts of dimension ${d}`, vectors.length);
      }
      matrix.set(vectors, i * d);
      options.onProgress?.(Math.min(i + batchSize, spans.length), spans.length);
    }
    if (spans.length === 0) options.onProgress?.(0, 0);
    return new DenseIndex(options.name ?? 'dense', spans, matrix, embedder);
  }

  /** Number of indexed chunks. */
  get size(): number {
    return this.spans.length;
  }

  /** The top k spans for one question (a batch of one). */
  async retrieve(question: string, k: number): Promise<RetrievedSpan[]> {
    return (await this.retrieveMany([question], k))[0];
  }

  /**
   * The top k spans per question. Questions are embedded in one batch; the chunk
   * matrix is copied into WASM memory once and scored against each question there.
   * @throws {InvalidOptionError} when k is not an integer ≥ 1.
   */
  async retrieveMany(questions: readonly string[], k: number): Promise<RetrievedSpan[][]> {
    if (!Number.isInteger(k) || k < 1) throw new InvalidOptionError('k', k, 'an integer ≥ 1');
    if (questions.length === 0) return [];
    const q = await this.#embedder.embed([...questions]);
    const ranked = this.rankVectors(q, k);
    return ranked.map((idx) => Array.from(idx, (i) => {
      const s = this.spans[i];
      return { corpusId: s.corpusId, start: s.start, end: s.end };
    }));
  }

  /**
   * Indices of the k best chunks for each query vector, best first.
   * @param queries m × d row-major Float32Array.
   * @returns m Int32Arrays of at most k chunk indices.
   */
  rankVectors(queries: Float32Array, k: number): Int32Array[] {
    const d = this.#embedder.dimension;
    const m = Math.floor(queries.length / d);
    if (this.spans.length === 0) return Array.from({ length: m }, () => new Int32Array(0));
    const kernels = getKernels();
    return kernels.job((kk) => {
      const matrix = kk.copyF32(this.matrix); // stays in WASM memory for every query below
      const out: Int32Array[] = [];
      for (let j = 0; j < m; j++) {
        const scores = cosineMatVec(matrix, d, queries.subarray(j * d, (j + 1) * d));
        out.push(topK(scores, k));
      }
      return out;
    });
  }
}
