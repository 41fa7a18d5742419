/**
 * Paired bootstrap confidence intervals (src/evaluation/bootstrap.ts): hand-checked draws,
 * the exact tails of a two-question case, and the normal approximation on a large one.
 */
import { describe, expect, it } from 'vitest';
import { InvalidInputError, InvalidOptionError } from '../src/index.js';
import { pairedBootstrap } from '../src/evaluation/index.js';

/** A "generator" that returns the given numbers in order. */
function scripted(values: number[]): () => number {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error('script exhausted');
    return values[i++];
  };
}

describe('pairedBootstrap', () => {
  it('worked example: three scripted resamples of four questions, 50 % interval', () => {
    // d = a − b = [1, 0, −1, 1], mean 0.25
    // draw 1: u = 0, .25, .5, .75 → indices 0 1 2 3 → mean 0.25
    // draw 2: u = 0, .1, .2, 0   → indices 0 0 0 0 → mean 1
    // draw 3: u = .5, .6, .7, .9 → indices 2 2 2 3 → (−1 −1 −1 +1) / 4 = −0.5
    // sorted means −0.5, 0.25, 1; 25th percentile: h = 2 · 0.25 = 0.5 → −0.5 + 0.5 · 0.75 = −0.125;
    // 75th: h = 1.5 → 0.25 + 0.5 · 0.75 = 0.625
    const random = scripted([0, 0.25, 0.5, 0.75, 0, 0.1, 0.2, 0, 0.5, 0.6, 0.7, 0.9]);
    expect(pairedBootstrap([1, 0, 0, 1], [0, 0, 1, 0], { resamples: 3, confidence: 0.5, random })).toEqual({
      mean: 0.25,
      low: -0.125,
      high: 0.625,
      resamples: 3,
      confidence: 0.5,
    });
  });

  it('two questions, d = [0, 1]: resampled means are 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4, so the 95 % interval is [0, 1]', () => {
    const r = pairedBootstrap([0.5, 1], [0.5, 0]);
    expect(r).toEqual({ mean: 0.5, low: 0, high: 1, resamples: 10_000, confidence: 0.95 });
  });

  it('equal differences give a zero-width interval; identical retrievers give [0, 0]', () => {
    expect(pairedBootstrap([0.3, 0.5, 0.9], [0.1, 0.3, 0.7])).toMatchObject({ low: expect.closeTo(0.2, 12), high: expect.closeTo(0.2, 12) });
    expect(pairedBootstrap([0.2, 0.4], [0.2, 0.4])).toMatchObject({ mean: 0, low: 0, high: 0 });
  });

  it('is reproducible for a seed and close to the normal approximation on 300 questions', () => {
    // 150 questions where a wins by 1, 150 ties: mean 0.5, sd 0.5, standard error 0.5 / √300 ≈ 0.0289
    const a = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const b = new Array<number>(300).fill(0);
    const r = pairedBootstrap(a, b);
    expect(pairedBootstrap(a, b)).toEqual(r);
    const se = 0.5 / Math.sqrt(300);
    expect(r.low).toBeCloseTo(0.5 - 1.96 * se, 2);
    expect(r.high).toBeCloseTo(0.5 + 1.96 * se, 2);
  });

  it('rejects unpaired or empty scores and bad options', () => {
    expect(() => pairedBootstrap([1, 2], [1])).toThrow(InvalidInputError);
    expect(() => pairedBootstrap([], [])).toThrow(InvalidInputError);
    expect(() => pairedBootstrap([1], [1], { resamples: 0 })).toThrow(InvalidOptionError);
    expect(() => pairedBootstrap([1], [1], { confidence: 1 })).toThrow(/strictly between 0 and 1/);
    expect(() => pairedBootstrap([1], [1], { confidence: 1.5 })).toThrow(InvalidOptionError);
  });
});
