/**
 * poolTokenSpans (late chunking's pooling): the same vectors as the plain definition
 * (every span × every token), and work that grows linearly with the document (issue 16:
 * it looped over every token for every span, ×4 per doubling).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { poolTokenSpans, type PoolWork } from '../src/embedders/pool-spans.js';
import type { TokenEmbeddings } from '../src/embedders/types.js';
import { InvalidInputError } from '../src/engine/errors.js';
import { randomMatrix } from './helpers/embedder-fixtures.js';

/** The definition: for each span, the normalised mean of the content tokens that overlap it. */
function reference(tokens: TokenEmbeddings, d: number, starts: number[], ends: number[]): Float64Array {
  const T = tokens.offsets.length / 2;
  const out = new Float64Array(starts.length * d);
  for (let k = 0; k < starts.length; k++) {
    const acc = new Float64Array(d);
    let n = 0;
    for (let t = 0; t < T; t++) {
      const [s, e] = [tokens.offsets[2 * t], tokens.offsets[2 * t + 1]];
      if (tokens.special[t] || e <= s || e <= starts[k] || s >= ends[k]) continue;
      for (let j = 0; j < d; j++) acc[j] += tokens.vectors[t * d + j];
      n++;
    }
    const norm = Math.hypot(...acc);
    if (n > 0 && norm > 0) for (let j = 0; j < d; j++) out[k * d + j] = acc[j] / norm;
  }
  return out;
}

/** T tokens of 4 characters with one space between ([CLS] first, [SEP] last, zero-width), d values each. */
function documentTokens(T: number, d: number, seed = 1): TokenEmbeddings {
  const offsets = new Int32Array((T + 2) * 2);
  for (let t = 0; t < T; t++) {
    offsets[2 * (t + 1)] = 5 * t;
    offsets[2 * (t + 1) + 1] = 5 * t + 4;
  }
  offsets[2 * (T + 1)] = offsets[2 * (T + 1) + 1] = 5 * T - 1;
  const special = new Uint8Array(T + 2);
  special[0] = special[T + 1] = 1;
  return { vectors: randomMatrix(T + 2, d, seed), offsets, special, truncated: false };
}

/** Fixed-size character spans of `size` with `overlap` over `length` characters, in order. */
function charSpans(length: number, size: number, overlap: number): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let a = 0; ; a += size - overlap) {
    starts.push(a);
    ends.push(Math.min(length, a + size));
    if (a + size >= length) break;
  }
  return { starts, ends };
}

/** Counts element reads of a typed array (the pooling loop's steps over tokens, seen from outside). */
function counting<A extends Int32Array | Uint8Array>(array: A, counter: { reads: number }): A {
  return new Proxy(array, {
    get(target, key) {
      if (typeof key === 'string' && key.length > 0 && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57) counter.reads++;
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

describe('poolTokenSpans', () => {
  it('equals the definition for any tokens and spans: overlapping, out of order, empty, special (fast-check)', () => {
    const d = 3;
    const token = fc.record({ s: fc.integer({ min: 0, max: 60 }), w: fc.integer({ min: 0, max: 6 }), special: fc.boolean() });
    const span = fc.record({ a: fc.integer({ min: 0, max: 70 }), w: fc.integer({ min: 0, max: 25 }) });
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), fc.array(span, { maxLength: 12 }), fc.boolean(), (toks, sp, ordered) => {
        // model output is ordered by start; also try an arbitrary order
        const list = ordered ? [...toks].sort((x, y) => x.s - y.s) : toks;
        const offsets = new Int32Array(list.flatMap((t) => [t.s, t.s + t.w]));
        const tokens: TokenEmbeddings = {
          vectors: randomMatrix(list.length, d, list.length + 1),
          offsets,
          special: new Uint8Array(list.map((t) => (t.special ? 1 : 0))),
          truncated: false,
        };
        const starts = sp.map((x) => x.a);
        const ends = sp.map((x) => x.a + x.w);
        const got = poolTokenSpans(tokens, d, starts, ends);
        const want = reference(tokens, d, starts, ends);
        for (let i = 0; i < want.length; i++) expect(got[i]).toBeCloseTo(want[i], 5);
      }),
      { numRuns: 400, seed: 16 },
    );
  });

  it('rejects reversed spans and unequal lengths', () => {
    const tokens = documentTokens(4, 2);
    expect(() => poolTokenSpans(tokens, 2, [0, 5], [3])).toThrow(InvalidInputError);
    expect(() => poolTokenSpans(tokens, 2, [6], [5])).toThrow(/span 0 with end ≥ start/);
  });

  it('work grows linearly: doubling the document at most ×2.2 loop steps and token reads (was ×4: every token for every span)', () => {
    const d = 2;
    const rows = [1000, 2000, 4000, 8000].map((T) => {
      const doc = documentTokens(T, d);
      const reads = { reads: 0 };
      const tokens = { ...doc, offsets: counting(doc.offsets, reads), special: counting(doc.special, reads) };
      const { starts, ends } = charSpans(5 * T, 40, 10);
      const work: PoolWork = { steps: 0 };
      const pooled = poolTokenSpans(tokens, d, starts, ends, work);
      // spot check: span 1 = chars [30, 70) = tokens 6..13 (each 4 chars, one space between)
      const want = reference(doc, d, [starts[1]], [ends[1]]);
      expect(pooled[d]).toBeCloseTo(want[0], 6);
      return { T, spans: starts.length, reads: reads.reads, steps: work.steps };
    });
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i].reads / rows[i - 1].reads).toBeLessThanOrEqual(2.2);
      expect(rows[i].steps / rows[i - 1].steps).toBeLessThanOrEqual(2.2);
      expect(rows[i].steps / rows[i - 1].steps).toBeGreaterThanOrEqual(1.8); // the counter counts
    }
    // per token: the scan (2), the pointer (≈ 1) and the spans holding it (≈ 1.3 with this overlap), not one per span
    expect(rows[3].steps / rows[3].T).toBeLessThan(6);
  });
});
