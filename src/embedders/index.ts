/**
 * Embedders: the {@link Embedder} interface and its implementations.
 * - {@link HashingEmbedder}: the built-in default, no model file, a lexical baseline.
 * - {@link OnnxEmbedder}: ONNX transformer models (onnxruntime-web / -node), sentence and token level.
 * - {@link StaticEmbedder}: Model2Vec static embeddings.
 * - {@link OpenAIEmbedder}: any OpenAI-compatible `/v1/embeddings` endpoint (fetch).
 * - `TransformersJsEmbedder` lives on its own entry, `chunkwise/transformers`, so that
 *   `@huggingface/transformers` is loaded only there.
 * @module
 */
export type { Embedder, TokenEmbedder, TokenEmbeddings, TruncationEvent } from './types.js';
export { HashingEmbedder, type HashingEmbedderOptions } from './hashing-embedder.js';
export {
  OnnxEmbedder,
  normalizeRows,
  poolingFromConfig,
  maxLengthFrom,
  type OnnxEmbedderOptions,
  type OnnxModelBytes,
  type OnnxSource,
  type PoolingMode,
} from './onnx-embedder.js';
export { StaticEmbedder, type StaticEmbedderOptions, type StaticModelBytes } from './static-embedder.js';
export { HfTokenizer, KNOWN_TOKENIZER_MODELS, type TokenizedText, type HfLibraryTokenizer } from './hf-tokenizer.js';
export { parseSafetensors, tensorToF32, type Safetensors, type SafetensorsEntry } from './safetensors.js';
export { loadOrt, isNode, type OnnxBackend, type LoadOrtOptions, type OrtModule, type OrtSession, type OrtTensor } from './onnx-runtime.js';
export { poolTokenSpans } from './pool-spans.js';
export { OpenAIEmbedder, EmbeddingRequestError, OPENAI_MODEL_DIMENSIONS, retryAfterMs, type OpenAIEmbedderOptions, type RetryEvent } from './openai.js';
