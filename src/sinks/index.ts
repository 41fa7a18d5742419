/**
 * `chunkwise/sinks`: the {@link Sink} interface and {@link writeChunks}. The stores live
 * on their own entries so that importing one loads only its engine:
 * `chunkwise/sinks/lancedb` (LanceDB, Node), `chunkwise/sinks/pglite` (PGlite with
 * pgvector), `chunkwise/sinks/postgres` (a Postgres server with pgvector through `pg`,
 * Node), `chunkwise/sinks/pgvector` (any Postgres client with pgvector).
 * @module
 */
export type { Sink, SinkRow, SinkMatch, StoredChunk } from './types.js';
export { requireTableName } from './types.js';
export { NUL_REPLACEMENT, replaceNul } from './nul.js';
export { writeChunks, sinkRows, type SinkChunk, type WriteChunksOptions, type WriteChunksResult } from './write.js';
export { SinkError } from '../engine/errors.js';
