/**
 * Running the evaluation: chunk all corpora, build one index, retrieve the top k per
 * question and score it (Chroma's chunking report). Core module: no
 * Node built-ins (reading files is the caller's business: see `src/apps/node/evaluation.ts`).
 * @module
 */
import type { Chunker } from '../engine/chunker.js';
import type { Embedder } from '../embedders/types.js';
import { InvalidOptionError } from '../engine/errors.js';
import { getTokenizer, tokenEncodingOf } from '../engine/size/tokens.js';
import { meanStd, scoreQuestion, type MeanStd, type QuestionScores, type ScoreOptions } from './metrics.js';
import { checkQuestions, type Corpus, type EvalQuestion } from './questions.js';
import { DenseIndex, type IndexedSpan, type ProgressCallback, type Retriever } from './retrieval.js';

/** Mean ± std of the three metrics over a set of questions. */
export interface MetricSummary {
  questions: number;
  recall: MeanStd;
  precision: MeanStd;
  iou: MeanStd;
}

/** The result of evaluating one retriever. */
export interface EvaluationResult {
  /** Retriever (strategy) name. */
  name: string;
  /** Chunks retrieved per question. */
  k: number;
  /** Over all questions. */
  overall: MetricSummary;
  /** Per corpus id, in first-seen order of the questions. */
  perCorpus: Record<string, MetricSummary>;
  /** Scores per question, in the order of the questions. */
  perQuestion: QuestionScores[];
  /** Number of indexed chunks (when the retriever is a chunk index). */
  chunks?: number;
  /** Mean chunk size in tokens (cl100k_base) of the indexed chunks. */
  meanChunkTokens?: number;
  /** Milliseconds per step: chunking, embedding the chunks, retrieving (embedding questions + search). */
  timings?: { chunkMs?: number; embedMs?: number; retrieveMs: number };
  /** Free-form facts about how the chunks were obtained (e.g. peers' offset mapping). */
  notes?: Record<string, number | string>;
}

/** Options of {@link evaluateRetriever}. */
export interface EvaluateOptions extends ScoreOptions {
  /** Chunks retrieved per question. Default 5 (the report's k). */
  k?: number;
}

function summarize(scores: readonly QuestionScores[]): MetricSummary {
  return {
    questions: scores.length,
    recall: meanStd(scores.map((s) => s.recall)),
    precision: meanStd(scores.map((s) => s.precision)),
    iou: meanStd(scores.map((s) => s.iou)),
  };
}

function requireK(k: number): number {
  if (!Number.isInteger(k) || k < 1) throw new InvalidOptionError('k', k, 'an integer ≥ 1');
  return k;
}

/**
 * Scores a retriever on questions: for each question the top k spans
 * ({@link Retriever.retrieveMany} when present), scored with {@link scoreQuestion};
 * means and population standard deviations overall and per corpus.
 * @throws {InvalidOptionError} when k is not an integer ≥ 1.
 * @throws {InvalidInputError} when a question's references are empty.
 */
export async function evaluateRetriever(retriever: Retriever, questions: readonly EvalQuestion[], options: EvaluateOptions = {}): Promise<EvaluationResult> {
  const k = requireK(options.k ?? 5);
  const t0 = performance.now();
  const texts = questions.map((q) => q.question);
  const retrieved = retriever.retrieveMany
    ? await retriever.retrieveMany(texts, k)
    : await Promise.all(texts.map((t) => retriever.retrieve(t, k)));
  const retrieveMs = performance.now() - t0;
  const perQuestion = questions.map((q, i) => scoreQuestion(q.references, q.corpusId, retrieved[i].slice(0, k), options));
  const groups = new Map<string, QuestionScores[]>();
  questions.forEach((q, i) => groups.set(q.corpusId, [...(groups.get(q.corpusId) ?? []), perQuestion[i]]));
  const perCorpus: Record<string, MetricSummary> = {};
  for (const [id, scores] of groups) perCorpus[id] = summarize(scores);
  return { name: retriever.name, k, overall: summarize(perQuestion), perCorpus, perQuestion, timings: { retrieveMs } };
}

/**
 * Chunks each corpus with `chunker` and returns the spans to index. Offsets come from
 * the chunks (`chunk.start`, `chunk.end`); each is checked against the text.
 * @returns spans in corpus order, then chunk order.
 */
export async function chunkCorpora(chunker: Chunker, corpora: readonly Corpus[]): Promise<IndexedSpan[]> {
  const spans: IndexedSpan[] = [];
  for (const corpus of corpora) {
    for (const c of await chunker.chunk(corpus.text)) {
      const span: IndexedSpan = { corpusId: corpus.id, start: c.start, end: c.end, text: c.text };
      // a chunk's tokenCount is in its chunker's encoding: known to be cl100k_base only for cl100k token units
      if (c.tokenCount >= 0 && tokenEncodingOf(c.metadata?.unit) === 'cl100k_base') span.tokenCount = c.tokenCount;
      spans.push(span);
    }
  }
  return spans;
}

/**
 * Mean number of tokens (cl100k_base, the report's unit) of the spans' texts; a span's
 * `tokenCount` is taken as is when present (chunks count their own tokens), others are
 * counted. NaN for no spans.
 */
export function meanTokens(spans: readonly { text: string; tokenCount?: number }[]): number {
  if (spans.length === 0) return NaN;
  let tokenizer: ReturnType<typeof getTokenizer> | undefined;
  let total = 0;
  for (const s of spans) total += s.tokenCount ?? (tokenizer ??= getTokenizer('cl100k_base')).count(s.text);
  return total / spans.length;
}

/** Options of {@link evaluateSpans} and {@link evaluateChunker}. */
export interface EvaluateIndexOptions extends EvaluateOptions {
  /** Name for tables. */
  name: string;
  /** Texts per embed call. Default 64. */
  batchSize?: number;
  /** Progress of embedding the chunks. */
  onProgress?: ProgressCallback;
}

/**
 * Indexes given spans (one index over all corpora) with `embedder` and evaluates it.
 * Use it for chunks from any source (a peer library, precomputed chunks).
 */
export async function evaluateSpans(
  spans: readonly IndexedSpan[],
  questions: readonly EvalQuestion[],
  embedder: Embedder,
  options: EvaluateIndexOptions,
): Promise<EvaluationResult> {
  requireK(options.k ?? 5);
  const t0 = performance.now();
  const index = await DenseIndex.build(spans, embedder, { name: options.name, batchSize: options.batchSize, onProgress: options.onProgress });
  const embedMs = performance.now() - t0;
  const result = await evaluateRetriever(index, questions, options);
  return {
    ...result,
    chunks: spans.length,
    meanChunkTokens: meanTokens(spans),
    timings: { embedMs, retrieveMs: result.timings!.retrieveMs },
  };
}

/**
 * The whole evaluation of one chunker: checks the questions against the corpora, chunks
 * every corpus, builds one {@link DenseIndex} over all chunks, and scores the top k per question.
 * @throws {InvalidDatasetError} when a question's corpus is missing or a reference does not match its corpus.
 */
export async function evaluateChunker(
  chunker: Chunker,
  corpora: readonly Corpus[],
  questions: readonly EvalQuestion[],
  embedder: Embedder,
  options: EvaluateIndexOptions,
): Promise<EvaluationResult> {
  checkQuestions(questions, corpora);
  const t0 = performance.now();
  const spans = await chunkCorpora(chunker, corpora);
  const chunkMs = performance.now() - t0;
  const result = await evaluateSpans(spans, questions, embedder, options);
  return { ...result, timings: { chunkMs, ...result.timings! } };
}
