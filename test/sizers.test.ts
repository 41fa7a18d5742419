/**
 * Sizers beyond char/word/token: a user lengthFunction and a Hugging Face tokenizer.json
 * (the embedding model's own tokens), through every strategy's `lengthFunction` / `sizer`
 * options; declared capabilities (safe cuts) drive streaming.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HfTokenizer } from '../src/embedders/hf-tokenizer.js';
import { getTiktokenTokenizer } from '../src/engine/size/tiktoken.js';
import { charUnits, segmentChars } from '../src/engine/size/chars.js';
import { wordUnits } from '../src/engine/size/words.js';
import { checkedSizer } from '../src/engine/size/custom.js';
import { utf8Length } from '../src/engine/size/utf8.js';
import { FixedSizeChunker, getTokenizer, hfTokenizerSizer, InvalidOptionError, lengthFunctionSizer, RecursiveChunker, SentenceChunker, MarkdownChunker } from '../src/index.js';
import { tokenUnits } from '../src/engine.js';
import { tiktokenCut, tiktokenCutAt } from '../src/engine/size/safe-cuts.js';
import fc from 'fast-check';
import { expectInvariants } from './helpers/invariants.js';
import { corporaDir, gloveDir, markdownDir } from './helpers/paths.js';
import { collect, splitAt } from './helpers/stream.js';

const sotu = readFileSync(join(corporaDir, 'state_of_the_union.md'), 'utf8').slice(0, 20_000);

describe('lengthFunction', () => {
  it("LangChain's default (text.length) equals char units on BMP text", () => {
    const a = new RecursiveChunker({ lengthFunction: (t) => t.length, chunkSize: 400, chunkOverlap: 50 }).chunk(sotu);
    const b = new RecursiveChunker({ unit: 'char', chunkSize: 400, chunkOverlap: 50 }).chunk(sotu);
    expect(a.map((c) => [c.start, c.end])).toEqual(b.map((c) => [c.start, c.end]));
    expect(a[0].metadata.unit).toBe('custom');
    expect(a[0].tokenCount).toBe(getTokenizer('cl100k_base').count(a[0].text)); // tokenCount stays cl100k
  });

  it('budgets hold on the exact text for windows and sentences, measured by the function', () => {
    const vowels = (t: string) => (t.match(/[aeiou]/gi) ?? []).length;
    for (const chunker of [new FixedSizeChunker({ lengthFunction: vowels, chunkSize: 40, chunkOverlap: 5 }), new SentenceChunker({ lengthFunction: vowels, chunkSize: 60 })]) {
      const chunks = chunker.chunk(sotu);
      expect(chunks.length).toBeGreaterThan(10);
      for (const c of chunks) {
        expect(c.metadata.unitCount).toBe(vowels(c.text));
        if (!c.metadata.oversized) expect(vowels(c.text)).toBeLessThanOrEqual(c.metadata.strategy === 'fixed' ? 40 : 60);
      }
      expectInvariants(sotu, chunks, {});
    }
  });

  it('a bad function or a bad result is a typed error naming it', () => {
    expect(() => new RecursiveChunker({ lengthFunction: 5 as never })).toThrow(InvalidOptionError);
    expect(() => new RecursiveChunker({ lengthFunction: () => NaN, chunkSize: 10 }).chunk('a b c')).toThrow(/lengthFunction: NaN/);
    expect(() => new RecursiveChunker({ lengthFunction: (t) => t.length, sizer: lengthFunctionSizer((t) => t.length) })).toThrow(/sizer or lengthFunction, not both/);
  });
});

describe("a Hugging Face tokenizer.json: the model's own tokens", () => {
  const json = JSON.parse(readFileSync(join(gloveDir(), 'tokenizer.json'), 'utf8'));
  const hf = new HfTokenizer(json);
  const sizer = hfTokenizerSizer(hf, 'hf:glove');

  it('sizes are content tokens; units are their spans', () => {
    expect(sizer.size('The car is fast.')).toBe(hf.contentIds('The car is fast.').length);
    const u = sizer.segment('The car is fast.');
    expect(u.count).toBe(5); // the, car, is, fast, .
    expect(Array.from(u.starts)).toEqual([0, 4, 8, 11, 15]);
  });

  it('chunks measured in model tokens hold the budget', () => {
    const chunks = new RecursiveChunker({ sizer, chunkSize: 64, chunkOverlap: 0 }).chunk(sotu);
    expect(chunks[0].metadata.unit).toBe('hf:glove');
    for (const c of chunks) {
      expect(c.metadata.unitCount).toBe(sizer.size(c.text));
      expect(sizer.size(c.text)).toBeLessThanOrEqual(64);
    }
    expectInvariants(sotu, chunks, {});
  });
});

describe('declared capabilities, not instanceof', () => {
  it('additive sizers: sizes add up across a split, joinSize giving the join; units measure 1 each', () => {
    const text = fc.array(fc.constantFrom('a', 'b', ' ', '\n', 'é', '\u{1F600}', '\uD83D', '。'), { minLength: 2, maxLength: 40 }).map((a) => a.join(''));
    for (const sizer of [charUnits, wordUnits]) {
      expect(sizer.additive).toBe(true);
      fc.assert(
        fc.property(text, fc.nat(), (t, r) => {
          const p = 1 + (r % (t.length - 1));
          expect(sizer.size(t)).toBe(sizer.size(t.slice(0, p)) + sizer.size(t.slice(p)) + sizer.joinSize!(t, p));
          const u = sizer.segment(t);
          for (let i = 0; i < u.count; i++) for (let j = i + 1; j <= u.count; j++) expect(sizer.size(t.slice(u.starts[i], u.ends[j - 1]))).toBe(j - i);
        }),
      );
    }
    expect(wordUnits.joinSize!('foobar', 3)).toBe(-1);
    expect(wordUnits.joinSize!('foo bar', 3)).toBe(0);
    expect(charUnits.joinSize!('\u{1F600}', 1)).toBe(-1);
    expect([wordUnits.blankUnits, charUnits.blankUnits, tokenUnits(getTokenizer('cl100k_base')).blankUnits]).toEqual([false, undefined, undefined]);
    expect([charUnits.clusterAligned, wordUnits.clusterAligned]).toEqual([true, undefined]);
  });

  it('a user sizer that names a unit kind but declares nothing is measured, not trusted by its kind', async () => {
    // code points as units, UTF-8 bytes as size: with `unit: 'char'` the windows used to be
    // counted as code points (10 units: 20 bytes of "é")
    const bytes = { unit: 'char' as const, name: 'utf8', size: (t: string) => utf8Length(t), segment: segmentChars };
    const chunks = await new FixedSizeChunker({ sizer: bytes, chunkSize: 10, chunkOverlap: 0 }).chunk('é'.repeat(40));
    expect(chunks.map((c) => [c.text.length, c.metadata.unitCount])).toEqual(Array.from({ length: 8 }, () => [5, 10]));
  });

  it('checkedSizer keeps the declared capabilities and checks joinSize', () => {
    const joinSize = (t: string, p: number) => (p === 1 ? Number.NaN : 0);
    const c = checkedSizer({ unit: 'custom', name: 'x', size: (t) => t.length, segment: segmentChars, additive: true, blankUnits: false, clusterAligned: true, joinSize });
    expect([c.additive, c.blankUnits, c.clusterAligned, c.joinSize!('ab c', 2)]).toEqual([true, false, true, 0]);
    expect(() => c.joinSize!('ab', 1)).toThrow(InvalidOptionError);
  });

  it('both tiktoken tokenizers declare the tiktoken safe cut; token sizers carry it', () => {
    expect(getTokenizer('cl100k_base').safeCut).toBe(tiktokenCut);
    expect(getTiktokenTokenizer('o200k_base').safeCut).toBe(tiktokenCut);
    // the token sizer cuts at the same rule, and after FORCED_CUT code units without one
    const sizer = tokenUnits(getTokenizer('cl100k_base'));
    expect(sizer.safeCut!('Chunks of text.\nMore', 0)).toBe(tiktokenCut('Chunks of text.\nMore', 0));
    expect(sizer.safeCut!('x'.repeat(3000), 0)).toBe(2048);
    expect(getTokenizer('cl100k_base').cutAt).toBe(tiktokenCutAt);
    expect(getTiktokenTokenizer('o200k_base').cutAt).toBe(tiktokenCutAt);
    expect(tokenUnits(getTokenizer('o200k_base')).cutAt).toBe(tiktokenCutAt);
  });

  it('tiktokenCutAt: the tokens of a text are the tokens of its halves at every local cut (js-tiktoken, both encodings)', () => {
    const pieces = ['a', 'Ab', 'word', ' ', '  ', '\n', '\n\n', '\r\n', '.', "'s", '12345', '#', '- ', '`', '|', 'é', '語', '😀', '\t'];
    for (const encoding of ['cl100k_base', 'o200k_base']) {
      const ref = getTiktokenTokenizer(encoding);
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 2, maxLength: 24 }), (parts) => {
          const text = parts.join('');
          const whole = ref.count(text);
          for (let p = 1; p < text.length; p++) {
            if (!tiktokenCutAt(text, p)) continue;
            expect(ref.count(text.slice(0, p)) + ref.count(text.slice(p))).toBe(whole);
          }
        }),
        { numRuns: 300, seed: 16 },
      );
    }
    // the rule itself: letter | not a letter, mark or apostrophe; newline | letter
    expect([1, 2, 3, 4, 5, 6].filter((p) => tiktokenCutAt('ab c\nd.', p))).toEqual([2, 4, 5, 6]); // a letter before '.' ends its pre-token too
  });

  it('Markdown runs sized from their blocks and joins equal the runs measured on their text', () => {
    // every chunk's unitCount is checked against the tokenizer on its text; the run
    // sizes come from block heads, middles, tails and joins (strategies/markdown.ts JoinSums)
    const tokenizer = getTokenizer('cl100k_base');
    const md = readFileSync(join(markdownDir, 'ch08-02-strings.md'), 'utf8');
    for (const chunkSize of [16, 64, 200, 400]) {
      const chunks = new MarkdownChunker({ unit: 'token', chunkSize, chunkOverlap: 0 }).chunk(md);
      for (const c of chunks) {
        expect(c.metadata.unitCount).toBe(tokenizer.count(c.text));
        if (!c.metadata.oversized) expect(c.metadata.unitCount).toBeLessThanOrEqual(chunkSize);
      }
    }
  });

  it('a tokenizer without a declared safe cut still streams correctly (held to the end)', async () => {
    const base = getTokenizer('cl100k_base');
    const plain = { encoding: 'cl100k_base', encode: (t: string) => base.encode(t), count: (t: string) => base.count(t), encodeWithOffsets: (t: string) => base.encodeWithOffsets(t), decode: (ids: ArrayLike<number>) => base.decode(ids) };
    const chunker = new FixedSizeChunker({ tokenizer: plain, chunkSize: 64, chunkOverlap: 8 });
    const text = sotu.slice(0, 5000);
    expect(await collect(chunker.chunkStream(splitAt(text, [100, 1000, 2500])))).toEqual(chunker.chunk(text));
  });
});
