/**
 * The queue on the command line: `embed … --queue URL` enqueues instead of embedding,
 * `worker --queue URL` runs jobs until SIGTERM, `queue status|retry-failed|drain` watch and
 * recover. Node only; BullMQ over Redis.
 * @module
 */
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { walkExtensions } from '../node/chunk-file.js';
import { DEFAULT_QUEUE_NAME, requireSharedSink } from '../queue/jobs.js';
import { drainQueue, enqueueEmbedJobs, JobsFailedError, QueueUnavailableError, queueStatus, redactUrl, retryFailed, WAIT_SCHEMA, waitForJobs, WaitTimeoutError, type QueueStatus, type WaitResult } from '../queue/queue.js';
import { resolveOptions } from '../../engine/options/schema.js';
import { createWorker } from '../queue/worker.js';
import { DEFAULT_EXTENSIONS, expandInputs } from './inputs.js';
import { progressWanted } from './io.js';
import { parsePositiveIntegerArg, schemaOption } from './strategy-flags.js';
import { UsageError } from './usage-error.js';

/** The embed options this module reads besides the strategy and embedder flags. */
export interface EnqueueCliOptions {
  queue?: string;
  queueName?: string;
  batchFiles?: number;
  wait?: boolean;
  /** Seconds `--wait` goes on without progress (see {@link WAIT_SCHEMA}). */
  waitTimeout?: number;
  sink?: string;
  strategy: string;
  ext?: string[];
  quiet?: boolean;
  progress?: boolean;
  [key: string]: unknown;
}

/** Options of `embed` that the queue does not carry to the workers (they are the producer's). */
const PRODUCER_ONLY = new Set(['queue', 'queueName', 'batchFiles', 'wait', 'waitTimeout', 'quiet', 'progress', 'ext', 'out', 'format', 'vectorFormat', 'summary']);

/** Adds `--queue`, `--queue-name`, `--batch-files`, `--wait` and `--wait-timeout` to `embed`. */
export function addEnqueueOptions(command: Command): Command {
  return command
    .option('--queue <url>', 'put the documents on a BullMQ queue in Redis (redis://host:port[/db]) for `chunkwise worker`s instead of embedding here; needs --sink postgres://… or lancedb:<dir>')
    .option('--queue-name <name>', `queue name (default ${DEFAULT_QUEUE_NAME})`)
    .option('--batch-files <n>', 'files per job (default 1: a job per document)', parsePositiveIntegerArg)
    .option('--wait', 'with --queue: follow the jobs until each has completed or failed, then print the summary (exit 1 when a job failed)')
    .addOption(schemaOption('waitTimeout', WAIT_SCHEMA.options.waitTimeout));
}

/**
 * `embed … --queue URL`: one job per document (or per `--batch-files`), with the embed
 * options; with `--wait`, follows them to the end (exit 1 when any failed).
 * @throws {UsageError} for `--queue` without a sink workers can share, or queue flags without `--queue`.
 */
export async function runEnqueue(inputs: string[], o: EnqueueCliOptions): Promise<void> {
  if (!o.sink) throw new UsageError('--queue needs --sink: the store the workers write (postgres://… or lancedb:<dir>)');
  try {
    requireSharedSink(o.sink);
  } catch {
    throw new UsageError(`--sink ${o.sink}: a PGlite folder takes one process, workers need a store they share: --sink postgres://… (or lancedb:<dir> with every worker on this machine)`);
  }
  if (o.prune) throw new UsageError('--prune goes with an in-process run: each queue job holds some of the documents, not the whole corpus');
  if (inputs.includes('-')) throw new UsageError('--queue takes files: the workers read each document from its path, not from this stdin');
  if (o.waitTimeout !== undefined && !o.wait) throw new UsageError('--wait-timeout goes with --wait');
  const { waitTimeout } = resolveOptions<{ waitTimeout: number }>(WAIT_SCHEMA, { waitTimeout: o.waitTimeout });
  const files = (await expandInputs(inputs, o.ext ?? walkExtensions(o.strategy, DEFAULT_EXTENSIONS))).map((f) => resolve(f));
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (!PRODUCER_ONLY.has(k) && v !== undefined) options[k] = v;
  if (o.sink.startsWith('lancedb:')) options.sink = `lancedb:${resolve(o.sink.slice('lancedb:'.length))}`;
  const queueName = o.queueName ?? DEFAULT_QUEUE_NAME;
  const target = { url: o.queue as string, queueName: o.queueName };
  const ids = await enqueueEmbedJobs({ ...target, files, options: options as { sink: string; embedder: string }, batchFiles: o.batchFiles });
  const say = (line: string) => {
    if (!o.quiet) process.stderr.write(`chunkwise: ${line}\n`);
  };
  if (!o.wait) return say(`${ids.length} job(s) for ${files.length} file(s) on queue ${queueName}`);
  const started = performance.now();
  const show = progressWanted(o) && ids.length > 1;
  const bar = show ? new cliProgress.SingleBar({ stream: process.stderr, format: 'jobs [{bar}] {value}/{total}', clearOnComplete: true }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(ids.length, 0);
  const summary = (result: WaitResult) => {
    bar?.stop();
    say(`${result.completed} of ${ids.length} job(s) completed, ${result.documents} document(s), ${result.failed.length} failed, ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (const f of result.failed) process.stderr.write(`chunkwise: job ${f.id} failed: ${f.reason}\n`);
  };
  let result: WaitResult;
  try {
    result = await waitForJobs(target, ids, {
      waitTimeout,
      onProgress: (done) => bar?.update(done),
      onConnectionLost: (reason) => say(`lost the connection to Redis at ${redactUrl(target.url)} (${reason}): reconnecting for up to ${waitTimeout} s`),
    });
  } catch (error) {
    if (!(error instanceof WaitTimeoutError)) {
      bar?.stop();
      throw error;
    }
    summary(error.result);
    throw new WaitTimeoutError(error.seconds, error.pending, error.result, queueName, 'they stay queued: start chunkwise worker on it, or wait longer with --wait-timeout');
  }
  summary(result);
  if (result.failed.length > 0) throw new JobsFailedError(result.failed.length, ids.length);
}

/** Options of `worker` and `queue …`. */
interface QueueCliOptions {
  queue: string;
  queueName?: string;
  concurrency?: number;
  lockDuration?: number;
  redisTimeout?: number;
  quiet?: boolean;
}

/** A promise resolved by `fire()`, and whether it was. */
function signalled(): { promise: Promise<void>; fire(): void; done: boolean } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  const s = {
    promise,
    done: false,
    fire: () => {
      s.done = true;
      fire();
    },
  };
  return s;
}

/** A status report, one count per line and a line per failed job. */
export function formatStatus(s: QueueStatus): string {
  let out = `waiting ${s.waiting}\nactive ${s.active}\ndelayed ${s.delayed}\ncompleted ${s.completed}\nfailed ${s.failed}\n`;
  for (const f of s.failures) out += `failed job ${f.id} (${f.documents.join(', ')}): ${f.reason}\n`;
  return out;
}

/** Adds `worker` and `queue status|retry-failed|drain` to the program. */
export function addQueueCommands(program: Command): void {
  program
    .command('worker')
    .description('run embed jobs from a BullMQ queue (see embed --queue) until SIGTERM or SIGINT; the jobs in hand finish first')
    .requiredOption('--queue <url>', 'Redis holding the queue: redis://host:port[/db]')
    .option('--queue-name <name>', `queue name (default ${DEFAULT_QUEUE_NAME})`)
    .option('--concurrency <n>', 'jobs at once in this process', parsePositiveIntegerArg, 1)
    .option('--lock-duration <ms>', 'ms a job stays locked to a worker that stopped answering before another takes it', parsePositiveIntegerArg, 30_000)
    .option('--redis-timeout <seconds>', 'seconds the worker goes without Redis — at start, or after losing it — before it exits 1 with the reason (the jobs in hand run again on another worker)', parsePositiveIntegerArg, 30)
    .action(async (o: QueueCliOptions) => {
      const say = (line: string) => {
        if (!o.quiet) process.stderr.write(`chunkwise: ${line}\n`);
      };
      const seconds = o.redisTimeout ?? 30;
      // SIGTERM or SIGINT stops the worker from now on: the first lets the jobs in hand
      // finish, a second does not wait (nor does a Redis that is gone)
      const signals = [signalled(), signalled()];
      const onSignal = () => signals.find((s) => !s.done)?.fire();
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
      let unavailable!: (error: QueueUnavailableError) => void;
      const lost = new Promise<never>((_, fail) => (unavailable = fail));
      lost.catch(() => {}); // observed by the races below
      const worker = await createWorker({
        connection: o.queue,
        queueName: o.queueName,
        concurrency: o.concurrency,
        lockDuration: o.lockDuration,
        redisTimeout: seconds,
        onUnavailable: unavailable,
        onFailed: (id, reason, final) => say(`job ${id} ${final ? 'failed' : 'will be retried'}: ${reason}`),
      });
      try {
        // the first connection must come within --redis-timeout (a worker started against a wrong URL says so)
        const noAnswer = new Promise<never>((_, fail) => setTimeout(() => fail(new QueueUnavailableError(o.queue, new Error(`no answer in ${seconds} s`))), seconds * 1000).unref());
        if (!(await Promise.race([worker.ready().then(() => true), noAnswer, signals[0].promise.then(() => false)]))) return await worker.close(true);
        say(`worker on queue ${o.queueName ?? DEFAULT_QUEUE_NAME} (${o.concurrency ?? 1} at once)`);
        // later drops are reconnected for up to --redis-timeout
        await Promise.race([signals[0].promise, lost]);
        say('stopping: finishing the jobs in hand');
        if (await Promise.race([worker.close().then(() => true), lost, signals[1].promise.then(() => false)])) return;
        say('stopping now: the jobs in hand go back to the queue when their locks lapse');
        await worker.close(true);
      } catch (error) {
        await worker.close(true);
        throw error;
      } finally {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
      }
    });

  const queue = program.command('queue').description('watch and recover the queue of embed jobs');
  const target = (c: Command) =>
    c.requiredOption('--queue <url>', 'Redis holding the queue: redis://host:port[/db]').option('--queue-name <name>', `queue name (default ${DEFAULT_QUEUE_NAME})`);
  target(queue.command('status').description('counts of waiting, active, delayed, completed and failed jobs, and the failed jobs\' reasons')).action(async (o: QueueCliOptions) => {
    process.stdout.write(formatStatus(await queueStatus({ url: o.queue, queueName: o.queueName })));
  });
  target(queue.command('retry-failed').description('move every failed job back to waiting')).action(async (o: QueueCliOptions) => {
    const n = await retryFailed({ url: o.queue, queueName: o.queueName });
    process.stdout.write(`${n} failed job(s) back to waiting\n`);
  });
  target(queue.command('drain').description('remove the waiting and delayed jobs (jobs in hand finish)')).action(async (o: QueueCliOptions) => {
    const n = await drainQueue({ url: o.queue, queueName: o.queueName });
    process.stdout.write(`${n} job(s) removed\n`);
  });
}

