/**
 * The consumer's side of the ingestion queue: a BullMQ worker that runs embed jobs (chunk,
 * embed, write to the shared sink) until it is closed. Start as many as you like, on as
 * many machines: each job is one `embed --sink` run over its documents, so a job that
 * runs twice (a worker killed mid-job, a lock that stalled) leaves the sink as one run.
 * @module
 */
import { ChunkwiseError, GrammarLoadError, InvalidInputError, InvalidOptionError, MissingDependencyError } from '../../engine/errors.js';
import { requireInteger } from '../../engine/options/options.js';
import { UnreadableFileError } from '../cli/errors.js';
import { DocumentError } from '../../documents/document-error.js';
import { UsageError } from '../cli/usage-error.js';
import { DEFAULT_QUEUE_NAME, queueConnection, requireQueueName, requireSharedSink, type EmbedJobData, type EmbedJobOptions, type EmbedJobResult } from './jobs.js';
import { importBullmq, QueueUnavailableError } from './queue.js';
import { runEmbed, type EmbedCommandOptions } from '../cli/embed-cli.js';
import { loadEmbedder } from '../node/embedders.js';
import { openSink } from '../node/sinks.js';
import type { Embedder } from '../../embedders/types.js';
import type { Sink } from '../../sinks/types.js';

/** Options of {@link createWorker}. */
export interface CreateWorkerOptions {
  /** `redis://host:port[/db]`. */
  connection: string;
  /** Default `chunkwise`. */
  queueName?: string;
  /** Jobs run at once in this process, an integer ≥ 1 (default 1). */
  concurrency?: number;
  /**
   * How long a job's lock lasts without renewal, in ms (default 30,000): a worker that
   * died holds its jobs this long before another worker takes them again.
   */
  lockDuration?: number;
  /** Called when a job fails (attempts left or not), with its id and the reason. */
  onFailed?: (id: string, reason: string, final: boolean) => void;
  /** Called when a job completes. */
  onCompleted?: (id: string, result: EmbedJobResult) => void;
  /**
   * Seconds the worker may go without reaching Redis, after it was ready, before
   * `onUnavailable` is called, an integer ≥ 1 (default 30). The worker keeps reconnecting
   * either way; `chunkwise worker` exits 1 then.
   */
  redisTimeout?: number;
  /** Called once when Redis has been out of reach for `redisTimeout` seconds (the connection was lost and did not come back). */
  onUnavailable?: (error: QueueUnavailableError) => void;
}

/** A running worker: {@link ChunkwiseWorker.close} lets the jobs in hand finish, then stops. */
export interface ChunkwiseWorker {
  /** Resolves once the worker has connected and takes jobs. */
  ready(): Promise<void>;
  /**
   * Stops taking jobs, waits for the jobs in hand, closes the connection. With `force`,
   * does not wait for the jobs in hand (their locks lapse and another worker runs them)
   * nor for more than a second for Redis: for a connection that is lost.
   */
  close(force?: boolean): Promise<void>;
}

/**
 * Whether a job's failure is final: the document cannot be read or parsed (a binary file,
 * a scanned or encrypted PDF), the options
 * are wrong, or a package is missing — a retry would fail alike. Anything else
 * (an embedder's 429 or 5xx, a store that is unavailable) is retried with backoff.
 */
export function finalFailure(error: unknown): boolean {
  return (
    error instanceof UnreadableFileError ||
    error instanceof InvalidInputError ||
    error instanceof InvalidOptionError ||
    error instanceof UsageError ||
    error instanceof MissingDependencyError ||
    error instanceof GrammarLoadError ||
    error instanceof DocumentError
  );
}

/**
 * What one worker process keeps open across jobs: an embedder per `--embedder` spec and a
 * sink per (`--sink`, `--table`), opened on the first job that names them.
 */
export class JobResources {
  readonly #embedders = new Map<string, Promise<Embedder>>();
  readonly #sinks = new Map<string, Promise<Sink>>();

  /** The embedder and the sink a job's options name. */
  async for(options: EmbedJobOptions): Promise<{ embedder: Embedder; sink: Sink }> {
    const spec = options.embedder ?? 'hashing';
    if (!this.#embedders.has(spec)) this.#embedders.set(spec, loadEmbedder(spec));
    // no --table: the sink's own default (a postgres URL's ?table=, else chunks), as `embed --sink` does
    const table = typeof options.table === 'string' ? options.table : undefined;
    const key = `${options.sink}\t${table ?? ''}`;
    if (!this.#sinks.has(key)) this.#sinks.set(key, openSink(options.sink, { table }));
    try {
      return { embedder: await this.#embedders.get(spec)!, sink: await this.#sinks.get(key)! };
    } catch (error) {
      // a spec that failed is tried again by the next job (a store that was down comes back)
      this.#embedders.delete(spec);
      this.#sinks.delete(key);
      throw error;
    }
  }

  /** Closes every sink opened. */
  async close(): Promise<void> {
    const sinks = [...this.#sinks.values()];
    this.#sinks.clear();
    await Promise.all(sinks.map((s) => s.then((sink) => sink.close()).catch(() => {})));
  }
}

/**
 * Runs one embed job: its documents through `chunkwise embed --sink` as one run (the same
 * pipeline, so a job leaves what an in-process run leaves, and its documents share windows:
 * one read, one upsert and one delete per window rather than per document). When that run
 * fails for good (a document that cannot be read or parsed), each document is run alone,
 * so one bad document does not stop the others (the documents the whole run synced are
 * skipped as unchanged); the job then fails for good with every such document's reason,
 * after the others were written.
 * @throws {InvalidOptionError} for job data of another shape or a sink workers cannot share.
 */
export async function runEmbedJob(data: EmbedJobData, resources = new JobResources()): Promise<EmbedJobResult> {
  if (!data || !Array.isArray(data.documents) || typeof data.options !== 'object' || data.options === null) {
    throw new InvalidOptionError('job', data, '{ documents: [{ path }], options: { sink, embedder, … } }');
  }
  requireSharedSink(data.options.sink);
  const opened = await resources.for(data.options);
  const run = (paths: string[]) =>
    runEmbed(paths, { strategy: 'fixed', format: 'jsonl', batchSize: 64, ...data.options, quiet: true, progress: false, summary: 'none' } as EmbedCommandOptions, opened);
  const paths = data.documents.map((doc) => doc.path);
  if (paths.length > 1) {
    try {
      const summary = await run(paths);
      return { documents: summary.documents, chunks: summary.chunks };
    } catch (error) {
      if (!finalFailure(error)) throw error;
    }
  }
  const result: EmbedJobResult = { documents: 0, chunks: 0 };
  const bad: string[] = [];
  for (const path of paths) {
    try {
      const summary = await run([path]);
      result.documents += summary.documents;
      result.chunks += summary.chunks;
    } catch (error) {
      if (!finalFailure(error)) throw error;
      bad.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (bad.length > 0) throw new JobDocumentsError(bad);
  return result;
}

/** Documents of a job that cannot be chunked (unreadable, binary, rejected by the parser): a final failure. */
export class JobDocumentsError extends ChunkwiseError {
  readonly reasons: readonly string[];
  constructor(reasons: readonly string[]) {
    super(reasons.join('; '));
    this.reasons = reasons;
  }
}

/**
 * Starts a worker that takes embed jobs from the queue until {@link ChunkwiseWorker.close}.
 * Final failures ({@link finalFailure}) end the job at once with the reason; other errors
 * are retried with exponential backoff up to the job's attempts.
 * @throws {InvalidOptionError} for a bad URL, queue name or concurrency.
 * @throws {MissingDependencyError} without bullmq.
 */
export async function createWorker(o: CreateWorkerOptions): Promise<ChunkwiseWorker> {
  const connection = queueConnection(o.connection);
  const name = requireQueueName(o.queueName ?? DEFAULT_QUEUE_NAME);
  const concurrency = o.concurrency ?? 1;
  requireInteger('concurrency', concurrency, 1);
  const lockDuration = o.lockDuration ?? 30_000;
  requireInteger('lockDuration', lockDuration, 100);
  const { Worker, UnrecoverableError } = await importBullmq();
  const resources = new JobResources();
  const worker = new Worker<EmbedJobData, EmbedJobResult>(
    name,
    async (job) => {
      try {
        return await runEmbedJob(job.data, resources);
      } catch (error) {
        if (error instanceof JobDocumentsError || finalFailure(error)) throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
        throw error;
      }
    },
    // a dead worker's job comes back after one lock period; it may stall a few times
    // (kills, restarts) before BullMQ gives up on it
    { connection, concurrency, lockDuration, stalledInterval: Math.max(100, Math.floor(lockDuration / 2)), maxStalledCount: 10 },
  );
  worker.on('failed', (job, error) => {
    if (!job) return;
    const final = error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    o.onFailed?.(String(job.id), error.message, final);
  });
  worker.on('completed', (job, result) => o.onCompleted?.(String(job.id), result));
  const redisTimeout = o.redisTimeout ?? 30;
  requireInteger('redisTimeout', redisTimeout, 1);
  // connection errors are retried by the client; without a listener they would throw
  let lastError: unknown;
  worker.on('error', (error) => (lastError = error));
  const watch = watchConnection(worker, redisTimeout, () => o.onUnavailable?.(new QueueUnavailableError(o.connection, lastError ?? new Error(`connection lost for ${redisTimeout} s`))));
  return {
    ready: () => worker.waitUntilReady().then(() => undefined),
    close: async (force = false) => {
      // the connection stays watched while the jobs in hand finish: they need Redis to end
      const closing = worker.close(force).catch(() => {});
      if (force) {
        // a close already under way (waiting for jobs in hand, or for a Redis that is gone) is not forced by close(true): drop the connections
        void worker.disconnect().catch(() => {});
        await Promise.race([closing, new Promise((r) => setTimeout(r, 1000).unref())]);
      } else await closing;
      watch.stop();
      await resources.close();
    },
  };
}

/**
 * Watches a worker's Redis connection once it is ready: `lost` is called once when the
 * connection has been down (closed, reconnecting) for `seconds` without coming back.
 */
function watchConnection(worker: import('bullmq').Worker, seconds: number, lost: () => void): { stop(): void } {
  let downSince: number | undefined;
  let told = false;
  let stopped = false;
  worker
    .waitUntilReady()
    .then(async () => {
      const client = await worker.getBackend().client;
      if (stopped) return;
      client.on('close', () => (downSince ??= Date.now()));
      client.on('ready', () => {
        downSince = undefined;
        told = false;
      });
    })
    .catch(() => {}); // a worker that never connects is the caller's start timeout
  const timer = setInterval(() => {
    if (downSince === undefined || told || Date.now() - downSince < seconds * 1000) return;
    told = true;
    lost();
  }, 250);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
