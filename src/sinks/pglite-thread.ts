/**
 * Node-only: a PGlite database in a worker thread (`pglite-worker.ts`), behind the
 * `query(sql, params)` a {@link PgVectorSink} writes through. PGlite runs Postgres in
 * WebAssembly on the thread that calls it, synchronously: on the run's own thread its
 * writes stop chunking and embedding; in a worker they run beside them, on another core.
 * @module
 */
import { Worker } from 'node:worker_threads';

/** `workerData` of the worker. */
export interface PgliteWorkerData {
  dataDir: string | undefined;
}

/** Messages to the worker: a statement (with the file a `COPY … FROM '/dev/blob'` reads), or close. */
export type ToPgliteWorker = { type: 'query'; id: number; sql: string; params?: unknown[]; blob?: Uint8Array<ArrayBuffer> } | { type: 'close' };

/** A thrown value as it crosses the thread. */
export interface PgliteWorkerError {
  message: string;
  /** SQLSTATE of a Postgres error. */
  code?: string;
  /** errno of PGlite's file system errors. */
  errno?: number;
  /** Whether it was an Error (PGlite's file system throws plain `{ errno }` objects). */
  isError: boolean;
}

/** Messages from the worker. */
export type FromPgliteWorker =
  | { type: 'ready' }
  | { type: 'failed'; error: PgliteWorkerError }
  | { type: 'result'; id: number; rows?: unknown[]; error?: PgliteWorkerError }
  | { type: 'closed'; error?: PgliteWorkerError };

/** A PGlite database in a worker thread. */
export interface PgliteThread {
  /** Runs one statement; `blob` is the file a `COPY … FROM '/dev/blob'` reads (copied to the worker). */
  query(sql: string, params?: unknown[], blob?: Uint8Array<ArrayBuffer>): Promise<{ rows: unknown[] }>;
  /** Closes the database and ends the worker. */
  close(): Promise<void>;
}

/** The error thrown in the worker, rebuilt: an Error with its `code`, or PGlite's `{ errno }` object as it was. */
function rebuilt(e: PgliteWorkerError): unknown {
  if (!e.isError && e.errno !== undefined) return { name: 'ErrnoError', errno: e.errno, message: e.message };
  return Object.assign(new Error(e.message), e.code === undefined ? {} : { code: e.code }, e.errno === undefined ? {} : { errno: e.errno });
}

/** A worker running the compiled script beside this module, or (run from the TypeScript source: tests) the source through tsx's loader. */
function newWorker(data: PgliteWorkerData): Worker {
  const self = import.meta.url;
  // the process's flags but --input-type (a worker of a file refuses it: `node --input-type=module -e …`)
  const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  if (!self.endsWith('.ts')) return new Worker(new URL('./pglite-worker.js', self), { workerData: data, execArgv });
  const source = new URL('./pglite-worker.ts', self).href;
  return new Worker(`import('tsx/esm/api').then((tsx) => tsx.register()).then(() => import(${JSON.stringify(source)}))`, { eval: true, workerData: data, execArgv });
}

/**
 * Opens a PGlite database (with pgvector) in a worker thread. The worker keeps the
 * process alive only while a statement is in flight.
 * @param dataDir a folder, or undefined for a database in memory.
 * @throws what `PGlite.create` threw (an Error, or PGlite's `{ errno }` object).
 */
export async function startPgliteThread(dataDir: string | undefined): Promise<PgliteThread> {
  const worker = newWorker({ dataDir });
  const pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: unknown) => void }>();
  let next = 0;
  let gone: unknown;
  let closing: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  const settle = () => {
    if (pending.size === 0 && !closing) worker.unref();
  };
  const failAll = (error: unknown) => {
    gone ??= error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    closing?.resolve();
    closing = undefined;
  };
  const opening: { message?: (m: FromPgliteWorker) => void; error?: (e: Error) => void; exit?: (code: number) => void } = {};
  try {
    await new Promise<void>((resolve, reject) => {
      opening.message = (m) => (m.type === 'ready' ? resolve() : reject(m.type === 'failed' ? rebuilt(m.error) : new Error(`PGlite worker: unexpected ${m.type}`)));
      opening.error = reject;
      opening.exit = (code) => reject(new Error(`PGlite worker exited (${code}) while opening`));
      worker.once('message', opening.message).once('error', opening.error).once('exit', opening.exit);
    });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  // not removeAllListeners(): the Worker's own listeners start and stop its message port
  worker.off('message', opening.message!).off('error', opening.error!).off('exit', opening.exit!);
  worker.on('message', (m: FromPgliteWorker) => {
    if (m.type === 'result') {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p?.reject(rebuilt(m.error));
      else p?.resolve(m.rows ?? []);
    } else if (m.type === 'closed') {
      const c = closing;
      closing = undefined;
      if (m.error) c?.reject(rebuilt(m.error));
      else c?.resolve();
    }
    settle();
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`PGlite worker exited (${code})`)));
  settle();
  return {
    query(sql, params, blob) {
      if (gone !== undefined) return Promise.reject(gone);
      const id = next++;
      worker.ref();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: (rows) => resolve({ rows }), reject });
        worker.postMessage({ type: 'query', id, sql, params, blob } satisfies ToPgliteWorker);
      });
    },
    async close() {
      if (gone !== undefined) return;
      worker.ref();
      await new Promise<void>((resolve, reject) => {
        closing = { resolve, reject };
        worker.postMessage({ type: 'close' } satisfies ToPgliteWorker);
      });
      await worker.terminate();
    },
  };
}
