/**
 * Kernels: WebAssembly vs the plain-TypeScript reference (src/kernels/reference.ts),
 * with tinybench, at n = 1k, 10k and 100k.
 *
 * Run: `node scripts/build-wasm.mjs && npx tsx bench/kernels.bench.ts`
 * (prints a Markdown table; {@link runKernelBench} returns it).
 *
 * Two WASM columns for the cosine kernels (n × 384 matrix):
 * - "copy": the typed wrapper from bindings/index.ts given plain Float32Arrays, so the
 *   n × d matrix is copied into WASM memory on every call (and, at n = 100k, 154 MB is
 *   over the shared instance's 64 MiB retainBytes, so each call also grows the memory
 *   and re-instantiates the module afterwards — what a naive caller pays);
 * - "in memory": the matrix, vector and output live in WASM memory across iterations
 *   (Kernels.allocF32 on a dedicated instance) and the raw export is called: the
 *   no-copy path.
 * Other kernels take small inputs and are measured through their copying wrappers.
 * @module
 */
import { Bench } from 'tinybench';
import { pathToFileURL } from 'node:url';
import * as wasm from '../bindings/index.js';
import { Kernels, kernelsWasmBytes } from '../bindings/index.js';
import * as ref from '../src/kernels/reference.js';
import { mulberry32 as rng } from '../src/engine/random.js';

const D = 384;
const SIZES = [1_000, 10_000, 100_000];

/** One row of the result table. */
export interface KernelBenchRow {
  kernel: string;
  n: number;
  wasmOps: number;
  tsOps: number;
}

let sink = 0;
/** Keeps results alive so the JIT cannot drop the work. */
function use(x: ArrayLike<number> | number | { starts: ArrayLike<number> }): void {
  if (typeof x === 'number') sink += x;
  else if ('starts' in x) sink += x.starts.length;
  else sink += x.length;
}

interface Case {
  kernel: string;
  n: number;
  wasm: () => void;
  ts: () => void;
}

function cases(n: number, noCopy: Kernels): Case[] {
  const rnd = rng(n);
  const matrix = Float32Array.from({ length: n * D }, () => rnd() * 2 - 1);
  const vector = Float32Array.from({ length: D }, () => rnd() * 2 - 1);
  const sims = Float32Array.from({ length: n }, () => rnd());
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  for (let i = 0, s = 0; i < n; i++) {
    s += Math.floor(rnd() * 4);
    starts[i] = s;
    ends[i] = s + 1 + Math.floor(rnd() * 3);
  }
  const lo = Int32Array.from({ length: n }, (_, i) => Math.max(0, i - 2));
  const hi = Int32Array.from({ length: n }, (_, i) => Math.min(n, i + 3));
  const r = Int32Array.from({ length: n }, (_, i) => i);
  // prose-like code units without a surrogate (the scan's common case: it reads everything), with
  // curly quotes, so V8 stores it as two-byte (a Latin-1-only text is one-byte, and there the
  // regular expression answers at once)
  const text = Array.from({ length: n }, () => (rnd() < 0.01 ? '\u2019' : rnd() < 0.2 ? ' ' : 'e')).join('');

  // the no-copy path: everything stays in WASM memory between iterations
  const m = noCopy.copyF32(matrix);
  const v = noCopy.copyF32(vector);
  const out = noCopy.allocF32(n);
  const e = noCopy.exports;

  return [
    {
      kernel: `cosineMatVec d=${D} (copy)`,
      n,
      wasm: () => use(wasm.cosineMatVec(matrix, D, vector)),
      ts: () => use(ref.cosineMatVec(matrix, D, vector)),
    },
    {
      kernel: `cosineMatVec d=${D} (in memory)`,
      n,
      wasm: () => {
        e.cosineMatVec(m.ptr, n, D, v.ptr, out.ptr, 0);
        use(out.view[n - 1]);
      },
      ts: () => use(ref.cosineMatVec(matrix, D, vector)),
    },
    {
      kernel: `cosineNeighbours d=${D} (copy)`,
      n,
      wasm: () => use(wasm.cosineNeighbours(matrix, D)),
      ts: () => use(ref.cosineNeighbours(matrix, D)),
    },
    {
      kernel: `cosineNeighbours d=${D} (in memory)`,
      n,
      wasm: () => {
        e.cosineNeighbours(m.ptr, n, D, out.ptr, 0);
        use(out.view[n - 2]);
      },
      ts: () => use(ref.cosineNeighbours(matrix, D)),
    },
    { kernel: 'percentile p=75 (f32)', n, wasm: () => use(wasm.percentile(sims, 75)), ts: () => use(ref.percentile(sims, 75)) },
    {
      kernel: 'firstSurrogate, two-byte text (ts: the regular expression of short ranges)',
      n,
      wasm: () => use(wasm.firstSurrogate(text)),
      ts: () => use(text.search(/[\uD800-\uDFFF]/)),
    },
    { kernel: 'topK k=10', n, wasm: () => use(wasm.topK(sims, 10)), ts: () => use(ref.topK(sims, 10)) },
    {
      kernel: 'mergeIntervals',
      n,
      wasm: () => use(wasm.mergeIntervals(starts, ends)),
      ts: () => use(ref.mergeIntervals(starts, ends)),
    },
    {
      kernel: 'planWindows 20/10',
      n,
      wasm: () => use(wasm.planWindows(n, 20, 10)),
      ts: () => use(ref.planWindows(n, 20, 10)),
    },
    {
      kernel: 'decayScores ±2, λ=0.5',
      n,
      wasm: () => use(wasm.decayScores(sims, lo, hi, r, 0.5)),
      ts: () => use(ref.decayScores(sims, lo, hi, r, 0.5)),
    },
  ];
}

/** ops/s of a completed tinybench task (1000 / mean latency in ms). */
export function opsPerSecond(bench: Bench, name: string): number {
  const task = bench.getTask(name);
  const result = task?.result;
  if (!result || !('period' in result) || result.state !== 'completed') {
    throw new Error(`benchmark ${name} did not complete: ${JSON.stringify(result && 'error' in result ? String(result.error) : result?.state)}`);
  }
  return 1000 / result.period;
}

function fmt(x: number): string {
  if (x >= 100) return Math.round(x).toLocaleString('en-US');
  if (x >= 1) return x.toFixed(1);
  return x.toPrecision(2);
}

/** Markdown table of rows: kernel, n, WASM ops/s, TS ops/s, ratio (WASM / TS). */
export function kernelBenchTable(rows: KernelBenchRow[]): string {
  const lines = ['| kernel | n | WASM ops/s | TS ops/s | ratio (WASM / TS) |', '|---|---:|---:|---:|---:|'];
  for (const row of rows) {
    lines.push(
      `| ${row.kernel} | ${row.n.toLocaleString('en-US')} | ${fmt(row.wasmOps)} | ${fmt(row.tsOps)} | ${(row.wasmOps / row.tsOps).toFixed(2)}× |`,
    );
  }
  return lines.join('\n');
}

/**
 * Benchmarks every kernel, WASM against TypeScript, at n = 1k, 10k, 100k and returns the
 * Markdown table. `timeMs` is tinybench's time budget per task (default 300 ms).
 */
export async function runKernelBench(options: { timeMs?: number; sizes?: number[] } = {}): Promise<string> {
  const time = options.timeMs ?? 300;
  const rows: KernelBenchRow[] = [];
  // a dedicated instance that keeps up to 1 GiB between jobs, for the no-copy rows
  const noCopy = Kernels.fromModule(new WebAssembly.Module(kernelsWasmBytes() as BufferSource), {
    retainBytes: 1024 * 1024 * 1024,
  });
  for (const n of options.sizes ?? SIZES) {
    noCopy.reset();
    const bench = new Bench({ time, iterations: 5, warmupTime: 50, warmupIterations: 2, throws: true });
    const list = cases(n, noCopy);
    for (const c of list) {
      bench.add(`wasm ${c.kernel}`, c.wasm);
      bench.add(`ts ${c.kernel}`, c.ts);
    }
    await bench.run();
    for (const c of list) {
      rows.push({ kernel: c.kernel, n, wasmOps: opsPerSecond(bench, `wasm ${c.kernel}`), tsOps: opsPerSecond(bench, `ts ${c.kernel}`) });
    }
  }
  noCopy.reset();
  if (sink === 0.123456) console.log(sink);
  return kernelBenchTable(rows);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`Node ${process.version}, ${new Date().toISOString()}`);
  console.log(await runKernelBench());
}
