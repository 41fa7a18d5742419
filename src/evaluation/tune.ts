/**
 * {@link tune}: searches strategy × chunk size × overlap (and hybrid QASC's window) on a
 * user's corpora and questions within a time budget, scores every configuration with the
 * evaluator ({@link evaluateSpec}), and returns the Pareto front of mean recall against
 * mean IoU with bootstrap intervals and a recommended configuration chosen by a rule fixed
 * in advance. Core module: no Node built-ins.
 * @module
 */
import type { Embedder } from '../embedders/types.js';
import { CallbackError, InvalidDatasetError, InvalidInputError, InvalidOptionError } from '../engine/errors.js';
import { pairedBootstrap, type BootstrapOptions, type PairedDifference } from './bootstrap.js';
import { checkSpec, evaluateSpec, QASC_SPEC } from './evaluate-spec.js';
import type { EvaluationResult } from './evaluate.js';
import { checkQuestions, type Corpus, type EvalQuestion } from './questions.js';
import type { ProgressCallback } from './retrieval.js';
import type { StrategySpec } from './strategy-spec.js';

/** Strategies searched by default: the chunk strategies that take any text, and hybrid QASC (with `queryTime` only). */
export const TUNE_STRATEGIES: readonly string[] = ['fixed', 'recursive', 'sentence', 'semantic', 'cluster-semantic', QASC_SPEC];

/** Whether a strategy of the search builds its chunks at query time (QASC): nothing to index ahead. */
export function queryTimeStrategy(name: string): boolean {
  return name === QASC_SPEC;
}
/** Chunk sizes searched by default, in cl100k_base tokens. */
export const TUNE_SIZES: readonly number[] = [100, 200, 400, 800];
/** Overlaps searched by default, in percent of the chunk size. */
export const TUNE_OVERLAPS: readonly number[] = [0, 25];
/** QASC windows searched by default. */
export const TUNE_QASC_WINDOWS: readonly ('adaptive' | 'fixed')[] = ['adaptive', 'fixed'];
/** Default budget: 5 minutes. */
export const TUNE_BUDGET_MS = 300_000;
/** Default recall tolerance of the recommendation rule: 1 percentage point. */
export const TUNE_RECALL_TOLERANCE = 0.01;

/** The search space of {@link tune}. */
export interface TuneGridOptions {
  /** Strategy names (registered chunk strategies, or `qasc`). Default {@link TUNE_STRATEGIES}, without `qasc` unless `queryTime`. */
  strategies?: readonly string[];
  /**
   * Whether query-time strategies (QASC: chunks built per question, nothing indexed ahead)
   * are searched by default and may be recommended. Default false: the recommendation is
   * an index-time configuration (a query-time one named in `strategies` is measured and
   * shown, not recommended, unless no index-time one ran).
   */
  queryTime?: boolean;
  /** Chunk sizes in tokens. Default {@link TUNE_SIZES}. */
  sizes?: readonly number[];
  /** Overlaps in percent of the size, each in [0, 100). Default {@link TUNE_OVERLAPS}. */
  overlaps?: readonly number[];
  /** QASC windows. Default {@link TUNE_QASC_WINDOWS}. */
  qascWindows?: readonly ('adaptive' | 'fixed')[];
}

/** Options of {@link tune}. */
export interface TuneOptions extends TuneGridOptions {
  /** Embeds chunks and questions (and chunks while chunking, for semantic strategies). */
  embedder: Embedder;
  /** Chunks retrieved per question. Default 5. */
  k?: number;
  /**
   * Time budget in ms, counted from `startedAt`. A configuration is started only when the
   * time used plus its estimate (the longest run so far of the same strategy, else of any)
   * fits; the others are reported as skipped. A configuration once started runs to its end.
   * Default {@link TUNE_BUDGET_MS}.
   */
  budgetMs?: number;
  /** When the budget started (ms on `now`'s clock). Default: when `tune` is called. */
  startedAt?: number;
  /** The clock, in ms. Default `performance.now`. */
  now?: () => number;
  /** Recommendation rule's tolerance: configurations within this much recall (a fraction) of the best. Default {@link TUNE_RECALL_TOLERANCE}. */
  recallTolerance?: number;
  /** Bootstrap of the intervals (resamples default 10,000, seed 1). */
  bootstrap?: BootstrapOptions;
  /** Called before and after each configuration (for a progress bar). */
  onConfiguration?: (event: TuneProgress) => void;
  /** Progress of embedding one configuration's chunks. */
  onEmbedding?: ProgressCallback;
}

/** What {@link TuneOptions.onConfiguration} is told. */
export interface TuneProgress {
  /** Configurations finished or skipped so far. */
  done: number;
  /** Configurations in the grid. */
  total: number;
  /** The configuration starting (`phase: 'start'`), finished, skipped for the budget, or failed. */
  spec: string;
  phase: 'start' | 'done' | 'skipped' | 'failed';
}

/** One evaluated configuration. */
export interface TuneRow {
  /** The `--strategy` spec, e.g. `recursive:200:0` or `qasc:200:0:window=adaptive`. */
  spec: string;
  strategy: string;
  size: number;
  overlap: number;
  result: EvaluationResult;
  /** Wall time of the configuration, in seconds. */
  seconds: number;
}

/** A mean over questions with its bootstrap percentile interval. */
export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
}

/** A point of the Pareto front, with bootstrap intervals of its means. */
export interface FrontPoint {
  spec: string;
  recall: MeanInterval;
  iou: MeanInterval;
}

/** The recommended configuration, the rule that chose it, and the evidence. */
export interface TuneRecommendation {
  spec: string;
  /** The rule, in one sentence. */
  rule: string;
  /** Why this configuration, in a few sentences with the figures. */
  reason: string;
  /** The configuration with the best recall. */
  bestRecall: string;
  /** The configuration with the best IoU. */
  bestIou: string;
  /** Recommended minus best-recall configuration, per question (absent when they are the same). */
  vsBestRecall?: { recall: PairedDifference; iou: PairedDifference };
  /** Recommended minus best-IoU configuration, per question (absent when they are the same). */
  vsBestIou?: { recall: PairedDifference; iou: PairedDifference };
}

/** A configuration not run, and why. */
export interface SkippedConfiguration {
  spec: string;
  reason: string;
}

/** The result of {@link tune}. */
export interface TuneResult {
  /** Every evaluated configuration, in the order run. */
  rows: TuneRow[];
  /** The non-dominated configurations, by IoU ascending (recall descending). */
  front: FrontPoint[];
  recommendation: TuneRecommendation;
  /** Grid configurations not run for the budget. */
  skipped: SkippedConfiguration[];
  /** Grid combinations a strategy does not take (e.g. an overlap for sentence). */
  notApplicable: SkippedConfiguration[];
  /**
   * Configurations that started and threw a chunking error (an option or input the strategy
   * refuses on these corpora, or a registered strategy's callback throwing), with its message;
   * the search goes on without them. Errors of the embedder or the questions still end the search.
   */
  failed: SkippedConfiguration[];
  k: number;
  questions: number;
  corpora: number;
  budgetMs: number;
  /** Time used from `startedAt` to the end of the search and the bootstrap, in ms. */
  elapsedMs: number;
}

function requireList<T>(name: string, value: readonly T[] | undefined, fallback: readonly T[], ok: (v: T) => boolean, expected: string): readonly T[] {
  const list = value ?? fallback;
  if (!Array.isArray(list) || list.length === 0 || !list.every(ok)) throw new InvalidOptionError(name, value, expected);
  return list;
}

/**
 * The configurations of the grid as specs, overlaps outermost, then sizes, then
 * strategies (so a budget that runs out leaves every strategy at the first overlap);
 * combinations a strategy rejects are returned apart. Overlap tokens are
 * round(size · percent / 100); duplicates are dropped.
 * @throws {InvalidOptionError} for an empty or bad list.
 */
export function tuneGrid(options: TuneGridOptions = {}): { specs: StrategySpec[]; notApplicable: SkippedConfiguration[] } {
  const strategies = requireList('strategies', options.strategies, options.queryTime ? TUNE_STRATEGIES : TUNE_STRATEGIES.filter((s) => !queryTimeStrategy(s)), (s) => typeof s === 'string' && /^[\w-]+$/.test(s), 'a non-empty list of strategy names');
  const sizes = requireList('sizes', options.sizes, TUNE_SIZES, (n) => Number.isInteger(n) && n >= 1, 'a non-empty list of integers ≥ 1 (tokens)');
  const overlaps = requireList('overlaps', options.overlaps, TUNE_OVERLAPS, (n) => typeof n === 'number' && n >= 0 && n < 100, 'a non-empty list of percentages in [0, 100)');
  const windows = requireList('qascWindows', options.qascWindows, TUNE_QASC_WINDOWS, (w) => w === 'adaptive' || w === 'fixed', 'a non-empty list of adaptive, fixed');
  const specs: StrategySpec[] = [];
  const notApplicable: SkippedConfiguration[] = [];
  const seen = new Set<string>();
  for (const percent of overlaps) {
    for (const size of sizes) {
      const overlap = Math.round((size * percent) / 100);
      for (const name of strategies) {
        for (const suffix of name === QASC_SPEC ? windows.map((w) => `:window=${w}`) : ['']) {
          const spec = `${name}:${size}:${overlap}${suffix}`;
          if (seen.has(spec)) continue;
          seen.add(spec);
          try {
            specs.push(checkSpec(spec));
          } catch (error) {
            if (!(error instanceof InvalidOptionError)) throw error;
            notApplicable.push({ spec, reason: error.message });
          }
        }
      }
    }
  }
  return { specs, notApplicable };
}

/** The family whose past runs estimate a configuration's time: the strategy (and QASC's window). */
function family(spec: StrategySpec): string {
  return spec.name === QASC_SPEC ? `${spec.name}:${String(spec.options.window)}` : spec.name;
}

/**
 * Indices of the rows no other row dominates: row b dominates a when b's mean recall and
 * mean IoU are both ≥ a's and one is >. Sorted by IoU ascending, then recall descending.
 * Rows with equal means are all kept.
 */
export function paretoFront(points: readonly { recall: number; iou: number }[]): number[] {
  const front: number[] = [];
  points.forEach((a, i) => {
    const dominated = points.some((b) => b.recall >= a.recall && b.iou >= a.iou && (b.recall > a.recall || b.iou > a.iou));
    if (!dominated) front.push(i);
  });
  return front.sort((i, j) => points[i].iou - points[j].iou || points[j].recall - points[i].recall);
}

/**
 * The recommendation rule: among the configurations whose mean recall is within
 * `tolerance` of the best mean recall, the one with the best mean IoU (ties: the better
 * recall, then the earlier row). Such a configuration is always on the Pareto front.
 * @returns the index of the chosen point.
 * @throws {InvalidInputError} for no points.
 */
export function recommendIndex(points: readonly { recall: number; iou: number }[], tolerance = TUNE_RECALL_TOLERANCE): number {
  if (points.length === 0) throw new InvalidInputError('at least one evaluated configuration', points);
  const best = Math.max(...points.map((p) => p.recall));
  let chosen = -1;
  points.forEach((p, i) => {
    if (p.recall < best - tolerance) return;
    const c = points[chosen];
    if (chosen < 0 || p.iou > c.iou || (p.iou === c.iou && p.recall > c.recall)) chosen = i;
  });
  return chosen;
}

/** The mean of `scores` with its bootstrap percentile interval (the paired bootstrap against zeros). */
function meanInterval(scores: readonly number[], options: BootstrapOptions): MeanInterval {
  const d = pairedBootstrap(scores, new Float64Array(scores.length), options);
  return { mean: d.mean, low: d.low, high: d.high };
}

const perQuestion = (row: TuneRow, metric: 'recall' | 'iou') => row.result.perQuestion.map((q) => q[metric]);

function difference(a: TuneRow, b: TuneRow, options: BootstrapOptions): { recall: PairedDifference; iou: PairedDifference } {
  return { recall: pairedBootstrap(perQuestion(a, 'recall'), perQuestion(b, 'recall'), options), iou: pairedBootstrap(perQuestion(a, 'iou'), perQuestion(b, 'iou'), options) };
}

/** A fraction in percent with one decimal, e.g. `62.3 %`. */
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
/** A difference in percentage points with its interval, e.g. `+1.2 [+0.4, +2.0] points`. */
function points(d: PairedDifference): string {
  const f = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;
  return `${f(d.mean)} [${f(d.low)}, ${f(d.high)}] points`;
}

function recommendation(rows: readonly TuneRow[], tolerance: number, bootstrap: BootstrapOptions, queryTime: boolean): TuneRecommendation {
  const means = rows.map((r) => ({ recall: r.result.overall.recall.mean, iou: r.result.overall.iou.mean }));
  // index-time configurations only, unless asked for query-time ones (or none other ran)
  const indexTime = rows.filter((r) => !queryTimeStrategy(r.strategy));
  const candidates = queryTime || indexTime.length === 0 ? rows : indexTime;
  const chosen = candidates[recommendIndex(candidates.map((r) => means[rows.indexOf(r)]), tolerance)];
  const bestRecall = rows[means.reduce((b, p, i) => (p.recall > means[b].recall ? i : b), 0)];
  const bestIou = rows[means.reduce((b, p, i) => (p.iou > means[b].iou ? i : b), 0)];
  const among = candidates === rows ? 'configurations' : 'index-time configurations (query-time ones: --query-time)';
  const rule = `the best mean IoU among the ${among} whose mean recall is within ${(tolerance * 100).toFixed(1)} points of the best mean recall`;
  const o = chosen.result.overall;
  const parts = [`${chosen.spec}: recall ${pct(o.recall.mean)}, IoU ${pct(o.iou.mean)}, ${chosen.result.chunks ?? '?'} chunks.`];
  const out: TuneRecommendation = { spec: chosen.spec, rule, reason: '', bestRecall: bestRecall.spec, bestIou: bestIou.spec };
  if (bestRecall === chosen) parts.push('It has the best recall of all configurations run, and none within the tolerance has a better IoU.');
  else {
    out.vsBestRecall = difference(chosen, bestRecall, bootstrap);
    parts.push(`The best recall is ${bestRecall.spec}'s (${pct(bestRecall.result.overall.recall.mean)}); against it: recall ${points(out.vsBestRecall.recall)}, IoU ${points(out.vsBestRecall.iou)} (paired bootstrap, 95 %).`);
  }
  if (bestIou === chosen) parts.push('It also has the best IoU of all.');
  else {
    out.vsBestIou = difference(chosen, bestIou, bootstrap);
    parts.push(`The best IoU, ${bestIou.spec}'s (${pct(bestIou.result.overall.iou.mean)}), costs recall: against it, recall ${points(out.vsBestIou.recall)}, IoU ${points(out.vsBestIou.iou)}.`);
  }
  out.reason = parts.join(' ');
  return out;
}

/**
 * Searches the grid ({@link tuneGrid}) on the corpora and questions: each configuration is
 * evaluated by {@link evaluateSpec} (the same as `chunkwise eval --strategy SPEC`), within
 * the budget; then the Pareto front of mean recall against mean IoU, each front point's
 * 95 % bootstrap intervals (10,000 resamples of the questions unless `bootstrap` says
 * otherwise, seed 1), and the recommendation ({@link recommendIndex}: the best IoU within
 * `recallTolerance` of the best recall) with its paired differences to the best-recall and
 * best-IoU configurations.
 * @throws {InvalidOptionError} for a bad grid, budget, k or tolerance.
 * @throws {InvalidDatasetError} for no questions, or a question that does not match the corpora.
 * @throws {InvalidInputError} when the budget allowed no configuration at all.
 */
export async function tune(corpora: readonly Corpus[], questions: readonly EvalQuestion[], options: TuneOptions): Promise<TuneResult> {
  const now = options.now ?? (() => performance.now());
  const startedAt = options.startedAt ?? now();
  const budgetMs = options.budgetMs ?? TUNE_BUDGET_MS;
  if (!(budgetMs > 0) || !Number.isFinite(budgetMs)) throw new InvalidOptionError('budgetMs', budgetMs, 'a finite number of milliseconds > 0');
  const tolerance = options.recallTolerance ?? TUNE_RECALL_TOLERANCE;
  if (!(tolerance >= 0 && tolerance <= 1)) throw new InvalidOptionError('recallTolerance', tolerance, 'a fraction in [0, 1]');
  const k = options.k ?? 5;
  if (!Number.isInteger(k) || k < 1) throw new InvalidOptionError('k', k, 'an integer ≥ 1');
  const bootstrap: BootstrapOptions = { seed: 1, ...options.bootstrap };
  if (questions.length === 0) throw new InvalidDatasetError('questions', 'no questions to tune on');
  checkQuestions(questions, corpora);
  const { specs, notApplicable } = tuneGrid(options);
  const rows: TuneRow[] = [];
  const skipped: SkippedConfiguration[] = [];
  const failed: SkippedConfiguration[] = [];
  const longest = new Map<string, number>();
  let longestAny = 0;
  let done = 0;
  for (const spec of specs) {
    const used = now() - startedAt;
    const estimate = longest.get(family(spec)) ?? longestAny;
    if (used + estimate > budgetMs) {
      const left = Math.max(0, budgetMs - used);
      skipped.push({ spec: spec.spec, reason: `estimated ${(estimate / 1000).toFixed(1)} s, ${(left / 1000).toFixed(1)} s of the budget left` });
      options.onConfiguration?.({ done: ++done, total: specs.length, spec: spec.spec, phase: 'skipped' });
      continue;
    }
    const t0 = now();
    options.onConfiguration?.({ done, total: specs.length, spec: spec.spec, phase: 'start' });
    let result: EvaluationResult;
    try {
      result = await evaluateSpec(spec, corpora, questions, options.embedder, { k, onProgress: options.onEmbedding });
    } catch (error) {
      if (!(error instanceof InvalidOptionError || error instanceof InvalidInputError || error instanceof CallbackError)) throw error;
      failed.push({ spec: spec.spec, reason: error.message });
      options.onConfiguration?.({ done: ++done, total: specs.length, spec: spec.spec, phase: 'failed' });
      continue;
    }
    const ms = now() - t0;
    longest.set(family(spec), Math.max(ms, longest.get(family(spec)) ?? 0));
    longestAny = Math.max(longestAny, ms);
    rows.push({ spec: spec.spec, strategy: spec.name, size: spec.size!, overlap: spec.overlap ?? 0, result, seconds: ms / 1000 });
    options.onConfiguration?.({ done: ++done, total: specs.length, spec: spec.spec, phase: 'done' });
  }
  if (rows.length === 0 && failed.length > 0 && skipped.length === 0) throw new InvalidInputError(`a grid with at least one configuration that runs on these corpora (every one failed; ${failed[0].spec}: ${failed[0].reason})`, failed[0].spec);
  if (rows.length === 0) throw new InvalidInputError(`a budget that lets at least one configuration run (${budgetMs} ms allowed none of ${specs.length})`, budgetMs);
  const means = rows.map((r) => ({ recall: r.result.overall.recall.mean, iou: r.result.overall.iou.mean }));
  const front = paretoFront(means).map((i) => ({
    spec: rows[i].spec,
    recall: meanInterval(perQuestion(rows[i], 'recall'), bootstrap),
    iou: meanInterval(perQuestion(rows[i], 'iou'), bootstrap),
  }));
  return {
    rows,
    front,
    recommendation: recommendation(rows, tolerance, bootstrap, options.queryTime === true),
    skipped,
    notApplicable,
    failed,
    k,
    questions: questions.length,
    corpora: corpora.length,
    budgetMs,
    elapsedMs: now() - startedAt,
  };
}
