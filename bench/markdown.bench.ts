/**
 * Markdown chunking throughput against LangChain's `MarkdownTextSplitter` (chunkSize 1000
 * characters, its default length function) on the same text, interleaved in one run
 * (`runInterleaved`: shuffled order, median CPU time per call; the machine is shared):
 * - chunkwise `MarkdownChunker` at 1000 characters (`countTokens: false`: LangChain counts
 *   none; once more with token counts) and at 400 tokens (cl100k_base, WASM BPE);
 * - inputs: the four Rust-book chapters in eval/markdown, each chunked on its own,
 *   and the four chapters joined and repeated ×10 as one document (≈ 0.84 MB).
 * On the chapters, LangChain also runs at 400 tokens with a js-tiktoken `lengthFunction`.
 * A reference row counts the text's tokens once, whole: the least any token-unit chunker
 * spends measuring.
 * Both sides run with chunkOverlap 0 and with their defaults (LangChain 200 characters,
 * chunkwise min(64, ⌊chunkSize/8⌋)); chunkwise overlaps only inside a block it must split.
 * Run: npx tsx bench/markdown.bench.ts
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MarkdownTextSplitter } from '@langchain/textsplitters';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { getTokenizer, MarkdownChunker } from '../src/index.js';
import { markdownDir, runInterleaved, table, utf8Bytes, type BenchTask } from './util.js';

/** The four chapters of eval/markdown, sorted by name. */
export function markdownChapters(): string[] {
  const dir = markdownDir;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

/** Runs the Markdown chunking benchmark; returns Markdown (input lines and tables). */
export async function runMarkdownBench(options: { rounds?: number } = {}): Promise<string> {
  const chapters = markdownChapters();
  const big = Array.from({ length: 10 }, () => chapters.join('\n\n')).join('\n\n');
  const inputs: Array<[string, string[]]> = [
    ['the four chapters, each on its own', chapters],
    ['the four chapters joined ×10, one document', [big]],
  ];
  const lcNone = new MarkdownTextSplitter({ chunkSize: 1000, chunkOverlap: 0 });
  const lcDefault = new MarkdownTextSplitter({ chunkSize: 1000 });
  const charNone = new MarkdownChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 0, countTokens: false });
  const charDefault = new MarkdownChunker({ unit: 'char', chunkSize: 1000, countTokens: false });
  const charCounted = new MarkdownChunker({ unit: 'char', chunkSize: 1000 });
  const tokNone = new MarkdownChunker({ unit: 'token', chunkSize: 400, chunkOverlap: 0 });
  const tokDefault = new MarkdownChunker({ unit: 'token', chunkSize: 400 });
  tokNone.chunk('# warm up\n\nthe tokenizer');
  // LangChain measuring tokens as its docs show: a js-tiktoken lengthFunction (chapters only: it is slow)
  const tiktoken = new Tiktoken(cl100k);
  const lcTokens = new MarkdownTextSplitter({ chunkSize: 400, chunkOverlap: 0, lengthFunction: (t: string) => tiktoken.encode(t).length });

  const out: string[] = [];
  for (const [label, texts] of inputs) {
    const bytes = texts.reduce((a, t) => a + utf8Bytes(t), 0);
    const tasks: Array<BenchTask & { count: () => Promise<number> }> = [];
    const lc = (name: string, s: MarkdownTextSplitter) => {
      const run = () => Promise.all(texts.map((t) => s.splitText(t)));
      tasks.push({ name, fn: run, bytes, count: async () => (await run()).flat().length });
    };
    const cw = (name: string, c: MarkdownChunker) => {
      const run = () => texts.map((t) => c.chunk(t));
      tasks.push({ name, fn: run, bytes, count: async () => run().flat().length });
    };
    lc('langchain MarkdownTextSplitter 1000 chars, overlap 0', lcNone);
    cw('chunkwise MarkdownChunker 1000 chars, overlap 0', charNone);
    cw('chunkwise MarkdownChunker 400 tokens, overlap 0', tokNone);
    lc('langchain MarkdownTextSplitter 1000 chars, default overlap 200', lcDefault);
    cw('chunkwise MarkdownChunker 1000 chars, default overlap 64', charDefault);
    cw('chunkwise MarkdownChunker 400 tokens, default overlap 50', tokDefault);
    cw('chunkwise MarkdownChunker 1000 chars, overlap 64, + tokenCount (cl100k)', charCounted);
    // the floor of any token-unit chunker: the input tokenized once, whole
    const tokenizer = getTokenizer('cl100k_base');
    tasks.push({ name: 'reference: the text counted once, whole (WASM BPE cl100k, no chunking)', fn: () => texts.map((t) => tokenizer.count(t)), bytes, count: async () => NaN });
    if (texts.length > 1) lc('langchain MarkdownTextSplitter 400 tokens (js-tiktoken lengthFunction), overlap 0', lcTokens);
    const rows = await runInterleaved(tasks, { rounds: options.rounds ?? 15, reps: texts.length > 1 ? 4 : 1 });
    const counts = await Promise.all(tasks.map((t) => t.count()));
    out.push(
      '',
      `### ${label}, ${(bytes / 1e6).toFixed(3)} MB`,
      '',
      `Chunks per run, in row order: ${counts.map((c) => (Number.isNaN(c) ? '—' : c)).join(' · ')}.`,
      '',
      table(rows, rows[0].name),
    );
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMarkdownBench().then((md) => console.log(md));
}
