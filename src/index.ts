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
export { initBpe, setBpeModule } from '../bindings/bpe.js';
export { WasmBpeTokenizer, getWasmBpeTokenizer, WASM_BPE_ENCODINGS, type WasmBpeEncoding } from './tokenizers/wasm-bpe.js';
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
export { MarkdownChunker, parseMarkdown, type MarkdownOptions, type MarkdownChunkMetadata, type MarkdownChunk } from './chunkers/markdown.js';
export { ParentChildChunker, looksLikeMarkdown, type ParentChildOptions, type ParentChildResult } from './chunkers/parent-child.js';
export { registerFallback, fallbackNames, resolveFallback, slidingSpanSplitter, recursiveSpanSplitter, trimSpan, trimSpanWithin, type TextSpan, type SpanSplitter as FallbackSpanSplitter, type SpanSplitterFactory, type SpanSplitterOptions } from './chunkers/spans.js';
export { createChunker, registerStrategy, strategies, strategyNames, type Chunker, type StrategyDefinition, type StrategyOptions } from './strategies.js';
export { planSpans, type PlannedSpan } from './plan/windows.js';
export { RollingHash, PrefixIds } from './chunk-ids.js';
export {
  chunkStream,
  chunkSections,
  isStreamingChunker,
  slidingWindowStream,
  textPieces,
  charCut,
  wordCut,
  tiktokenCut,
  safeCutFor,
  type StreamingChunker,
  type SectionBreak,
  type SafeCut,
  type TextSource,
  type SlidingStreamConfig,
} from './stream/index.js';
export {
  getKernels,
  initKernels,
  setKernelsModule,
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
export { SemanticChunker, breakpointThreshold, fixedSizeSplitter, recursiveSplitter, BREAKPOINT_TYPES, BREAKPOINT_DEFAULTS, type BreakpointType, type SemanticOptions, type Span, type SpanSplitter } from './chunkers/semantic.js';
export {
  QueryAdaptiveChunker,
  planQasc,
  resolveQascParams,
  QASC_DEFAULTS,
  WASM_QASC_KERNELS,
  type QascParams,
  type ResolvedQascParams,
  type QascKernels,
  type QascPlan,
  type QascSpan,
  type QascWindow,
  type QascThresholds,
  type QascChunk,
  type QascChunkMetadata,
  type QascOptions,
  type PreparedDocument,
} from './chunkers/qasc.js';
export { QascIndex, type QascIndexOptions, type QascResult } from './chunkers/qasc-index.js';
export { LateChunker, embedDocumentTokens, type LateOptions, type LateChunk, type MacroWindow, type DocumentTokens } from './chunkers/late.js';
export { sentenceSpans, paragraphBreaks, type SentenceSpans } from './chunkers/sentence-spans.js';
export { WasmMatrix } from './chunkers/wasm-matrix.js';
export * from './evaluation/index.js';
