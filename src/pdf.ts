/**
 * The `chunkwise/pdf` entry: src/documents/pdf.ts.
 * @module
 */
export * from './documents/pdf.js';
