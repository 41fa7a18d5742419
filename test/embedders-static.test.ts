import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokenizer } from '@huggingface/tokenizers';
import { EmbeddingError, InvalidOptionError, ModelLoadError } from '../src/engine/errors.js';
import { HashingEmbedder, OnnxEmbedder, StaticEmbedder, parseSafetensors, tensorToF32 } from '../src/embedders/index.js';
import { embedChunks, loadEmbedder, npyBytes } from '../src/apps/node/index.js';
import {
  makeEncoderOnnx,
  makeModel2VecFolder,
  makeSafetensors,
  makeTokenizerJson,
  normalizeRowsRef,
  referenceStatic,
  writeOnnxFolder,
  type StaticWeights,
} from './helpers/embedder-fixtures.js';

let dir: string;
let w32: StaticWeights;
let w16: StaticWeights;
const tok = new Tokenizer(makeTokenizerJson(), {});
const contentIds = (t: string) => tok.encode(t, { add_special_tokens: false }).ids;
const TEXTS = ['The quick brown fox jumps over the lazy dog.', 'what is the latency of qasc?', 'chunks', ''];

function maxAbs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunkwise-static-'));
  w32 = makeModel2VecFolder(join(dir, 'm2v'), { d: 8, seed: 3 });
  w16 = makeModel2VecFolder(join(dir, 'm2v16'), { d: 12, seed: 5, dtype: 'F16' });
  writeOnnxFolder(join(dir, 'encoder'), makeEncoderOnnx().bytes);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('StaticEmbedder (Model2Vec)', () => {
  it.each([
    ['f32', 'm2v', () => w32],
    ['f16', 'm2v16', () => w16],
  ])('%s table: mean of token rows (WASM gather) then L2, matches the reference', async (_, name, weights) => {
    const w = weights();
    const e = await StaticEmbedder.load(join(dir, name));
    expect(e.dimension).toBe(w.d);
    const out = await e.embed(TEXTS);
    const ref = new Float64Array(TEXTS.length * w.d);
    TEXTS.forEach((t, i) => {
      const ids = contentIds(t);
      if (ids.length) ref.set(referenceStatic(w, ids), i * w.d);
    });
    normalizeRowsRef(ref, w.d);
    expect(maxAbs(out, ref)).toBeLessThan(1e-5);
    // the empty text gets the zero vector
    expect(out.subarray(3 * w.d).every((x) => x === 0)).toBe(true);
  });

  it('honours an optional weights tensor and normalize: false', async () => {
    const vocab = w32.vocab;
    const weights = Float32Array.from({ length: vocab }, (_, i) => 1 + (i % 3));
    const bytes = makeSafetensors({ embeddings: { shape: [vocab, 8], data: w32.embeddings }, weights: { shape: [vocab], data: weights } });
    const e = await StaticEmbedder.load({ safetensors: bytes, tokenizer: makeTokenizerJson() }, { normalize: false });
    const ids = contentIds(TEXTS[1]);
    const ref = new Float64Array(8);
    let total = 0;
    for (const id of ids) {
      total += weights[id];
      for (let j = 0; j < 8; j++) ref[j] += weights[id] * w32.embeddings[id * 8 + j];
    }
    for (let j = 0; j < 8; j++) ref[j] /= total;
    expect(maxAbs(await e.embed([TEXTS[1]]), ref)).toBeLessThan(1e-5);
  });

  it('reports truncation past maxTokens', async () => {
    const seen: number[][] = [];
    const e = await StaticEmbedder.load(join(dir, 'm2v'), { maxTokens: 3, onTruncate: (ev) => seen.push([ev.tokens, ev.keptChars]) });
    const out = await e.embed(['the quick brown fox jumps']);
    expect(seen).toEqual([[6, 'the quick brown'.length]]);
    expect(e.truncationCount).toBe(1);
    expect(out).toEqual(await e.embed(['the quick brown']));
  });

  it('bad input: missing files, malformed safetensors, no embeddings tensor, non-strings', async () => {
    await expect(StaticEmbedder.load(join(dir, 'nope'))).rejects.toThrow(/no such folder/);
    await expect(StaticEmbedder.load(join(dir, 'encoder'))).rejects.toThrow(/model\.safetensors not found/);
    await expect(StaticEmbedder.load({ safetensors: new Uint8Array([1, 2, 3]), tokenizer: makeTokenizerJson() })).rejects.toBeInstanceOf(ModelLoadError);
    const garbage = new Uint8Array(64);
    new DataView(garbage.buffer).setBigUint64(0, 1000n, true);
    await expect(StaticEmbedder.load({ safetensors: garbage, tokenizer: makeTokenizerJson() })).rejects.toThrow(/header length 1000/);
    const other = makeSafetensors({ table: { shape: [2, 2], data: new Float32Array(4) } });
    await expect(StaticEmbedder.load({ safetensors: other, tokenizer: makeTokenizerJson() })).rejects.toThrow(/no tensor named "embeddings"/);
    await expect(
      StaticEmbedder.load({ safetensors: readFileSync(join(dir, 'm2v', 'model.safetensors')), tokenizer: makeTokenizerJson({ modelType: 'Nope' }) }),
    ).rejects.toThrow(/unknown tokenizer model type "Nope"/);
    const e = await StaticEmbedder.load(join(dir, 'm2v'));
    await expect(e.embed([1 as unknown as string])).rejects.toBeInstanceOf(EmbeddingError);
    expect(await e.embed([])).toEqual(new Float32Array(0));
  });

  it('parseSafetensors reads F16 as float', () => {
    const st = parseSafetensors(makeSafetensors({ x: { shape: [3], data: new Float32Array([1, -2.5, 0.0999755859375]), dtype: 'F16' } }));
    expect([...tensorToF32(st, 'x').values]).toEqual([1, -2.5, 0.0999755859375]);
  });
});

describe('loadEmbedder (CLI specs)', () => {
  it('builds each kind', async () => {
    expect((await loadEmbedder('hashing')).dimension).toBe(384);
    const h = await loadEmbedder('hashing:256');
    expect(h).toBeInstanceOf(HashingEmbedder);
    expect(h.dimension).toBe(256);
    expect(await loadEmbedder(`static:${join(dir, 'm2v')}`)).toBeInstanceOf(StaticEmbedder);
    const o = await loadEmbedder(`onnx:${join(dir, 'encoder')}`, { backend: 'web' });
    expect(o).toBeInstanceOf(OnnxEmbedder);
    expect(o.dimension).toBe(16);
  });
  it.each(['', 'hashing:7', 'hashing:abc', 'bert', 'onnx:', 'static:'])('rejects %j', async (spec) => {
    await expect(loadEmbedder(spec)).rejects.toBeInstanceOf(InvalidOptionError);
  });
  it('passes ModelLoadError through', async () => {
    await expect(loadEmbedder(`onnx:${join(dir, 'm2v')}`)).rejects.toBeInstanceOf(ModelLoadError);
  });
});

describe('embedChunks', () => {
  const e = new HashingEmbedder({ dimension: 16 });
  const chunks = [{ id: 'a', text: 'sliding window' }, { id: 'b', text: 'fenêtre glissante' }, 'third chunk'];

  it('JSONL lines with base64 little-endian float32 vectors, with progress', async () => {
    const progress: number[] = [];
    const lines = await embedChunks(chunks, e, { batchSize: 2, onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([2, 3]);
    const expected = e.embedSync(['sliding window', 'fenêtre glissante', 'third chunk']);
    lines.forEach((line, i) => {
      const o = JSON.parse(line);
      expect(o).toMatchObject({ index: i, dimension: 16, id: ['a', 'b', 2][i] });
      const b = Buffer.from(o.vector, 'base64');
      const v = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
      expect(v).toEqual(expected.subarray(i * 16, (i + 1) * 16));
    });
  });

  it('.npy bytes: version 1.0 header with shape (n, d), 64-byte aligned, then <f4 data', async () => {
    const bytes = await embedChunks(chunks, e, { format: 'npy' });
    expect(String.fromCharCode(...bytes.subarray(1, 6))).toBe('NUMPY');
    expect(bytes[0]).toBe(0x93);
    const hlen = bytes[8] | (bytes[9] << 8);
    expect((10 + hlen) % 64).toBe(0);
    const header = new TextDecoder().decode(bytes.subarray(10, 10 + hlen));
    expect(header).toMatch(/^\{'descr': '<f4', 'fortran_order': False, 'shape': \(3, 16\), \} *\n$/);
    const data = new Float32Array(bytes.slice(10 + hlen).buffer);
    expect(data).toEqual(e.embedSync(['sliding window', 'fenêtre glissante', 'third chunk']));
    expect(npyBytes(new Float32Array(0), 0, 4).length % 64).toBe(0);
    await expect(embedChunks(chunks, e, { format: 'csv' as 'npy' })).rejects.toBeInstanceOf(InvalidOptionError);
  });
});
