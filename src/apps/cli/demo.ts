/**
 * `npm run demo`: the main job on real text. Chunks the project's own README and docs
 * with every registered strategy, each on the input it is for: the code strategy on the
 * CLI's own sources in src/apps/cli, the html strategy on the web page and the HTML test pages
 * (web/index.html, test/golden/html), the others on the Markdown README and docs;
 * prints a summary per strategy (chunks, mean tokens,
 * mean overlap, time) and writes the chunks as JSONL to `out/demo/<strategy>.jsonl`.
 * @module
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChunker, strategies, type StrategyOptions } from '../../strategies/index.js';
import { chunkRecord } from './chunk-command.js';
import { QascIndex } from '../../strategies/qasc/qasc-index.js';

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
  out.push(`ranked by ${index.rank === 'fused' ? 'fused = seed + candidate cosine' : index.rank === 'seed' ? 'the best seed cosine' : 'S'} (S: QASC's window score)`, '');
  for (const r of results) {
    const rank = index.rank === 'fused' ? r.seedScore + r.candidateScore : index.rank === 'seed' ? r.seedScore : r.metadata.score;
    out.push(
      `#${r.index + 1} ${index.rank} = ${rank.toFixed(3)} (seed ${r.seedScore.toFixed(3)} + candidate ${r.candidateScore.toFixed(3)}), S = ${r.metadata.score.toFixed(3)}  ${r.documentId} [${r.start}, ${r.end})  seeds ${r.metadata.seeds.join(', ')}`,
    );
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
  html: { unit: 'token', chunkSize: 256 },
  'parent-child': { unit: 'token', parentSize: 1024, childSize: 128, childOverlap: 16, markdown: 'auto' },
  code: { unit: 'token', chunkSize: 256 },
};

/** The files of `dir` (relative to `root`) ending in `ext`, sorted; none when the folder is missing (an installed package). */
async function filesIn(root: string, dir: string, ext: string): Promise<string[]> {
  try {
    return (await readdir(join(root, dir))).filter((f) => f.endsWith(ext)).sort().map((f) => join(root, dir, f));
  } catch {
    return [];
  }
}

/** `n files: a/*.ts, b/*.html` for the files a strategy ran on. */
function inputLabel(names: string[]): string {
  const groups = [...new Set(names.map((n) => `${dirname(n)}/*${n.slice(n.lastIndexOf('.'))}`))];
  return `${names.length} files: ${groups.join(', ')}`;
}

/** Strategies the demo runs on other files than the README and docs: code on the CLI's own sources, html on HTML pages. */
const DEMO_FILES: Partial<Record<string, (root: string) => Promise<string[]>>> = {
  code: (root) => filesIn(root, join('src', 'apps', 'cli'), '.ts'),
  html: async (root) => [...(await filesIn(root, 'web', '.html')), ...(await filesIn(root, join('test', 'golden', 'html'), '.html'))],
};

/** Strategies the demo leaves out of the table, and why. */
export const DEMO_SKIPPED: Record<string, string> = {
  late: 'needs a token-level ONNX model (chunkwise chunk --strategy late --embedder onnx:<folder>)',
};

/** The repository root (three levels above dist/src/apps/cli or src/apps/cli). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (dir.endsWith('/dist')) return dirname(dir);
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
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
  rows.push('| strategy | options | chunks | mean tokens | max tokens | mean overlap (chars) | ms | output | input |');
  rows.push('|---|---|---:|---:|---:|---:|---:|---|---|');
  for (const strategy of strategies()) {
    if (DEMO_SKIPPED[strategy.name]) continue;
    const options = DEMO_OPTIONS[strategy.name] ?? {};
    const own = DEMO_FILES[strategy.name];
    const inputs = own ? await Promise.all((await own(root)).map(async (f) => ({ name: relative(root, f), text: await readFile(f, 'utf8') }))) : sources;
    // the code strategy takes each file's name (its language)
    const chunkerFor = (name: string) => strategy.create(strategy.name === 'code' ? { ...options, filename: name } : options, createChunker);
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
      `| ${strategy.name} | ${opts} | ${count} | ${count ? (tokens / count).toFixed(1) : '0'} | ${maxTokens} | ${count ? (overlap / count).toFixed(0) : '0'} | ${ms.toFixed(0)} | ${relative(root, file)} | ${own ? inputLabel(inputs.map((i) => i.name)) : 'README + docs (Markdown)'} |`,
    );
  }
  rows.push('', ...(await qascDemo(sources)));
  return rows.join('\n');
}
