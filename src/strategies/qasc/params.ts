/**
 * QASC's parameters (named as in the paper: p, m, λ, κ …), their defaults and their
 * validation, and the query check.
 * @module
 */
import { InvalidInputError, InvalidOptionError } from '../../engine/errors.js';
import { OPTION_SHAPES, rejectUnknownOptions, resolveOptions, typed, type OptionsSchema, type StrategySchema } from '../../engine/options/schema.js';
import { localeOption, localeProblem, requireOneOf } from '../../engine/options/options.js';
import { getTokenizer } from '../../engine/size/tokens.js';
import { ENCODINGS } from '../../engine/size/index.js';
import type { Tokenizer } from '../../engine/size/types.js';
import { UNIT_OPTIONS } from '../../engine/size/resolve.js';
import type { Embedder } from '../../embedders/types.js';

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
 * The QASC parameters as options of a schema (validation, docs and defaults in one place;
 * the strategy's schema `QASC_SCHEMA` holds them too). `minSimilarity` has no default
 * here: absent means none (−Infinity, see {@link resolveQascParams}).
 */
export const QASC_PARAM_OPTIONS = {
  p: { type: 'number', min: 0, max: 100, default: QASC_DEFAULTS.p, doc: 'percentile of the sentence similarities that is the seed threshold τ' },
  m: { type: 'integer', min: 0, default: QASC_DEFAULTS.m, doc: 'window radius in sentences on each side of a seed (`fixed` windows)' },
  lambda: { type: 'number', min: 0, default: QASC_DEFAULTS.lambda, doc: 'decay rate λ of the weights exp(−λ·|i − seed|)' },
  kappa: { type: 'number', default: QASC_DEFAULTS.kappa, doc: 'a window is kept when its score S ≥ κ·τ' },
  window: { type: 'enum', values: ['fixed', 'adaptive'], default: QASC_DEFAULTS.window, doc: '`fixed` (±m sentences) or `adaptive` (grows while sentences stay above τ₂, up to maxRadius)' },
  secondaryPercentile: { type: 'number', min: 0, max: 100, default: QASC_DEFAULTS.secondaryPercentile, doc: 'percentile of the similarities that is τ₂ of adaptive windows' },
  maxRadius: { type: 'integer', min: 0, default: QASC_DEFAULTS.maxRadius, doc: 'largest distance (sentences) an adaptive window reaches from its seed' },
  alignDistance: { type: 'integer', min: 0, default: QASC_DEFAULTS.alignDistance, doc: 'chunk ends snap to a paragraph or section break at most this many sentence boundaries away (0: no snapping)' },
  maxChunkSize: { type: 'integer', min: 1, default: QASC_DEFAULTS.maxChunkSize, doc: 'largest chunk in tokens of the encoding; a longer one is split at its weakest sentence boundary' },
  minSimilarity: { type: 'number', min: -1, max: 1, defaultDoc: 'none', doc: 'absolute floor for seeds (cosine); default none: the percentile rule alone' },
} as const satisfies OptionsSchema;

/** The schema of the parameters alone (what {@link resolveQascParams} checks). */
const QASC_PARAMS_SCHEMA = { name: 'QASC parameters', options: QASC_PARAM_OPTIONS } as const satisfies StrategySchema;

/**
 * Parameters with `minSimilarity: −Infinity` (the default, "none", which the schema's
 * number type does not take) left out, and the rest of `o` unchanged.
 */
export function withoutNoFloor<T extends { minSimilarity?: number }>(o: T): T {
  if (o?.minSimilarity !== -Infinity) return o;
  const { minSimilarity: _none, ...rest } = o;
  return rest as T;
}

/**
 * Validates QASC parameters and fills in defaults.
 * @throws {UnknownOptionError} for a name that is not a QASC parameter.
 * @throws {InvalidOptionError} naming the parameter: p and secondaryPercentile in
 *   [0, 100]; m, maxRadius, alignDistance integers ≥ 0; maxChunkSize an integer ≥ 1;
 *   lambda ≥ 0; kappa finite; minSimilarity in [−1, 1] (or −Infinity); window `fixed` or `adaptive`.
 */
export function resolveQascParams(o: QascParams = {}): ResolvedQascParams {
  rejectUnknownOptions<QascParams>('the QASC parameters', o, QASC_PARAM_NAMES);
  const r = resolveOptions<QascParams>(QASC_PARAMS_SCHEMA, withoutNoFloor(o));
  return { ...r, minSimilarity: r.minSimilarity ?? -Infinity } as ResolvedQascParams;
}

/** The options schema of the QASC strategy: the question, the embedder, the parameters, locale, encoding, explain. */
export const QASC_SCHEMA = {
  name: 'qasc',
  options: {
    query: { type: 'string', doc: "the question `chunk(text)` answers (QASC's chunks are per query; `query(text, question)` takes one per call)", cli: { placeholder: '<question>' } },
    embedder: typed<Embedder>()({ type: 'object', doc: 'embeds sentences and queries; default a HashingEmbedder (d = 384)', shape: OPTION_SHAPES.embedder }),
    ...QASC_PARAM_OPTIONS,
    locale: { type: 'string', default: 'auto', doc: 'BCP 47 locale for sentence segmentation; `auto`: detected per document', check: localeProblem, cli: { placeholder: '<tag>' } },
    encoding: UNIT_OPTIONS.encoding,
    tokenizer: UNIT_OPTIONS.tokenizer,
    explain: { type: 'boolean', default: false, doc: "put the explanation (τ, τ₂, windows, seed similarities) in each chunk's metadata" },
  },
} as const satisfies StrategySchema;

/**
 * Validates a QASC locale option: `auto` (also when left out) or a BCP 47 tag ({@link localeOption}).
 * @throws {InvalidOptionError} for anything else (including `null`).
 */
export function resolveQascLocale(locale: unknown): string {
  return locale === undefined || locale === 'auto' ? 'auto' : localeOption('locale', locale);
}

/**
 * The tokenizer of `encoding` (default cl100k_base), or the one given.
 * @throws {InvalidOptionError} for an unknown encoding.
 */
export function resolveQascTokenizer(encoding: unknown, tokenizer?: Tokenizer): Tokenizer {
  if (tokenizer) {
    if (typeof tokenizer.count !== 'function') throw new InvalidOptionError('tokenizer', tokenizer, 'a Tokenizer with count(text)');
    return tokenizer;
  }
  return getTokenizer(requireOneOf('encoding', encoding ?? 'cl100k_base', ENCODINGS));
}
