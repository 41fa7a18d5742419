// The WASM BPE tokenizer against js-tiktoken (the reference: new Tiktoken(ranks).encode(text, [], [])).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { get_encoding, type Tiktoken as Tiktoken2 } from 'tiktoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BpeEncoder, initBpe } from '../bindings/bpe.js';
import { UnknownEncodingError } from '../src/engine/errors.js';
import { getWasmBpeTokenizer, WasmBpeTokenizer, type WasmBpeEncoding } from '../src/engine/size/wasm-bpe.js';
import { corporaDir, markdownDir, sharedFiles, textsDir } from './helpers/paths.js';
import { rng as mulberry32 } from './helpers/random.js';

const corpusFiles = [
  ...sharedFiles(corporaDir, '.md'),
  ...sharedFiles(markdownDir, '.md'),
  ...sharedFiles(textsDir, '.txt'),
];

const RANKS = { cl100k_base: cl100kRanks, o200k_base: o200kRanks } as const;
const ENCODINGS: WasmBpeEncoding[] = ['cl100k_base', 'o200k_base'];

const references = new Map<WasmBpeEncoding, Tiktoken>();
function reference(encoding: WasmBpeEncoding): Tiktoken {
  let r = references.get(encoding);
  if (!r) {
    r = new Tiktoken(RANKS[encoding]);
    references.set(encoding, r);
  }
  return r;
}

const utf8 = new TextEncoder();

/** Piece ends (UTF-8 bytes) of the encoding's split pattern run by JavaScript's RegExp. */
function regexPieceEnds(encoding: WasmBpeEncoding, text: string): number[] {
  const re = new RegExp(RANKS[encoding].pat_str, 'gu');
  const ends: number[] = [];
  let bytes = 0;
  for (const m of text.matchAll(re)) {
    bytes += utf8.encode(m[0]).length;
    ends.push(bytes);
  }
  return ends;
}

/**
 * tiktoken (the Rust implementation, npm package `tiktoken`): the reference for texts with
 * long pieces, where js-tiktoken's merge loop (quadratic, joining strings) takes minutes.
 * Its split patterns agree with js-tiktoken's except for \s (Rust's excludes U+FEFF),
 * which these texts do not contain.
 */
const rustEncoders = new Map<WasmBpeEncoding, Tiktoken2>();
function rustReference(encoding: WasmBpeEncoding): Tiktoken2 {
  let r = rustEncoders.get(encoding);
  if (!r) {
    r = get_encoding(encoding);
    rustEncoders.set(encoding, r);
  }
  return r;
}

/** Checks ids, count and offsets of one text against the reference. */
function checkText(encoding: WasmBpeEncoding, text: string, rust = false): void {
  const tok = getWasmBpeTokenizer(encoding);
  const expected = rust
    ? Array.from(rustReference(encoding).encode(text, [], []))
    : reference(encoding).encode(text, [], []);
  const ids = tok.encode(text);
  expect(Array.from(ids)).toEqual(expected);
  expect(tok.count(text)).toBe(expected.length);
  const { ids: ids2, starts, ends } = tok.encodeWithOffsets(text);
  expect(Array.from(ids2)).toEqual(expected);
  checkOffsets(text, starts, ends);
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Spans are consecutive, cover the text, and never split a surrogate pair. */
function checkOffsets(text: string, starts: Int32Array, ends: Int32Array): void {
  expect(starts.length).toBe(ends.length);
  if (text.length === 0) {
    expect(ends.length).toBe(0);
    return;
  }
  let at = 0;
  for (let i = 0; i < starts.length; i++) {
    if (starts[i] !== at || ends[i] < starts[i]) throw new Error(`token ${i}: [${starts[i]}, ${ends[i]}) after ${at}`);
    const e = ends[i];
    if (e > 0 && e < text.length && isHigh(text.charCodeAt(e - 1)) && isLow(text.charCodeAt(e)))
      throw new Error(`token ${i} ends inside a surrogate pair at ${e}`);
    at = e;
  }
  expect(at).toBe(text.length);
}

/** The bytes of each token's span, concatenated, equal the text's UTF-8 bytes (up to moved boundaries). */
function checkSpansAgainstBytes(encoding: WasmBpeEncoding, text: string): void {
  const tok = getWasmBpeTokenizer(encoding);
  const { ids, ends } = tok.encodeWithOffsets(text);
  // A span's end, converted back to bytes, is the first character boundary at or after
  // the token's byte end.
  const bytes = utf8.encode(text);
  let byteEnd = 0;
  const expectedEnds: number[] = [];
  const tokenBytes: Uint8Array[] = [];
  for (const id of ids) tokenBytes.push(bytesOf(tok, id));
  // UTF-16 index of each char boundary by byte offset
  const u16AtByte = new Map<number, number>();
  let b = 0;
  let u = 0;
  for (const ch of text) {
    u16AtByte.set(b, u);
    b += utf8.encode(ch).length;
    u += ch.length;
  }
  u16AtByte.set(b, u);
  for (const tb of tokenBytes) {
    byteEnd += tb.length;
    let e = byteEnd;
    while (!u16AtByte.has(e)) {
      if (e > bytes.length) throw new Error(`token bytes run past the text (${byteEnd} > ${bytes.length})`);
      e++;
    }
    expectedEnds.push(u16AtByte.get(e)!);
  }
  expect(byteEnd).toBe(bytes.length);
  expect(Array.from(ends)).toEqual(expectedEnds);
}

const byteCache = new Map<string, Uint8Array>();
function bytesOf(tok: WasmBpeTokenizer, id: number): Uint8Array {
  const key = `${tok.encoding}:${id}`;
  let v = byteCache.get(key);
  if (!v) {
    // decode of a single token may be invalid UTF-8: reconstruct bytes from the reference's ranks
    const ref = reference(tok.encoding as WasmBpeEncoding) as unknown as { textMap: Map<number, Uint8Array> };
    v = ref.textMap.get(id)!;
    byteCache.set(key, v);
  }
  return v;
}

describe('WASM BPE tokenizer', () => {
  beforeAll(() => {
    for (const e of ENCODINGS) {
      reference(e);
      getWasmBpeTokenizer(e);
    }
  });
  afterAll(() => {
    for (const r of rustEncoders.values()) r.free();
  });

  for (const encoding of ENCODINGS) {
    describe(encoding, () => {
      it('gives js-tiktoken ids on every shared corpus, markdown and texts/ file', () => {
        expect(corpusFiles.length).toBeGreaterThanOrEqual(13);
        for (const f of corpusFiles) {
          const text = readFileSync(f, 'utf8');
          const expected = reference(encoding).encode(text, [], []);
          const tok = getWasmBpeTokenizer(encoding);
          const ids = tok.encode(text);
          if (ids.length !== expected.length || ids.some((x, i) => x !== expected[i])) {
            throw new Error(`ids differ from js-tiktoken on ${f}`);
          }
          expect(tok.count(text)).toBe(expected.length);
          const { starts, ends } = tok.encodeWithOffsets(text);
          checkOffsets(text, starts, ends);
          expect(tok.decode(ids)).toBe(text);
        }
      });

      it('splits like the encoding pattern (generated Unicode)', () => {
        const bpe = new BpeEncoder(RANKS[encoding]);
        fc.assert(
          fc.property(unicodeText(), (text) => {
            expect(Array.from(bpe.pieceEnds(text))).toEqual(regexPieceEnds(encoding, text));
          }),
          { numRuns: 6000 },
        );
      });

      it('gives js-tiktoken ids, counts and offsets on generated Unicode', () => {
        fc.assert(
          fc.property(unicodeText(), (text) => checkText(encoding, text)),
          { numRuns: 1500 },
        );
      });

      it('gives the same ids when the text is handed to the module in many small pieces', () => {
        BpeEncoder.pieceUnits = 4;
        try {
          fc.assert(
            fc.property(unicodeText(), (text) => checkText(encoding, text)),
            { numRuns: 1000 },
          );
        } finally {
          BpeEncoder.pieceUnits = 1 << 16;
        }
      });

      it('gives js-tiktoken ids through TextEncoder too (runtimes without Buffer)', () => {
        expect(BpeEncoder.useBuffer).toBe(true); // Node: the UTF-16 path is the default one
        BpeEncoder.useBuffer = false;
        try {
          fc.assert(
            fc.property(unicodeText(), (text) => checkText(encoding, text)),
            { numRuns: 500 },
          );
        } finally {
          BpeEncoder.useBuffer = true;
        }
      });

      it('gives js-tiktoken ids on ASCII runs mixed with any code units (the UTF-16 path converts sixteen ASCII units at once)', () => {
        const unit = fc.oneof(
          fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          fc.integer({ min: 0x80, max: 0x7ff }).map((c) => String.fromCharCode(c)),
          fc.integer({ min: 0x800, max: 0xffff }).map((c) => String.fromCharCode(c)), // lone surrogates included
          fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
        );
        const text = fc
          .array(fc.oneof({ weight: 3, arbitrary: fc.string({ minLength: 10, maxLength: 40 }) }, { weight: 1, arbitrary: fc.array(unit, { minLength: 1, maxLength: 3 }).map((u) => u.join('')) }), { maxLength: 12 })
          .map((parts) => parts.join(''));
        const bpe = new BpeEncoder(RANKS[encoding]);
        fc.assert(
          fc.property(text, (t) => {
            expect(Array.from(bpe.pieceEnds(t))).toEqual(regexPieceEnds(encoding, t));
            checkText(encoding, t);
          }),
          { numRuns: 300 },
        );
      });

      it('maps token byte ends to UTF-16 offsets exactly (moved forward inside a character)', () => {
        fc.assert(
          fc.property(unicodeText(), (text) => checkSpansAgainstBytes(encoding, text)),
          { numRuns: 500 },
        );
      });

      it('handles long pieces (heap merge) and texts longer than one piece', () => {
        const rnd = mulberry32(7);
        const letters = 'abcdefghijklmnopqrstuvwxyzéßж';
        let word = '';
        for (let i = 0; i < 3000; i++) word += letters[Math.floor(rnd() * letters.length)];
        const cjk = Array.from({ length: 2000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');
        for (const text of [
          'x'.repeat(1000),
          word,
          cjk,
          '!?'.repeat(700),
          ' '.repeat(5000) + 'a',
          '\n'.repeat(300) + ' \t'.repeat(300),
          '1234567890'.repeat(300),
          '👍🏽'.repeat(400),
        ])
          checkText(encoding, text, true);
        // 200k+ code units: cut into pieces at safe places, with and without such places
        const parts: string[] = [];
        for (let i = 0; i < 6000; i++) parts.push(i % 7 === 0 ? 'Ünïcödé\n' : i % 5 === 0 ? "it's  " : 'word ', '東京  ');
        checkText(encoding, parts.join(''), true);
        // cuts after CJK punctuation, before '/' after a line feed (not a cut), none at all
        checkText(encoding, '東京。 é,'.repeat(10000), true);
        checkText(encoding, 'a!\n/b\n//x\n\n y\n\r\nz '.repeat(4000), true);
        checkText(encoding, '東京。é,'.repeat(12000), true);
        // base64-like: cut between letters and digits only
        checkText(encoding, 'QmFzZTY0IGJsb2I9ZGF0YQ+/x7'.repeat(2800), true);
        // a 4 000-byte letter run among short pieces
        checkText(encoding, 'word '.repeat(14000) + 'ab'.repeat(2000) + ' end', true);
      });

      it('gives js-tiktoken ids when more distinct short pieces pass than its piece maps hold', () => {
        // 28 000 distinct pieces of up to 8 bytes and 14 000 of 9–16 bytes (many of more
        // than three tokens), some seen twice in one text, and again in a second call:
        // entries are found, added, and both maps are emptied when full
        const rnd = mulberry32(23);
        const words = (count: number, min: number, max: number, letters: string) => {
          const set = new Set<string>();
          while (set.size < count) {
            let w = ' ';
            const n = min + Math.floor(rnd() * (max - min + 1));
            for (let i = 0; i < n; i++) w += letters[Math.floor(rnd() * letters.length)];
            set.add(w);
          }
          return [...set];
        };
        // (lower case only in the long ones: o200k_base splits a word before a capital)
        const short = words(28_000, 1, 7, 'bcdfghjklmnpqrstvwxzaeiouyBCDFGHJKLMNPQRSTVWXZ');
        const long = words(14_000, 8, 15, 'bcdfghjklmnpqrstvwxzaeiouy');
        const list = short.flatMap((w, i) => (i < long.length ? [w, long[i]] : [w]));
        const text = list.join('') + list.slice(0, 8_000).join('');
        const tok = getWasmBpeTokenizer(encoding);
        const expected = reference(encoding).encode(text, [], []);
        for (let round = 0; round < 2; round++) {
          const ids = tok.encode(text);
          if (ids.length !== expected.length || ids.some((x, i) => x !== expected[i])) throw new Error(`ids differ (round ${round})`);
          expect(tok.count(text)).toBe(expected.length);
        }
        const sample = list.slice(0, 1000).join('');
        const { ids } = tok.encodeWithOffsets(sample);
        expect(Array.from(ids)).toEqual(reference(encoding).encode(sample, [], []));
        checkSpansAgainstBytes(encoding, sample);
      });

      it('counts, encodes and gives offsets like js-tiktoken where they go by segments between safe cuts (repeated segments, keys of 8, 16 and 17 bytes, NUL padding, cuts next to line feeds, tabs, non-ASCII whitespace and other non-ASCII)', () => {
        // counting and ids cut the text at spaces after non-whitespace and after line feeds
        // and look segments of up to 16 bytes up by their bytes: few fragments, so segments
        // recur within a text and across texts (the map is kept between calls)
        const parts = [
          'a', 'abcdefg', 'abcdefgh', 'abcdefghi', 'abcdefghijklmno', 'abcdefghijklmnop', 'abcdefghijklmnopq', 'Ab', 'XYZ', 'iPhone',
          '\u0000', 'a\u0000', ' ', ' ', ' ', '  ', '   ', '\n', '\n', '\r\n', '\n/', '/', '\t', '\u000b', '\u00a0', '\u3000', '\u2028', '\u2029', '\u0085', '\u1680', '\u2003', '\u200a', '\u202f', '\u205f', '\ufeff', '\u00a1', '\u00bf', '\u2060',
          'é', 'naïve', '中文', 'Ж', "'s", "'S", "'LL", "'Re", "'d", "'", '1', '123', '4567', '.', ',', '...', '(', ')', '-',
          '\ud83d', '\udc00', '👍', 'İ', '\u0301',
        ];
        const text = fc.array(fc.constantFrom(...parts), { maxLength: 120 }).map((p) => p.join(''));
        const tok = getWasmBpeTokenizer(encoding);
        fc.assert(
          fc.property(text, (t) => {
            checkText(encoding, t);
            // counted first (entries without their ids), then encoded (the entries gain them)
            const u = t + '\n' + t + ' ' + t;
            const expected = reference(encoding).encode(u, [], []);
            expect(tok.count(u)).toBe(expected.length);
            expect(Array.from(tok.encode(u))).toEqual(expected);
            // counted first, then with offsets
            const v = t + '\t' + t + '. ' + t;
            tok.count(v);
            expect(Array.from(tok.encodeWithOffsets(v).ids)).toEqual(reference(encoding).encode(v, [], []));
            checkSpansAgainstBytes(encoding, v);
          }),
          { numRuns: 1500 },
        );
      });

      it('counts like js-tiktoken when more distinct segments pass than its segment map holds', () => {
        // 70 000 distinct words of 2 to 14 letters with a comma or a full stop now and then,
        // counted twice: segments are added, found, and the map is emptied when full
        const rnd = mulberry32(41);
        const letters = 'bcdfghjklmnpqrstvwxzaeiouy';
        const set = new Set<string>();
        while (set.size < 70_000) {
          let w = ' ';
          const n = 2 + Math.floor(rnd() * 13);
          for (let i = 0; i < n; i++) w += letters[Math.floor(rnd() * letters.length)];
          const r = rnd();
          set.add(r < 0.1 ? w + ',' : r < 0.15 ? w + '.\n' : w);
        }
        const text = [...set].join('');
        const tok = getWasmBpeTokenizer(encoding);
        const expected = reference(encoding).encode(text, [], []).length;
        for (let round = 0; round < 2; round++) expect(tok.count(text)).toBe(expected);
        const head = text.slice(0, 100_000);
        const ids = reference(encoding).encode(head, [], []);
        expect(tok.count(head)).toBe(ids.length);
        expect(Array.from(tok.encode(head))).toEqual(ids);
      });

      it('encodes special-token strings and contractions as ordinary text', () => {
        checkText(encoding, "<|endoftext|>It's <|fim_prefix|>THEY'LL we'Ve I'M you'D <|endofprompt|>");
        const tok = getWasmBpeTokenizer(encoding);
        const eot = Object.entries(RANKS[encoding].special_tokens).find(([k]) => k === '<|endoftext|>')![1];
        expect(tok.decode([eot])).toBe('<|endoftext|>');
        expect(() => tok.decode([1 << 30])).toThrow();
      });

      it('handles empty text, lone surrogates and \\r\\n runs', () => {
        const tok = getWasmBpeTokenizer(encoding);
        expect(tok.encode('').length).toBe(0);
        expect(tok.count('')).toBe(0);
        checkText(encoding, '');
        checkText(encoding, '\ud800');
        checkText(encoding, 'a\udc00b \ud83d');
        checkText(encoding, '\r\n\r\n  \r\n\t \u00a0\u3000x');
      });
    });
  }

  it('caches per encoding and rejects unknown encodings', () => {
    expect(getWasmBpeTokenizer('cl100k_base')).toBe(getWasmBpeTokenizer('cl100k_base'));
    expect(getWasmBpeTokenizer('o200k_base').encoding).toBe('o200k_base');
    expect(() => getWasmBpeTokenizer('p50k_base' as WasmBpeEncoding)).toThrow(UnknownEncodingError);
  });

  it('loads asynchronously too', async () => {
    await initBpe();
    const t = new WasmBpeTokenizer('cl100k_base', cl100kRanks);
    expect(Array.from(t.encode('hello world'))).toEqual(reference('cl100k_base').encode('hello world', [], []));
  });

  it('keeps memory bounded: a large text, then small ones', () => {
    const bpe = new BpeEncoder(cl100kRanks);
    bpe.count('warm up');
    const baseline = bpe.memoryBytes();
    const big = 'The quick brown fox jumps over the lazy dog. '.repeat(400_000); // 18 MB
    expect(bpe.count(big)).toBe(10 * 400_000 + 1); // + the final space
    expect(bpe.memoryBytes()).toBeLessThan(baseline + 8 * 1024 * 1024);
    // No safe cut anywhere: one 900 KB piece, whose merge needs more than retainBytes;
    // the instance is rebuilt afterwards.
    BpeEncoder.retainBytes = 16 * 1024 * 1024;
    try {
      const cjk = '中'.repeat(300_000);
      expect(bpe.count(cjk)).toBeGreaterThan(100_000);
      expect(bpe.count('small')).toBe(1);
      expect(bpe.memoryBytes()).toBeLessThan(baseline + 8 * 1024 * 1024);
    } finally {
      BpeEncoder.retainBytes = 64 * 1024 * 1024;
    }
  });
});


const FRAGMENTS = [
  // letters of many scripts, upper / lower / title / modifier / other letters
  'a', 'Z', 'é', 'É', 'ß', 'Ω', 'ω', 'ж', 'Ж', 'ا', 'ب', 'א', 'अ', 'क', 'ก', 'ᄀ', 'ǅ', 'ʰ', '々', 'ー', 'İ', 'ı', 'ﬁ',
  // combining marks (Mn, Mc, Me)
  '\u0301', '\u0308', '\u093f', '\u094d', '\u20dd', '\u0e31',
  // numbers (Nd, Nl, No)
  '0', '7', '42', '1234', '١', '٣', '½', 'Ⅻ', '²', '𝟘',
  // emoji, skin tones, ZWJ sequences, flags, variation selectors
  '👍', '👍🏽', '👨‍👩‍👧', '🏳️‍🌈', '❤️', '🇳🇱', '\u200d', '\ufe0f',
  // CJK and other wide scripts
  '東京', '中文字', '한국어', 'カタカナ', 'ひらがな', '𠀋',
  // whitespace runs
  ' ', ' ', '  ', '   ', '\t', '\t\t', '\r\n', '\n', '\n\n', '\r', '\u00a0', '\u3000', '\u2028', '\ufeff', '\u000b', '\u000c', '\u2003', '\u0085',
  // lone surrogates
  '\ud800', '\udfff', '\udc00', '\ud83d',
  // special-token strings
  '<|endoftext|>', '<|fim_prefix|>', '<|endofprompt|>', '<|fim_middle|>',
  // contractions in mixed case, and near misses
  "'s", "'S", "'t", "'T", "'re", "'RE", "'rE", "'Re", "'ve", "'Ve", "'m", "'M", "'ll", "'LL", "'lL", "'d", "'D", "'", "'x", "''",
  // punctuation
  '.', ',', '!', '?', '/', '//', '-', '(', ')', '"', '…', '—', '$', '€', '@', '#', '_', '*', '`', '\\', '\u0000', '\u007f',
  // words
  'the', 'The', 'HELLO', 'CamelCase', 'iPhone', 'don', 'naïve', 'ÉCOLE', 'Straße',
];

function unicodeText(): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...FRAGMENTS) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 6 }) },
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));
}
