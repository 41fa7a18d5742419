/**
 * Token-level retrieval metrics over character ranges, as in Chroma's report
 * "Evaluating Chunking Strategies for Retrieval" (2024) and its `chunking_evaluation`
 * package (`BaseEvaluation._scores_from_dataset_and_retrievals`).
 *
 * All offsets are UTF-16 code units (JavaScript string indices), ranges half-open
 * `[start, end)`. Core module: no Node built-ins.
 * @module
 */
import { InvalidInputError } from '../engine/errors.js';

/** A half-open range `[start, end)` of UTF-16 code units in one corpus. */
export interface CharRange {
  start: number;
  end: number;
}

/** A retrieved span: which corpus, and where in it. */
export interface RetrievedSpan extends CharRange {
  /** Corpus id (the corpus file's base name without extension, e.g. `pubmed`). */
  corpusId: string;
}

/** The scores of one question. */
export interface QuestionScores {
  /** covered / referenceChars, in [0, 1]. */
  recall: number;
  /** covered / retrievedChars, in [0, 1]; 0 when nothing was retrieved. */
  precision: number;
  /** covered / (retrievedChars + uncovered reference chars), in [0, 1]. */
  iou: number;
  /** Reference characters lying in at least one retrieved chunk of the question's corpus (union). */
  covered: number;
  /** Characters of the references (union of the reference ranges). */
  referenceChars: number;
  /** Characters of all retrieved chunks, summed chunk by chunk (any corpus; overlaps count twice). */
  retrievedChars: number;
}

/** Options of {@link scoreQuestion}. */
export interface ScoreOptions {
  /**
   * Count the retrieved characters as the union of the retrieved ranges (per corpus)
   * instead of their sum. Default false: the report's code sums chunk lengths, so two
   * overlapping retrieved chunks cost their shared text twice (a reader does read it
   * twice). Recall does not depend on this option.
   */
  unionRetrieved?: boolean;
}

/**
 * Sorts and merges ranges into disjoint ranges (overlapping or touching ones join);
 * empty ranges are dropped. Returns a new array sorted by start.
 */
export function unionRanges(ranges: readonly CharRange[]): CharRange[] {
  const sorted = ranges.filter((r) => r.end > r.start).map((r) => ({ start: r.start, end: r.end }));
  sorted.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: CharRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push(r);
  }
  return out;
}

/** Σ (end − start) over the ranges, without merging (overlaps count twice). */
export function sumRanges(ranges: readonly CharRange[]): number {
  let s = 0;
  for (const r of ranges) s += Math.max(0, r.end - r.start);
  return s;
}

/** Length of the intersection of two sets of disjoint sorted ranges (from {@link unionRanges}). */
export function intersectionLength(a: readonly CharRange[], b: readonly CharRange[]): number {
  let i = 0;
  let j = 0;
  let total = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i].start, b[j].start);
    const hi = Math.min(a[i].end, b[j].end);
    if (hi > lo) total += hi - lo;
    if (a[i].end < b[j].end) i++;
    else j++;
  }
  return total;
}

function checkRange(what: string, r: CharRange): void {
  if (!Number.isInteger(r.start) || !Number.isInteger(r.end) || r.start < 0 || r.end < r.start) {
    throw new InvalidInputError(`${what} must be integer offsets with 0 ≤ start ≤ end`, r);
  }
}

/**
 * Scores one question's retrieval against its reference excerpts (following the
 * report's code):
 * - covered = |∪ (chunk ∩ reference)| over retrieved chunks of the question's corpus;
 *   chunks from other corpora cover nothing;
 * - recall = covered / referenceChars;
 * - precision = covered / retrievedChars, retrievedChars = Σ |chunk| over all k
 *   retrieved chunks, whatever their corpus (see {@link ScoreOptions.unionRetrieved});
 * - IoU = covered / (retrievedChars + referenceChars − covered).
 *
 * References are merged first (union), so overlapping references count their shared
 * characters once (the report's code sums them for the recall denominator; the two
 * agree whenever references do not overlap, as in `eval/questions.csv`).
 *
 * @param references the question's reference ranges in corpus `corpusId` (at least one, non-empty in total).
 * @param corpusId the corpus the references lie in.
 * @param retrieved the retrieved spans, best first (all are scored: pass the top k).
 * @throws {InvalidInputError} when references are empty in total or a range is not
 *   integer offsets with 0 ≤ start ≤ end.
 */
export function scoreQuestion(
  references: readonly CharRange[],
  corpusId: string,
  retrieved: readonly RetrievedSpan[],
  options: ScoreOptions = {},
): QuestionScores {
  references.forEach((r) => checkRange('a reference', r));
  retrieved.forEach((r) => checkRange('a retrieved span', r));
  const refs = unionRanges(references);
  const referenceChars = sumRanges(refs);
  if (referenceChars === 0) throw new InvalidInputError('a question needs a non-empty reference', references);
  const sameCorpus = unionRanges(retrieved.filter((r) => r.corpusId === corpusId));
  const covered = intersectionLength(refs, sameCorpus);
  let retrievedChars: number;
  if (options.unionRetrieved) {
    const byCorpus = new Map<string, RetrievedSpan[]>();
    for (const r of retrieved) byCorpus.set(r.corpusId, [...(byCorpus.get(r.corpusId) ?? []), r]);
    retrievedChars = 0;
    for (const list of byCorpus.values()) retrievedChars += sumRanges(unionRanges(list));
  } else {
    retrievedChars = sumRanges(retrieved);
  }
  const uncovered = referenceChars - covered;
  return {
    recall: covered / referenceChars,
    precision: retrievedChars > 0 ? covered / retrievedChars : 0,
    iou: retrievedChars + uncovered > 0 ? covered / (retrievedChars + uncovered) : 0,
    covered,
    referenceChars,
    retrievedChars,
  };
}

/** Mean and population standard deviation (numpy's `np.std`, ddof = 0), as in the report. */
export interface MeanStd {
  mean: number;
  std: number;
}

/** Mean and population standard deviation of `values`; NaN for an empty list. */
export function meanStd(values: readonly number[]): MeanStd {
  const n = values.length;
  if (n === 0) return { mean: NaN, std: NaN };
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let sq = 0;
  for (const v of values) sq += (v - mean) * (v - mean);
  return { mean, std: Math.sqrt(sq / n) };
}
