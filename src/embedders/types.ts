/**
 * The embedder interfaces (defined in `src/core/embedder.ts`, where core modules can use them).
 * @module
 */
export type * from '../core/embedder.js';
