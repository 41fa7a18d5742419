/**
 * `chunkwise tune CORPUS… --questions Q.csv`: searches strategy × size × overlap (and
 * QASC's window) within a time budget with `tune()`, prints the Pareto front of recall
 * against IoU with bootstrap intervals and the recommended configuration in three forms;
 * `--out DIR` also writes `tune.json` (the full table, which the web page opens),
 * `front.svg` and `report.md`. `--generate N` asks an OpenAI-compatible chat endpoint for
 * N questions per corpus first (written to `DIR/questions.csv` with `--out`).
 * @module
 */
import { strategyDefinition, strategyNames } from '../../strategies/index.js';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { generateQuestions, questionsCsv } from '../../evaluation/question-generation.js';
import { checkQuestions, type EvalQuestion } from '../../evaluation/questions.js';
import { queryTimeStrategy, tune, TUNE_BUDGET_MS, TUNE_OVERLAPS, TUNE_QASC_WINDOWS, TUNE_SIZES, TUNE_STRATEGIES, type TuneResult } from '../../evaluation/tune.js';
import { tuneJson, tuneMarkdown, tuneSvg } from '../../evaluation/tune-report.js';
import { loadEmbedder } from '../node/embedders.js';
import { progressBar, readCorpora, readQuestions } from '../node/evaluation.js';
import { UnwritableFileError } from './errors.js';
import { expandInputs } from './inputs.js';
import { Output } from './io.js';
import { parseNumberArg, parsePositiveIntegerArg } from './strategy-flags.js';
import { UsageError } from './usage-error.js';

/** Options of `chunkwise tune`, as commander parses them. */
export interface TuneCommandOptions {
  questions?: string;
  budget: number;
  embedder: string;
  topK: number;
  strategies?: string[];
  sizes?: number[];
  overlaps?: number[];
  qascWindows?: ('adaptive' | 'fixed')[];
  recallTolerance: number;
  out?: string;
  generate?: number;
  chatModel?: string;
  chatUrl?: string;
  queryTime?: boolean;
  quiet?: boolean;
  progress?: boolean;
}

/**
 * A duration: a number with `ms`, `s`, `m` or `h` (no unit: seconds), e.g. `5m`, `90s`.
 * @returns milliseconds.
 * @throws {UsageError} for anything else or a duration ≤ 0.
 */
export function parseDuration(value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  const ms = m ? Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'] : NaN;
  if (!(ms > 0)) throw new UsageError(`--budget: expected a duration such as 5m, 90s or 1h, got ${JSON.stringify(value)}`);
  return ms;
}

/** A comma-separated list parsed item by item. */
function listOf<T>(flag: string, parse: (item: string) => T): (value: string) => T[] {
  return (value: string) => {
    const items = value.split(',').map((s) => s.trim());
    if (items.some((s) => !s)) throw new UsageError(`${flag}: expected a comma-separated list, got ${JSON.stringify(value)}`);
    return items.map(parse);
  };
}

/** A strategy `tune` can search: a registered one, or `qasc` (hybrid QASC). */
function strategyName(s: string): string {
  if (s !== 'qasc' && strategyDefinition(s) === undefined) throw new UsageError(`--strategies: unknown strategy ${JSON.stringify(s)} (strategies: ${[...strategyNames(), 'qasc'].join(', ')})`);
  return s;
}

const integer = (flag: string) => (s: string) => {
  if (!/^\d+$/.test(s) || Number(s) < 1) throw new UsageError(`${flag}: expected integers ≥ 1, got ${JSON.stringify(s)}`);
  return Number(s);
};

/** Adds `chunkwise tune` to the program. */
export function addTuneCommand(program: Command): Command {
  return program
    .command('tune')
    .description('search strategy × chunk size × overlap (and QASC\'s window) on your corpora and questions within a time budget; print the Pareto front of recall against IoU and the recommended configuration')
    .argument('<corpora...>', 'corpus files, directories or globs; a question\'s corpus_id is a file\'s base name without extension')
    .option('--questions <file>', 'questions: a CSV with columns question, references, corpus_id (Chroma\'s format), or lines of question<TAB>excerpt (the excerpt copied from a corpus; its corpus and offsets are found)')
    .addOption(new Option('--budget <duration>', 'time budget: no configuration is started that would end past it (e.g. 90s, 5m, 1h; a bare number is seconds)').argParser(parseDuration).default(TUNE_BUDGET_MS, '5m'))
    .option('--embedder <spec>', 'hashing | hashing:<dim> | onnx:<folder> | static:<folder> | openai:<model> | transformers:<folder>', 'hashing')
    .option('-k, --top-k <n>', 'chunks retrieved per question', parsePositiveIntegerArg, 5)
    .option('--strategies <list>', `strategies searched (comma-separated; qasc is hybrid QASC) [default: ${TUNE_STRATEGIES.filter((x) => !queryTimeStrategy(x)).join(',')}; with --query-time also ${TUNE_STRATEGIES.filter(queryTimeStrategy).join(',')}]`, listOf('--strategies', strategyName))
    .option('--query-time', 'also search query-time strategies (QASC: chunks built per question, nothing indexed ahead) and let them be recommended; without it the recommendation is an index-time configuration')
    .option('--sizes <list>', `chunk sizes in tokens [default: ${TUNE_SIZES.join(',')}]`, listOf('--sizes', integer('--sizes')))
    .option('--overlaps <list>', `overlaps in percent of the size, each in [0, 100) [default: ${TUNE_OVERLAPS.join(',')}]`, listOf('--overlaps', (s) => {
      const n = Number(s);
      if (!/^\d+(\.\d+)?$/.test(s) || n >= 100) throw new UsageError(`--overlaps: expected percentages in [0, 100), got ${JSON.stringify(s)}`);
      return n;
    }))
    .option('--qasc-windows <list>', `QASC windows searched [default: ${TUNE_QASC_WINDOWS.join(',')}]`, listOf('--qasc-windows', (s) => {
      if (s !== 'adaptive' && s !== 'fixed') throw new UsageError(`--qasc-windows: expected adaptive or fixed, got ${JSON.stringify(s)}`);
      return s;
    }))
    .option('--recall-tolerance <points>', 'recommendation: the best IoU among configurations within this many recall points of the best recall', parseNumberArg, 1)
    .option('-o, --out <dir>', 'also write tune.json (every configuration; the web page opens it), front.svg and report.md into this directory')
    .option('--generate <n>', 'first generate n questions per corpus through an OpenAI-compatible chat endpoint (instead of --questions)', parsePositiveIntegerArg)
    .option('--chat-model <name>', 'with --generate: the chat model')
    .option('--chat-url <url>', 'with --generate: the endpoint\'s base URL up to /v1 [default: OPENAI_BASE_URL]')
    .action(async (corpora: string[], options: TuneCommandOptions) => {
      await runTune(corpora, options);
    });
}

async function writeFile(path: string | undefined, text: string): Promise<void> {
  const out = await Output.open(path);
  await out.write(text);
  await out.close();
}

/**
 * Runs `chunkwise tune`: reads (or generates) the questions, searches, prints the report.
 * The budget counts from the start of the command (reading and loading the embedder included).
 * @returns the result (for tests).
 * @throws {UsageError} for conflicting or missing flags.
 * @throws {InvalidOptionError} for a bad grid or embedder; {@link InvalidDatasetError} for questions that do not match the corpora.
 * @throws {UnreadableFileError} / {@link UnwritableFileError} for files.
 */
export async function runTune(corporaArgs: string[], o: TuneCommandOptions): Promise<TuneResult> {
  const startedAt = performance.now();
  if (o.generate !== undefined && o.questions !== undefined) throw new UsageError('give --questions or --generate, not both');
  if (o.generate === undefined && o.questions === undefined) throw new UsageError('give --questions FILE.csv, or --generate N --chat-model NAME to have questions written');
  if (o.generate === undefined && (o.chatModel !== undefined || o.chatUrl !== undefined)) throw new UsageError('--chat-model and --chat-url go with --generate');
  const chatUrl = o.chatUrl ?? process.env.OPENAI_BASE_URL;
  if (o.generate !== undefined && (!o.chatModel || !chatUrl)) throw new UsageError('--generate needs --chat-model and --chat-url (or OPENAI_BASE_URL)');
  if (!(o.recallTolerance >= 0 && o.recallTolerance <= 100)) throw new UsageError(`--recall-tolerance: expected points in [0, 100], got ${o.recallTolerance}`);
  const show = !o.quiet && o.progress !== false;
  const corpora = await readCorpora(await expandInputs(corporaArgs));
  if (o.out) {
    const existing = await stat(o.out).catch(() => undefined);
    if (existing && !existing.isDirectory()) throw new UsageError(`--out takes a directory (tune writes tune.json, front.svg and report.md into it); ${o.out} is a file`);
    try {
      await mkdir(o.out, { recursive: true });
    } catch (cause) {
      throw new UnwritableFileError(o.out, cause);
    }
  }
  let questions: EvalQuestion[];
  if (o.generate !== undefined) {
    const bar = progressBar('generating questions [{bar}] {value}/{total}', 'questions', show);
    try {
      questions = await generateQuestions(corpora, {
        model: o.chatModel!,
        baseURL: chatUrl!,
        apiKey: process.env.OPENAI_API_KEY,
        perCorpus: o.generate,
        onQuestion: (e) => {
          bar.update(e.done, e.total);
          if (!e.kept && !o.quiet) process.stderr.write(`chunkwise: no usable question for ${e.corpusId} (${e.reason})\n`);
        },
      });
    } finally {
      bar.stop();
    }
    if (questions.length === 0) throw new UsageError('the chat endpoint gave no usable question');
    if (o.out) await writeFile(join(o.out, 'questions.csv'), questionsCsv(questions));
  } else {
    questions = await readQuestions(o.questions!, corpora);
  }
  checkQuestions(questions, corpora);
  const embedder = await loadEmbedder(o.embedder);
  const bar = progressBar('tune [{bar}] {value}/{total} configurations | {label}', '', show);
  const lines = show && !process.stderr.isTTY;
  let result: TuneResult;
  try {
    result = await tune(corpora, questions, {
      embedder,
      k: o.topK,
      budgetMs: o.budget,
      startedAt,
      strategies: o.strategies,
      sizes: o.sizes,
      overlaps: o.overlaps,
      qascWindows: o.qascWindows,
      recallTolerance: o.recallTolerance / 100,
      queryTime: o.queryTime === true,
      onConfiguration: (e) => {
        bar.label(e.spec);
        bar.update(e.done, e.total);
        // no terminal (a log, CI): a line per configuration finished instead of a bar
        if (lines && e.phase !== 'start') process.stderr.write(`chunkwise: tune ${e.done}/${e.total} ${e.spec} ${e.phase}, ${((performance.now() - startedAt) / 1000).toFixed(0)} s\n`);
      },
    });
  } finally {
    bar.stop();
  }
  const report = tuneMarkdown(result, o.embedder) + '\n';
  await writeFile(undefined, report);
  if (o.out) {
    await writeFile(join(o.out, 'tune.json'), tuneJson(result, o.embedder) + '\n');
    await writeFile(join(o.out, 'front.svg'), tuneSvg(result, o.embedder) + '\n');
    await writeFile(join(o.out, 'report.md'), report);
  }
  return result;
}
