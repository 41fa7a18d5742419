/**
 * {@link writeChunks}: chunks and their vectors into a {@link Sink}, batched, upserted by
 * (source, chunk id), rows already stored with the same id and embedder kept as they
 * are, and the chunks a changed document no longer has removed.
 * Core module: no Node built-in.
 * @module
 */
import type { Chunk } from '../engine/chunk.js';
import { InvalidOptionError } from '../engine/errors.js';
import { incrementalSink, type IncrementalSink } from './incremental.js';
import { requireDimension, samePlace, type Sink, type SinkRow, type StoredChunk } from './types.js';

/** A chunk to write: any chunkwise {@link Chunk}, with the document it came from. */
export interface SinkChunk extends Chunk {
  /** The chunk's document; falls back to {@link WriteChunksOptions.source}. */
  source?: string;
}

/** Options of {@link writeChunks}. */
export interface WriteChunksOptions {
  /** The document of chunks that carry no `source` (and the one to clear when `chunks` is empty). */
  source?: string;
  /**
   * Documents this call holds in whole besides those of `chunks`: with `replace`, their
   * rows not among `chunks` are removed too, so a document that now has no chunk (an
   * emptied file) loses its old ones.
   */
  sources?: readonly string[];
  /**
   * Identity of the embedder that made `vectors` (e.g. `hashing:256`), stored with each
   * row. With it, a chunk already stored under the same id by the same embedder is kept,
   * not rewritten; without it (`''`, the default) every row is written.
   */
  embedder?: string;
  /** d, the values per vector; default `vectors.length / chunks.length`. Needed for an empty `chunks`. */
  dimension?: number;
  /** Rows per upsert call, an integer ≥ 1. Default the sink's `batchSize` (LanceDB 8192, Postgres 1024), else 256. */
  batchSize?: number;
  /**
   * Remove the rows of each written source that are not among `chunks` (default true):
   * every call then holds whole documents, and a changed document replaces its old
   * chunks. Set false to add chunks of a document over several calls.
   */
  replace?: boolean;
  /** Called after each batch with the rows written so far and the total to write (kept rows not counted). */
  onProgress?: (written: number, total: number) => void;
}

/** What {@link writeChunks} did. */
export interface WriteChunksResult {
  /** Rows inserted or replaced. */
  written: number;
  /** Rows already stored with the same (source, id) and embedder, left as they were. */
  kept: number;
  /** Rows of the written sources deleted because their chunks are gone. */
  removed: number;
  /** Distinct sources written. */
  sources: number;
  /** d of the vectors. */
  dimension: number;
}

/**
 * The rows for `chunks` and their vectors (row i of the n × d `vectors` belongs to
 * chunk i), one per (source, id): where a chunk repeats, the last one wins. `embedder`
 * is the identity stored with each row ({@link SinkRow.embedder}).
 * @throws {InvalidOptionError} for a chunk without a source (and no `source` option) or
 *   a `vectors` length that is not n × d.
 */
export function sinkRows(chunks: readonly SinkChunk[], vectors: Float32Array, dimension: number, source?: string, embedder = ''): SinkRow[] {
  if (!Array.isArray(chunks)) throw new InvalidOptionError('chunks', chunks, 'an array of chunks');
  if (!(vectors instanceof Float32Array)) throw new InvalidOptionError('vectors', vectors, 'a Float32Array of n × d values');
  if (vectors.length !== chunks.length * dimension) {
    throw new InvalidOptionError('vectors', `${vectors.length} values`, `${chunks.length} chunks × ${dimension} dimensions = ${chunks.length * dimension} values`);
  }
  const rows = new Map<string, SinkRow>();
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i];
    const from = c.source ?? source;
    if (typeof from !== 'string' || from.length === 0) {
      throw new InvalidOptionError('source', from, `chunk ${i} (${c.id}) has no source: set chunk.source or options.source (rows are kept per document)`);
    }
    if (typeof c.id !== 'string' || typeof c.text !== 'string') throw new InvalidOptionError('chunks', c, `chunk ${i} is not a chunkwise chunk (id and text strings)`);
    rows.set(`${from}\u0000${c.id}`, {
      id: c.id,
      source: from,
      text: c.text,
      embedText: c.embedText ?? null,
      start: c.start,
      end: c.end,
      tokenCount: c.tokenCount,
      metadata: c.metadata,
      vector: vectors.slice(i * dimension, (i + 1) * dimension),
      embedder,
    });
  }
  return [...rows.values()];
}

/**
 * Writes chunks and their vectors to a sink, incrementally: creates the table when
 * missing; for each document, keeps the rows already stored with the same chunk id and
 * `embedder` (they are not rewritten); upserts the others in batches keyed by (source,
 * chunk id) — writing the same chunks twice leaves each once —; then (unless
 * `replace: false`) deletes the rows of each written source whose chunk is not among
 * `chunks`, so a changed document replaces its old chunks. Rows are upserted before
 * anything is deleted: a failure or a kill half-way leaves old and new chunks, never a
 * document without chunks, and the same call again ends as one clean call would.
 *
 * @param chunks chunks with their `source` (or give `options.source`).
 * @param vectors n × d row-major Float32Array, row i for chunk i (what `Embedder.embed`
 *   returns for the chunks' `embedText ?? text`).
 * @example
 * ```ts
 * const chunks = new RecursiveChunker({ chunkSize: 256 }).chunk(text);
 * const vectors = await embedder.embed(chunks.map((c) => c.embedText ?? c.text));
 * await writeChunks(sink, chunks, vectors, { source: 'guide.md', embedder: 'hashing:384' });
 * ```
 * @throws {InvalidOptionError} for mismatched vectors, a missing source or a bad option.
 * @throws {SinkError} from the sink (dimension disagreeing with the table, store errors).
 */
export async function writeChunks(sink: Sink, chunks: readonly SinkChunk[], vectors: Float32Array, options: WriteChunksOptions = {}): Promise<WriteChunksResult> {
  const batchSize = options.batchSize ?? sink.batchSize ?? 256;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new InvalidOptionError('batchSize', batchSize, 'an integer ≥ 1');
  const embedder = options.embedder ?? '';
  if (typeof embedder !== 'string') throw new InvalidOptionError('embedder', embedder, "the embedder's identity, a string such as 'hashing:384'");
  const n = Array.isArray(chunks) ? chunks.length : 0;
  const given = options.dimension === undefined ? undefined : requireDimension(options.dimension);
  const whole = [...(options.sources ?? []), ...(n === 0 && options.source !== undefined ? [options.source] : [])];
  if (n === 0) {
    let removed = 0;
    if (options.replace !== false && whole.length > 0) {
      const view = incrementalSink(sink);
      const empty = new Map([...new Set(whole)].map((source) => [source, new Set<string>()]));
      await view.forgetDocuments?.([...empty.keys()]);
      removed = await removeStale(view, empty, await view.storedMany([...empty.keys()]));
    }
    return { written: 0, kept: 0, removed, sources: new Set(whole).size, dimension: given ?? 0 };
  }
  if (!(vectors instanceof Float32Array)) throw new InvalidOptionError('vectors', vectors, 'a Float32Array of n × d values');
  const dimension = given ?? vectors.length / n;
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new InvalidOptionError('vectors', `${vectors.length} values`, `n × d values for n = ${n} chunks`);
  }
  const rows = sinkRows(chunks, vectors, requireDimension(dimension), options.source, embedder);
  await sink.prepare(dimension);
  const bySource = new Map<string, Set<string>>(whole.map((source) => [source, new Set<string>()]));
  for (const r of rows) {
    let ids = bySource.get(r.source);
    if (!ids) bySource.set(r.source, (ids = new Set()));
    ids.add(r.id);
  }
  const view = incrementalSink(sink);
  // what the sink holds of the written sources: one read (needed to keep rows, or to find stale ones)
  const replace = options.replace !== false;
  const stored = embedder !== '' || replace ? await view.storedMany([...bySource.keys()]) : new Map<string, Map<string, StoredChunk>>();
  const fresh = embedder === '' ? rows : rows.filter((r) => {
    const had = stored.get(r.source)?.get(r.id);
    return !(had?.embedder === embedder && samePlace(had, r));
  });
  // rows written outside pipeline(): the documents' records no longer tell what they hold
  if (fresh.length > 0 || replace) await view.forgetDocuments?.([...bySource.keys()]);
  for (let s = 0; s < fresh.length; s += batchSize) {
    await view.upsert(fresh.slice(s, s + batchSize));
    options.onProgress?.(Math.min(s + batchSize, fresh.length), fresh.length);
  }
  let removed = 0;
  if (replace) removed = await removeStale(view, bySource, stored);
  return { written: fresh.length, kept: rows.length - fresh.length, removed, sources: bySource.size, dimension };
}

/**
 * Deletes the stored rows of each source whose id is not in its `keep` set (`stored`:
 * what the sink held, read before the new rows were written), in one `removeRows`.
 * @returns the number of rows deleted.
 */
export async function removeStale(sink: IncrementalSink, keep: ReadonlyMap<string, ReadonlySet<string>>, stored: ReadonlyMap<string, ReadonlyMap<string, unknown>>): Promise<number> {
  const stale = new Map<string, string[]>();
  for (const [source, ids] of keep) {
    const gone = [...(stored.get(source)?.keys() ?? [])].filter((id) => !ids.has(id));
    if (gone.length > 0) stale.set(source, gone);
  }
  return stale.size > 0 ? sink.removeRows(stale) : 0;
}
