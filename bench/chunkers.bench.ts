/**
 * Sliding-window and fixed-size chunking against the peers a user would pick instead:
 * token windows (512/256, cl100k_base) vs @langchain/textsplitters' TokenTextSplitter,
 * character windows vs @chonkiejs/core's TokenChunker (character tokenizer).
 * Run: npm run build && node dist/bench/chunkers.bench.js
 * @module
 */
import { TokenChunker } from '@chonkiejs/core';
import { TokenTextSplitter } from '@langchain/textsplitters';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { SlidingWindowChunker } from '../src/index.js';
import { corpusText, runTasks, table, utf8Bytes } from './util.js';

/** Runs the chunker benchmarks; returns Markdown. */
export async function runChunkerBench(): Promise<string> {
  const text = corpusText(['state_of_the_union', 'wikitexts']);
  const bytes = utf8Bytes(text);
  const out: string[] = [];
  out.push(`Input: state_of_the_union + wikitexts corpora, ${(bytes / 1e6).toFixed(2)} MB.`);

  // Token windows 512 / 256.
  const ours = new SlidingWindowChunker({ unit: 'token', windowSize: 512, stride: 256 });
  const langchain = new TokenTextSplitter({ chunkSize: 512, chunkOverlap: 256, encodingName: 'cl100k_base' });
  // LangChain fetches its rank table from the network by default; hand it js-tiktoken's.
  (langchain as unknown as { tokenizer: Tiktoken }).tokenizer = new Tiktoken(cl100k);
  (langchain as unknown as { disallowedSpecial: string[] }).disallowedSpecial = [];
  ours.chunk('warm up the tokenizer');
  const tokenRows = await runTasks(
    [
      { name: 'langchain TokenTextSplitter 512/256', fn: () => langchain.splitText(text), bytes },
      { name: 'chunkwise SlidingWindowChunker token 512/256', fn: () => ours.chunk(text), bytes },
    ],
    { time: 2000, iterations: 3 },
  );
  out.push('', '### Token windows, cl100k_base, 512 / 256', '', table(tokenRows, tokenRows[0].name));

  // Character windows 512 / 256 (chonkie's default tokenizer is characters).
  const chonkie = await TokenChunker.create({ chunkSize: 512, chunkOverlap: 256 });
  const oursChars = new SlidingWindowChunker({ unit: 'char', windowSize: 512, stride: 256, countTokens: false });
  const oursCharsCounted = new SlidingWindowChunker({ unit: 'char', windowSize: 512, stride: 256 });
  const charRows = await runTasks(
    [
      { name: '@chonkiejs/core TokenChunker char 512/256', fn: () => chonkie.chunk(text), bytes },
      { name: 'chunkwise SlidingWindowChunker char 512/256', fn: () => oursChars.chunk(text), bytes },
      { name: 'chunkwise char 512/256 + tokenCount (cl100k)', fn: () => oursCharsCounted.chunk(text), bytes },
    ],
    { time: 2000, iterations: 3 },
  );
  out.push('', '### Character windows, 512 / 256', '', table(charRows, charRows[0].name));
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runChunkerBench().then((md) => console.log(md));
}
