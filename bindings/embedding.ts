/**
 * Typed wrappers over the embedding kernels (`assembly/kernels/hashing.ts`): feature
 * hashing for {@link hashEmbed} and gather + mean pooling for {@link gatherMeanRows}.
 * Nothing here imports a Node built-in.
 * @module
 */
import { getKernels } from './index.js';
import type { Kernels, WasmArray } from './kernels.js';

/** The raw exports of the embedding kernels (pointers are byte offsets). */
export interface EmbeddingKernelExports {
  hashEmbedBatch(
    text: number,
    wordStarts: number,
    wordEnds: number,
    docWords: number,
    n: number,
    d: number,
    minN: number,
    maxN: number,
    wordWeight: number,
    charWeight: number,
    scratch: number,
    out: number,
  ): void;
  gatherMeanRows(
    table: number,
    vocab: number,
    d: number,
    weights: number,
    ids: number,
    offsets: number,
    n: number,
    normalize: number,
    out: number,
  ): void;
}

/** The embedding kernels of a {@link Kernels} instance. */
export function embeddingExports(k: Kernels): EmbeddingKernelExports {
  return k.exports as unknown as EmbeddingKernelExports;
}

/** Words of a batch of normalised texts, as UTF-16 code units and word boundaries. */
export interface HashInput {
  /** UTF-16 code units of all texts, concatenated. */
  units: Uint16Array;
  /** Start of each word (index into `units`). */
  wordStarts: Int32Array;
  /** End (exclusive) of each word. */
  wordEnds: Int32Array;
  /** Text t owns words [docWords[t], docWords[t + 1]); length n + 1. */
  docWords: Int32Array;
}

/** Feature-hashing parameters (see `HashingEmbedder`). */
export interface HashParams {
  dimension: number;
  minN: number;
  maxN: number;
  wordWeight: number;
  charWeight: number;
}

/**
 * Signed feature hashing of word unigrams, bigrams and character n-grams in the WASM
 * core. Returns n × d row-major Float32Array, rows L2-normalised (empty texts: zero rows).
 */
export function hashEmbed(input: HashInput, p: HashParams): Float32Array {
  const k = getKernels();
  const n = input.docWords.length - 1;
  const d = p.dimension;
  return k.job(() => {
    const text = k.allocI32(Math.ceil(input.units.length / 2) + 1);
    new Uint16Array(k.exports.memory.buffer, text.ptr, input.units.length).set(input.units);
    const ws = k.copyI32(input.wordStarts);
    const we = k.copyI32(input.wordEnds);
    const dw = k.copyI32(input.docWords);
    let scratchLen = 1;
    const grams = p.maxN >= p.minN && p.maxN > 0 ? p.maxN - p.minN + 1 : 0;
    for (let t = 0; t < n; t++) {
      let need = 0;
      for (let w = input.docWords[t]; w < input.docWords[t + 1]; w++) {
        need += 2 + grams * (input.wordEnds[w] - input.wordStarts[w] + 2);
      }
      scratchLen = Math.max(scratchLen, need);
    }
    const scratch = k.allocI32(scratchLen);
    const out = k.allocF32(n * d);
    embeddingExports(k).hashEmbedBatch(
      text.ptr, ws.ptr, we.ptr, dw.ptr, n, d, p.minN, grams ? p.maxN : 0, p.wordWeight, p.charWeight, scratch.ptr, out.ptr,
    );
    return out.toArray();
  });
}

/**
 * Mean of table rows per sequence, in the WASM core: out[s] = mean of
 * table[ids[k]] (weighted by `weights[id]` if given) for k in [offsets[s], offsets[s+1]),
 * then L2-normalised when `normalize`. `table` (vocab × d) and `weights` (vocab) must
 * already live in `k`'s memory. Returns n × d row-major Float32Array.
 */
export function gatherMeanRows(
  k: Kernels,
  table: WasmArray<Float32ArrayConstructor>,
  vocab: number,
  d: number,
  weights: WasmArray<Float32ArrayConstructor> | null,
  ids: Int32Array,
  offsets: Int32Array,
  normalize: boolean,
): Float32Array {
  return k.job(() => {
    const n = offsets.length - 1;
    const idsW = k.copyI32(ids);
    const offW = k.copyI32(offsets);
    const out = k.allocF32(n * d);
    embeddingExports(k).gatherMeanRows(
      table.ptr, vocab, d, weights ? weights.ptr : 0, idsW.ptr, offW.ptr, n, normalize ? 1 : 0, out.ptr,
    );
    return out.toArray();
  });
}
