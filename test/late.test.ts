import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Tokenizer } from '@huggingface/tokenizers';
import type { Chunk } from '../src/engine/chunk.js';
import { FixedSizeChunker } from '../src/strategies/fixed-size/fixed-size.js';
import { embedDocumentTokens, LateChunker } from '../src/strategies/late/late.js';
import { HashingEmbedder, OnnxEmbedder } from '../src/embedders/index.js';
import { InvalidOptionError } from '../src/engine/errors.js';
import {
  makeEncoderOnnx,
  makeTokenizerConfig,
  makeTokenizerJson,
  normalizeRowsRef,
  referenceEncoder,
  writeOnnxFolder,
  type EncoderWeights,
} from './helpers/embedder-fixtures.js';
import { expectInvariants } from './helpers/invariants.js';
import { texts } from './helpers/paths.js';

const D = 16;
let dir: string;
let encW: EncoderWeights;
let embedder: OnnxEmbedder;
const tok = new Tokenizer(makeTokenizerJson(), makeTokenizerConfig());

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chunkwise-late-'));
  // the attention fixture of the embedder tests: one self-attention layer, so token vectors depend on context
  const e = makeEncoderOnnx({ d: D, seed: 7 });
  encW = e.weights;
  writeOnnxFolder(join(dir, 'encoder'), e.bytes, { pooling: 'mean' });
  embedder = await OnnxEmbedder.load(join(dir, 'encoder'), { backend: 'web' });
});
afterAll(async () => {
  await embedder?.release();
  rmSync(dir, { recursive: true, force: true });
});

function maxAbs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** The normalised mean of rows from..to (inclusive) of a T × D matrix. */
function meanRows(m: ArrayLike<number>, from: number, to: number): Float64Array {
  const v = new Float64Array(D);
  for (let t = from; t <= to; t++) for (let j = 0; j < D; j++) v[j] += m[t * D + j];
  normalizeRowsRef(v, D);
  return v;
}

/** A chunker that returns the given spans. */
const spans = (list: Array<[number, number]>) => ({
  chunk: (text: string): Chunk[] =>
    list.map(([start, end], index) => ({ id: `${start}-${end}`, index, text: text.slice(start, end), start, end, tokenCount: -1, metadata: { strategy: 'test', unit: 'char', unitCount: end - start, overlap: 0 } })),
});

describe('LateChunker with the attention fixture (one pass)', () => {
  const text = 'the quick fox. a lazy dog sat.';

  it('chunk vectors are the mean of the document-pass token vectors over each span, and differ from embedding each chunk alone', async () => {
    const late = new LateChunker({ embedder, chunker: spans([[0, 14], [15, 30]]) });
    const chunks = await late.chunk(text);
    expect(chunks.map((c) => c.text)).toEqual(['the quick fox.', 'a lazy dog sat.']);
    // tokens: [CLS] the quick fox . a lazy dog sat . [SEP]; the leading [CLS] is left out and
    // does not shift the mapping: chunk 1 = tokens 1..4, chunk 2 = tokens 5..9 of the document pass
    const ids = tok.encode(text).ids;
    expect(ids).toHaveLength(11);
    const ref = referenceEncoder(encW, ids);
    const mean = (from: number, to: number) => meanRows(ref, from, to);
    expect(maxAbs(chunks[0].vector, mean(1, 4))).toBeLessThan(1e-5);
    expect(maxAbs(chunks[1].vector, mean(5, 9))).toBeLessThan(1e-5);
    // the same from the model's own document pass, to f32 rounding
    const pass = await embedder.embedTokens(text);
    const fromPass = new Float64Array(D);
    for (let t = 5; t <= 9; t++) for (let j = 0; j < D; j++) fromPass[j] += pass.vectors[t * D + j];
    normalizeRowsRef(fromPass, D);
    expect(maxAbs(chunks[1].vector, fromPass)).toBeLessThan(1e-6);
    // embedding each chunk on its own gives other vectors (no context from the other chunk)
    const alone = await embedder.embed(chunks.map((c) => c.text));
    expect(maxAbs(chunks[0].vector, alone.subarray(0, D))).toBeGreaterThan(0.05);
    expect(maxAbs(chunks[1].vector, alone.subarray(D))).toBeGreaterThan(0.05);
    expect(chunks[0].metadata).toMatchObject({ late: true, macroWindows: 1 });
  });

  it('needs a token-level embedder', () => {
    expect(() => new LateChunker({ embedder: new HashingEmbedder() as never })).toThrow(InvalidOptionError);
    expect(() => new LateChunker({ embedder, macroOverlap: 1 })).toThrow(/macroOverlap: 1/);
  });
});

describe('LateChunker on documents longer than the model (macro windows)', () => {
  const words = 'the quick brown fox jump over the lazy dog a cat sat on the mat what is the latency of qasc'.split(' ');
  const text = Array.from({ length: 130 }, (_, i) => words[(i * 7) % words.length]).join(' ') + '.';

  it('every window fits the model; every token once, from the window where it has the most context; vectors exact', async () => {
    const doc = await embedDocumentTokens(embedder, text, 0.25);
    const full = tok.encode(text, { add_special_tokens: false });
    expect(full.ids.length).toBeGreaterThan(100); // far over the model's 32
    expect(doc.windows.length).toBeGreaterThan(3);
    for (const w of doc.windows) expect(w.tokens).toBeLessThanOrEqual(embedder.maxTokens); // [CLS] … [SEP] included
    // the stitched tokens are the document's tokens, each once, in order (all words are whole tokens here)
    const T = doc.offsets.length / 2;
    expect(T).toBe(full.ids.length);
    const got = Array.from({ length: T }, (_, t) => text.slice(doc.offsets[2 * t], doc.offsets[2 * t + 1]));
    expect(got).toEqual(full.tokens);
    expect(doc.windows.reduce((s, w) => s + w.used, 0)).toBe(T);
    // each token's vector equals the reference encoder run on the window it was taken from,
    // and that window gives it at least as much context as any other window holding it
    let t = 0;
    const windowTokens = doc.windows.map((w) => {
      const enc = tok.encode(text.slice(w.start, w.end));
      return { starts: contentStarts(w.start, text.slice(w.start, w.end)), ids: enc.ids };
    });
    for (let w = 0; w < doc.windows.length; w++) {
      const { starts, ids } = windowTokens[w];
      expect(ids.length).toBe(doc.windows[w].tokens);
      const ref = referenceEncoder(encW, ids);
      for (let u = 0; u < doc.windows[w].used; u++, t++) {
        const i = starts.indexOf(doc.offsets[2 * t]);
        expect(i).toBeGreaterThanOrEqual(0);
        expect(maxAbs(doc.vectors.subarray(t * D, (t + 1) * D), ref.subarray((i + 1) * D, (i + 2) * D))).toBeLessThan(1e-5);
        const context = (k: number, idx: number) => {
          const n = windowTokens[k].starts.length;
          const left = k === 0 ? Infinity : idx;
          const right = k === doc.windows.length - 1 ? Infinity : n - 1 - idx;
          return Math.min(left, right);
        };
        for (let k = 0; k < doc.windows.length; k++) {
          const j = windowTokens[k].starts.indexOf(doc.offsets[2 * t]);
          if (k !== w && j >= 0) expect(context(w, i)).toBeGreaterThanOrEqual(context(k, j) - 1);
        }
      }
    }
  });

  it('late chunks over macro windows: none dropped, none truncated, each vector the mean of its stitched tokens', async () => {
    const chunker = new FixedSizeChunker({ unit: 'word', chunkSize: 12, chunkOverlap: 0 });
    const late = new LateChunker({ embedder, chunker });
    const chunks = await late.chunk(text);
    const plain = chunker.chunk(text);
    expect(chunks.map((c) => [c.start, c.end])).toEqual(plain.map((c) => [c.start, c.end]));
    const doc = await embedDocumentTokens(embedder, text, 0.25);
    for (const c of chunks) {
      const v = new Float64Array(D);
      let n = 0;
      for (let t = 0; t < doc.offsets.length / 2; t++) {
        if (doc.offsets[2 * t + 1] <= c.start || doc.offsets[2 * t] >= c.end) continue;
        for (let j = 0; j < D; j++) v[j] += doc.vectors[t * D + j];
        n++;
      }
      expect(n).toBeGreaterThan(0);
      normalizeRowsRef(v, D);
      expect(maxAbs(c.vector, v)).toBeLessThan(1e-6);
    }
    expect(chunks[0].metadata.macroWindows).toBeGreaterThan(3);
  });

  it('a real document: the Dutch QASC note through the fixture model', async () => {
    const nl = readFileSync(texts.nlQasc, 'utf8');
    const late = new LateChunker({ embedder, chunker: new FixedSizeChunker({ chunkSize: 64, chunkOverlap: 0 }) });
    const chunks = await late.chunk(nl);
    expect(chunks.length).toBeGreaterThan(10);
    expectInvariants(nl, chunks, { unit: 'token', budget: 64 });
    for (const c of chunks) {
      let norm = 0;
      for (const x of c.vector) norm += x * x;
      expect(norm).toBeCloseTo(1, 4); // no chunk lost its tokens
    }
  });
});

describe('LateChunker over runs the vocabulary lacks ([UNK] runs)', () => {
  it('one pass: each span of a [[[[ run pools its own [UNK] tokens (was: one token for the run, the next span empty)', async () => {
    const text = 'a [[[[ b';
    const late = new LateChunker({ embedder, chunker: spans([[0, 4], [4, 8]]) });
    const chunks = await late.chunk(text);
    // tokens: [CLS] a [UNK] [UNK] [UNK] [UNK] b [SEP]; "a [[" = tokens 1..3, "[[ b" = tokens 4..6
    const enc = tok.encode(text);
    expect(enc.tokens).toEqual(['[CLS]', 'a', '[UNK]', '[UNK]', '[UNK]', '[UNK]', 'b', '[SEP]']);
    const ids = enc.ids;
    const ref = referenceEncoder(encW, ids);
    const mean = (from: number, to: number) => meanRows(ref, from, to);
    expect(maxAbs(chunks[0].vector, mean(1, 3))).toBeLessThan(1e-5);
    expect(maxAbs(chunks[1].vector, mean(4, 6))).toBeLessThan(1e-5);
  });

  it.each([
    ['a run of [', 'the fox sat. ' + '['.repeat(120) + ' the dog sat.', '['],
    ['a run of …', 'the fox sat. ' + '…'.repeat(120) + ' the dog sat.', '…'],
    ['[[[[ words', 'the fox. ' + '[[[[ '.repeat(40) + 'the end.', '['],
  ])('macro windows through %s: every character its own token, every chunk a unit vector', async (_name, text, ch) => {
    const doc = await embedDocumentTokens(embedder, text, 0.25);
    expect(doc.windows.length).toBeGreaterThan(3); // 120 [UNK] tokens, the model reads 32
    const T = doc.offsets.length / 2;
    const got = Array.from({ length: T }, (_, t) => text.slice(doc.offsets[2 * t], doc.offsets[2 * t + 1]));
    const tokens: string[] = tok.encode(text, { add_special_tokens: false }).tokens;
    expect(got).toEqual(tokens.map((t) => (t === '[UNK]' ? ch : t.replace(/^##/, ''))));
    expect(got.filter((g) => g === ch)).toHaveLength([...text].filter((c) => c === ch).length);
    const late = new LateChunker({ embedder, chunker: new FixedSizeChunker({ unit: 'char', chunkSize: 20, chunkOverlap: 0 }) });
    const chunks = await late.chunk(text);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      let norm = 0;
      for (const x of c.vector) norm += x * x;
      expect(norm).toBeCloseTo(1, 4);
    }
  });
});

/** UTF-16 starts of the content tokens of `slice` (offset by `base`), by the fixture's pre-tokenizer rules. */
function contentStarts(base: number, slice: string): number[] {
  const out: number[] = [];
  for (const m of slice.matchAll(/\w+|[^\w\s]/g)) out.push(base + m.index!);
  return out;
}
