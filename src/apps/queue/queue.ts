/**
 * The producer's side of the ingestion queue: enqueue embed jobs, watch them, retry the
 * failed ones, drain the waiting ones. Jobs live in Redis through BullMQ (optional peer
 * `bullmq`, imported on first use).
 * @module
 */
import { ChunkwiseError, firstLine, MissingDependencyError } from '../../engine/errors.js';
import { requireInteger } from '../../engine/options/options.js';
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
  const connection = producerConnection(o.url);
  const name = requireQueueName(o.queueName ?? DEFAULT_QUEUE_NAME);
  requireSharedSink(o.options.sink);
  const batch = o.batchFiles ?? 1;
  requireInteger('batchFiles', batch, 1);
  const { Queue } = await importBullmq();
  const queue = new Queue<EmbedJobData, EmbedJobResult>(name, { connection });
  queue.on('error', () => {}); // reported by the call that fails
  try {
    await reachable(queue, o.url);
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
  } finally {
    await queue.close();
  }
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
  const connection = producerConnection(target.url);
  const name = requireQueueName(target.queueName ?? DEFAULT_QUEUE_NAME);
  const { Queue } = await importBullmq();
  const queue = new Queue<EmbedJobData, EmbedJobResult>(name, { connection });
  queue.on('error', () => {}); // reported by the call that fails
  try {
    await reachable(queue, target.url);
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

/** What {@link waitForJobs} found at the end. */
export interface WaitResult extends EmbedJobResult {
  completed: number;
  failed: { id: string; documents: string[]; reason: string }[];
}

/**
 * Follows jobs until each has completed or failed for good (polling Redis every
 * `intervalMs`), and sums the completed jobs' results.
 */
export async function waitForJobs(target: QueueTarget, ids: readonly string[], onProgress?: WaitProgress, intervalMs = 200): Promise<WaitResult> {
  return withQueue(target, async (queue) => {
    const pending = new Set(ids);
    const result: WaitResult = { documents: 0, chunks: 0, completed: 0, failed: [] };
    onProgress?.(0, ids.length);
    while (pending.size > 0) {
      for (const id of [...pending]) {
        const job = await queue.getJob(id);
        const state = job ? await job.getState() : 'unknown';
        if (state === 'completed') {
          pending.delete(id);
          result.completed++;
          result.documents += job?.returnvalue?.documents ?? 0;
          result.chunks += job?.returnvalue?.chunks ?? 0;
        } else if (state === 'failed' || state === 'unknown') {
          pending.delete(id);
          result.failed.push({ id, documents: (job?.data?.documents ?? []).map((d) => d.path), reason: job?.failedReason ?? 'the job is gone from the queue' });
        }
      }
      onProgress?.(ids.length - pending.size, ids.length);
      if (pending.size > 0) await new Promise((r) => setTimeout(r, intervalMs));
    }
    return result;
  });
}
