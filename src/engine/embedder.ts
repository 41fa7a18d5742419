/**
 * The embedder interfaces every chunkwise strategy that needs vectors (semantic,
 * QASC, late chunking, evaluation) programs against.
 * @module
 */

/**
 * Turns texts into vectors.
 *
 * Shapes and units: `embed(texts)` resolves to one Float32Array of `texts.length ×
 * dimension` values, row-major (row i is text i: `out.subarray(i * d, (i + 1) * d)`).
 * Rows are L2-normalised (unit length) unless the implementation's options say
 * otherwise, so a dot product is the cosine similarity. An empty string gets a
 * well-defined vector (implementations document which); it is never an error.
 */
export interface Embedder {
  /** Length d of every vector. */
  readonly dimension: number;
  /**
   * Most tokens the model reads per text (special tokens included), if it has a limit;
   * longer texts are truncated and the truncation is reported by the implementation.
   */
  readonly maxTokens?: number;
  /**
   * A stable identity of the model and the settings that change its vectors (e.g.
   * `hashing:384`, `openai:text-embedding-3-small:1536@api.openai.com`): two embedders
   * with the same identity give the same vector for the same text. Sinks store it with
   * each row, so a rerun with the same embedder keeps rows instead of embedding them
   * again. Optional: `embedderIdentity` derives one for an embedder without it.
   */
  readonly id?: string;
  /**
   * Embeds a batch.
   * @param texts the texts; each must be a string.
   * @returns n × d row-major Float32Array.
   * @throws {EmbeddingError} if a text is not a string or the model fails.
   */
  embed(texts: string[]): Promise<Float32Array>;
}

/** Per-token output of a {@link TokenEmbedder}, for late chunking. */
export interface TokenEmbeddings {
  /**
   * T × d row-major Float32Array: the final-layer vector of each token, NOT normalised
   * (late chunking averages them over a chunk's tokens, then normalises).
   */
  vectors: Float32Array;
  /**
   * T × 2 row-major Int32Array: token t covers the UTF-16 code units
   * `[offsets[2t], offsets[2t + 1])` of the input text. Special tokens ([CLS], [SEP],
   * …) have zero-width offsets (start === end) at the place they stand.
   */
  offsets: Int32Array;
  /** Tokens of the model's input that are special (added by the post-processor), T entries of 0/1. */
  special: Uint8Array;
  /** True if the text was longer than the model reads: tokens past the limit are missing. */
  truncated: boolean;
}

/** An {@link Embedder} that also exposes per-token vectors with their offsets (late chunking). */
export interface TokenEmbedder extends Embedder {
  /**
   * Runs the model once over `text` and returns every token's final-layer vector with
   * its UTF-16 offsets.
   * @throws {EmbeddingError} if `text` is not a string or the model fails.
   */
  embedTokens(text: string): Promise<TokenEmbeddings>;
}

/** Information passed to a truncation callback. */
export interface TruncationEvent {
  /** Index of the text in the batch given to `embed`, or 0 for `embedTokens`. */
  index: number;
  /** Tokens the text has (special tokens included). */
  tokens: number;
  /** Tokens the model reads. */
  maxTokens: number;
  /** UTF-16 offset where the text stops being read (the end of the last kept token). */
  keptChars: number;
  /** Length of the text in UTF-16 code units. */
  chars: number;
}
