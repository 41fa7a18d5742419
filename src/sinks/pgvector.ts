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
import { byPlace, distinctSorted, requireDimension, rowFromStored, requireTableName, searchArgs, storedFromRecord, vectorFromStored, type Sink, type SinkMatch, type SinkRow, type StoredChunk } from './types.js';

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
}

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
  /** Rows per INSERT: 10 parameters each, well under Postgres' 65,535. */
  readonly batchSize = 1024;
  readonly tableName: string;
  /** The client (PGlite instance or other) the sink writes through. */
  readonly client: PgQueryable;
  readonly #quoted: string;
  readonly #onClose?: () => Promise<void> | void;
  #prepared: Map<string, number> | undefined;

  private constructor(client: PgQueryable, tableName: string, name: string, onClose?: () => Promise<void> | void) {
    this.client = client;
    this.tableName = tableName;
    this.#quoted = `"${tableName}"`;
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
    const sink = new PgVectorSink(client, table, options.name ?? 'postgres', options.onClose);
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
    await this.#run(
      'create the table',
      `CREATE TABLE IF NOT EXISTS ${this.#quoted} (
        "id" text NOT NULL, "source" text NOT NULL, "text" text NOT NULL, "embed_text" text,
        "start" integer NOT NULL, "end" integer NOT NULL, "token_count" integer NOT NULL,
        "metadata" jsonb NOT NULL, "vector" vector(${dimension}) NOT NULL,
        "embedder" text NOT NULL DEFAULT '',
        PRIMARY KEY ("source", "id"))`,
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
    this.#prepared = columns;
  }

  async upsert(rows: readonly SinkRow[]): Promise<void> {
    if (rows.length === 0) return;
    const params: unknown[] = [];
    const values: string[] = [];
    for (const r of [...rows].sort(byKey)) {
      const p = params.length;
      params.push(r.id, r.source, r.text, r.embedText, r.start, r.end, r.tokenCount, JSON.stringify(r.metadata), vectorLiteral(r.vector), r.embedder ?? '');
      values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::jsonb, $${p + 9}::vector, $${p + 10})`);
    }
    const update = COLUMNS.filter((c) => c !== 'id' && c !== 'source').map((c) => `"${c}" = EXCLUDED."${c}"`).join(', ');
    await this.#run(
      'write rows',
      `INSERT INTO ${this.#quoted} (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${values.join(', ')}
       ON CONFLICT ("source", "id") DO UPDATE SET ${update}`,
      params,
    );
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
      `SELECT "id", "source", "text", "start", "end", ("vector" <=> $1::vector)::float8 AS distance FROM ${this.#quoted} ORDER BY "vector" <=> $1::vector LIMIT $2`,
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
