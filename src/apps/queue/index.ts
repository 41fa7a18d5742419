/**
 * `chunkwise/queue`: ingestion past one machine. `enqueueEmbedJobs` puts documents on a
 * BullMQ queue in Redis; `createWorker` runs the jobs (chunk, embed, write to a sink that
 * workers share) on as many processes and machines as you start; `queueStatus`,
 * `retryFailed`, `drainQueue` watch and recover. Node only; optional peer `bullmq`.
 * @module
 */
export { DEFAULT_QUEUE_NAME, queueConnection, requireSharedSink, type EmbedJobData, type EmbedJobOptions, type EmbedJobResult, type JobDocument } from './jobs.js';
export { drainQueue, enqueueEmbedJobs, JOB_ATTEMPTS, JobsFailedError, QueueUnavailableError, queueStatus, retryFailed, WAIT_SCHEMA, waitForJobs, WaitTimeoutError, type EnqueueOptions, type QueueStatus, type QueueTarget, type WaitOptions, type WaitProgress, type WaitResult } from './queue.js';
export { createWorker, finalFailure, JobDocumentsError, JobResources, runEmbedJob, type ChunkwiseWorker, type CreateWorkerOptions } from './worker.js';
