/**
 * `chunkwise qasc <file...> --query "…"`: query-adaptive chunks (QASC)
 * for one question over one or more files, best first, in hybrid mode (pre-chunks,
 * candidates, QASC inside them; default) or whole-document mode (QASC over each file).
 * @module
 */
import { Option, type Command } from 'commander';
import { QASC_CANDIDATES_PER_RESULT, QascIndex } from '../../strategies/qasc/qasc-index.js';
import { QueryAdaptiveChunker, type QascChunk, type QascParams } from '../../strategies/qasc/qasc.js';
import { FixedSizeChunker } from '../../strategies/fixed-size/fixed-size.js';
import { ENCODINGS } from '../../engine/size/index.js';
import { loadEmbedder } from '../node/embedders.js';
import { Output, readSource } from './io.js';
import { parseIntegerArg, parseNumberArg } from './semantic-options.js';
import { parsePositiveIntegerArg } from './strategy-flags.js';
import { UsageError } from './usage-error.js';
import { DEFAULT_EXTENSIONS, expandInputs, parseExtensions } from './inputs.js';

/** Options of `chunkwise qasc`, as commander parses them: QASC's parameters (`--p`, `--m`, …) under their own names, and the command's. */
export interface QascCommandOptions extends QascParams {
  query: string;
  topK: number;
  mode: 'hybrid' | 'whole';
  /** Default {@link QASC_CANDIDATES_PER_RESULT} × topK. */
  candidates?: number;
  preChunkSize: number;
  preChunkOverlap: number;
  rank: 'fused' | 'seed' | 'score';
  embedder: string;
  encoding: string;
  explain?: boolean;
  format: 'text' | 'jsonl';
  locale: string;
  /** Extensions a directory walk picks (default .md, .txt). */
  ext?: string[];
}

/** The QASC parameters (QascParams) the command line can set, by option name. */
const PARAMS = ['p', 'm', 'lambda', 'kappa', 'window', 'secondaryPercentile', 'maxRadius', 'alignDistance', 'maxChunkSize', 'minSimilarity'] as const;

/** Adds the `qasc` command to the program. */
export function addQascCommand(program: Command): void {
  program
    .command('qasc')
    .description('query-adaptive semantic chunking: the chunks of the files that answer --query, best first')
    .argument('<files...>', 'files, directories (walked recursively) or globs to search; - reads stdin')
    .requiredOption('-q, --query <text>', 'the question')
    .option('-k, --top-k <n>', 'chunks to print', parsePositiveIntegerArg, 3)
    .addOption(new Option('--mode <mode>', 'hybrid: QASC inside the top --candidates pre-chunks of all files; whole: QASC over each whole file').choices(['hybrid', 'whole']).default('hybrid'))
    .option('--candidates <n>', `hybrid: pre-chunks retrieved before QASC runs inside them (default ${QASC_CANDIDATES_PER_RESULT} × --top-k)`, parsePositiveIntegerArg)
    .option('--pre-chunk-size <tokens>', 'hybrid: size of the fixed-size pre-chunks', parsePositiveIntegerArg, 256)
    .option('--pre-chunk-overlap <tokens>', 'hybrid: overlap of the pre-chunks', parseIntegerArg, 32)
    .addOption(
      new Option('--rank <by>', "hybrid: rank results by the best seed sentence's plus the best candidate's similarity (fused), the seed's alone, or S")
        .choices(['fused', 'seed', 'score'])
        .default('fused'),
    )
    .option('--embedder <spec>', 'hashing[:dim], onnx:<folder> or static:<folder>', 'hashing')
    .addOption(new Option('--encoding <name>', 'token encoding of --max-chunk-size and token counts').choices([...ENCODINGS]).default('cl100k_base'))
    .option('--explain', 'print τ, seeds, windows and scores')
    .option('--p <percentile>', 'seed threshold percentile p (default 75)', parseNumberArg)
    .option('--m <n>', 'fixed window radius m in sentences (default 1)', parseIntegerArg)
    .option('--lambda <rate>', 'decay rate λ (default 0.5)', parseNumberArg)
    .option('--kappa <factor>', 'keep windows with S ≥ κ·τ (default 0.6)', parseNumberArg)
    .addOption(new Option('--window <mode>', 'fixed (±m) or adaptive windows (grow from the seed while sim ≥ τ₂; default fixed)').choices(['fixed', 'adaptive']))
    .option('--secondary-percentile <percentile>', 'adaptive windows: percentile of the secondary threshold τ₂ (default 50)', parseNumberArg)
    .option('--max-radius <n>', 'adaptive windows: largest distance from the seed in sentences (default 5)', parseIntegerArg)
    .option('--align-distance <n>', 'snap chunk ends to paragraph/section breaks at most this many sentences away (default 2; 0 off)', parseIntegerArg)
    .option('--max-chunk-size <tokens>', 'split chunks larger than this at their weakest sentence boundary (default 512)', parseIntegerArg)
    .option('--min-similarity <cos>', 'seeds also need this absolute similarity (default none)', parseNumberArg)
    .option('--locale <bcp47>', 'locale for sentence segmentation, or auto to detect it per file', 'auto')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'jsonl']).default('text'))
    .option('--ext <list>', 'extensions picked when walking a directory (comma-separated)', parseExtensions, DEFAULT_EXTENSIONS)
    .action(async (files: string[], o: QascCommandOptions) => {
      const text = await runQasc(files, o);
      await Output.writeWith(undefined, (output) => output.write(text));
    });
}

/** A result of either mode: a QASC chunk of one file. */
export type QascCommandResult = QascChunk & { documentId: string };

/** Runs `chunkwise qasc` and returns what it prints. */
export async function runQasc(inputs: string[], o: QascCommandOptions): Promise<string> {
  const embedder = await loadEmbedder(o.embedder);
  const qasc: QascParams = {};
  for (const key of PARAMS) if (o[key] !== undefined) (qasc as Record<string, unknown>)[key] = o[key];
  const files = await expandInputs(inputs, o.ext ?? DEFAULT_EXTENSIONS);
  const sources = [];
  for (const file of files) sources.push(await readSource(file));
  let results: QascCommandResult[];
  if (o.mode === 'whole') {
    const chunker = new QueryAdaptiveChunker({ ...qasc, embedder, explain: o.explain, locale: o.locale, encoding: o.encoding });
    const q = await chunker.embedQuery(o.query);
    results = [];
    for (const source of sources) {
      const doc = await chunker.prepare(source.text);
      for (const c of chunker.queryVector(doc, q)) results.push({ ...c, documentId: source.name });
    }
    // best S first over all files; ties by file order, then position
    results = results
      .map((r, order) => ({ r, order }))
      .sort((x, y) => y.r.metadata.score - x.r.metadata.score || x.order - y.order)
      .map(({ r }) => r)
      .slice(0, o.topK);
    results.forEach((r, i) => (r.index = i));
  } else {
    if (!(o.preChunkOverlap >= 0 && o.preChunkOverlap < o.preChunkSize)) {
      throw new UsageError(`invalid option --pre-chunk-overlap: ${o.preChunkOverlap} (an integer ≥ 0 and < --pre-chunk-size, ${o.preChunkSize})`);
    }
    const chunker = new FixedSizeChunker({ unit: 'token', encoding: o.encoding, chunkSize: o.preChunkSize, chunkOverlap: o.preChunkOverlap, countTokens: false });
    const index = new QascIndex({ embedder, qasc, explain: o.explain, locale: o.locale, encoding: o.encoding, chunker, rank: o.rank });
    for (const source of sources) await index.addDocument(source.name, source.text);
    results = await index.query(o.query, { topK: o.candidates ?? QASC_CANDIDATES_PER_RESULT * o.topK, maxResults: o.topK });
  }
  if (o.format === 'jsonl') return results.map((r) => JSON.stringify(record(r)) + '\n').join('');
  return formatText(o.query, results, o.explain ?? false);
}

function record(r: QascCommandResult): Record<string, unknown> {
  return { id: r.id, rank: r.index, source: r.documentId, text: r.text, start: r.start, end: r.end, tokenCount: r.tokenCount, metadata: r.metadata };
}

/** Human-readable results. */
export function formatText(query: string, results: QascCommandResult[], explain: boolean): string {
  const lines: string[] = [`query: ${query}`, `${results.length} chunk(s)`, ''];
  for (const r of results) {
    const m = r.metadata;
    lines.push(
      `#${r.index + 1}  S = ${m.score.toFixed(4)}  ${r.documentId} [${r.start}, ${r.end})  sentences [${m.sentenceStart}, ${m.sentenceEnd})  ${r.tokenCount} tokens  seeds ${m.seeds.join(', ')}`,
    );
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
