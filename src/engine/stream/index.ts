/**
 * Streaming chunking: text in pieces (web `ReadableStream<string>` or async iterables),
 * chunks out as soon as they are decided, equal to the whole-string call.
 * Core module: no Node built-ins.
 *
 * How a strategy plugs in: write a `StreamPlan` (`./driver.ts`) — the one stream driver
 * runs it over the stream, and `chunk(text)` is the same plan's single final step, so the
 * two agree by construction. {@link chunkStream} takes any chunker: streaming ones
 * stream, the others get the whole text collected first (same result, memory of the
 * whole text).
 * @module
 */
import type { Chunk } from '../chunk.js';
import type { ChunkCallOptions } from '../ids.js';
import { InvalidInputError } from '../errors.js';
import { textPieces, type TextSource } from './source.js';

export { textPieces, type TextSource } from './source.js';
export { charCut, wordCut, tiktokenCut, tiktokenCutAt, safeCutFor, type SafeCut, type CutAt } from '../size/safe-cuts.js';
export { streamPlan, planWhole, planWholeAsync, type StreamPlan, type StepResult } from './driver.js';

/** A chunker that chunks a text stream itself. */
export interface StreamingChunker {
  chunk(text: string, options?: ChunkCallOptions): Chunk[] | Promise<Chunk[]>;
  /** Yields what `chunk(wholeText, options)` returns, in order, as each chunk is decided. */
  chunkStream(source: TextSource, options?: ChunkCallOptions): AsyncIterable<Chunk>;
}

/** True when `chunker` has its own `chunkStream`. */
export function isStreamingChunker(chunker: unknown): chunker is StreamingChunker {
  return typeof (chunker as StreamingChunker | null)?.chunkStream === 'function';
}

/**
 * Chunks a text stream with any chunker: through its `chunkStream` when it has one
 * (bounded memory), else by collecting the whole text and calling `chunk` once.
 * @param options per-call options given to the chunker: `documentId` enters every chunk id.
 * @throws {InvalidInputError} for a chunker without `chunk`, a source that is not a
 *   stream/iterable, or a piece that is not a string.
 */
export async function* chunkStream(
  chunker: { chunk(text: string, options?: ChunkCallOptions): Chunk[] | Promise<Chunk[]>; chunkStream?: (source: TextSource, options?: ChunkCallOptions) => AsyncIterable<Chunk> },
  source: TextSource,
  options?: ChunkCallOptions,
): AsyncGenerator<Chunk> {
  if (isStreamingChunker(chunker)) {
    yield* chunker.chunkStream(source, options);
    return;
  }
  if (typeof chunker?.chunk !== 'function') throw new InvalidInputError('chunker must have a chunk(text) method', chunker);
  let text = '';
  for await (const piece of textPieces(source)) text += piece;
  yield* await chunker.chunk(text, options);
}
