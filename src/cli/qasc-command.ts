/**
 * `chunkwise qasc <file...> --query "…"`: query-adaptive chunks (QASC, SPEC section 2)
 * for one question over one or more files, best first.
 * @module
 */
import { Option, type Command } from 'commander';
import { QascIndex, type QascResult } from '../retrieval/qasc-index.js';
import { loadEmbedder } from '../node/embedders.js';
import { Output, readSource } from './io.js';
import { parseIntegerArg, parseNumberArg } from './semantic-options.js';
import { DEFAULT_EXTENSIONS, expandInputs, parseExtensions } from './inputs.js';

/** Options of `chunkwise qasc`, as commander parses them. */
export interface QascCommandOptions {
  query: string;
  topK: number;
  candidates: number;
  embedder: string;
  explain?: boolean;
  format: 'text' | 'jsonl';
  p?: number;
  m?: number;
  lambda?: number;
  kappa?: number;
  window?: 'fixed' | 'adaptive';
  locale?: string;
  /** Extensions a directory walk picks (default .md, .txt). */
  ext?: string[];
}

/** Adds the `qasc` command to the program. */
export function addQascCommand(program: Command): void {
  program
    .command('qasc')
    .description('query-adaptive semantic chunking: the chunks of the files that answer --query, best first')
    .argument('<files...>', 'files, directories (walked recursively) or globs to search; - reads stdin')
    .requiredOption('-q, --query <text>', 'the question')
    .option('-k, --top-k <n>', 'chunks to print', parseIntegerArg, 3)
    .option('--candidates <n>', 'pre-chunks (256 tokens) retrieved before QASC runs inside them (hybrid mode)', parseIntegerArg, 8)
    .option('--embedder <spec>', 'hashing[:dim], onnx:<folder> or static:<folder>', 'hashing')
    .option('--explain', 'print τ, seeds, windows and scores')
    .option('--p <percentile>', 'seed threshold percentile p (default 75)', parseNumberArg)
    .option('--m <n>', 'window radius m in sentences (default 2)', parseIntegerArg)
    .option('--lambda <rate>', 'decay rate λ (default 0.5)', parseNumberArg)
    .option('--kappa <factor>', 'keep windows with S ≥ κ·τ (default 0.6)', parseNumberArg)
    .addOption(new Option('--window <mode>', 'fixed or adaptive windows').choices(['fixed', 'adaptive']))
    .option('--locale <bcp47>', 'locale for sentence segmentation (default en)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'jsonl']).default('text'))
    .option('--ext <list>', 'extensions picked when walking a directory (comma-separated)', parseExtensions, DEFAULT_EXTENSIONS)
    .action(async (files: string[], o: QascCommandOptions) => {
      const text = await runQasc(files, o);
      await Output.writeWith(undefined, (output) => output.write(text));
    });
}

/** Runs `chunkwise qasc` and returns what it prints. */
export async function runQasc(inputs: string[], o: QascCommandOptions): Promise<string> {
  const embedder = await loadEmbedder(o.embedder);
  const qasc: Record<string, unknown> = {};
  for (const key of ['p', 'm', 'lambda', 'kappa', 'window'] as const) if (o[key] !== undefined) qasc[key] = o[key];
  const index = new QascIndex({ embedder, qasc, explain: o.explain, locale: o.locale });
  const files = await expandInputs(inputs, o.ext ?? DEFAULT_EXTENSIONS);
  for (const file of files) {
    const source = await readSource(file);
    await index.addDocument(source.name, source.text);
  }
  const results = await index.query(o.query, { topK: o.candidates, maxResults: o.topK });
  if (o.format === 'jsonl') return results.map((r) => JSON.stringify(record(r)) + '\n').join('');
  return formatText(o.query, results, o.explain ?? false);
}

function record(r: QascResult): Record<string, unknown> {
  return { id: r.id, rank: r.index, source: r.documentId, text: r.text, start: r.start, end: r.end, tokenCount: r.tokenCount, metadata: r.metadata };
}

/** Human-readable results. */
export function formatText(query: string, results: QascResult[], explain: boolean): string {
  const lines: string[] = [`query: ${query}`, `${results.length} chunk(s)`, ''];
  for (const r of results) {
    const m = r.metadata;
    lines.push(`#${r.index + 1}  S = ${m.score.toFixed(4)}  ${r.documentId} [${r.start}, ${r.end})  sentences [${m.sentenceStart}, ${m.sentenceEnd})  seeds ${m.seeds.join(', ')}`);
    if (explain && m.explain) {
      const e = m.explain;
      lines.push(`    τ = ${e.tau.toFixed(4)}  κ·τ = ${e.keepThreshold.toFixed(4)}  merged [${e.mergedRange.join(', ')})  seed sims ${e.seedSims.map((s) => s.toFixed(3)).join(', ')}`);
      for (const w of e.windows) lines.push(`    window seed ${w.seed} [${w.lo}, ${w.hi})  S = ${w.score.toFixed(4)}  ${w.kept ? 'kept' : 'dropped'}`);
    }
    lines.push(...r.text.split('\n').map((l) => `    ${l}`));
    lines.push('');
  }
  return lines.join('\n');
}
