import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FixedSizeChunker, InvalidInputError, SlidingWindowChunker, type Chunk } from '../src/index.js';
import { contentId } from '../src/engine.js';
import { chunkStream, planWhole, streamPlan, type StreamPlan } from '../src/engine/stream/index.js';
import { Assembler, type PlannedChunk } from '../src/engine/assemble.js';
import { chunkCounters, resolveUnits } from '../src/engine/size/resolve.js';
import { corporaDir, sharedFiles } from './helpers/paths.js';
import { collect, splitAt, webStream } from './helpers/stream.js';

// text from an alphabet that exercises every unit rule: letters, digits, spaces, CRLF,
// tabs, punctuation, astral characters (surrogate pairs), lone surrogates, accented letters
const atoms = ['a', 'b', 'The', ' ', '  ', '\n', '\r\n', '\r', '\t', '.', ',', '7', '42', 'é', 'naïve', '😀', '𝔘', '\ud83d', '\ude00', '中文', "'s", '-', '\u00a0', 'x\n\ny'];
const textArb = fc.array(fc.constantFrom(...atoms), { minLength: 0, maxLength: 120 }).map((a) => a.join(''));
const cutsArb = fc.array(fc.nat({ max: 2000 }), { maxLength: 40 });

describe('streaming equals the whole-string call', () => {
  for (const unit of ['char', 'word', 'token'] as const) {
    it(`sliding, ${unit} units: random texts, random windows, random splits`, async () => {
      await fc.assert(
        fc.asyncProperty(
          textArb,
          cutsArb,
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 1, max: 12 }),
          fc.boolean(),
          async (text, cuts, windowSize, strideRaw, asWeb) => {
            const stride = Math.min(strideRaw, windowSize);
            const chunker = new SlidingWindowChunker({ unit, windowSize, stride });
            const whole = chunker.chunk(text);
            const pieces = splitAt(text, cuts);
            const streamed = await collect(chunker.chunkStream(asWeb ? webStream(pieces) : pieces));
            expect(streamed).toEqual(whole);
          },
        ),
        { numRuns: unit === 'token' ? 150 : 200 },
      );
    });
  }

  it('gaps allowed (stride > windowSize): still equal', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, cutsArb, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 15 }), fc.constantFrom('char', 'word', 'token' as const), async (text, cuts, windowSize, stride, unit) => {
        const chunker = new SlidingWindowChunker({ unit, windowSize, stride, allowGaps: true });
        expect(await collect(chunker.chunkStream(splitAt(text, cuts)))).toEqual(chunker.chunk(text));
      }),
      { numRuns: 200 },
    );
  });

  it('every pair of nearby cut positions of one text (char, word, token)', async () => {
    const text = 'RAG enhances LLMs.\r\nIt 😀 retrieves\u00a0data:  42, 1234567 naïve\n\ntext\ud83d end.';
    for (const unit of ['char', 'word', 'token'] as const) {
      const chunker = new FixedSizeChunker({ unit, chunkSize: 4, chunkOverlap: 1 });
      const whole = chunker.chunk(text);
      expect(whole.length).toBeGreaterThan(3);
      for (let cut = 0; cut <= text.length; cut++) {
        for (let cut2 = cut; cut2 <= Math.min(text.length, cut + 3); cut2++) {
          const pieces = [text.slice(0, cut), text.slice(cut, cut2), text.slice(cut2)];
          expect(await collect(chunker.chunkStream(pieces))).toEqual(whole);
        }
      }
    }
  });

  it('one code unit per piece on a real corpus (token units, 512/256) equals the whole string', async () => {
    const text = readFileSync(sharedFiles(corporaDir, '.md')[0], 'utf8').slice(0, 20000);
    const chunker = new SlidingWindowChunker({ unit: 'token', windowSize: 128, stride: 96 });
    const whole = chunker.chunk(text);
    expect(whole.length).toBeGreaterThan(10);
    expect(await collect(chunker.chunkStream(text.split('')))).toEqual(whole);
  });

  it('every corpus (first 60,000 characters) in 4 KiB pieces, fixed 512/64 tokens: equal', async () => {
    for (const file of sharedFiles(corporaDir, '.md')) {
      const text = readFileSync(file, 'utf8').slice(0, 60_000);
      const chunker = new FixedSizeChunker({ unit: 'token', chunkSize: 512, chunkOverlap: 64 });
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += 4096) pieces.push(text.slice(i, i + 4096));
      expect(await collect(chunker.chunkStream(webStream(pieces)))).toEqual(chunker.chunk(text));
    }
  });

  it('yields chunks before the stream ends', async () => {
    const chunker = new SlidingWindowChunker({ unit: 'word', windowSize: 5, stride: 3 });
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield `word${i} `;
      }
    }
    const it = chunker.chunkStream(source())[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value?.text).toBe('word0 word1 word2 word3 word4');
    expect(pulled).toBeLessThan(10);
    await it.return?.(undefined);
  });
});

describe('ids', () => {
  it('are content ids of each chunk text (worked example)', () => {
    const text = 'The quick brown fox jumps over the lazy dog';
    const chunks = new SlidingWindowChunker({ unit: 'word', windowSize: 8, stride: 4 }).chunk(text);
    expect(chunks.map((c) => c.id)).toEqual([contentId('The quick brown fox jumps over the lazy'), contentId('jumps over the lazy dog')]);
  });
  it('appending text keeps the ids of the chunks before', () => {
    const c = new SlidingWindowChunker({ unit: 'word', windowSize: 3, stride: 3 });
    const a = c.chunk('one two three four five six');
    const b = c.chunk('one two three four five six seven eight nine');
    expect(b.slice(0, 2)).toEqual(a.slice(0, 2));
  });
});

describe('chunkStream(), the stream driver and the assembler', () => {
  it('chunkStream uses a chunker without chunkStream by collecting the text', async () => {
    const inner = new SlidingWindowChunker({ unit: 'word', windowSize: 2, stride: 2 });
    const plain = { chunk: (t: string) => inner.chunk(t) };
    expect(await collect(chunkStream(plain, ['a b', ' c d e']))).toEqual(inner.chunk('a b c d e'));
  });

  it('the stream driver: a toy plan (one chunk per paragraph, breaks at blank lines) streams exactly its whole-text chunks', async () => {
    const units = resolveUnits({ unit: 'char', countTokens: false });
    const paragraphs = (text: string, final: boolean): { chunks: PlannedChunk[]; keep: number } => {
      const end = final ? text.length : text.lastIndexOf('\n\n') + 2; // the text before the last blank line is settled
      const chunks: PlannedChunk[] = [];
      if (end < 2 && !final) return { chunks, keep: 0 };
      for (const m of text.slice(0, end).matchAll(/[^\n]+(?:\n(?!\n)[^\n]*)*/g)) chunks.push({ start: m.index!, end: m.index! + m[0].length, metadata: { para: true } });
      return { chunks, keep: final ? 0 : end };
    };
    const plan: StreamPlan<null> = { initial: () => null, step: (text, _o, state, final) => ({ ...paragraphs(text, final), state }) };
    const text = 'alpha one\nalpha two\n\nbeta\n\ngamma 😀\n\n\ndelta';
    const whole = planWhole(text, plan, new Assembler({ strategy: 'toy', ...chunkCounters(units) }));
    expect(whole.map((c) => c.text)).toEqual(['alpha one\nalpha two', 'beta', 'gamma 😀', 'delta']);
    await fc.assert(
      fc.asyncProperty(cutsArb, async (cuts) => {
        const streamed = await collect(streamPlan(splitAt(text, cuts), plan, new Assembler({ strategy: 'toy', ...chunkCounters(units) })));
        expect(streamed).toEqual(whole);
        for (const c of streamed) expect(c.id).toBe(contentId(c.text));
      }),
    );
  });

  it('the assembler: spans whose ends are out of order (a parent before its children) get content ids', () => {
    const units = resolveUnits({ unit: 'char', countTokens: false });
    const text = 'first section\n\nsecond one 😀';
    const chunks = new Assembler({ strategy: 'toy', ...chunkCounters(units) }).add(text, [
      { start: 0, end: text.length },
      { start: 0, end: 7 },
      { start: 15, end: 22 },
    ]);
    expect(chunks.map((c) => [c.index, c.start, c.end, c.metadata.overlap])).toEqual([[0, 0, 28, 0], [1, 0, 7, 28], [2, 15, 22, 13]]);
    for (const c of chunks) {
      expect(c.text).toBe(text.slice(c.start, c.end));
      expect(c.id).toBe(contentId(c.text));
    }
  });

  it('bad sources and pieces give InvalidInputError', async () => {
    const c = new SlidingWindowChunker({ unit: 'word', windowSize: 2, stride: 1 });
    await expect(collect(c.chunkStream('a string' as never))).rejects.toThrow(InvalidInputError);
    await expect(collect(c.chunkStream(42 as never))).rejects.toThrow(/ReadableStream/);
    await expect(collect(c.chunkStream(['ok', 7 as never]))).rejects.toThrow(/got 7/);
  });
});
