/**
 * chunkwise: document chunking for retrieval-augmented generation.
 *
 * Flow (SPEC section 3): text → units (segment) → windows (plan, WASM kernels) →
 * spans → chunks. Every chunk's `text === source.slice(start, end)` with UTF-16 offsets.
 * @module
 */
export * from './errors.js';
export * from './chunk.js';
export * from './units/index.js';
export type { Embedder, TokenEmbedder, TokenEmbeddings } from './embedders/types.js';
export {
  HashingEmbedder,
  OnnxEmbedder,
  StaticEmbedder,
  poolTokenSpans,
  type HashingEmbedderOptions,
  type OnnxEmbedderOptions,
  type StaticEmbedderOptions,
} from './embedders/index.js';
export { splitSentences, type SentenceOptions } from './segment/sentences.js';
export { SlidingWindowChunker, type SlidingWindowOptions, type UnitOptions } from './chunkers/sliding-window.js';
export { FixedSizeChunker, type FixedSizeOptions } from './chunkers/fixed-size.js';
export { createChunker, registerStrategy, strategies, strategyNames, type Chunker, type StrategyDefinition, type StrategyOptions } from './strategies.js';
export { planSpans, type PlannedSpan } from './plan/windows.js';
export {
  getKernels,
  initKernels,
  Kernels,
  WasmArray,
  planWindows,
  windowCount,
  mergeIntervals,
  cosineMatVec,
  cosineNeighbours,
  percentile,
  decayScore,
  decayScores,
  topK,
  normalizeRows,
  type KernelsSource,
} from '../bindings/index.js';
export * from './evaluation/index.js';
