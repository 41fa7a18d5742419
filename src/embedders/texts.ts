/**
 * Input checks the embedders share. Core module: no Node built-in.
 * @module
 */
import { EmbeddingError } from '../engine/errors.js';

/**
 * Checks the batch given to `Embedder.embed`: an array of strings.
 * @throws {EmbeddingError} naming the first value that is not a string.
 */
export function requireTexts(texts: unknown): asserts texts is string[] {
  if (!Array.isArray(texts)) throw new EmbeddingError('texts must be an array of strings', texts);
  for (let i = 0; i < texts.length; i++) {
    if (typeof texts[i] !== 'string') throw new EmbeddingError(`Text ${i} is not a string`, texts[i]);
  }
}
