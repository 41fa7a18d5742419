/**
 * Code chunking against the peers a user would pick instead, on real code: this
 * repository's `src/` (TypeScript), commander's `lib/` and two of typescript's `lib/*.js`
 * (JavaScript).
 *
 * Quality: of the functions (function, method and constructor nodes found by tree-sitter)
 * whose own text fits the budget, how many lie wholly inside one chunk — at 256 and 512
 * cl100k_base tokens and 1000 characters. Also chunk counts, chunks over the budget, and
 * offsets (chunkwise's are exact; the peers' texts are mapped back by search).
 * Speed: the same files chunked in one tinybench run (ratios comparable).
 *
 * Peers:
 * - @langchain/textsplitters 1.0.2 `RecursiveCharacterTextSplitter.fromLanguage('js', …)`
 *   (LangChain has no TypeScript entry; 'js' is what its docs use for TS), chunkOverlap 0
 *   (chunkwise's code strategy has no overlap), token budgets through `lengthFunction`
 *   (cl100k_base), characters by its default length.
 * - @chonkiejs/core 0.0.11 `CodeChunker`: `await CodeChunker.create({ language, chunkSize,
 *   tokenizer })` imports `@kreuzberg/tree-sitter-language-pack` (a native N-API module);
 *   this repository overrides that optional dependency with an empty package (its other
 *   platforms' binaries are not all on the registry, which breaks `npm ci`). Installed by
 *   hand in a scratch folder, its `process()` downloads its parsers on first use
 *   ("Download error: Failed to fetch manifest … parsers.json: failed to lookup address"):
 *   it cannot run offline, so it is reported, not measured. The bench tries it and says
 *   what failed.
 * Run: npx tsx bench/code.bench.ts
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { CodeChunker } from '../src/code.js';
import { getTokenizer } from '../src/engine/size/tokens.js';
import { mapToOffsets } from './peers.js';
import { repoRoot, runTasks, table, utf8Bytes, type BenchTask } from './util.js';

interface SourceFile {
  name: string;
  text: string;
}

/** Every `.ts` file under src/, commander's lib/*.js, typescript's _tsserver.js and _typingsInstaller.js. */
export function codeCorpus(): SourceFile[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
      });
  const commander = readdirSync(join(repoRoot, 'node_modules', 'commander', 'lib'))
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => join(repoRoot, 'node_modules', 'commander', 'lib', f));
  const ts = ['_tsserver.js', '_typingsInstaller.js'].map((f) => join(repoRoot, 'node_modules', 'typescript', 'lib', f));
  return [...walk(join(repoRoot, 'src')), ...commander, ...ts].map((p) => ({ name: relative(repoRoot, p), text: readFileSync(p, 'utf8') }));
}

/** A budget: unit and size. */
interface Budget {
  unit: 'token' | 'char';
  size: number;
}
const BUDGETS: Budget[] = [
  { unit: 'token', size: 256 },
  { unit: 'token', size: 512 },
  { unit: 'char', size: 1000 },
];
const FUNCTION_KINDS = new Set(['function', 'method', 'constructor']);

const tokens = (t: string) => getTokenizer('cl100k_base').count(t);
const sizeIn = (b: Budget, t: string) => (b.unit === 'token' ? tokens(t) : [...t].length);
const label = (b: Budget) => `${b.size} ${b.unit === 'token' ? 'tokens' : 'chars'}`;

/** A tool under comparison: spans of one file (with offsets), or why it cannot run. */
interface Tool {
  name: string;
  spans(file: SourceFile, b: Budget): Promise<{ spans: { start: number; end: number; text: string }[]; unmapped: number }>;
}

const chunkers = new Map<string, CodeChunker>();
async function chunkwiseFor(file: SourceFile, b: Budget): Promise<CodeChunker> {
  const key = `${file.name.endsWith('.ts') ? 'ts' : 'js'} ${b.unit} ${b.size}`;
  let c = chunkers.get(key);
  if (!c) chunkers.set(key, (c = await CodeChunker.create({ filename: file.name, unit: b.unit, chunkSize: b.size, countTokens: false })));
  return c;
}

const TOOLS: Tool[] = [
  {
    name: 'chunkwise code',
    async spans(file, b) {
      const chunks = (await chunkwiseFor(file, b)).chunk(file.text);
      return { spans: chunks.map((c) => ({ start: c.start, end: c.end, text: c.text })), unmapped: 0 };
    },
  },
  {
    name: "langchain fromLanguage('js')",
    async spans(file, b) {
      const splitter = RecursiveCharacterTextSplitter.fromLanguage('js', {
        chunkSize: b.size,
        chunkOverlap: 0,
        ...(b.unit === 'token' ? { lengthFunction: tokens } : {}),
      });
      const texts = await splitter.splitText(file.text);
      const m = mapToOffsets({ id: file.name, text: file.text }, texts);
      return { spans: m.spans.map((s) => ({ start: s.start, end: s.end, text: s.text })), unmapped: m.notFound };
    },
  },
];

/** Whether @chonkiejs/core's CodeChunker runs here, and if not, its error. */
export async function chonkieCodeStatus(): Promise<string> {
  try {
    const { CodeChunker: Chonkie } = await import('@chonkiejs/core');
    const c = await Chonkie.create({ language: 'javascript', chunkSize: 256 });
    c.chunk('function f() { return 1; }\n');
    return 'runs';
  } catch (e) {
    return String((e as Error).message).split('\n')[0];
  }
}

/** Quality rows: functions kept whole per tool and budget. */
export async function codeQuality(files: SourceFile[] = codeCorpus()): Promise<string> {
  // function nodes by tree-sitter, once per file
  const fns = new Map<string, { start: number; end: number; text: string }[]>();
  for (const f of files) {
    const c = await chunkwiseFor(f, BUDGETS[0]);
    fns.set(f.name, c.definitions(f.text).filter((d) => FUNCTION_KINDS.has(d.kind)).map((d) => ({ start: d.start, end: d.end, text: f.text.slice(d.start, d.end) })));
  }
  const total = [...fns.values()].reduce((n, l) => n + l.length, 0);
  const lines = [
    `Files: ${files.length} (${(files.reduce((n, f) => n + utf8Bytes(f.text), 0) / 1e6).toFixed(2)} MB), ${total} function/method/constructor nodes (tree-sitter).`,
    '',
    '| budget | tool | functions that fit | kept whole | % | chunks | over budget | chunks not found in the source |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const b of BUDGETS) {
    for (const tool of TOOLS) {
      let fit = 0;
      let whole = 0;
      let chunks = 0;
      let over = 0;
      let unmapped = 0;
      for (const f of files) {
        const { spans, unmapped: u } = await tool.spans(f, b);
        unmapped += u;
        chunks += spans.length + u;
        for (const s of spans) if (sizeIn(b, s.text) > b.size) over++;
        for (const fn of fns.get(f.name)!) {
          if (sizeIn(b, fn.text) > b.size) continue;
          fit++;
          if (spans.some((s) => s.start <= fn.start && s.end >= fn.end)) whole++;
        }
      }
      lines.push(`| ${label(b)} | ${tool.name} | ${fit} | ${whole} | ${((100 * whole) / fit).toFixed(1)} | ${chunks} | ${over} | ${unmapped} |`);
    }
  }
  lines.push('', `@chonkiejs/core CodeChunker: ${await chonkieCodeStatus()}`);
  return lines.join('\n');
}

/** Runs the code benchmark (quality, then speed); returns Markdown. */
export async function runCodeBench(): Promise<string> {
  const files = codeCorpus();
  const out = ['#### Functions kept whole', '', await codeQuality(files)];
  const joinedBytes = files.reduce((n, f) => n + utf8Bytes(f.text), 0);
  for (const b of BUDGETS) {
    const tasks: BenchTask[] = [];
    const cw = await Promise.all(files.map((f) => chunkwiseFor(f, b)));
    const lc = RecursiveCharacterTextSplitter.fromLanguage('js', { chunkSize: b.size, chunkOverlap: 0, ...(b.unit === 'token' ? { lengthFunction: tokens } : {}) });
    tasks.push({ name: `chunkwise code ${label(b)}`, fn: () => files.forEach((f, i) => cw[i].chunk(f.text)), bytes: joinedBytes });
    tasks.push({ name: `langchain fromLanguage('js') ${label(b)}`, fn: () => Promise.all(files.map((f) => lc.splitText(f.text))), bytes: joinedBytes });
    const rows = await runTasks(tasks, { time: 3000, iterations: 3 });
    out.push('', `#### Speed, ${label(b)} (all files, one call each)`, '', table(rows, rows[1].name));
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCodeBench().then((md) => console.log(md));
}
