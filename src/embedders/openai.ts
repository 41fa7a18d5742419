/**
 * {@link OpenAIEmbedder}: an {@link Embedder} over any OpenAI-compatible
 * `POST {baseURL}/embeddings` endpoint (OpenAI, Azure-style proxies, vLLM, llama.cpp's
 * server, Ollama, LiteLLM, Text Embeddings Inference …) through `fetch`. Core module: no
 * Node built-in (the API key falls back to `process.env.OPENAI_API_KEY` where there is
 * a `process`).
 *
 * Request and response follow the OpenAI API reference for embeddings: `{ model, input:
 * string[], encoding_format: 'float', dimensions? }` → `{ data: [{ index, embedding }] }`.
 * @module
 */
import { EmbeddingError, InvalidOptionError } from '../engine/errors.js';
import { rejectUnknownOptions } from '../engine/options/schema.js';
import { normalizeRows } from './normalize.js';
import { requireTexts } from './texts.js';
import type { Embedder } from './types.js';
import { withBackoff, type RetryEvent, type TransientFailure } from '../engine/retry.js';

/** Dimensions of OpenAI's embedding models (used when `dimension` is not given). */
export const OPENAI_MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

export type { RetryEvent } from '../engine/retry.js';

/** Options of {@link OpenAIEmbedder}. */
export interface OpenAIEmbedderOptions {
  /** Model name sent in each request, e.g. `text-embedding-3-small`. Required. */
  model: string;
  /**
   * d, the length of each vector. Default: `dimensions` if given, else the known size of
   * an OpenAI model ({@link OPENAI_MODEL_DIMENSIONS}); for other models give it or use
   * {@link OpenAIEmbedder.create}, which asks the endpoint. Every response is checked against it.
   */
  dimension?: number;
  /** Sent as `dimensions` (shortened vectors of text-embedding-3 models). */
  dimensions?: number;
  /** API base URL, up to `/v1`. Default `OPENAI_BASE_URL` where set, else `https://api.openai.com/v1`. */
  baseURL?: string;
  /** Bearer token. Default `OPENAI_API_KEY`. Required for api.openai.com; other endpoints may need none. */
  apiKey?: string;
  /** Texts per request, 1 … 2048 (OpenAI's limit). Default 128. */
  batchSize?: number;
  /** Retries of a request after 429, 5xx, a network error or a timeout. Default 5. */
  maxRetries?: number;
  /** First backoff delay in ms; doubled per retry (full jitter off: deterministic). Default 500. */
  initialDelayMs?: number;
  /** Longest wait between attempts in ms, Retry-After included. Default 30000. */
  maxDelayMs?: number;
  /** Abort one attempt after this many ms. Default 60000. */
  timeoutMs?: number;
  /** L2-normalise rows (default true; OpenAI's vectors already are, other servers' may not be). */
  normalize?: boolean;
  /** Extra request headers (e.g. `api-key` for Azure, an organisation). */
  headers?: Record<string, string>;
  /** The fetch to use (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** Called before each retry. */
  onRetry?: (event: RetryEvent) => void;
}

/**
 * A request to the embeddings endpoint failed for good: `status` is the HTTP status of
 * the last attempt (undefined for a network error or timeout), `attempts` how many were
 * made, `retryable` whether the failure was of a kind that is retried (then the retries
 * ran out).
 */
export class EmbeddingRequestError extends EmbeddingError {
  readonly status: number | undefined;
  readonly attempts: number;
  readonly retryable: boolean;
  constructor(message: string, status: number | undefined, attempts: number, retryable: boolean) {
    super(message);
    this.status = status;
    this.attempts = attempts;
    this.retryable = retryable;
  }
}

/** HTTP statuses of a transient failure: retried with backoff. */
export const RETRY_STATUS: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504]);

/** A response with a status of {@link RETRY_STATUS}, thrown inside the retry loop only. */
class RetryableResponse extends Error {
  constructor(readonly failure: TransientFailure) {
    super(failure.reason);
  }
}

/** Milliseconds a response asks to wait: `retry-after-ms`, else `Retry-After` (seconds or an HTTP date); undefined if neither. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const after = headers.get('retry-after');
  if (after === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return Number(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function env(name: string): string | undefined {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const v = p?.env?.[name];
  return v === undefined || v === '' ? undefined : v;
}

function positiveInt(name: string, value: number, max = Number.MAX_SAFE_INTEGER, min = 1): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new InvalidOptionError(name, value, `an integer from ${min} to ${max}`);
  return value;
}

/** Every name of {@link OpenAIEmbedderOptions} (a typo such as `baseUrl` would otherwise send the key to api.openai.com). */
const OPENAI_OPTION_NAMES: { readonly [K in keyof Required<OpenAIEmbedderOptions>]: true } = {
  model: true,
  dimension: true,
  dimensions: true,
  baseURL: true,
  apiKey: true,
  batchSize: true,
  maxRetries: true,
  initialDelayMs: true,
  maxDelayMs: true,
  timeoutMs: true,
  normalize: true,
  headers: true,
  fetch: true,
  onRetry: true,
};

/**
 * Embeddings from an OpenAI-compatible HTTP endpoint.
 *
 * - Batching: `batchSize` texts per request, in order; empty strings are not sent (the
 *   API refuses them) and get the zero vector.
 * - Retries: 429, 408, 409 and 5xx responses, network errors and timeouts are retried
 *   up to `maxRetries` times, waiting `Retry-After` / `retry-after-ms` when the server
 *   says, else `initialDelayMs · 2^(attempt − 1)`, at most `maxDelayMs`. Other
 *   statuses (400, 401, 404 …) fail at once with the server's error message.
 * - Checks: every response must hold one vector of d numbers per text
 *   ({@link EmbeddingError} otherwise: a model of another size, a proxy's HTML page).
 *
 * @example
 * ```ts
 * const openai = new OpenAIEmbedder({ model: 'text-embedding-3-small' }); // OPENAI_API_KEY
 * const local = await OpenAIEmbedder.create({ model: 'nomic-embed-text', baseURL: 'http://localhost:11434/v1' });
 * const vectors = await local.embed(['first chunk', 'second chunk']); // 2 × local.dimension
 * ```
 */
export class OpenAIEmbedder implements Embedder {
  readonly dimension: number;
  readonly model: string;
  readonly baseURL: string;
  readonly batchSize: number;
  /** Identity: `openai:<model>:<dimension>@<host of baseURL>` (see `Embedder.id`). */
  get id(): string {
    return `openai:${this.model}:${this.dimension}@${new URL(this.baseURL).host}`;
  }
  /** Requests sent (retries included), for monitoring. */
  requests = 0;
  readonly #options: OpenAIEmbedderOptions;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #initialDelay: number;
  readonly #maxDelay: number;
  readonly #timeout: number;

  /**
   * @throws {InvalidOptionError} for a missing model, an unknown dimension, a missing
   *   API key for api.openai.com, no fetch, or numbers out of range.
   */
  constructor(options: OpenAIEmbedderOptions) {
    rejectUnknownOptions<OpenAIEmbedderOptions>('OpenAIEmbedder', options, OPENAI_OPTION_NAMES);
    if (!options || typeof options.model !== 'string' || options.model.length === 0) throw new InvalidOptionError('model', options?.model, 'a model name, e.g. text-embedding-3-small');
    this.model = options.model;
    if (options.dimensions !== undefined) positiveInt('dimensions', options.dimensions, 65536);
    const d = options.dimension ?? options.dimensions ?? OPENAI_MODEL_DIMENSIONS[options.model];
    if (d === undefined) {
      throw new InvalidOptionError('dimension', undefined, `the vector length of model ${options.model}: give dimension, or use await OpenAIEmbedder.create(options), which asks the endpoint`);
    }
    this.dimension = positiveInt('dimension', d, 65536);
    if (options.dimensions !== undefined && options.dimensions !== this.dimension) {
      throw new InvalidOptionError('dimension', this.dimension, `must equal dimensions (${options.dimensions})`);
    }
    const base = options.baseURL ?? env('OPENAI_BASE_URL') ?? 'https://api.openai.com/v1';
    if (typeof base !== 'string' || !/^https?:\/\//.test(base)) throw new InvalidOptionError('baseURL', base, 'an http(s) URL such as https://api.openai.com/v1');
    this.baseURL = base.replace(/\/+$/, '');
    this.#apiKey = options.apiKey ?? env('OPENAI_API_KEY');
    if (this.#apiKey === undefined && /^https:\/\/api\.openai\.com\//.test(this.baseURL + '/')) {
      throw new InvalidOptionError('apiKey', undefined, 'an API key for api.openai.com: give apiKey or set OPENAI_API_KEY');
    }
    this.batchSize = positiveInt('batchSize', options.batchSize ?? 128, 2048);
    this.#maxRetries = positiveInt('maxRetries', options.maxRetries ?? 5, 100, 0);
    this.#initialDelay = positiveInt('initialDelayMs', options.initialDelayMs ?? 500, 3_600_000, 0);
    this.#maxDelay = positiveInt('maxDelayMs', options.maxDelayMs ?? 30_000, 3_600_000, 0);
    this.#timeout = positiveInt('timeoutMs', options.timeoutMs ?? 60_000, 3_600_000);
    const f = options.fetch ?? (globalThis.fetch as typeof fetch | undefined);
    if (typeof f !== 'function') throw new InvalidOptionError('fetch', f, 'a fetch function (this runtime has none)');
    this.#fetch = f;
    this.#options = options;
  }

  /**
   * An embedder whose dimension is asked of the endpoint when not given or known: one
   * request embedding a short text.
   * @throws {InvalidOptionError} as the constructor; {@link EmbeddingRequestError} when the probe fails.
   */
  static async create(options: OpenAIEmbedderOptions): Promise<OpenAIEmbedder> {
    if (options?.dimension !== undefined || options?.dimensions !== undefined || OPENAI_MODEL_DIMENSIONS[options?.model] !== undefined) return new OpenAIEmbedder(options);
    const probe = new OpenAIEmbedder({ ...options, dimension: 1 });
    const rows = await probe.#request(['dimension probe']);
    const d = rows[0]?.length;
    if (!d) throw new EmbeddingError(`the endpoint ${probe.baseURL}/embeddings returned no vector for model ${options.model}`);
    return new OpenAIEmbedder({ ...options, dimension: d });
  }

  /**
   * Embeds `texts` in batches of `batchSize`, in order.
   * @returns n × d row-major Float32Array (rows L2-normalised unless `normalize: false`).
   * @throws {EmbeddingError} for a text that is not a string or a response of the wrong shape;
   *   {@link EmbeddingRequestError} when a request fails for good.
   */
  async embed(texts: string[]): Promise<Float32Array> {
    requireTexts(texts);
    const d = this.dimension;
    const out = new Float32Array(texts.length * d);
    const indices: number[] = [];
    for (let i = 0; i < texts.length; i++) if (texts[i].length > 0) indices.push(i);
    for (let s = 0; s < indices.length; s += this.batchSize) {
      const batch = indices.slice(s, s + this.batchSize);
      const rows = await this.#request(batch.map((i) => texts[i]));
      rows.forEach((row, j) => {
        if (row.length !== d) throw new EmbeddingError(`the endpoint returned vectors of dimension ${row.length} for model ${this.model}, expected ${d}`);
        out.set(row, batch[j] * d);
      });
    }
    if (this.#options.normalize !== false) normalizeRows(out, d);
    return out;
  }

  /** One batch: POST with retries; returns one vector per input, in input order. */
  async #request(input: string[]): Promise<number[][]> {
    const body = JSON.stringify({
      model: this.model,
      input,
      encoding_format: 'float',
      ...(this.#options.dimensions !== undefined ? { dimensions: this.#options.dimensions } : {}),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', ...this.#options.headers };
    if (this.#apiKey !== undefined) headers.authorization = `Bearer ${this.#apiKey}`;
    const url = `${this.baseURL}/embeddings`;
    return withBackoff(
      async (attempt) => {
        this.requests++;
        const signal = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(this.#timeout) : undefined;
        const response = await this.#fetch(url, { method: 'POST', headers, body, signal });
        const status = response.status;
        const raw = await response.text();
        if (response.ok) return this.#parse(raw, input.length);
        const reason = `HTTP ${status}${serverMessage(raw)}`;
        if (!RETRY_STATUS.has(status)) throw new EmbeddingRequestError(`${url} refused the request: ${reason}`, status, attempt + 1, false);
        throw new RetryableResponse({ status, reason, waitMs: retryAfterMs(response.headers) });
      },
      (error) => {
        if (error instanceof RetryableResponse) return error.failure;
        if (error instanceof EmbeddingError) return undefined;
        const e = error as Error;
        return { reason: e?.name === 'TimeoutError' ? `no answer within ${this.#timeout} ms` : `network error: ${e?.message ?? String(error)}` };
      },
      { maxRetries: this.#maxRetries, initialDelayMs: this.#initialDelay, maxDelayMs: this.#maxDelay, onRetry: this.#options.onRetry },
      (failure, attempts) => new EmbeddingRequestError(`${url} failed after ${attempts} attempt(s): ${failure.reason}`, failure.status, attempts, true),
    );
  }

  #parse(raw: string, n: number): number[][] {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new EmbeddingError('the embeddings endpoint answered with something that is not JSON', raw.slice(0, 80));
    }
    const data = (json as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.length !== n) {
      throw new EmbeddingError(`the embeddings endpoint returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${n} texts`);
    }
    const rows: number[][] = new Array(n);
    data.forEach((item: { index?: unknown; embedding?: unknown }, k) => {
      const i = typeof item?.index === 'number' ? item.index : k;
      const v = item?.embedding;
      if (!Number.isInteger(i) || i < 0 || i >= n || rows[i] !== undefined) throw new EmbeddingError('the embeddings endpoint returned a bad or repeated index', item?.index);
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) throw new EmbeddingError(`the embedding of text ${i} is not an array of numbers`);
      rows[i] = v as number[];
    });
    return rows;
  }
}

/** `: <message>` from an OpenAI-style error body `{ error: { message } }`, or its first 200 characters. */
export function serverMessage(raw: string): string {
  try {
    const m = (JSON.parse(raw) as { error?: { message?: unknown } | string })?.error;
    const message = typeof m === 'string' ? m : m?.message;
    if (typeof message === 'string' && message) return `: ${message.split('\n', 1)[0]}`;
  } catch {
    // not JSON
  }
  const text = raw.trim().split('\n', 1)[0];
  return text ? `: ${text.slice(0, 200)}` : '';
}
