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

/** Whether a questions file is the simple tab format (its first line that is not blank or a `#` comment holds a tab). */
export function isTabbedQuestions(text: string): boolean {
  const first = text.split(/\r?\n/).find((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  return first !== undefined && first.includes('\t');
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };

/**
 * Parses the simple questions format the web page takes: a line per question,
 * `question<TAB>excerpt[<TAB>excerpt…]`, each excerpt copied from one of the corpora
 * (`\n`, `\t`, `\\` written as escapes where the excerpt has them). The offsets and the
 * corpus are found here: each excerpt must occur exactly once in all the corpora, and
 * all the excerpts of a line in one corpus. Blank lines and lines starting with `#` are skipped.
 * @param source a name for error messages (file name).
 * @throws {InvalidDatasetError} naming the line: no tab, an excerpt not found, found more
 *   than once, or excerpts of one question in different corpora.
 */
export function parseTabbedQuestions(text: string, corpora: readonly Corpus[], source = 'questions.tsv'): EvalQuestion[] {
  const questions: EvalQuestion[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const where = `${source} line ${i + 1}`;
    const [question, ...written] = raw.split('\t');
    const excerpts = written.filter((e) => e.length > 0);
    if (question.trim() === '' || excerpts.length === 0) throw new InvalidDatasetError(where, 'needs a question, a tab, then an excerpt of a corpus');
    let corpusId: string | undefined;
    const references: Reference[] = [];
    for (const excerpt of excerpts) {
      const unescaped = excerpt.replace(/\\([ntr\\])/g, (_, c: string) => ESCAPES[c]);
      const found: { corpus: Corpus; content: string; start: number }[] = [];
      for (const content of unescaped === excerpt ? [excerpt] : [excerpt, unescaped]) {
        for (const corpus of corpora) {
          for (let at = corpus.text.indexOf(content); at >= 0 && found.length < 2; at = corpus.text.indexOf(content, at + 1)) found.push({ corpus, content, start: at });
        }
        if (found.length > 0) break;
      }
      const shown = JSON.stringify(excerpt.length > 60 ? excerpt.slice(0, 60) + '…' : excerpt);
      if (found.length === 0) throw new InvalidDatasetError(where, `excerpt not found in the corpora: ${shown}`);
      if (found.length > 1) {
        const places = found.map((f) => `${f.corpus.id} at ${f.start}`).join(' and ');
        throw new InvalidDatasetError(where, `excerpt found more than once (${places}): copy a longer excerpt so that it occurs once: ${shown}`);
      }
      const [{ corpus, content, start }] = found;
      if (corpusId !== undefined && corpus.id !== corpusId) throw new InvalidDatasetError(where, `excerpts in two corpora (${corpusId} and ${corpus.id}): a question's excerpts come from one`);
      corpusId = corpus.id;
      references.push({ content, start, end: start + content.length });
    }
    questions.push({ question: question.trim(), corpusId: corpusId!, references });
  });
  return questions;
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
