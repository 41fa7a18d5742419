/**
 * The embedder interface every strategy that needs vectors uses (semantic, QASC,
 * late chunking, evaluation).
 * @module
 */

/**
 * Turns texts into vectors.
 * `embed(texts)` resolves to an n × d row-major Float32Array (row i is texts[i]),
 * L2-normalised unless the embedder documents otherwise; d = `dimension`.
 */
export interface Embedder {
  /** Vector length d. */
  readonly dimension: number;
  /** A name for reports and metadata, e.g. `hashing:256`. */
  readonly name?: string;
  /** Maximum tokens the model reads per text, where it has one. */
  readonly maxTokens?: number;
  embed(texts: string[]): Promise<Float32Array>;
}

/** Per-token vectors of one text: T tokens, d dimensions, with UTF-16 spans. */
export interface TokenEmbeddings {
  /** T × d row-major. */
  vectors: Float32Array;
  /** T × 2: [start, end) of token t at offsets[2t], offsets[2t + 1], UTF-16 code units. */
  offsets: Int32Array;
  /** True when the text was longer than the model reads and its tail was cut. */
  truncated: boolean;
}

/** A token-level model, for late chunking. */
export interface TokenEmbedder extends Embedder {
  embedTokens(text: string): Promise<TokenEmbeddings>;
}
