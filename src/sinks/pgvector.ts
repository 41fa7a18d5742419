/**
 * `chunkwise/sinks/pgvector`: a {@link Sink} over Postgres with the pgvector extension,
 * through any client with `query(sql, params) → { rows }`: PGlite (see
 * `chunkwise/sinks/pglite`, Postgres in WebAssembly), node-postgres' `Client`/`Pool`,
 * and others. Plain SQL, the same against PGlite and a Postgres server. Core module: no
 * Node built-in and no import of a client.
 *
 * Table: `id text, source text, text text, embed_text text NULL, start integer, "end"
 * integer, token_count integer, metadata jsonb, vector vector(d), embedder text`,
 * primary key (source, id). An upsert is one `INSERT … ON CONFLICT (source, id) DO
 * UPDATE` statement (one transaction) with its rows in key order, so concurrent writers
 * of the same keys wait for each other instead of duplicating or deadlocking.
 * @module
 */
import { firstLine, SinkError } from '../engine/errors.js';
import { replaceNulInRows } from './nul.js';
import { COPY_COLUMNS, copyRowsBinary, vectorBinary } from './pg-copy.js';
import { byPlace, distinctSorted, documentsTableName, requireDimension, rowFromStored, requireTableName, searchArgs, storedFromRecord, vectorFromStored, type DocumentRecord, type RowKeys, type Sink, type SinkMatch, type SinkRow, type StoredChunk } from './types.js';

/** What the sink needs of a Postgres client: parameterised queries returning rows. */
export interface PgQueryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Options of {@link PgVectorSink.open}. */
export interface PgVectorSinkOptions {
  /** Table name (letters, digits, `_`). Default `chunks`. */
  table?: string;
  /** Run `CREATE EXTENSION IF NOT EXISTS vector` first (default true; needs the right to). */
  createExtension?: boolean;
  /** Name for messages, e.g. `pglite:./db`. Default `postgres`. */
  name?: string;
  /** Called by {@link PgVectorSink.close} (e.g. to close the client the sink owns). */
  onClose?: () => Promise<void> | void;
  /**
   * Runs `sql`, a `COPY … FROM '/dev/blob' WITH (FORMAT binary)`, with `data` as the file it
   * reads (PGlite: `db.query(sql, [], { blob })`). Given, upserts go through binary COPY
   * into a temporary staging table and one `INSERT … SELECT … ON CONFLICT` (the server
   * parses no vector text); without it, multi-row `INSERT … VALUES`.
   */
  copyFrom?: (sql: string, data: Uint8Array<ArrayBuffer>) => Promise<unknown>;
  /**
   * Send each upserted vector as a binary parameter (pgvector's wire form, a Uint8Array)
   * instead of its text: for clients that send typed-array parameters in binary format
   * (node-postgres). Default false (text, which every client sends).
   */
  binaryVectors?: boolean;
}

/**
 * The table's `toast_tuple_target` (its largest value): a row stays whole in its page up
 * to ~8 KB. At the default (~2 KB) a chunk row of ~1 KB of text and a 384-dimension vector
 * (1.5 KB; pgvector's type is `STORAGE external`: never compressed, moved out first) has its
 * vector moved to the TOAST table: two heap inserts and an index insert a row, and a
 * detoasting per row a search reads. Measured on PGlite, 8,192 rows of real text: 1.4×
 * the rows/s.
 */
const TOAST_TARGET = 8160;

/** Rows per INSERT statement: 10 parameters each, under Postgres' 65,535. */
const ROWS_PER_STATEMENT = 4096;

const COLUMNS = ['id', 'source', 'text', 'embed_text', 'start', 'end', 'token_count', 'metadata', 'vector', 'embedder'];

/** SQLSTATEs of a write that lost a race and may be tried again: deadlock, serialization failure, a concurrent CREATE of the same name. */
const RETRIED = new Set(['40P01', '40001', '23505', '42P07', '42710']);

/** Whether a Postgres error is one of {@link RETRIED}. */
function retried(error: unknown): boolean {
  return RETRIED.has((error as { code?: unknown })?.code as string);
}

/** Orders rows by (source, id), the order an upsert locks them in. */
function byKey(a: SinkRow, b: SinkRow): number {
  if (a.source !== b.source) return a.source < b.source ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The keys of `keys` as two parallel arrays (sources, ids), for `unnest($1, $2)`. */
function keyArrays(keys: RowKeys): [string[], string[]] {
  const sources: string[] = [];
  const ids: string[] = [];
  for (const [source, list] of keys) {
    for (const id of list) {
      sources.push(source);
      ids.push(id);
    }
  }
  return [sources, ids];
}

/** A vector as pgvector's text form `[v0,v1,…]` (float32 values written exactly). */
export function vectorLiteral(v: ArrayLike<number>): string {
  let s = '[';
  for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + v[i];
  return s + ']';
}

/**
 * Chunks in a Postgres table with a pgvector column. Open with
 * {@link PgVectorSink.open}, write with `writeChunks(sink, chunks, vectors)`, query with
 * {@link PgVectorSink.search} or SQL (`ORDER BY vector <=> $1::vector`).
 */
export class PgVectorSink implements Sink {
  readonly name: string;
  /** Rows per upsert: one INSERT statement of 10 parameters a row. */
  readonly batchSize = 1024;
  readonly tableName: string;
  /** The client (PGlite instance or other) the sink writes through. */
  readonly client: PgQueryable;
  readonly #quoted: string;
  /** The table of {@link DocumentRecord}s beside it, quoted. */
  readonly #documents: string;
  readonly #onClose?: () => Promise<void> | void;
  readonly #copyFrom?: (sql: string, data: Uint8Array<ArrayBuffer>) => Promise<unknown>;
  /** The temporary staging table of binary COPY, quoted; made on the first upsert after {@link prepare}. */
  readonly #staging: string;
  readonly #binaryVectors: boolean;
  #staged = false;
  /** {@link Sink.nulReplaced}. */
  nulReplaced = 0;
  #prepared: Map<string, number> | undefined;

  private constructor(client: PgQueryable, tableName: string, name: string, onClose?: () => Promise<void> | void, copyFrom?: (sql: string, data: Uint8Array<ArrayBuffer>) => Promise<unknown>, binaryVectors = false) {
    this.client = client;
    this.#binaryVectors = binaryVectors;
    this.#copyFrom = copyFrom;
    this.#staging = `pg_temp."${tableName}_staging"`;
    this.tableName = tableName;
    this.#quoted = `"${tableName}"`;
    this.#documents = `"${documentsTableName(tableName)}"`;
    this.name = `${name} table ${tableName}`;
    this.#onClose = onClose;
  }

  /**
   * A sink over `client`; enables pgvector unless `createExtension: false`.
   * @throws {SinkError} when the extension cannot be enabled (not installed, no right).
   * @throws {InvalidOptionError} for a bad table name.
   */
  static async open(client: PgQueryable, options: PgVectorSinkOptions = {}): Promise<PgVectorSink> {
    const table = requireTableName(options.table ?? 'chunks');
    const sink = new PgVectorSink(client, table, options.name ?? 'postgres', options.onClose, options.copyFrom, options.binaryVectors === true);
    if (options.createExtension !== false) {
      try {
        await retrying(() => client.query('CREATE EXTENSION IF NOT EXISTS vector'));
      } catch (error) {
        throw new SinkError(sink.name, `cannot enable the pgvector extension: ${firstLine(error)}`);
      }
    }
    return sink;
  }

  /** Vector dimension of the existing table (undefined when there is none or no vector column). */
  async dimension(): Promise<number | undefined> {
    const columns = await this.#columns();
    return columns?.get('vector');
  }

  /**
   * Column names of the table and their typmod (pgvector keeps d there), or undefined
   * without a table; once {@link prepare} has checked the table, the checked columns
   * (a table made by chunkwise does not change shape while the sink is open).
   */
  async #columns(): Promise<Map<string, number> | undefined> {
    if (this.#prepared) return this.#prepared;
    const { rows } = await this.#run('read the table', 'SELECT to_regclass($1)::text AS t', [this.#quoted]);
    if ((rows[0] as { t: string | null }).t === null) return undefined;
    const cols = await this.#run(
      'read the table',
      'SELECT attname, atttypmod FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped',
      [this.#quoted],
    );
    return new Map((cols.rows as { attname: string; atttypmod: number }[]).map((r) => [r.attname, r.atttypmod]));
  }

  /**
   * Creates the table when missing; adds the `embedder` column (`''` for the rows already
   * there) to a table made before it.
   */
  async prepare(dimension: number): Promise<void> {
    requireDimension(dimension);
    this.#prepared = undefined;
    this.#staged = false;
    const existed = (await this.#columns()) !== undefined;
    await this.#run(
      'create the table',
      `CREATE TABLE IF NOT EXISTS ${this.#quoted} (
        "id" text COLLATE "C" NOT NULL, "source" text COLLATE "C" NOT NULL, "text" text NOT NULL, "embed_text" text,
        "start" integer NOT NULL, "end" integer NOT NULL, "token_count" integer NOT NULL,
        "metadata" jsonb NOT NULL, "vector" vector(${dimension}) NOT NULL,
        "embedder" text NOT NULL DEFAULT '',
        PRIMARY KEY ("source", "id")) WITH (toast_tuple_target = ${TOAST_TARGET})`,
    );
    let columns = (await this.#columns())!;
    if (!columns.has('embedder') && columns.has('vector')) {
      await this.#run('add the embedder column', `ALTER TABLE ${this.#quoted} ADD COLUMN IF NOT EXISTS "embedder" text NOT NULL DEFAULT ''`);
      columns = (await this.#columns())!;
    }
    const missing = COLUMNS.filter((c) => !columns.has(c));
    if (missing.length > 0) throw new SinkError(this.name, `the table exists but lacks the column(s) ${missing.join(', ')}: not a chunkwise table`);
    const existing = columns.get('vector');
    if (existing !== dimension) {
      throw new SinkError(this.name, `the table holds vectors of dimension ${existing === -1 ? 'unset' : existing}, these chunks have ${dimension} (use another --table or the same embedder)`);
    }
    await this.#run(
      'create the documents table',
      `CREATE TABLE IF NOT EXISTS ${this.#documents} (
        "source" text COLLATE "C" PRIMARY KEY, "content_hash" text NOT NULL, "embedder" text NOT NULL,
        "chunking" text NOT NULL, "chunks" integer NOT NULL)`,
    );
    // records of a table that is gone tell nothing of the new one
    if (!existed) await this.#run('clear the documents table', `DELETE FROM ${this.#documents}`);
    this.#prepared = columns;
  }

  /**
   * One `INSERT … VALUES (…), (…) ON CONFLICT (source, id) DO UPDATE` statement (one
   * transaction) per 4,096 rows (10 parameters a row, under Postgres' 65,535), in key
   * order. Measured on PGlite, 1,024 rows: 0.7 s as VALUES, 1.1 s as `unnest` of 10
   * array parameters (parsing the arrays' text costs more than the parameters). A U+0000
   * in text or metadata is stored as U+FFFD and counted ({@link nulReplaced}): Postgres
   * text and jsonb cannot hold it.
   */
  async upsert(rows: readonly SinkRow[]): Promise<void> {
    const clean = replaceNulInRows(rows);
    await this.#upsert(clean.rows);
    this.nulReplaced += clean.replaced;
  }

  async #upsert(rows: readonly SinkRow[]): Promise<void> {
    const sorted = [...rows].sort(byKey);
    const update = COLUMNS.filter((c) => c !== 'id' && c !== 'source').map((c) => `"${c}" = EXCLUDED."${c}"`).join(', ');
    if (this.#copyFrom && sorted.length > 0) return this.#upsertByCopy(sorted, update);
    for (let s = 0; s < sorted.length; s += ROWS_PER_STATEMENT) {
      const params: unknown[] = [];
      const values: string[] = [];
      for (const r of sorted.slice(s, s + ROWS_PER_STATEMENT)) {
        const p = params.length;
        params.push(r.id, r.source, r.text, r.embedText, r.start, r.end, r.tokenCount, JSON.stringify(r.metadata), this.#binaryVectors ? vectorBinary(r.vector) : vectorLiteral(r.vector), r.embedder ?? '');
        values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::jsonb, $${p + 9}::vector, $${p + 10})`);
      }
      await this.#run(
        'write rows',
        `INSERT INTO ${this.#quoted} (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${values.join(', ')}
         ON CONFLICT ("source", "id") DO UPDATE SET ${update}`,
        params,
      );
    }
  }

  /**
   * The rows as one binary COPY. When the table holds none of the rows' keys (one indexed
   * `SELECT … LIMIT 1`: new chunks), straight into the table; else (or when a
   * concurrent writer added some of the keys since) into the session's staging table
   * (emptied first), then one `INSERT … SELECT … ORDER BY source, id ON CONFLICT … DO
   * UPDATE` (one transaction, rows locked in key order as with VALUES). Measured on PGlite
   * in memory, 1,024 rows of real text with 384-dimension vectors: 1,935 rows/s by the
   * staging table against 350 as VALUES with vector text (bench/pg-write.bench.ts); on a
   * folder, 8,192 rows, the direct COPY 1.3–1.5× the staging table's rows/s.
   */
  async #upsertByCopy(sorted: readonly SinkRow[], update: string): Promise<void> {
    const columns = COPY_COLUMNS.map((c) => `"${c}"`).join(', ');
    const data = copyRowsBinary(sorted);
    const copy = async (into: string) => {
      try {
        await this.#copyFrom!(`COPY ${into} (${columns}) FROM '/dev/blob' WITH (FORMAT binary)`, data);
      } catch (error) {
        if (retried(error)) throw error;
        throw new SinkError(this.name, `cannot write rows: ${firstLine(error)}`);
      }
    };
    const { rows: held } = await this.#run(
      'read rows',
      `SELECT 1 FROM ${this.#quoted} AS t JOIN unnest($1::text[], $2::text[]) AS k("source", "id") ON t."source" = k."source" AND t."id" = k."id" LIMIT 1`,
      [sorted.map((r) => r.source), sorted.map((r) => r.id)],
    );
    if (held.length === 0) {
      // none of these keys is stored (new chunks): COPY into the table itself, one
      // statement; a writer that added some of the keys since makes it fail whole (23505)
      try {
        return await copy(this.#quoted);
      } catch (error) {
        if (error instanceof SinkError) throw error;
      }
    }
    if (!this.#staged) {
      await this.#run('make the staging table', `DROP TABLE IF EXISTS ${this.#staging}`);
      await this.#run('make the staging table', `CREATE TEMP TABLE ${this.#staging} (LIKE ${this.#quoted} INCLUDING DEFAULTS) WITH (toast_tuple_target = ${TOAST_TARGET})`);
      this.#staged = true;
    }
    await this.#run('write rows', `TRUNCATE ${this.#staging}`);
    try {
      await copy(this.#staging);
    } catch (error) {
      throw error instanceof SinkError ? error : new SinkError(this.name, `cannot write rows: ${firstLine(error)}`);
    }
    await this.#run('write rows', `INSERT INTO ${this.#quoted} (${columns}) SELECT ${columns} FROM ${this.#staging} ORDER BY "source", "id" ON CONFLICT ("source", "id") DO UPDATE SET ${update}`);
  }

  async removeStale(source: string, keep: ReadonlySet<string>): Promise<number> {
    if ((await this.#columns()) === undefined) return 0;
    const { rows } = await this.#run(
      'delete rows',
      `WITH d AS (DELETE FROM ${this.#quoted} WHERE "source" = $1 AND NOT ("id" = ANY($2::text[])) RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [source, [...keep]],
    );
    return (rows[0] as { n: number }).n;
  }

  async stored(source: string): Promise<Map<string, StoredChunk>> {
    const columns = await this.#columns();
    if (columns === undefined) return new Map();
    const by = columns.has('embedder') ? '"embedder"' : "''";
    const { rows } = await this.#run(
      'read rows',
      `SELECT "id", "start", "end", "token_count", "metadata", ${by} AS embedder FROM ${this.#quoted} WHERE "source" = $1`,
      [source],
    );
    return new Map((rows as Record<string, unknown>[]).map((r) => [r.id as string, storedFromRecord(r)]));
  }

  /** One `SELECT … WHERE source = ANY($1)` (the primary key's index), place columns only. */
  async storedMany(sources: readonly string[]): Promise<Map<string, Map<string, StoredChunk>>> {
    const out = new Map(sources.map((source) => [source, new Map<string, StoredChunk>()]));
    const columns = await this.#columns();
    if (columns === undefined || sources.length === 0) return out;
    const by = columns.has('embedder') ? '"embedder"' : "''";
    const { rows } = await this.#run(
      'read rows',
      `SELECT "source", "id", "start", "end", "token_count", "metadata", ${by} AS embedder FROM ${this.#quoted} WHERE "source" = ANY($1::text[])`,
      [[...sources]],
    );
    for (const r of rows as Record<string, unknown>[]) out.get(r.source as string)?.set(r.id as string, storedFromRecord(r));
    return out;
  }

  async vectorsMany(keys: RowKeys): Promise<Map<string, Map<string, Float32Array>>> {
    const out = new Map<string, Map<string, Float32Array>>();
    const [sources, ids] = keyArrays(keys);
    if (ids.length === 0 || (await this.#columns()) === undefined) return out;
    const { rows } = await this.#run(
      'read rows',
      `SELECT t."source", t."id", t."vector"::text AS vector FROM ${this.#quoted} AS t JOIN unnest($1::text[], $2::text[]) AS k("source", "id") ON t."source" = k."source" AND t."id" = k."id"`,
      [sources, ids],
    );
    for (const r of rows as { source: string; id: string; vector: string }[]) {
      let m = out.get(r.source);
      if (!m) out.set(r.source, (m = new Map()));
      m.set(r.id, vectorFromStored(r.vector));
    }
    return out;
  }

  /** One `DELETE … USING unnest($1, $2)` of exactly these keys. */
  async removeRows(keys: RowKeys): Promise<number> {
    const [sources, ids] = keyArrays(keys);
    if (ids.length === 0 || (await this.#columns()) === undefined) return 0;
    const { rows } = await this.#run(
      'delete rows',
      `WITH d AS (DELETE FROM ${this.#quoted} AS t USING unnest($1::text[], $2::text[]) AS k("source", "id") WHERE t."source" = k."source" AND t."id" = k."id" RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [sources, ids],
    );
    return (rows[0] as { n: number }).n;
  }

  /** The records of `sources` in the table `<table>_documents` (made by {@link prepare}). */
  async documents(sources: readonly string[]): Promise<Map<string, DocumentRecord>> {
    if (sources.length === 0 || this.#prepared === undefined) return new Map();
    const { rows } = await this.#run(
      'read documents',
      `SELECT "source", "content_hash", "embedder", "chunking", "chunks" FROM ${this.#documents} WHERE "source" = ANY($1::text[])`,
      [[...sources]],
    );
    return new Map(
      (rows as Record<string, unknown>[]).map((r) => [r.source as string, { source: r.source as string, contentHash: r.content_hash as string, embedder: r.embedder as string, chunking: r.chunking as string, chunks: r.chunks as number }]),
    );
  }

  async writeDocuments(records: readonly DocumentRecord[]): Promise<void> {
    if (records.length === 0) return;
    const sorted = [...new Map(records.map((r) => [r.source, r])).values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
    await this.#run(
      'write documents',
      `INSERT INTO ${this.#documents} ("source", "content_hash", "embedder", "chunking", "chunks")
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int4[])
       ON CONFLICT ("source") DO UPDATE SET "content_hash" = EXCLUDED."content_hash", "embedder" = EXCLUDED."embedder", "chunking" = EXCLUDED."chunking", "chunks" = EXCLUDED."chunks"`,
      [sorted.map((r) => r.source), sorted.map((r) => r.contentHash), sorted.map((r) => r.embedder), sorted.map((r) => r.chunking), sorted.map((r) => r.chunks)],
    );
  }

  async forgetDocuments(sources: readonly string[]): Promise<void> {
    if (sources.length === 0 || this.#prepared === undefined) return;
    await this.#run('write documents', `DELETE FROM ${this.#documents} WHERE "source" = ANY($1::text[])`, [[...sources]]);
  }

  async vectors(source: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    if (ids.length === 0 || (await this.#columns()) === undefined) return new Map();
    const { rows } = await this.#run('read rows', `SELECT "id", "vector"::text AS vector FROM ${this.#quoted} WHERE "source" = $1 AND "id" = ANY($2::text[])`, [source, [...ids]]);
    return new Map((rows as { id: string; vector: string }[]).map((r) => [r.id, vectorFromStored(r.vector)]));
  }

  async sources(): Promise<string[]> {
    if ((await this.#columns()) === undefined) return [];
    const { rows } = await this.#run('read rows', `SELECT DISTINCT "source" FROM ${this.#quoted}`);
    return distinctSorted((rows as { source: string }[]).map((r) => r.source));
  }

  async removeSources(sources: readonly string[]): Promise<number> {
    if (sources.length === 0 || (await this.#columns()) === undefined) return 0;
    await this.forgetDocuments(sources);
    const { rows } = await this.#run(
      'delete rows',
      `WITH d AS (DELETE FROM ${this.#quoted} WHERE "source" = ANY($1::text[]) RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [[...sources]],
    );
    return (rows[0] as { n: number }).n;
  }

  async search(vector: Float32Array | readonly number[], k = 5): Promise<SinkMatch[]> {
    const query = searchArgs(vector, k);
    if ((await this.#columns()) === undefined) return [];
    const { rows } = await this.#run(
      'search',
      `SELECT "id", "source", "text", "start", "end", "metadata", ("vector" <=> $1::vector)::float8 AS distance FROM ${this.#quoted} ORDER BY "vector" <=> $1::vector LIMIT $2`,
      [vectorLiteral(query), k],
    );
    return rows as SinkMatch[];
  }

  async count(): Promise<number> {
    if ((await this.#columns()) === undefined) return 0;
    const { rows } = await this.#run('count rows', `SELECT count(*)::int AS n FROM ${this.#quoted}`);
    return (rows[0] as { n: number }).n;
  }

  async rows(source?: string): Promise<SinkRow[]> {
    const columns = await this.#columns();
    if (columns === undefined) return [];
    const by = columns.has('embedder') ? '"embedder"' : "'' AS embedder";
    const { rows } = await this.#run(
      'read rows',
      `SELECT "id", "source", "text", "embed_text", "start", "end", "token_count", "metadata", "vector"::text AS vector, ${by} FROM ${this.#quoted}` +
        (source === undefined ? '' : ' WHERE "source" = $1'),
      source === undefined ? [] : [source],
    );
    return (rows as Record<string, unknown>[]).map(rowFromStored).sort(byPlace);
  }

  async close(): Promise<void> {
    await this.#onClose?.();
  }

  async #run(what: string, sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> {
    try {
      return await retrying(() => this.client.query(sql, params));
    } catch (error) {
      throw new SinkError(this.name, `cannot ${what}: ${firstLine(error)}`);
    }
  }
}

/**
 * Runs a statement, again (up to 5 tries, 20–320 ms apart) when it lost a race with
 * another writer ({@link RETRIED}): each statement is its own transaction, so a retry
 * repeats all of it or none.
 */
async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= 5 || !retried(error)) throw error;
      await new Promise((done) => setTimeout(done, 10 * 2 ** attempt * (1 + Math.random())));
    }
  }
}
