import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../src/index.js';
import {
  intersectionLength,
  meanStd,
  scoreQuestion,
  sumRanges,
  unionRanges,
  type CharRange,
  type RetrievedSpan,
} from '../src/evaluation/index.js';

const a = (start: number, end: number): RetrievedSpan => ({ corpusId: 'a', start, end });
const b = (start: number, end: number): RetrievedSpan => ({ corpusId: 'b', start, end });

describe('scoreQuestion: hand-computed examples', () => {
  it('overlapping retrieved chunks and a chunk from another corpus', () => {
    // reference [10, 20) in a; chunks [0, 15) and [12, 30) of a overlap; [0, 100) of b covers nothing.
    const s = scoreQuestion([{ start: 10, end: 20 }], 'a', [a(0, 15), a(12, 30), b(0, 100)]);
    expect(s.covered).toBe(10);
    expect(s.referenceChars).toBe(10);
    expect(s.retrievedChars).toBe(15 + 18 + 100);
    expect(s.recall).toBe(1);
    expect(s.precision).toBeCloseTo(10 / 133, 12);
    expect(s.iou).toBeCloseTo(10 / 133, 12);
    // counting the retrieved text as a union per corpus: [0, 30) of a + [0, 100) of b = 130
    const u = scoreQuestion([{ start: 10, end: 20 }], 'a', [a(0, 15), a(12, 30), b(0, 100)], { unionRetrieved: true });
    expect(u.retrievedChars).toBe(130);
    expect(u.precision).toBeCloseTo(10 / 130, 12);
    expect(u.recall).toBe(1);
  });

  it('one chunk spanning two references', () => {
    // references [5, 10) and [20, 30) (15 chars); chunk [0, 25) covers 5 + 5 of them.
    const s = scoreQuestion([{ start: 5, end: 10 }, { start: 20, end: 30 }], 'a', [a(0, 25)]);
    expect(s.covered).toBe(10);
    expect(s.recall).toBeCloseTo(10 / 15, 12);
    expect(s.precision).toBeCloseTo(10 / 25, 12);
    expect(s.iou).toBeCloseTo(10 / (25 + 5), 12); // retrieved + uncovered reference
  });

  it('a reference no chunk covers', () => {
    const s = scoreQuestion([{ start: 0, end: 10 }, { start: 50, end: 60 }], 'a', [a(0, 10), a(100, 120)]);
    expect(s.covered).toBe(10);
    expect(s.recall).toBe(0.5);
    expect(s.precision).toBeCloseTo(10 / 30, 12);
    expect(s.iou).toBe(10 / 40);
  });

  it('only chunks of another corpus at the same offsets: nothing covered', () => {
    const s = scoreQuestion([{ start: 0, end: 10 }], 'a', [b(0, 10), b(5, 40)]);
    expect(s).toMatchObject({ covered: 0, recall: 0, precision: 0, iou: 0, retrievedChars: 45 });
  });

  it('overlapping references are merged first (15 chars, not 20)', () => {
    const s = scoreQuestion([{ start: 0, end: 10 }, { start: 5, end: 15 }], 'a', [a(0, 15)]);
    expect(s).toMatchObject({ covered: 15, referenceChars: 15, recall: 1, precision: 1, iou: 1 });
  });

  it('nothing retrieved: recall 0, precision 0, IoU 0', () => {
    expect(scoreQuestion([{ start: 3, end: 7 }], 'a', [])).toMatchObject({ recall: 0, precision: 0, iou: 0, retrievedChars: 0 });
  });

  it('bad ranges are typed errors naming the value', () => {
    expect(() => scoreQuestion([], 'a', [])).toThrow(InvalidInputError);
    expect(() => scoreQuestion([{ start: 5, end: 5 }], 'a', [])).toThrow(/non-empty reference/);
    expect(() => scoreQuestion([{ start: 5, end: 2 }], 'a', [])).toThrow(/"start":5,"end":2/);
    expect(() => scoreQuestion([{ start: 0, end: 2 }], 'a', [a(0.5, 3)])).toThrow(InvalidInputError);
  });
});

describe('range helpers', () => {
  it('unionRanges merges overlapping and touching ranges, drops empty ones', () => {
    expect(unionRanges([{ start: 10, end: 12 }, { start: 0, end: 3 }, { start: 3, end: 5 }, { start: 4, end: 4 }, { start: 11, end: 20 }])).toEqual([
      { start: 0, end: 5 },
      { start: 10, end: 20 },
    ]);
    expect(sumRanges([{ start: 0, end: 5 }, { start: 3, end: 6 }])).toBe(8);
    expect(intersectionLength([{ start: 0, end: 5 }, { start: 10, end: 20 }], [{ start: 3, end: 12 }, { start: 15, end: 16 }])).toBe(2 + 2 + 1);
  });

  it('meanStd is numpy mean and np.std (ddof 0)', () => {
    const m = meanStd([1, 2, 3, 4]);
    expect(m.mean).toBe(2.5);
    expect(m.std).toBeCloseTo(Math.sqrt(1.25), 12);
    expect(meanStd([0.5])).toEqual({ mean: 0.5, std: 0 });
    expect(Number.isNaN(meanStd([]).mean)).toBe(true);
  });
});

// A direct transcription of the report's scoring loop (chunking_evaluation,
// BaseEvaluation._scores_from_dataset_and_retrievals), character ranges as tuples.
type T = [number, number];
function pyUnion(ranges: T[]): T[] {
  if (!ranges.length) return [];
  const s = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: T[] = [[...s[0]] as T];
  for (const [st, en] of s.slice(1)) {
    const last = out[out.length - 1];
    if (st <= last[1]) last[1] = Math.max(last[1], en);
    else out.push([st, en]);
  }
  return out;
}
function pyIntersect(r1: T, r2: T): T | null {
  const s = Math.max(r1[0], r2[0]);
  const e = Math.min(r1[1], r2[1]);
  return s <= e ? [s, e] : null;
}
function pyDifference(ranges: T[], target: T): T[] {
  const out: T[] = [];
  const [ts, te] = target;
  for (const [s, e] of ranges) {
    if (e < ts || s > te) out.push([s, e]);
    else if (s < ts && e > te) out.push([s, ts], [te, e]);
    else if (s < ts) out.push([s, ts]);
    else if (e > te) out.push([te, e]);
  }
  return out;
}
const pySum = (ranges: T[]) => ranges.reduce((acc, [s, e]) => acc + e - s, 0);
function reportScores(refs: T[], corpusId: string, retrieved: RetrievedSpan[]) {
  let numerator: T[] = [];
  let unused: T[] = refs.map((r) => [...r] as T);
  for (const m of retrieved) {
    if (m.corpusId !== corpusId) continue;
    for (const r of refs) {
      const x = pyIntersect([m.start, m.end], r);
      if (x) {
        unused = pyDifference(unused, x);
        numerator = pyUnion([x, ...numerator]);
      }
    }
  }
  const num = pySum(numerator);
  const precDen = pySum(retrieved.map((m) => [m.start, m.end] as T));
  return { recall: num / pySum(refs), precision: num / precDen, iou: num / (precDen + pySum(unused)) };
}

describe('agreement with the report\'s code (property)', () => {
  it('equals the transcribed scoring loop for disjoint references and any retrieved spans', () => {
    const span = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 60 })).map(([s, l]) => [s, s + l] as T);
    fc.assert(
      fc.property(
        fc.array(span, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b'), span), { minLength: 1, maxLength: 6 }),
        (rawRefs, rawRetrieved) => {
          // disjoint, non-touching references, as in the data set
          const disjoint: T[] = pyUnion(rawRefs);
          const retrieved = rawRetrieved.map(([c, [s, e]]) => ({ corpusId: c, start: s, end: e }));
          const ours = scoreQuestion(disjoint.map(([start, end]) => ({ start, end }) as CharRange), 'a', retrieved);
          const theirs = reportScores(disjoint, 'a', retrieved);
          expect(ours.recall).toBeCloseTo(theirs.recall, 12);
          expect(ours.precision).toBeCloseTo(theirs.precision, 12);
          expect(ours.iou).toBeCloseTo(theirs.iou, 12);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('metrics stay in [0, 1] and IoU ≤ min(recall, precision)', () => {
    const span = fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 40 })).map(([s, l]) => ({ start: s, end: s + l }));
    fc.assert(
      fc.property(fc.array(span, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.constantFrom('a', 'b'), span), { maxLength: 6 }), (refs, raw) => {
        fc.pre(sumRanges(unionRanges(refs)) > 0);
        const s = scoreQuestion(refs, 'a', raw.map(([c, r]) => ({ corpusId: c, ...r })));
        for (const v of [s.recall, s.precision, s.iou]) expect(v >= 0 && v <= 1).toBe(true);
        expect(s.iou).toBeLessThanOrEqual(Math.min(s.recall, s.precision) + 1e-12);
      }),
      { numRuns: 300 },
    );
  });
});
