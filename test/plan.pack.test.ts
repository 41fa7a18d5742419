/**
 * The packer (src/engine/pack/pack.ts) on its own, over hand-built levels whose sizes are
 * plain numbers: worked examples of the greedy and LangChain policies, overlap in whole
 * sections, hard boundaries, descending into a finer level, oversized sections, and
 * properties over generated levels (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlannedChunk } from '../src/engine/assemble.js';
import { pack, type OverlapPolicy, type PackLevel } from '../src/engine/pack/pack.js';

interface Spec {
  /** Size of each section; a section's text is [offset, offset + 1) per section, one code unit each. */
  sizes: number[];
  /** Added once per join between two sections (a separator's cost); default 0. */
  gap?: number;
  /** Extra exact cost of a run of two or more sections (what a BPE merge across a join can add); default 0. */
  joinPenalty?: number;
  hard?: number[];
  overlap?: OverlapPolicy;
  /** Finer levels by section index. */
  finer?: Record<number, Spec>;
  /** Offset of section 0. */
  offset?: number;
  /** Code units per section (default 1); a finer level's sections are 1 code unit each, from the start of its section. */
  width?: number;
}

/** A level over sections of `width` code units each, sizes as given: estimate = Σ sizes + gaps; exact = estimate + joinPenalty for runs of 2+. */
function level(spec: Spec): PackLevel {
  const { sizes, gap = 0, joinPenalty = 0, offset = 0, width = 1 } = spec;
  const estimate = (a: number, b: number): number => {
    let s = 0;
    for (let i = a; i <= b; i++) s += sizes[i];
    return s + gap * (b - a);
  };
  const L = {
    count: sizes.length,
    start: (i: number) => offset + i * width,
    end: (i: number) => offset + (i + 1) * width,
    size: (i: number) => sizes[i],
    estimate,
    exact: (a: number, b: number) => estimate(a, b) + (b > a ? joinPenalty : 0),
    hardBefore: (i: number) => spec.hard?.includes(i) ?? false,
    descend: (i: number) => (spec.finer?.[i] ? level({ ...spec.finer[i], offset: offset + i * width, width: 1 }) : undefined),
    overlap: spec.overlap,
    emit: (a: number, b: number, size: number, oversized: boolean): PlannedChunk => ({ start: offset + a * width, end: offset + (b + 1) * width, unitCount: size, ...(oversized ? { oversized } : {}) }),
  };
  return L as PackLevel;
}

/** The runs as `[start, end, size]` (`!` marks oversized). */
const runs = (out: PlannedChunk[]): string[] => out.map((c) => `${c.start}-${c.end}:${c.unitCount}${c.oversized ? '!' : ''}`);

describe('pack, greedy policy (worked examples)', () => {
  it('takes the longest run of sections that fits, in order', () => {
    // sizes 3 4 2 5 1, budget 7: [3 4] = 7, [2 5] = 7, [1]
    expect(runs(pack(level({ sizes: [3, 4, 2, 5, 1] }), { max: 7 }))).toEqual(['0-2:7', '2-4:7', '4-5:1']);
  });

  it('counts the gap between joined sections', () => {
    // gap 1: [3 +1+ 2] = 6; then [4 +1+ 1] = 6
    expect(runs(pack(level({ sizes: [3, 2, 4, 1], gap: 1 }), { max: 6 }))).toEqual(['0-2:6', '2-4:6']);
  });

  it('verifies on the exact size and shortens by binary search when the estimate was low', () => {
    // estimates fit 1+1+1+1 = 4 ≤ 5, but a run of 2+ costs 2 more exactly: [1 1 1] = 5
    const out = pack(level({ sizes: [1, 1, 1, 1, 1, 1], joinPenalty: 2 }), { max: 5 });
    expect(runs(out)).toEqual(['0-3:5', '3-6:5']);
  });

  it('never crosses a hard boundary', () => {
    expect(runs(pack(level({ sizes: [1, 1, 1, 1], hard: [2] }), { max: 10 }))).toEqual(['0-2:2', '2-4:2']);
  });

  it('repeats the last sections of a run under a sections overlap', () => {
    // budget 3, overlap one section: [0 1 2], [2 3 4], [4 5]
    const out = pack(level({ sizes: [1, 1, 1, 1, 1, 1], overlap: { kind: 'sections', count: 1 } }), { max: 3 });
    expect(runs(out)).toEqual(['0-3:3', '2-5:3', '4-6:2']);
  });

  it('drops overlap sections from the front until the next new section fits', () => {
    // [2 2] = 4; overlapping both would give 2 + 2 + 3 = 7 > 5; one section: 2 + 3 = 5 fits
    const out = pack(level({ sizes: [2, 2, 3], overlap: { kind: 'sections', count: 2 } }), { max: 5 });
    expect(runs(out)).toEqual(['0-2:4', '1-3:5']);
  });

  it('descends into a section too large for the budget, and flags an indivisible one', () => {
    const out = pack(level({ sizes: [2, 9, 8, 1], width: 10, finer: { 1: { sizes: [4, 4, 1] } } }), { max: 5 });
    // section 1 (9, at 10–20) is packed by its finer level: [4] [4 1]; section 2 (8) has none: oversized
    expect(runs(out)).toEqual(['0-10:2', '10-11:4', '11-13:5', '20-30:8!', '30-40:1']);
  });

  it('packs nothing from an empty level and drops a run emit() declines', () => {
    expect(pack(level({ sizes: [] }), { max: 5 })).toEqual([]);
    const L = level({ sizes: [1, 1, 9] });
    const skipping = { ...L, emit: (a: number, b: number, size: number, oversized: boolean) => (oversized ? undefined : L.emit(a, b, size, oversized)) } as PackLevel;
    expect(runs(pack(skipping, { max: 2 }))).toEqual(['0-2:2']);
  });

  it('drops a run that repeats the previous span exactly', () => {
    // a level whose runs all map onto one span (as a table part whose rows repeat): emitted once
    const L = level({ sizes: [3, 3, 3] });
    const same = { ...L, emit: (_a: number, _b: number, size: number) => ({ start: 0, end: 1, unitCount: size }) } as PackLevel;
    expect(runs(pack(same, { max: 3 }))).toEqual(['0-1:3']);
    expect(runs(pack(L, { max: 3 }))).toEqual(['0-1:3', '1-2:3', '2-3:3']);
  });

  it('appends to the array it is given', () => {
    const out: PlannedChunk[] = [{ start: -5, end: -1 }];
    expect(pack(level({ sizes: [1] }), { max: 1 }, out)).toBe(out);
    expect(runs(out)).toEqual(['-5--1:undefined', '0-1:1']);
  });
});

describe('pack, langchain policy (mergeSplits, worked examples)', () => {
  it('merges while the sum fits, then keeps at most overlapUnits from the end of the last chunk', () => {
    // sizes 2 2 2 2, budget 5, overlap 2: [2 2]; pop from the front to ≤ 2 units: [2] + next 2 → [2 2]; …
    const out = pack(level({ sizes: [2, 2, 2, 2] }), { max: 5, policy: 'langchain', overlapUnits: 2 });
    expect(runs(out)).toEqual(['0-2:4', '1-3:4', '2-4:4']);
  });

  it('without overlap is a plain greedy merge of the sums', () => {
    expect(runs(pack(level({ sizes: [3, 1, 1, 4, 2] }), { max: 5, policy: 'langchain' }))).toEqual(['0-3:5', '3-4:4', '4-5:2']);
  });

  it('splits a section over the budget by its finer level, between merged runs', () => {
    const out = pack(level({ sizes: [1, 7, 1], width: 10, finer: { 1: { sizes: [3, 4] } } }), { max: 4, policy: 'langchain' });
    expect(runs(out)).toEqual(['0-10:1', '10-11:3', '11-12:4', '20-30:1']);
  });

  it('checks the emitted run on the exact size (a join that costs more) and emits the prefix that fits', () => {
    const out = pack(level({ sizes: [1, 1, 1], joinPenalty: 2 }), { max: 3, policy: 'langchain' });
    // the sums fit (1 + 1 + 1 = 3), the exact run does not (3 + 2): no two sections fit together
    expect(runs(out)).toEqual(['0-1:1', '1-2:1', '2-3:1']);
  });
});

describe('pack, properties over generated levels', () => {
  const levels = fc.record({
    sizes: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 0, maxLength: 40 }),
    gap: fc.integer({ min: 0, max: 2 }),
    max: fc.integer({ min: 1, max: 30 }),
    overlap: fc.integer({ min: 0, max: 3 }),
  });

  it('greedy: runs are in order, cover every section once without overlap, and fit unless a single section is flagged', () => {
    fc.assert(
      fc.property(levels, ({ sizes, gap, max }) => {
        const out = pack(level({ sizes, gap }), { max });
        let next = 0;
        for (const c of out) {
          expect(c.start).toBe(next);
          next = c.end;
          if (c.oversized) {
            expect(c.end - c.start).toBe(1);
            expect(c.unitCount).toBeGreaterThan(max);
          } else expect(c.unitCount!).toBeLessThanOrEqual(max);
        }
        expect(next).toBe(sizes.length);
      }),
    );
  });

  it('greedy with a sections overlap: every section is in some run, runs start in increasing order and fit', () => {
    fc.assert(
      fc.property(levels, ({ sizes, gap, max, overlap }) => {
        const out = pack(level({ sizes, gap, overlap: { kind: 'sections', count: overlap } }), { max });
        const covered = new Array<boolean>(sizes.length).fill(false);
        for (let k = 0; k < out.length; k++) {
          for (let i = out[k].start; i < out[k].end; i++) covered[i] = true;
          if (k > 0) expect(out[k].start).toBeGreaterThan(out[k - 1].start);
          if (!out[k].oversized) expect(out[k].unitCount!).toBeLessThanOrEqual(max);
        }
        expect(covered.every(Boolean)).toBe(true);
      }),
    );
  });

  it('langchain: every section is in some run and every run fits unless flagged', () => {
    fc.assert(
      fc.property(levels, ({ sizes, gap, max, overlap }) => {
        const out = pack(level({ sizes, gap }), { max, policy: 'langchain', overlapUnits: overlap });
        const covered = new Array<boolean>(sizes.length).fill(false);
        for (const c of out) {
          for (let i = c.start; i < c.end; i++) covered[i] = true;
          if (!c.oversized) expect(c.unitCount!).toBeLessThanOrEqual(max);
        }
        expect(covered.every(Boolean)).toBe(true);
      }),
    );
  });
});
