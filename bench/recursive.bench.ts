/**
 * Recursive chunking against the peers a user would pick instead, at the same settings,
 * on the corpora (finance + pubmed + state_of_the_union + wikitexts), in one tinybench
 * run so the ratios are comparable:
 * - @langchain/textsplitters' RecursiveCharacterTextSplitter (the reference: chunkwise
 *   gives the same chunk texts with LangChain's separators, test/recursive.langchain.test.ts);
 * - @chonkiejs/core's RecursiveChunker (character tokenizer; it has no overlap option,
 *   so it runs only at the settings without overlap).
 * chunkwise runs with LangChain's separators (`LANGCHAIN_SEPARATORS`, the drop-in) and with
 * its defaults (adds the sentence-end level), both with `countTokens: false` (neither peer
 * counts tokens), and once with token counts for the cost of that.
 * Run: npx tsx bench/recursive.bench.ts
 * @module
 */
import { RecursiveChunker as ChonkieRecursive } from '@chonkiejs/core';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { RecursiveChunker } from '../src/index.js';
import { LANGCHAIN_SEPARATORS } from '../src/engine.js';
import { corpusText, runInterleaved, table, utf8Bytes, type BenchTask } from './util.js';

/** Runs the recursive chunking benchmark; returns Markdown. */
export async function runRecursiveBench(): Promise<string> {
  const text = corpusText(['finance', 'pubmed', 'state_of_the_union', 'wikitexts']);
  const bytes = utf8Bytes(text);
  const out: string[] = [
    `Input: the four corpora joined, ${(bytes / 1e6).toFixed(2)} MB; budgets in characters. Tasks interleaved (15 rounds × 2 calls, shuffled order); "mean ms" is the median CPU time per call, ratios are of those.`,
  ];
  for (const [chunkSize, chunkOverlap] of [
    [1000, 200],
    [400, 0],
  ] as const) {
    const langchain = new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap });
    const dropIn = new RecursiveChunker({ unit: 'char', chunkSize, chunkOverlap, separators: LANGCHAIN_SEPARATORS, countTokens: false });
    const defaults = new RecursiveChunker({ unit: 'char', chunkSize, chunkOverlap, countTokens: false });
    const counted = new RecursiveChunker({ unit: 'char', chunkSize, chunkOverlap, separators: LANGCHAIN_SEPARATORS });
    counted.chunk('warm up the tokenizer');
    const tasks: BenchTask[] = [
      { name: `langchain RecursiveCharacterTextSplitter ${chunkSize}/${chunkOverlap}`, fn: () => langchain.splitText(text), bytes },
      { name: `chunkwise RecursiveChunker, LangChain separators ${chunkSize}/${chunkOverlap}`, fn: () => dropIn.chunk(text), bytes },
      { name: `chunkwise RecursiveChunker, default separators ${chunkSize}/${chunkOverlap}`, fn: () => defaults.chunk(text), bytes },
      { name: `chunkwise, LangChain separators + tokenCount (cl100k) ${chunkSize}/${chunkOverlap}`, fn: () => counted.chunk(text), bytes },
    ];
    // chonkie has no overlap option: it runs at chunkSize with none, also beside our 1000/200
    const chonkie = await ChonkieRecursive.create({ chunkSize });
    tasks.push({ name: `@chonkiejs/core RecursiveChunker ${chunkSize} (no overlap option)`, fn: () => chonkie.chunk(text), bytes });
    const rows = await runInterleaved(tasks, { rounds: 15, reps: 2 });
    out.push('', `### chunkSize ${chunkSize}, chunkOverlap ${chunkOverlap} (characters)`, '', table(rows, rows[0].name), '', 'The same run against chonkie:', '', table(rows, rows[rows.length - 1].name));
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runRecursiveBench().then((md) => console.log(md));
}
