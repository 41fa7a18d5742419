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
});
