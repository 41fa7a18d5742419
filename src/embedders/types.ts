/**
 * The embedder interfaces (defined in `src/engine/embedder.ts`, where core modules can use them).
 * @module
 */
export type * from '../engine/embedder.js';
