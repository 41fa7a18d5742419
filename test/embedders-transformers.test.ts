/**
 * TransformersJsEmbedder over a real Transformers.js pipeline and a model folder built
 * here (a one-layer BERT-style encoder written as ONNX with onnx-proto, a WordPiece
 * tokenizer.json): nothing downloaded (remote models are switched off; a missing folder
 * fails as a ModelLoadError without a network attempt). Vectors are checked against the
 * plain TypeScript reference of the same math and against OnnxEmbedder on the same folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { env } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingError, InvalidOptionError, ModelLoadError, SemanticChunker } from '../src/index.js';
import { OnnxEmbedder } from '../src/onnx.js';
import { TransformersJsEmbedder, type TransformersTruncation } from '../src/embedders/transformers-js.js';
import { cliBin, texts } from './helpers/paths.js';
import { makeEncoderOnnx, makeTokenizerConfig, makeTokenizerJson, normalizeRowsRef, referenceEncoder, writeTransformersFolder, type EncoderWeights } from './helpers/embedder-fixtures.js';

const TEXTS = ['The quick brown fox jumps over the lazy dog.', 'What is the latency of QASC?', 'a cat sat on the mat', 'chunks'];
const tok = new Tokenizer(makeTokenizerJson(), makeTokenizerConfig());
let dir: string;
let weights: EncoderWeights;
let embedder: TransformersJsEmbedder;

/** Mean of the reference encoder's token vectors (special tokens included, as the pipeline pools), normalised. */
function referenceMean(text: string): Float64Array {
  const ids = tok.encode(text).ids;
  const h = referenceEncoder(weights, ids);
  const d = weights.d;
  const out = new Float64Array(d);
  for (let t = 0; t < ids.length; t++) for (let j = 0; j < d; j++) out[j] += h[t * d + j] / ids.length;
  normalizeRowsRef(out, d);
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chunkwise-tjs-'));
  const e = makeEncoderOnnx({ d: 16, seed: 11 });
  weights = e.weights;
  writeTransformersFolder(join(dir, 'encoder'), e.bytes, { pooling: 'mean', maxLength: 32 });
  embedder = await TransformersJsEmbedder.load(join(dir, 'encoder'), { batchSize: 3 });
});
afterAll(async () => {
  await embedder?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('TransformersJsEmbedder', () => {
  it('loads a local folder with remote models off, and learns d from the model', () => {
    expect(env.allowRemoteModels).toBe(false);
    expect(embedder.dimension).toBe(16);
    expect(embedder.maxTokens).toBe(32);
  });

  it('mean-pooled, normalised vectors equal the reference and OnnxEmbedder on the same folder (batched and padded)', async () => {
    const out = await embedder.embed(TEXTS);
    expect(out.length).toBe(TEXTS.length * 16);
    const onnx = await OnnxEmbedder.load(join(dir, 'encoder'));
    const viaOnnx = await onnx.embed(TEXTS);
    for (const [i, t] of TEXTS.entries()) {
      const row = out.subarray(i * 16, (i + 1) * 16);
      const ref = referenceMean(t);
      for (let j = 0; j < 16; j++) {
        expect(row[j]).toBeCloseTo(ref[j], 5);
        expect(row[j]).toBeCloseTo(viaOnnx[i * 16 + j], 5);
      }
    }
  });

  it('cls pooling takes the first token', async () => {
    const cls = await TransformersJsEmbedder.load(join(dir, 'encoder'), { pooling: 'cls', normalize: false });
    const [v] = [await cls.embed([TEXTS[0]])];
    const h = referenceEncoder(weights, tok.encode(TEXTS[0]).ids);
    for (let j = 0; j < 16; j++) expect(v[j]).toBeCloseTo(h[j], 5);
    await cls.dispose();
  });

  it('reports texts longer than the model reads', async () => {
    const events: TransformersTruncation[] = [];
    const e = await TransformersJsEmbedder.load(join(dir, 'encoder'), { onTruncate: (x) => events.push(x) });
    const long = Array.from({ length: 50 }, () => 'fox').join(' ');
    await e.embed(['short', long]);
    expect(events).toEqual([{ index: 1, tokens: 52, maxTokens: 32, chars: long.length }]);
    expect(e.truncationCount).toBe(1);
    await e.dispose();
  });

  it('drives a chunkwise strategy', async () => {
    const text = 'The quick brown fox jumps. The lazy dog sat. What is the latency of QASC? A cat sat on the mat.';
    const chunks = await new SemanticChunker({ embedder, threshold: 50 }).chunk(text);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.text).toBe(text.slice(c.start, c.end));
  });

  it('the CLI: embed --embedder transformers:<folder> gives the library vectors; a missing folder exits 1', async () => {
    const seed = texts.enSliding;
    const r = spawnSync(process.execPath, [cliBin, 'embed', seed, '--chunk-size', '20', '--chunk-overlap', '0', '--embedder', `transformers:${join(dir, 'encoder')}`, '--vector-format', 'array'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const direct = await embedder.embed(records.map((x) => x.text));
    records.forEach((x, i) => x.vector.forEach((v: number, j: number) => expect(v).toBeCloseTo(direct[i * 16 + j], 5)));
    const missing = spawnSync(process.execPath, [cliBin, 'embed', seed, '--embedder', `transformers:${join(dir, 'nope')}`], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^chunkwise: could not load model from ".*nope"/);
    expect(missing.stderr.trim().split('\n').length).toBe(1);
  });

  it('errors: a missing folder is a ModelLoadError (no download), bad options and texts are typed', async () => {
    const missing = join(dir, 'no-such-model');
    const err = await TransformersJsEmbedder.load(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelLoadError);
    expect((err as Error).message).toMatch(/no-such-model/);
    expect((err as Error).message).not.toContain('\n');
    await expect(TransformersJsEmbedder.load(join(dir, 'encoder'), { pooling: 'max' as never })).rejects.toThrow(InvalidOptionError);
    await expect(TransformersJsEmbedder.load('')).rejects.toThrow(InvalidOptionError);
    await expect(embedder.embed(['ok', 7 as never])).rejects.toThrow(EmbeddingError);
  });
});
