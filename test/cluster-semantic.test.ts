/**
 * ClusterSemanticChunker (src/strategies/cluster-semantic/cluster-semantic.ts): a worked example with the
 * DP computed by hand, the SPEC section 4 invariants as properties, stream = whole-text
 * call, real documents, a non-monotone tokenizer, options and errors. The GloVe
 * topic-change tests are in test/glove-semantic.test.ts.
 */
import { countWords } from '../src/engine/size/words.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClusterSemanticChunker, EmbeddingError, HashingEmbedder, InvalidInputError, InvalidOptionError, createChunker, getTokenizer, type Chunk, type Tokenizer } from '../src/index.js';
import { DEFAULT_SECTION_SIZE } from '../src/strategies/cluster-semantic/cluster-semantic.js';
import { ContentIds } from '../src/engine/ids.js';
import { LONG_LINE } from '../src/engine/boundaries/sections.js';
import { corporaDir } from './helpers/paths.js';
import { rng } from './helpers/random.js';
import { collect, oneLineChinese, splitAt, streamReading } from './helpers/stream.js';
import { StubEmbedder, hashVector } from './helpers/stub-embedders.js';
import type { Work } from '../src/engine/work.js';

const isSpace = (c: string) => /\s/.test(c);

/** SPEC section 4 invariants of a chunk list over `text`, and the chunker's own. */
function expectInvariants(text: string, chunks: Chunk[], maxChunkSize: number, count: (t: string) => number): void {
  let prevEnd = 0;
  let piece = 0;
  const covered = new Uint8Array(text.length);
  const ids = new ContentIds();
  chunks.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(c.text).toBe(text.slice(c.start, c.end));
    expect(c.start).toBeGreaterThanOrEqual(prevEnd);
    expect(c.end).toBeGreaterThan(c.start);
    expect(isSpace(c.text[0]) || isSpace(c.text[c.text.length - 1])).toBe(false);
    expect(c.id).toBe(ids.id(c.text, c.embedText));
    expect(c.metadata.strategy).toBe('cluster-semantic');
    expect(c.metadata.overlap).toBe(0);
    expect(c.metadata.unitCount).toBe(count(c.text));
    if (c.metadata.unitCount > maxChunkSize) {
      expect(c.metadata.oversized).toBe(true);
      expect((c.metadata.pieceEnd as number) - (c.metadata.pieceStart as number)).toBe(1);
    } else expect(c.metadata.oversized).toBeUndefined();
    expect(c.metadata.pieceStart).toBe(piece);
    expect(c.metadata.pieceEnd as number).toBeGreaterThan(piece);
    piece = c.metadata.pieceEnd as number;
    covered.fill(1, c.start, c.end);
    prevEnd = c.end;
  });
  for (let i = 0; i < text.length; i++) if (!covered[i] && !isSpace(text[i])) throw new Error(`character ${i} (${JSON.stringify(text[i])}) is in no chunk`);
}

/** Texts with paragraphs, lines, sentences, long words, CJK, emoji and CRLF. */
const textArb = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'rivers', 'carry', 'silt', 'markets', 'fell', 'sharply') },
      { weight: 2, arbitrary: fc.constantFrom('.', ',', '!', '?') },
      { weight: 4, arbitrary: fc.constantFrom(' ', ' ', '\n', '\n\n', '\r\n\r\n', '  \n \n') },
      { weight: 1, arbitrary: fc.constantFrom('😀', '👩‍👩‍👧', 'é', '東京は。', 'x'.repeat(90)) },
    ),
    { maxLength: 160 },
  )
  .map((parts) => parts.join(''));

describe('ClusterSemanticChunker: worked example (hand-computed DP)', () => {
  // Four two-word paragraphs, one piece each (unit word, pieceSize 3: two paragraphs would be 4 words).
  // Unit vectors chosen per piece: v0 = (1, 0), v1 = (0.96, 0.28), v2 = (0.28, 0.96), v3 = (0, 1).
  // S01 = 0.96, S02 = 0.28, S03 = 0, S12 = 0.5376, S13 = 0.28, S23 = 0.96; μ = 3.0176 / 6 = 0.502933…
  // M = S − μ: M01 = 0.457067, M02 = −0.222933, M03 = −0.502933, M12 = 0.034667, M13 = −0.222933, M23 = 0.457067.
  // maxChunkSize 6 words: at most three pieces. reward(j, i) = 2·Σ_{j≤a<b≤i} M(a, b).
  // dp0 = 0.
  // dp1: [1] + dp0 = 0; [0,1] = 2·M01 = 0.914133 → 0.914133 (start 0).
  // dp2: [2] + dp1 = 0.914133; [1,2] + dp0 = 2·M12 = 0.069333; [0,2] = 2·(M01 + M02 + M12) = 0.5376 → 0.914133 (start 2).
  // dp3: [3] + dp2 = 0.914133; [2,3] + dp1 = 2·M23 + 0.914133 = 1.828267; [1,3] = 2·(M12 + M13 + M23) = 0.5376 → 1.828267 (start 2).
  // Backtrack: [2, 3], then [0, 1]; the three-piece chunks [0, 2] and [1, 3] (0.5376 each) lose to two pairs.
  const text = 'cats purr\n\nkittens meow\n\nstocks fell\n\nbonds rose';
  const vectors: Record<string, number[]> = { cats: [1, 0], kittens: [0.96, 0.28], stocks: [0.28, 0.96], bonds: [0, 1] };
  const embedder = () => new StubEmbedder(2, (t) => vectors[t.split(' ')[0]]);
  const mu = (0.96 + 0.28 + 0 + 0.5376 + 0.28 + 0.96) / 6;

  it('chooses [cats, kittens] [stocks, bonds] with the rewards computed by hand', async () => {
    const e = embedder();
    const chunker = new ClusterSemanticChunker({ unit: 'word', pieceSize: 3, maxChunkSize: 6, embedder: e });
    const work = {};
    const chunks = await chunker.chunk(text, { work });
    expect(e.texts).toEqual(['cats purr', 'kittens meow', 'stocks fell', 'bonds rose']);
    expect(chunks.map((c) => [c.start, c.end, c.text])).toEqual([
      [0, 23, 'cats purr\n\nkittens meow'],
      [25, 48, 'stocks fell\n\nbonds rose'],
    ]);
    expect(chunks.map((c) => [c.metadata.pieceStart, c.metadata.pieceEnd, c.metadata.unitCount, c.metadata.section])).toEqual([
      [0, 2, 4, 0],
      [2, 4, 4, 0],
    ]);
    for (const c of chunks) {
      expect(c.metadata.reward as number).toBeCloseTo(2 * (0.96 - mu), 5); // 0.914133
      expect(c.metadata.meanSimilarity as number).toBeCloseTo(0.96, 5);
    }
    expect(work).toEqual({ pieces: 4, bandWidth: 3, bandCells: 12, measurements: expect.any(Number) });
  });

  it('maxChunkSize 2 words: every piece alone; 8 words and maxPieces 3: still two pairs', async () => {
    const one = await new ClusterSemanticChunker({ unit: 'word', pieceSize: 2, maxChunkSize: 2, embedder: embedder() }).chunk(text);
    expect(one.map((c) => c.text)).toEqual(['cats purr', 'kittens meow', 'stocks fell', 'bonds rose']);
    expect(one.every((c) => c.metadata.reward === 0 && c.metadata.meanSimilarity === undefined)).toBe(true);
    // [0, 3] would be 2·(M01 + M02 + M03 + M12 + M13 + M23) = 0 exactly (μ is the mean), below 1.828267
    const all = await new ClusterSemanticChunker({ unit: 'word', pieceSize: 3, maxChunkSize: 8, embedder: embedder() }).chunk(text);
    expect(all.map((c) => c.text)).toEqual(['cats purr\n\nkittens meow', 'stocks fell\n\nbonds rose']);
    const capped = new ClusterSemanticChunker({ unit: 'word', pieceSize: 3, maxChunkSize: 8, maxPieces: 3, embedder: embedder() });
    const cappedWork = { bandWidth: 0 };
    expect((await capped.chunk(text, { work: cappedWork })).map((c) => c.text)).toEqual(['cats purr\n\nkittens meow', 'stocks fell\n\nbonds rose']);
    expect(cappedWork.bandWidth).toBe(3);
  });

  it('a different similarity moves the boundary: kittens closer to stocks than to cats', async () => {
    // v1 = (0.28, 0.96): S01 = 0.28, S12 = 0.8736, S13 = 0.96 → [cats] [kittens, stocks, bonds]
    const moved: Record<string, number[]> = { ...vectors, kittens: [0.28, 0.96] };
    const e = new StubEmbedder(2, (t) => moved[t.split(' ')[0]]);
    const chunks = await new ClusterSemanticChunker({ unit: 'word', pieceSize: 3, maxChunkSize: 6, embedder: e }).chunk(text);
    expect(chunks.map((c) => c.text)).toEqual(['cats purr', 'kittens meow\n\nstocks fell\n\nbonds rose']);
  });
});

describe('ClusterSemanticChunker: invariants', () => {
  // words as word units count them: `\S+` runs, runs in scripts without spaces split at Unicode word boundaries
  const wordCount = countWords;

  it('exact slices, in order, trimmed, nothing lost, budgets on the exact text, prefix ids (words and tokens)', async () => {
    const tokenizer = getTokenizer('cl100k_base');
    await fc.assert(
      fc.asyncProperty(
        textArb,
        fc.constantFrom<'word' | 'token'>('word', 'token'),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(8, 30, Infinity),
        async (text, unit, pieceSize, factor, sectionSize) => {
          const maxChunkSize = pieceSize * factor;
          const chunker = new ClusterSemanticChunker({ unit, pieceSize, maxChunkSize, sectionSize, embedder: new StubEmbedder(8, (t) => hashVector(t, 8)) });
          const chunks = await chunker.chunk(text);
          expectInvariants(text, chunks, maxChunkSize, unit === 'word' ? wordCount : (t) => tokenizer.count(t));
          expect(await chunker.chunk(text)).toEqual(chunks);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it('chunkStream equals chunk for any split of the text and any section size', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, fc.array(fc.nat(), { maxLength: 6 }), fc.constantFrom(3, 10, 40, Infinity), async (text, cuts, sectionSize) => {
        const chunker = new ClusterSemanticChunker({ pieceSize: 6, maxChunkSize: 20, sectionSize, embedder: new StubEmbedder(8, (t) => hashVector(t, 8)) });
        const whole = await chunker.chunk(text);
        const streamed = await collect(chunker.chunkStream(splitAt(text, cuts.map((c) => (text.length ? c % (text.length + 1) : 0)))));
        expect(streamed).toEqual(whole);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('sections: a chunk never crosses a section end; sections end after a blank line once full, else after the line that made them full', async () => {
    // unit word, sectionSize 4: lines of 2 words
    const text = 'a b\nc d\ne f\n\ng h\ni j\nk l\nm n\no p\nq r\n';
    const chunker = new ClusterSemanticChunker({ unit: 'word', pieceSize: 2, maxChunkSize: 40, sectionSize: 4, embedder: new StubEmbedder(2, () => [1, 0]) });
    const chunks = await chunker.chunk(text);
    // section 0: "a b", "c d" (full at 4) — a blank line follows after "e f" (6 < 8) → ends after the blank line;
    // section 1: "g h", "i j" (full), "k l", "m n" (8 = 2·4, no blank line) → ends after "i j";
    // section 2: "k l", "m n" (full), "o p", "q r" (8) → ends after "m n"; section 3: "o p q r" (without the
    // final line break "q r" would be incomplete, and "k l" … "q r" one section).
    // Equal vectors (S = μ everywhere): every segmentation of a section scores 0, ties to one-piece chunks… so
    // check the sections through the chunks' section index instead of their grouping.
    const bySection = new Map<number, string[]>();
    for (const c of chunks) bySection.set(c.metadata.section as number, [...(bySection.get(c.metadata.section as number) ?? []), c.text]);
    expect([...bySection.values()].map((v) => v.join(' '))).toEqual(['a b c d e f', 'g h i j', 'k l m n', 'o p q r']);
    // one character at a time, and with \r\n split between pieces
    expect(await collect(chunker.chunkStream([...text]))).toEqual(chunks);
    const crlf = text.replace(/\n/g, '\r\n');
    expect(await collect(chunker.chunkStream([...crlf]))).toEqual(await chunker.chunk(crlf));
  });

  it('one long word: pieces of pieceSize tokens, a bounded number of characters tokenized per character', async () => {
    // 'a' × n is n / 8 tokens: pieces of 50 tokens are 400 letters (they were 50 letters,
    // 7 tokens, each letter counted as a token), so a chunk's span of 400 tokens holds 8
    // pieces, not 64, and sizing the spans tokenized ~21 characters per character, not ~130
    const runs: Array<{ n: number; pieces: number; chars: number }> = [];
    for (const n of [32_768, 65_536, 131_072]) {
      const inner = getTokenizer('cl100k_base');
      let chars = 0;
      const tokenizer: Tokenizer = {
        encoding: inner.encoding,
        encode: (t) => ((chars += t.length), inner.encode(t)),
        count: (t) => ((chars += t.length), inner.count(t)),
        encodeWithOffsets: (t) => ((chars += t.length), inner.encodeWithOffsets(t)),
        decode: (ids) => inner.decode(ids),
      };
      const chunker = new ClusterSemanticChunker({ tokenizer, embedder: new StubEmbedder(4, (t) => hashVector(t, 4)) });
      const work = { pieces: 0 };
      const chunks = await chunker.chunk('a'.repeat(n), { work });
      expect(chunks[0]).toMatchObject({ start: 0, end: 3200, tokenCount: 400 });
      expect(Math.max(...chunks.map((c) => c.metadata.unitCount))).toBe(400);
      runs.push({ n, pieces: work.pieces, chars });
    }
    expect(runs.map((r) => r.pieces)).toEqual([82, 164, 328]);
    for (const r of runs) expect(r.chars / r.n).toBeLessThan(25);
    for (let i = 1; i < runs.length; i++) expect(runs[i].chars / runs[i - 1].chars).toBeLessThan(2.2);
  }, 60_000);

  it('linear work: four times the text, four times the pieces and size measurements; the band stays narrow', async () => {
    const unit = readFileSync(join(corporaDir, 'pubmed.md'), 'utf8').slice(0, 100_000);
    const counts: Array<{ chars: number; work: Work }> = [];
    for (const copies of [1, 4]) {
      const chunker = new ClusterSemanticChunker({ maxChunkSize: 200, embedder: new StubEmbedder(4, (t) => hashVector(t, 4)) });
      const work: Work = {};
      await chunker.chunk(unit.repeat(copies), { work });
      counts.push({ chars: unit.length * copies, work });
    }
    const [a, b] = counts;
    expect(b.work.pieces / a.work.pieces).toBeCloseTo(4, 0);
    expect(b.work.measurements / a.work.measurements).toBeLessThan(4.4);
    expect(b.work.measurements / b.work.pieces).toBeLessThan(6);
    expect(b.work.bandWidth).toBeLessThanOrEqual(2 * (200 / 50) + 4);
  }, 60_000);
});

describe('ClusterSemanticChunker: real documents', () => {
  const sotu = readFileSync(join(corporaDir, 'state_of_the_union.md'), 'utf8');

  it('state_of_the_union, 200 tokens: invariants, stream = whole, and chunks come before the stream ends', async () => {
    const tokenizer = getTokenizer('cl100k_base');
    const chunker = new ClusterSemanticChunker({ maxChunkSize: 200 });
    const chunks = await chunker.chunk(sotu);
    expectInvariants(sotu, chunks, 200, (t) => tokenizer.count(t));
    expect(chunks.length).toBeGreaterThan(sotu.length / 4 / 200);
    expect(new Set(chunks.map((c) => c.metadata.section)).size).toBeGreaterThan(2);
    const r = rng(5);
    const cuts = Array.from({ length: 40 }, () => Math.floor(r() * sotu.length)).sort((x, y) => x - y);
    expect(await collect(chunker.chunkStream(splitAt(sotu, cuts)))).toEqual(chunks);
    // bounded: the first chunk is yielded while most of the text has not been read yet
    let read = 0;
    async function* pieces() {
      for (let i = 0; i < sotu.length; i += 1000) {
        read = i + 1000;
        yield sotu.slice(i, i + 1000);
      }
    }
    for await (const first of chunker.chunkStream(pieces())) {
      expect(first).toEqual(chunks[0]);
      break;
    }
    expect(read).toBeLessThan(sotu.length / 3);
  }, 60_000);

  it('the registry builds it; chunkSize maps to maxChunkSize; defaults as documented', async () => {
    const c = createChunker('cluster-semantic', { chunkSize: 200 }) as ClusterSemanticChunker;
    expect(c).toBeInstanceOf(ClusterSemanticChunker);
    expect([c.maxChunkSize, c.pieceSize, c.maxPieces, c.sectionSize]).toEqual([200, 50, Infinity, DEFAULT_SECTION_SIZE]);
    expect(new ClusterSemanticChunker().maxChunkSize).toBe(400);
    expect(c.embedder).toBeInstanceOf(HashingEmbedder);
  });
});

describe('ClusterSemanticChunker: a tokenizer that counts a shorter span as larger', () => {
  // words are tokens, but a text that starts with "X" and holds a paragraph break counts 3 more
  const words = (t: string) => [...t.matchAll(/\S+/g)];
  const odd: Tokenizer = {
    encoding: 'odd',
    count: (t) => words(t).length + (t.startsWith('X') && t.includes('\n\n') ? 3 : 0),
    encode: (t) => new Uint32Array(odd.count(t)),
    encodeWithOffsets: (t) => {
      const m = words(t);
      return { ids: new Uint32Array(m.length), starts: Int32Array.from(m, (x) => x.index!), ends: Int32Array.from(m, (x) => x.index! + x[0].length) };
    },
    decode: () => '',
  };

  it('cuts an over-budget chunk at pieces again, so no chunk exceeds maxChunkSize', async () => {
    const text = 'a b\n\nX c\n\nd e';
    // "a b … d e" counts 6 ≤ 6, so the two-pointer scan allows chunks [0..2] and, assuming sizes grow with the
    // span, [1..2]; the DP picks [X c, d e] (similar), which counts 4 + 3 = 7 > 6: it is cut into [X c] and [d e]
    const e = new StubEmbedder(2, (t) => (t.startsWith('a') ? [1, 0] : [0, 1]));
    const chunks = await new ClusterSemanticChunker({ unit: 'token', tokenizer: odd, pieceSize: 3, maxChunkSize: 6, embedder: e }).chunk(text);
    expect(chunks.map((c) => [c.text, c.metadata.unitCount])).toEqual([
      ['a b', 2],
      ['X c', 2],
      ['d e', 2],
    ]);
    expect(chunks.map((c) => [c.metadata.pieceStart, c.metadata.pieceEnd])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
  });
});

describe('ClusterSemanticChunker: options and errors', () => {
  it('rejects bad options at construction, naming them', () => {
    expect(() => new ClusterSemanticChunker({ maxChunkSize: 0 })).toThrow(InvalidOptionError);
    expect(() => new ClusterSemanticChunker({ maxChunkSize: 1.5 })).toThrow(/maxChunkSize/);
    expect(() => new ClusterSemanticChunker({ maxChunkSize: 40, pieceSize: 50 })).toThrow(/pieceSize: 50 \(must be ≤ maxChunkSize \(40\)\)/);
    expect(() => new ClusterSemanticChunker({ pieceSize: -1 })).toThrow(/pieceSize/);
    expect(() => new ClusterSemanticChunker({ maxPieces: 0 })).toThrow(/maxPieces/);
    expect(() => new ClusterSemanticChunker({ sectionSize: NaN })).toThrow(/sectionSize/);
    expect(() => new ClusterSemanticChunker({ sectionSize: -Infinity })).toThrow(/sectionSize/);
    expect(() => new ClusterSemanticChunker({ embedder: {} as never })).toThrow(/embedder/);
    expect(() => new ClusterSemanticChunker({ unit: 'line' as never })).toThrow(/unit/);
    expect((createChunker('cluster-semantic', { chunkSize: 20 }) as ClusterSemanticChunker).pieceSize).toBe(20);
  });

  it('blank text gives no chunks and no embedding; bad input and bad embedders give typed errors', async () => {
    const e = new StubEmbedder(2, () => [1, 0]);
    const chunker = new ClusterSemanticChunker({ embedder: e });
    expect(await chunker.chunk('')).toEqual([]);
    expect(await chunker.chunk(' \n\n \t')).toEqual([]);
    expect(await collect(chunker.chunkStream([' ', '\n']))).toEqual([]);
    expect(e.calls).toBe(0);
    await expect(chunker.chunk(42 as never)).rejects.toThrow(InvalidInputError);
    await expect(collect(chunker.chunkStream('text' as never))).rejects.toThrow(InvalidInputError);
    const short = { dimension: 4, embed: async (texts: string[]) => new Float32Array(texts.length * 4 - 1) };
    const long = 'one two three. '.repeat(40);
    await expect(new ClusterSemanticChunker({ embedder: short, maxChunkSize: 50, pieceSize: 10 }).chunk(long)).rejects.toThrow(EmbeddingError);
    const failing = { dimension: 4, embed: async () => Promise.reject(new EmbeddingError('model failed')) };
    await expect(new ClusterSemanticChunker({ embedder: failing, maxChunkSize: 50, pieceSize: 10 }).chunk(long)).rejects.toThrow('model failed');
  });

  it('one piece: one chunk, no embedding call', async () => {
    const e = new StubEmbedder(2, () => [1, 0]);
    const chunks = await new ClusterSemanticChunker({ embedder: e }).chunk('  Just one short sentence.  ');
    expect(chunks.map((c) => [c.text, c.start, c.metadata.reward])).toEqual([['Just one short sentence.', 2, 0]]);
    expect(e.calls).toBe(0);
  });

  it('zero and NaN vectors do not break the DP (every chunk still valid)', async () => {
    const text = 'alpha beta. gamma delta. '.repeat(30);
    for (const v of [[0, 0], [NaN, 1]]) {
      const chunks = await new ClusterSemanticChunker({ unit: 'word', pieceSize: 4, maxChunkSize: 12, embedder: new StubEmbedder(2, () => v) }).chunk(text);
      expectInvariants(text, chunks, 12, (t) => (t.match(/\S+/g) ?? []).length);
    }
  });
});

describe('ClusterSemanticChunker: text without line breaks (issue 38)', () => {
  it('a line over LONG_LINE code units ends a section inside it: a one-line stream yields its first chunk within 2 x LONG_LINE, equal to chunk()', async () => {
    const text = oneLineChinese(3 * LONG_LINE);
    for (const unit of ['char', 'token'] as const) {
      const chunker = new ClusterSemanticChunker({ unit, maxChunkSize: 200, embedder: new StubEmbedder(8, (t) => hashVector(t, 8)) });
      const { chunks: streamed, firstAt } = await streamReading(text, (source) => chunker.chunkStream(source));
      expect(firstAt).toBeGreaterThan(LONG_LINE);
      expect(firstAt).toBeLessThanOrEqual(2 * LONG_LINE);
      expect(streamed).toEqual(await chunker.chunk(text));
      expect(new Set(streamed.map((c) => c.metadata.section)).size).toBeGreaterThanOrEqual(3);
    }
  });
});
