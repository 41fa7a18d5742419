import { describe, expect, it } from 'vitest';
import { JoinSums, SpanLevel, TableRowsLevel } from '../src/engine/pack/levels.js';
import { pack } from '../src/engine/pack/pack.js';
import { rangeMeasure } from '../src/engine/size/measure.js';
import { resolveUnits } from '../src/engine/size/resolve.js';
import { tablePartText } from '../src/engine/boundaries/tables.js';

const chars = resolveUnits({ unit: 'char' }).units;
const words = resolveUnits({ unit: 'word' }).units;
const tokens = resolveUnits({ unit: 'token' }).units;

describe('SpanLevel', () => {
  it('estimates a run by its sections and the gaps between them, and packs what fits', () => {
    const text = 'aa bb cc';
    const level = new SpanLevel(rangeMeasure(text, chars), [0, 3, 6], [2, 5, 8]);
    expect(level.size(1)).toBe(2);
    expect(level.estimate(0, 1)).toBe(5); // 'aa' + ' ' + 'bb'
    expect(level.estimate(1, 2)).toBe(5); // the gap before the run's first section is not counted
    expect(pack(level, { max: 5 })).toEqual([
      { start: 0, end: 5, unitCount: 5 },
      { start: 6, end: 8, unitCount: 2 },
    ]);
  });

  it('keeps hard breaks and repeats overlap sections', () => {
    const text = 'a b c d';
    const m = rangeMeasure(text, chars);
    const hard = new SpanLevel(m, [0, 2, 4, 6], [1, 3, 5, 7], { hardBefore: (i) => i === 2 });
    expect(pack(hard, { max: 100 }).map((c) => text.slice(c.start, c.end))).toEqual(['a b', 'c d']);
    const overlap = new SpanLevel(m, [0, 2, 4, 6], [1, 3, 5, 7], { overlap: { kind: 'sections', count: 1 } });
    expect(pack(overlap, { max: 3 }).map((c) => text.slice(c.start, c.end))).toEqual(['a b', 'b c', 'c d']);
  });
});

describe('TableRowsLevel', () => {
  const header = 'Name | Age';
  const rows = ['Name: Ann | Age: 31', 'Name: Bob | Age: 4', 'Name: Cy'];
  const part = (a: number, b: number) => [header, ...rows.slice(a, b + 1)].join('\n');
  const emit = (a: number, b: number, embedText: string, size: number, oversized: boolean) => ({ start: a, end: b + 1, embedText, unitCount: size, ...(oversized ? { oversized } : {}) });

  it('in characters (an additive sizer) its estimate is the exact size of the part, header lines included', () => {
    for (const estimate of ['joined', 'apart'] as const) {
      const level = new TableRowsLevel({ header, rows, sizer: chars, emit, estimate });
      for (let a = 0; a < rows.length; a++) {
        for (let b = a; b < rows.length; b++) expect(level.exact(a, b)).toBe(part(a, b).length);
      }
    }
    // joined counts the last row's line break in the estimate: one more than the text
    const joined = new TableRowsLevel({ header, rows, sizer: chars, emit });
    expect(joined.estimate(0, 1)).toBe(part(0, 1).length + 1);
    expect(joined.size(2)).toBe(part(2, 2).length + 1);
  });

  it('cuts between rows, every part starting with the header lines, within the budget', () => {
    const level = new TableRowsLevel({ header, rows, sizer: chars, emit, estimate: 'apart' });
    // 'Name | Age\nName: Ann | Age: 31' is 30, with Bob's row 49
    expect(pack(level, { max: 40 })).toEqual([
      { start: 0, end: 1, embedText: 'Name | Age\nName: Ann | Age: 31', unitCount: 30 },
      { start: 1, end: 3, embedText: 'Name | Age\nName: Bob | Age: 4\nName: Cy', unitCount: 38 },
    ]);
  });

  it('flags a row that alone is over the budget', () => {
    const level = new TableRowsLevel({ header, rows, sizer: chars, emit, estimate: 'apart' });
    const out = pack(level, { max: 25 });
    expect(out.map((c) => [c.start, c.end, c.oversized ?? false])).toEqual([
      [0, 1, true],
      [1, 2, true],
      [2, 3, false],
    ]);
  });

  it('puts the prefix before every embed text and counts it; the source text bounds the size too', () => {
    const prefix = 'Staff\n\n';
    const level = new TableRowsLevel({ header, rows, sizer: chars, emit, prefix, prefixSize: prefix.length, textSize: (a, b) => 100 * (b - a + 1) });
    expect(level.exact(0, 0)).toBe(100); // the source rows (textSize) are larger than the embed text
    const noText = new TableRowsLevel({ header, rows, sizer: chars, emit, prefix, prefixSize: prefix.length });
    expect(noText.exact(0, 0)).toBe(prefix.length + part(0, 0).length);
    expect(noText.emit(2, 2, 17, false)?.embedText).toBe('Staff\n\nName | Age\nName: Cy');
  });

  it('in words and tokens (not additive) measures the part text itself', () => {
    for (const sizer of [words, tokens]) {
      const level = new TableRowsLevel({ header, rows, sizer, emit });
      expect(level.exact(0, 2)).toBe(sizer.size(part(0, 2)));
    }
    // without header lines a part is its rows alone
    const bare = new TableRowsLevel({ header: '', rows, sizer: words, emit });
    expect(bare.emit(0, 1, 0, false)?.embedText).toBe('Name: Ann | Age: 31\nName: Bob | Age: 4');
    expect(bare.exact(0, 1)).toBe(10);
  });
});

describe('TableRowsLevel in tokens', () => {
  it('sizes every run as counting its embed text does, where its joins are cuts and where they are not', () => {
    // seeded: rows that start and end with Latin letters (cuts) or with code, marks, CJK, emoji (no cuts)
    let seed = 7;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const pieces = ['Operator', ' ', 'a', 'b:', '`!`', 'x1', 'é', '日本', ' | ', 'Name: ', '🙂', '  ', '.', 'Z'];
    const text = (n: number) => Array.from({ length: n }, () => pieces[next(pieces.length)]).join('');
    for (let t = 0; t < 300; t++) {
      const rows = Array.from({ length: 1 + next(5) }, () => text(next(7)));
      const header = next(5) === 0 ? '' : text(4);
      const prefix = next(2) === 0 ? '' : 'A > B\n\n';
      const level = new TableRowsLevel({ header, rows, sizer: tokens, prefix, prefixSize: tokens.size(prefix), emit: () => undefined });
      for (let a = 0; a < rows.length; a++) {
        for (let b = a; b < rows.length; b++) expect(level.exact(a, b), JSON.stringify({ header, rows, prefix, a, b })).toBe(tokens.size(prefix + tablePartText(header, rows, a, b)));
      }
    }
  });
});

describe('JoinSums', () => {
  it('gives the exact token size of a run of blocks from the blocks and the joins between them', () => {
    const text = 'Hello there world.\n\nSecond block of words here.\n\n------\n\nThird one, the last.';
    const parts = [
      { start: 0, end: 18 },
      { start: 20, end: 47 },
      { start: 49, end: 55 },
      { start: 57, end: text.length },
    ];
    const size = (s: number, e: number) => tokens.size(text.slice(s, e));
    const sizes = new Float64Array(parts.map((p) => size(p.start, p.end)));
    const joins = new JoinSums(text, parts, sizes, tokens.cutAt!, size);
    expect(joins.run(0, 1)).toBe(size(0, 47));
    expect(joins.run(0, 3)).toBe(size(0, text.length));
    expect(joins.run(1, 3)).toBe(size(20, text.length));
    // '------' has no cut inside (one pre-token): a run that starts or ends there measures from its start
    // to its first cut, or from its last cut to its end; a run of it alone has no cut
    expect(joins.run(0, 2)).toBe(size(0, 55));
    expect(joins.run(2, 3)).toBe(size(49, text.length));
    expect(joins.run(1, 2)).toBe(size(20, 55));
    expect(joins.run(2, 2)).toBeUndefined();
  });
});
