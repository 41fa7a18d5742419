/**
 * RecursiveChunker (src/strategies/recursive/recursive.ts): worked examples, the traps of issue 3
 * (repeated text, budgets on the emitted text, grapheme last resort, advancing with
 * large pieces, overlap ≥ size, CRLF / lone CR, linear time) and properties over
 * generated text: offsets slice back, nothing lost, budgets hold, deterministic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectInvariants } from './helpers/invariants.js';
import {
  getTokenizer,
  InvalidInputError,
  InvalidOptionError,
  RecursiveChunker,
  type Chunk,
  type RecursiveOptions,
} from '../src/index.js';

const spans = (chunks: Chunk[]): Array<[number, number]> => chunks.map((c) => [c.start, c.end]);
const texts = (chunks: Chunk[]): string[] => chunks.map((c) => c.text);
const cl100k = getTokenizer('cl100k_base');

/** Every invariant of SPEC section 4 for one chunking (the shared checker), plus the recursive chunker's own. */
function checkInvariants(text: string, chunks: Chunk[], o: RecursiveOptions & { chunkSize: number }): void {
  expectInvariants(text, chunks, {
    unit: o.unit ?? 'token',
    budget: o.chunkSize,
    tokenCounts: o.countTokens,
    skip: { repeat: 'a large chunkOverlap repeats the last chunk as LangChain does (it.fails in test/conformance.test.ts)' },
  });
  let prevStart = -1;
  for (const c of chunks) {
    expect(c.text.trim()).toBe(c.text); // trimmed, never blank
    // in order; as in LangChain, a chunk trimmed at its start may share its start with the next
    expect(c.start).toBeGreaterThanOrEqual(prevStart);
    prevStart = c.start;
    // only one grapheme cluster may exceed the budget
    if (c.metadata.oversized) expect([...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(c.text)]).toHaveLength(1);
  }
}

describe('worked examples', () => {
  it('splits on the paragraph break only, then trims (char units)', () => {
    const text = 'Hello world.\n\nSecond para here.';
    const chunks = new RecursiveChunker({ unit: 'char', chunkSize: 20, chunkOverlap: 0 }).chunk(text);
    expect(spans(chunks)).toEqual([[0, 12], [14, 31]]);
    expect(texts(chunks)).toEqual(['Hello world.', 'Second para here.']);
    expect(chunks[1].metadata).toMatchObject({ strategy: 'recursive', unit: 'char', unitCount: 17, overlap: 0, separatorLevel: 0 });
  });

  it('merges small pieces back up to the budget and overlaps by whole pieces', () => {
    // line pieces: "aaaa" (4), "\nbbbb" (5), "\ncccc" (5), "\ndddd" (5)
    const text = 'aaaa\nbbbb\ncccc\ndddd';
    const chunks = new RecursiveChunker({ unit: 'char', chunkSize: 10, chunkOverlap: 5 }).chunk(text);
    expect(texts(chunks)).toEqual(['aaaa\nbbbb', 'bbbb\ncccc', 'cccc\ndddd']);
    expect(spans(chunks)).toEqual([[0, 9], [5, 14], [10, 19]]);
    expect(chunks.map((c) => c.metadata.overlap)).toEqual([0, 4, 4]);
  });

  it('sentence ends split a long line before spaces do; CJK ends without a space', () => {
    const text = 'First one here. Second one! Third?';
    expect(texts(new RecursiveChunker({ unit: 'char', chunkSize: 16, chunkOverlap: 0 }).chunk(text))).toEqual([
      'First one here.',
      'Second one!',
      'Third?',
    ]);
    expect(texts(new RecursiveChunker({ unit: 'char', chunkSize: 5, chunkOverlap: 0 }).chunk('你好。我很好！真的？'))).toEqual([
      '你好。',
      '我很好！',
      '真的？',
    ]);
  });

  it("keepSeparator 'end' keeps the separator on the piece before; false keeps it out of chunk edges", () => {
    const text = 'a, b, c, d';
    const end = new RecursiveChunker({ unit: 'char', chunkSize: 4, chunkOverlap: 0, separators: [', ', ''], keepSeparator: 'end' });
    expect(texts(end.chunk(text))).toEqual(['a,', 'b,', 'c, d']); // pieces "a, " "b, " "c, " "d"
    const start = new RecursiveChunker({ unit: 'char', chunkSize: 4, chunkOverlap: 0, separators: [', ', ''] });
    expect(texts(start.chunk(text))).toEqual(['a, b', ', c', ', d']); // pieces "a" ", b" ", c" ", d"
    const none = new RecursiveChunker({ unit: 'char', chunkSize: 4, chunkOverlap: 0, separators: ['\n', ''], keepSeparator: false });
    expect(texts(none.chunk('ab\ncd\n\n\nef'))).toEqual(['ab', 'cd', 'ef']);
  });
});

describe('traps', () => {
  it('repeated text: offsets are tracked, never searched (each copy gets its own span)', () => {
    const text = 'same line\n'.repeat(10);
    const chunks = new RecursiveChunker({ unit: 'char', chunkSize: 20, chunkOverlap: 10 }).chunk(text);
    expect(texts(chunks)).toEqual([...Array(9).fill('same line\nsame line'), 'same line']);
    expect(chunks.map((c) => c.start)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it('budgets are measured on the emitted text: BPE merging across joins never exceeds the token budget', () => {
    // "=" runs and digits merge differently when joined than apart
    const text = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? '='.repeat(1 + (i % 7)) : String(i * 7919))).join(' ');
    for (const chunkSize of [3, 5, 8, 13]) {
      const chunks = new RecursiveChunker({ unit: 'token', chunkSize, chunkOverlap: 1 }).chunk(text);
      checkInvariants(text, chunks, { unit: 'token', chunkSize });
      for (const c of chunks) expect(c.tokenCount).toBe(cl100k.count(c.text));
    }
  });

  it('a term longer than the budget with no separator is cut on grapheme clusters', () => {
    const thumbs = '👍🏽'.repeat(6); // 2 code points each
    const chunks = new RecursiveChunker({ unit: 'char', chunkSize: 3, chunkOverlap: 0 }).chunk(thumbs);
    expect(texts(chunks)).toEqual(Array(6).fill('👍🏽'));
    const accents = 'e\u0301'.repeat(5) + 'x';
    expect(texts(new RecursiveChunker({ unit: 'char', chunkSize: 5, chunkOverlap: 0 }).chunk(accents))).toEqual([
      'e\u0301e\u0301',
      'e\u0301e\u0301',
      'e\u0301x',
    ]);
    // a cluster alone over the token budget is kept whole and flagged
    const family = new RecursiveChunker({ unit: 'token', chunkSize: 2, chunkOverlap: 0 }).chunk('👨‍👩‍👧‍👦👨‍👩‍👧‍👦');
    expect(texts(family)).toEqual(['👨‍👩‍👧‍👦', '👨‍👩‍👧‍👦']);
    expect(family.every((c) => c.metadata.oversized === true && c.tokenCount > 2)).toBe(true);
  });

  it('a piece exactly at the budget is one chunk, also at chunkSize 1', () => {
    // LangChain's _splitText splits a piece of exactly chunkSize: 'individual' (one token) gave ten letters
    const one = (unit: 'token' | 'word' | 'char', text: string) => texts(new RecursiveChunker({ unit, chunkSize: 1, chunkOverlap: 0 }).chunk(text));
    expect(cl100k.count('individual')).toBe(1);
    expect(one('token', 'individual')).toEqual(['individual']);
    expect(one('token', 'hello world')).toEqual(['hello', 'world']);
    expect(one('word', 'hello world')).toEqual(['hello', 'world']);
    expect(one('word', 'individual')).toEqual(['individual']);
    expect(one('char', 'ab')).toEqual(['a', 'b']);
    // a paragraph of exactly the budget in words stays whole beside its neighbours
    const text = 'one two three\n\nfour five six seven\n\neight';
    expect(texts(new RecursiveChunker({ unit: 'word', chunkSize: 4, chunkOverlap: 0 }).chunk(text))).toEqual(['one two three', 'four five six seven', 'eight']);
  });

  it('advances when pieces are longer than chunkSize − chunkOverlap', () => {
    const text = Array.from({ length: 40 }, (_, i) => `w${String(i).padStart(7, '0')}`).join(' '); // 8-char words
    const chunks = new RecursiveChunker({ unit: 'char', chunkSize: 10, chunkOverlap: 8 }).chunk(text);
    expect(chunks).toHaveLength(40);
    checkInvariants(text, chunks, { unit: 'char', chunkSize: 10 });
  });

  it('chunkOverlap ≥ chunkSize and other bad options are typed errors at construction', () => {
    expect(() => new RecursiveChunker({ chunkSize: 10, chunkOverlap: 10 })).toThrow(InvalidOptionError);
    expect(() => new RecursiveChunker({ chunkSize: 10, chunkOverlap: 11 })).toThrow(/chunkOverlap: 11/);
    expect(() => new RecursiveChunker({ chunkSize: 0 })).toThrow(InvalidOptionError);
    expect(() => new RecursiveChunker({ chunkSize: 1.5 })).toThrow(InvalidOptionError);
    expect(() => new RecursiveChunker({ separators: [] })).toThrow(InvalidOptionError);
    expect(() => new RecursiveChunker({ separators: [{ kind: 'word' } as never] })).toThrow(/separators/);
    expect(() => new RecursiveChunker({ keepSeparator: 'yes' as never })).toThrow(/keepSeparator: "yes"/);
    expect(() => new RecursiveChunker({ separators: [',', ''], keepSeparator: false })).toThrow(/would be lost/);
    expect(() => new RecursiveChunker({ unit: 'byte' as never })).toThrow(InvalidOptionError);
    expect(() => new RecursiveChunker().chunk(42 as never)).toThrow(InvalidInputError);
    expect(new RecursiveChunker().chunk(' \n\t ')).toEqual([]);
  });

  it('CRLF and lone CR give the same structure as LF, offsets into the original, no cut inside CR LF', () => {
    const lf = Array.from({ length: 60 }, (_, i) => (i % 7 === 6 ? '' : `line ${i} has a few words in it`)).join('\n');
    const opts = { unit: 'word' as const, chunkSize: 12, chunkOverlap: 3 };
    const base = new RecursiveChunker(opts).chunk(lf);
    for (const eol of ['\r\n', '\r']) {
      const text = lf.replace(/\n/g, eol);
      const chunks = new RecursiveChunker(opts).chunk(text);
      expect(chunks.map((c) => c.text.replace(/\r\n?/g, '\n'))).toEqual(texts(base));
      for (const c of chunks) {
        expect(text.slice(c.start, c.end)).toBe(c.text);
        expect(text[c.start - 1] === '\r' && text[c.start] === '\n').toBe(false);
        expect(text[c.end - 1] === '\r' && text[c.end] === '\n').toBe(false);
      }
    }
    // the last resort never cuts CR LF either
    const tight = new RecursiveChunker({ unit: 'char', chunkSize: 2, chunkOverlap: 0, separators: [''] }).chunk('a\r\nb\r\n\r\nc');
    expect(texts(tight)).toEqual(['a', 'b', 'c']);
  });

  it('runs in linear time: thousands of lines and one paragraph break at the very end', () => {
    const ops: number[] = [];
    const times: number[] = [];
    for (const lines of [4000, 8000, 16000, 32000]) {
      const text = 'a short line of text\n'.repeat(lines) + '\n\nend';
      const chunker = new RecursiveChunker({ unit: 'char', chunkSize: 2000, chunkOverlap: 1000, countTokens: false });
      const t0 = performance.now();
      const work = { operations: 0 };
      const chunks = chunker.chunk(text, { work });
      times.push(performance.now() - t0);
      ops.push(work.operations);
      expect(chunks.at(-1)!.text.endsWith('end')).toBe(true);
    }
    for (let i = 1; i < ops.length; i++) expect(ops[i] / ops[i - 1]).toBeLessThan(2.3);
    // a generous time ratio as well: 8× the input well under 8² the time
    expect(times[3] / Math.max(times[0], 1)).toBeLessThan(24);
  });

  it('the last resort in tokens packs runs of whole tokens, not one token per letter', () => {
    // cl100k_base encodes 'aaaaaaaa' as one token: 8192 letters are 1024 tokens. Summing
    // each letter's own count (1) held 512 letters, 64 tokens, per 512-token chunk.
    const text = 'a'.repeat(8192);
    const chunks = new RecursiveChunker({ chunkSize: 512, chunkOverlap: 64 }).chunk(text);
    expect(chunks.map((c) => [c.start, c.end, c.tokenCount])).toEqual([
      [0, 4096, 512],
      [3584, 7680, 512],
      [7168, 8192, 128],
    ]);
    for (const c of chunks) expect(cl100k.count(c.text)).toBe(c.tokenCount);
    // a run of clusters over the budget still falls back to single clusters (2-token budget)
    const emoji = new RecursiveChunker({ chunkSize: 2, chunkOverlap: 0 }).chunk('👩🏿‍💻👍🏽ab');
    for (const c of emoji) if (c.metadata.oversized) expect([...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(c.text)]).toHaveLength(1);
    expect(emoji.map((c) => c.text).join('')).toBe('👩🏿‍💻👍🏽ab');
  });

  it('runs in linear time on one long word (grapheme last resort)', () => {
    const ops: number[] = [];
    for (const n of [5000, 10000, 20000]) {
      const chunker = new RecursiveChunker({ unit: 'char', chunkSize: 50, chunkOverlap: 10, countTokens: false });
      const work = { operations: 0 };
      chunker.chunk('x'.repeat(n), { work });
      ops.push(work.operations);
    }
    expect(ops[2] / ops[1]).toBeLessThan(2.3);
    expect(ops[1] / ops[0]).toBeLessThan(2.3);
  });
});

// ---------------------------------------------------------------- properties

const piece = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,12}$/) },
  { weight: 3, arbitrary: fc.constantFrom('.', '!', '?', '。', ',', '"', ')') },
  { weight: 6, arbitrary: fc.constantFrom(' ', ' ', '  ', '\n', '\n\n', '\r\n', '\r', '\r\n\r\n', '\t', '\u00a0', '\u3000') },
  { weight: 2, arbitrary: fc.constantFrom('👍🏽', '👩🏿‍💻', '🇳🇱', 'e\u0301', '日本語', 'שלום', '=====', '0000000') },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{20,60}$/) },
);
const text = fc.array(piece, { maxLength: 120 }).map((a) => a.join(''));
const options = fc
  .record({
    unit: fc.constantFrom('char' as const, 'word' as const, 'token' as const),
    chunkSize: fc.integer({ min: 1, max: 60 }),
    overlapRatio: fc.double({ min: 0, max: 0.9, noNaN: true }),
    keepSeparator: fc.constantFrom(true, 'end' as const, false),
  })
  .map(({ overlapRatio, ...o }) => ({ ...o, chunkOverlap: Math.floor(o.chunkSize * overlapRatio) }));

describe('properties over generated text', () => {
  it('offsets slice back, nothing lost, budgets hold, deterministic', () => {
    fc.assert(
      fc.property(text, options, (t, o) => {
        const chunker = new RecursiveChunker({ ...o, countTokens: false });
        const chunks = chunker.chunk(t);
        checkInvariants(t, chunks, { ...o, countTokens: false });
        expect(spans(new RecursiveChunker({ ...o, countTokens: false }).chunk(t))).toEqual(spans(chunks));
      }),
      { numRuns: 250 },
    );
  });
});
