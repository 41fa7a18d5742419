/**
 * `chunkwise/engine`: what the strategies are built from, for writing a strategy of your
 * own (docs/architecture.md, "Adding a strategy") or using its parts alone —
 * `defineStrategy`, `capacitySchema`, `packLevels`, `typed` and `registerStrategy`; the
 * boundaries strategies share (separators, sentences, locale detection, Markdown
 * blocks); the unit segmenters and the BPE tokenizer class; UTF-16 ↔ UTF-8 / code point
 * offsets; content ids; the semantic strategy's breakpoint thresholds; mean pooling of
 * token spans; the dimensions of OpenAI's embedding models. The registry is the root
 * entry's: a strategy registered here is one `createChunker` of `chunkwise` builds.
 * @module
 */

// Writing a strategy
// (the classes a definition extends: Shell and StreamShell, or with `async: true` AsyncShell
// and AsyncStreamShell; LevelSpan: the planned spans of a strategy with levels)
export {
  defineStrategy,
  capacitySchema,
  type StrategySpec,
  type StrategyStatics,
  type LevelSpan,
  type ShellBase,
  type Shell,
  type StreamShell,
  type AsyncShell,
  type AsyncStreamShell,
} from './engine/define.js';
export { packLevels } from './engine/pack/pack-levels.js';
export { typed, type OptionsOf, type ResolvedOf } from './engine/options/schema.js';
export { registerStrategy, strategyDefinition } from './strategies/index.js';
export { fallbackNames } from './engine/pack/fallback.js';
export { isStreamingChunker } from './engine/stream/index.js';
export { contentId } from './engine/ids.js';

// Boundaries
export { DEFAULT_SEPARATORS, LANGCHAIN_SEPARATORS } from './strategies/recursive/recursive.js';
export { splitSentences, type AbbreviationRules, type SentenceOptions } from './engine/boundaries/sentences.js';
export { detectLocale } from './engine/boundaries/locale.js';
export { sentenceSpans, type SentenceSpans } from './engine/boundaries/sentence-spans.js';
export { markdownBlocks } from './strategies/markdown/markdown.js';
export { breakpointThreshold, BREAKPOINT_TYPES, BREAKPOINT_DEFAULTS } from './strategies/semantic/semantic.js';

// Units, tokenizers and offsets
export {
  getUnits,
  UNIT_KINDS,
  charUnits,
  wordUnits,
  tokenUnits,
  ENCODINGS,
  isEncodingName,
  utf16ToUtf8Offset,
  utf16ToCodePointOffset,
  utf8ToUtf16Offsets,
} from './engine/size/index.js';
export { WasmBpeTokenizer, getWasmBpeTokenizer } from './engine/size/wasm-bpe.js';

// Embeddings
export { poolTokenSpans } from './embedders/pool-spans.js';
export { OPENAI_MODEL_DIMENSIONS } from './embedders/openai.js';
