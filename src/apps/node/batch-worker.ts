/**
 * Worker thread of `chunkwise chunk --workers N` (see `batch.ts`): builds the chunker once
 * (per file for `auto` and `code`),
 * then chunks the files the main thread sends, one at a time, posting their records back
 * in batches. Node only.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DocumentError } from '../../documents/document-error.js';
import { ChunkwiseError } from '../../engine/errors.js';
import { UnreadableFileError } from '../cli/io.js';
import { chunkFileRecords, FileChunkers } from './chunk-file.js';
import { fileDocumentKind } from './documents.js';
import type { BatchWorkerData, FromWorker, ToWorker } from './batch.js';

const data = workerData as BatchWorkerData;
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

// the chunker of each file (one per strategy; `auto` and `code` choose per file); the
// options were checked in the main thread (FileChunkers.check)
const chunkers = new FileChunkers(data.strategy, data.options);

function describeError(error: unknown): FromWorker & { type: 'error' } {
  if (error instanceof UnreadableFileError) return { type: 'error', kind: 'unreadable', path: error.path, message: error.message };
  // a document that cannot be read (a scanned PDF): skipped, the other files go on
  if (error instanceof DocumentError) return { type: 'error', kind: 'document', message: error.message, path: error.source, reason: error.reason };
  if (error instanceof ChunkwiseError) return { type: 'error', kind: 'chunkwise', message: error.message };
  return { type: 'error', kind: 'internal', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

port.on('message', async (message: ToWorker) => {
  if (message.type === 'stop') {
    port.close();
    return;
  }
  const { i, name } = message;
  try {
    const chunks = await chunkFileRecords(chunkers.for(name, fileDocumentKind(name)), name, (records) => post({ type: 'records', i, records }), data.batchChars, undefined, data.quiet ? undefined : (line) => process.stderr.write(line), { encoding: data.encoding, pdfPassword: data.pdfPassword });
    post({ type: 'done', i, chunks });
  } catch (error) {
    post({ ...describeError(error), i });
  }
});
