/**
 * Tokenizer throughput (issue 8): js-tiktoken, tiktoken (Rust → WASM npm package),
 * gpt-tokenizer and chunkwise's WASM BPE on the same text (the finance and pubmed corpora
 * of eval/corpora, joined), for token ids and for counting only.
 *
 * Run: `node scripts/build-wasm.mjs && npx tsx bench/tokenizers.bench.ts`
 * (or import {@link runTokenizerBench}, which returns the Markdown table).
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens as gptCount, encode as gptEncode } from 'gpt-tokenizer/encoding/cl100k_base';
import { Tiktoken as JsTiktoken } from 'js-tiktoken/lite';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { Bench } from 'tinybench';
import { get_encoding } from 'tiktoken';
import { getWasmBpeTokenizer } from '../src/engine/size/wasm-bpe.js';
import { corpusText } from './util.js';

interface Row {
  library: string;
  encoding: string;
  op: 'ids' | 'count';
  mbPerSec: number;
  cpuMbPerSec: number;
  tokens: number;
}

/**
 * js-tiktoken, tiktoken (Rust → WASM; free `rsCl` / `rsO2` after use) and chunkwise's WASM
 * BPE, each for cl100k_base and o200k_base.
 */
export function tokenizerSet() {
  return {
    jsCl: new JsTiktoken(cl100kRanks),
    jsO2: new JsTiktoken(o200kRanks),
    rsCl: get_encoding('cl100k_base'),
    rsO2: get_encoding('o200k_base'),
    cwCl: getWasmBpeTokenizer('cl100k_base'),
    cwO2: getWasmBpeTokenizer('o200k_base'),
  };
}

/**
 * Runs the tokenizer benchmark once and returns a Markdown table: MB/s (UTF-8 bytes of
 * input per second, decimal MB) per library and operation, and the ratio against
 * gpt-tokenizer for the same operation (cl100k_base).
 * @param timeMs minimum time per task (each task also runs at least 3 times).
 */
export async function runTokenizerBench(timeMs = 1500): Promise<string> {
  const text = corpusText(['finance', 'pubmed']);
  const bytes = new TextEncoder().encode(text).length;

  const { jsCl, jsO2, rsCl, rsO2, cwCl, cwO2 } = tokenizerSet();

  // Every library must agree before it is timed.
  const expectCl = jsCl.encode(text, [], []).length;
  const expectO2 = jsO2.encode(text, [], []).length;
  const checks: [string, number, number][] = [
    ['tiktoken cl100k', rsCl.encode(text, [], []).length, expectCl],
    ['gpt-tokenizer cl100k', gptEncode(text, { disallowedSpecial: new Set() }).length, expectCl],
    ['chunkwise cl100k', cwCl.count(text), expectCl],
    ['tiktoken o200k', rsO2.encode(text, [], []).length, expectO2],
    ['chunkwise o200k', cwO2.count(text), expectO2],
  ];
  for (const [name, got, want] of checks) if (got !== want) throw new Error(`${name}: ${got} tokens, js-tiktoken ${want}`);

  const tasks: { library: string; encoding: string; op: 'ids' | 'count'; fn: () => unknown; tokens: number }[] = [
    { library: 'js-tiktoken', encoding: 'cl100k_base', op: 'ids', fn: () => jsCl.encode(text, [], []), tokens: expectCl },
    { library: 'tiktoken (WASM)', encoding: 'cl100k_base', op: 'ids', fn: () => rsCl.encode(text, [], []), tokens: expectCl },
    { library: 'gpt-tokenizer', encoding: 'cl100k_base', op: 'ids', fn: () => gptEncode(text, { disallowedSpecial: new Set() }), tokens: expectCl },
    { library: 'chunkwise', encoding: 'cl100k_base', op: 'ids', fn: () => cwCl.encode(text), tokens: expectCl },
    { library: 'chunkwise (ids + offsets)', encoding: 'cl100k_base', op: 'ids', fn: () => cwCl.encodeWithOffsets(text), tokens: expectCl },
    { library: 'js-tiktoken (encode().length)', encoding: 'cl100k_base', op: 'count', fn: () => jsCl.encode(text, [], []).length, tokens: expectCl },
    { library: 'tiktoken (WASM) (encode().length)', encoding: 'cl100k_base', op: 'count', fn: () => rsCl.encode(text, [], []).length, tokens: expectCl },
    { library: 'gpt-tokenizer (countTokens)', encoding: 'cl100k_base', op: 'count', fn: () => gptCount(text, { disallowedSpecial: new Set() }), tokens: expectCl },
    { library: 'chunkwise (count)', encoding: 'cl100k_base', op: 'count', fn: () => cwCl.count(text), tokens: expectCl },
    { library: 'js-tiktoken', encoding: 'o200k_base', op: 'ids', fn: () => jsO2.encode(text, [], []), tokens: expectO2 },
    { library: 'tiktoken (WASM)', encoding: 'o200k_base', op: 'ids', fn: () => rsO2.encode(text, [], []), tokens: expectO2 },
    { library: 'chunkwise', encoding: 'o200k_base', op: 'ids', fn: () => cwO2.encode(text), tokens: expectO2 },
    { library: 'chunkwise (count)', encoding: 'o200k_base', op: 'count', fn: () => cwO2.count(text), tokens: expectO2 },
  ];

  // Process CPU time per task as well as wall time: on a shared machine wall time
  // depends on the load, CPU time much less.
  const cpu = tasks.map(() => ({ micros: 0, calls: 0 }));
  const bench = new Bench({ time: timeMs, iterations: 3 });
  tasks.forEach((t, i) =>
    bench.add(`${t.library} ${t.encoding} ${t.op}`, () => {
      const c0 = process.cpuUsage();
      t.fn();
      const c = process.cpuUsage(c0);
      cpu[i].micros += c.user + c.system;
      cpu[i].calls++;
    }),
  );
  await bench.run();
  rsCl.free();
  rsO2.free();

  const rows: Row[] = tasks.map((t, i) => {
    const r = bench.tasks[i].result;
    if (r.state !== 'completed') throw new Error(`${bench.tasks[i].name}: ${r.state}`);
    return {
      library: t.library,
      encoding: t.encoding,
      op: t.op,
      mbPerSec: bytes / 1e6 / (r.latency.mean / 1000),
      cpuMbPerSec: (bytes * cpu[i].calls) / cpu[i].micros,
      tokens: t.tokens,
    };
  });
  const baseRow = (op: 'ids' | 'count') =>
    rows.find((r) => r.library.startsWith('gpt-tokenizer') && r.op === op && r.encoding === 'cl100k_base')!;
  const lines = [
    `Text: finance.md + pubmed.md from eval/corpora, ${(bytes / 1e6).toFixed(2)} MB UTF-8, ` +
      `${expectCl} cl100k_base / ${expectO2} o200k_base tokens (all libraries agree). ` +
      `MB/s = 10^6 UTF-8 bytes per second of wall time (tinybench mean latency); CPU MB/s = the same per second ` +
      `of process CPU time (user + system); × = ratio to gpt-tokenizer's figure for the same operation on cl100k_base.`,
    '',
    '| library | encoding | operation | MB/s | × gpt-tokenizer | CPU MB/s | × gpt-tokenizer (CPU) |',
    '|---|---|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.library} | ${r.encoding} | ${r.op} | ${r.mbPerSec.toFixed(1)} | ${(r.mbPerSec / baseRow(r.op).mbPerSec).toFixed(2)}× ` +
        `| ${r.cpuMbPerSec.toFixed(1)} | ${(r.cpuMbPerSec / baseRow(r.op).cpuMbPerSec).toFixed(2)}× |`,
    ),
  ];
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  runTokenizerBench().then(
    (table) => console.log(table),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
