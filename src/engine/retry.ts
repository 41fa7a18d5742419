/**
 * Retry with exponential backoff: the one retry loop of chunkwise (the OpenAI-compatible
 * embedder's requests and the pipeline's embedding calls). Core module: no Node built-in.
 * @module
 */

/** What a retry is about, passed to an `onRetry` callback. */
export interface RetryEvent {
  /** 1 for the first retry. */
  attempt: number;
  /** HTTP status of the failed attempt, or undefined for a network error, a timeout or a non-HTTP failure. */
  status?: number;
  /** Milliseconds waited before the retry (Retry-After when the server sent one, else backoff). */
  delayMs: number;
  /** The failure, in one line. */
  reason: string;
}

/** How a failed attempt is retried: what {@link withBackoff}'s `classify` returns for a transient failure. */
export interface TransientFailure {
  /** HTTP status, when there is one. */
  status?: number;
  /** The failure, in one line. */
  reason: string;
  /** A wait the other side asked for (Retry-After), in ms; backoff otherwise. */
  waitMs?: number;
}

/** The delays of {@link withBackoff}. */
export interface BackoffPolicy {
  /** Retries after the first attempt, an integer ≥ 0. */
  maxRetries: number;
  /** First delay in ms; doubled per retry (no jitter: deterministic). */
  initialDelayMs: number;
  /** Longest wait in ms, a server's Retry-After included. */
  maxDelayMs: number;
  /** Called before each retry. */
  onRetry?: (event: RetryEvent) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it resolves. A failure that `classify` calls transient (it
 * returns a {@link TransientFailure}) is retried after `min(maxDelayMs, waitMs ??
 * initialDelayMs · 2^(n − 1))` ms for retry n, up to `maxRetries` times; when they run
 * out, `exhausted(failure, attempts, error)` gives the error to throw (default: the
 * last one). A failure `classify` returns undefined for is thrown at once.
 * @param attempt called with the 0-based attempt number.
 */
export async function withBackoff<T>(
  attempt: (n: number) => Promise<T>,
  classify: (error: unknown) => TransientFailure | undefined,
  policy: BackoffPolicy,
  exhausted: (failure: TransientFailure, attempts: number, error: unknown) => unknown = (_f, _n, error) => error,
): Promise<T> {
  for (let n = 0; ; n++) {
    let failure: TransientFailure | undefined;
    try {
      return await attempt(n);
    } catch (error) {
      failure = classify(error);
      if (failure === undefined) throw error;
      if (n >= policy.maxRetries) throw exhausted(failure, n + 1, error);
    }
    const delayMs = Math.min(policy.maxDelayMs, failure.waitMs ?? policy.initialDelayMs * 2 ** n);
    policy.onRetry?.({ attempt: n + 1, status: failure.status, delayMs, reason: failure.reason });
    await sleep(delayMs);
  }
}
