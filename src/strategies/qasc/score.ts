/**
 * QASC's weighted score (step 4): exponential decay from the nearest seed sentence,
 * S = Σ α_i·sim_i / Σ α_i over a span.
 * @module
 */

/** exp(−λ·d) for d = 0 … len − 1. */
export function decayTable(lambda: number, len: number): Float64Array {
  const t = new Float64Array(Math.max(1, len));
  for (let d = 0; d < t.length; d++) t[d] = Math.exp(-lambda * d);
  return t;
}

/**
 * Nearest-seed decay weights of [lo, hi): α_i = exp(−λ·dᵢ), dᵢ = min over seeds r of |i − r|,
 * written to `out[0 … hi − lo)`. `seeds` ascending, inside the range; `decay` from {@link decayTable}.
 */
export function nearestSeedWeights(lo: number, hi: number, seeds: readonly number[], decay: Float64Array, out: Float64Array): void {
  let j = 0;
  for (let i = lo; i < hi; i++) {
    while (j + 1 < seeds.length && seeds[j + 1] <= i) j++;
    let d = Math.abs(i - seeds[j]);
    if (j + 1 < seeds.length) d = Math.min(d, seeds[j + 1] - i);
    out[i - lo] = decay[d];
  }
}

/** S over [lo, hi): Σ α_i·sim_i / Σ α_i with nearest-seed weights ({@link QascSpan.score}). */
export function spanScore(sims: Float32Array, lo: number, hi: number, seeds: readonly number[], lambda: number): number {
  return spanScoreWith(sims, lo, hi, seeds, decayTable(lambda, hi - lo));
}

export function spanScoreWith(sims: Float32Array, lo: number, hi: number, seeds: readonly number[], decay: Float64Array): number {
  let num = 0;
  let den = 0;
  let j = 0;
  for (let i = lo; i < hi; i++) {
    while (j + 1 < seeds.length && seeds[j + 1] <= i) j++;
    let d = Math.abs(i - seeds[j]);
    if (j + 1 < seeds.length) d = Math.min(d, seeds[j + 1] - i);
    num += decay[d] * sims[i];
    den += decay[d];
  }
  return num / den;
}
