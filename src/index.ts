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
export { SlidingWindowChunker, type SlidingWindowOptions, type UnitOptions } from './chunkers/sliding-window.js';
export { FixedSizeChunker, type FixedSizeOptions } from './chunkers/fixed-size.js';
export { SentenceChunker, type SentenceChunkerOptions } from './chunkers/sentence.js';
export {
  RecursiveChunker,
  DEFAULT_SEPARATORS,
  LANGCHAIN_SEPARATORS,
  type RecursiveOptions,
  type Separator,
  type SeparatorKind,
  type KeepSeparator,
} from './chunkers/recursive.js';
export { splitSentences, ABBREVIATIONS, type SentenceOptions } from './segment/sentences.js';
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
