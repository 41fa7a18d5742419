/**
 * `chunkwise/sinks/postgres`: a {@link PgVectorSink} over a Postgres server with the
 * pgvector extension, through node-postgres' `Pool` (the same SQL as over PGlite). The
 * store a team shares, and the one that several processes can write at once: each
 * statement (an upsert is one `INSERT … ON CONFLICT`) runs in its own explicit
 * transaction on one pooled connection. Node only. Optional peer dependency: `pg`
 * (tested with 8.23.1).
 * @module
 */
import pg from 'pg';
import { firstLine, InvalidOptionError, SinkError } from '../engine/errors.js';
import { withBackoff, type TransientFailure } from '../engine/retry.js';
import { PgVectorSink, type PgQueryable } from './pgvector.js';
import { requireTableName } from './types.js';

/** Options of {@link openPostgresSink}. */
export interface PostgresSinkOptions {
  /** Table name (letters, digits, `_`). Default the URL's `?table=`, else `chunks`. */
  table?: string;
  /** Connections the pool opens at most (default 4). */
  maxConnections?: number;
}

/**
 * A connection URL split into what `pg` connects with (the URL without chunkwise's
 * `table` parameter), the table it names, and a name for messages (without password).
 * @throws {InvalidOptionError} for a string that is not a `postgres://` or
 *   `postgresql://` URL, or two different tables (`?table=` and `options.table`).
 */
export function postgresTarget(url: string, table?: string): { connectionString: string; table: string; name: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidOptionError('sink', url, 'postgres://user[:password]@host[:port]/database[?table=name]');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new InvalidOptionError('sink', url, 'postgres://user[:password]@host[:port]/database[?table=name]');
  }
  const named = parsed.searchParams.get('table') ?? undefined;
  if (named !== undefined && table !== undefined && named !== table) {
    throw new InvalidOptionError('table', table, `one table: the URL names ${JSON.stringify(named)}`);
  }
  parsed.searchParams.delete('table');
  const connectionString = parsed.toString();
  parsed.password = '';
  const name = parsed.toString().replace(/\?$/, '');
  return { connectionString, table: requireTableName(table ?? named ?? 'chunks'), name };
}

/**
 * Opens a sink over a Postgres server: connects (one `SELECT 1`, so a server that cannot
 * be reached fails here), enables pgvector (`CREATE EXTENSION IF NOT EXISTS vector`) and
 * returns the sink; closing it ends the pool.
 * @param url `postgres://user[:password]@host[:port]/database[?table=name]` (node-postgres'
 *   connection string; `PGPASSWORD` and the other libpq variables apply as usual).
 * @example
 * ```ts
 * const sink = await openPostgresSink('postgres://me@db.example:5432/rag?table=docs');
 * await writeChunks(sink, chunks, vectors, { source: 'guide.md', embedder: 'hashing:384' });
 * await sink.close();
 * ```
 * @throws {InvalidOptionError} for a URL that is not a Postgres one or a bad table name.
 * @throws {SinkError} when the server cannot be reached or pgvector cannot be enabled.
 */
export async function openPostgresSink(url: string, options: PostgresSinkOptions = {}): Promise<PgVectorSink> {
  const target = postgresTarget(url, options.table);
  const pool = new pg.Pool({ connectionString: target.connectionString, max: options.maxConnections ?? 4 });
  // an idle connection the server drops would otherwise be an unhandled 'error' event
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new SinkError(target.name, `cannot connect: ${firstLine(error) || (error as { code?: string }).code || 'connection failed'}`);
  }
  try {
    return await PgVectorSink.open(transactional(pool), { table: target.table, name: target.name, onClose: () => pool.end(), binaryVectors: true });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

/** Tries again of a statement whose connection was lost: 0.2, 0.4, 0.8 and 1.6 s apart (3 s in all). */
const RECONNECT = { maxRetries: 4, initialDelayMs: 200, maxDelayMs: 1600 };

/** Error codes and messages of a lost connection: the socket reset or refused, the server shutting down (57P01–57P03) or a connection exception (class 08). */
function lostConnection(error: unknown): TransientFailure | undefined {
  const code = String((error as { code?: unknown })?.code ?? '');
  const reason = firstLine(error) || code;
  return /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EHOSTUNREACH|57P0[123]|08...)$/.test(code) || /Connection terminated|Client has encountered a connection error/.test(reason) ? { reason } : undefined;
}

/**
 * A client whose every statement runs as `BEGIN; statement; COMMIT` (`ROLLBACK` on an
 * error) on one connection of `pool`: a batch is written whole or not at all, and a
 * server that multiplexes connections onto one session (pglite-socket) runs it without
 * another connection's messages in between. A statement whose connection is lost (reset,
 * refused, server restarting) runs again on a new connection after 0.2, 0.4, 0.8 and 1.6 s;
 * then its error is thrown (the sink makes it one line). Each statement is its own
 * transaction, and an upsert or delete run twice leaves the same rows.
 */
function transactional(pool: pg.Pool): PgQueryable {
  return {
    query: (sql: string, params?: unknown[]) => withBackoff(() => inTransaction(pool, sql, params), lostConnection, RECONNECT),
  };
}

/** One try of {@link transactional}'s statement on a connection of `pool`. */
async function inTransaction(pool: pg.Pool, sql: string, params?: unknown[]) {
  const client = await pool.connect();
  let broken: unknown;
  // a checked-out client has no listener of the pool's: a lost socket would be an unhandled 'error' event
  const onError = (error: unknown) => (broken = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    try {
      const result = await client.query(sql, params);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((e: unknown) => (broken ??= e));
      throw error;
    }
  } finally {
    client.off('error', onError);
    client.release(broken instanceof Error ? broken : broken === undefined ? undefined : new Error(firstLine(broken)));
  }
}

export { PgVectorSink };
