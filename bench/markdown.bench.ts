/**
 * Markdown chunking throughput on the four real Markdown chapters (shared/eval/markdown):
 * MarkdownChunker (characters and tokens) and ParentChildChunker against LangChain's
 * MarkdownTextSplitter — at chunkSize 1000 with its default length function (characters)
 * and default overlap (200), and at 400 tokens with a js-tiktoken cl100k_base
 * `lengthFunction` (what a LangChain user measuring tokens writes).
 *
 * One run of three rounds; each round runs every task in one tinybench Bench, so the
 * tasks interleave over time and a load change on the shared machine hits all of them;
 * the table reports each task's median over the rounds, and ratios of those medians.
 * Run: npx tsx bench/markdown.bench.ts
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { MarkdownTextSplitter } from '@langchain/textsplitters';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { MarkdownChunker, ParentChildChunker } from '../src/index.js';
import { runTasks, sharedDir, utf8Bytes, type BenchRow, type BenchTask } from './util.js';

/** Runs the Markdown chunking benchmark; returns Markdown (input line and table). */
export async function runMarkdownBench(): Promise<string> {
  const dir = join(sharedDir, 'eval', 'markdown');
  const texts = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  const bytes = texts.reduce((a, t) => a + utf8Bytes(t), 0);
  const each = <T>(f: (t: string) => T) => () => texts.map(f);

  const enc = new Tiktoken(cl100k);
  const lcChars = new MarkdownTextSplitter({ chunkSize: 1000 });
  const lcTokens = new MarkdownTextSplitter({ chunkSize: 400, lengthFunction: (t: string) => enc.encode(t).length });
  const oursChars = new MarkdownChunker({ unit: 'char', chunkSize: 1000, countTokens: false });
  const oursCharsCounted = new MarkdownChunker({ unit: 'char', chunkSize: 1000 });
  const oursTokens = new MarkdownChunker({ unit: 'token', chunkSize: 400 });
  const parentChild = new ParentChildChunker({ parentSize: 1024, childSize: 128, childOverlap: 16 });
  oursTokens.chunk('# warm up\n\nthe tokenizer');

  const LC_CHARS = 'langchain MarkdownTextSplitter 1000 chars';
  const LC_TOKENS = 'langchain MarkdownTextSplitter 400 tokens (js-tiktoken lengthFunction)';
  const tasks: BenchTask[] = [
    { name: LC_CHARS, fn: () => Promise.all(texts.map((t) => lcChars.splitText(t))), bytes },
    { name: LC_TOKENS, fn: () => Promise.all(texts.map((t) => lcTokens.splitText(t))), bytes },
    { name: 'chunkwise MarkdownChunker 1000 chars', fn: each((t) => oursChars.chunk(t)), bytes },
    { name: 'chunkwise MarkdownChunker 1000 chars, tokenCount filled', fn: each((t) => oursCharsCounted.chunk(t)), bytes },
    { name: 'chunkwise MarkdownChunker 400 tokens', fn: each((t) => oursTokens.chunk(t)), bytes },
    { name: 'chunkwise ParentChildChunker 1024/128 tokens', fn: each((t) => parentChild.split(t)), bytes },
  ];
  const load = os.loadavg()[0];
  const rounds: BenchRow[][] = [];
  for (let r = 0; r < 3; r++) rounds.push(await runTasks(tasks, { time: 1500, iterations: 5 }));
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  const rows = tasks.map((t, i) => {
    const meanMs = median(rounds.map((r) => r[i].meanMs));
    return { name: t.name, meanMs, mbPerSec: bytes / 1e6 / (meanMs / 1000), samples: rounds.reduce((a, r) => a + r[i].samples, 0) };
  });
  const ms = (name: string) => rows.find((r) => r.name === name)!.meanMs;
  const lines = [
    '| task | median ms | MB/s | × LangChain 1000 chars | × LangChain 400 tokens |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.meanMs.toFixed(2)} | ${r.mbPerSec.toFixed(2)} | ${(ms(LC_CHARS) / r.meanMs).toFixed(2)} | ${(ms(LC_TOKENS) / r.meanMs).toFixed(2)} |`),
  ];
  const counts = [
    (await Promise.all(texts.map((t) => lcChars.splitText(t)))).flat().length,
    (await Promise.all(texts.map((t) => lcTokens.splitText(t)))).flat().length,
    texts.flatMap((t) => oursChars.chunk(t)).length,
    texts.flatMap((t) => oursCharsCounted.chunk(t)).length,
    texts.flatMap((t) => oursTokens.chunk(t)).length,
    texts.map((t) => parentChild.split(t)).reduce((a, r) => a + r.parents.length + r.children.length, 0),
  ];
  return [
    `Input: the four chapters in shared/eval/markdown, ${(bytes / 1e6).toFixed(3)} MB. Chunks per run: ${counts.join(' · ')} (same order as the rows). ` +
      `Three rounds of one tinybench Bench each (1.5 s per task per round), medians; load average ${load.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end.`,
    '',
    lines.join('\n'),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMarkdownBench().then((md) => console.log(md));
}
