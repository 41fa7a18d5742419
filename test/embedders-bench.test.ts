import { expect, it } from 'vitest';
import { runEmbedderBench } from '../bench/embedders.bench.js';

it('the embedders bench runs and returns a Markdown table with every backend', async () => {
  const table = await runEmbedderBench({ timeMs: 20, sentences: 8 });
  expect(table).toMatch(/\| HashingEmbedder \| WASM kernels \| 384 \|/);
  expect(table).toMatch(/StaticEmbedder/);
  expect(table).toMatch(/onnxruntime-web/);
  expect(table.split('\n').filter((l) => l.startsWith('| ')).length).toBeGreaterThanOrEqual(5);
});
