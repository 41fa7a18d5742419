/**
 * Embedders benchmark (issue 4): sentences per second for OnnxEmbedder on
 * onnxruntime-web and onnxruntime-node (fixture models: a static Gather + mean model and
 * a one-layer self-attention encoder with d = 128), HashingEmbedder and StaticEmbedder
 * (Model2Vec fixture, d = 256), side by side, on sentences of the documents in texts/.
 *
 * Run: `npx tsx bench/embedders.bench.ts` (prints a Markdown table).
 * The fixture models are tiny: the ONNX figures measure chunkwise's tokenisation,
 * batching and pooling plus the runtime's per-call overhead, not a real model's cost.
 * @module
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { HashingEmbedder, OnnxEmbedder, StaticEmbedder, type Embedder } from '../src/embedders/index.js';
import { makeEncoderOnnx, makeModel2VecFolder, makeStaticOnnx, writeOnnxFolder } from '../test/helpers/embedder-fixtures.js';
import { textsDir } from './util.js';


function benchSentences(count = 256): string[] {
  const out: string[] = [];
  if (existsSync(textsDir)) {
    const seg = new Intl.Segmenter('en', { granularity: 'sentence' });
    for (const f of readdirSync(textsDir).filter((f) => f.endsWith('.txt')).sort()) {
      for (const s of seg.segment(readFileSync(join(textsDir, f), 'utf8'))) {
        const t = s.segment.trim();
        if (t.length > 10) out.push(t);
      }
    }
  }
  while (out.length < count) out.push(`The quick brown fox number ${out.length} jumps over the lazy dog.`);
  return out.slice(0, count);
}

/** Runs the benchmark and returns a Markdown table (sentences per second, mean ± relative margin). */
export async function runEmbedderBench(options: { timeMs?: number; sentences?: number } = {}): Promise<string> {
  const sentences = benchSentences(options.sentences ?? 256);
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-bench-'));
  try {
    writeOnnxFolder(join(dir, 'static'), makeStaticOnnx(128, 1).bytes, { hidden: 128 });
    writeOnnxFolder(join(dir, 'encoder'), makeEncoderOnnx({ d: 128, maxPositions: 128 }).bytes, { pooling: 'mean', hidden: 128 });
    makeModel2VecFolder(join(dir, 'm2v'), { d: 256 });
    let nodeOk = true;
    try {
      await import('onnxruntime-node');
    } catch {
      nodeOk = false;
    }
    const rows: { name: string; backend: string; d: number; embedder: Embedder }[] = [];
    rows.push({ name: 'HashingEmbedder', backend: 'WASM kernels', d: 384, embedder: new HashingEmbedder() });
    rows.push({ name: 'StaticEmbedder (Model2Vec fixture)', backend: 'WASM kernels', d: 256, embedder: await StaticEmbedder.load(join(dir, 'm2v')) });
    for (const backend of nodeOk ? (['web', 'node'] as const) : (['web'] as const)) {
      const label = backend === 'web' ? 'onnxruntime-web (1 thread)' : 'onnxruntime-node (1 thread)';
      for (const model of ['static', 'encoder'] as const) {
        const e = await OnnxEmbedder.load(join(dir, model), { backend, threads: 1, batchSize: 32, maxTokens: 128 });
        rows.push({ name: `OnnxEmbedder, ${model === 'static' ? 'static Gather+mean' : '1-layer attention encoder'}`, backend: label, d: e.dimension, embedder: e });
      }
    }
    const bench = new Bench({ time: options.timeMs ?? 1500, warmupTime: 200 });
    for (const r of rows) bench.add(`${r.name} | ${r.backend}`, async () => void (await r.embedder.embed(sentences)));
    await bench.run();
    const lines = [
      `Batch of ${sentences.length} seed sentences per call (mean ${Math.round(sentences.reduce((a, s) => a + s.length, 0) / sentences.length)} chars); Node ${process.versions.node}.`,
      '',
      '| embedder | backend | d | sentences/s | ms per batch |',
      '|---|---|---:|---:|---:|',
    ];
    bench.tasks.forEach((t, i) => {
      const r = rows[i];
      const res = t.result as { period?: number; latency?: { rme: number } };
      const period = res.period ?? NaN;
      const sps = (sentences.length * 1000) / period;
      lines.push(`| ${r.name} | ${r.backend} | ${r.d} | ${Math.round(sps).toLocaleString('en-US')} (±${(res.latency?.rme ?? 0).toFixed(1)} %) | ${period.toFixed(2)} |`);
    });
    for (const r of rows) if (r.embedder instanceof OnnxEmbedder) await r.embedder.release();
    return lines.join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  console.log(await runEmbedderBench());
}
