/**
 * `chunkwise eval`: token-level retrieval evaluation (SPEC section 5) of one or more
 * chunking strategies on corpora and a questions CSV, with one embedder and one k.
 * Writes a Markdown table to stdout (or `--out`), and optionally JSON and an SVG chart.
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { evaluateChunker, type EvaluationResult } from '../evaluation/evaluate.js';
import { checkQuestions } from '../evaluation/questions.js';
import { markdownTable, perCorpusTable, recallIouSvg, resultsJson, type ReportRow } from '../evaluation/report.js';
import { chunkerFromSpec, parseStrategySpec } from '../evaluation/strategy-spec.js';
import { loadEmbedder } from '../node/embedders.js';
import { embeddingProgress, readCorpora, readQuestions } from '../node/evaluation.js';
import { UnreadableFileError } from './io.js';

/** Options of `chunkwise eval`, as commander parses them. */
export interface EvalCommandOptions {
  corpora: string[];
  questions: string;
  strategy: string[];
  embedder: string;
  topK: number;
  json?: string;
  svg?: string;
  out?: string;
  perCorpus?: boolean;
}

async function readOrThrow<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (cause) {
    if (cause instanceof Error && 'code' in cause) throw new UnreadableFileError(path, cause);
    throw cause;
  }
}

/**
 * Runs the evaluation for every `--strategy` spec and writes the reports.
 * @returns the rows (for tests).
 * @throws {InvalidOptionError} for a bad strategy spec, embedder spec or k.
 * @throws {InvalidDatasetError} for questions that do not match the corpora.
 * @throws {UnreadableFileError} for a file that cannot be read.
 */
export async function runEval(o: EvalCommandOptions): Promise<ReportRow[]> {
  const specs = o.strategy.map((s) => parseStrategySpec(s));
  const chunkers = specs.map((s) => chunkerFromSpec(s)); // fail on bad options before any work
  const corpora = await readOrThrow(o.corpora.join(' '), () => readCorpora(o.corpora));
  const questions = await readOrThrow(o.questions, () => readQuestions(o.questions));
  checkQuestions(questions, corpora);
  const embedder = await loadEmbedder(o.embedder);
  const rows: ReportRow[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    const bar = embeddingProgress(spec.spec);
    const t0 = performance.now();
    let result: EvaluationResult;
    try {
      result = await evaluateChunker(chunkers[i], corpora, questions, embedder, { name: spec.spec, k: o.topK, onProgress: bar.update });
    } finally {
      bar.stop();
    }
    const t = result.timings!;
    process.stderr.write(
      `${spec.spec}: ${result.chunks} chunks, ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
        `(chunking ${(t.chunkMs! / 1000).toFixed(1)} s, embedding ${(t.embedMs! / 1000).toFixed(1)} s, retrieval ${(t.retrieveMs / 1000).toFixed(1)} s)\n`,
    );
    rows.push({ result, strategy: spec.name, size: spec.size, overlap: spec.overlap });
  }
  let md = `Embedder: ${o.embedder}; k = ${o.topK}; ${questions.length} questions over ${corpora.length} corpora.\n\n${markdownTable(rows)}\n`;
  if (o.perCorpus) md += `\nPer corpus (means):\n\n${perCorpusTable(rows)}\n`;
  if (o.out) await writeFile(o.out, md);
  else process.stdout.write(md);
  if (o.json) await writeFile(o.json, resultsJson(rows) + '\n');
  if (o.svg) await writeFile(o.svg, recallIouSvg(rows, { title: `Recall against IoU — ${o.embedder}, k = ${o.topK}` }) + '\n');
  return rows;
}
