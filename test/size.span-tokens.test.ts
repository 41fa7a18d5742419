/**
 * Token counts of many chunks of one text from one tokenizer pass (src/engine/size/span-tokens.ts)
 * and the BPE module's per-piece mode under it (`pieceCounts`, `countEach`): every count
 * equals the tokenizer's count of the span's own text — worked examples, properties over
 * generated texts (whitespace runs, digits, contractions, non-ASCII, CRLF, emoji, lone
 * surrogates) and arbitrary spans for both encodings, every chunk of every golden case,
 * and chunkers that take the one-pass path (`chunk` and `chunkStream` alike).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BpeEncoder } from '../bindings/bpe.js';
import { FixedSizeChunker, InvalidInputError, RecursiveChunker, SlidingWindowChunker, getTokenizer, type Chunk, type Tokenizer } from '../src/index.js';
import { spanTokenCounts } from '../src/engine/size/span-tokens.js';
import { goldenInputs, type GoldenFile } from './helpers/golden.js';

const ENCODINGS = ['cl100k_base', 'o200k_base'] as const;

interface Pieces {
  ends: Int32Array;
  counts: Int32Array;
  count: number;
}
/** The built-in tokenizer with its declared per-piece capabilities. */
const tokenizer = (encoding: string) => getTokenizer(encoding) as Tokenizer & { pieceCounts(t: string): Pieces; countEach(t: readonly string[]): Int32Array };

/** Fragments that meet every rule of the split patterns at their joins. */
const FRAGMENTS = [
  'a', 'Hello', 'WORLD', 'camelCase', "don't", "'s", "'LL", "'ve", "I'M", ' ', '  ', '   ', '\t', ' \t ', '\n', '\r\n', '\n\n', '\r', ' \n ',
  '1', '12', '123', '4567', '3.14', '$100', '.', ',', '!?', '...', '/', '//', '-', '"', '(', ')', 'x1y2', 'A1', 'é', 'Ünïcödé', 'ß', 'ǅ',
  'e\u0301', '日本語', '中文', 'مرحبا', '١٢٣', '½', '\u00a0', '\u3000', '\u2028', '😀', '👍🏽', '🇫🇷', '\uD83D', '\uDE00', '<|endoftext|>', 'https://x.io/a?b=1',
];
const textArb = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(''));
/** A text with spans of it anywhere (ends inside words, runs, surrogate pairs), overlapping. */
const caseArb = textArb.chain((text) =>
  fc.record({
    text: fc.constant(text),
    spans: fc.array(
      fc.tuple(fc.nat({ max: text.length }), fc.nat({ max: text.length })).map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b) })),
      { minLength: 1, maxLength: 12 },
    ),
  }),
);

const exactCounts = (t: Tokenizer, text: string, spans: readonly { start: number; end: number }[]) => spans.map((s) => t.count(text.slice(s.start, s.end)));

describe('spanTokenCounts (worked examples)', () => {
  it('counts a chunk that ends on a pre-token boundary of the whole text exactly: "a   1" has a boundary at 4, yet "a   " alone is a and three spaces', () => {
    const t = tokenizer('cl100k_base');
    const p = t.pieceCounts('a   1');
    // pieces a | two spaces | one space | 1 (the last space cannot join a digit)
    expect(Array.from(p.ends.subarray(0, p.count))).toEqual([1, 3, 4, 5]);
    expect(Array.from(p.counts.subarray(0, p.count))).toEqual([1, 2, 3, 4]);
    // so the pieces up to 4 hold 3 tokens, but the chunk "a   " alone holds 2
    expect(t.count('a   ')).toBe(2);
    expect(Array.from(spanTokenCounts(t, 'a   1', [{ start: 0, end: 4 }, { start: 0, end: 5 }], { always: true })!)).toEqual([2, 4]);
  });

  it('sums the pieces between the cuts and counts the edges alone', () => {
    const t = tokenizer('cl100k_base');
    const text = 'The quick brown fox jumps over the lazy dog.';
    // "uick brown fox ju": the edges "uick" and " ju" are counted on their own
    const spans = [{ start: 5, end: 22 }, { start: 0, end: text.length }, { start: 4, end: 19 }, { start: 10, end: 10 }];
    expect(Array.from(spanTokenCounts(t, text, spans, { always: true })!)).toEqual(exactCounts(t, text, spans));
    expect(exactCounts(t, text, spans)).toEqual([t.count('uick brown fox ju'), 10, 3, 0]);
  });

  it('skips spans that carry a tokenCount (−1) and declines where counting one by one costs less', () => {
    const t = tokenizer('cl100k_base');
    const text = 'one two three four five six seven';
    expect(Array.from(spanTokenCounts(t, text, [{ start: 0, end: 7, tokenCount: 9 }, { start: 4, end: 13 }], { always: true })!)).toEqual([-1, 2]);
    // two chunks side by side: one by one is cheaper, through countSpans (one copy of the text)
    const sideBySide = [{ start: 0, end: 13 }, { start: 13, end: text.length }];
    expect(Array.from(spanTokenCounts(t, text, sideBySide)!)).toEqual([3, 4]);
    expect(exactCounts(t, text, sideBySide)).toEqual([3, 4]);
    // a tokenizer without the per-piece capability: always one by one
    const plain: Tokenizer = { encoding: 'x', encode: t.encode.bind(t), count: t.count.bind(t), encodeWithOffsets: t.encodeWithOffsets.bind(t), decode: t.decode.bind(t) };
    expect(spanTokenCounts(plain, text, [{ start: 0, end: 13 }, { start: 4, end: 20 }], { always: true })).toBeUndefined();
  });
});

describe.each(ENCODINGS)('%s: one pass equals the tokenizer on every span (properties)', (encoding) => {
  const t = tokenizer(encoding);

  it('spanTokenCounts equals count(text.slice(start, end)) for arbitrary spans, and for spans from and to every pre-token boundary', () => {
    fc.assert(
      fc.property(caseArb, ({ text, spans }) => {
        expect(Array.from(spanTokenCounts(t, text, spans, { always: true })!)).toEqual(exactCounts(t, text, spans));
        // the whole text's boundaries are where a shortcut would go wrong: every prefix, suffix and run between two
        const p = t.pieceCounts(text);
        const cuts = [0, ...Array.from(p.ends.subarray(0, p.count))];
        const edges = cuts.flatMap((c, i) => [{ start: 0, end: c }, { start: c, end: text.length }, { start: c, end: cuts[Math.min(cuts.length - 1, i + 2)] }]);
        expect(Array.from(spanTokenCounts(t, text, edges, { always: true })!)).toEqual(exactCounts(t, text, edges));
      }),
      { numRuns: 400 },
    );
  });

  it('countSpans equals count(text.slice(start, end)) for arbitrary spans: a JavaScript copy or a Buffer copy, windows of 64 code units; for overlapping windows in text order', () => {
    const bpe = t as unknown as Tokenizer & { countSpans(text: string, spans: readonly { start: number; end: number }[]): Int32Array };
    const saved = [BpeEncoder.pieceUnits, BpeEncoder.useBuffer] as const;
    try {
      for (const [units, buffer] of [[saved[0], saved[1]], [saved[0], false], [64, saved[1]], [64, false]] as const) {
        BpeEncoder.pieceUnits = units;
        BpeEncoder.useBuffer = buffer;
        fc.assert(
          fc.property(caseArb, ({ text, spans }) => {
            // the texts are short: repeat them so some windows hold more than 128 code units (the Buffer copy)
            const long = text.repeat(5);
            const wide = [...spans, { start: 0, end: long.length }, ...spans.map((x) => ({ start: x.start + text.length, end: x.end + 3 * text.length }))];
            expect(Array.from(bpe.countSpans(long, wide))).toEqual(exactCounts(t, long, wide));
          }),
          { numRuns: 100 },
        );
      }
    } finally {
      [BpeEncoder.pieceUnits, BpeEncoder.useBuffer] = saved;
    }
    // windows in text order that overlap (a sliding window's spans): the stretches they share are counted once where they share more than 80 code units each
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 120 }), (text, size, stride) => {
        const long = text.repeat(8);
        const windows = Array.from({ length: Math.ceil(long.length / stride) }, (_, i) => ({ start: i * stride, end: Math.min(long.length, i * stride + size) }));
        expect(Array.from(bpe.countSpans(long, windows))).toEqual(exactCounts(t, long, windows));
      }),
      { numRuns: 200 },
    );
    expect(() => bpe.countSpans('abc', [{ start: 2, end: 1 }])).toThrow(/0 ≤ start ≤ end ≤ 3 \(span 0\)/);
    expect(() => bpe.countSpans('abc', [{ start: 0, end: 2 }, { start: 0, end: 4 }])).toThrow(InvalidInputError);
    expect(() => bpe.countSpans('abc', [{ start: 0.5, end: 2 }])).toThrow(InvalidInputError);
  });

  it('pieceCounts: pieces tile the text at token ends, the running count ends at count(text); countEach equals count', () => {
    fc.assert(
      fc.property(fc.array(textArb, { maxLength: 6 }), (texts) => {
        const text = texts.join('');
        const p = t.pieceCounts(text);
        const tokenEnds = new Set(t.encodeWithOffsets(text).ends);
        let prev = 0;
        for (let i = 0; i < p.count; i++) {
          expect(p.ends[i]).toBeGreaterThan(prev);
          expect(tokenEnds.has(p.ends[i])).toBe(true);
          prev = p.ends[i];
        }
        expect(prev).toBe(text.length);
        expect(p.count === 0 ? 0 : p.counts[p.count - 1]).toBe(t.count(text));
        // a text ending in a high surrogate before one starting with a low one stays two lone halves
        expect(Array.from(t.countEach(texts))).toEqual(texts.map((x) => t.count(x)));
      }),
      { numRuns: 300 },
    );
  });

  it('holds where the module takes the text in pieces (a piece size of 64 code units) and for long texts', () => {
    const saved = BpeEncoder.pieceUnits;
    BpeEncoder.pieceUnits = 64;
    try {
      fc.assert(
        fc.property(caseArb, ({ text, spans }) => {
          expect(Array.from(spanTokenCounts(t, text, spans, { always: true })!)).toEqual(exactCounts(t, text, spans));
          expect(Array.from(t.countEach([text, text.slice(1), '']))).toEqual([t.count(text), t.count(text.slice(1)), 0]);
        }),
        { numRuns: 200 },
      );
      // and where the spans are counted window by window (tables of 50 code units at most)
      fc.assert(
        fc.property(caseArb, ({ text, spans }) => {
          expect(Array.from(spanTokenCounts(t, text, spans, { always: true, window: 50 })!)).toEqual(exactCounts(t, text, spans));
        }),
        { numRuns: 200 },
      );
      const long = 'Fish. '.repeat(2000) + 'x'.repeat(5000);
      expect(Array.from(t.countEach([long, 'a b']))).toEqual([t.count(long), 2]);
    } finally {
      BpeEncoder.pieceUnits = saved;
    }
  });
});

describe('every chunk of every golden case', () => {
  it('the recorded tokenCount of each char and word chunk equals the tokenizer on its text, and the one-pass count equals both', () => {
    const texts = new Map(goldenInputs().map((i) => [i.name, i.text]));
    const dir = join(__dirname, 'golden');
    let checked = 0;
    for (const strategy of ['fixed', 'sliding', 'sentence', 'recursive', 'markdown', 'parent-child', 'semantic', 'html', 'code', 'cluster-semantic', 'late']) {
      const file = JSON.parse(readFileSync(join(dir, `${strategy}.json`), 'utf8')) as GoldenFile;
      for (const run of file.runs) {
        const unit = run.options.unit;
        if ((unit !== 'char' && unit !== 'word') || !run.chunks?.length) continue;
        const text = texts.get(run.input)!;
        const t = tokenizer((run.options.encoding as string | undefined) ?? 'cl100k_base');
        const recorded = run.chunks.map((row) => row[3]);
        const where = `${strategy} ${run.input} ${run.setting} ${unit}`;
        // tokenCount counts what is embedded: embedText where the chunk has one (the row's sixth column), else the text
        const embedded = run.chunks.map(([start, end, , , , e]) => {
          const slice = text.slice(start, end);
          if (!run.embedText || e == null) return undefined;
          return typeof e === 'string' ? e : (e as { prefix: string }).prefix + slice;
        });
        expect(recorded, where).toEqual(run.chunks.map(([start, end], i) => t.count(embedded[i] ?? text.slice(start, end))));
        // the one-pass count over the text, for the chunks that embed their text as it is
        const plain = run.chunks.filter((_, i) => embedded[i] === undefined);
        const spans = plain.map(([start, end]) => ({ start, end }));
        if (spans.length > 0) expect(Array.from(spanTokenCounts(t, text, spans, { always: true })!), where).toEqual(plain.map((row) => row[3]));
        checked += spans.length;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe('chunkers on the one-pass path', () => {
  const inputs = new Map(goldenInputs().map((i) => [i.name, i.text]));
  const text = inputs.get('corpora/state_of_the_union.md')!.slice(0, 20_000) + inputs.get('fixtures/emoji.txt')! + inputs.get('fixtures/crlf.txt')! + ' Überall 123456 words\r\n\r\n  and  spaces ';

  /** The built-in tokenizer, recording whether its per-piece mode ran. */
  function spied(encoding: string) {
    const t = tokenizer(encoding);
    const calls = { pieces: 0 };
    const spy: Tokenizer = {
      encoding,
      encode: (x) => t.encode(x),
      count: (x) => t.count(x),
      encodeWithOffsets: (x) => t.encodeWithOffsets(x),
      decode: (ids) => t.decode(ids),
      safeCut: t.safeCut,
      cutAt: t.cutAt,
      pieceCounts: (x) => {
        calls.pieces++;
        return t.pieceCounts(x);
      },
      countEach: (xs) => t.countEach(xs),
    };
    return { t, spy, calls };
  }

  it.each(ENCODINGS)('%s: with a tokenizer that has no countSpans, sliding windows in chars and words count through the table, each tokenCount the tokenizer on chunk.text, chunkStream equal to chunk', async (encoding) => {
    for (const unit of ['char', 'word'] as const) {
      const { t, spy, calls } = spied(encoding);
      const chunker = new SlidingWindowChunker({ unit, windowSize: unit === 'char' ? 2048 : 400, stride: unit === 'char' ? 256 : 50, tokenizer: spy });
      const chunks = chunker.chunk(text);
      expect(calls.pieces, unit).toBeGreaterThan(0);
      expect(chunks.length).toBeGreaterThan(3);
      for (const c of chunks) expect(c.tokenCount, `${unit} chunk ${c.index}`).toBe(t.count(c.text));
      const streamed: Chunk[] = [];
      async function* pieces() {
        for (let i = 0; i < text.length; i += 997) yield text.slice(i, i + 997);
      }
      for await (const c of chunker.chunkStream(pieces())) streamed.push(c);
      expect(streamed).toEqual(chunks);
    }
  });

  it.each(ENCODINGS)('%s: fixed and recursive chunks with overlaps (the defaults count every text once through countSpans): each tokenCount equals the tokenizer on chunk.text', (encoding) => {
    const t = getTokenizer(encoding);
    fc.assert(
      fc.property(textArb, fc.integer({ min: 8, max: 300 }), fc.integer({ min: 0, max: 99 }), fc.boolean(), (part, size, overlapPercent, recursive) => {
        // repeated so the chunks share stretches longer than countSpans' 80 code units at the larger sizes
        const long = part.repeat(12);
        const chunkOverlap = Math.floor((size * overlapPercent) / 100);
        const options = { unit: 'char' as const, chunkSize: size, chunkOverlap, encoding };
        const chunks = (recursive ? new RecursiveChunker(options) : new FixedSizeChunker(options)).chunk(long);
        for (const c of chunks) expect(c.tokenCount, `${recursive ? 'recursive' : 'fixed'} ${size}/${chunkOverlap} chunk ${c.index}`).toBe(t.count(c.text));
      }),
      { numRuns: 150 },
    );
  });
});
