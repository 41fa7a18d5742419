/**
 * Every WebAssembly kernel (through its typed wrapper in bindings/index.ts) against its
 * plain-TypeScript reference (src/kernels/reference.ts), on random inputs (fast-check)
 * and on hand-checked values.
 *
 * Tolerances:
 * - windows, intervals, topK: exact (integers / indices).
 * - cosine (f32 SIMD sums vs f64 reference sums rounded to f32): 1e-5 absolute, for
 *   components in [-10, 10] and d ≤ 384.
 * - percentile: exact (===, so −0 equals +0) for f64 input — the kernel and the
 *   reference both follow numpy's 'linear' method bit for bit; 1e-6 relative for f32 input.
 * - decay scores: 1e-9 relative (to max(1, |S|); the only difference is Math.exp in
 *   AssemblyScript vs V8, both within an ulp or so).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as wasm from '../bindings/index.js';
import * as ref from '../src/kernels/reference.js';
import { rng as mulberry32 } from './helpers/random.js';

const RUNS = { numRuns: 200 };

/** f32 component in [-10, 10] with two decimals, or 0 (no subnormals: f32 norms must not underflow). */
const component = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: -1000, max: 1000 }).map((x) => Math.fround(x / 100)) },
  { weight: 1, arbitrary: fc.constant(0) },
);

/** An n × d matrix (some rows zero) and a vector of d, d not restricted to multiples of 4 or 8. */
const matrixAndVector = fc
  .record({ n: fc.integer({ min: 0, max: 12 }), d: fc.integer({ min: 1, max: 67 }) })
  .chain(({ n, d }) =>
    fc.record({
      n: fc.constant(n),
      d: fc.constant(d),
      matrix: fc.array(component, { minLength: n * d, maxLength: n * d }),
      vector: fc.oneof(
        fc.array(component, { minLength: d, maxLength: d }),
        fc.constant(new Array<number>(d).fill(0)),
      ),
      zeroRows: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    }),
  )
  .map(({ n, d, matrix, vector, zeroRows }) => {
    const m = Float32Array.from(matrix);
    zeroRows.forEach((z, i) => z && m.fill(0, i * d, (i + 1) * d));
    return { n, d, matrix: m, vector: Float32Array.from(vector) };
  });

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, abs: number): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (Number.isNaN(a) || Number.isNaN(e) || Math.abs(a - e) > abs) {
      throw new Error(`index ${i}: got ${a}, expected ${e} (±${abs})`);
    }
  }
}

function unitRows(m: Float32Array, d: number): Float32Array {
  const out = m.slice();
  ref.normalizeRows(out, d);
  return out;
}

describe('window planning', () => {
  it('SPEC examples', () => {
    expect(wasm.windowCount(11, 5, 3)).toBe(3);
    expect(wasm.planWindows(11, 5, 3)).toEqual({ starts: Int32Array.of(0, 3, 6), ends: Int32Array.of(5, 8, 11) });
    expect(wasm.windowCount(9, 8, 4)).toBe(2);
    expect(wasm.planWindows(9, 8, 4)).toEqual({ starts: Int32Array.of(0, 4), ends: Int32Array.of(8, 9) });
    expect(wasm.windowCount(43, 20, 10)).toBe(4);
    expect(wasm.planWindows(43, 20, 10).starts).toEqual(Int32Array.of(0, 10, 20, 30));
    expect(wasm.planWindows(43, 20, 10).ends).toEqual(Int32Array.of(20, 30, 40, 43));
    for (const [n, w, s] of [
      [11, 5, 3],
      [9, 8, 4],
      [43, 20, 10],
    ]) {
      expect(ref.windowCount(n, w, s)).toBe(wasm.windowCount(n, w, s));
      expect(ref.planWindows(n, w, s)).toEqual(wasm.planWindows(n, w, s));
    }
  });

  it('n = 0 gives no window, n ≤ windowSize one window [0, n)', () => {
    expect(wasm.windowCount(0, 5, 3)).toBe(0);
    expect(wasm.planWindows(0, 5, 3)).toEqual({ starts: new Int32Array(0), ends: new Int32Array(0) });
    expect(wasm.planWindows(1, 5, 3)).toEqual({ starts: Int32Array.of(0), ends: Int32Array.of(1) });
    expect(wasm.planWindows(5, 5, 5)).toEqual({ starts: Int32Array.of(0), ends: Int32Array.of(5) });
  });

  it('with gaps (stride > windowSize) never emits an empty window', () => {
    // windows [0,3) [5,8); a third one would start at 10 = n
    expect(wasm.planWindows(10, 3, 5)).toEqual({ starts: Int32Array.of(0, 5), ends: Int32Array.of(3, 8) });
    expect(ref.planWindows(10, 3, 5)).toEqual(wasm.planWindows(10, 3, 5));
  });

  it('matches the reference (and the reference agrees with itself)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 400 }),
        (n, windowSize, stride) => {
          const expected = ref.planWindows(n, windowSize, stride);
          expect(expected.starts.length).toBe(ref.windowCount(n, windowSize, stride));
          expect(wasm.windowCount(n, windowSize, stride)).toBe(expected.starts.length);
          expect(wasm.planWindows(n, windowSize, stride)).toEqual(expected);
          // the rules themselves: the last window reaches n (or, with gaps, the next one
          // would start at or past n), no earlier one does, none is empty
          const { starts, ends } = expected;
          const last = starts.length - 1;
          for (let k = 0; k < starts.length; k++) {
            expect(starts[k]).toBe(k * stride);
            expect(ends[k]).toBe(Math.min(starts[k] + windowSize, n));
            expect(ends[k]).toBeGreaterThan(starts[k]);
            expect(ends[k] >= n || (k === last && starts[k] + stride >= n)).toBe(k === last);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('mergeIntervals', () => {
  const sortedIntervals = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 8 })), { maxLength: 60 })
    .map((steps) => {
      const starts: number[] = [];
      const ends: number[] = [];
      let s = 0;
      for (const [advance, len] of steps) {
        s += advance;
        starts.push(s);
        ends.push(s + len);
      }
      return { starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
    });

  it('matches the reference', () => {
    fc.assert(
      fc.property(sortedIntervals, fc.integer({ min: 0, max: 4 }), ({ starts, ends }, gap) => {
        expect(wasm.mergeIntervals(starts, ends, gap)).toEqual(ref.mergeIntervals(starts, ends, gap));
      }),
      RUNS,
    );
  });

  it('hand-checked: overlapping and adjacent merge, a gap does not (unless allowed)', () => {
    const starts = [0, 3, 5, 9, 20];
    const ends = [4, 5, 7, 12, 21];
    const r = wasm.mergeIntervals(starts, ends);
    expect(r).toEqual({ starts: Int32Array.of(0, 9, 20), ends: Int32Array.of(7, 12, 21), group: Int32Array.of(0, 0, 0, 1, 2) });
    expect(wasm.mergeIntervals(starts, ends, 2).starts).toEqual(Int32Array.of(0, 20));
    expect(wasm.mergeIntervals([], [])).toEqual({ starts: new Int32Array(0), ends: new Int32Array(0), group: new Int32Array(0) });
    expect(wasm.mergeIntervals([4], [9])).toEqual({ starts: Int32Array.of(4), ends: Int32Array.of(9), group: Int32Array.of(0) });
    // an interval inside the current one does not shrink it
    expect(wasm.mergeIntervals([0, 2], [10, 3]).ends).toEqual(Int32Array.of(10));
  });
});

describe('cosine', () => {
  it('cosineMatVec matches the reference within 1e-5 (raw and normalized)', () => {
    fc.assert(
      fc.property(matrixAndVector, ({ d, matrix, vector }) => {
        const got = wasm.cosineMatVec(matrix, d, vector);
        expect(got.some(Number.isNaN)).toBe(false);
        expectClose(got, ref.cosineMatVec(matrix, d, vector), 1e-5);
        const um = unitRows(matrix, d);
        const uv = unitRows(vector, d);
        expectClose(wasm.cosineMatVec(um, d, uv, true), ref.cosineMatVec(um, d, uv, true), 1e-5);
      }),
      RUNS,
    );
  });

  it('cosineNeighbours matches the reference within 1e-5 (raw and normalized)', () => {
    fc.assert(
      fc.property(matrixAndVector, ({ d, matrix }) => {
        const got = wasm.cosineNeighbours(matrix, d);
        expect(got.some(Number.isNaN)).toBe(false);
        expectClose(got, ref.cosineNeighbours(matrix, d), 1e-5);
        const um = unitRows(matrix, d);
        expectClose(wasm.cosineNeighbours(um, d, true), ref.cosineNeighbours(um, d, true), 1e-5);
      }),
      RUNS,
    );
  });

  it('d = 384 with random f32 rows', () => {
    const d = 384;
    const n = 50;
    const rnd = mulberry32(7);
    const m = Float32Array.from({ length: n * d }, () => rnd() * 2 - 1);
    const v = Float32Array.from({ length: d }, () => rnd() * 2 - 1);
    expectClose(wasm.cosineMatVec(m, d, v), ref.cosineMatVec(m, d, v), 1e-5);
    expectClose(wasm.cosineNeighbours(m, d), ref.cosineNeighbours(m, d), 1e-5);
  });

  it('edge cases: n = 0, n = 1, zero vectors give 0, d = 1..9, parallel and opposite', () => {
    expect(wasm.cosineMatVec(new Float32Array(0), 3, Float32Array.of(1, 2, 3))).toEqual(new Float32Array(0));
    expect(wasm.cosineNeighbours(new Float32Array(0), 3)).toEqual(new Float32Array(0));
    expect(wasm.cosineNeighbours(Float32Array.of(1, 2, 3), 3)).toEqual(new Float32Array(0));
    expect(wasm.cosineMatVec(Float32Array.of(1, 2, 3), 3, Float32Array.of(0, 0, 0))).toEqual(Float32Array.of(0));
    expectClose(wasm.cosineMatVec(Float32Array.of(0, 0, 0, 1, 2, 3), 3, Float32Array.of(1, 2, 3)), [0, 1], 1e-6);
    expect(wasm.cosineNeighbours(Float32Array.of(0, 0, 1, 1, 0, 0), 2)).toEqual(Float32Array.of(0, 0));
    for (let d = 1; d <= 9; d++) {
      const a = Float32Array.from({ length: d }, (_, i) => i + 1);
      const m = new Float32Array(3 * d);
      m.set(a, 0);
      m.set(a.map((x) => -2 * x), d);
      m.set(a.map((x) => 3 * x), 2 * d);
      expectClose(wasm.cosineMatVec(m, d, a), [1, -1, 1], 1e-6);
      expectClose(wasm.cosineNeighbours(m, d), [-1, -1], 1e-6);
    }
  });

  it('normalizeRows matches the reference and leaves zero rows zero', () => {
    fc.assert(
      fc.property(matrixAndVector, ({ d, matrix }) => {
        const k = wasm.getKernels();
        const got = k.job(() => {
          const m = k.copyF32(matrix);
          wasm.normalizeRows(m, d);
          return m.toArray();
        });
        const expected = unitRows(matrix, d);
        expectClose(got, expected, 1e-6);
        for (let i = 0; i < expected.length; i++) if (matrix[i] === 0 && expected[i] === 0) expect(got[i]).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
});

describe('percentile', () => {
  const p = fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.integer({ min: 0, max: 100 }), fc.constantFrom(0, 100));
  const f64 = fc.double({ min: -1e6, max: 1e6, noNaN: true });
  const shapes = <T>(arb: fc.Arbitrary<T[]>) =>
    fc.oneof(
      arb,
      arb.map((a) => [...a].sort((x, y) => Number(x) - Number(y))),
      arb.map((a) => [...a].sort((x, y) => Number(y) - Number(x))),
    );
  const f64Lists = fc.oneof(
    shapes(fc.array(f64, { maxLength: 200 })),
    shapes(fc.array(fc.constantFrom(-1, 0, 0.5, 2, 7), { maxLength: 200 })), // many duplicates
    fc.tuple(f64, fc.integer({ min: 1, max: 50 })).map(([x, n]) => new Array<number>(n).fill(x)), // all equal
  );

  it('f64: exactly the reference (numpy linear)', () => {
    fc.assert(
      fc.property(f64Lists, p, (values, q) => {
        const expected = ref.percentile(values, q);
        const fromArray = wasm.percentile(values, q);
        const fromTyped = wasm.percentile(Float64Array.from(values), q);
        if (values.length === 0) {
          expect(fromArray).toBeNaN();
          expect(expected).toBeNaN();
        } else {
          if (!(fromArray === expected)) throw new Error(`got ${fromArray}, expected ${expected}`);
          if (!(fromTyped === expected)) throw new Error(`got ${fromTyped}, expected ${expected}`);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('f32: within 1e-6 relative of the reference', () => {
    const f32 = fc.float({ min: -1e4, max: 1e4, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(shapes(fc.array(f32, { minLength: 1, maxLength: 200 })), p, (values, q) => {
        const arr = Float32Array.from(values);
        const got = wasm.percentile(arr, q);
        const expected = ref.percentile(arr, q);
        expect(Math.abs(got - expected)).toBeLessThanOrEqual(1e-6 * Math.max(Math.abs(expected), 1e-30));
      }),
      RUNS,
    );
  });

  it('hand-checked values (numpy 2.4: np.percentile)', () => {
    for (const f of [wasm.percentile, ref.percentile]) {
      expect(f([1, 2, 3, 4], 75)).toBe(3.25);
      expect(f([1, 2, 3, 4], 50)).toBe(2.5);
      expect(f([4, 3, 2, 1], 0)).toBe(1);
      expect(f([4, 3, 2, 1], 100)).toBe(4);
      expect(f(Float32Array.of(1, 2, 3, 4), 75)).toBe(3.25);
      expect(f([5], 37)).toBe(5);
      expect(f([2, 2, 2, 2], 33)).toBe(2);
      // values where numpy's (n − 1)·(p / 100) and its monotone lerp differ from the
      // naive (n − 1)·p / 100 and a + t·(b − a) in the last bit
      expect(f([0.692, 3.023, -4.369, -3.821], 60)).toBe(-0.2106000000000008);
      expect(f([3.681, -0.47, 2.541], 28.11966780540289)).toBe(1.223366395241362);
      expect(f([2.774, -2.945, 4.497, -0.189, -1.353, 0.544, 4.41, -0.866, 3.134, -0.856], 69)).toBe(2.8495999999999997);
      expect(f([], 50)).toBeNaN();
      expect(f([1, NaN, 3], 50)).toBeNaN(); // as numpy
      expect(f(Float32Array.of(1, NaN, 3), 0)).toBeNaN();
    }
  });

  it('large sorted, reverse-sorted and constant inputs (selection stays correct and fast)', () => {
    const n = 200_001;
    const asc = Float64Array.from({ length: n }, (_, i) => i);
    const desc = asc.slice().reverse();
    const flat = new Float64Array(n).fill(3);
    const dup = Float64Array.from({ length: n }, (_, i) => i % 3);
    for (const q of [0, 1, 50, 75, 99.9, 100]) {
      for (const a of [asc, desc, flat, dup]) expect(wasm.percentile(a, q)).toBe(ref.percentile(a, q));
    }
  });
});

describe('decay scores', () => {
  const relClose = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

  it('decayScore and decayScores match the reference within 1e-9 relative', () => {
    const input = fc
      .array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 80 })
      .chain((sims) =>
        fc.record({
          sims: fc.constant(Float32Array.from(sims)),
          windows: fc.array(
            fc
              .tuple(
                fc.integer({ min: 0, max: sims.length }),
                fc.integer({ min: 0, max: sims.length }),
                fc.integer({ min: -2, max: sims.length + 2 }),
              )
              .map(([a, b, r]) => ({ lo: Math.min(a, b), hi: Math.max(a, b), r })),
            { maxLength: 20 },
          ),
          lambda: fc.oneof(fc.constantFrom(0, 0.5, 1), fc.double({ min: 0, max: 10, noNaN: true })),
        }),
      );
    fc.assert(
      fc.property(input, ({ sims, windows, lambda }) => {
        const lo = windows.map((w) => w.lo);
        const hi = windows.map((w) => w.hi);
        const r = windows.map((w) => w.r);
        const got = wasm.decayScores(sims, lo, hi, r, lambda);
        const expected = ref.decayScores(sims, lo, hi, r, lambda);
        expect(got.length).toBe(expected.length);
        for (let j = 0; j < expected.length; j++) {
          expect(relClose(got[j], expected[j])).toBe(true);
          expect(relClose(wasm.decayScore(sims, lo[j], hi[j], r[j], lambda), expected[j])).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('hand-checked: empty window 0, λ = 0 is the plain mean, one sentence is itself', () => {
    const sims = Float32Array.of(0.5, 1, 0.25, 0);
    expect(wasm.decayScore(sims, 2, 2, 2, 0.5)).toBe(0);
    expect(wasm.decayScore(sims, 0, 4, 1, 0)).toBe(0.4375);
    expect(wasm.decayScore(sims, 1, 2, 1, 0.5)).toBe(1);
    const e = Math.exp(-0.5);
    expect(wasm.decayScore(sims, 0, 3, 1, 0.5)).toBeCloseTo((e * 0.5 + 1 + e * 0.25) / (2 * e + 1), 12);
    expect(wasm.decayScores(sims, [], [], [], 0.5)).toEqual(new Float64Array(0));
  });
});

describe('topK', () => {
  const scores = fc.oneof(
    fc.array(fc.float({ noDefaultInfinity: false }), { maxLength: 300 }), // includes NaN, ±Infinity, −0
    fc.array(fc.constantFrom(0, -0, 1, 2, NaN, -Infinity), { maxLength: 100 }), // many ties
    fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { maxLength: 300 }).map((a) => a.sort((x, y) => x - y)),
    fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { maxLength: 300 }).map((a) => a.sort((x, y) => y - x)),
  );

  it('matches the reference (k from −1 to beyond n)', () => {
    fc.assert(
      fc.property(scores, fc.integer({ min: -1, max: 320 }), (values, k) => {
        const s = Float32Array.from(values);
        expect(wasm.topK(s, k)).toEqual(ref.topK(s, k));
      }),
      { numRuns: 400 },
    );
  });

  it('reference agrees with a full sort', () => {
    fc.assert(
      fc.property(scores, fc.integer({ min: 0, max: 320 }), (values, k) => {
        const s = Float32Array.from(values);
        const order = [...s.keys()].sort((a, b) => {
          const x = s[a];
          const y = s[b];
          if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
          if (!Number.isNaN(x) && x !== y) return y - x;
          return a - b;
        });
        expect(Array.from(ref.topK(s, k))).toEqual(order.slice(0, k));
      }),
      RUNS,
    );
  });

  it('hand-checked: NaN last (even after −Infinity), ties to the lower index, k > n, k ≤ 0', () => {
    for (const f of [wasm.topK, ref.topK]) {
      expect(f(Float32Array.of(0.1, 0.9, 0.5), 2)).toEqual(Int32Array.of(1, 2));
      expect(f(Float32Array.of(NaN, -Infinity), 1)).toEqual(Int32Array.of(1));
      expect(f(Float32Array.of(NaN, 1, NaN, -Infinity), 4)).toEqual(Int32Array.of(1, 3, 0, 2));
      expect(f(Float32Array.of(2, 5, 5, 2, 5), 3)).toEqual(Int32Array.of(1, 2, 4));
      expect(f(Float32Array.of(-0, 0), 1)).toEqual(Int32Array.of(0));
      expect(f(Float32Array.of(3, 1, 2), 10)).toEqual(Int32Array.of(0, 2, 1));
      expect(f(Float32Array.of(3, 1, 2), 0)).toEqual(new Int32Array(0));
      expect(f(Float32Array.of(3, 1, 2), -5)).toEqual(new Int32Array(0));
      expect(f(new Float32Array(0), 3)).toEqual(new Int32Array(0));
      expect(f(Float32Array.of(7), 1)).toEqual(Int32Array.of(0));
    }
  });
});


describe('cluster-semantic kernels (bandDots, meanPairDot, clusterSegments)', () => {
  /** n × d unit rows (some zero rows), w the band width. */
  const unitMatrix = fc
    .record({ n: fc.integer({ min: 0, max: 30 }), d: fc.integer({ min: 1, max: 67 }), w: fc.integer({ min: 1, max: 9 }) })
    .chain(({ n, d, w }) =>
      fc.record({
        n: fc.constant(n),
        d: fc.constant(d),
        w: fc.constant(w),
        matrix: fc.array(component, { minLength: n * d, maxLength: n * d }).map((m) => unitRows(Float32Array.from(m), d)),
      }),
    );

  it('bandDots matches the reference within 1e-5, zero outside the band', () => {
    fc.assert(
      fc.property(unitMatrix, ({ n, d, w, matrix }) => {
        const got = wasm.bandDots(matrix, d, w);
        expectClose(got, ref.bandDots(matrix, d, w), 1e-5);
        for (let i = 0; i < n; i++) {
          expect(got[i * w]).toBe(0);
          for (let k = i + 1; k < w; k++) expect(got[i * w + k]).toBe(0);
          // and the band is the similarity of the rows it names
          for (let k = 1; k < w && k <= i; k++) {
            let s = 0;
            for (let j = 0; j < d; j++) s += matrix[i * d + j] * matrix[(i - k) * d + j];
            expect(Math.abs(got[i * w + k] - s)).toBeLessThan(1e-5);
          }
        }
      }),
      RUNS,
    );
  });

  it('meanPairDot equals the reference bit for bit and the mean over all pairs within 1e-9', () => {
    fc.assert(
      fc.property(unitMatrix, ({ n, d, matrix }) => {
        const got = wasm.meanPairDot(matrix, d);
        expect(got).toBe(ref.meanPairDot(matrix, d));
        let sum = 0;
        for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) for (let j = 0; j < d; j++) sum += matrix[a * d + j] * matrix[b * d + j];
        const mean = n < 2 ? 0 : sum / ((n * (n - 1)) / 2);
        expect(Math.abs(got - mean)).toBeLessThan(1e-9);
      }),
      RUNS,
    );
  });

  /** A band of n × w similarities in [−1, 1], a mean, and caller lower bounds (not necessarily sorted). */
  const dpInput = fc
    .record({ n: fc.integer({ min: 0, max: 40 }), w: fc.integer({ min: 1, max: 10 }) })
    .chain(({ n, w }) =>
      fc.record({
        n: fc.constant(n),
        w: fc.constant(w),
        band: fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: n * w, maxLength: n * w }),
        mu: fc.oneof(fc.constant(0), fc.double({ min: -0.5, max: 0.9, noNaN: true })),
        lo: fc.array(fc.integer({ min: -2, max: 40 }), { minLength: n, maxLength: n }),
      }),
    )
    .map((x) => ({ ...x, band: Float32Array.from(x.band), lo: Int32Array.from(x.lo) }));

  it('clusterSegments: WASM equals the reference bit for bit', () => {
    fc.assert(
      fc.property(dpInput, ({ band, w, mu, lo }) => {
        const got = wasm.clusterSegments(band, w, mu, lo);
        const expected = ref.clusterSegments(band, w, mu, lo);
        expect(got.start).toEqual(expected.start);
        expect(got.dp).toEqual(expected.dp);
      }),
      { numRuns: 300 },
    );
  });

  /** reward(j, i) summed from the definition: every ordered pair a ≠ b in [j, i]. */
  function rewardOf(band: Float32Array, w: number, mu: number, j: number, i: number): number {
    let r = 0;
    for (let a = j; a <= i; a++) for (let b = j; b <= i; b++) if (a !== b) r += band[Math.max(a, b) * w + Math.abs(a - b)] - mu;
    return r;
  }

  it('clusterSegments: dp[n − 1] is the best total over every allowed segmentation (n ≤ 10), and backtracking reaches it', () => {
    const small = dpInput.filter(({ n }) => n <= 10);
    fc.assert(
      fc.property(small, ({ n, band, w, mu, lo }) => {
        const { start, dp } = ref.clusterSegments(band, w, mu, lo);
        if (n === 0) return;
        // the lower bounds as the kernel makes them
        const L: number[] = [];
        for (let i = 0, prev = 0; i < n; i++) L.push((prev = Math.max(0, Math.min(i, Math.max(lo[i], prev, i - w + 1)))));
        let best = -Infinity;
        for (let mask = 0; mask < 1 << (n - 1); mask++) {
          // bit b set: a chunk ends after piece b
          let total = 0;
          let ok = true;
          for (let j = 0, i = 0; i < n; i++) {
            if (i === n - 1 || mask & (1 << i)) {
              if (j < L[i]) ok = false;
              total += rewardOf(band, w, mu, j, i);
              j = i + 1;
            }
          }
          if (ok) best = Math.max(best, total);
        }
        expect(Math.abs(dp[n - 1] - best)).toBeLessThan(1e-9);
        let total = 0;
        for (let i = n - 1; i >= 0; i = start[i] - 1) {
          expect(start[i]).toBeGreaterThanOrEqual(L[i]);
          expect(start[i]).toBeLessThanOrEqual(i);
          total += rewardOf(band, w, mu, start[i], i);
        }
        expect(Math.abs(total - dp[n - 1])).toBeLessThan(1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it('hand-checked: three pieces, S01 = 0.75, S02 = 0.125, S12 = 0.25, mu = 0.375', () => {
    // M = S − mu: M01 = 0.375, M02 = −0.25, M12 = −0.125.
    // i = 0: [0] → dp 0.
    // i = 1: [1] + dp0 = 0; [0,1] = 2·0.375 = 0.75 → dp1 = 0.75, start 0.
    // i = 2: [2] + dp1 = 0.75; [1,2] + dp0 = 2·(−0.125) = −0.25; [0,2] = 2·(0.375 − 0.25 − 0.125) = 0 → dp2 = 0.75, start 2.
    const band = Float32Array.of(0, 0, 0, 0, 0.75, 0, 0, 0.25, 0.125); // w = 3: row i holds S(i, i − k), k = 0, 1, 2
    for (const f of [wasm.clusterSegments, ref.clusterSegments]) {
      expect(f(band, 3, 0.375, [0, 0, 0])).toEqual({ start: Int32Array.of(0, 0, 2), dp: Float64Array.of(0, 0.75, 0.75) });
      // w = 2 (two pieces at most): [0, 2] is not allowed, the result is the same
      expect(f(Float32Array.of(0, 0, 0, 0.75, 0, 0.25), 2, 0.375, [0, 0, 0])).toEqual({ start: Int32Array.of(0, 0, 2), dp: Float64Array.of(0, 0.75, 0.75) });
      // lo forbids [0, 1]: piece 1 alone, then [1, 2] (−0.25) loses to [2] alone (0)
      expect(f(band, 3, 0.375, [0, 1, 0])).toEqual({ start: Int32Array.of(0, 1, 2), dp: Float64Array.of(0, 0, 0) });
      // every S equal to mu: all segmentations score 0, ties go to the shortest last chunk
      expect(f(new Float32Array(9).fill(0.5), 3, 0.5, [0, 0, 0]).start).toEqual(Int32Array.of(0, 1, 2));
      expect(f(new Float32Array(0), 3, 0, [])).toEqual({ start: new Int32Array(0), dp: new Float64Array(0) });
    }
    expect(() => wasm.clusterSegments(band, 4, 0, [0, 0, 0])).toThrow(/band holds 9 floats, expected 3 × 4/);
    expect(() => wasm.bandDots(band, 0, 2)).toThrow(/d must be an integer ≥ 1/);
  });
});

describe('firstSurrogate', () => {
  /** Code units drawn mostly from ASCII, with two-byte letters, a surrogate pair's halves and 0xD7FF / 0xE000 (the neighbours of the range). */
  const unit = fc.oneof(
    { weight: 20, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 2, arbitrary: fc.constantFrom(0xe9, 0x3b1, 0xd7ff, 0xe000, 0xf800, 0xffff) },
    { weight: 1, arbitrary: fc.constantFrom(0xd800, 0xd83d, 0xdbff, 0xdc00, 0xde00, 0xdfff) },
  );
  /** Long runs without surrogates with a few units dropped in, so the kernel's 32-unit blocks and its tail both meet them. */
  const text = fc
    .tuple(fc.integer({ min: 0, max: 12_000 }), fc.array(fc.tuple(fc.nat(), unit), { maxLength: 4 }), fc.nat(), fc.nat())
    .map(([n, drops, a, b]) => {
      const units = new Array<number>(n).fill(0x61);
      for (const [at, u] of drops) if (n > 0) units[at % n] = u;
      const s = units.map((u) => String.fromCharCode(u)).join('');
      const from = n ? a % (n + 1) : 0;
      const to = from + (n - from ? b % (n - from + 1) : 0);
      return { s, from, to };
    });

  it('matches the reference on long texts (the kernel path) and short ones (the regular expression)', () => {
    fc.assert(
      fc.property(text, ({ s, from, to }) => {
        expect(wasm.firstSurrogate(s, from, to)).toBe(ref.firstSurrogate(s, from, to));
        expect(wasm.firstSurrogate(s)).toBe(ref.firstSurrogate(s));
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 200 }), (units) => {
        const s = String.fromCharCode(...units);
        expect(wasm.firstSurrogate(s)).toBe(ref.firstSurrogate(s));
      }),
      RUNS,
    );
  });

  it('scans in a kernels instance of its own: a view of the shared instance kept across a long scan stays live', () => {
    const shared = wasm.getKernels();
    // fill the shared instance's memory to 1 KiB short of its end: a scan there would grow it
    const top = Math.ceil(shared.exports.heapBase() / 16) * 16 + shared.allocatedBytes;
    const n = Math.floor((shared.memoryBytes - top - 1024) / 4);
    const kept = shared.allocF32(n);
    const view = kept.view;
    const before = shared.memoryBytes;
    expect(wasm.firstSurrogate('\u0101'.repeat(600_000) + '😀')).toBe(600_000);
    expect(shared.memoryBytes).toBe(before);
    expect(view.length).toBe(n);
    shared.reset();
  });

  it('hand-checked: each half of a pair, a lone half, the neighbours of the range, and both sides of a 2^19-unit step', () => {
    const a = (n: number) => 'a'.repeat(n);
    expect(wasm.firstSurrogate(a(5000) + '😀')).toBe(5000); // 😀 is \uD83D\uDE00
    expect(wasm.firstSurrogate(a(5000) + '\uDE00')).toBe(5000);
    expect(wasm.firstSurrogate(a(5000) + '\uD7FF\uE000' + a(40))).toBe(-1);
    expect(wasm.firstSurrogate(a(5000) + '😀', 0, 5000)).toBe(-1);
    expect(wasm.firstSurrogate(a(5000) + '😀', 5001)).toBe(5001);
    const step = 1 << 19;
    for (const at of [step - 1, step, step + 31, step + 32]) {
      const s = a(at) + '\uD800' + a(600_000 - at);
      expect(wasm.firstSurrogate(s)).toBe(at);
      expect(wasm.firstSurrogate(s, 1)).toBe(at);
      expect(wasm.firstSurrogate(s, at + 1)).toBe(-1);
    }
  });
});
