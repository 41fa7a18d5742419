// Exponential-decay weighted aggregation (QASC step 4, after the QASC paper):
// S = Σ α_i·sim_i / Σ α_i over i in [lo, hi), with α_i = exp(−λ·|i − r|).

/** S for one window [lo, hi) around seed r over the f32 similarities at simPtr. */
export function decayScore(simPtr: usize, lo: i32, hi: i32, r: i32, lambda: f64): f64 {
  let num: f64 = 0;
  let den: f64 = 0;
  for (let i = lo; i < hi; i++) {
    const dist = i > r ? i - r : r - i;
    const alpha = Math.exp(-lambda * <f64>dist);
    num += alpha * <f64>load<f32>(simPtr + (<usize>i << 2));
    den += alpha;
  }
  return den > 0 ? num / den : 0;
}

/**
 * S for m windows at once: window j is [lo[j], hi[j]) around seed r[j] (Int32 arrays);
 * the scores are written to out[j] (Float64).
 */
export function decayScores(
  simPtr: usize,
  loPtr: usize,
  hiPtr: usize,
  rPtr: usize,
  m: i32,
  lambda: f64,
  outPtr: usize,
): void {
  for (let j: i32 = 0; j < m; j++) {
    const o = <usize>j << 2;
    store<f64>(
      outPtr + (<usize>j << 3),
      decayScore(simPtr, load<i32>(loPtr + o), load<i32>(hiPtr + o), load<i32>(rPtr + o), lambda),
    );
  }
}
