import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakpointThreshold, SemanticChunker } from '../src/strategies/semantic/semantic.js';
import { sentenceSpans } from '../src/engine/boundaries/sentence-spans.js';
import { InvalidInputError, InvalidOptionError } from '../src/engine/errors.js';
import { getUnits } from '../src/engine/size/index.js';
import { expectInvariants } from './helpers/invariants.js';
import { corporaDir } from './helpers/paths.js';
import { hashVector, StubEmbedder } from './helpers/stub-embedders.js';

const f32 = (a: number[]) => Float32Array.from(a);

describe('breakpointThreshold (LangChain SemanticChunker rules)', () => {
  // distances d = [0.1, 0.5, 0.2, 0.9]; sorted 0.1 0.2 0.5 0.9
  const d = f32([0.1, 0.5, 0.2, 0.9]);
  it('percentile: numpy linear interpolation', () => {
    // h = 3·0.95 = 2.85 → x2 + 0.85·(x3 − x2) = 0.5 + 0.85·0.4 = 0.84
    expect(breakpointThreshold(d, 'percentile', 95).threshold).toBeCloseTo(0.84, 6);
  });
  it('standardDeviation: mean + k·std (population)', () => {
    // mean 0.425; var = (0.325² + 0.075² + 0.225² + 0.475²)/4 = 0.096875; std 0.3112474
    expect(breakpointThreshold(d, 'standardDeviation', 1).threshold).toBeCloseTo(0.425 + Math.sqrt(0.096875), 6);
  });
  it('interquartile: mean + k·(q75 − q25)', () => {
    // q25: h = 0.75 → 0.1 + 0.75·0.1 = 0.175; q75: h = 2.25 → 0.5 + 0.25·0.4 = 0.6; iqr 0.425
    expect(breakpointThreshold(d, 'interquartile', 1.5).threshold).toBeCloseTo(0.425 + 1.5 * 0.425, 6);
  });
  it('gradient: numpy.gradient then percentile of it', () => {
    // g = [0.5−0.1, (0.2−0.1)/2, (0.9−0.5)/2, 0.9−0.2] = [0.4, 0.05, 0.2, 0.7]
    // sorted 0.05 0.2 0.4 0.7; h = 2.85 → 0.4 + 0.85·0.3 = 0.655
    const r = breakpointThreshold(d, 'gradient', 95);
    expect([...r.values].map((v) => +v.toFixed(6))).toEqual([0.4, 0.05, 0.2, 0.7]);
    expect(r.threshold).toBeCloseTo(0.655, 6);
  });
  it('no distances (one sentence) or one distance for gradient: no break', () => {
    expect(breakpointThreshold(f32([]), 'percentile', 95).threshold).toBe(Infinity);
    expect(breakpointThreshold(f32([0.3]), 'gradient', 95).threshold).toBe(Infinity);
    expect(breakpointThreshold(f32([0.3]), 'percentile', 95).threshold).toBeCloseTo(0.3, 6);
  });
});

/** Sentences about topic A get [1, 0], topic B [0, 1], anything else the zero vector. */
const topicEmbedder = () =>
  new StubEmbedder(2, (t) => (/cats/i.test(t) ? [1, 0] : /rockets/i.test(t) ? [0, 1] : [0, 0]));

describe('SemanticChunker with hand-set vectors', () => {
  const text =
    'Cats purr. Cats sleep a lot. Small cats hunt mice. Rockets need fuel. Rockets fly to orbit. Big rockets are loud.';

  it('breaks where the topic changes (bufferSize 0, percentile 95)', async () => {
    // distances [0, 0, 1, 0, 0]; p95: h = 3.8 → 0 + 0.8·(1 − 0) = 0.8; only 1 > 0.8 → break after sentence 2
    const emb = topicEmbedder();
    const chunks = await new SemanticChunker({ embedder: emb, bufferSize: 0, threshold: 95 }).chunk(text);
    expect(chunks.map((c) => c.text)).toEqual(['Cats purr. Cats sleep a lot. Small cats hunt mice.', 'Rockets need fuel. Rockets fly to orbit. Big rockets are loud.']);
    expect(chunks[0].metadata).toMatchObject({ strategy: 'semantic', sentenceStart: 0, sentenceEnd: 3, breakValue: 1 });
    expect(chunks[0].metadata.threshold).toBeCloseTo(0.8, 6);
    expect(emb.calls).toBe(1); // one embed call for the whole text
    for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
  });

  it('bufferSize 1 embeds each sentence with its neighbours, joined by a space', async () => {
    const emb = topicEmbedder();
    await new SemanticChunker({ embedder: emb, bufferSize: 1 }).chunk('Cats purr. Cats nap. Rockets fly.');
    expect(emb.texts).toEqual(['Cats purr. Cats nap.', 'Cats purr. Cats nap. Rockets fly.', 'Cats nap. Rockets fly.']);
  });

  it('one sentence, two sentences, identical sentences and zero vectors give one chunk, no NaN', async () => {
    const zero = new StubEmbedder(4, () => [0, 0, 0, 0]);
    for (const t of ['Only one sentence here.', 'Cats purr. Rockets fly.', 'Same words. Same words. Same words. Same words.']) {
      for (const embedder of [topicEmbedder(), zero]) {
        for (const breakpoint of ['percentile', 'standardDeviation', 'interquartile', 'gradient'] as const) {
          const chunks = await new SemanticChunker({ embedder, breakpoint }).chunk(t);
          expect(chunks.map((c) => c.text)).toEqual([t]);
          expect(Number.isNaN(chunks[0].metadata.threshold as number)).toBe(false);
        }
      }
    }
    expect(await new SemanticChunker({ embedder: zero }).chunk('  \n ')).toEqual([]);
  });

  it('minChunkSize skips breaks under the size and joins a small last chunk', async () => {
    const t = 'Cats purr. Rockets fly. Cats nap. Rockets roar loudly today.';
    // vectors [1, 0], [0, 1], [1, 0.1], [0.1, 1]: distances
    //   d0 = 1 − 0 = 1; d1 = 1 − 0.1/√1.01 = 0.90050; d2 = 1 − 0.2/1.01 = 0.80198
    // threshold 0 = the 0th percentile = min = 0.80198; strict > → breaks after sentences 0 and 1 only
    const varied = new StubEmbedder(2, (s) => (s.startsWith('Cats purr') ? [1, 0] : s.startsWith('Rockets fly') ? [0, 1] : s.startsWith('Cats nap') ? [1, 0.1] : [0.1, 1]));
    const free = await new SemanticChunker({ embedder: varied, bufferSize: 0, threshold: 0, unit: 'word' }).chunk(t);
    expect(free.map((c) => c.text)).toEqual(['Cats purr.', 'Rockets fly.', 'Cats nap. Rockets roar loudly today.']);
    expect(free[0].metadata.threshold).toBeCloseTo(1 - 0.2 / 1.01, 6);
    const min3 = await new SemanticChunker({ embedder: varied, bufferSize: 0, threshold: 0, unit: 'word', minChunkSize: 3 }).chunk(t);
    // "Cats purr." is 2 words < 3: its break is skipped; "Cats purr. Rockets fly." (4 words) closes at the next one
    expect(min3.map((c) => c.text)).toEqual(['Cats purr. Rockets fly.', 'Cats nap. Rockets roar loudly today.']);
    const t2 = 'Cats purr all night long. Rockets fly. Cats nap.';
    // distances 1, 0.90050; threshold = min = 0.90050 → one break, after sentence 0
    const two = await new SemanticChunker({ embedder: varied, bufferSize: 0, threshold: 0, unit: 'word' }).chunk(t2);
    expect(two.map((c) => c.text)).toEqual(['Cats purr all night long.', 'Rockets fly. Cats nap.']);
    // with minChunkSize 5 the last chunk (4 words) joins the previous one
    const one = await new SemanticChunker({ embedder: varied, bufferSize: 0, threshold: 0, unit: 'word', minChunkSize: 5 }).chunk(t2);
    expect(one.map((c) => c.text)).toEqual([t2]);
    expect(one[0].metadata.breakValue).toBeUndefined();
  });

  it('maxChunkSize holds whatever the distances (FixedSizeChunker splits what grows too large)', async () => {
    const t = 'Same words again and again. '.repeat(40).trim();
    const chunks = await new SemanticChunker({ embedder: topicEmbedder(), maxChunkSize: 20, unit: 'word' }).chunk(t);
    const words = getUnits('word');
    expect(chunks.length).toBe(Math.ceil(200 / 20));
    for (const c of chunks) {
      expect(words.count(c.text)).toBeLessThanOrEqual(20);
      expect(c.metadata.split).toBe(true);
    }
  });

  it('an injected splitter replaces FixedSizeChunker', async () => {
    const t = 'Aaa bbb. Ccc ddd. Eee fff.';
    const calls: number[][] = [];
    const chunks = await new SemanticChunker({
      embedder: topicEmbedder(),
      unit: 'char',
      maxChunkSize: 10,
      splitter: (text, size) => {
        calls.push([text.length, size]);
        const out = [];
        for (let a = 0; a < text.length; a += 9) out.push({ start: a, end: Math.min(text.length, a + 9) });
        return out;
      },
    }).chunk(t);
    expect(calls).toEqual([[t.length, 10]]);
    expect(chunks.map((c) => c.text).join('')).toBe(t);
  });

  it('rejects bad options and input with typed errors', async () => {
    expect(() => new SemanticChunker({ breakpoint: 'median' as never })).toThrow(InvalidOptionError);
    expect(() => new SemanticChunker({ threshold: 120 })).toThrow(/threshold: 120/);
    expect(() => new SemanticChunker({ threshold: NaN })).toThrow(InvalidOptionError);
    expect(() => new SemanticChunker({ bufferSize: -1 })).toThrow(InvalidOptionError);
    expect(() => new SemanticChunker({ minChunkSize: 600, maxChunkSize: 500 })).toThrow(/minChunkSize: 600/);
    expect(() => new SemanticChunker({ embedder: {} as never })).toThrow(InvalidOptionError);
    await expect(new SemanticChunker().chunk(42 as never)).rejects.toBeInstanceOf(InvalidInputError);
    const bad = { dimension: 3, embed: async (texts: string[]) => new Float32Array(texts.length * 2) };
    await expect(new SemanticChunker({ embedder: bad }).chunk('One. Two.')).rejects.toThrow(/expected 2 × 3/);
  });
});

describe('SemanticChunker properties (stub embedder, generated text)', () => {
  const word = fc.constantFrom('alpha', 'beta', 'Gamma', 'delta', 'x', 'naïve', '😀', 'chunk', 'ok', '42', 'Über');
  const sep = fc.constantFrom(' ', ' ', ' ', '. ', '! ', '? ', '.\n', '\n\n', ', ', '  ');
  const doc = fc.array(fc.tuple(word, sep), { minLength: 0, maxLength: 120 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
  const options = fc.record({
    unit: fc.constantFrom('char', 'word', 'token') as fc.Arbitrary<'char' | 'word' | 'token'>,
    maxChunkSize: fc.integer({ min: 1, max: 60 }),
    minFrac: fc.double({ min: 0, max: 1, noNaN: true }),
    bufferSize: fc.integer({ min: 0, max: 2 }),
    breakpoint: fc.constantFrom('percentile', 'standardDeviation', 'interquartile', 'gradient') as fc.Arbitrary<'percentile'>,
    zero: fc.boolean(),
  });

  it('chunks are exact slices, in order, disjoint, cover every non-whitespace character, and hold maxChunkSize', async () => {
    await fc.assert(
      fc.asyncProperty(doc, options, async (text, o) => {
        const embedder = new StubEmbedder(8, (t) => (o.zero && t.length % 3 === 0 ? new Float32Array(8) : hashVector(t, 8)));
        const minChunkSize = Math.floor(o.minFrac * o.maxChunkSize);
        const chunker = new SemanticChunker({ embedder, unit: o.unit, maxChunkSize: o.maxChunkSize, minChunkSize, bufferSize: o.bufferSize, breakpoint: o.breakpoint });
        const chunks = await chunker.chunk(text);
        // slices, indices, nothing lost, unitCount, maxChunkSize unless flagged, tokenCount (shared checker)
        expectInvariants(text, chunks, { unit: o.unit, budget: o.maxChunkSize });
        let prevEnd = 0;
        for (const c of chunks) {
          expect(c.start).toBeGreaterThanOrEqual(prevEnd);
          expect(c.end).toBeGreaterThan(c.start);
          prevEnd = c.end;
          if (c.metadata.oversized) expect(o.unit).toBe('token'); // only a token unit can be indivisible past the budget
        }
      }),
      { numRuns: 150, seed: 5 },
    );
  });
});

describe('SemanticChunker on wikitexts.md with the default HashingEmbedder', () => {
  it('breaks at article boundaries (" = Title = " lines) more often than random cuts (×2 at least)', async () => {
    const text = readFileSync(join(corporaDir, 'wikitexts.md'), 'utf8');
    const chunks = await new SemanticChunker({ threshold: 95 }).chunk(text); // LangChain's percentile default (chunkwise's is 98)
    const s = sentenceSpans(text);
    const titleStarts = [...text.matchAll(/^ = [^=\n].* = *$/gm)].map((m) => m.index! + 1);
    const titleSentence = titleStarts.map((t) => s.starts.indexOf(t));
    expect(titleSentence.every((i) => i >= 0)).toBe(true); // each title line is a sentence of its own
    const boundaries = titleSentence.filter((i) => i > 0); // the first article starts the file
    // a break "at" an article boundary: the new chunk starts exactly at the title line
    const semanticBreaks = chunks.filter((c, k) => k > 0 && chunks[k - 1].metadata.breakValue !== undefined).map((c) => c.metadata.sentenceStart as number);
    const hits = semanticBreaks.filter((i) => boundaries.includes(i)).length;
    const rate = hits / semanticBreaks.length;
    // random cut: a uniformly random boundary between sentences (1 … n − 1) is an article boundary with this probability
    const randomRate = boundaries.length / (s.count - 1);
    const near = semanticBreaks.filter((i) => boundaries.some((b) => Math.abs(i - b) <= 1)).length;
    console.log(
      `wikitexts: ${chunks.length} chunks, ${semanticBreaks.length} semantic breaks, ${hits} at article boundaries ` +
        `(rate ${rate.toFixed(3)} vs random ${randomRate.toFixed(4)}, ×${(rate / randomRate).toFixed(1)}); ` +
        `${near} within ±1 sentence (random ${((3 * boundaries.length) / (s.count - 1)).toFixed(3)})`,
    );
    expect(rate).toBeGreaterThan(2 * randomRate);
    // the figures docs/semantic.md states (update both together)
    expect([chunks.length, semanticBreaks.length, hits, near]).toEqual([87, 51, 3, 6]);
    expectInvariants(text, chunks, { unit: 'token', budget: 512 });
    for (const c of chunks) expect(c.tokenCount).toBeLessThanOrEqual(512);
  }, 60_000);
});
