/**
 * Markdown chunking throughput on the four real Markdown chapters (shared/eval/markdown):
 * MarkdownChunker (characters and tokens) and ParentChildChunker, against LangChain's
 * MarkdownTextSplitter at the same size in characters (its default length function).
 * Run: npx tsx bench/markdown.bench.ts
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MarkdownTextSplitter } from '@langchain/textsplitters';
import { MarkdownChunker, ParentChildChunker } from '../src/index.js';
import { runTasks, sharedDir, table, utf8Bytes } from './util.js';

/** Runs the Markdown chunking benchmark; returns Markdown (input line and table). */
export async function runMarkdownBench(): Promise<string> {
  const dir = join(sharedDir, 'eval', 'markdown');
  const texts = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  const bytes = texts.reduce((a, t) => a + utf8Bytes(t), 0);
  const each = <T>(f: (t: string) => T) => () => texts.map(f);

  const langchain = new MarkdownTextSplitter({ chunkSize: 2000, chunkOverlap: 0 });
  const oursChars = new MarkdownChunker({ unit: 'char', chunkSize: 2000, countTokens: false });
  const oursTokens = new MarkdownChunker({ unit: 'token', chunkSize: 512 });
  const parentChild = new ParentChildChunker({ parentSize: 1024, childSize: 128, childOverlap: 16 });
  oursTokens.chunk('# warm up\n\nthe tokenizer');

  const rows = await runTasks(
    [
      { name: 'langchain MarkdownTextSplitter 2000 chars', fn: () => Promise.all(texts.map((t) => langchain.splitText(t))), bytes },
      { name: 'chunkwise MarkdownChunker 2000 chars', fn: each((t) => oursChars.chunk(t)), bytes },
      { name: 'chunkwise MarkdownChunker 512 tokens', fn: each((t) => oursTokens.chunk(t)), bytes },
      { name: 'chunkwise ParentChildChunker 1024/128 tokens', fn: each((t) => parentChild.split(t)), bytes },
    ],
    { time: 3000, iterations: 5 },
  );
  const counts = [
    (await Promise.all(texts.map((t) => langchain.splitText(t)))).flat().length,
    texts.flatMap((t) => oursChars.chunk(t)).length,
    texts.flatMap((t) => oursTokens.chunk(t)).length,
    texts.map((t) => parentChild.split(t)).reduce((a, r) => a + r.parents.length + r.children.length, 0),
  ];
  return [
    `Input: the four chapters in shared/eval/markdown, ${(bytes / 1e6).toFixed(3)} MB. Chunks per run: ${counts.join(' · ')} (same order as the rows).`,
    '',
    table(rows, rows[0].name),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMarkdownBench().then((md) => console.log(md));
}
