/**
 * Work counters (src/engine/work.ts): passed in per call, added to where the work is done,
 * nothing counted and nothing changed without them.
 */
import { describe, expect, it } from 'vitest';
import { addWork, maxWork, type Work } from '../src/engine/work.js';
import { InvalidOptionError } from '../src/engine/errors.js';
import { RecursiveChunker } from '../src/strategies/recursive/recursive.js';
import { MarkdownChunker } from '../src/strategies/markdown/markdown.js';
import { Assembler } from '../src/engine/assemble.js';

describe('Work', () => {
  it('addWork sums, maxWork keeps the largest, both do nothing without a Work', () => {
    const w: Work = {};
    addWork(w, 'steps', 3);
    addWork(w, 'steps', 4);
    maxWork(w, 'width', 5);
    maxWork(w, 'width', 2);
    expect(w).toEqual({ steps: 7, width: 5 });
    expect(() => addWork(undefined, 'steps', 1)).not.toThrow();
  });

  it('a chunker adds its work to the Work of each call; the chunks are the same with and without it', () => {
    const text = 'a short line of text\n'.repeat(400);
    const chunker = new RecursiveChunker({ unit: 'char', chunkSize: 200, chunkOverlap: 0, countTokens: false });
    const work: Work = {};
    const counted = chunker.chunk(text, { work });
    expect(counted).toEqual(chunker.chunk(text));
    const once = work.operations;
    expect(once).toBeGreaterThan(400);
    expect(work.packSteps).toBeGreaterThan(40);
    chunker.chunk(text, { work });
    expect(work.operations).toBe(2 * once);
    // a Markdown block too big for the budget counts the recursive splitter's operations as its own
    const md = new MarkdownChunker({ unit: 'char', chunkSize: 50, countTokens: false });
    const small: Work = {};
    md.chunk('# T\n\nshort', { work: small });
    const large: Work = {};
    md.chunk('# T\n\n' + 'word '.repeat(200), { work: large });
    expect(large.operations).toBeGreaterThan(small.operations! + 200);
  });

  it('a work that is not an object is a typed error naming it', () => {
    expect(() => new RecursiveChunker().chunk('text', { work: 5 as unknown as Work })).toThrow(InvalidOptionError);
    expect(() => new RecursiveChunker().chunk('text', { work: 5 as unknown as Work })).toThrow(/work/);
  });
});

describe('Assembler', () => {
  it('takes names and counters: no sizer where every span carries its unitCount, a planner defect otherwise', () => {
    const a = new Assembler({ strategy: 'toy', unitName: 'sentence', overlap: 'none' });
    const [c] = a.add('One. Two.', [{ start: 0, end: 9, unitCount: 2 }]);
    expect([c.text, c.tokenCount, c.metadata]).toEqual(['One. Two.', -1, { strategy: 'toy', unit: 'sentence', unitCount: 2, overlap: 0 }]);
    expect(() => a.add('One.', [{ start: 0, end: 4 }])).toThrow(TypeError);
    const counted = new Assembler({ strategy: 'toy', unitName: 'char', size: (t) => t.length, tokenCount: (_t, n) => (n ?? 0) * 10 });
    expect(counted.add('abc', [{ start: 0, end: 3 }]).map((x) => [x.metadata.unitCount, x.tokenCount])).toEqual([[3, 30]]);
  });
});
