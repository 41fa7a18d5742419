/**
 * chunkwise: document chunking for retrieval-augmented generation.
 *
 * The root entry holds what a user chunks with: the strategies and their registry, the
 * units and tokenizers budgets are measured in, the embedders, the pipeline and the
 * in-memory sink, the typed errors, and the types of all of these. The WebAssembly
 * kernels are on `chunkwise/kernels`; the rest of `src/` is internal. The recorded
 * surface of every entry is etc/chunkwise.api.md (`npm run lint:package` rewrites it).
 * Every chunk's `text === source.slice(start, end)` with UTF-16 offsets.
 * @module
 */

// Errors
export {
  ChunkwiseError,
  InvalidOptionError,
  InvalidInputError,
  UnknownEncodingError,
  WasmError,
  ModelLoadError,
  EmbeddingError,
  InvalidDatasetError,
  EncodingNotLoadedError,
  MissingDependencyError,
  GrammarLoadError,
  SinkError,
  CallbackError,
} from './engine/errors.js';
export { UnknownOptionError } from './engine/options/schema.js';
export { DocumentError } from './documents/document-error.js';

// Chunks, ids, chunkers
export { chunkRecord, type Chunk, type ChunkMetadata } from './engine/chunk.js';
export type { ChunkCallOptions } from './engine/ids.js';
export type { Chunker, TextSource } from './engine/chunker.js';
export { chunkStream, type StreamingChunker } from './engine/stream/index.js';

// Units and tokenizers
export {
  getTokenizer,
  lengthFunctionSizer,
  hfTokenizerSizer,
  type EncodingName,
  type HfLikeTokenizer,
  type UnitKind,
  type UnitSpans,
  type SafeCut,
  type CutAt,
  type Sizer,
  type UnitSegmenter,
  type Tokenizer,
} from './engine/size/index.js';
export { loadTokenizer, type WasmBpeEncoding } from './engine/size/wasm-bpe.js';
export type { RankTableSource } from '../bindings/bpe-ranks.js';
// The kernels' module, for pages that load it themselves (the module set-up functions and
// the kernels: `chunkwise/kernels`).
export { initKernels, type KernelsSource } from '../bindings/index.js';
export type { AbbreviationRules, SentenceOptions } from './engine/boundaries/sentences.js';
export type { SentenceSpans } from './engine/boundaries/sentence-spans.js';

// Strategies
// (writing a strategy, and the boundaries, units and offsets strategies share: `chunkwise/engine`)
export { createChunker, strategies, strategyNames, type StrategyDefinition, type StrategyOptions } from './strategies/index.js';
export type { StrategySpec } from './engine/define.js';
export type { OptionsOf, ResolvedOf } from './engine/options/schema.js';
export { SlidingWindowChunker, type SlidingWindowOptions, type UnitOptions } from './strategies/sliding-window/sliding-window.js';
export { FixedSizeChunker, type FixedSizeOptions } from './strategies/fixed-size/fixed-size.js';
export { SentenceChunker, type SentenceChunkerOptions } from './strategies/sentence/sentence.js';
export {
  RecursiveChunker,
  type RecursiveOptions,
  type Separator,
  type SeparatorKind,
  type KeepSeparator,
} from './strategies/recursive/recursive.js';
export {
  MarkdownChunker,
  type MarkdownBlock,
  type MarkdownBlockType,
  type MarkdownOptions,
  type MarkdownChunkMetadata,
  type MarkdownChunk,
} from './strategies/markdown/markdown.js';
export { HtmlChunker, type HtmlOptions, type HtmlChunk, type HtmlChunkMetadata, type DroppedRegion, type Landmark } from './strategies/html/html.js';
export { SemanticChunker, type BreakpointType, type SemanticOptions } from './strategies/semantic/semantic.js';
export { ClusterSemanticChunker, type ClusterSemanticOptions } from './strategies/cluster-semantic/cluster-semantic.js';
export { ParentChildChunker, type ParentChildOptions, type ParentChildResult } from './strategies/parent-child/parent-child.js';
export { LateChunker, type LateOptions, type LateChunk } from './strategies/late/late.js';
export { QueryAdaptiveChunker, type QascChunk, type QascChunkMetadata, type QascOptions, type QascQueryOptions, type QascParams } from './strategies/qasc/qasc.js';
// The QASC index (hybrid retrieval) and evaluation: `chunkwise/evaluation`.

// Embedders (ONNX embedders and Hugging Face tokenizers: `chunkwise/onnx`)
export type { Embedder, TokenEmbedder, TokenEmbeddings } from './engine/embedder.js';
export { HashingEmbedder, type HashingEmbedderOptions } from './embedders/hashing-embedder.js';
export { StaticEmbedder, type StaticEmbedderOptions } from './embedders/static-embedder.js';
export { OpenAIEmbedder, EmbeddingRequestError, type OpenAIEmbedderOptions, type RetryEvent } from './embedders/openai.js';

// Pipeline and sinks (vector-store sinks: `chunkwise/sinks/*`)
export * from './pipeline/index.js';
export { writeChunks, type Sink, type SinkRow, type SinkMatch, type StoredChunk, type SinkChunk, type WriteChunksOptions, type WriteChunksResult } from './sinks/index.js';
export type { BackoffPolicy, TransientFailure } from './engine/retry.js';
