/**
 * The chunker: what every strategy, composition and adapter takes or returns.
 * @module
 */
import type { Chunk } from './chunk.js';
import type { ChunkCallOptions } from './ids.js';
import type { StrategySchema } from './schema.js';

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

/** Options any strategy may take; each strategy reads the ones it knows. */
export type StrategyOptions = Record<string, unknown>;

/** A registered strategy. */
export interface StrategyDefinition {
  /** Name used by the CLI's `--strategy` and in chunk metadata. */
  name: string;
  /** One line for `--help` and docs. */
  description: string;
  /**
   * The options schema (type, range, default, doc of every option): the registry
   * validates options with it before `create`, and the CLI flags, `--help` and the docs'
   * option tables are generated from it.
   */
  schema: StrategySchema;
  /**
   * The options that are the budget and the overlap (for `name:size:overlap` specs and
   * the docs): e.g. `{ size: 'chunkSize', overlap: 'chunkOverlap' }`; sliding windows
   * give the overlap as a stride (`stride = size − overlap`).
   */
  budget?: { size: string; overlap?: string; overlapAsStride?: boolean };
  /** Other names an option is accepted under (`chunkSize` for semantic's `maxChunkSize`). */
  aliases?: Readonly<Record<string, string>>;
  /** Options passed through to another strategy (late chunking's span strategy): not validated against `schema`. */
  passThrough?: boolean;
  /** The file extensions this strategy is the natural choice for (`--strategy auto`). */
  extensions?: readonly string[];
  /**
   * Builds the chunker from validated options; `chunker` builds another registered
   * strategy (late chunking's span strategy) without importing the registry.
   */
  create(options: StrategyOptions, chunker: (name: string, options: StrategyOptions) => Chunker): Chunker;
}
