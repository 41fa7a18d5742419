/**
 * The embed stage of {@link pipeline}: the vectors of a window's chunks, each distinct
 * `embedText ?? text` embedded once (a run-wide least-recently-used cache of vectors),
 * `embedBatchSize` texts per call, `concurrency` calls at once, transient failures
 * retried with exponential backoff. Core module: no Node built-in.
 * @module
 */
import { hashText, type Chunk } from '../engine/chunk.js';
import { EmbeddingError } from '../engine/errors.js';
import { withBackoff, type RetryEvent, type TransientFailure } from '../engine/retry.js';
import { EmbeddingRequestError, RETRY_STATUS } from '../embedders/openai.js';
import type { Embedder } from '../embedders/types.js';
import type { pipeline } from './pipeline.js';

/** A transient embedder failure: an HTTP-like `status` of {@link RETRY_STATUS}; an `EmbeddingRequestError` has had its own retries. */
function transient(error: unknown): TransientFailure | undefined {
  if (error instanceof EmbeddingRequestError) return undefined;
  const status = (error as { status?: unknown })?.status;
  if (typeof status !== 'number' || !RETRY_STATUS.has(status)) return undefined;
  return { status, reason: String((error as Error)?.message ?? error).split('\n', 1)[0] };
}

/** A least-recently-used map of vectors by key, at most `max` entries. */
class VectorCache {
  readonly #map = new Map<string, Float32Array>();
  constructor(readonly max: number) {}
  get(key: string): Float32Array | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  set(key: string, v: Float32Array): void {
    if (this.max === 0) return;
    this.#map.delete(key);
    this.#map.set(key, v);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as string);
  }
}

/** Runs `tasks` with at most `limit` in flight; resolves when all are done, rejects on the first failure. */
async function runLimited(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/** How the embed stage calls the embedder (the pipeline's options, checked). */
export interface EmbedStage {
  embedder: Embedder;
  /** The embedder's identity (the cache's key, with the text's hash). */
  identity: string;
  embedBatchSize: number;
  concurrency: number;
  policy: { maxRetries: number; initialDelayMs: number; maxDelayMs: number; onRetry?: (event: RetryEvent) => void };
  /** Distinct texts whose vectors are kept (0: none). */
  cacheSize: number;
  /** Counts the texts sent to the embedder. */
  counts: { embedded: number };
}

/**
 * The function giving the n × d vectors of `chunks`' `embedText ?? text` for a run:
 * distinct texts not in the run's cache are embedded.
 * @throws {EmbeddingError} (from the function) when the embedder returns a wrong shape.
 */
export function vectorsFor(stage: EmbedStage): (chunks: readonly Chunk[]) => Promise<Float32Array> {
  const { embedder, identity, embedBatchSize, concurrency, policy, counts } = stage;
  const cache = new VectorCache(stage.cacheSize);
  const d = embedder.dimension;
  // the cache's key: the embedder's identity and the text's hash and length
  const cacheKey = (text: string) => `${identity}\u0000${hashText(text)}:${text.length}`;

  const embedTexts = async (texts: string[]): Promise<Float32Array> => {
    const out = await withBackoff(() => embedder.embed(texts), transient, policy);
    if (!(out instanceof Float32Array) || out.length !== texts.length * d) {
      throw new EmbeddingError(`the embedder returned ${out instanceof Float32Array ? out.length : typeof out} values for ${texts.length} texts of dimension ${d}`);
    }
    counts.embedded += texts.length;
    return out;
  };

  return async (chunks) => {
    const vectors = new Float32Array(chunks.length * d);
    const pending = new Map<string, number[]>();
    chunks.forEach((c, i) => {
      const t = c.embedText ?? c.text;
      const hit = cache.get(cacheKey(t));
      if (hit) vectors.set(hit, i * d);
      else {
        const at = pending.get(t);
        if (at) at.push(i);
        else pending.set(t, [i]);
      }
    });
    const texts = [...pending.keys()];
    const tasks: (() => Promise<void>)[] = [];
    for (let s = 0; s < texts.length; s += embedBatchSize) {
      const part = texts.slice(s, s + embedBatchSize);
      tasks.push(async () => {
        const out = await embedTexts(part);
        part.forEach((t, j) => {
          const v = out.slice(j * d, (j + 1) * d);
          cache.set(cacheKey(t), v);
          for (const i of pending.get(t)!) vectors.set(v, i * d);
        });
      });
    }
    await runLimited(tasks, concurrency);
    return vectors;
  };
}
