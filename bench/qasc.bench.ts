/**
 * QASC time per query, embedding excluded (issues 5 and 15): 3,000 sentences × 384
 * dimensions (seeded random unit vectors), a paragraph break every 5 sentences, a heading
 * every 50, 20–39 tokens per sentence (so `maxChunkSize` 512 splits the larger chunks),
 * defaults (p = 75, m = 2, λ = 0.5, κ = 0.6, alignDistance 2), and fixed vs adaptive windows.
 *
 * Per query: step 1's sims (cosine of every sentence with the query) and steps 2–6
 * ({@link planQasc}). WASM: the sentence matrix stays in the kernels' memory
 * ({@link WasmMatrix}), kernels from `bindings/`. TS: the same steps on the plain
 * TypeScript reference kernels (`src/kernels/reference.ts`) over a Float32Array.
 *
 * Run: `npx tsx bench/qasc.bench.ts`
 * @module
 */
import { pathToFileURL } from 'node:url';
import { planQasc, WASM_QASC_KERNELS, type QascKernels, type QascParams } from '../src/strategies/qasc/qasc.js';
import { WasmMatrix } from '../src/engine/wasm-matrix.js';
import * as reference from '../src/kernels/reference.js';
import { runTasks, table } from './util.js';

/** mulberry32 + Box–Muller: seeded standard normals. */
function normals(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** n × d random unit vectors (row-major). */
export function randomUnitRows(n: number, d: number, seed: number): Float32Array {
  const g = normals(seed);
  const m = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    let ss = 0;
    for (let j = 0; j < d; j++) ss += (m[i * d + j] = g()) ** 2;
    const inv = 1 / Math.sqrt(ss);
    for (let j = 0; j < d; j++) m[i * d + j] *= inv;
  }
  return m;
}

const REFERENCE_KERNELS = reference as unknown as QascKernels;

/** Runs the QASC bench and returns the Markdown table. */
export async function runQascBench(options: { n?: number; d?: number; timeMs?: number } = {}): Promise<string> {
  const n = options.n ?? 3000;
  const d = options.d ?? 384;
  const matrix = randomUnitRows(n, d, 42);
  const queries = randomUnitRows(16, d, 7);
  const breaks = new Uint8Array(n + 1);
  for (let b = 0; b <= n; b += 5) breaks[b] = 1;
  breaks[n] = 1;
  const headings = new Uint8Array(n);
  for (let i = 0; i < n; i += 50) headings[i] = 1;
  const tokens = Int32Array.from({ length: n }, (_, i) => 20 + ((i * 7919) % 20));
  const structure = { breaks, headings, tokens };
  const wasmMatrix = new WasmMatrix(matrix, d);
  wasmMatrix.cosine(queries.subarray(0, d), true); // copies the matrix in once
  let q = 0;
  const nextQuery = () => queries.subarray((q = (q + 1) % 16) * d, (q + 1) * d);
  const wasmQuery = (params: QascParams) => () => planQasc(wasmMatrix.cosine(nextQuery(), true), structure, params, WASM_QASC_KERNELS);
  const tsQuery = (params: QascParams) => () => planQasc(reference.cosineMatVec(matrix, d, nextQuery(), true), structure, params, REFERENCE_KERNELS);
  // same result on both paths (a guard, not a measurement)
  const a = wasmQuery({})();
  q = 0;
  const b = tsQuery({})();
  q = 0;
  if (a.seeds.join() !== b.seeds.join() || a.spans.map((s) => `${s.lo}-${s.hi}`).join() !== b.spans.map((s) => `${s.lo}-${s.hi}`).join()) {
    throw new Error('WASM and TS QASC disagree');
  }
  const stats = `${a.seeds.length} seeds, ${a.windows.filter((w) => w.kept).length} windows kept, ${a.spans.length} chunks per query`;
  const rows = await runTasks(
    [
      { name: 'QASC per query, fixed m=2 — TS reference', fn: tsQuery({}) },
      { name: 'QASC per query, fixed m=2 — WASM', fn: wasmQuery({}) },
      { name: 'QASC per query, adaptive — TS reference', fn: tsQuery({ window: 'adaptive' }) },
      { name: 'QASC per query, adaptive — WASM', fn: wasmQuery({ window: 'adaptive' }) },
      { name: 'step 1 only (sims) — TS reference', fn: () => reference.cosineMatVec(matrix, d, nextQuery(), true) },
      { name: 'step 1 only (sims) — WASM, matrix in memory', fn: () => wasmMatrix.cosine(nextQuery(), true) },
    ],
    { time: options.timeMs ?? 1500 },
  );
  const out = [`QASC, ${n} sentences × ${d} dims, random unit vectors (${stats}); embedding excluded`, '', table(rows, 'QASC per query, fixed m=2 — TS reference')];
  const ratio = (ts: string, w: string) => rows.find((r) => r.name === ts)!.meanMs / rows.find((r) => r.name === w)!.meanMs;
  out.push(
    '',
    `WASM / TS speed-up: fixed ${ratio('QASC per query, fixed m=2 — TS reference', 'QASC per query, fixed m=2 — WASM').toFixed(2)}×, ` +
      `adaptive ${ratio('QASC per query, adaptive — TS reference', 'QASC per query, adaptive — WASM').toFixed(2)}×, ` +
      `sims ${ratio('step 1 only (sims) — TS reference', 'step 1 only (sims) — WASM, matrix in memory').toFixed(2)}×`,
  );
  return out.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runQascBench().then(
    (t) => console.log(t),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
