/**
 * The engine redesign against the code before it (issue 11: "token-unit strategies no
 * slower than today"): the same strategies, options and text, the previous release built
 * from git (commit 1ec6a38, the last before the engine) and this checkout, interleaved in
 * one process (`runInterleaved`: median CPU time per call, shuffled order).
 *
 * The previous build is made by hand (it is not a dependency) and named by CHUNKWISE_BASE:
 *   git worktree add <dir> 1ec6a38 && (cd <dir> && npm ci)
 *   npm run build && CHUNKWISE_BASE=<dir> node dist/bench/engine.bench.js   # or: npx tsx bench/engine.bench.ts
 * Without it the suite reports that it was skipped.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as now from '../src/index.js';
import { corpusText, runInterleaved, table, utf8Bytes, type BenchTask } from './util.js';

/** Where the previous build lies: CHUNKWISE_BASE (no default: nothing outside the checkout is read unless named). */
const BASE = process.env.CHUNKWISE_BASE;

/** Runs the before/after comparison; returns Markdown. */
export async function runEngineBench(): Promise<string> {
  if (!BASE) return 'Skipped: CHUNKWISE_BASE names no previous build (see bench/engine.bench.ts for how to make one).';
  const entry = join(BASE, 'dist', 'src', 'index.js');
  if (!existsSync(entry)) return `Skipped: no previous build at ${entry} (see bench/engine.bench.ts for how to make one).`;
  const before = (await import(pathToFileURL(entry).href)) as typeof now;
  const text = corpusText(['pubmed', 'state_of_the_union', 'wikitexts']);
  const bytes = utf8Bytes(text);
  type Make = (lib: typeof now) => { chunk(t: string): unknown };
  const cases: [string, Make][] = [
    ['fixed 512/64 tokens', (lib) => new lib.FixedSizeChunker({ chunkSize: 512, chunkOverlap: 64 })],
    ['sliding 512/256 tokens', (lib) => new lib.SlidingWindowChunker({ windowSize: 512, stride: 256 })],
    ['sentence 512 tokens', (lib) => new lib.SentenceChunker({ chunkSize: 512 })],
    ['recursive 400/0 tokens', (lib) => new lib.RecursiveChunker({ chunkSize: 400, chunkOverlap: 0 })],
    ['recursive 512/64 tokens', (lib) => new lib.RecursiveChunker({ chunkSize: 512, chunkOverlap: 64 })],
    ['parent-child 1024/128 tokens', (lib) => new lib.ParentChildChunker({ parentSize: 1024, childSize: 128, markdown: false })],
  ];
  const out = [
    `Input: pubmed + state_of_the_union + wikitexts, ${(bytes / 1e6).toFixed(2)} MB; default encoding cl100k_base (WebAssembly BPE in both), token counts on. Before = commit 1ec6a38 (${BASE}), after = this checkout; median CPU time per call, interleaved.`,
    '',
  ];
  const rows: string[] = ['| strategy | before ms | after ms | after ÷ before speed |', '|---|---:|---:|---:|'];
  for (const [name, make] of cases) {
    const a = make(before);
    const b = make(now);
    a.chunk('warm up'); // tokenizer tables
    b.chunk('warm up');
    const tasks: BenchTask[] = [
      { name: `before ${name}`, fn: () => a.chunk(text), bytes },
      { name: `after ${name}`, fn: () => b.chunk(text), bytes },
    ];
    const [r0, r1] = await runInterleaved(tasks, { rounds: 9, reps: 1, warmup: 1 });
    rows.push(`| ${name} | ${r0.meanMs.toFixed(1)} | ${r1.meanMs.toFixed(1)} | ${(r0.meanMs / r1.meanMs).toFixed(2)} |`);
  }
  void table;
  return [...out, ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runEngineBench().then((md) => console.log(md));
}
