/**
 * Batch chunking over worker threads (`chunkwise chunk <dir|glob> --workers N`): files are
 * handed to N workers (node:worker_threads) one at a time, each worker streams its file
 * through the chunker and posts the records back; the main thread writes them in the
 * files' order, so the output is byte-identical to the single-process run whatever the
 * timing. Node only.
 * @module
 */
import { Worker } from 'node:worker_threads';
import { DocumentError } from '../../documents/document-error.js';
import { ChunkwiseError, InvalidOptionError } from '../../engine/errors.js';
import { throwDocumentErrors } from './documents.js';
import type { StrategyOptions } from '../../strategies/index.js';
import { UnreadableFileError, type Progress } from '../cli/io.js';

/** Data each worker starts with. */
export interface BatchWorkerData {
  /** A strategy name, or `auto` (see `FileChunkers`). */
  strategy: string;
  /** Its options (`auto`: options by strategy name). */
  options: StrategyOptions | Record<string, StrategyOptions>;
  /** Characters of records per message. */
  batchChars: number;
  /** `--quiet`: no notices on stderr (a file chunked by the recursive splitter instead). */
  quiet?: boolean;
  /** `--input-encoding`: how text files are decoded (`filePieces`). */
  encoding?: string;
  /** `--pdf-password`: the password of encrypted PDFs. */
  pdfPassword?: string;
}

/** Messages to a worker. */
export type ToWorker = { type: 'file'; i: number; name: string } | { type: 'stop' };

/** Messages from a worker: a batch of records of file i, file i done, or its error. */
export type FromWorker =
  | { type: 'records'; i: number; records: string[] }
  | { type: 'done'; i: number; chunks: number }
  | { type: 'error'; i?: number; kind: 'unreadable' | 'chunkwise' | 'document' | 'internal'; message: string; path?: string; reason?: DocumentError['reason'] };

/** Options of {@link chunkFilesWithWorkers}. */
export interface BatchOptions {
  /** A strategy name, or `auto` (see `FileChunkers`). */
  strategy: string;
  options: StrategyOptions | Record<string, StrategyOptions>;
  /** `--input-encoding`: how text files are decoded (`filePieces`). */
  encoding?: string;
  /** `--pdf-password`: the password of encrypted PDFs. */
  pdfPassword?: string;
  /** Worker threads, an integer ≥ 1 (no more are started than there are files). */
  workers: number;
  /** Receives each file's records in file order; awaited (back-pressure). */
  write: (records: string[]) => Promise<void>;
  /** Told when a file is fully chunked (completion order), with its index. */
  progress?: Pick<Progress, 'advance'>;
  /** Sizes of the files in bytes, for the progress bar. */
  sizes?: number[];
  /** Characters of records per message (default 1 MiB). */
  batchChars?: number;
  /** No notices on stderr from the workers (`--quiet`). */
  quiet?: boolean;
}

/** The worker script beside this module (compiled .js, or .ts under tsx). */
function workerScript(): { url: URL; execArgv: string[] } {
  const self = import.meta.url;
  if (self.endsWith('.ts')) return { url: new URL('./batch-worker.ts', self), execArgv: ['--import', 'tsx'] };
  return { url: new URL('./batch-worker.js', self), execArgv: [] };
}

function toError(m: FromWorker & { type: 'error' }): Error {
  if (m.kind === 'unreadable') {
    const e = new UnreadableFileError(m.path ?? '?', '');
    e.message = m.message;
    return e;
  }
  if (m.kind === 'document') {
    const e = new DocumentError(m.path ?? '?', m.reason ?? 'invalid', '');
    e.message = m.message;
    return e;
  }
  if (m.kind === 'chunkwise') return new ChunkwiseError(m.message);
  return new Error(`worker failed: ${m.message}`);
}

/**
 * Chunks `files` over worker threads and writes their records in file order.
 * @returns the number of chunks written.
 * A document that cannot be read (a `DocumentError`: a scanned or encrypted PDF) skips its
 * file while the others go on, as in one process: afterwards the skipped files' errors but
 * the last are written to stderr in file order (one line each) and the last is thrown.
 * @throws {InvalidOptionError} when `workers` is not an integer ≥ 1; the first file error
 *   (UnreadableFileError, ChunkwiseError) after stopping every worker; the last
 *   DocumentError after every file was tried.
 */
export async function chunkFilesWithWorkers(files: string[], o: BatchOptions): Promise<number> {
  if (!Number.isInteger(o.workers) || o.workers < 1) throw new InvalidOptionError('workers', o.workers, 'must be an integer ≥ 1');
  if (files.length === 0) return 0;
  const { url, execArgv } = workerScript();
  const data: BatchWorkerData = { strategy: o.strategy, options: o.options, batchChars: o.batchChars ?? 1 << 20, quiet: o.quiet === true, encoding: o.encoding, pdfPassword: o.pdfPassword };
  const count = Math.min(o.workers, files.length);
  const workers: Worker[] = [];
  const pending = new Map<number, string[][]>(); // records of files after the one being written
  const done = new Set<number>();
  let nextToSend = 0;
  let nextToWrite = 0;
  let chunks = 0;
  let writing = Promise.resolve();
  let failed: Error | undefined;
  const unreadable = new Map<number, DocumentError>(); // documents skipped, by file index

  return await new Promise<number>((resolve, reject) => {
    const fail = (error: Error) => {
      if (failed) return;
      failed = error;
      for (const w of workers) void w.terminate();
      reject(error);
    };
    const enqueueWrite = (records: string[]) => {
      writing = writing.then(() => (failed ? undefined : o.write(records))).catch((e: unknown) => fail(e as Error));
    };
    const flush = () => {
      // write buffered files in order, as far as they are complete
      for (;;) {
        const buffered = pending.get(nextToWrite);
        if (buffered) {
          for (const r of buffered) enqueueWrite(r);
          pending.delete(nextToWrite);
        }
        if (!done.has(nextToWrite)) break;
        nextToWrite++;
      }
      if (nextToWrite === files.length) {
        for (const w of workers) w.postMessage({ type: 'stop' } satisfies ToWorker);
        writing.then(() => {
          if (failed) return;
          try {
            throwDocumentErrors([...unreadable.keys()].sort((a, b) => a - b).map((i) => unreadable.get(i)!));
            resolve(chunks);
          } catch (error) {
            reject(error);
          }
        }, reject);
      }
    };
    const sendNext = (w: Worker) => {
      if (nextToSend < files.length) {
        const i = nextToSend++;
        w.postMessage({ type: 'file', i, name: files[i] } satisfies ToWorker);
      }
    };
    for (let k = 0; k < count; k++) {
      const w = new Worker(url, { workerData: data, execArgv });
      workers.push(w);
      w.on('message', (m: FromWorker) => {
        if (failed) return;
        if (m.type === 'error' && m.kind === 'document' && m.i !== undefined) {
          unreadable.set(m.i, toError(m) as DocumentError);
          m = { type: 'done', i: m.i, chunks: 0 };
        }
        if (m.type === 'error') return fail(toError(m));
        if (m.type === 'records') {
          if (m.i === nextToWrite) enqueueWrite(m.records);
          else {
            const list = pending.get(m.i) ?? [];
            list.push(m.records);
            pending.set(m.i, list);
          }
          return;
        }
        chunks += m.chunks;
        done.add(m.i);
        o.progress?.advance(o.sizes?.[m.i] ?? 0, files[m.i]);
        sendNext(w);
        flush();
      });
      w.on('error', (e) => fail(e));
      w.on('exit', (code) => {
        if (code !== 0 && !failed && nextToWrite < files.length) fail(new Error(`worker exited with code ${code}`));
      });
      sendNext(w);
    }
  });
}
