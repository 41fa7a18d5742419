/**
 * Node-only parts of chunkwise (`chunkwise/node`): model folders from the file system,
 * onnxruntime-node, embedder specs for the CLI, `chunkwise embed` output, and the documents
 * of folders for `pipeline()` (`documentFiles`).
 * @module
 */
export { readOnnxFolder, readStaticFolder } from '../../embedders/node/model-folder.js';
export { loadOnnxruntimeNode } from '../../embedders/node/ort-node.js';
export { loadEmbedder, type LoadEmbedderOptions } from './embedders.js';
export { embedChunks, npyBytes, f32ToBase64, textToEmbed, type EmbedChunksOptions, type EmbeddableChunk } from './embed-command.js';
export { readCorpora, readQuestions, embeddingProgress, type ProgressBar } from './evaluation.js';
export { documentFiles, type DocumentFile, type DocumentFilesOptions } from './document-files.js';
export { UnreadableFileError } from '../cli/errors.js';
