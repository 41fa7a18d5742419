/**
 * Cluster-semantic kernels: WebAssembly (`assembly/kernels/cosine.ts` bandDots and
 * meanPairDot, `assembly/kernels/cluster.ts` clusterSegments) against their
 * plain-TypeScript references (src/kernels/reference.ts), in one tinybench run per size
 * so the ratios are interleaved; plus the whole ClusterSemanticChunker on a corpus.
 *
 * Shapes: n pieces × d dimensions (d = 384 as HashingEmbedder, 100 as GloVe), band width
 * w = 8 (200-token chunks of ~25–50-token pieces) and 16.
 * - "copy": the typed wrapper from bindings/index.ts given plain arrays (copied into WASM
 *   memory each call) — what ClusterSemanticChunker calls;
 * - "in memory": inputs kept in WASM memory, the raw export called.
 *
 * Run: `node scripts/build-wasm.mjs && npx tsx bench/cluster.bench.ts` (or `npm run bench -- cluster`).
 * @module
 */
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import * as wasm from '../bindings/index.js';
import { Kernels, kernelsWasmBytes } from '../bindings/index.js';
import { mulberry32 as rng } from '../src/engine/random.js';
import * as ref from '../src/kernels/reference.js';
import { ClusterSemanticChunker, HashingEmbedder, RecursiveChunker, SemanticChunker } from '../src/index.js';
import { langchainRecursive } from './peers.js';
import { kernelBenchTable, opsPerSecond, type KernelBenchRow } from './kernels.bench.js';
import { corpusText, runTasks, table, utf8Bytes } from './util.js';

let sink = 0;

function unitRows(n: number, d: number, seed: number): Float32Array {
  const r = rng(seed);
  const m = Float32Array.from({ length: n * d }, () => r() * 2 - 1);
  ref.normalizeRows(m, d);
  return m;
}

interface Case {
  kernel: string;
  n: number;
  wasm: () => void;
  ts: () => void;
}

function cases(n: number, k: Kernels): Case[] {
  const out: Case[] = [];
  for (const [d, w] of [
    [384, 8],
    [100, 8],
    [100, 16],
  ]) {
    const m = unitRows(n, d, n + d);
    const inMem = k.copyF32(m);
    const band = k.allocF32(n * w);
    out.push({
      kernel: `bandDots d=${d} w=${w} (copy)`,
      n,
      wasm: () => (sink += wasm.bandDots(m, d, w)[n * w - 1]),
      ts: () => (sink += ref.bandDots(m, d, w)[n * w - 1]),
    });
    out.push({
      kernel: `bandDots d=${d} w=${w} (in memory)`,
      n,
      wasm: () => {
        k.exports.bandDots(inMem.ptr, n, d, w, band.ptr);
        sink += band.view[n * w - 1];
      },
      ts: () => (sink += ref.bandDots(m, d, w)[n * w - 1]),
    });
    if (w === 8) {
      const scratch = k.allocF64(d);
      out.push({ kernel: `meanPairDot d=${d} (copy)`, n, wasm: () => (sink += wasm.meanPairDot(m, d)), ts: () => (sink += ref.meanPairDot(m, d)) });
      out.push({ kernel: `meanPairDot d=${d} (in memory)`, n, wasm: () => (sink += k.exports.meanPairDot(inMem.ptr, n, d, scratch.ptr)), ts: () => (sink += ref.meanPairDot(m, d)) });
    }
  }
  for (const w of [8, 16]) {
    const r = rng(w);
    const bandValues = Float32Array.from({ length: n * w }, () => r() * 0.6 + 0.2);
    const lo = new Int32Array(n);
    out.push({
      kernel: `clusterSegments w=${w} (copy)`,
      n,
      wasm: () => (sink += wasm.clusterSegments(bandValues, w, 0.5, lo).start[n - 1]),
      ts: () => (sink += ref.clusterSegments(bandValues, w, 0.5, lo).start[n - 1]),
    });
  }
  return out;
}

/** WASM vs TypeScript for the cluster-semantic kernels at n = 1k, 10k, 100k pieces. */
export async function runClusterKernelBench(options: { timeMs?: number; sizes?: number[] } = {}): Promise<string> {
  const rows: KernelBenchRow[] = [];
  const k = Kernels.fromModule(new WebAssembly.Module(kernelsWasmBytes() as BufferSource), { retainBytes: 1024 * 1024 * 1024 });
  for (const n of options.sizes ?? [1_000, 10_000, 100_000]) {
    k.reset();
    const bench = new Bench({ time: options.timeMs ?? 300, iterations: 5, warmupTime: 50, warmupIterations: 2, throws: true });
    const list = cases(n, k);
    for (const c of list) {
      bench.add(`wasm ${c.kernel}`, c.wasm);
      bench.add(`ts ${c.kernel}`, c.ts);
    }
    await bench.run();
    for (const c of list) rows.push({ kernel: c.kernel, n, wasmOps: opsPerSecond(bench, `wasm ${c.kernel}`), tsOps: opsPerSecond(bench, `ts ${c.kernel}`) });
  }
  k.reset();
  if (sink === 0.123456) console.log(sink);
  return kernelBenchTable(rows);
}

/**
 * The whole chunker (pieces, hashing embeddings, exact sizes, DP, chunks) on pubmed
 * (500 KB) at 200 tokens, against what a user would run instead: LangChain's
 * RecursiveCharacterTextSplitter (cl100k length, no embedding), chunkwise's recursive and
 * semantic chunkers (the semantic one embeds its sentences with the same embedder).
 */
export async function runClusterChunkerBench(): Promise<string> {
  const text = corpusText(['pubmed']);
  const bytes = utf8Bytes(text);
  const embedder = new HashingEmbedder();
  const cluster = new ClusterSemanticChunker({ maxChunkSize: 200, embedder });
  const semantic = new SemanticChunker({ maxChunkSize: 200, embedder });
  const recursive = new RecursiveChunker({ chunkSize: 200, chunkOverlap: 0 });
  const langchain = langchainRecursive(200, 0);
  const tasks = [
    { name: 'langchain RecursiveCharacterTextSplitter 200/0', fn: () => langchain.split(text), bytes },
    { name: 'chunkwise RecursiveChunker 200/0', fn: () => recursive.chunk(text), bytes },
    { name: 'chunkwise SemanticChunker max 200, HashingEmbedder', fn: () => semantic.chunk(text), bytes },
    { name: 'chunkwise ClusterSemanticChunker 200, HashingEmbedder', fn: () => cluster.chunk(text), bytes },
  ];
  return table(await runTasks(tasks, { time: 2000, iterations: 3 }), tasks[0].name);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`Node ${process.version}, ${new Date().toISOString()}`);
  console.log(await runClusterKernelBench());
  console.log(await runClusterChunkerBench());
}
