import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokenizer } from '@huggingface/tokenizers';
import { EmbeddingError, InvalidOptionError, ModelLoadError } from '../src/engine/errors.js';
import { OnnxEmbedder, poolTokenSpans, type OnnxBackend, type TruncationEvent } from '../src/embedders/index.js';
import {
  makeEncoderOnnx,
  makeScalarOutputOnnx,
  makeStaticOnnx,
  makeTokenizerConfig,
  makeTokenizerJson,
  normalizeRowsRef,
  referenceEncoder,
  referenceStatic,
  writeOnnxFolder,
  type EncoderWeights,
  type StaticWeights,
} from './helpers/embedder-fixtures.js';

let dir: string;
let staticW: StaticWeights;
let encW: EncoderWeights;
const tok = new Tokenizer(makeTokenizerJson(), makeTokenizerConfig());
const ids = (text: string) => tok.encode(text).ids;

const TEXTS = [
  'The quick brown fox jumps over the lazy dog.',
  'What is the latency of QASC?',
  'a cat sat on the mat',
  'chunks',
];

let nodeAvailable = true;
try {
  await import('onnxruntime-node');
} catch {
  nodeAvailable = false;
}
const backends: OnnxBackend[] = nodeAvailable ? ['web', 'node'] : ['web'];
/** Max abs error per backend and model, printed at the end (the report quotes it). */
const maxErrors: Record<string, number> = {};

function maxAbs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunkwise-onnx-'));
  const s = makeStaticOnnx(16, 1);
  staticW = s.weights;
  writeOnnxFolder(join(dir, 'static'), s.bytes);
  const e = makeEncoderOnnx({ d: 16, seed: 7 });
  encW = e.weights;
  writeOnnxFolder(join(dir, 'encoder'), e.bytes, { pooling: 'mean' });
  writeOnnxFolder(join(dir, 'encoder-cls'), e.bytes, { pooling: 'cls' });
  writeOnnxFolder(join(dir, 'scalar'), makeScalarOutputOnnx());
  writeOnnxFolder(join(dir, 'corrupt'), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
  writeOnnxFolder(join(dir, 'no-model'), s.bytes);
  rmSync(join(dir, 'no-model', 'model.onnx'));
  writeOnnxFolder(join(dir, 'no-tokenizer'), s.bytes);
  rmSync(join(dir, 'no-tokenizer', 'tokenizer.json'));
  writeOnnxFolder(join(dir, 'bad-tokenizer'), s.bytes);
  writeFileSync(join(dir, 'bad-tokenizer', 'tokenizer.json'), JSON.stringify(makeTokenizerJson({ modelType: 'WordLevelX' })));
  mkdirSync(join(dir, 'empty'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  console.log('max abs error vs reference:', JSON.stringify(maxErrors));
});

describe.each(backends)('OnnxEmbedder on onnxruntime-%s', (backend) => {
  it('static model (Gather + masked mean → sentence_embedding) matches the TypeScript reference', async () => {
    const e = await OnnxEmbedder.load(join(dir, 'static'), { backend, batchSize: 3 });
    expect(e.backend).toBe(backend);
    expect(e.dimension).toBe(16);
    expect(e.outputName).toBe('sentence_embedding');
    const out = await e.embed(TEXTS);
    const ref = new Float64Array(TEXTS.length * 16);
    TEXTS.forEach((t, i) => ref.set(referenceStatic(staticW, ids(t)), i * 16));
    normalizeRowsRef(ref, 16);
    const err = maxAbs(out, ref);
    maxErrors[`${backend}/static`] = err;
    expect(err).toBeLessThan(1e-5);
    await e.release();
  });

  it('encoder (self-attention → last_hidden_state) with mean pooling matches the reference, batched and padded', async () => {
    const e = await OnnxEmbedder.load(join(dir, 'encoder'), { backend, batchSize: 2 });
    expect(e.pooling).toBe('mean');
    expect(e.maxTokens).toBe(32);
    const out = await e.embed(TEXTS);
    const ref = new Float64Array(TEXTS.length * 16);
    TEXTS.forEach((t, i) => {
      const h = referenceEncoder(encW, ids(t));
      const T = h.length / 16;
      for (let j = 0; j < 16; j++) {
        let s = 0;
        for (let k = 0; k < T; k++) s += h[k * 16 + j];
        ref[i * 16 + j] = s / T;
      }
    });
    normalizeRowsRef(ref, 16);
    const err = maxAbs(out, ref);
    maxErrors[`${backend}/encoder-mean`] = err;
    expect(err).toBeLessThan(1e-5);
    // the same texts one by one give the same vectors (padding is masked)
    for (let i = 0; i < TEXTS.length; i++) {
      const single = await e.embed([TEXTS[i]]);
      expect(maxAbs(single, out.subarray(i * 16, (i + 1) * 16))).toBeLessThan(1e-5);
    }
    await e.release();
  });

  it('CLS pooling from 1_Pooling/config.json', async () => {
    const e = await OnnxEmbedder.load(join(dir, 'encoder-cls'), { backend });
    expect(e.pooling).toBe('cls');
    const out = await e.embed([TEXTS[1]]);
    const h = referenceEncoder(encW, ids(TEXTS[1]));
    const ref = Float64Array.from(h.subarray(0, 16));
    normalizeRowsRef(ref, 16);
    expect(maxAbs(out, ref)).toBeLessThan(1e-5);
    await e.release();
  });

  it('embedTokens: per-token vectors match the reference, with UTF-16 offsets, and depend on context', async () => {
    const e = await OnnxEmbedder.load(join(dir, 'encoder'), { backend });
    const text = 'Héllo, the quick fox ☃ jumps!';
    const r = await e.embedTokens(text);
    const ref = referenceEncoder(encW, ids(text));
    const err = maxAbs(r.vectors, ref);
    maxErrors[`${backend}/encoder-tokens`] = err;
    expect(err).toBeLessThan(1e-5);
    expect(r.truncated).toBe(false);
    const enc = tok.encode(text);
    const T = enc.ids.length;
    expect(r.offsets.length).toBe(T * 2);
    const spans: string[] = [];
    for (let t = 0; t < T; t++) spans.push(text.slice(r.offsets[2 * t], r.offsets[2 * t + 1]));
    // [CLS] h ##e ##l ##l ##o , the quick fox [UNK] jump ##s ! [SEP]
    expect(enc.tokens).toEqual(['[CLS]', 'h', '##e', '##l', '##l', '##o', ',', 'the', 'quick', 'fox', '[UNK]', 'jump', '##s', '!', '[SEP]']);
    expect(spans).toEqual(['', 'H', 'é', 'l', 'l', 'o', ',', 'the', 'quick', 'fox', '☃', 'jump', 's', '!', '']);
    expect([...r.special]).toEqual([1, ...new Array(T - 2).fill(0), 1]);
    expect([r.offsets[2 * (T - 1)], r.offsets[2 * T - 1]]).toEqual([text.length, text.length]);
    // "fox" in two contexts gets two different vectors (attention mixes context in)
    const a = await e.embedTokens('the quick fox');
    const b = await e.embedTokens('a lazy dog fox');
    const fa = a.vectors.subarray(3 * 16, 4 * 16);
    const fb = b.vectors.subarray(4 * 16, 5 * 16);
    expect(maxAbs(fa, fb)).toBeGreaterThan(1e-3);
    await e.release();
  });

  it('late chunking: poolTokenSpans averages the context-aware token vectors of each span', async () => {
    const e = await OnnxEmbedder.load(join(dir, 'encoder'), { backend });
    const text = 'the quick fox. a lazy dog sat.';
    const r = await e.embedTokens(text);
    const pooled = poolTokenSpans(r, 16, [0, 15], [14, 30]);
    const ref = referenceEncoder(encW, ids(text));
    // tokens: [CLS] the quick fox . a lazy dog sat . [SEP] → chunk 1 = tokens 1..4, chunk 2 = 5..9
    const mean = (from: number, to: number) => {
      const v = new Float64Array(16);
      for (let t = from; t <= to; t++) for (let j = 0; j < 16; j++) v[j] += ref[t * 16 + j];
      normalizeRowsRef(v, 16);
      return v;
    };
    expect(maxAbs(pooled.subarray(0, 16), mean(1, 4))).toBeLessThan(1e-5);
    expect(maxAbs(pooled.subarray(16), mean(5, 9))).toBeLessThan(1e-5);
    await e.release();
  });

  it('reports truncation of texts longer than the model reads', async () => {
    const events: TruncationEvent[] = [];
    const e = await OnnxEmbedder.load(join(dir, 'encoder'), { backend, onTruncate: (ev) => events.push(ev) });
    const long = Array.from({ length: 60 }, (_, i) => (i % 2 ? 'quick' : 'fox')).join(' ');
    const out = await e.embed(['short text', long]);
    expect(e.lastTruncated).toEqual([1]);
    expect(e.truncationCount).toBe(1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ index: 1, tokens: 62, maxTokens: 32, chars: long.length });
    expect(events[0].keptChars).toBe(long.split(' ').slice(0, 30).join(' ').length);
    // the truncated text is embedded as its first 30 tokens + [CLS]/[SEP]
    const kept = long.slice(0, events[0].keptChars);
    const direct = await e.embed([kept]);
    expect(maxAbs(out.subarray(16, 32), direct)).toBeLessThan(1e-6);
    const t = await e.embedTokens(long);
    expect(t.truncated).toBe(true);
    expect(t.offsets.length / 2).toBe(32);
    expect(e.truncationCount).toBe(2);
    await e.release();
  });

  it('an empty string in a batch gets the vector of [CLS] [SEP]', async () => {
    const e = await OnnxEmbedder.load(join(dir, 'encoder'), { backend });
    const out = await e.embed(['the fox', '', 'dog']);
    const alone = await e.embed(['']);
    expect(maxAbs(out.subarray(16, 32), alone)).toBeLessThan(1e-6);
    let norm = 0;
    for (const v of alone) norm += v * v;
    expect(norm).toBeCloseTo(1, 5);
    await expect(e.embed(['ok', 42 as unknown as string])).rejects.toBeInstanceOf(EmbeddingError);
    expect(await e.embed([])).toEqual(new Float32Array(0));
    await e.release();
  });
});

describe('OnnxEmbedder sources and bad input', () => {
  it('loads from bytes and from a base URL (custom fetch), same vectors as from the folder', async () => {
    const folder = join(dir, 'encoder');
    const fromFolder = await OnnxEmbedder.load(folder, { backend: 'web' });
    const fromBytes = await OnnxEmbedder.load(
      {
        model: new Uint8Array(readFileSync(join(folder, 'model.onnx'))),
        tokenizer: makeTokenizerJson(),
        tokenizerConfig: makeTokenizerConfig(),
        pooling: 'mean',
      },
      { backend: 'web' },
    );
    const fakeFetch = (async (url: string) => {
      const path = new URL(url).pathname;
      try {
        return new Response(readFileSync(path));
      } catch {
        return new Response('not found', { status: 404 });
      }
    }) as unknown as typeof fetch;
    const fromUrl = await OnnxEmbedder.load(`http://models.invalid${folder}/`, { backend: 'web', fetch: fakeFetch });
    const a = await fromFolder.embed(TEXTS);
    expect(maxAbs(await fromBytes.embed(TEXTS), a)).toBe(0);
    expect(maxAbs(await fromUrl.embed(TEXTS), a)).toBe(0);
    await expect(OnnxEmbedder.load(`http://models.invalid${join(dir, 'no-model')}/`, { fetch: fakeFetch })).rejects.toThrow(/model\.onnx.*HTTP 404/);
  });

  it('chooses onnxruntime-node automatically in Node when installed', async () => {
    const e = await OnnxEmbedder.load(join(dir, 'static'));
    expect(e.backend).toBe(nodeAvailable ? 'node' : 'web');
  });

  it.each([
    ['no-model', /model\.onnx not found/],
    ['no-tokenizer', /tokenizer\.json not found/],
    ['empty', /model\.onnx not found/],
    ['does-not-exist', /no such folder/],
    ['corrupt', /not a loadable ONNX model/],
    ['bad-tokenizer', /unknown tokenizer model type "WordLevelX"/],
    ['scalar', /output scores is int64\[batch\], not a float32/],
  ])('folder %s → ModelLoadError', async (name, message) => {
    for (const backend of backends) {
      const p = OnnxEmbedder.load(join(dir, name), { backend });
      await expect(p).rejects.toBeInstanceOf(ModelLoadError);
      await expect(OnnxEmbedder.load(join(dir, name), { backend })).rejects.toThrow(message);
    }
  });

  it('rejects bad options', async () => {
    await expect(OnnxEmbedder.load(join(dir, 'static'), { batchSize: 0 })).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(OnnxEmbedder.load(join(dir, 'static'), { backend: 'gpu' as OnnxBackend })).rejects.toBeInstanceOf(ModelLoadError);
    await expect(OnnxEmbedder.load(42 as unknown as string)).rejects.toBeInstanceOf(ModelLoadError);
  });

  it('embedTokens needs a token-level output', async () => {
    const e = await OnnxEmbedder.load(join(dir, 'static'), { backend: 'web' });
    await expect(e.embedTokens('the fox')).rejects.toThrow(/no token-level/);
  });
});

describe('portability', () => {
  it('loads a folder given as a file: URL in Node', async () => {
    const { pathToFileURL } = await import('node:url');
    const e = await OnnxEmbedder.load(pathToFileURL(join(dir, 'static')), { backend: 'web' });
    expect(e.dimension).toBe(16);
  });

  it('the core embedder files import no Node built-in (Node-only code lives in src/apps/node/)', () => {
    const root = join(import.meta.dirname, '..');
    const files = [
      ...['types', 'pool-spans', 'hashing-embedder', 'onnx-embedder', 'static-embedder', 'hf-tokenizer', 'safetensors', 'onnx-runtime', 'model-source', 'index'].map(
        (f) => join(root, 'src', 'embedders', `${f}.ts`),
      ),
      join(root, 'bindings', 'embedding.ts'),
    ];
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      expect(src, f).not.toMatch(/from ['"](node:|fs|path|os|url|onnxruntime-node)/);
      expect(src, f).not.toMatch(/require\(/);
    }
  });
});
