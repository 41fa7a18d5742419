/**
 * Stream inputs: text arrives as a web `ReadableStream<string>`, an `AsyncIterable<string>`
 * or a plain `Iterable<string>` of pieces of any size (a piece may end inside a surrogate
 * pair or between `\r` and `\n`). Core module: no Node built-ins.
 * @module
 */
import { InvalidInputError } from '../errors.js';

import type { TextSource } from '../chunker.js';

export type { TextSource } from '../chunker.js';

function isReadableStream(value: unknown): value is ReadableStream<string> {
  return typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function';
}

/**
 * The pieces of `source` in order, each checked to be a string. Reads a ReadableStream
 * through its reader (so it also works where streams are not async-iterable, e.g. Safari);
 * when the reading stops before the stream's end — the consumer breaks out or returns, a
 * piece is not a string — the stream is cancelled (as `ReadableStream`'s own async
 * iterator does), so its source stops producing; the lock is released either way. An
 * (async) iterable's `return()` is called by `for await` itself.
 * @throws {InvalidInputError} when `source` is not a stream or iterable, or a piece is not a string.
 */
export async function* textPieces(source: TextSource): AsyncGenerator<string> {
  if (isReadableStream(source)) {
    const reader = source.getReader();
    let ended = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          ended = true;
          return;
        }
        yield requirePiece(value);
      }
    } finally {
      // on a stream that errored, cancel() rejects with the error the read already threw
      if (!ended) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }
  if (source === null || typeof source !== 'object' || (!(Symbol.asyncIterator in source) && !(Symbol.iterator in source))) {
    if (typeof source === 'string') {
      throw new InvalidInputError('a stream source must be a ReadableStream<string> or an (async) iterable of strings (wrap a string in an array, or call chunk())', source);
    }
    throw new InvalidInputError('a stream source must be a ReadableStream<string> or an (async) iterable of strings', source);
  }
  for await (const piece of source as AsyncIterable<unknown>) yield requirePiece(piece);
}

function requirePiece(piece: unknown): string {
  if (typeof piece !== 'string') throw new InvalidInputError('every piece of a text stream must be a string', piece);
  return piece;
}
