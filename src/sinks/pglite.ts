/**
 * `chunkwise/sinks/pglite`: a {@link PgVectorSink} over PGlite (Postgres compiled to
 * WebAssembly: in memory, in a folder in Node, IndexedDB in a browser) with the pgvector
 * extension. Optional peer dependencies: `@electric-sql/pglite` and
 * `@electric-sql/pglite-pgvector` (tested with 0.5.14 and 0.0.15).
 *
 * A PGlite folder is one process's database: two processes writing it corrupt it. In
 * Node, the sink holds an exclusive lock file (`chunkwise.lock`, the holder's pid) in the
 * folder while it is open, and a second opener gets a one-line SinkError naming the
 * holder; a lock left by a process that is gone is taken over. In Node, a folder's
 * database runs in a worker thread (option `thread`), so its writes overlap chunking and
 * embedding instead of stopping them.
 * @module
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { firstLine, InvalidOptionError, SinkError } from '../engine/errors.js';
import { importNodeHelper, isNode } from '../engine/runtime.js';
import type { FolderLock } from './lock-file.js';
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
  /**
   * Run the database in a worker thread (Node only): PGlite's WebAssembly runs on the
   * thread that calls it, synchronously, so on the run's own thread its writes stop
   * chunking and embedding; in a worker they overlap them on another core. Default true in
   * Node for a folder, false for a database in memory (and elsewhere).
   */
  thread?: boolean;
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
  const memory = dataDir === undefined || dataDir === 'memory://';
  const threaded = options.thread ?? (isNode() && !memory && !/^idb:\/\//i.test(dataDir));
  if (threaded && !isNode()) throw new InvalidOptionError('thread', options.thread, 'false outside Node (worker threads are a Node feature)');
  const release = await lock(dataDir, name);
  let db: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>; close(): Promise<void> };
  // binary COPY from a blob: PGlite parses no vector text (strtof in WebAssembly is slow)
  let copyFrom: (sql: string, data: Uint8Array<ArrayBuffer>) => Promise<unknown>;
  try {
    if (threaded) {
      const { startPgliteThread } = await importNodeHelper<typeof import('./pglite-thread.js')>('sinks/pglite-thread');
      const thread = await startPgliteThread(memory ? undefined : dataDir);
      db = thread;
      copyFrom = (sql, data) => thread.query(sql, [], data);
    } else {
      const pglite = await PGlite.create(dataDir, { extensions: { vector } });
      db = pglite;
      copyFrom = (sql, data) => pglite.query(sql, [], { blob: new Blob([data]) });
    }
  } catch (error) {
    await release();
    throw new SinkError(name, `cannot open the database: ${pgliteReason(error)}`);
  }
  const close = async () => {
    try {
      await db.close();
    } finally {
      await release();
    }
  };
  try {
    return await PgVectorSink.open(db, { table, name, onClose: close, copyFrom });
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * In Node, locks a data folder (not `memory://`, `idb://…`) for this process.
 * @returns how to release it (a no-op elsewhere).
 * @throws {SinkError} when another live process holds the folder, or a file is in the way.
 */
async function lock(dataDir: string | undefined, name: string): Promise<() => Promise<void>> {
  if (!isNode() || dataDir === undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(dataDir)) return async () => {};
  const { lockFolder } = await importNodeHelper<typeof import('./lock-file.js')>('sinks/lock-file');
  let taken: FolderLock | { heldBy: number };
  try {
    taken = await lockFolder(dataDir);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === 'EEXIST' || code === 'ENOTDIR' ? 'not a directory (a file is in the way)' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : firstLine(error);
    throw new SinkError(name, `cannot open the database: ${reason}`);
  }
  if ('heldBy' in taken) {
    throw new SinkError(name, `the database is in use by process ${taken.heldBy} (PGlite takes one writer; wait for it to end, or use a Postgres server for concurrent writers)`);
  }
  return taken.release;
}

export { PgVectorSink };
