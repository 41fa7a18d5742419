/**
 * The `chunkwise/node` entry (dist/src/node/index.js, kept at this path): src/apps/node/index.ts.
 * @module
 */
export * from '../apps/node/index.js';
