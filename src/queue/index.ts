/**
 * The `chunkwise/queue` entry (dist/src/queue/index.js, kept at this path): src/apps/queue/index.ts.
 * @module
 */
export * from '../apps/queue/index.js';
