// Token counts of spans from one pass over their range (spanTokenCounter, and the
// assembler's tokenCount through it) equal the tokenizer's count of each span's text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FixedSizeChunker, MarkdownChunker, RecursiveChunker, SlidingWindowChunker } from '../src/index.js';
import { getTokenizer, spanTokenCounter } from '../src/size/tokens.js';
import type { Tokenizer } from '../src/size/types.js';
import { corporaDir, markdownDir } from './helpers/paths.js';

const ENCODINGS = ['cl100k_base', 'o200k_base'] as const;

/** Texts mixing what the cut rule and the split patterns care about: ASCII letters next to spaces and newlines, digits, contractions, CJK, emoji, lone surrogates. */
const pieces = fc.constantFrom('a', 'Word', ' ', '\n', '\n\n', '  ', "'s", "'LL", '123', '4567', '.', ',\n', '/', '\t', 'é', '日本語', '😀', '\ud800', 'x\u0301', '\r\n', ' -', 'ß');
const texts = fc.array(pieces, { maxLength: 60 }).map((a) => a.join(''));

describe('spanTokenCounter', () => {
  for (const encoding of ENCODINGS) {
    const tok = getTokenizer(encoding);
    it(`${encoding}: every span's count equals the tokenizer's count of its text`, () => {
      fc.assert(
        fc.property(texts, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), (text, pairs, a, b) => {
          const n = text.length;
          const lo = n ? Math.min(a % (n + 1), b % (n + 1)) : 0;
          const hi = n ? Math.max(a % (n + 1), b % (n + 1)) : 0;
          const count = spanTokenCounter(tok, text, lo, hi);
          for (const [x, y] of pairs) {
            const span = hi - lo;
            const s = lo + (span ? x % (span + 1) : 0);
            const e = s + (hi - s ? y % (hi - s + 1) : 0);
            expect(count(s, e)).toBe(tok.count(text.slice(s, e)));
          }
        }),
        { numRuns: 400 },
      );
    });
  }

  it('encodes the range once and the edges around the first and last cut of each span', () => {
    const inner = getTokenizer('cl100k_base');
    const calls: string[] = [];
    const spy: Tokenizer = {
      encoding: inner.encoding,
      cutAt: inner.cutAt,
      encode: (t) => inner.encode(t),
      decode: (ids) => inner.decode(ids),
      count: (t) => (calls.push(`count ${JSON.stringify(t)}`), inner.count(t)),
      encodeWithOffsets: (t) => (calls.push(`encode ${JSON.stringify(t)}`), inner.encodeWithOffsets(t)),
    };
    const text = 'the quick brown fox jumps over the lazy dog';
    const count = spanTokenCounter(spy, text);
    // "quick brown fox": cuts after "quick" (c1 = 9) and after "brown" (c2 = 15)
    expect(count(4, 19)).toBe(inner.count('quick brown fox'));
    expect(count(10, 25)).toBe(inner.count('brown fox jumps'));
    expect(calls).toEqual([
      `encode ${JSON.stringify(text)}`,
      'count "quick"',
      'count " fox"',
      'count "brown"',
      'count " jumps"',
    ]);
  });

  it('counts a span without two cuts (no ASCII letter next to a space or newline) whole', () => {
    const tok = getTokenizer('cl100k_base');
    const text = '日本語のテキスト、空白なし。'.repeat(20);
    const count = spanTokenCounter(tok, text);
    expect(count(3, 200)).toBe(tok.count(text.slice(3, 200)));
    expect(count(0, text.length)).toBe(tok.count(text));
  });
});

describe('tokenCount from one pass over the text', () => {
  const prose = readFileSync(join(corporaDir, 'state_of_the_union.md'), 'utf8');
  const markdown = readFileSync(join(markdownDir, 'ch08-02-strings.md'), 'utf8');
  const chunkers = [
    ['recursive char 1000/200', new RecursiveChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 200 }), prose],
    ['recursive word 120/40', new RecursiveChunker({ unit: 'word', chunkSize: 120, chunkOverlap: 40 }), prose],
    ['fixed char 300/150', new FixedSizeChunker({ unit: 'char', chunkSize: 300, chunkOverlap: 150 }), prose],
    ['sliding word 64/16', new SlidingWindowChunker({ unit: 'word', windowSize: 64, stride: 16 }), prose],
    ['markdown char 500', new MarkdownChunker({ unit: 'char', chunkSize: 500 }), markdown],
  ] as const;
  for (const [name, chunker, text] of chunkers) {
    it(`${name}: every chunk's tokenCount equals the tokenizer on chunk.text`, () => {
      const tok = getTokenizer('cl100k_base');
      const chunks = chunker.chunk(text);
      expect(chunks.length).toBeGreaterThan(5);
      for (const c of chunks) expect(c.tokenCount).toBe(tok.count(c.text));
    });
  }
});
