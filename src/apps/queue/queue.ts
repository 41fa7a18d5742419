/**
 * The producer's side of the ingestion queue: enqueue embed jobs, watch them, retry the
 * failed ones, drain the waiting ones. Jobs live in Redis through BullMQ (optional peer
 * `bullmq`, imported on first use).
 * @module
 */
import { ChunkwiseError, firstLine, MissingDependencyError } from '../../engine/errors.js';
import { requireInteger } from '../../engine/options/options.js';
import { resolveOptions, type StrategySchema } from '../../engine/options/schema.js';
import { DEFAULT_QUEUE_NAME, EMBED_JOB, producerConnection, requireQueueName, requireSharedSink, type EmbedJobData, type EmbedJobOptions, type EmbedJobResult } from './jobs.js';

type BullMQ = typeof import('bullmq');

/** Imports BullMQ once. @throws {MissingDependencyError} when it is not installed. */
export async function importBullmq(): Promise<BullMQ> {
  try {
    return await import('bullmq');
  } catch (error) {
    throw new MissingDependencyError('bullmq', 'The ingestion queue', error);
  }
}

/**
 * Waits until `queue` is connected.
 * @throws {QueueUnavailableError} when Redis cannot be reached.
 */
async function reachable(queue: { waitUntilReady(): Promise<unknown> }, url: string): Promise<void> {
  try {
    await queue.waitUntilReady();
  } catch (error) {
    throw new QueueUnavailableError(url, error);
  }
}

/** The Redis of a queue cannot be reached (refused, unknown host, timed out). The CLI exits 1 with the message. */
export class QueueUnavailableError extends ChunkwiseError {
  readonly url: string;
  constructor(url: string, cause?: unknown) {
    super(`cannot reach Redis at ${redactUrl(url)}: ${firstLine(cause)}`);
    this.url = url;
  }
}

/** A Redis URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/** Where the queue is: a Redis URL and the queue's name. */
export interface QueueTarget {
  /** `redis://host:port[/db]`. */
  url: string;
  /** Default `chunkwise`. */
  queueName?: string;
}

/** Attempts a job gets for transient faults (embedder 429/5xx, store unavailable), with exponential backoff from 1 s. */
export const JOB_ATTEMPTS = 5;

/** Options of {@link enqueueEmbedJobs}. */
export interface EnqueueOptions extends QueueTarget {
  /** Absolute paths of the documents. */
  files: readonly string[];
  /** The embed options every job carries (the sink must be one workers share). */
  options: EmbedJobOptions;
  /** Files per job, an integer ≥ 1 (default 1: a job per document). */
  batchFiles?: number;
}

/**
 * Puts one job per `batchFiles` documents on the queue and returns the jobs' ids, in the
 * files' order. A job runs at least once; running it twice leaves the sink as once
 * (content ids and the incremental sink make it idempotent).
 * @throws {InvalidOptionError} for a bad URL, queue name, batch size or a sink workers cannot share.
 * @throws {MissingDependencyError} without bullmq.
 */
export async function enqueueEmbedJobs(o: EnqueueOptions): Promise<string[]> {
  requireQueueName(o.queueName ?? DEFAULT_QUEUE_NAME);
  requireSharedSink(o.options.sink);
  const batch = o.batchFiles ?? 1;
  requireInteger('batchFiles', batch, 1);
  return withQueue(o, async (queue) => {
    const jobs = [];
    for (let i = 0; i < o.files.length; i += batch) {
      const data: EmbedJobData = { documents: o.files.slice(i, i + batch).map((path) => ({ path })), options: o.options };
      jobs.push({
        name: EMBED_JOB,
        data,
        opts: { attempts: JOB_ATTEMPTS, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { count: 100_000 }, removeOnFail: { count: 100_000 } },
      });
    }
    const added = [];
    for (let i = 0; i < jobs.length; i += 1000) added.push(...(await queue.addBulk(jobs.slice(i, i + 1000))));
    return added.map((j) => j.id as string);
  });
}

/** Counts of a queue's jobs by state, and the failed jobs' reasons. */
export interface QueueStatus {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
  /** The failed jobs (up to 100, newest first): id, documents and the reason. */
  failures: { id: string; documents: string[]; reason: string }[];
}

/** Runs `fn` with a BullMQ Queue for `target`, closing it afterwards. */
async function withQueue<T>(target: QueueTarget, fn: (queue: import('bullmq').Queue<EmbedJobData, EmbedJobResult>) => Promise<T>): Promise<T> {
  const queue = await openQueue(target);
  try {
    return await fn(queue);
  } finally {
    await queue.close();
  }
}

/** The queue's job counts by state and its failed jobs' reasons. */
export async function queueStatus(target: QueueTarget): Promise<QueueStatus> {
  return withQueue(target, async (queue) => {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized');
    const failed = await queue.getFailed(0, 99);
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      completed: counts.completed ?? 0,
      failed: counts.failed ?? 0,
      failures: failed.filter(Boolean).map((j) => ({ id: String(j.id), documents: (j.data?.documents ?? []).map((d) => d.path), reason: j.failedReason ?? '' })),
    };
  });
}

/** Moves every failed job back to waiting. @returns how many were failed before. */
export async function retryFailed(target: QueueTarget): Promise<number> {
  return withQueue(target, async (queue) => {
    const { failed = 0 } = await queue.getJobCounts('failed');
    await queue.retryJobs({ state: 'failed' });
    return failed;
  });
}

/** Removes the waiting and delayed jobs (those in hand finish). @returns how many were removed. */
export async function drainQueue(target: QueueTarget): Promise<number> {
  return withQueue(target, async (queue) => {
    const c = await queue.getJobCounts('waiting', 'delayed', 'prioritized');
    await queue.drain(true);
    return (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0);
  });
}

/** Progress of {@link waitForJobs}: jobs finished (completed or failed) of the total. */
export type WaitProgress = (finished: number, total: number) => void;

/**
 * The options of {@link waitForJobs} that the CLI takes as flags (`embed --queue … --wait
 * --wait-timeout 600`): validation, the flag, its `--help` line and the docs' table come
 * from this schema.
 */
export const WAIT_SCHEMA = {
  name: 'embed --wait',
  options: {
    waitTimeout: {
      type: 'integer',
      min: 1,
      default: 600,
      doc: 'seconds to go on waiting while no job is taken or finished (no worker running) or Redis cannot be reached; then exit 1, the jobs left on the queue',
      cli: { placeholder: '<seconds>' },
    },
  },
} as const satisfies StrategySchema;

/** Options of {@link waitForJobs}. */
export interface WaitOptions {
  /** Called after each poll with the jobs finished so far. */
  onProgress?: WaitProgress;
  /**
   * Seconds without progress — no job of `ids` taken by a worker or finished, or Redis
   * unreachable — before the wait gives up, an integer ≥ 1 (default 600; see {@link WAIT_SCHEMA}).
   */
  waitTimeout?: number;
  /** Called once when the connection to Redis is lost (the wait reconnects until `waitTimeout`). */
  onConnectionLost?: (reason: string) => void;
  /** ms between polls (default 200). */
  intervalMs?: number;
}

/** What {@link waitForJobs} found at the end. */
export interface WaitResult extends EmbedJobResult {
  completed: number;
  failed: { id: string; documents: string[]; reason: string }[];
}

/** No job of a wait was taken or finished for `waitTimeout` seconds (no worker is running on the queue). The CLI exits 1. */
export class WaitTimeoutError extends ChunkwiseError {
  /** The ids of the jobs still on the queue. */
  readonly pending: readonly string[];
  /** What had finished when the wait gave up. */
  readonly result: WaitResult;
  constructor(
    readonly seconds: number,
    pending: readonly string[],
    result: WaitResult,
    queueName: string,
    advice = 'is a chunkwise worker running on it?',
  ) {
    super(`no job was taken or finished in ${seconds} s: ${pending.length} of ${pending.length + result.completed + result.failed.length} job(s) still on queue ${queueName} (${advice})`);
    this.pending = pending;
    this.result = result;
  }
}

/** Jobs of an `embed --queue … --wait` run failed (each failure is reported before). The CLI exits 1. */
export class JobsFailedError extends ChunkwiseError {
  constructor(
    readonly failed: number,
    readonly total: number,
  ) {
    super(`${failed} of ${total} job(s) failed`);
  }
}

/** Opens a Queue for `target` and waits until it is connected. @throws {QueueUnavailableError} */
async function openQueue(target: QueueTarget): Promise<import('bullmq').Queue<EmbedJobData, EmbedJobResult>> {
  const connection = producerConnection(target.url);
  const name = requireQueueName(target.queueName ?? DEFAULT_QUEUE_NAME);
  const { Queue } = await importBullmq();
  const queue = new Queue<EmbedJobData, EmbedJobResult>(name, { connection });
  queue.on('error', () => {}); // reported by the call that fails
  try {
    await reachable(queue, target.url);
  } catch (error) {
    await closeQuietly(queue);
    throw error;
  }
  return queue;
}

/** Closes a queue whose connection may be gone, without waiting more than a second. */
async function closeQuietly(queue: { close(): Promise<unknown> }): Promise<void> {
  await Promise.race([queue.close().catch(() => {}), new Promise((r) => setTimeout(r, 1000).unref())]);
}

/**
 * Follows jobs until each has completed or failed for good (polling Redis every
 * `intervalMs`), and sums the completed jobs' results. A job's state is read before its
 * result, so a job that completes between the two reads is counted with its documents.
 * A lost connection to Redis is reconnected (`onConnectionLost` is told once); a job gone
 * from the queue (a Redis that restarted without persistence) counts as failed.
 * @throws {WaitTimeoutError} when for `waitTimeout` seconds no job was taken or finished.
 * @throws {QueueUnavailableError} when Redis cannot be reached at the start, or stays
 *   unreachable for `waitTimeout` seconds.
 * @throws {InvalidOptionError} for a `waitTimeout` that is not an integer ≥ 1.
 */
export async function waitForJobs(target: QueueTarget, ids: readonly string[], o: WaitOptions = {}): Promise<WaitResult> {
  const { waitTimeout } = resolveOptions<{ waitTimeout: number }>(WAIT_SCHEMA, { waitTimeout: o.waitTimeout });
  const intervalMs = o.intervalMs ?? 200;
  const pending = new Set(ids);
  const result: WaitResult = { documents: 0, chunks: 0, completed: 0, failed: [] };
  let queue: import('bullmq').Queue<EmbedJobData, EmbedJobResult> | undefined = await openQueue(target);
  let moved = Date.now(); // the last time a job was taken or finished
  let lost: unknown; // the error of a lost connection, until a poll succeeds again
  try {
    o.onProgress?.(0, ids.length);
    while (pending.size > 0) {
      try {
        queue ??= await openQueue(target);
        let taken = false;
        for (const id of [...pending]) {
          const state = await queue.getJobState(id);
          if (state === 'active') taken = true;
          if (state !== 'completed' && state !== 'failed' && state !== 'unknown') continue;
          // read after the state: a completed job's result is there
          const job = await queue.getJob(id);
          pending.delete(id);
          moved = Date.now();
          if (state === 'completed' && job) {
            result.completed++;
            result.documents += job.returnvalue?.documents ?? 0;
            result.chunks += job.returnvalue?.chunks ?? 0;
          } else {
            result.failed.push({ id, documents: (job?.data?.documents ?? []).map((d) => d.path), reason: job?.failedReason || 'the job is gone from the queue' });
          }
        }
        if (taken) moved = Date.now();
        lost = undefined;
      } catch (error) {
        if (error instanceof ChunkwiseError && !(error instanceof QueueUnavailableError)) throw error;
        if (lost === undefined) o.onConnectionLost?.(firstLine(error));
        lost = error;
        if (queue) await closeQuietly(queue);
        queue = undefined;
      }
      o.onProgress?.(ids.length - pending.size, ids.length);
      if (pending.size === 0) break;
      if (Date.now() - moved > waitTimeout * 1000) {
        if (lost !== undefined) throw new QueueUnavailableError(target.url, lost);
        throw new WaitTimeoutError(waitTimeout, [...pending], result, target.queueName ?? DEFAULT_QUEUE_NAME);
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
    return result;
  } finally {
    if (queue) await closeQuietly(queue);
  }
}
