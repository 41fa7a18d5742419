/**
 * The jobs of the ingestion queue: what one job holds (documents and the `embed`
 * options), how a Redis URL becomes a BullMQ connection, and which failures are final.
 * Node only (the queue runs on BullMQ over Redis).
 * @module
 */
import { InvalidOptionError } from '../../engine/errors.js';

/** The queue's name when none is given (`--queue-name`). */
export const DEFAULT_QUEUE_NAME = 'chunkwise';

/** BullMQ's job name for an embed job. */
export const EMBED_JOB = 'embed';

/** A document of a job: a file path the worker reads (absolute: every worker resolves it alike). */
export interface JobDocument {
  path: string;
}

/**
 * The options of an embed job: the `chunkwise embed` options (strategy and its flags under
 * their schema names, `embedder` spec, `sink` spec, `table`, `batchSize`), as JSON.
 */
export type EmbedJobOptions = Record<string, unknown> & { sink: string; embedder: string };

/** The data of one embed job: documents to chunk, embed and write to the sink. */
export interface EmbedJobData {
  documents: JobDocument[];
  options: EmbedJobOptions;
}

/** What a finished job returns: per-job counts, summed by `embed --wait`. */
export interface EmbedJobResult {
  /** Documents written. */
  documents: number;
  /** Chunks the documents have now. */
  chunks: number;
}

/** A BullMQ connection from a Redis URL (`redis://[user:password@]host:port[/db]`). */
export interface QueueConnection {
  url: string;
  /** BullMQ's workers block on Redis: never give up a command (BullMQ requires null). */
  maxRetriesPerRequest: null;
  /** ms to wait for the TCP connection. */
  connectTimeout: number;
  /** Reconnect delays in ms; `null` gives up (a producer's command then fails instead of waiting for ever). */
  retryStrategy?: (attempt: number) => number | null;
}

/** Reconnect attempts a producer (enqueue, status, retry, drain) makes before its command fails. */
const PRODUCER_ATTEMPTS = 3;

/**
 * The connection of a producer-side call: like {@link queueConnection}, but a Redis that
 * cannot be reached fails the call after {@link PRODUCER_ATTEMPTS} attempts (about 2 s)
 * instead of waiting for it (a worker waits: Redis may be restarting).
 */
export function producerConnection(url: unknown): QueueConnection {
  return { ...queueConnection(url), retryStrategy: (attempt) => (attempt > PRODUCER_ATTEMPTS ? null : 200 * attempt) };
}

/**
 * Checks a Redis URL and returns BullMQ's connection options for it.
 * @throws {InvalidOptionError} for a URL that is not `redis://` or `rediss://` with a host.
 */
export function queueConnection(url: unknown): QueueConnection {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.hostname === '') {
    throw new InvalidOptionError('queue', url, 'a Redis URL, redis://host:port[/db]');
  }
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new InvalidOptionError('queue', url, 'a Redis URL whose path is a database number, redis://host:port/0');
  return { url: url as string, maxRetriesPerRequest: null, connectTimeout: 5000 };
}

/**
 * Checks a queue name: letters, digits, `-`, `_` and `.`, 1 to 100 characters (BullMQ
 * keys are `bull:<name>:…`; a `:` would split them).
 * @throws {InvalidOptionError} otherwise.
 */
export function requireQueueName(name: unknown): string {
  if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(name)) {
    throw new InvalidOptionError('queueName', name, 'letters, digits, -, _ and ., 1 to 100 characters');
  }
  return name;
}

/**
 * Whether a sink spec names a store that processes on several machines can write at
 * once: a Postgres server or a LanceDB folder. A PGlite folder is one process's store.
 */
export function sharedSink(spec: string): boolean {
  return !spec.startsWith('pglite:');
}

/**
 * Checks that workers may write the sink a job names.
 * @throws {InvalidOptionError} for a PGlite folder (only one process may open it).
 */
export function requireSharedSink(spec: unknown): string {
  if (typeof spec !== 'string' || spec === '') throw new InvalidOptionError('sink', spec, 'a store that workers share: postgres://… or lancedb:<dir>');
  if (!sharedSink(spec)) {
    throw new InvalidOptionError('sink', spec, 'a store that several worker processes may write: a PGlite folder takes one process; use postgres://… (or lancedb:<dir> on one machine)');
  }
  return spec;
}
