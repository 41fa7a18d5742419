// Cluster-semantic segmentation (Chroma's ClusterSemanticChunker, chunking_evaluation
// 2024, `_optimal_segmentation`): dynamic programming over pieces 0 … n − 1 that picks
// chunk boundaries maximising the summed within-chunk similarity, with the similarity
// matrix given as a band of width w (a chunk holds at most w pieces).
//
// reward(j, i) = Σ over a ≠ b in [j, i] of (S(a, b) − mu)  (the whole square sub-matrix,
// diagonal 0, as Chroma sums it); dp[−1] = 0;
// dp[i] = max over j in [L(i), i] of reward(j, i) + dp[j − 1]; start[i] = the j that gave
// it (the largest j among ties: sizes are tried from 1 upward, strictly better wins).
// L(i) = min(i, max(lo[i], L(i − 1), i − w + 1)): the caller's lower bound, made
// non-decreasing and at most w pieces wide.
//
// reward is built incrementally: with R[j] = reward(j, i − 1) kept per start j,
// reward(j, i) = R[j] + 2·Σ_{a=j}^{i−1} (S(a, i) − mu), the column sum grown as j moves
// left — O(w) per piece, O(n·w) in all. Arithmetic in f64, in this exact order (the
// TypeScript reference in src/kernels/reference.ts does the same, bit for bit).

/**
 * Runs the DP. band: n·w f32 with band[i·w + k] = S(i, i − k) (1 ≤ k < w, k ≤ i); lo: n
 * i32; writes start (n i32) and dp (n f64); rewardPtr: n f64 slots of scratch (R[j]).
 */
export function clusterSegments(
  bandPtr: usize,
  n: i32,
  w: i32,
  mu: f64,
  loPtr: usize,
  startPtr: usize,
  dpPtr: usize,
  rewardPtr: usize,
): void {
  let prevL: i32 = 0;
  for (let i: i32 = 0; i < n; i++) {
    let L = load<i32>(loPtr + (<usize>i << 2));
    if (L < prevL) L = prevL;
    if (L < i - w + 1) L = i - w + 1;
    if (L > i) L = i;
    if (L < 0) L = 0;
    prevL = L;
    const row = bandPtr + ((<usize>i * <usize>w) << 2);
    let col: f64 = 0;
    let best: f64 = -Infinity;
    let bestJ: i32 = i;
    for (let j: i32 = i; j >= L; j--) {
      const slot = rewardPtr + (<usize>j << 3);
      let r: f64 = 0;
      if (j < i) {
        col += <f64>load<f32>(row + (<usize>(i - j) << 2)) - mu;
        r = load<f64>(slot) + 2 * col;
      }
      store<f64>(slot, r);
      const cand = j > 0 ? r + load<f64>(dpPtr + (<usize>(j - 1) << 3)) : r;
      if (cand > best) {
        best = cand;
        bestJ = j;
      }
    }
    store<f64>(dpPtr + (<usize>i << 3), best);
    store<i32>(startPtr + (<usize>i << 2), bestJ);
  }
}
