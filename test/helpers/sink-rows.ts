/**
 * Rows of a sink in a form two runs can be compared by: every column (vector as numbers,
 * metadata through JSON), sorted by source and id; and the one-paragraph edit the
 * incremental tests make.
 */
import type { SinkRow } from '../../src/index.js';

/** `rows` as plain values sorted by (source, id): what a rerun must leave equal to a clean run's. */
export function comparableRows(rows: readonly SinkRow[]): Record<string, unknown>[] {
  return rows
    .map((r) => ({ source: r.source, id: r.id, text: r.text, embedText: r.embedText, start: r.start, end: r.end, tokenCount: r.tokenCount, metadata: JSON.parse(JSON.stringify(r.metadata)), embedder: r.embedder, vector: Array.from(r.vector) }))
    .sort((a, b) => (a.source + '\u0000' + a.id < b.source + '\u0000' + b.id ? -1 : 1));
}

/** The rows whose text is not their source's `slice(start, end)` (`textOf` gives a source's text). */
export function misplacedRows(rows: readonly SinkRow[], textOf: (source: string) => string): SinkRow[] {
  return rows.filter((r) => r.text !== textOf(r.source).slice(r.start, r.end));
}

/** `text` with one paragraph in its first third rewritten (a sentence appended to it); `at` is where the sentence goes. */
export function editFirstThird(text: string): { text: string; at: number } | undefined {
  const paragraphs = [...text.matchAll(/\n\n([A-Z][a-z][^\n]{40,})\n\n/g)];
  const p = paragraphs.find((m) => m.index! > text.length * 0.1 && m.index! < text.length / 3);
  if (!p) return undefined;
  const end = p.index! + 2 + p[1].length;
  return { text: text.slice(0, end) + ' This sentence was added by the edit.' + text.slice(end), at: end };
}
