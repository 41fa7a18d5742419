/**
 * `chunkwise/sinks/lancedb`: a {@link Sink} over LanceDB, embedded (a folder on disk, no
 * server). Node only: `@lancedb/lancedb` is a native module. Optional peer
 * dependencies: `@lancedb/lancedb` (tested with 0.31.0) and its `apache-arrow`.
 *
 * Table schema: `id` Utf8, `source` Utf8, `text` Utf8, `embed_text` Utf8 (nullable),
 * `start` Int32, `end` Int32, `token_count` Int32, `metadata` Utf8 (JSON), `vector`
 * FixedSizeList<Float32>[d], `embedder` Utf8. Rows are upserted with
 * `mergeInsert(['source', 'id'])`, one table version per upsert.
 *
 * Several processes may write one table: in a local folder, each write (upsert, delete,
 * table creation) holds the lock file `chunkwise-<table>.lock` in the folder, so that
 * writes happen one after another (LanceDB's own concurrent `mergeInsert`s of new keys
 * would both insert them), and every read checks for the other writers' versions
 * (`readConsistencyInterval: 0`). Object storage (`s3://…`) has no such lock: write a
 * table there from one process at a time.
 * @module
 */
import { stat } from 'node:fs/promises';
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Int32, Schema, Utf8 } from 'apache-arrow';
import { firstLine, SinkError } from '../engine/errors.js';
import { withFolderLock } from '../apps/node/lock-file.js';
import { byPlace, distinctSorted, requireDimension, rowFromStored, requireTableName, searchArgs, storedFromRecord, vectorFromStored, type Sink, type SinkMatch, type SinkRow, type StoredChunk } from './types.js';

/** Options of {@link LanceDbSink.open}. */
export interface LanceDbSinkOptions {
  /** Table name (letters, digits, `_`). Default `chunks`. */
  table?: string;
}

/** The table's Arrow schema for vectors of `dimension` values. */
export function lanceSchema(dimension: number): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('source', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field('embed_text', new Utf8(), true),
    new Field('start', new Int32(), false),
    new Field('end', new Int32(), false),
    new Field('token_count', new Int32(), false),
    new Field('metadata', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
    new Field('embedder', new Utf8(), true),
  ]);
}

/**
 * One line of a LanceDB error: the first line without the chain of causes and the
 * Rust source locations the native messages carry.
 */
export function lanceReason(error: unknown): string {
  return firstLine(error)
    .split(/\s+Caused by:/)[0]
    .replace(/,\s*\/\S+\.rs:\d+:\d+/g, '')
    .trim();
}

/** A SQL string literal for LanceDB filters (quotes doubled). */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * Chunks in a LanceDB table. Open with {@link LanceDbSink.open}, write with
 * `writeChunks(sink, chunks, vectors)`, query with {@link LanceDbSink.search} or the
 * LanceDB table itself ({@link LanceDbSink.table}).
 *
 * @example
 * ```ts
 * const sink = await LanceDbSink.open('./vectors', { table: 'chunks' });
 * await writeChunks(sink, chunks, vectors, { source: 'guide.md' });
 * const [best] = await sink.search(queryVector, 1);
 * await sink.close();
 * ```
 */
export class LanceDbSink implements Sink {
  readonly name: string;
  /** Each upsert is a new table version: fewer, larger batches keep the table compact. */
  readonly batchSize = 8192;
  readonly uri: string;
  readonly tableName: string;
  readonly #db: lancedb.Connection;
  #table: lancedb.Table | undefined;
  /** Whether `uri` is a local folder (writes take its lock file). */
  readonly #local: boolean;

  private constructor(db: lancedb.Connection, uri: string, tableName: string, table: lancedb.Table | undefined, local: boolean) {
    this.#db = db;
    this.#local = local;
    this.uri = uri;
    this.tableName = tableName;
    this.#table = table;
    this.name = `lancedb:${uri} table ${tableName}`;
  }

  /**
   * Opens (or creates, on first write) the database folder `uri` and its table.
   * @throws {SinkError} when the folder cannot be opened (a file in the way, no permission).
   * @throws {InvalidOptionError} for a bad table name.
   */
  static async open(uri: string, options: LanceDbSinkOptions = {}): Promise<LanceDbSink> {
    const tableName = requireTableName(options.table ?? 'chunks');
    const name = `lancedb:${uri}`;
    let db: lancedb.Connection;
    let table: lancedb.Table | undefined;
    const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri);
    if (local) {
      // a local folder: LanceDB would take seconds to fail on a file, with a long message
      const info = await stat(uri).catch(() => undefined);
      if (info && !info.isDirectory()) throw new SinkError(name, 'cannot open the database: the path is a file, not a folder');
    }
    try {
      db = await lancedb.connect(uri, { readConsistencyInterval: 0 });
      if ((await db.tableNames()).includes(tableName)) table = await db.openTable(tableName);
    } catch (error) {
      throw new SinkError(name, `cannot open the database: ${lanceReason(error)}`);
    }
    return new LanceDbSink(db, uri, tableName, table, local);
  }

  /** The LanceDB table (undefined until the first {@link prepare} of a new table). */
  get table(): lancedb.Table | undefined {
    return this.#table;
  }

  /** Vector dimension of the existing table, or undefined when there is none. */
  async dimension(): Promise<number | undefined> {
    if (!this.#table) return undefined;
    const field = (await this.#table.schema()).fields.find((f) => f.name === 'vector');
    return field && FixedSizeList.isFixedSizeList(field.type) ? field.type.listSize : undefined;
  }

  /**
   * Creates the table when missing; adds the `embedder` column (`''` for the rows already
   * there) to a table made before it (LanceDB schema evolution, a new table version).
   */
  async prepare(dimension: number): Promise<void> {
    requireDimension(dimension);
    if (this.#table) {
      let schema = await this.#table.schema();
      if (!schema.fields.some((f) => f.name === 'embedder') && schema.fields.some((f) => f.name === 'vector')) {
        const table = this.#table;
        await this.#run('add the embedder column', () => this.#writing(async () => {
          if (!(await table.schema()).fields.some((f) => f.name === 'embedder')) await table.addColumns([{ name: 'embedder', valueSql: "''" }]);
        }));
        schema = await table.schema();
      }
      const names = new Set(schema.fields.map((f) => f.name));
      const missing = lanceSchema(dimension).fields.map((f) => f.name).filter((n) => !names.has(n));
      if (missing.length > 0) throw new SinkError(this.name, `the table exists but lacks the column(s) ${missing.join(', ')}: not a chunkwise table`);
      const existing = await this.dimension();
      if (existing !== dimension) throw new SinkError(this.name, `the table holds vectors of dimension ${existing}, these chunks have ${dimension} (use another --table or the same embedder)`);
      return;
    }
    try {
      this.#table = await this.#writing(() => this.#db.createEmptyTable(this.tableName, lanceSchema(dimension), { existOk: true }));
    } catch (error) {
      throw new SinkError(this.name, `cannot create the table: ${lanceReason(error)}`);
    }
    const existing = await this.dimension();
    if (existing !== dimension) throw new SinkError(this.name, `the table holds vectors of dimension ${existing}, these chunks have ${dimension}`);
  }

  async upsert(rows: readonly SinkRow[]): Promise<void> {
    if (rows.length === 0) return;
    const table = this.#requireTable();
    const schema = await this.#run('read the table', () => table.schema());
    const data = lancedb.makeArrowTable(
      rows.map((r) => ({
        id: r.id,
        source: r.source,
        text: r.text,
        embed_text: r.embedText,
        start: r.start,
        end: r.end,
        token_count: r.tokenCount,
        metadata: JSON.stringify(r.metadata),
        vector: Array.from(r.vector),
        embedder: r.embedder ?? '',
      })),
      { schema },
    );
    await this.#run('write rows', () => this.#writing(() => table.mergeInsert(['source', 'id']).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data)));
  }

  async removeStale(source: string, keep: ReadonlySet<string>): Promise<number> {
    const table = this.#table;
    if (!table) return 0;
    const where = `source = ${literal(source)}`;
    return this.#run('delete rows', () => this.#writing(async () => {
      const stored = (await table.query().where(where).select(['id']).toArray()) as { id: string }[];
      const stale = stored.map((r) => r.id).filter((id) => !keep.has(id));
      for (let s = 0; s < stale.length; s += 500) {
        await table.delete(`${where} AND id IN (${stale.slice(s, s + 500).map(literal).join(', ')})`);
      }
      return stale.length;
    }));
  }

  async stored(source: string): Promise<Map<string, StoredChunk>> {
    const table = this.#table;
    if (!table) return new Map();
    const has = (await this.#run('read the table', () => table.schema())).fields.some((f) => f.name === 'embedder');
    const columns = ['id', 'start', 'end', 'token_count', 'metadata', ...(has ? ['embedder'] : [])];
    const stored = await this.#run('read rows', async () => (await table.query().where(`source = ${literal(source)}`).select(columns).toArray()) as Record<string, unknown>[]);
    return new Map(stored.map((r) => [r.id as string, storedFromRecord(r)]));
  }

  async vectors(source: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    const table = this.#table;
    const out = new Map<string, Float32Array>();
    if (!table) return out;
    for (let s = 0; s < ids.length; s += 500) {
      const where = `source = ${literal(source)} AND id IN (${ids.slice(s, s + 500).map(literal).join(', ')})`;
      const stored = await this.#run('read rows', async () => (await table.query().where(where).select(['id', 'vector']).toArray()) as { id: string; vector: unknown }[]);
      for (const r of stored) out.set(r.id, vectorFromStored(r.vector));
    }
    return out;
  }

  async sources(): Promise<string[]> {
    const table = this.#table;
    if (!table) return [];
    const stored = await this.#run('read rows', async () => (await table.query().select(['source']).toArray()) as { source: string }[]);
    return distinctSorted(stored.map((r) => r.source));
  }

  async removeSources(sources: readonly string[]): Promise<number> {
    const table = this.#table;
    if (!table || sources.length === 0) return 0;
    return this.#run('delete rows', () => this.#writing(async () => {
      let removed = 0;
      for (let s = 0; s < sources.length; s += 500) {
        const where = `source IN (${sources.slice(s, s + 500).map(literal).join(', ')})`;
        removed += (await table.delete(where)).numDeletedRows;
      }
      return removed;
    }));
  }

  async search(vector: Float32Array | readonly number[], k = 5): Promise<SinkMatch[]> {
    const query = searchArgs(vector, k);
    const table = this.#table;
    if (!table) return [];
    const rows = await this.#run('search', async () => (await table.vectorSearch(query).distanceType('cosine').limit(k).select(['id', 'source', 'text', 'start', 'end', '_distance']).toArray()) as (SinkMatch & { _distance: number })[]);
    return rows.map((r) => ({ id: r.id, source: r.source, text: r.text, start: r.start, end: r.end, distance: r._distance }));
  }

  async count(): Promise<number> {
    const table = this.#table;
    return table ? this.#run('count rows', () => table.countRows()) : 0;
  }

  async rows(source?: string): Promise<SinkRow[]> {
    const table = this.#table;
    if (!table) return [];
    const query = source === undefined ? table.query() : table.query().where(`source = ${literal(source)}`);
    const stored = await this.#run('read rows', async () => (await query.toArray()) as Record<string, unknown>[]);
    return stored.map(rowFromStored).sort(byPlace);
  }

  /** Runs a write holding the folder's write lock (local folders; others as they are). */
  #writing<T>(write: () => Promise<T>): Promise<T> {
    return this.#local ? withFolderLock(this.uri, `chunkwise-${this.tableName}.lock`, write) : write();
  }

  /** Runs an engine call, its error as a one-line {@link SinkError}. */
  async #run<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new SinkError(this.name, `cannot ${what}: ${lanceReason(error)}`);
    }
  }

  async close(): Promise<void> {
    this.#table?.close();
    this.#db.close();
  }

  #requireTable(): lancedb.Table {
    if (!this.#table) throw new SinkError(this.name, 'call prepare(dimension) before upsert (writeChunks does)');
    return this.#table;
  }
}
