/**
 * Calls into code the user gave as an option (splitters, sizers, length functions,
 * embedders): what such a call throws reaches the caller as a typed chunkwise error that
 * names the option and keeps the original as `cause`. What a callback returns is checked
 * where it is used (`checkedSplitter`, `checkedSizer`, the embedders' matrix checks).
 * Core module: no Node built-ins.
 * @module
 */
import type { Embedder } from './embedder.js';
import { CallbackError, ChunkwiseError, describe, EmbeddingError } from './errors.js';

/** `error` as chunkwise throws it: a {@link ChunkwiseError} unchanged, anything else wrapped in a {@link CallbackError} naming `option`. */
function wrapThrown(option: string, error: unknown): ChunkwiseError {
  return error instanceof ChunkwiseError ? error : new CallbackError(option, error);
}

/**
 * Runs `call` (a call of the user's `option`).
 * @throws {CallbackError} naming `option`, with what `call` threw as `cause` (a
 *   {@link ChunkwiseError} passes unchanged: it is already typed).
 */
export function callOption<T>(option: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw wrapThrown(option, error);
  }
}

/**
 * Awaits `call` (an asynchronous call of the user's `option`, such as `embedder.embed`).
 * @throws {CallbackError} as {@link callOption}, for a throw or a rejected promise.
 */
export async function callOptionAsync<T>(option: string, call: () => Promise<T> | T): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw wrapThrown(option, error);
  }
}

/**
 * `embedder.embed(texts)` with its throws typed and its result checked: an n × d
 * Float32Array for n texts and d = `embedder.dimension`.
 * @param option the option the embedder was given as (default `embedder`), named in errors.
 * @throws {CallbackError} when `embed` throws or rejects (the original as `cause`; an
 *   error chunkwise's own embedders throw passes unchanged).
 * @throws {EmbeddingError} when it returns anything but n × d values.
 */
export async function embedChecked(embedder: Embedder, texts: string[], option = 'embedder'): Promise<Float32Array> {
  const d = embedder.dimension;
  const matrix: unknown = await callOptionAsync(`${option}.embed`, () => embedder.embed(texts));
  if (!(matrix instanceof Float32Array) || matrix.length !== texts.length * d) {
    const got = matrix instanceof Float32Array ? `${matrix.length} values` : describe(matrix);
    throw new EmbeddingError(`The ${option} returned ${got}, expected ${texts.length} × ${d} (a Float32Array)`);
  }
  return matrix;
}
