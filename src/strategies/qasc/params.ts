/**
 * QASC's parameters (named as in the paper: p, m, λ, κ …), their defaults and their
 * validation, and the query check.
 * @module
 */
import { InvalidInputError } from '../../engine/errors.js';
import { integerOption, numberOption, requireOneOf } from '../../engine/options/options.js';
import { rejectUnknownOptions } from '../../engine/options/schema.js';

/** QASC parameters, under the paper's names. */
export interface QascParams {
  /** Percentile of the sims that is the seed threshold τ (step 2). Default 75. */
  p?: number;
  /** Window radius in sentences on each side of a seed, for `fixed` windows (step 3). Default 2. */
  m?: number;
  /** Decay rate λ of the weights α_i = exp(−λ·|i − r|) (step 4). Default 0.5. */
  lambda?: number;
  /** A window is kept when S ≥ κ·τ (step 4). Default 0.6. */
  kappa?: number;
  /**
   * `fixed` (default): the window is [r − m, r + m]. `adaptive`: the window grows outward
   * from the seed, each side one sentence at a time while that sentence's sim is ≥ τ₂
   * (the `secondaryPercentile`-th percentile), up to `maxRadius` from the seed; it can be
   * narrower or wider than ±m (m is not used).
   */
  window?: 'fixed' | 'adaptive';
  /** Percentile of the sims that is the secondary threshold τ₂ of adaptive windows. Default 50. */
  secondaryPercentile?: number;
  /** Largest distance (sentences) an adaptive window reaches from its seed. Default 5. */
  maxRadius?: number;
  /** A chunk's ends snap to the nearest paragraph or section break at most this many sentence boundaries away (step 5). Default 2; 0 disables snapping (a chunk still never ends on a heading). */
  alignDistance?: number;
  /**
   * Largest chunk, in tokens of the chunker's encoding. A longer chunk is split at its
   * weakest sentence boundary (lowest decay-weighted similarity), recursively; a piece
   * holding no seed is dropped. Default 512 (the size of the other strategies). A single
   * sentence over it is kept whole and flagged `oversized`.
   */
  maxChunkSize?: number;
  /**
   * Absolute floor for seeds: a seed also needs sim ≥ minSimilarity. Default none
   * (−Infinity): the paper's percentile rule alone, which finds seeds for any query,
   * even one unrelated to the document. Cosines differ by embedder, so there is no
   * embedder-free default (docs/qasc.md gives measured values).
   */
  minSimilarity?: number;
}

/** Thresholds computed elsewhere (hybrid mode: over all candidates' sentences), used instead of the percentiles of `sims`. */
export interface QascThresholds {
  tau: number;
  tau2: number;
}

/** {@link QascParams} with every default filled in. */
export type ResolvedQascParams = Required<QascParams>;

/** The paper's defaults, and chunkwise's where the paper is silent (docs/qasc.md). */
export const QASC_DEFAULTS: ResolvedQascParams = {
  p: 75,
  m: 1,
  lambda: 0.5,
  kappa: 0.6,
  window: 'fixed',
  secondaryPercentile: 50,
  maxRadius: 5,
  alignDistance: 2,
  maxChunkSize: 512,
  minSimilarity: -Infinity,
};

/**
 * Checks a QASC query: a string with something other than white space in it (an empty
 * question has no seed sentences to find; every result would be an arbitrary chunk).
 * @throws {InvalidInputError} otherwise.
 */
export function requireQuery(query: unknown): asserts query is string {
  if (typeof query !== 'string') throw new InvalidInputError('query must be a string', query);
  if (query.trim() === '') throw new InvalidInputError('the query must not be empty (give a question)', query);
}

/** Every name of {@link QascParams} (the compiler keeps the list complete). */
export const QASC_PARAM_NAMES: { readonly [K in keyof Required<QascParams>]: true } = {
  p: true,
  m: true,
  lambda: true,
  kappa: true,
  window: true,
  secondaryPercentile: true,
  maxRadius: true,
  alignDistance: true,
  maxChunkSize: true,
  minSimilarity: true,
};

/**
 * Validates QASC parameters and fills in defaults.
 * @throws {UnknownOptionError} for a name that is not a QASC parameter.
 * @throws {InvalidOptionError} naming the parameter: p and secondaryPercentile in
 *   [0, 100]; m, maxRadius, alignDistance integers ≥ 0; maxChunkSize an integer ≥ 1;
 *   lambda ≥ 0; kappa finite; minSimilarity in [−1, 1] (or −Infinity); window `fixed` or `adaptive`.
 */
export function resolveQascParams(o: QascParams = {}): ResolvedQascParams {
  rejectUnknownOptions<QascParams>('the QASC parameters', o, QASC_PARAM_NAMES);
  const minSimilarity = o.minSimilarity === undefined || o.minSimilarity === -Infinity ? -Infinity : numberOption('minSimilarity', o.minSimilarity, 0, -1, 1);
  return {
    p: numberOption('p', o.p, QASC_DEFAULTS.p, 0, 100),
    m: integerOption('m', o.m, QASC_DEFAULTS.m, 0),
    lambda: numberOption('lambda', o.lambda, QASC_DEFAULTS.lambda, 0),
    kappa: numberOption('kappa', o.kappa, QASC_DEFAULTS.kappa),
    window: requireOneOf('window', o.window ?? QASC_DEFAULTS.window, ['fixed', 'adaptive'] as const),
    secondaryPercentile: numberOption('secondaryPercentile', o.secondaryPercentile, QASC_DEFAULTS.secondaryPercentile, 0, 100),
    maxRadius: integerOption('maxRadius', o.maxRadius, QASC_DEFAULTS.maxRadius, 0),
    alignDistance: integerOption('alignDistance', o.alignDistance, QASC_DEFAULTS.alignDistance, 0),
    maxChunkSize: integerOption('maxChunkSize', o.maxChunkSize, QASC_DEFAULTS.maxChunkSize, 1),
    minSimilarity,
  };
}
