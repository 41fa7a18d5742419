/**
 * The evaluation questions: parsing the questions CSV of Chroma's `chunking_evaluation`
 * format (columns `question`, `references`, `corpus_id`) and checking it against the
 * corpora. CSV parsing is csv-parse's sync API (RFC 4180: quoted fields, doubled
 * quotes, embedded newlines), from its `browser/esm` build: csv-parse's default build
 * reads the Node global `Buffer` when it loads, which would break importing chunkwise
 * in browsers and edge runtimes; the browser build carries its own. Core module: no
 * Node built-in imports.
 * @module
 */
import { parse } from 'csv-parse/browser/esm/sync';
import { InvalidDatasetError } from '../engine/errors.js';
import type { CharRange } from './metrics.js';

/** One reference excerpt of a question. */
export interface Reference extends CharRange {
  /** The excerpt's text: `corpus.slice(start, end)`. */
  content: string;
}

/** One evaluation question. */
export interface EvalQuestion {
  question: string;
  /** Corpus the references lie in (a corpus file's base name, e.g. `pubmed`). */
  corpusId: string;
  /** Reference excerpts, offsets in UTF-16 code units of the corpus text. */
  references: Reference[];
}

/** A corpus: its id and text. */
export interface Corpus {
  /** Id used by the questions' `corpus_id` (by convention the file's base name without extension). */
  id: string;
  text: string;
}

/**
 * Parses a questions CSV (header row with `question`, `references`, `corpus_id`; other
 * columns are ignored). `references` is a JSON list of `{content, start_index,
 * end_index}`; `start_index`/`end_index` become `start`/`end`.
 * @param csv the CSV text.
 * @param source a name for error messages (file name).
 * @throws {InvalidDatasetError} for a missing column, malformed CSV or JSON, a
 *   reference without integer offsets 0 ≤ start < end, or an empty question.
 */
export function parseQuestionsCsv(csv: string, source = 'questions.csv'): EvalQuestion[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(csv, { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
  } catch (cause) {
    throw new InvalidDatasetError(source, `not valid CSV: ${(cause as Error).message}`);
  }
  if (rows.length > 0) {
    for (const column of ['question', 'references', 'corpus_id']) {
      if (!(column in rows[0])) throw new InvalidDatasetError(source, `missing column ${JSON.stringify(column)} (columns: ${Object.keys(rows[0]).join(', ')})`);
    }
  }
  return rows.map((row, i) => {
    const where = `${source} row ${i + 2}`; // 1-based, after the header
    const question = row.question;
    if (!question || !question.trim()) throw new InvalidDatasetError(where, 'empty question');
    const corpusId = row.corpus_id?.trim();
    if (!corpusId) throw new InvalidDatasetError(where, 'empty corpus_id');
    let raw: unknown;
    try {
      raw = JSON.parse(row.references);
    } catch (cause) {
      throw new InvalidDatasetError(where, `references is not JSON: ${(cause as Error).message}`);
    }
    if (!Array.isArray(raw) || raw.length === 0) throw new InvalidDatasetError(where, 'references must be a non-empty JSON list');
    const references = raw.map((r: unknown, j): Reference => {
      const o = r as { content?: unknown; start_index?: unknown; end_index?: unknown };
      const start = Number(o?.start_index);
      const end = Number(o?.end_index);
      if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start) {
        throw new InvalidDatasetError(where, `reference ${j} needs integer start_index < end_index, got ${JSON.stringify(r).slice(0, 120)}`);
      }
      return { content: typeof o.content === 'string' ? o.content : '', start, end };
    });
    return { question, corpusId, references };
  });
}

/**
 * Checks every question against the corpora: its corpus exists, and each reference
 * lies inside the corpus with `content === corpus.slice(start, end)` (when content is given).
 * @throws {InvalidDatasetError} naming the first question that fails.
 */
export function checkQuestions(questions: readonly EvalQuestion[], corpora: readonly Corpus[]): void {
  const byId = new Map(corpora.map((c) => [c.id, c.text]));
  questions.forEach((q, i) => {
    const text = byId.get(q.corpusId);
    const where = `question ${i} (${JSON.stringify(q.question.slice(0, 60))})`;
    if (text === undefined) {
      throw new InvalidDatasetError(where, `corpus_id ${JSON.stringify(q.corpusId)} has no corpus; corpora: ${[...byId.keys()].join(', ')}`);
    }
    for (const r of q.references) {
      if (r.end > text.length) throw new InvalidDatasetError(where, `reference [${r.start}, ${r.end}) ends past the corpus (${text.length} code units)`);
      if (r.content && text.slice(r.start, r.end) !== r.content) {
        throw new InvalidDatasetError(where, `reference [${r.start}, ${r.end}) differs from the corpus text there: ${JSON.stringify(r.content.slice(0, 60))}`);
      }
    }
  });
}

/** The corpus id of a file path: its base name without the last extension (`corpora/pubmed.md` → `pubmed`). */
export function corpusIdFromPath(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
