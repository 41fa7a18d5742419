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
// ONNX embedders and Hugging Face tokenizers: `chunkwise/onnx`.
export { HashingEmbedder, type HashingEmbedderOptions } from './embedders/hashing-embedder.js';
export { StaticEmbedder, type StaticEmbedderOptions } from './embedders/static-embedder.js';
export { poolTokenSpans } from './embedders/pool-spans.js';
export { OpenAIEmbedder, EmbeddingRequestError, OPENAI_MODEL_DIMENSIONS, type OpenAIEmbedderOptions, type RetryEvent } from './embedders/openai.js';
export { writeChunks, sinkRows, type Sink, type SinkRow, type SinkMatch, type StoredChunk, type SinkChunk, type WriteChunksOptions, type WriteChunksResult } from './sinks/index.js';
export * from './pipeline/index.js';
export { withBackoff, type BackoffPolicy, type TransientFailure } from './core/retry.js';
export { initBpe, setBpeModule } from '../bindings/bpe.js';
export { setRankTable, type RankTableSource } from '../bindings/bpe-ranks.js';
export { WasmBpeTokenizer, getWasmBpeTokenizer, loadTokenizer, WASM_BPE_ENCODINGS, type WasmBpeEncoding } from './size/wasm-bpe.js';
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
export { splitSentences, isCaseless, ABBREVIATIONS, NEUTRAL_RULES, rulesFor, type AbbreviationRules, type SentenceOptions } from './segment/sentences.js';
export { detectLocale } from './segment/locale.js';
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
export { HtmlChunker, HTML_SCHEMA, LANDMARKS, type HtmlOptions, type HtmlChunk, type HtmlChunkMetadata, type DroppedRegion, type Landmark } from './strategies/html.js';
export type { HtmlOutline, HtmlBlock, HtmlBlockKind, HtmlTableInfo, HtmlTableRow } from './segment/html.js';
export { columnLabels, labelledRow, tablePartText, type HeaderCell } from './segment/tables.js';
export { TableRowsLevel } from './plan/levels.js';
export { ParentChildChunker, looksLikeMarkdown, type ParentChildOptions, type ParentChildResult } from './compose/parent-child.js';
export { trimSpan, trimSpanWithin, type TextSpan } from './core/text.js';
export { registerFallback, fallbackNames, resolveFallback, slidingSpanSplitter, recursiveSpanSplitter, type SpanSplitterFactory, type SpanSplitterOptions } from './plan/fallback.js';
export type { SpanSplitter as FallbackSpanSplitter } from './core/splitter.js';
export { defineStrategy, capacitySchema, overlapBelow, type StrategySpec } from './strategies/define.js';
export { packLevels } from './strategies/pack-levels.js';
export { typed, type OptionsOf, type ResolvedOf } from './core/schema.js';
export { createChunker, registerStrategy, strategies, strategyNames, strategyDefinition, type Chunker, type StrategyDefinition, type StrategyOptions } from './strategies/registry.js';
export { ContentIds, contentId, documentIdOf, type ChunkCallOptions } from './core/ids.js';
export {
  chunkStream,
  isStreamingChunker,
  textPieces,
  charCut,
  wordCut,
  tiktokenCut,
  tiktokenCutAt,
  safeCutFor,
  type StreamingChunker,
  type SafeCut,
  type CutAt,
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
  spanScore,
  analyzeSentences,
  resolveQascParams,
  QASC_DEFAULTS,
  WASM_QASC_KERNELS,
  type QascParams,
  type QascQueryOptions,
  type ResolvedQascParams,
  type QascKernels,
  type QascPlan,
  type QascSpan,
  type QascWindow,
  type QascThresholds,
  type QascChunk,
  type QascChunkMetadata,
  type QascOptions,
  type QascStructure,
  type SentenceAnalysis,
  type PreparedDocument,
} from './retrieval/qasc.js';
// The QASC index (hybrid retrieval) and evaluation: `chunkwise/evaluation`.
export { LateChunker, embedDocumentTokens, type LateOptions, type LateChunk, type MacroWindow, type DocumentTokens } from './compose/late.js';
export { sentenceSpans, paragraphBreaks, type SentenceSpans } from './segment/sentence-spans.js';
export { headingSentences, snapToBreaks, type SentenceStructure } from './segment/structure.js';
export { WasmMatrix } from './retrieval/wasm-matrix.js';
