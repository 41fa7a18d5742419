/**
 * SentenceChunker (src/strategies/sentence/sentence.ts): worked examples (packing, overlap,
 * over-long sentences windowed and flagged), the Dutch, French and English seeds, bad
 * options, and properties over generated text: offsets slice back, nothing lost, budgets
 * hold, every chunk brings a new sentence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError, InvalidOptionError, SentenceChunker, createChunker, type Chunk } from '../src/index.js';
import { expectInvariants, type Unit } from './helpers/invariants.js';
import { corporaDir, sharedFiles, textsDir } from './helpers/paths.js';

const texts = (chunks: Chunk[]): string[] => chunks.map((c) => c.text);
/** The shared invariants (test/helpers/invariants.ts), plus: trimmed, and every chunk brings a new sentence's text. */
function checkInvariants(text: string, chunks: Chunk[], unit: Unit, chunkSize: number, tokenCounts = true): void {
  expectInvariants(text, chunks, { unit, budget: chunkSize, tokenCounts });
  let prevEnd = -1;
  for (const c of chunks) {
    expect(c.text.trim()).toBe(c.text);
    // every chunk brings text the previous one did not have
    expect(c.end).toBeGreaterThan(prevEnd);
    prevEnd = c.end;
  }
}

describe('worked examples', () => {
  it('packs whole sentences up to the budget; no break after "Dr."', () => {
    const chunks = new SentenceChunker({ unit: 'word', chunkSize: 8 }).chunk('Dr. Smith arrived. He was late. The meeting had started.');
    expect(texts(chunks)).toEqual(['Dr. Smith arrived. He was late.', 'The meeting had started.']);
    expect(chunks.map((c) => [c.start, c.end, c.metadata.sentenceStart, c.metadata.sentenceEnd])).toEqual([
      [0, 31, 0, 2],
      [32, 56, 2, 3],
    ]);
  });

  it('overlapSentences repeats the last sentences, fewer where the next would not fit', () => {
    const text = 'One two three. Four five. Six seven eight nine. Ten.';
    const chunks = new SentenceChunker({ unit: 'word', chunkSize: 8, overlapSentences: 1 }).chunk(text);
    expect(texts(chunks)).toEqual(['One two three. Four five.', 'Four five. Six seven eight nine. Ten.']);
    expect(chunks.map((c) => c.metadata.overlapSentences)).toEqual([0, 1]);
    // 2 overlap sentences would not leave room for "Six seven eight nine." → only 1 is kept
    const two = new SentenceChunker({ unit: 'word', chunkSize: 7, overlapSentences: 2 }).chunk('Aa bb. Cc dd. Ee ff gg hh ii.');
    expect(texts(two)).toEqual(['Aa bb. Cc dd.', 'Cc dd. Ee ff gg hh ii.']);
  });

  it('a sentence over the budget is cut by the sliding window inside it and flagged', () => {
    const text = 'Short one. A very long sentence that goes on and on and on forever and ever. End.';
    const chunks = new SentenceChunker({ unit: 'word', chunkSize: 8, overlapSentences: 1 }).chunk(text);
    expect(texts(chunks)).toEqual(['Short one.', 'A very long sentence that goes on and', 'on and on forever and ever.', 'End.']);
    expect(chunks.map((c) => c.metadata.sentenceSplit ?? false)).toEqual([false, true, true, false]);
    checkInvariants(text, chunks, 'word', 8);
  });

  it('CJK sentences without spaces, and the locale option', () => {
    const chunks = new SentenceChunker({ unit: 'char', chunkSize: 8, locale: 'zh' }).chunk('你好。我很好！真的？是的');
    expect(texts(chunks)).toEqual(['你好。我很好！', '真的？是的']);
  });

  it('bad options and input are typed errors', () => {
    expect(() => new SentenceChunker({ chunkSize: 0 })).toThrow(InvalidOptionError);
    expect(() => new SentenceChunker({ overlapSentences: -1 })).toThrow(/overlapSentences: -1/);
    expect(() => new SentenceChunker({ locale: 'not a locale!' })).toThrow(/locale: "not a locale!"/);
    expect(() => new SentenceChunker({ locale: 5 as never })).toThrow(InvalidOptionError);
    expect(() => new SentenceChunker().chunk(null as never)).toThrow(InvalidInputError);
    expect(new SentenceChunker().chunk('   \n ')).toEqual([]);
    expect(createChunker('sentence', { chunkSize: 5, unit: 'word' })).toBeInstanceOf(SentenceChunker);
  });
});

describe('texts/', () => {
  it.each(sharedFiles(textsDir, '.txt').map((f) => [f.split('/').pop()!, f]))('%s: token budget holds, nothing lost, no chunk ends after an abbreviation', (name, file) => {
    const text = readFileSync(file, 'utf8');
    // the locale is the file name's prefix (texts/README.md)
    const locale = name.slice(0, 2);
    const chunks = new SentenceChunker({ chunkSize: 64, overlapSentences: 1, locale }).chunk(text);
    checkInvariants(text, chunks, 'token', 64);
    for (const c of chunks) expect(c.text).not.toMatch(/(?:\bbv|\bbijv|\bca|et al|\bM|\bMme|p\. ex|c\.-à-d|e\.g|i\.e|\bDr|z\.B|d\.h|u\.a)\.$/);
    const overlapping = chunks.filter((c) => c.metadata.overlapSentences === 1);
    expect(overlapping.length).toBeGreaterThan(0);
    for (const c of overlapping) {
      const prev = chunks[c.index - 1];
      expect(c.metadata.sentenceStart).toBe((prev.metadata.sentenceEnd as number) - 1);
      expect(c.metadata.overlap).toBeGreaterThan(0);
    }
  });
});

describe('corpus', () => {
  it('finance.md at 256 tokens: windows of over-long sentences fit after trimming (no chunk over budget)', () => {
    // regression: a token window's leading space, trimmed off, re-encodes into more tokens
    const text = readFileSync(join(corporaDir, 'finance.md'), 'utf8');
    const chunks = new SentenceChunker({ chunkSize: 256, overlapSentences: 1 }).chunk(text);
    expect(chunks.filter((c) => c.metadata.sentenceSplit).length).toBeGreaterThan(100);
    checkInvariants(text, chunks, 'token', 256);
    expect(chunks.filter((c) => c.metadata.oversized)).toEqual([]);
  });
});

describe('properties over generated text', () => {
  const piece = fc.oneof(
    { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,10}$/) },
    { weight: 4, arbitrary: fc.constantFrom('. ', '! ', '? ', '。', 'Dr. ', 'e.g. ', '3.1 ', '... ', '\n', '\r\n', '\n\n') },
    { weight: 5, arbitrary: fc.constantFrom(' ', '  ', '\t', '\u00a0') },
    { weight: 1, arbitrary: fc.constantFrom('👍🏽', 'e\u0301', '日本語', '=====') },
  );
  it('offsets slice back, nothing lost, budgets hold, deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 100 }).map((a) => a.join('')),
        fc.constantFrom('char' as const, 'word' as const, 'token' as const),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 3 }),
        (text, unit, chunkSize, overlapSentences) => {
          const o = { unit, chunkSize, overlapSentences, countTokens: false };
          const chunks = new SentenceChunker(o).chunk(text);
          checkInvariants(text, chunks, unit, chunkSize, false);
          expect(new SentenceChunker(o).chunk(text).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
        },
      ),
      { numRuns: 250 },
    );
  });
});
