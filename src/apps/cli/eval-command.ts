/**
 * `chunkwise eval`: token-level retrieval evaluation (Chroma's method) of one or more
 * chunking strategies (and hybrid QASC, `qasc:size:overlap:window=…`) on corpora and a
 * questions CSV, with one embedder and one k.
 * Writes a Markdown table to stdout (or `--out`), and optionally JSON and an SVG chart.
 * @module
 */
import type { EvaluationResult } from '../../evaluation/evaluate.js';
import { checkSpec, evaluateSpec } from '../../evaluation/evaluate-spec.js';
import { checkQuestions } from '../../evaluation/questions.js';
import { markdownTable, perCorpusTable, recallIouSvg, resultsJson, type ReportRow } from '../../evaluation/report.js';
import { loadEmbedder } from '../node/embedders.js';
import { embeddingProgress, readCorpora, readQuestions } from '../node/evaluation.js';
import { Output, UnreadableFileError } from './io.js';
import { expandInputs } from './inputs.js';

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
  /** `--quiet`: nothing on stderr but errors (no progress bar, no timings). */
  quiet?: boolean;
  /** False with `--no-progress`. */
  progress?: boolean;
}

/** Writes `text` to an output opened before the work and closes it. @throws {UnwritableFileError} */
async function writeText(output: Output, text: string): Promise<void> {
  await output.write(text);
  await output.close();
}

async function readOrThrow<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (cause) {
    if (cause instanceof Error && 'code' in cause) throw new UnreadableFileError((cause as NodeJS.ErrnoException).path ?? path, cause);
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
  const specs = o.strategy.map((s) => checkSpec(s)); // fail on bad options before any work
  const corpusFiles = await expandInputs(o.corpora);
  const corpora = await readOrThrow(corpusFiles.join(' '), () => readCorpora(corpusFiles));
  const questions = await readOrThrow(o.questions, () => readQuestions(o.questions));
  checkQuestions(questions, corpora);
  // outputs are opened before the work, so a missing directory fails at once
  const out = await Output.open(o.out);
  const json = o.json ? await Output.open(o.json) : undefined;
  const svg = o.svg ? await Output.open(o.svg) : undefined;
  const embedder = await loadEmbedder(o.embedder);
  const rows: ReportRow[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    const bar = embeddingProgress(spec.spec, !o.quiet && o.progress !== false);
    const t0 = performance.now();
    let result: EvaluationResult;
    try {
      result = await evaluateSpec(spec, corpora, questions, embedder, { k: o.topK, onProgress: bar.update });
    } finally {
      bar.stop();
    }
    const t = result.timings!;
    if (!o.quiet) {
      process.stderr.write(
        `${spec.spec}: ${result.chunks} chunks, ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
          `(chunking ${(t.chunkMs! / 1000).toFixed(1)} s, ${t.embedMs !== undefined ? `embedding ${(t.embedMs / 1000).toFixed(1)} s, ` : ''}retrieval ${(t.retrieveMs / 1000).toFixed(1)} s)\n`,
      );
    }
    rows.push({ result, strategy: spec.name, size: spec.size, overlap: spec.overlap });
  }
  let md = `Embedder: ${o.embedder}; k = ${o.topK}; ${questions.length} questions over ${corpora.length} corpora.\n\n${markdownTable(rows)}\n`;
  if (o.perCorpus) md += `\nPer corpus (means):\n\n${perCorpusTable(rows)}\n`;
  await writeText(out, md);
  if (json) await writeText(json, resultsJson(rows) + '\n');
  if (svg) await writeText(svg, recallIouSvg(rows, { title: `Recall against IoU — ${o.embedder}, k = ${o.topK}` }) + '\n');
  return rows;
}
