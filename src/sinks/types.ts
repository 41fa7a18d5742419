/**
 * Sinks: where chunks and their vectors go after chunking and embedding (the last step
 * of the flow). A sink is a table in a vector store with one row per chunk;
 * {@link writeChunks} feeds any {@link Sink}. Core module: no Node built-in, no engine.
 * @module
 */
import { InvalidOptionError } from '../engine/errors.js';
import { NUL_REPLACEMENT } from './nul.js';

/**
 * One row of a sink's table: a chunk, where it came from and its vector.
 *
 * Column names in the stores are snake_case (`embed_text`, `token_count`); the row key
 * is (`source`, `id`): chunk ids depend on the text only, so two files with the same
 * text (or, with prefix-hash ids, the same opening) would otherwise share rows.
 */
export interface SinkRow {
  /** The chunk's id (a stable string; its format is not part of the contract). */
  id: string;
  /** The document the chunk was cut from (a file name, a URL, any key of yours). */
  source: string;
  /** `chunk.text`: exactly `source text.slice(start, end)`. */
  text: string;
  /** `chunk.embedText` where the chunker made one (the text that was embedded), else null. */
  embedText: string | null;
  /** UTF-16 offset of the chunk's first code unit in its source, inclusive. */
  start: number;
  /** UTF-16 offset of the chunk's end in its source, exclusive. */
  end: number;
  /** Tokens of `text` in the chunker's encoding (-1 when not counted). */
  tokenCount: number;
  /** `chunk.metadata` (stored as JSON). */
  metadata: Record<string, unknown>;
  /** The chunk's vector, `dimension` values. */
  vector: Float32Array;
  /**
   * Identity of the embedder that made `vector` (e.g. `hashing:256`), stored in the
   * `embedder` column; `''` when unknown (rows of a table made before the column, or
   * written without an identity), which never counts as the same embedder.
   */
  embedder: string;
}

/**
 * What {@link Sink.stored} tells of one stored row: the embedder of its vector and the
 * columns that depend on where the chunk sits in its document. A chunk keeps its id
 * when text before it changes (ids hash the chunk's own text), so a rerun compares
 * these with the new chunk ({@link samePlace}) to find kept rows that moved.
 */
export interface StoredChunk {
  /** {@link SinkRow.embedder}: identity of the embedder that made the row's vector. */
  embedder: string;
  /** {@link SinkRow.start}, UTF-16 code units. */
  start: number;
  /** {@link SinkRow.end}, UTF-16 code units. */
  end: number;
  /** {@link SinkRow.tokenCount}. */
  tokenCount: number;
  /** {@link SinkRow.metadata} as stored (its `index`, line numbers, heading path). */
  metadata: Record<string, unknown>;
}

/**
 * JSON with object keys sorted (jsonb reorders keys; JSON text keeps them) and U+0000 as
 * the U+FFFD sinks store in its place: equal for equal values, and for a chunk and its
 * stored row.
 */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'string'
      ? v.replaceAll('\0', NUL_REPLACEMENT)
      : v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k.replaceAll('\0', NUL_REPLACEMENT), x] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
  );
}

/**
 * Whether a stored row sits where `chunk` does: the same start, end, token count and
 * metadata (compared as JSON, key order aside). A kept chunk for which this is false is
 * rewritten with its stored vector, so the row ends as a clean run would write it.
 */
export function samePlace(stored: StoredChunk, chunk: { start: number; end: number; tokenCount: number; metadata: Record<string, unknown> }): boolean {
  return stored.start === chunk.start && stored.end === chunk.end && stored.tokenCount === chunk.tokenCount && sortedJson(stored.metadata) === sortedJson(chunk.metadata);
}

/** A {@link StoredChunk} from a stored record with the table's snake_case columns (`metadata` as JSON text or jsonb). */
export function storedFromRecord(r: Record<string, unknown>): StoredChunk {
  const m = r.metadata;
  return {
    embedder: (r.embedder as string | null | undefined) ?? '',
    start: r.start as number,
    end: r.end as number,
    tokenCount: r.token_count as number,
    metadata: (typeof m === 'string' ? JSON.parse(m) : m) as Record<string, unknown>,
  };
}

/**
 * What a sink remembers of a document the last run synced whole ({@link Sink.documents}):
 * a rerun that finds the same content hash, embedder and chunking skips the document
 * before reading or chunking it, and counts its `chunks` rows as kept.
 */
export interface DocumentRecord {
  /** The document's key ({@link SinkRow.source}). */
  source: string;
  /** A hash of the document's content (the CLI: SHA-256 of the file's bytes). */
  contentHash: string;
  /** Identity of the embedder of its rows' vectors. */
  embedder: string;
  /** A hash of the chunking's identity (strategy, options, refine step). */
  chunking: string;
  /** Rows the document has in the table. */
  chunks: number;
}

/** Chunk ids by source: the keys of a batch of rows ({@link Sink.vectorsMany}, {@link Sink.removeRows}). */
export type RowKeys = ReadonlyMap<string, readonly string[]>;

/**
 * The name of the table beside `table` that holds its {@link DocumentRecord}s:
 * `<table>_documents`, with a long name shortened (a hash of it kept) to stay within
 * 63 characters.
 */
export function documentsTableName(table: string): string {
  const suffix = '_documents';
  if (table.length + suffix.length <= 63) return table + suffix;
  let h = 0x811c9dc5;
  for (let i = 0; i < table.length; i++) h = Math.imul(h ^ table.charCodeAt(i), 0x01000193);
  return `${table.slice(0, 63 - suffix.length - 9)}_${(h >>> 0).toString(16).padStart(8, '0')}${suffix}`;
}

/** A stored chunk found by a nearest-neighbour query, with its cosine distance (1 − cos). */
export interface SinkMatch {
  id: string;
  source: string;
  text: string;
  start: number;
  end: number;
  /** The row's {@link SinkRow.metadata}: the chunk's heading path, pages, line numbers… as stored. */
  metadata: Record<string, unknown>;
  /** Cosine distance to the query vector: 0 for the same direction, up to 2. */
  distance: number;
}

/**
 * A table of chunk rows in a vector store. Implementations: `LanceDbSink`
 * (`chunkwise/sinks/lancedb`), `PgVectorSink` (`chunkwise/sinks/pgvector`, over PGlite
 * from `chunkwise/sinks/pglite`, a Postgres server from `chunkwise/sinks/postgres`, or any
 * Postgres client with pgvector).
 */
export interface Sink {
  /** What the sink writes to, for messages: `lancedb:<dir> table chunks`. */
  readonly name: string;
  /** Rows per upsert the store handles best; {@link writeChunks}' default batch size (else 256). */
  readonly batchSize?: number;
  /**
   * Makes the table ready for vectors of `dimension` values: creates it when missing.
   * @throws {SinkError} when an existing table's vectors have another dimension or it
   *   lacks a column, or the store cannot be written.
   */
  prepare(dimension: number): Promise<void>;
  /**
   * Inserts rows, replacing rows with the same (`source`, `id`), in one atomic write
   * (one statement, one table version): a batch is stored whole or not at all, and
   * concurrent writers of the same key leave it once. Rows are distinct by that key.
   */
  upsert(rows: readonly SinkRow[]): Promise<void>;
  /**
   * The rows stored for `source`: chunk id → the embedder that made its vector and the
   * row's place ({@link StoredChunk}: start, end, token count, metadata; not its text or
   * vector); an empty map when the table is missing. A rerun keeps the chunks found here
   * with the same id and embedder instead of embedding them again, and rewrites those
   * whose place moved with the vector {@link vectors} reads.
   */
  stored(source: string): Promise<Map<string, StoredChunk>>;
  /**
   * The stored vectors of the rows of `source` with the given `ids` (id → vector); ids
   * without a row are absent. Reads those rows only (a batch's moved chunks).
   */
  vectors(source: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Every source with rows in the table (none when it is missing), sorted. */
  sources(): Promise<string[]>;
  /**
   * Deletes every row of `sources` (documents gone from the corpus); a missing table has
   * nothing to delete.
   * @returns the number of rows deleted.
   */
  removeSources(sources: readonly string[]): Promise<number>;
  /**
   * Deletes the rows of `source` whose id is not in `keep` (the chunks of a document
   * that changed); a missing table has nothing to delete.
   * @returns the number of rows deleted.
   */
  removeStale(source: string, keep: ReadonlySet<string>): Promise<number>;
  /**
   * {@link stored} of many sources in one read: source → (id → stored chunk); a source
   * without rows maps to an empty map. Optional: `incrementalSink` answers it with one
   * `stored` call per source.
   */
  storedMany?(sources: readonly string[]): Promise<Map<string, Map<string, StoredChunk>>>;
  /**
   * {@link vectors} of many sources in one read: source → (id → vector); rows that do not
   * exist are absent. Optional (`incrementalSink`: one `vectors` call per source).
   */
  vectorsMany?(keys: RowKeys): Promise<Map<string, Map<string, Float32Array>>>;
  /**
   * Deletes exactly the rows with these keys (source → ids), in one write where the store
   * allows it; keys without a row are ignored. Optional (`incrementalSink`: `removeStale`
   * per source, keeping the source's other stored ids).
   * @returns the number of rows deleted.
   */
  removeRows?(keys: RowKeys): Promise<number>;
  /**
   * The {@link DocumentRecord}s of these sources that the table keeps (those without one
   * are absent). Optional: a sink without it makes every document be read and chunked on
   * every run (its unchanged chunks are still kept, not embedded).
   */
  documents?(sources: readonly string[]): Promise<Map<string, DocumentRecord>>;
  /** Stores records (replacing those of the same source), after the documents' rows are written. Optional, with {@link documents}. */
  writeDocuments?(records: readonly DocumentRecord[]): Promise<void>;
  /**
   * Drops the records of these sources, before their rows change (so that a run stopped
   * half-way is not skipped by the next). {@link removeSources} drops them too.
   */
  forgetDocuments?(sources: readonly string[]): Promise<void>;
  /**
   * Called at the end of a run that wrote: the store's upkeep (LanceDB compacts the table's
   * files and drops old versions after many writes). Optional.
   */
  optimize?(): Promise<void>;
  /**
   * Code points U+0000 this sink has replaced by U+FFFD in the text, embed text and
   * metadata of the rows it wrote (Postgres text and jsonb cannot hold U+0000; every sink
   * stores the same, see `chunkwise/sinks`' NUL_REPLACEMENT). Optional: a sink without it replaces none.
   */
  readonly nulReplaced?: number;
  /** The `k` rows nearest to `vector` by cosine distance, nearest first, each with its stored metadata ({@link SinkMatch}). */
  search(vector: Float32Array | readonly number[], k?: number): Promise<SinkMatch[]>;
  /** Rows in the table (0 when it does not exist yet). */
  count(): Promise<number>;
  /** The stored rows (of `source`, or all), ordered by source and start: for inspection, not for large tables. */
  rows(source?: string): Promise<SinkRow[]>;
  /** Releases the store (the sink cannot be used afterwards). */
  close(): Promise<void>;
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Checks a table name: letters, digits and `_`, not starting with a digit, at most 63
 * characters (a name every store takes as it is, and safe to quote in SQL).
 * @throws {InvalidOptionError} otherwise.
 */
export function requireTableName(table: unknown): string {
  if (typeof table !== 'string' || !TABLE_NAME.test(table)) {
    throw new InvalidOptionError('table', table, 'letters, digits and _, not starting with a digit, at most 63 characters');
  }
  return table;
}

/** Checks a vector dimension (an integer from 1 to 65536). @throws {InvalidOptionError} */
export function requireDimension(dimension: unknown): number {
  if (typeof dimension !== 'number' || !Number.isInteger(dimension) || dimension < 1 || dimension > 65536) {
    throw new InvalidOptionError('dimension', dimension, 'an integer from 1 to 65536');
  }
  return dimension;
}

/** Checks a query vector and `k` for {@link Sink.search}; returns the vector as numbers. */
export function searchArgs(vector: Float32Array | readonly number[], k: number): number[] {
  if (!(vector instanceof Float32Array) && !Array.isArray(vector)) throw new InvalidOptionError('vector', vector, 'a Float32Array or an array of numbers');
  if (!Number.isInteger(k) || k < 1) throw new InvalidOptionError('k', k, 'an integer ≥ 1');
  const out = Array.from(vector as ArrayLike<number>);
  if (out.some((v) => typeof v !== 'number' || !Number.isFinite(v))) throw new InvalidOptionError('vector', vector, 'finite numbers');
  return out;
}

/** Sorted distinct values (for {@link Sink.sources}). */
export function distinctSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Order of {@link Sink.rows}: by source, then start, then end, then id. */
export function byPlace(a: SinkRow, b: SinkRow): number {
  if (a.source !== b.source) return a.source < b.source ? -1 : 1;
  return a.start - b.start || a.end - b.end || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * A {@link SinkRow} from a stored record with the table's snake_case columns: `metadata`
 * as a JSON string or an object (jsonb), `vector` as pgvector's text `[…]` or any
 * iterable of numbers (an Arrow vector).
 */
export function rowFromStored(r: Record<string, unknown>): SinkRow {
  const { embedder, start, end, tokenCount, metadata } = storedFromRecord(r);
  return {
    id: r.id as string,
    source: r.source as string,
    text: r.text as string,
    embedText: (r.embed_text as string | null | undefined) ?? null,
    start,
    end,
    tokenCount,
    metadata,
    vector: vectorFromStored(r.vector),
    embedder,
  };
}

/** A stored vector as a Float32Array: pgvector's text `[…]` or any iterable of numbers (an Arrow vector). */
export function vectorFromStored(v: unknown): Float32Array {
  return Float32Array.from(typeof v === 'string' ? (JSON.parse(v) as number[]) : (v as Iterable<number>));
}
