/**
 * `chunkwise embed --sink …`: the options, opening the store before any work, and
 * writing the embedded chunks with a progress bar and a one-line summary on stderr.
 * @module
 */
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import type { Chunk } from '../core/chunk.js';
import { openSink, SINK_SPECS } from '../node/sinks.js';
import { writeChunks } from '../sinks/write.js';
import type { Sink } from '../sinks/types.js';
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

/**
 * Makes the table ready for vectors of `dimension` before any embedding, so a table of
 * another dimension fails at once; closes the sink when it fails.
 * @throws {SinkError} for a dimension that disagrees with the table.
 */
export async function prepareCliSink(sink: Sink, dimension: number): Promise<void> {
  try {
    await sink.prepare(dimension);
  } catch (error) {
    await sink.close().catch(() => {});
    throw error;
  }
}

/**
 * Writes the chunks (with their sources) and their n × d vectors to `sink`, upserting by
 * (source, chunk id) the chunks not already stored by the same embedder, and removing the stale chunks of every file in `files` (also of a
 * file that now has none); closes the sink.
 */
export async function writeCliSink(
  sink: Sink,
  o: SinkCliOptions,
  files: readonly string[],
  all: readonly { chunk: Chunk; source: string }[],
  vectors: Float32Array,
  dimension: number,
): Promise<void> {
  const show = !o.quiet && o.progress !== false && process.stderr.isTTY === true && !process.env.CI;
  const bar = show && all.length > 256 ? new cliProgress.SingleBar({ stream: process.stderr, format: 'writing [{bar}] {value}/{total} chunks', clearOnComplete: true }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(all.length, 0);
  try {
    // one spelling per file (its absolute path): `embed docs`, `embed ./docs` and
    // `cd docs && embed .` write the same rows, not three copies under three names
    const canonical = (name: string) => (name === '-' ? name : resolve(name));
    const chunks = all.map(({ chunk, source }) => ({ ...chunk, source: canonical(source) }));
    const result = await writeChunks(sink, chunks, vectors, { dimension, embedder: o.embedder, sources: files.map(canonical), onProgress: (done) => bar?.update(done) });
    bar?.stop();
    if (!o.quiet) {
      process.stderr.write(`chunkwise: ${sink.name}: ${result.written} chunks of ${result.sources} file(s) written, ${result.kept} kept, ${result.removed} stale removed, ${await sink.count()} in the table\n`);
    }
  } finally {
    bar?.stop();
    await sink.close();
  }
}
