import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../src/engine/errors.js';
import { coverSpans, PiecesLevel, RangeSplitter, recursiveSpanSplitter, resolveFallback, slidingSpanSplitter, splitRange } from '../src/engine/pack/fallback.js';
import { pack } from '../src/engine/pack/pack.js';
import { rangeMeasure } from '../src/engine/size/measure.js';
import { resolveUnits } from '../src/engine/size/resolve.js';
import { RecursiveChunker } from '../src/strategies/recursive/recursive.js';

const chars = resolveUnits({ unit: 'char' }).units;
const words = resolveUnits({ unit: 'word' }).units;

describe('splitRange: the piece tree packed by the langchain policy', () => {
  it('splits at the paragraph, then the space, and trims each piece', () => {
    const text = 'Para one.\n\nPara two is longer.';
    const spans = splitRange(rangeMeasure(text, chars), 0, text.length, { max: 12 });
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['Para one.', 'Para two is', 'longer.']);
    // the first piece came from the paragraph separator (index 0), the others from the space (index 3)
    expect(spans.map((s) => s.metadata?.separatorLevel)).toEqual([0, 3, 3]);
    expect(spans.map((s) => s.unitCount)).toEqual([9, 11, 7]);
  });

  it('one RangeSplitter shared by many ranges of a text gives each the pieces a fresh split gives (ranges in order, backwards, overlapping)', () => {
    const word = fc.constantFrom('a', 'bb', 'ccc dd', 'e.', 'f! ', '\n', '\n\n', '\r\n', ' ', '😀', 'x\u0301');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 60 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 12 }), (words, ranges, max) => {
        const text = words.join('');
        const m = rangeMeasure(text, chars);
        const splitter = new RangeSplitter(m);
        for (const [x, y] of ranges) {
          const s = Math.min(x, y) % (text.length + 1);
          const e = Math.min(text.length, s + (Math.max(x, y) % 40));
          const shared = splitter.split(s, e, { max });
          const fresh = splitRange(m, s, e, { max });
          expect(shared).toEqual(fresh);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('splits only the range asked for, in offsets of the whole text', () => {
    const text = 'skip me|aaa bbb ccc|and me';
    const spans = splitRange(rangeMeasure(text, chars), 8, 19, { max: 7 });
    expect(spans.map((s) => [s.start, s.end, text.slice(s.start, s.end)])).toEqual([
      [8, 15, 'aaa bbb'],
      [16, 19, 'ccc'],
    ]);
  });

  it('shares up to `overlap` units between merged pieces', () => {
    const text = 'one two three four five';
    const spans = splitRange(rangeMeasure(text, words), 0, text.length, { max: 3, overlap: 1 });
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['one two three', 'three four five']);
  });

  it('flags a grapheme cluster over the budget and counts its work', () => {
    const text = 'a😀b';
    const work = { operations: 0 };
    const spans = splitRange(rangeMeasure(text, resolveUnits({ unit: 'token' }).units), 0, text.length, { max: 1 }, work);
    expect(spans.map((s) => text.slice(s.start, s.end)).join('')).toBe(text);
    expect(spans.some((s) => s.oversized)).toBe(true);
    expect(work.operations).toBeGreaterThan(0);
  });

  it('gives the RecursiveChunker spans (the strategy is the same split)', () => {
    const text = 'Lorem ipsum dolor sit amet.\n\nConsectetur adipiscing elit, sed do eiusmod.\nTempor incididunt ut labore.';
    for (const chunkSize of [5, 12, 30, 80]) {
      const expected = new RecursiveChunker({ unit: 'char', chunkSize, chunkOverlap: 2 }).spans(text).map((s) => [s.start, s.end]);
      const got = recursiveSpanSplitter({ unit: 'char', chunkOverlap: 2 })(text, chunkSize).map((s) => [s.start, s.end]);
      expect(got).toEqual(expected);
    }
  });
});

describe('RangeSplitter: the blocks of one text on one separator index', () => {
  // blocks as the structure-aware chunkers hand them over: trimmed, one or more line breaks apart
  const word = fc.stringMatching(/^[a-z]{1,9}[.!?,)"]{0,2}$/);
  const line = fc.array(word, { minLength: 1, maxLength: 12 }).map((ws) => ws.join(' '));
  const block = fc.array(line, { minLength: 1, maxLength: 5 }).chain((ls) => fc.constantFrom('\n', '\r\n', '\n\n').map((br) => ls.join(br)));
  const doc = fc.array(fc.tuple(block, fc.constantFrom('\n', '\n\n', '\r\n\r\n', '\n\n\n')), { minLength: 1, maxLength: 8 });

  it('gives each block the pieces splitRange gives the block alone', () => {
    fc.assert(
      fc.property(doc, fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom('char', 'word', 'token'), (parts, max, overlap, unit) => {
        const units = resolveUnits({ unit: unit as 'char' }).units;
        let text = '';
        const blocks: [number, number][] = [];
        for (const [b, gap] of parts) {
          blocks.push([text.length, text.length + b.length]);
          text += b + gap;
        }
        const shared = new RangeSplitter(rangeMeasure(text, units));
        const o = { max, overlap: Math.min(overlap, max - 1) };
        for (const [s, e] of blocks) {
          const alone = splitRange(rangeMeasure(text.slice(s, e), units), 0, e - s, o).map((c) => [s + c.start, s + c.end, c.unitCount]);
          expect(shared.split(s, e, o).map((c) => [c.start, c.end, c.unitCount])).toEqual(alone);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('PiecesLevel: each piece a chunk of its own', () => {
  it('emits every piece alone and flags the one over the budget', () => {
    const text = 'ab cdefgh ij';
    const spans = [
      { start: 0, end: 2 },
      { start: 3, end: 9 },
      { start: 10, end: 12 },
    ];
    const m = rangeMeasure(text, chars);
    const level = new PiecesLevel(spans, (s, e) => m.size(s, e), (s, e, size, oversized) => ({ start: s, end: e, unitCount: size, ...(oversized ? { oversized } : {}) }));
    expect(level.estimate(0, 1)).toBe(Infinity);
    expect(level.exact(0, 2)).toBe(12);
    expect(pack(level, { max: 4 })).toEqual([
      { start: 0, end: 2, unitCount: 2 },
      { start: 3, end: 9, unitCount: 6, oversized: true },
      { start: 10, end: 12, unitCount: 2 },
    ]);
  });
});

describe('coverSpans: text a splitter skipped is kept', () => {
  it('adds the trimmed non-blank stretches between and after the pieces, in source offsets', () => {
    const text = '>> one  two three <<';
    // pieces relative to from = 3: 'one' and 'three' (the splitter skipped 'two')
    const out = coverSpans(text, 3, 18, [
      { start: 0, end: 3 },
      { start: 9, end: 14 },
    ]);
    expect(out.map((s) => text.slice(s.start, s.end))).toEqual(['one', 'two', 'three']);
    expect(out[1]).toEqual({ start: 8, end: 11 });
  });

  it('places each piece first (a trim) and drops empty ones', () => {
    const text = 'x  y';
    const out = coverSpans(text, 0, 4, [{ start: 0, end: 2 }, { start: 2, end: 2 }, { start: 2, end: 4 }], (s, e) => ({ start: s, end: text.slice(s, e).trimEnd().length + s }));
    expect(out).toEqual([
      { start: 0, end: 1 },
      { start: 2, end: 4 },
    ]);
  });
});

describe('the named fallbacks', () => {
  it('sliding: windows of chunkSize units moved by chunkSize − chunkOverlap', () => {
    const split = slidingSpanSplitter({ unit: 'char', chunkOverlap: 1 });
    expect(split('abcdefghij', 4)).toEqual([
      { start: 0, end: 4 },
      { start: 3, end: 7 },
      { start: 6, end: 10 },
    ]);
  });

  it('resolveFallback takes a registered name or a checked function and names a bad one', () => {
    expect(resolveFallback('recursive', { unit: 'char' })('aa bb', 3)).toEqual([
      { start: 0, end: 2 },
      { start: 3, end: 5 },
    ]);
    const bad = resolveFallback(() => [{ start: 0, end: 99 }], { unit: 'char' });
    expect(() => bad('short', 3)).toThrow(InvalidOptionError);
    expect(() => resolveFallback('nope', {})).toThrow(/Invalid option fallback.*recursive, sliding/);
  });
});
