/**
 * The chunker: what every strategy, composition and adapter takes or returns.
 * @module
 */
import type { Chunk } from './chunk.js';
import type { ChunkCallOptions } from './ids.js';

/** Text given piece by piece. Bytes: pipe them through `TextDecoderStream` first. */
export type TextSource = ReadableStream<string> | AsyncIterable<string> | Iterable<string>;

/** Anything that turns a text into chunks (synchronously or not). */
export interface Chunker {
  /**
   * The chunks of `text`. `options.documentId` (default `''`) enters every chunk id
   * (content-addressed ids: docs/architecture.md "Determinism"); pass the document's
   * id (a file path, a database key) to make ids unique across documents.
   */
  chunk(text: string, options?: ChunkCallOptions): Chunk[] | Promise<Chunk[]>;
  /**
   * Optional streaming form: yields what `chunk(wholeText, options)` returns, as chunks
   * are decided (see `src/stream/index.ts`, docs/streaming.md). The CLI streams files
   * through it when present.
   */
  chunkStream?(source: TextSource, options?: ChunkCallOptions): AsyncIterable<Chunk>;
}
