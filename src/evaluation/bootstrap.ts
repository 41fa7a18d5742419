/**
 * Paired bootstrap confidence intervals for the difference between two retrievers scored
 * on the same questions (Efron & Tibshirani, "An Introduction to the Bootstrap", 1993,
 * ch. 13: the percentile interval). Core module: no Node built-ins.
 * @module
 */
import { percentile } from '../../bindings/index.js';
import { InvalidInputError, InvalidOptionError } from '../engine/errors.js';
import { requireInteger, requireNumber } from '../engine/options/options.js';
import { mulberry32 } from '../engine/random.js';

/** Options of {@link pairedBootstrap}. */
export interface BootstrapOptions {
  /** Resamples drawn. Default 10,000. */
  resamples?: number;
  /** Seed of the generator (mulberry32), so intervals are reproducible. Default 1. */
  seed?: number;
  /** Coverage of the interval, in (0, 1). Default 0.95. */
  confidence?: number;
  /** A source of uniform numbers in [0, 1) to use instead of the seeded generator (tests). */
  random?: () => number;
}

/** A mean difference and its bootstrap percentile interval. */
export interface PairedDifference {
  /** mean over questions of a − b. */
  mean: number;
  /** Lower end of the interval: the (1 − confidence)/2 percentile of the resampled means. */
  low: number;
  /** Upper end: the (1 + confidence)/2 percentile of the resampled means. */
  high: number;
  resamples: number;
  confidence: number;
}

/**
 * The paired bootstrap of mean(a − b) over n questions scored by two retrievers: each of
 * `resamples` rounds draws n question indices with replacement (⌊u·n⌋ for u uniform in
 * [0, 1) from the generator, in order), and takes the mean of the differences a[i] − b[i]
 * over the draw; the interval is the percentile interval of those means (numpy's linear
 * interpolation, as `percentile`). Questions are resampled as pairs, so what both
 * retrievers find hard does not widen the interval. An interval that excludes 0 says the
 * difference is unlikely to be resampling noise on these questions (it says nothing about
 * other questions drawn differently).
 * @param a per-question scores of one retriever (e.g. recall of each question)
 * @param b the other retriever's scores on the same questions, same order
 * @throws {InvalidInputError} when a and b differ in length or are empty.
 * @throws {InvalidOptionError} for resamples not an integer ≥ 1 or confidence outside (0, 1).
 */
export function pairedBootstrap(a: ArrayLike<number>, b: ArrayLike<number>, options: BootstrapOptions = {}): PairedDifference {
  const n = a.length;
  if (n !== b.length || n === 0) throw new InvalidInputError(`paired scores of equal, non-zero length (got ${n} and ${b.length})`, b);
  const resamples = requireInteger('resamples', options.resamples ?? 10_000);
  const confidence = requireNumber('confidence', options.confidence ?? 0.95, 0, 1);
  if (confidence === 0 || confidence === 1) throw new InvalidOptionError('confidence', confidence, 'must lie strictly between 0 and 1');
  const random = options.random ?? mulberry32(options.seed ?? 1);
  const d = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += d[i] = a[i] - b[i];
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += d[Math.floor(random() * n)];
    means[r] = s / n;
  }
  const tail = ((1 - confidence) / 2) * 100;
  return { mean: sum / n, low: percentile(means, tail), high: percentile(means, 100 - tail), resamples, confidence };
}
