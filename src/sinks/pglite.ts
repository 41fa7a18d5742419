/**
 * `chunkwise/sinks/pglite`: a {@link PgVectorSink} over PGlite (Postgres compiled to
 * WebAssembly: in memory, in a folder in Node, IndexedDB in a browser) with the pgvector
 * extension. Optional peer dependencies: `@electric-sql/pglite` and
 * `@electric-sql/pglite-pgvector` (tested with 0.5.14 and 0.0.15).
 * @module
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { firstLine, SinkError } from '../core/errors.js';
import { PgVectorSink } from './pgvector.js';
import { requireTableName } from './types.js';

/** Emscripten's errno numbers PGlite's file system throws (as `{ name: 'ErrnoError', errno }`, not an Error). */
const ERRNO: Record<number, string> = { 2: 'permission denied', 20: 'file exists', 31: 'is a directory', 44: 'no such file or directory', 54: 'not a directory (a file is in the way)', 63: 'read-only file system' };

/** One line for an error PGlite throws while opening. */
export function pgliteReason(error: unknown): string {
  const errno = (error as { errno?: unknown })?.errno;
  if (!(error instanceof Error) && typeof errno === 'number') return ERRNO[errno] ?? `file system error ${errno}`;
  return firstLine(error);
}

/** Options of {@link openPgliteSink}. */
export interface PgliteSinkOptions {
  /** Table name (letters, digits, `_`). Default `chunks`. */
  table?: string;
}

/**
 * Opens a PGlite database with pgvector and a chunk table in it.
 * @param dataDir a folder (Node; created when missing), `idb://name` (browser), or
 *   undefined / `memory://` for a database in memory. Closing the sink closes the database.
 * @throws {SinkError} when the database cannot be opened (a file where the folder
 *   should be, a folder of another Postgres version, no permission).
 */
export async function openPgliteSink(dataDir?: string, options: PgliteSinkOptions = {}): Promise<PgVectorSink> {
  const table = requireTableName(options.table ?? 'chunks');
  const name = `pglite:${dataDir ?? 'memory://'}`;
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir, { extensions: { vector } });
  } catch (error) {
    throw new SinkError(name, `cannot open the database: ${pgliteReason(error)}`);
  }
  try {
    return await PgVectorSink.open(db, { table, name, onClose: () => db.close() });
  } catch (error) {
    await db.close();
    throw error;
  }
}

export { PgVectorSink };
