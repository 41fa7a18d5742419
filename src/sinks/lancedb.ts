/**
 * `chunkwise/sinks/lancedb`: a {@link Sink} over LanceDB, embedded (a folder on disk, no
 * server). Node only: `@lancedb/lancedb` is a native module. Optional peer
 * dependencies: `@lancedb/lancedb` (tested with 0.31.0) and its `apache-arrow`.
 *
 * Table schema: `id` Utf8, `source` Utf8, `text` Utf8, `embed_text` Utf8 (nullable),
 * `start` Int32, `end` Int32, `token_count` Int32, `metadata` Utf8 (JSON), `vector`
 * FixedSizeList<Float32>[d], `embedder` Utf8. Rows are upserted with
 * `mergeInsert(['source', 'id'])`, or appended with `add()` when the table holds none of
 * their keys, one table version per upsert; `optimize()` compacts the versions of a run
 * (see {@link LanceDbSink.optimize}). Beside it, `<table>_documents` holds the
 * {@link DocumentRecord}s that let a rerun skip unchanged documents.
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
import { createRequire } from 'node:module';
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Int32, Schema, Utf8, type Data, type DataType, type Table as ArrowTable } from 'apache-arrow';
import { firstLine, SinkError } from '../engine/errors.js';
import { withFolderLock } from './lock-file.js';
import { replaceNulInRows } from './nul.js';
import { byPlace, distinctSorted, documentsTableName, requireDimension, rowFromStored, requireTableName, searchArgs, storedFromRecord, vectorFromStored, type DocumentRecord, type RowKeys, type Sink, type SinkMatch, type SinkRow, type StoredChunk } from './types.js';

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

/** The schema of the documents table beside the chunks ({@link DocumentRecord}s). */
export function lanceDocumentsSchema(): Schema {
  return new Schema([
    new Field('source', new Utf8(), false),
    new Field('content_hash', new Utf8(), false),
    new Field('embedder', new Utf8(), false),
    new Field('chunking', new Utf8(), false),
    new Field('chunks', new Int32(), false),
  ]);
}

/** Keys per filter of a read or delete by key (the SQL stays a few hundred KB). */
const KEYS_PER_FILTER = 4096;
/** Writes of the chunks table after which {@link LanceDbSink.optimize} compacts the table and drops old versions. */
const OPTIMIZE_AFTER_WRITES = 8;
/** Rows from which the table gets a scalar (btree) index on `source`. */
const INDEX_FROM_ROWS = 10_000;

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

/** Filters matching `sources`, each for at most {@link KEYS_PER_FILTER} of them. */
function sourceFilters(sources: readonly string[]): string[] {
  const out: string[] = [];
  for (let s = 0; s < sources.length; s += KEYS_PER_FILTER) out.push(`source IN (${sources.slice(s, s + KEYS_PER_FILTER).map(literal).join(', ')})`);
  return out;
}

/** Filters matching the rows of `keys` (source → ids), each for about {@link KEYS_PER_FILTER} ids. */
function keyFilters(keys: RowKeys): string[] {
  const out: string[] = [];
  let terms: string[] = [];
  let n = 0;
  for (const [source, ids] of keys) {
    for (let s = 0; s < ids.length; s += KEYS_PER_FILTER) {
      const part = ids.slice(s, s + KEYS_PER_FILTER);
      terms.push(`(source = ${literal(source)} AND id IN (${part.map(literal).join(', ')}))`);
      n += part.length;
      if (n >= KEYS_PER_FILTER) {
        out.push(terms.join(' OR '));
        terms = [];
        n = 0;
      }
    }
  }
  if (terms.length > 0) out.push(terms.join(' OR '));
  return out;
}

/**
 * The apache-arrow module that `@lancedb/lancedb` itself loads (CommonJS, where this
 * module's `import` gets the ES build: two sets of classes, and LanceDB takes a table
 * whole only when it is an instance of its own `Table`). Undefined when it cannot be
 * loaded that way or LanceDB does not take its tables (then {@link arrowRows} is not used).
 */
const lanceArrow: typeof import('apache-arrow') | undefined = (() => {
  try {
    const arrow = createRequire(createRequire(import.meta.url).resolve('@lancedb/lancedb'))('apache-arrow') as typeof import('apache-arrow');
    return lancedb.makeArrowTable([], { schema: lanceSchema(1) }) instanceof arrow.Table ? arrow : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * `rows` as an Arrow table of `schema` (the table's, as LanceDB reads it), built column by
 * column with LanceDB's own apache-arrow: the vectors one Float32Array (n × d) under the
 * FixedSizeList, no per-row JavaScript array or type inference (what `makeArrowTable` of
 * row objects does: 4–8× the CPU, 2,048 rows of 384 dimensions). Without that module,
 * `makeArrowTable` as before.
 */
function arrowRows(rows: readonly SinkRow[], schema: Schema): ArrowTable {
  const arrow = lanceArrow;
  if (!arrow) return lancedb.makeArrowTable(rows.map((r) => ({ ...rowRecord(r), vector: Array.from(r.vector) })), { schema });
  const n = rows.length;
  const records = rows.map(rowRecord);
  const column = (field: Field): Data => {
    const type = field.type as DataType;
    if (arrow.FixedSizeList.isFixedSizeList(type)) {
      const d = type.listSize;
      const flat = new Float32Array(n * d);
      rows.forEach((r, i) => flat.set(r.vector, i * d));
      return arrow.makeData({ type, length: n, nullCount: 0, child: arrow.makeData({ type: type.children[0].type as Float32, length: n * d, nullCount: 0, data: flat }) });
    }
    // one chunk: the builder of an array of values has no high-water mark by count
    const [data, ...more] = arrow.vectorFromArray(records.map((r) => r[field.name as keyof typeof r] ?? null) as (string | number | null)[], type).data;
    if (more.length > 0) throw new SinkError('lancedb', `column ${field.name} came out in ${more.length + 1} pieces`);
    return data;
  };
  const children = schema.fields.map(column);
  return new arrow.Table(schema, [new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(schema.fields), length: n, nullCount: 0, children }))]) as unknown as ArrowTable;
}

/** The columns of a row but its vector, by the table's column names. */
function rowRecord(r: SinkRow) {
  return { id: r.id, source: r.source, text: r.text, embed_text: r.embedText, start: r.start, end: r.end, token_count: r.tokenCount, metadata: JSON.stringify(r.metadata), embedder: r.embedder ?? '' };
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
  /**
   * Each upsert is a new table version: fewer, larger batches keep the table compact;
   * 2048 rows (a few MB of vectors) keep memory small.
   */
  readonly batchSize = 2048;
  readonly uri: string;
  readonly tableName: string;
  readonly #db: lancedb.Connection;
  #table: lancedb.Table | undefined;
  /** The table of {@link DocumentRecord}s (undefined until the first record is written). */
  #documents: lancedb.Table | undefined;
  /** Whether `uri` is a local folder (writes take its lock file). */
  readonly #local: boolean;
  /** Writes of the chunks table (its versions) since the last {@link optimize}. */
  #writes = 0;
  /** {@link Sink.nulReplaced}: LanceDB could store U+0000, but every sink stores the same text. */
  nulReplaced = 0;

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
      this.#table = await this.#writing(async () => {
        const names = await this.#db.tableNames();
        // records of a table that is gone tell nothing of the new one
        if (!names.includes(this.tableName) && names.includes(documentsTableName(this.tableName))) await this.#db.dropTable(documentsTableName(this.tableName));
        return this.#db.createEmptyTable(this.tableName, lanceSchema(dimension), { existOk: true });
      });
    } catch (error) {
      throw new SinkError(this.name, `cannot create the table: ${lanceReason(error)}`);
    }
    const existing = await this.dimension();
    if (existing !== dimension) throw new SinkError(this.name, `the table holds vectors of dimension ${existing}, these chunks have ${dimension}`);
  }

  /** Upserts rows; a U+0000 in text or metadata is stored as U+FFFD and counted ({@link nulReplaced}), as in every sink. */
  async upsert(rows: readonly SinkRow[]): Promise<void> {
    const clean = replaceNulInRows(rows);
    await this.#upsert(clean.rows);
    this.nulReplaced += clean.replaced;
  }

  async #upsert(rows: readonly SinkRow[]): Promise<void> {
    if (rows.length === 0) return;
    const table = this.#requireTable();
    const schema = await this.#run('read the table', () => table.schema());
    const data = arrowRows(rows, schema);
    const keys = new Set(rows.map((r) => `${r.source}\u0000${r.id}`));
    await this.#run('write rows', () => this.#merge(table, data, ['source', 'id'], [...new Set(rows.map((r) => r.source))], (r) => keys.has(`${r.source}\u0000${r.id}`)));
    this.#writes++;
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
        this.#writes++;
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

  /** One scan of the rows of `sources` (a filter per 4,096 sources), their place columns only. */
  async storedMany(sources: readonly string[]): Promise<Map<string, Map<string, StoredChunk>>> {
    const out = new Map(sources.map((source) => [source, new Map<string, StoredChunk>()]));
    const table = this.#table;
    if (!table || sources.length === 0) return out;
    const has = (await this.#run('read the table', () => table.schema())).fields.some((f) => f.name === 'embedder');
    const columns = ['source', 'id', 'start', 'end', 'token_count', 'metadata', ...(has ? ['embedder'] : [])];
    for (const where of sourceFilters(sources)) {
      const stored = await this.#read('read rows', async () => (await table.query().where(where).select(columns).toArray()) as Record<string, unknown>[]);
      for (const r of stored) out.get(r.source as string)?.set(r.id as string, storedFromRecord(r));
    }
    return out;
  }

  async vectorsMany(keys: RowKeys): Promise<Map<string, Map<string, Float32Array>>> {
    const out = new Map<string, Map<string, Float32Array>>();
    const table = this.#table;
    if (!table) return out;
    for (const where of keyFilters(keys)) {
      const stored = await this.#read('read rows', async () => (await table.query().where(where).select(['source', 'id', 'vector']).toArray()) as { source: string; id: string; vector: unknown }[]);
      for (const r of stored) {
        let m = out.get(r.source);
        if (!m) out.set(r.source, (m = new Map()));
        m.set(r.id, vectorFromStored(r.vector));
      }
    }
    return out;
  }

  /** One delete (one table version) per 4,096 keys. */
  async removeRows(keys: RowKeys): Promise<number> {
    const table = this.#table;
    const filters = keyFilters(keys);
    if (!table || filters.length === 0) return 0;
    return this.#run('delete rows', () => this.#writing(async () => {
      let removed = 0;
      for (const where of filters) {
        removed += (await table.delete(where)).numDeletedRows;
        this.#writes++;
      }
      return removed;
    }));
  }

  /** The records of `sources` in the table `<table>_documents` (none before it exists). */
  async documents(sources: readonly string[]): Promise<Map<string, DocumentRecord>> {
    const out = new Map<string, DocumentRecord>();
    const docs = await this.#documentsTable(false);
    if (!docs || sources.length === 0) return out;
    for (const where of sourceFilters(sources)) {
      const rows = await this.#read('read documents', async () => (await docs.query().where(where).toArray()) as Record<string, unknown>[]);
      for (const r of rows) {
        out.set(r.source as string, { source: r.source as string, contentHash: r.content_hash as string, embedder: r.embedder as string, chunking: r.chunking as string, chunks: r.chunks as number });
      }
    }
    return out;
  }

  async writeDocuments(records: readonly DocumentRecord[]): Promise<void> {
    if (records.length === 0) return;
    const docs = (await this.#documentsTable(true))!;
    const data = lancedb.makeArrowTable(
      records.map((r) => ({ source: r.source, content_hash: r.contentHash, embedder: r.embedder, chunking: r.chunking, chunks: r.chunks })),
      { schema: lanceDocumentsSchema() },
    );
    await this.#run('write documents', () => this.#merge(docs, data, ['source'], records.map((r) => r.source), () => true));
  }

  async forgetDocuments(sources: readonly string[]): Promise<void> {
    const docs = await this.#documentsTable(false);
    if (!docs || sources.length === 0) return;
    await this.#run('write documents', () => this.#writing(async () => {
      for (const where of sourceFilters(sources)) await docs.delete(where);
    }));
  }

  /**
   * After {@link OPTIMIZE_AFTER_WRITES} or more writes: gives a table of 10,000 rows or
   * more a btree index on `source` (what every read by document filters on), then
   * compacts both tables' files, updates the index and drops every version but the
   * latest (LanceDB's `optimize`, under the folder's write lock). A reader of this
   * process that meets a file dropped under it reads again ({@link #read}).
   */
  async optimize(): Promise<void> {
    if (this.#writes < OPTIMIZE_AFTER_WRITES) return;
    this.#writes = 0;
    const tables = [this.#table, await this.#documentsTable(false)].filter((t): t is lancedb.Table => t !== undefined);
    await this.#run('optimize the table', () => this.#writing(async () => {
      const table = this.#table;
      if (table && (await table.countRows()) >= INDEX_FROM_ROWS && !(await table.listIndices()).some((i) => i.columns.includes('source'))) {
        await table.createIndex('source', { config: lancedb.Index.btree() });
      }
      for (const t of tables) await t.optimize({ cleanupOlderThan: new Date() });
    }));
  }

  /**
   * Upserts `data` into `table` by the `on` columns, holding the write lock: rows whose
   * keys the table does not hold yet (none of the stored rows of `sources` is `held`) are
   * appended with `add()` — a merge reads every key of the table —, others merged. The
   * check runs under the lock, so no other writer adds the same keys in between.
   */
  #merge(table: lancedb.Table, data: ArrowTable, on: string[], sources: readonly string[], held: (r: { source: string; id: string }) => boolean): Promise<void> {
    return this.#writing(async () => {
      let merge = false;
      for (const where of sourceFilters([...new Set(sources)])) {
        if (merge) break;
        const stored = (await table.query().where(where).select(on).toArray()) as { source: string; id: string }[];
        merge = stored.some(held);
      }
      if (merge) await table.mergeInsert(on).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
      else await table.add(data);
    });
  }

  /** The documents table, opened (or with `create`, created) on first use. */
  async #documentsTable(create: boolean): Promise<lancedb.Table | undefined> {
    if (this.#documents) return this.#documents;
    const name = documentsTableName(this.tableName);
    this.#documents = await this.#run('open the documents table', async () => {
      if ((await this.#db.tableNames()).includes(name)) return this.#db.openTable(name);
      return create ? this.#writing(() => this.#db.createEmptyTable(name, lanceDocumentsSchema(), { existOk: true })) : undefined;
    });
    return this.#documents;
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
      const docs = await this.#documentsTable(false);
      for (const where of sourceFilters(sources)) {
        await docs?.delete(where);
        removed += (await table.delete(where)).numDeletedRows;
        this.#writes++;
      }
      return removed;
    }));
  }

  async search(vector: Float32Array | readonly number[], k = 5): Promise<SinkMatch[]> {
    const query = searchArgs(vector, k);
    const table = this.#table;
    if (!table) return [];
    const rows = await this.#run('search', async () => (await table.vectorSearch(query).distanceType('cosine').limit(k).select(['id', 'source', 'text', 'start', 'end', 'metadata', '_distance']).toArray()) as { id: string; source: string; text: string; start: number; end: number; metadata: string; _distance: number }[]);
    return rows.map((r) => ({ id: r.id, source: r.source, text: r.text, start: r.start, end: r.end, metadata: JSON.parse(r.metadata) as Record<string, unknown>, distance: r._distance }));
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

  /**
   * Runs a read, once more when it fails (another process's `optimize` may drop the files
   * of the version it started on: the retry reads the latest version); its error as a
   * one-line {@link SinkError}.
   */
  async #read<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch {
      return this.#run(what, call);
    }
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
    this.#documents?.close();
    this.#table?.close();
    this.#db.close();
  }

  #requireTable(): lancedb.Table {
    if (!this.#table) throw new SinkError(this.name, 'call prepare(dimension) before upsert (writeChunks does)');
    return this.#table;
  }
}
