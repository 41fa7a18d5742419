/**
 * The assembler (src/engine/assemble.ts) on its own: planned spans → chunks, with worked
 * examples of the text slice, stream offsets, index and overlap carried across calls,
 * the common metadata before the strategy's, token counts, and ids (content-addressed:
 * equal to `contentId`, ordinals among identical chunks, the id suffix).
 */
import { describe, expect, it } from 'vitest';
import { getTokenizer } from '../src/index.js';
import { contentId } from '../src/engine.js';
import { Assembler, type AssemblerConfig } from '../src/engine/assemble.js';
import { chunkCounters, resolveUnits, type UnitOptions } from '../src/engine/size/resolve.js';

/** An assembler for `strategy` measuring with `units` (the one place the constructor is called). */
function assembler(strategy: string, units: UnitOptions, config: Partial<AssemblerConfig> = {}): Assembler {
  return new Assembler({ strategy, ...chunkCounters(resolveUnits(units)), ...config });
}

const TEXT = 'one two three four five six';

describe('Assembler.add (worked examples)', () => {
  it('slices the text, numbers the chunks and writes the common metadata first', () => {
    const chunks = assembler('demo', { unit: 'word', countTokens: false }).add(TEXT, [
      { start: 0, end: 13 },
      { start: 8, end: 27, metadata: { section: 2 } },
    ]);
    expect(chunks).toEqual([
      { id: contentId('one two three'), index: 0, text: 'one two three', start: 0, end: 13, tokenCount: -1, metadata: { strategy: 'demo', unit: 'word', unitCount: 3, overlap: 0 } },
      {
        id: contentId('three four five six'),
        index: 1,
        text: 'three four five six',
        start: 8,
        end: 27,
        tokenCount: -1,
        metadata: { strategy: 'demo', unit: 'word', unitCount: 4, overlap: 5, section: 2 },
      },
    ]);
    expect(Object.keys(chunks[1].metadata)).toEqual(['strategy', 'unit', 'unitCount', 'overlap', 'section']);
  });

  it('counts tokens in the encoding (token units: the unit count is the token count)', () => {
    const cl100k = getTokenizer('cl100k_base');
    const [words] = assembler('demo', { unit: 'word' }).add(TEXT, [{ start: 0, end: 27 }]);
    expect(words.tokenCount).toBe(cl100k.count(TEXT));
    expect(words.metadata.unitCount).toBe(6);
    const [tokens] = assembler('demo', { unit: 'token' }).add(TEXT, [{ start: 0, end: 27 }]);
    expect(tokens.metadata).toMatchObject({ unit: 'token:cl100k_base', unitCount: cl100k.count(TEXT) });
    expect(tokens.tokenCount).toBe(tokens.metadata.unitCount);
  });

  it("keeps what the planner measured (unitCount, tokenCount) instead of measuring again", () => {
    const [c] = assembler('demo', { unit: 'word' }).add(TEXT, [{ start: 0, end: 3, unitCount: 42, tokenCount: 7 }]);
    expect([c.metadata.unitCount, c.tokenCount]).toEqual([42, 7]);
  });

  it('gives stream offsets: spans relative to the text, which starts at `offset`', () => {
    const a = assembler('demo', { unit: 'word', countTokens: false });
    const [c] = a.add('four five', [{ start: 5, end: 9 }], 100);
    expect([c.text, c.start, c.end]).toEqual(['five', 105, 109]);
    expect(a.prevEnd).toBe(109);
  });

  it('carries index, overlap and id ordinals across calls, as one call over the whole text gives', () => {
    const spans = [
      { start: 0, end: 3 },
      { start: 4, end: 7 },
      { start: 4, end: 7 },
    ];
    const whole = assembler('demo', { unit: 'char', countTokens: false }).add('abc abc', spans);
    const a = assembler('demo', { unit: 'char', countTokens: false });
    const pieces = [...a.add('abc abc', spans.slice(0, 1)), ...a.add('abc', [{ start: 0, end: 3 }], 4), ...a.add('abc', [{ start: 0, end: 3 }], 4)];
    expect(pieces).toEqual(whole);
    // identical texts: ordinals 0, 1, 2; the third chunk repeats the second's span (overlap 3)
    expect(whole.map((c) => c.id)).toEqual([0, 1, 2].map((ordinal) => contentId('abc', { ordinal })));
    expect(whole.map((c) => c.metadata.overlap)).toEqual([0, 0, 3]);
    expect(whole.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it('enters the document id, embedText and the id suffix into the id', () => {
    const [c] = assembler('demo', { unit: 'char', countTokens: false }, { documentId: 'doc.md' }).add(TEXT, [{ start: 0, end: 3, embedText: 'Title > one', idSuffix: ':child' }]);
    expect(c.id).toBe(contentId('one', { documentId: 'doc.md', embedText: 'Title > one' }) + ':child');
    expect(c.embedText).toBe('Title > one');
  });

  it('flags oversized spans; `overlap: none` and `unitName` change the metadata only', () => {
    const [a, b] = assembler('ranked', { unit: 'word', countTokens: false }, { overlap: 'none', unitName: 'sentence' }).add(TEXT, [
      { start: 0, end: 13, oversized: true },
      { start: 4, end: 13 },
    ]);
    expect(a.metadata).toEqual({ strategy: 'ranked', unit: 'sentence', unitCount: 3, overlap: 0, oversized: true });
    expect(b.metadata).toEqual({ strategy: 'ranked', unit: 'sentence', unitCount: 2, overlap: 0 });
  });

  it('returns the array it appended to; no spans add nothing', () => {
    const a = assembler('demo', { unit: 'char', countTokens: false });
    const out = a.add(TEXT, []);
    expect(out).toEqual([]);
    expect(a.index).toBe(0);
  });
});
