/**
 * `chunkwise embed --sink …`: the sink options, and opening the store before any work
 * (the writing is the pipeline's: src/pipeline/store.ts).
 * @module
 */
import { openSink, SINK_SPECS } from '../node/sinks.js';
import type { Sink } from '../../sinks/types.js';
import { UsageError } from './usage-error.js';

/** The embed options this module reads. */
export interface SinkCliOptions {
  /** `lancedb:<dir>`, `pglite:<dir>` or `postgres://…`. */
  sink?: string;
  /** Table in the store (default the URL's `?table=`, else `chunks`). */
  table?: string;
  /** The embedder's spec (`hashing:256`): stored with each row as the vectors' embedder identity. */
  embedder?: string;
  format?: string;
  out?: string;
  quiet?: boolean;
  progress?: boolean;
}

/**
 * Checks the sink options and opens the store (undefined without `--sink`).
 * @throws {UsageError} for `--table` without `--sink`, or `--sink` with `--out` / `--format npy`.
 * @throws {SinkError} when the store cannot be opened.
 */
export async function openCliSink(o: SinkCliOptions): Promise<Sink | undefined> {
  if (o.sink === undefined) {
    if (o.table !== undefined) throw new UsageError(`--table names a table of --sink: give --sink ${SINK_SPECS}`);
    return undefined;
  }
  if (o.out !== undefined || o.format === 'npy') throw new UsageError('--sink writes to the store: leave out --out and --format npy');
  return openSink(o.sink, { table: o.table });
}
