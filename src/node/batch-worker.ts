/**
 * Worker thread of `chunkwise chunk --workers N` (see `batch.ts`): builds the chunker once,
 * then chunks the files the main thread sends, one at a time, posting their records back
 * in batches. Node only.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkwiseError } from '../core/errors.js';
import type { Chunker } from '../strategies/registry.js';
import { UnreadableFileError } from '../cli/io.js';
import { chunkerPicker, chunkFileRecords } from './chunk-file.js';
import type { BatchWorkerData, FromWorker, ToWorker } from './batch.js';

const data = workerData as BatchWorkerData;
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

let chunkerOf: ((file: string) => Chunker) | undefined;
let setupError: unknown;
try {
  chunkerOf = chunkerPicker(data.strategy, data.options);
} catch (error) {
  setupError = error;
}

function describeError(error: unknown): FromWorker & { type: 'error' } {
  if (error instanceof UnreadableFileError) return { type: 'error', kind: 'unreadable', path: error.path, message: error.message };
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
    if (!chunkerOf) throw setupError;
    const chunks = await chunkFileRecords(chunkerOf(name), name, (records) => post({ type: 'records', i, records }), data.batchChars);
    post({ type: 'done', i, chunks });
  } catch (error) {
    post({ ...describeError(error), i });
  }
});
