/**
 * `chunkwise/onnx`: ONNX transformer embedders (sentence and token level, for semantic
 * chunking, QASC and late chunking) and Hugging Face `tokenizer.json` tokenizers.
 *
 * A separate entry so that bundlers never see ONNX Runtime unless this is imported.
 * onnxruntime-web (every runtime) and onnxruntime-node (Node, native, faster) are
 * optional peer dependencies: install the one you use. A missing one gives a
 * `MissingDependencyError` naming it when a model is loaded.
 * @module
 */
export { OnnxEmbedder, poolingFromConfig, maxLengthFrom, loadOrt, HfTokenizer, KNOWN_TOKENIZER_MODELS } from './embedders/index.js';
export type { OnnxEmbedderOptions, OnnxModelBytes, OnnxSource, PoolingMode, OnnxBackend, LoadOrtOptions, OrtModule, OrtSession, OrtTensor, TokenizedText, HfLibraryTokenizer } from './embedders/index.js';
export { MissingDependencyError, ModelLoadError, EmbeddingError } from './engine/errors.js';
export type { Embedder, TokenEmbedder, TokenEmbeddings, TruncationEvent } from './embedders/types.js';
