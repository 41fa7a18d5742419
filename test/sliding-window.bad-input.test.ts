/**
 * Bad and awkward input for the sliding-window chunker (SPEC section 4: "Bad input
 * gets a typed error … never a hang, a crash of the process, or silently dropped text").
 */
import { describe, expect, it } from 'vitest';
import { isBlank, SlidingWindowChunker, type Chunk } from '../src/index.js';

const texts = (chunks: Chunk[]) => chunks.map((c) => c.text);

describe('regressions', () => {
  it('U+0085 (NEL) is not whitespace: "\\u0085" alone is one chunk, "a\\u0085b" one word', () => {
    // was: isSpace counted U+0085 as whitespace, so "\u0085" gave [] (text lost) and
    // "a\u0085b" was two words, though JavaScript's \s (the documented rule) excludes it
    expect(texts(new SlidingWindowChunker({ unit: 'char', windowSize: 1, stride: 1 }).chunk('\u0085'))).toEqual([
      '\u0085',
    ]);
    expect(texts(new SlidingWindowChunker({ unit: 'word', windowSize: 1, stride: 1 }).chunk('a\u0085b'))).toEqual([
      'a\u0085b',
    ]);
  });

  it('whitespace means exactly JavaScript \\s for every BMP code unit', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if (isBlank(ch) !== /\s/.test(ch)) throw new Error(`U+${c.toString(16)}: isBlank ${isBlank(ch)}`);
    }
  });

  it('token windows over emoji split across BPE tokens are neither repeated nor nested', () => {
    // was: the second token of "😀" has an empty span, so windows starting at it covered
    // the same text as the previous one: [0,2) [2,4) [2,4) [4,6) [4,6), duplicate ids
    const chunks = new SlidingWindowChunker({ unit: 'token', windowSize: 2, stride: 1 }).chunk('😀😀😀');
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 2],
      [2, 4],
      [4, 6],
    ]);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(3);
  });

  it('allowGaps with a stride near 2^31 keeps the first window', () => {
    // was: windowCount's i32 arithmetic n − windowSize + stride − 1 overflowed and
    // planned no window at all, so chunk() returned [] for non-blank text
    const chunker = new SlidingWindowChunker({ unit: 'word', windowSize: 1, stride: 2 ** 31 - 1, allowGaps: true });
    expect(texts(chunker.chunk('a b c d'))).toEqual(['a']);
    const big = new SlidingWindowChunker({ unit: 'char', windowSize: 2, stride: 2 ** 31 - 2, allowGaps: true });
    expect(texts(big.chunk('abc'))).toEqual(['ab']);
  });

  it('char and token windows leave out whitespace-only units at the edges of the text', () => {
    // was: char units gave ['  a', 'b  ', ' '] (a whitespace-only last chunk, the last
    // chunk not ending at the last non-whitespace unit) and token units emitted a chunk
    // of trailing newlines and spaces
    const chars = new SlidingWindowChunker({ unit: 'char', windowSize: 3, stride: 3 }).chunk('  ab   ');
    expect(chars.map((c) => [c.text, c.start, c.end])).toEqual([['ab', 2, 4]]);
    const spaced = new SlidingWindowChunker({ unit: 'char', windowSize: 2, stride: 2 }).chunk('\n a  b \n');
    expect(texts(spaced)).toEqual(['a ', ' b']);
    const tokens = new SlidingWindowChunker({ unit: 'token', windowSize: 2, stride: 2 }).chunk('hello world\n\n\n   ');
    expect(texts(tokens)).toEqual(['hello world']);
  });
});
