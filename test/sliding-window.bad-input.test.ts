/**
 * Bad and awkward input for the sliding-window chunker (SPEC section 4: "Bad input
 * gets a typed error … never a hang, a crash of the process, or silently dropped text").
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k_base from 'js-tiktoken/ranks/cl100k_base';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTokenizer, InvalidInputError, InvalidOptionError, SlidingWindowChunker, type Chunk, type SlidingWindowOptions } from '../src/index.js';
import { isBlank } from '../src/engine/text.js';
import { expectInvariants, referenceTokens, tiktokenCounter } from './helpers/invariants.js';

const texts = (chunks: Chunk[]) => chunks.map((c) => c.text);
const spans = (chunks: Chunk[]) => chunks.map((c) => [c.start, c.end]);
const chunk = (options: SlidingWindowOptions, text: string) => new SlidingWindowChunker(options).chunk(text);
const UNITS: SlidingWindowOptions[] = [
  { unit: 'char', windowSize: 4, stride: 2 },
  { unit: 'word', windowSize: 4, stride: 2 },
  { unit: 'token', windowSize: 4, stride: 2 },
  { unit: 'token', windowSize: 4, stride: 2, encoding: 'o200k_base' },
];

const o200kCount = tiktokenCounter(o200k_base);

/**
 * The shared invariants (test/helpers/invariants.ts): offsets exact, every non-whitespace
 * code unit in a chunk, no surrogate pair cut, indices, and, given the options, unitCount,
 * the window budget and tokenCount in the chunker's encoding.
 */
function expectExactAndComplete(text: string, chunks: Chunk[], options: SlidingWindowOptions = {}): void {
  expectInvariants(text, chunks, {
    unit: options.unit,
    budget: options.windowSize,
    countTokens: options.encoding === 'o200k_base' ? o200kCount : referenceTokens,
    skip: { blank: 'char and token windows inside a whitespace run are whitespace only (known defect, it.fails in test/conformance.test.ts)' },
  });
}

describe('empty, blank and non-string input', () => {
  for (const options of UNITS) {
    const name = `${options.unit}${options.encoding ? ` ${options.encoding}` : ''}`;
    it(`empty text → [] (${name})`, () => {
      expect(chunk(options, '')).toEqual([]);
    });
    it(`whitespace-only text → [] (${name})`, () => {
      for (const blank of [' ', '\n', '\r\n', '\t \r \n', '\u00a0\u3000\u2028\u2029\ufeff\u000b\u000c', ' '.repeat(10_000)]) {
        expect(chunk(options, blank)).toEqual([]);
      }
    });
  }

  it('text that is not a string → InvalidInputError naming what was given', () => {
    const chunker = new SlidingWindowChunker({ unit: 'word', windowSize: 4, stride: 2 });
    const bad: unknown[] = [undefined, null, 42, NaN, true, {}, ['a b'], new String('a b'), Symbol('x'), 10n, () => 'a'];
    for (const value of bad) {
      let error: unknown;
      try {
        chunker.chunk(value as string);
      } catch (e) {
        error = e;
      }
      expect(error, String(typeof value)).toBeInstanceOf(InvalidInputError);
      expect((error as Error).message).toMatch(/^Invalid input: text must be a string, got /);
    }
    expect(() => chunker.chunk(42 as unknown as string)).toThrow('got 42');
    expect(() => chunker.chunk(undefined as unknown as string)).toThrow('got undefined');
  });
});

describe('special-token strings are plain text', () => {
  const text = 'say <|endoftext|> and <|fim_prefix|> now';

  it('token units: no throw, counted as ordinary tokens, never the special ids', () => {
    const chunks = chunk({ unit: 'token', windowSize: 4, stride: 4 }, text);
    expect(texts(chunks)).toEqual(['say <|endoft', 'ext|> and', ' <|fim_prefix', '|> now']);
    for (const c of chunks) expect(c.tokenCount).toBe(referenceTokens(c.text));
    const ids = Array.from(getTokenizer('cl100k_base').encode(text));
    expect(ids).toEqual(new Tiktoken(cl100k_base).encode(text, [], []));
    expect(ids).not.toContain(100257); // <|endoftext|>
    expect(ids).not.toContain(100258); // <|fim_prefix|>
    expect(chunk({ unit: 'token', windowSize: 100, stride: 50 }, text)[0].tokenCount).toBe(referenceTokens(text));
  });

  it('word and char units: tokenCount is js-tiktoken encode(text, [], []).length', () => {
    const words = chunk({ unit: 'word', windowSize: 2, stride: 1 }, text);
    expect(texts(words)).toEqual(['say <|endoftext|>', '<|endoftext|> and', 'and <|fim_prefix|>', '<|fim_prefix|> now']);
    for (const c of words) expect(c.tokenCount).toBe(referenceTokens(c.text));
    for (const special of ['<|endoftext|>', '<|fim_prefix|>', '<|fim_middle|>', '<|fim_suffix|>', '<|endofprompt|>']) {
      const [only] = chunk({ unit: 'char', windowSize: 64, stride: 64 }, special);
      expect(only.text).toBe(special);
      expect(only.tokenCount).toBe(referenceTokens(special));
      expect(only.tokenCount).toBeGreaterThan(1);
    }
  });
});

describe('awkward Unicode: offsets exact, nothing lost', () => {
  it('an emoji split across two BPE tokens is never cut: the boundary moves to its end', () => {
    // cl100k_base encodes "😀" as two tokens; the second has an empty UTF-16 span
    const { starts, ends } = getTokenizer('cl100k_base').encodeWithOffsets('a😀b');
    expect(Array.from(starts)).toEqual([0, 1, 3, 3]);
    expect(Array.from(ends)).toEqual([1, 3, 3, 4]);
    const one = chunk({ unit: 'token', windowSize: 1, stride: 1 }, 'a😀b');
    expect(texts(one)).toEqual(['a', '😀', 'b']);
    expect(one[1].metadata.oversized).toBe(true); // 2 tokens in a window of 1: indivisible
    expect(one[1].tokenCount).toBe(2);
    expect(texts(chunk({ unit: 'token', windowSize: 2, stride: 1 }, 'hi 😀😀 yo'))).toEqual(['hi 😀', '😀', ' yo']);
    expect(texts(chunk({ unit: 'token', windowSize: 2, stride: 2, encoding: 'o200k_base' }, 'a😀b'))).toEqual([
      'a😀',
      'b',
    ]);
  });

  it('emoji with skin tones and ZWJ sequences', () => {
    const text = '👍🏽 ok 👨‍👩‍👧 family 🏳️‍🌈';
    expect(texts(chunk({ unit: 'char', windowSize: 2, stride: 2 }, '👍🏽👩🏿‍💻'))).toEqual(['👍🏽', '👩🏿', '\u200d💻']);
    expect(texts(chunk({ unit: 'word', windowSize: 2, stride: 2 }, text))).toEqual(['👍🏽 ok', '👨‍👩‍👧 family', '🏳️‍🌈']);
    const tokens = chunk({ unit: 'token', windowSize: 3, stride: 3 }, '👨‍👩‍👧 family');
    expect(texts(tokens)).toEqual(['👨', '\u200d', '👩', '\u200d', '👧', ' family']);
    for (const options of [...UNITS, { unit: 'token' as const, windowSize: 1, stride: 1 }]) {
      expectExactAndComplete(text, chunk(options, text), options);
    }
  });

  it('lone surrogates are units of their own and kept', () => {
    const text = 'x\ud800y\udc00z\udbff';
    expect(texts(chunk({ unit: 'char', windowSize: 2, stride: 2 }, text))).toEqual(['x\ud800', 'y\udc00', 'z\udbff']);
    expect(texts(chunk({ unit: 'word', windowSize: 1, stride: 1 }, 'a\udc00 \ud800b'))).toEqual(['a\udc00', '\ud800b']);
    expect(texts(chunk({ unit: 'token', windowSize: 1, stride: 1 }, 'x\ud800y\udc00z'))).toEqual(['x', '\ud800', 'y', '\udc00', 'z']);
    // a high surrogate then a pair: the pair stays whole
    expect(texts(chunk({ unit: 'char', windowSize: 1, stride: 1 }, '\ud800\ud83d\ude00'))).toEqual(['\ud800', '😀']);
    for (const options of UNITS) expectExactAndComplete(text, chunk(options, text), options);
  });

  it('NUL, CRLF and lone CR', () => {
    expect(texts(chunk({ unit: 'word', windowSize: 1, stride: 1 }, 'a\u0000b c\u0000'))).toEqual(['a\u0000b', 'c\u0000']);
    expect(texts(chunk({ unit: 'char', windowSize: 1, stride: 1 }, '\u0000'))).toEqual(['\u0000']);
    const lines = 'one\r\ntwo\rthree\nfour\r\n';
    expect(texts(chunk({ unit: 'word', windowSize: 2, stride: 2 }, lines))).toEqual(['one\r\ntwo', 'three\nfour']);
    expect(texts(chunk({ unit: 'char', windowSize: 4, stride: 4 }, 'ab\r\ncd\r\n'))).toEqual(['ab\r\n', 'cd']);
    expect(texts(chunk({ unit: 'token', windowSize: 2, stride: 2 }, 'a\u0000b\r\nc\rd'))).toEqual(['a\u0000', 'b\r\n', 'c\r', 'd']);
    for (const options of UNITS) expectExactAndComplete(lines, chunk(options, lines), options);
  });

  it('combining marks: char units are code points, words and tokens keep them', () => {
    const text = 'cafe\u0301 n\u0303\u0323o';
    expect(texts(chunk({ unit: 'char', windowSize: 5, stride: 5 }, text))).toEqual(['cafe\u0301', ' n\u0303\u0323o']);
    expect(texts(chunk({ unit: 'char', windowSize: 1, stride: 1 }, 'e\u0301'))).toEqual(['e', '\u0301']);
    expect(texts(chunk({ unit: 'word', windowSize: 1, stride: 1 }, text))).toEqual(['cafe\u0301', 'n\u0303\u0323o']);
    for (const options of UNITS) expectExactAndComplete(text, chunk(options, text), options);
  });

  it('RTL Hebrew and Arabic', () => {
    const text = 'שלום עולם مرحبا بالعالم';
    expect(texts(chunk({ unit: 'word', windowSize: 2, stride: 1 }, text))).toEqual([
      'שלום עולם',
      'עולם مرحبا',
      'مرحبا بالعالم',
    ]);
    expect(texts(chunk({ unit: 'char', windowSize: 10, stride: 10 }, text))).toEqual(['שלום עולם ', 'مرحبا بالع', 'الم']);
    const tokens = chunk({ unit: 'token', windowSize: 2, stride: 2 }, 'שלום עולם مرحبا');
    expect(texts(tokens)).toEqual(['של', 'ום', ' ע', 'ול', 'ם', ' مر', 'حب', 'ا']);
    expect(tokens.map((c) => c.tokenCount)).toEqual([2, 2, 2, 2, 2, 2, 2, 1]);
    for (const options of UNITS) expectExactAndComplete(text, chunk(options, text), options);
  });

  it('CJK, including characters outside the BMP', () => {
    const text = '日本語のテキスト 中文。𠀀𠀁';
    expect(texts(chunk({ unit: 'char', windowSize: 3, stride: 3 }, '日本語のテキスト'))).toEqual(['日本語', 'のテキ', 'スト']);
    expect(texts(chunk({ unit: 'char', windowSize: 1, stride: 1 }, '𠀀𠀁'))).toEqual(['𠀀', '𠀁']);
    expect(texts(chunk({ unit: 'token', windowSize: 2, stride: 2 }, '日本語のテキスト'))).toEqual(['日本', '語', 'のテ', 'キスト']);
    expect(texts(chunk({ unit: 'word', windowSize: 8, stride: 4 }, text))).toEqual([text]);
    for (const options of UNITS) expectExactAndComplete(text, chunk(options, text), options);
  });
});

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

  it('allowGaps must be a boolean: "false" does not allow gaps that lose text', () => {
    // was: any truthy value, e.g. the string "false" from a config file, allowed gaps
    for (const value of ['false', 'no', 1, 0, {}]) {
      let error: unknown;
      try {
        new SlidingWindowChunker({ unit: 'word', windowSize: 2, stride: 3, allowGaps: value as unknown as boolean });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as InvalidOptionError).option).toBe('allowGaps');
    }
    expect(() => new SlidingWindowChunker({ unit: 'word', windowSize: 2, stride: 3, allowGaps: 'false' as unknown as boolean })).toThrow(
      /Invalid option allowGaps: "false" \(must be a boolean\)/,
    );
    expect(new SlidingWindowChunker({ unit: 'word', windowSize: 2, stride: 2, allowGaps: undefined }).allowGaps).toBe(false);
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

describe('a 100 MB input', () => {
  // A realistic-looking word text: words drawn from a vocabulary (a fixed-seed LCG),
  // sentences and paragraphs; a 4 MB block repeated 25 times (words never straddle
  // the joins, so the word count is the block's times 25).
  const VOCAB = (
    'the of and to in a is that for it as with was on be by this are or from at which an ' +
    'retrieval augmented generation chunk chunks window windows stride overlap token tokens embedding ' +
    'vector index query document paragraph sentence model context semantic boundary budget ' +
    'Amsterdam Utrecht Rotterdam Paris Lyon London 2026 42 3.14 (see e.g. "quoted" well-known'
  ).split(' ');
  function generate(): { text: string; words: number } {
    let seed = 0x2545f491;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const parts: string[] = [];
    let length = 0;
    let words = 0;
    while (length < 4_000_000) {
      const word = VOCAB[Math.floor(random() * VOCAB.length)];
      const r = random();
      const separator = r < 0.01 ? '.\n\n' : r < 0.07 ? '. ' : r < 0.1 ? ', ' : ' ';
      parts.push(word, separator);
      length += word.length + separator.length;
      words++;
    }
    const block = parts.join('');
    return { text: block.repeat(25), words: words * 25 };
  }
  let text = '';
  let words = 0;
  let lastEnd = 0;
  beforeAll(() => {
    ({ text, words } = generate());
    lastEnd = text.trimEnd().length;
  });
  afterAll(() => {
    text = ''; // let the 100 MB go
  });

  it('word units, countTokens false: the count formula, the last end, in seconds', () => {
    expect(text.length).toBeGreaterThanOrEqual(100_000_000);
    const W = 512;
    const stride = 384;
    const t0 = performance.now();
    const chunks = new SlidingWindowChunker({ unit: 'word', windowSize: W, stride, countTokens: false }).chunk(text);
    const seconds = (performance.now() - t0) / 1000;
    expect(chunks).toHaveLength(1 + Math.ceil((words - W) / stride));
    expect(chunks[0].start).toBe(0);
    expect(chunks[chunks.length - 1].end).toBe(lastEnd);
    expect(chunks[chunks.length - 1].tokenCount).toBe(-1);
    for (let i = 0; i < chunks.length; i += 997) expect(chunks[i].text).toBe(text.slice(chunks[i].start, chunks[i].end));
    console.log(`100 MB, word units: ${chunks.length} chunks in ${seconds.toFixed(1)} s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
    expect(seconds).toBeLessThan(30);
  });

  it('char units, countTokens false: the count formula, the last end, in seconds', () => {
    const W = 2048;
    const stride = 1536;
    const t0 = performance.now();
    const chunks = new SlidingWindowChunker({ unit: 'char', windowSize: W, stride, countTokens: false }).chunk(text);
    const seconds = (performance.now() - t0) / 1000;
    expect(chunks).toHaveLength(1 + Math.ceil((lastEnd - W) / stride)); // ASCII: one code point per code unit
    expect(chunks[chunks.length - 1].end).toBe(lastEnd);
    expect(chunks[1].start).toBe(stride);
    console.log(`100 MB, char units: ${chunks.length} chunks in ${seconds.toFixed(1)} s, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
    expect(seconds).toBeLessThan(30);
  });
});
