/**
 * `npm run demo`: the main job on real text. Chunks the project's own README and docs
 * with every registered strategy (the code strategy: the CLI's own sources in src/cli),
 * prints a summary per strategy (chunks, mean tokens,
 * mean overlap, time) and writes the chunks as JSONL to `out/demo/<strategy>.jsonl`.
 * @module
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strategies, type StrategyOptions } from '../strategies/registry.js';
import { chunkRecord } from './chunk-command.js';
import { QascIndex } from '../retrieval/qasc-index.js';

/** The question the demo asks the project's docs with QASC. */
export const DEMO_QUESTION = 'How is WebAssembly memory given back after a large job?';

/** QASC (hybrid mode, HashingEmbedder) over the demo files: the top chunks for {@link DEMO_QUESTION}. */
async function qascDemo(sources: Array<{ name: string; text: string }>): Promise<string[]> {
  const started = performance.now();
  const index = new QascIndex();
  for (const s of sources) await index.addDocument(s.name, s.text);
  const results = await index.query(DEMO_QUESTION, { topK: 8, maxResults: 3 });
  const ms = performance.now() - started;
  const out = [`QASC: "${DEMO_QUESTION}" (${index.chunkCount} pre-chunks, top 8 candidates, ${ms.toFixed(0)} ms with indexing)`, ''];
  for (const r of results) {
    out.push(`#${r.index + 1} S = ${r.metadata.score.toFixed(3)}  ${r.documentId} [${r.start}, ${r.end})  seeds ${r.metadata.seeds.join(', ')}`);
    out.push(...r.text.slice(0, 400).split('\n').map((l) => `    ${l}`));
    if (r.text.length > 400) out.push('    …');
    out.push('');
  }
  return out;
}

/** Options the demo gives each strategy (others use the strategy's defaults). */
export const DEMO_OPTIONS: Record<string, StrategyOptions> = {
  sliding: { unit: 'token', windowSize: 256, stride: 128 },
  fixed: { unit: 'token', chunkSize: 256, chunkOverlap: 32 },
  sentence: { unit: 'token', chunkSize: 256, overlapSentences: 1, locale: 'en' },
  recursive: { unit: 'token', chunkSize: 256, chunkOverlap: 32 },
  semantic: { unit: 'token', maxChunkSize: 256 },
  'cluster-semantic': { unit: 'token', maxChunkSize: 256 },
  markdown: { unit: 'token', chunkSize: 256, contextualHeaders: true },
  'parent-child': { unit: 'token', parentSize: 1024, childSize: 128, childOverlap: 16, markdown: 'auto' },
  code: { unit: 'token', chunkSize: 256 },
};

/** Strategies the demo runs on other files than the README and docs: code on the CLI's own sources. */
const DEMO_FILES: Record<string, (root: string) => Promise<string[]>> = {
  code: async (root) => {
    const dir = join(root, 'src', 'cli');
    try {
      return (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort().map((f) => join(dir, f));
    } catch {
      return []; // no sources (an installed package): the code strategy has nothing to chunk
    }
  },
};

/** Strategies the demo leaves out of the table, and why. */
export const DEMO_SKIPPED: Record<string, string> = {
  late: 'needs a token-level ONNX model (chunkwise chunk --strategy late --embedder onnx:<folder>)',
};

/** The repository root (two levels above dist/src/cli or src/cli). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (dir.endsWith('/dist')) return dirname(dir);
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..');
}

async function demoFiles(root: string): Promise<string[]> {
  const files = [join(root, 'README.md')];
  try {
    for (const name of (await readdir(join(root, 'docs'))).sort()) {
      if (name.endsWith('.md')) files.push(join(root, 'docs', name));
    }
  } catch {
    // no docs folder: the README alone
  }
  return files;
}

/** Runs the demo; `out` is the folder for the JSONL files. Returns the summary table. */
export async function runDemo(root = repoRoot(), out = join(root, 'out', 'demo')): Promise<string> {
  const files = await demoFiles(root);
  const sources = await Promise.all(files.map(async (f) => ({ name: relative(root, f), text: await readFile(f, 'utf8') })));
  const totalChars = sources.reduce((a, s) => a + s.text.length, 0);
  await mkdir(out, { recursive: true });
  const rows: string[] = [];
  rows.push(`chunkwise demo: ${sources.length} files (${sources.map((s) => s.name).join(', ')}), ${totalChars} characters`);
  rows.push('');
  rows.push('| strategy | options | chunks | mean tokens | max tokens | mean overlap (chars) | ms | output |');
  rows.push('|---|---|---:|---:|---:|---:|---:|---|');
  for (const strategy of strategies()) {
    if (DEMO_SKIPPED[strategy.name]) continue;
    const options = DEMO_OPTIONS[strategy.name] ?? {};
    const own = DEMO_FILES[strategy.name];
    const inputs = own ? await Promise.all((await own(root)).map(async (f) => ({ name: relative(root, f), text: await readFile(f, 'utf8') }))) : sources;
    // the code strategy takes each file's name (its language)
    const chunkerFor = (name: string) => strategy.create(strategy.name === 'code' ? { ...options, filename: name } : options);
    const shared = strategy.name === 'code' ? undefined : chunkerFor('');
    const started = performance.now();
    const lines: string[] = [];
    let count = 0;
    let tokens = 0;
    let maxTokens = 0;
    let overlap = 0;
    for (const source of inputs) {
      const chunks = await (shared ?? chunkerFor(source.name)).chunk(source.text);
      for (const c of chunks) {
        if (source.text.slice(c.start, c.end) !== c.text) throw new Error(`offset mismatch in ${source.name}`);
        count++;
        tokens += c.tokenCount;
        maxTokens = Math.max(maxTokens, c.tokenCount);
        overlap += c.metadata.overlap;
        lines.push(JSON.stringify(chunkRecord(c, source.name)));
      }
    }
    const ms = performance.now() - started;
    const file = join(out, `${strategy.name}.jsonl`);
    await writeFile(file, lines.join('\n') + '\n');
    const opts = Object.entries(options)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(' ');
    rows.push(
      `| ${strategy.name} | ${opts} | ${count} | ${count ? (tokens / count).toFixed(1) : '0'} | ${maxTokens} | ${count ? (overlap / count).toFixed(0) : '0'} | ${ms.toFixed(0)} | ${relative(root, file)} |`,
    );
  }
  rows.push('', ...(await qascDemo(sources)));
  return rows.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runDemo().then(
    (table) => console.log(table),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
