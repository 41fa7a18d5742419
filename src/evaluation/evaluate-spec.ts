/**
 * Evaluating a strategy spec (`name[:size[:overlap]][:key=value…]`): the one path from a
 * spec to its figures, shared by `chunkwise eval` and {@link tune}, so a configuration
 * `tune` recommends scores the same in a separate `chunkwise eval`. Chunk strategies are
 * evaluated as one chunk index ({@link evaluateChunker}); `qasc` as the hybrid QASC
 * retriever over fixed-size pre-chunks ({@link QascRetriever}). Core module.
 * @module
 */
import { resolveUnits, type UnitOptions } from '../engine/size/resolve.js';
import { tokenEncodingOf } from '../engine/size/tokens.js';
import type { Embedder } from '../embedders/types.js';
import { InvalidOptionError } from '../engine/errors.js';
import { strategyDefinition } from '../strategies/index.js';
import { resolveQascParams, type QascParams } from '../strategies/qasc/qasc.js';
import { evaluateChunker, evaluateRetriever, type EvaluationResult } from './evaluate.js';
import { QascRetriever } from './qasc-retriever.js';
import type { Corpus, EvalQuestion } from './questions.js';
import type { ProgressCallback } from './retrieval.js';
import { chunkerFromSpec, parseStrategySpec, type StrategySpec } from './strategy-spec.js';

/** The spec name of hybrid QASC (not a registered chunk strategy: it chunks at query time). */
export const QASC_SPEC = 'qasc';

/** Keys of a `qasc:` spec that are options of the retriever rather than QASC parameters. */
const QASC_RETRIEVER_KEYS = new Set(['rank', 'candidates', 'locale', 'encoding']);

/** Options of {@link evaluateSpec}. */
export interface EvaluateSpecOptions {
  /** Chunks retrieved per question. Default 5. */
  k?: number;
  /** Progress of embedding the chunks (chunk strategies only). */
  onProgress?: ProgressCallback;
}

/**
 * The chunk strategy's options with `embedder` set to the evaluation's embedder, for a
 * strategy that embeds while chunking (semantic, cluster-semantic) and was given none.
 */
function withEmbedder(spec: StrategySpec, embedder: Embedder): StrategySpec {
  if (!strategyDefinition(spec.name)?.schema.options.embedder || spec.options.embedder !== undefined) return spec;
  return { ...spec, options: { ...spec.options, embedder } };
}

/** A `qasc:` spec's options split into QASC parameters and the index's options; the pre-chunk spec. */
function qascParts(spec: StrategySpec): { qasc: Record<string, unknown>; index: Record<string, unknown>; perResult?: number; preChunks?: string } {
  // the pre-chunks' sizer must count tokens (its name is `token:<encoding>`)
  if (tokenEncodingOf(resolveUnits(spec.options as UnitOptions).units.name) === undefined) throw new InvalidOptionError('strategy', spec.spec, 'qasc pre-chunks are sized in tokens');
  const qasc: Record<string, unknown> = {};
  const index: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec.options)) {
    if (key === 'unit' || key === 'chunkSize' || key === 'chunkOverlap') continue;
    (QASC_RETRIEVER_KEYS.has(key) ? index : qasc)[key] = value;
  }
  const perResult = index.candidates;
  delete index.candidates;
  if (perResult !== undefined && (!Number.isInteger(perResult) || (perResult as number) < 1)) {
    throw new InvalidOptionError('candidates', perResult, 'an integer ≥ 1 (pre-chunks read per result)');
  }
  resolveQascParams(qasc as QascParams);
  const preChunks = spec.size !== undefined ? `fixed:${spec.size}:${spec.overlap ?? 0}` : undefined;
  return { qasc, index, perResult: perResult as number | undefined, preChunks };
}

/**
 * Builds the retriever of a `qasc[:size[:overlap]][:key=value…]` spec: fixed-size
 * pre-chunks of size/overlap tokens (QascIndex's 256/32 when no size is given); `rank`,
 * `candidates` (pre-chunks read per result), `locale` and `encoding` go to the index,
 * every other key is a QASC parameter (`window=adaptive`, `m=3`, …).
 * @throws {InvalidOptionError} for a bad size, overlap or QASC parameter.
 */
export async function qascRetrieverFromSpec(spec: StrategySpec, corpora: readonly Corpus[], embedder: Embedder): Promise<QascRetriever> {
  const { qasc, index, perResult, preChunks } = qascParts(spec);
  return QascRetriever.build(corpora, {
    ...index,
    name: spec.spec,
    embedder,
    chunker: preChunks ? chunkerFromSpec(preChunks) : undefined,
    qasc,
    ...(perResult !== undefined ? { candidates: (k: number) => perResult * k } : {}),
  });
}

/**
 * Evaluates one strategy spec on corpora and questions with `embedder`: the chunk index of
 * a registered strategy (strategies that embed while chunking get `embedder` unless the
 * spec names one), or hybrid QASC for `qasc:…`.
 * @returns the result; `timings.chunkMs` is chunking (for QASC: pre-chunking, segmenting
 *   and embedding the index).
 * @throws {InvalidOptionError} for a bad spec or options the strategy rejects.
 * @throws {InvalidDatasetError} when a question does not match the corpora.
 */
export async function evaluateSpec(
  spec: string | StrategySpec,
  corpora: readonly Corpus[],
  questions: readonly EvalQuestion[],
  embedder: Embedder,
  options: EvaluateSpecOptions = {},
): Promise<EvaluationResult> {
  const s = typeof spec === 'string' ? parseStrategySpec(spec) : spec;
  const k = options.k ?? 5;
  if (s.name !== QASC_SPEC) {
    return evaluateChunker(chunkerFromSpec(withEmbedder(s, embedder)), corpora, questions, embedder, { name: s.spec, k, onProgress: options.onProgress });
  }
  const t0 = performance.now();
  const retriever = await qascRetrieverFromSpec(s, corpora, embedder);
  const chunkMs = performance.now() - t0;
  const result = await evaluateRetriever(retriever, questions, { k });
  return { ...result, chunks: retriever.index.chunkCount, timings: { chunkMs, retrieveMs: result.timings!.retrieveMs } };
}

/**
 * Checks a spec without running it: parses it and builds its chunker (or, for `qasc`,
 * its pre-chunker and QASC parameters).
 * @throws {InvalidOptionError} as {@link evaluateSpec} would.
 */
export function checkSpec(spec: string | StrategySpec): StrategySpec {
  const s = typeof spec === 'string' ? parseStrategySpec(spec) : spec;
  if (s.name !== QASC_SPEC) chunkerFromSpec(s);
  else {
    const { preChunks } = qascParts(s);
    if (preChunks) chunkerFromSpec(preChunks);
  }
  return s;
}
