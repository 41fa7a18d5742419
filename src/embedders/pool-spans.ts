/**
 * Late-chunking pooling: chunk vectors from one pass of a token-level model.
 * @module
 */
import { InvalidInputError } from '../core/errors.js';
import type { TokenEmbeddings } from './types.js';

/**
 * For each span [starts[k], ends[k]) (UTF-16 offsets of the text given to
 * `embedTokens`), the mean of the vectors of the non-special tokens that overlap the
 * span, L2-normalised (late chunking: Günther et al., "Late Chunking: Contextual Chunk
 * Embeddings Using Long-Context Embedding Models", 2024). A span no token overlaps (for
 * example past a truncation) gets the zero vector; check `tokens.truncated`.
 * @param tokens the output of `TokenEmbedder.embedTokens` (vectors T × d, offsets T × 2).
 * @param d the vector length (the embedder's `dimension`).
 * @returns spans × d row-major Float32Array.
 * @throws {InvalidInputError} if starts and ends differ in length or a span is reversed.
 */
export function poolTokenSpans(tokens: TokenEmbeddings, d: number, starts: ArrayLike<number>, ends: ArrayLike<number>): Float32Array {
  if (starts.length !== ends.length) throw new InvalidInputError('starts and ends of equal length', { starts: starts.length, ends: ends.length });
  const T = tokens.offsets.length / 2;
  const out = new Float32Array(starts.length * d);
  const acc = new Float64Array(d);
  for (let k = 0; k < starts.length; k++) {
    const a = starts[k];
    const b = ends[k];
    if (!(b >= a)) throw new InvalidInputError(`span ${k} with end ≥ start`, [a, b]);
    acc.fill(0);
    let n = 0;
    for (let t = 0; t < T; t++) {
      const s = tokens.offsets[2 * t];
      const e = tokens.offsets[2 * t + 1];
      if (tokens.special[t] || e <= s || e <= a || s >= b) continue;
      for (let j = 0; j < d; j++) acc[j] += tokens.vectors[t * d + j];
      n++;
    }
    if (n === 0) continue;
    let ss = 0;
    for (let j = 0; j < d; j++) ss += acc[j] * acc[j];
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (let j = 0; j < d; j++) out[k * d + j] = acc[j] * inv;
  }
  return out;
}
