/**
 * Late-chunking pooling: chunk vectors from one pass of a token-level model.
 * @module
 */
import { InvalidInputError } from '../engine/errors.js';
import type { TokenEmbeddings } from './types.js';

/** Work done by {@link poolTokenSpans}, for tests of its linearity. */
export interface PoolWork {
  /** Loop steps over tokens: the content-token scan, pointer moves, binary-search probes and tokens visited per span. */
  steps: number;
}

/**
 * For each span [starts[k], ends[k]) (UTF-16 offsets of the text given to
 * `embedTokens`), the mean of the vectors of the non-special tokens that overlap the
 * span, L2-normalised (late chunking: Günther et al., "Late Chunking: Contextual Chunk
 * Embeddings Using Long-Context Embedding Models", 2024). A span no token overlaps (for
 * example past a truncation) gets the zero vector; check `tokens.truncated`.
 *
 * Cost: O(T + S + Σ tokens per span) loop steps (× d for the sums) when the spans come in
 * order of their starts, as chunkers give them; a span that starts before the previous
 * one costs a binary search (O(log T)) more. The content tokens are taken in order of
 * their starts (sorted once if the model gave them out of order); a running maximum of
 * their ends finds a span's first overlapping token with a pointer that only moves
 * forward, so no span scans the tokens before it.
 * @param tokens the output of `TokenEmbedder.embedTokens` (vectors T × d, offsets T × 2).
 * @param d the vector length (the embedder's `dimension`).
 * @param work optional counter of loop steps (tests check linearity with it).
 * @returns spans × d row-major Float32Array.
 * @throws {InvalidInputError} if starts and ends differ in length or a span is reversed.
 */
export function poolTokenSpans(
  tokens: TokenEmbeddings,
  d: number,
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
  work?: PoolWork,
): Float32Array {
  if (starts.length !== ends.length) throw new InvalidInputError('starts and ends of equal length', { starts: starts.length, ends: ends.length });
  const T = tokens.offsets.length / 2;
  const { offsets, special, vectors } = tokens;
  // content tokens (not special, not zero-width), in order of their starts
  let order: Int32Array = new Int32Array(T);
  let n = 0;
  let sorted = true;
  for (let t = 0; t < T; t++) {
    const s = offsets[2 * t];
    if (special[t] || offsets[2 * t + 1] <= s) continue;
    if (n > 0 && s < offsets[2 * order[n - 1]]) sorted = false;
    order[n++] = t;
  }
  order = order.subarray(0, n);
  if (!sorted) order.sort((x, y) => offsets[2 * x] - offsets[2 * y] || x - y);
  // maxEnd[i] = the largest end among order[0..i]: non-decreasing, so "the first token
  // that may reach past a" is found by a forward pointer or a binary search
  const maxEnd = new Int32Array(n);
  for (let i = 0, m = -Infinity; i < n; i++) maxEnd[i] = m = Math.max(m, offsets[2 * order[i] + 1]);
  let steps = T + n;

  const out = new Float32Array(starts.length * d);
  const acc = new Float64Array(d);
  let lo = 0;
  let prevA = -Infinity;
  for (let k = 0; k < starts.length; k++) {
    const a = starts[k];
    const b = ends[k];
    if (!(b >= a)) throw new InvalidInputError(`span ${k} with end ≥ start`, [a, b]);
    if (a < prevA) {
      // out of order: binary search for the first i with maxEnd[i] > a
      let l = 0;
      let h = n;
      while (l < h) {
        const mid = (l + h) >>> 1;
        steps++;
        if (maxEnd[mid] > a) h = mid;
        else l = mid + 1;
      }
      lo = l;
    } else {
      while (lo < n && maxEnd[lo] <= a) {
        lo++;
        steps++;
      }
    }
    prevA = a;
    acc.fill(0);
    let count = 0;
    for (let i = lo; i < n; i++) {
      const t = order[i];
      steps++;
      if (offsets[2 * t] >= b) break;
      if (offsets[2 * t + 1] <= a) continue;
      for (let j = 0; j < d; j++) acc[j] += vectors[t * d + j];
      count++;
    }
    if (count === 0) continue;
    let ss = 0;
    for (let j = 0; j < d; j++) ss += acc[j] * acc[j];
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (let j = 0; j < d; j++) out[k * d + j] = acc[j] * inv;
  }
  if (work) work.steps += steps;
  return out;
}
