/**
 * Node-only helpers of the evaluation: reading corpora and a questions CSV from files,
 * and a progress bar (cli-progress on stderr, only when stderr is a terminal) for
 * embedding the chunks.
 * @module
 */
import { readFile } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import { InvalidDatasetError } from '../../engine/errors.js';
import { corpusIdFromPath, isTabbedQuestions, parseQuestionsCsv, parseTabbedQuestions, type Corpus, type EvalQuestion } from '../../evaluation/questions.js';
import type { ProgressCallback } from '../../evaluation/retrieval.js';

/**
 * Reads corpus files as UTF-8; each corpus's id is the file's base name without
 * extension (`corpora/pubmed.md` → `pubmed`), which is how questions' `corpus_id` maps to files.
 * @throws {InvalidDatasetError} when two files give the same id.
 * @throws Node's file-system errors (ENOENT, EISDIR, …) for unreadable files.
 */
export async function readCorpora(paths: readonly string[]): Promise<Corpus[]> {
  const corpora: Corpus[] = [];
  const seen = new Map<string, string>();
  for (const path of paths) {
    const id = corpusIdFromPath(path);
    if (seen.has(id)) throw new InvalidDatasetError(path, `corpus id ${JSON.stringify(id)} is also the id of ${seen.get(id)}`);
    seen.set(id, path);
    corpora.push({ id, text: await readFile(path, 'utf8') });
  }
  return corpora;
}

/**
 * Reads and parses a questions CSV (columns `question`, `references`, `corpus_id`), or,
 * given the corpora, the simple `question<TAB>excerpt` lines ({@link parseTabbedQuestions}).
 * @throws {InvalidDatasetError} for malformed data (naming the line); Node's file-system errors for an unreadable file.
 */
export async function readQuestions(path: string, corpora?: readonly Corpus[]): Promise<EvalQuestion[]> {
  const text = await readFile(path, 'utf8');
  // `question<TAB>excerpt` lines (the web page's format): offsets found in the corpora
  if (corpora && isTabbedQuestions(text)) return parseTabbedQuestions(text, corpora, path);
  return parseQuestionsCsv(text, path);
}

/** A progress callback plus `stop()`, for {@link embeddingProgress}. */
export interface ProgressBar {
  update: ProgressCallback;
  stop(): void;
}

/**
 * A cli-progress bar on stderr in `format` (cli-progress placeholders plus `{label}` and
 * `{rate}`, items per second); a no-op unless stderr is a terminal (and `CI` is unset)
 * and `enabled`. `label` may change with each update.
 */
export function progressBar(format: string, label: string, enabled = true): ProgressBar & { label(text: string): void } {
  if (!enabled || !process.stderr.isTTY || process.env.CI) return { update() {}, stop() {}, label() {} };
  const bar = new cliProgress.SingleBar({ stream: process.stderr, format, hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic);
  const started = Date.now();
  let running = false;
  let current = label;
  return {
    update(done: number, total: number) {
      if (!running) {
        bar.start(Math.max(total, 1), 0, { label: current, rate: '0' });
        running = true;
      }
      const secs = Math.max((Date.now() - started) / 1000, 1e-3);
      bar.update(done, { label: current, rate: (done / secs).toFixed(0) });
    },
    stop() {
      if (running) bar.stop();
    },
    label(text: string) {
      current = text;
      if (running) bar.update({ label: current });
    },
  };
}

/**
 * A cli-progress bar on stderr labelled `label` (e.g. the strategy), for embedding
 * chunks; a no-op unless stderr is a terminal (and `CI` is unset) and `enabled`.
 */
export function embeddingProgress(label: string, enabled = true): ProgressBar {
  return progressBar('embedding {label} [{bar}] {value}/{total} chunks | {rate} chunks/s', label, enabled);
}
