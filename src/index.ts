/**
 * chunkwise: document chunking for retrieval-augmented generation.
 *
 * Flow (SPEC section 3): text → units (segment) → windows (plan, WASM kernels) →
 * spans → chunks. Every chunk's `text === source.slice(start, end)` with UTF-16 offsets.
 * @module
 */
export * from './core/errors.js';
export * from './core/chunk.js';
export * from './size/index.js';
export type { Embedder, TokenEmbedder, TokenEmbeddings } from './embedders/types.js';
export {
  HashingEmbedder,
  OnnxEmbedder,
  StaticEmbedder,
  poolTokenSpans,
  type HashingEmbedderOptions,
  type OnnxEmbedderOptions,
  type StaticEmbedderOptions,
  OpenAIEmbedder,
  EmbeddingRequestError,
  OPENAI_MODEL_DIMENSIONS,
  type OpenAIEmbedderOptions,
  type RetryEvent,
} from './embedders/index.js';
export { writeChunks, sinkRows, type Sink, type SinkRow, type SinkMatch, type SinkChunk, type WriteChunksOptions, type WriteChunksResult } from './sinks/index.js';
export { initBpe, setBpeModule } from '../bindings/bpe.js';
export { WasmBpeTokenizer, getWasmBpeTokenizer, WASM_BPE_ENCODINGS, type WasmBpeEncoding } from './size/wasm-bpe.js';
export { SlidingWindowChunker, type SlidingWindowOptions, type UnitOptions } from './strategies/sliding-window.js';
export { FixedSizeChunker, type FixedSizeOptions } from './strategies/fixed-size.js';
export { SentenceChunker, type SentenceChunkerOptions } from './strategies/sentence.js';
export {
  RecursiveChunker,
  DEFAULT_SEPARATORS,
  LANGCHAIN_SEPARATORS,
  type RecursiveOptions,
  type Separator,
  type SeparatorKind,
  type KeepSeparator,
} from './strategies/recursive.js';
export { splitSentences, ABBREVIATIONS, type SentenceOptions } from './segment/sentences.js';
export {
  MarkdownChunker,
  MARKDOWN_SCHEMA,
  markdownBlocks,
  type MarkdownBlock,
  type MarkdownBlockType,
  type MarkdownOptions,
  type MarkdownChunkMetadata,
  type MarkdownChunk,
} from './strategies/markdown.js';
export { ParentChildChunker, looksLikeMarkdown, type ParentChildOptions, type ParentChildResult } from './compose/parent-child.js';
export { trimSpan, trimSpanWithin, type TextSpan } from './core/text.js';
export { registerFallback, fallbackNames, resolveFallback, slidingSpanSplitter, recursiveSpanSplitter, type SpanSplitter as FallbackSpanSplitter, type SpanSplitterFactory, type SpanSplitterOptions } from './compose/span-splitters.js';
export { createChunker, registerStrategy, strategies, strategyNames, strategyDefinition, type Chunker, type StrategyDefinition, type StrategyOptions } from './strategies/registry.js';
export { RollingHash, PrefixIds } from './core/ids.js';
export {
  chunkStream,
  isStreamingChunker,
  textPieces,
  charCut,
  wordCut,
  tiktokenCut,
  safeCutFor,
  type StreamingChunker,
  type SafeCut,
  type TextSource,
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
export { ClusterSemanticChunker, DEFAULT_SECTION_SIZE, type ClusterSemanticOptions } from './strategies/cluster-semantic.js';
export { SemanticChunker, breakpointThreshold, fixedSizeSplitter, recursiveSplitter, BREAKPOINT_TYPES, BREAKPOINT_DEFAULTS, type BreakpointType, type SemanticOptions, type Span, type SpanSplitter } from './strategies/semantic.js';
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
} from './retrieval/qasc.js';
export { QascIndex, type QascIndexOptions, type QascResult } from './retrieval/qasc-index.js';
export { LateChunker, embedDocumentTokens, type LateOptions, type LateChunk, type MacroWindow, type DocumentTokens } from './compose/late.js';
export { sentenceSpans, paragraphBreaks, type SentenceSpans } from './segment/sentence-spans.js';
export { WasmMatrix } from './retrieval/wasm-matrix.js';
export * from './evaluation/index.js';
