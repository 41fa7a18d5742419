/**
 * Worker thread of a PGlite database (see `pglite-thread.ts`): opens the database the
 * main thread names, with pgvector, then runs the statements it sends, one at a time, and
 * posts back their rows or their error. Node only.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { FromPgliteWorker, PgliteWorkerData, ToPgliteWorker } from './pglite-thread.js';

const port = parentPort!;
const post = (message: FromPgliteWorker) => port.postMessage(message);

/** What crosses the thread of a thrown value: its message, SQLSTATE and errno (PGlite's file system throws `{ errno }` objects). */
function describe(error: unknown): { message: string; code?: string; errno?: number; isError: boolean } {
  const e = error as { message?: unknown; code?: unknown; errno?: unknown };
  return {
    message: error instanceof Error ? error.message : String(e?.message ?? error),
    code: typeof e?.code === 'string' ? e.code : undefined,
    errno: typeof e?.errno === 'number' ? e.errno : undefined,
    isError: error instanceof Error,
  };
}

let db: PGlite;
try {
  db = await PGlite.create((workerData as PgliteWorkerData).dataDir, { extensions: { vector } });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', error: describe(error) });
  port.close();
}

port.on('message', async (message: ToPgliteWorker) => {
  if (message.type === 'close') {
    try {
      await db.close();
      post({ type: 'closed' });
    } catch (error) {
      post({ type: 'closed', error: describe(error) });
    }
    port.close();
    return;
  }
  try {
    const options = message.blob ? { blob: new Blob([message.blob]) } : undefined;
    const { rows } = await db.query(message.sql, message.params, options);
    post({ type: 'result', id: message.id, rows });
  } catch (error) {
    post({ type: 'result', id: message.id, error: describe(error) });
  }
});
