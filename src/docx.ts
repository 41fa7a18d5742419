/**
 * The `chunkwise/docx` entry: src/documents/docx.ts.
 * @module
 */
export * from './documents/docx.js';
