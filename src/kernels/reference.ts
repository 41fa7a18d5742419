/**
 * Plain-TypeScript reference implementations of the WebAssembly kernels
 * (`assembly/kernels/`, wrapped by `bindings/index.ts`).
 *
 * Each function has the same signature and the same result as its typed wrapper in
 * `bindings/index.ts`, but works on ordinary typed arrays and is written to be
 * obviously correct rather than fast. They serve three purposes:
 * - tests compare every WASM kernel with its reference on random inputs
 *   (`test/kernels.test.ts`);
 * - benchmarks measure what the kernels gain over plain TypeScript
 *   (`bench/kernels.bench.ts`);
 * - they are the fallback where WebAssembly is unavailable.
 *
 * Numeric conventions match the kernels: cosine similarities are returned as f32
 * (computed here in f64, so they are at least as accurate as the kernels' f32 SIMD
 * sums); percentiles and decay scores are f64.
 *
 * Nothing here imports a Node built-in.
 * @module
 */

/** Window starts and ends (unit indices, end exclusive), one entry per window. */
export interface WindowPlan {
  starts: Int32Array;
  ends: Int32Array;
}

/** Merged intervals and, per input interval, the index of the merged one it joined. */
export interface MergedIntervals {
  starts: Int32Array;
  ends: Int32Array;
  group: Int32Array;
}

function assertWindowArgs(windowSize: number, stride: number): void {
  if (!(windowSize >= 1) || !(stride >= 1)) {
    throw new RangeError(`windowSize and stride must be ≥ 1, got ${windowSize} and ${stride}`);
  }
}

/**
 * Number of windows {@link planWindows} returns over `n` units (the exact
 * sliding-window rules): 0 when n ≤ 0, 1 when n ≤ windowSize, otherwise the
 * index of the first window that reaches n, plus one. With gaps (stride > windowSize)
 * no window starts at or after n, so the count is also at most ⌈n / stride⌉.
 *
 * Examples: (11, 5, 3) → 3; (9, 8, 4) → 2; (43, 20, 10) → 4.
 * @param n number of units (integer ≥ 0)
 * @param windowSize units per window (integer ≥ 1)
 * @param stride distance between window starts (integer ≥ 1)
 * @throws {RangeError} when windowSize or stride is below 1
 */
export function windowCount(n: number, windowSize: number, stride: number): number {
  assertWindowArgs(windowSize, stride);
  if (n <= 0) return 0;
  if (n <= windowSize) return 1;
  const reachesEnd = Math.ceil((n - windowSize) / stride) + 1;
  return Math.min(reachesEnd, Math.ceil(n / stride));
}

/**
 * Plans sliding windows over `n` units: window k is
 * [k·stride, min(k·stride + windowSize, n)); the last window is the first one that
 * reaches n; no empty window is emitted. Written as the literal loop over window starts.
 *
 * Example: (11, 5, 3) → starts [0, 3, 6], ends [5, 8, 11].
 * @returns Int32Arrays `starts` and `ends` of {@link windowCount}(n, windowSize, stride) entries
 * @throws {RangeError} when windowSize or stride is below 1
 */
export function planWindows(n: number, windowSize: number, stride: number): WindowPlan {
  assertWindowArgs(windowSize, stride);
  const starts: number[] = [];
  const ends: number[] = [];
  for (let start = 0; start < n; start += stride) {
    const end = Math.min(start + windowSize, n);
    starts.push(start);
    ends.push(end);
    if (end >= n) break;
  }
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}

/**
 * Merges half-open intervals [starts[i], ends[i]) that are sorted by start (SPEC
 * section 2, step 5): an interval joins the current merged one when it starts at most
 * `gap` after the current end, so with gap = 0 overlapping and adjacent intervals merge.
 * @param starts interval starts, non-decreasing (n entries)
 * @param ends interval ends (n entries)
 * @param gap largest distance between intervals that still merges (default 0)
 * @returns merged `starts` / `ends` (m entries) and `group` (n entries): the merged
 *   interval each input went into
 */
export function mergeIntervals(starts: ArrayLike<number>, ends: ArrayLike<number>, gap = 0): MergedIntervals {
  const n = starts.length;
  const outStarts: number[] = [];
  const outEnds: number[] = [];
  const group = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const m = outStarts.length;
    if (m > 0 && starts[i] <= outEnds[m - 1] + gap) {
      outEnds[m - 1] = Math.max(outEnds[m - 1], ends[i]);
      group[i] = m - 1;
    } else {
      outStarts.push(starts[i]);
      outEnds.push(ends[i]);
      group[i] = m;
    }
  }
  return { starts: Int32Array.from(outStarts), ends: Int32Array.from(outEnds), group };
}

function dot(a: ArrayLike<number>, aOff: number, b: ArrayLike<number>, bOff: number, d: number): number {
  let s = 0;
  for (let j = 0; j < d; j++) s += a[aOff + j] * b[bOff + j];
  return s;
}

function cosineOf(ab: number, aa: number, bb: number): number {
  const den = Math.sqrt(aa) * Math.sqrt(bb);
  return den > 0 ? ab / den : 0;
}

/**
 * out[i] = cos(M[i], v) for each row of an n × d row-major matrix M and a vector v of
 * length d (QASC step 1: sim_i = cos(e(s_i), e(q))). A zero vector gives 0,
 * never NaN. With `normalized` the inputs are taken as unit vectors (dot product only).
 * Sums in f64; the result is rounded to f32.
 * @param matrix n·d floats, row-major (n = ⌊matrix.length / d⌋)
 * @param d dimension
 * @param vector d floats
 * @returns Float32Array of n similarities
 */
export function cosineMatVec(matrix: Float32Array, d: number, vector: Float32Array, normalized = false): Float32Array {
  const n = d > 0 ? Math.floor(matrix.length / d) : 0;
  const out = new Float32Array(n);
  const vv = normalized ? 1 : dot(vector, 0, vector, 0, d);
  for (let i = 0; i < n; i++) {
    const ab = dot(matrix, i * d, vector, 0, d);
    out[i] = normalized ? ab : cosineOf(ab, dot(matrix, i * d, matrix, i * d, d), vv);
  }
  return out;
}

/**
 * out[i] = cos(M[i], M[i + 1]) for i < n − 1 over an n × d row-major matrix: each row
 * against the next (semantic chunking: distances between neighbours).
 * Zero rows give 0. Sums in f64; the result is rounded to f32.
 * @returns Float32Array of max(n − 1, 0) similarities
 */
export function cosineNeighbours(matrix: Float32Array, d: number, normalized = false): Float32Array {
  const n = d > 0 ? Math.floor(matrix.length / d) : 0;
  const out = new Float32Array(Math.max(n - 1, 0));
  for (let i = 0; i + 1 < n; i++) {
    const a = i * d;
    const b = a + d;
    const ab = dot(matrix, a, matrix, b, d);
    out[i] = normalized ? ab : cosineOf(ab, dot(matrix, a, matrix, a, d), dot(matrix, b, matrix, b, d));
  }
  return out;
}

/**
 * Scales each row of an n × d row-major matrix to unit length, in place; zero rows
 * stay zero. Norms in f64.
 */
export function normalizeRows(matrix: Float32Array, d: number): void {
  const n = d > 0 ? Math.floor(matrix.length / d) : 0;
  for (let i = 0; i < n; i++) {
    const norm = Math.sqrt(dot(matrix, i * d, matrix, i * d, d));
    if (norm > 0) for (let j = 0; j < d; j++) matrix[i * d + j] /= norm;
  }
}

/**
 * The p-th percentile (0 ≤ p ≤ 100) of the values with numpy's default `'linear'`
 * method, bit for bit (QASC step 2: τ = p-th percentile of the sim_i, linear
 * interpolation between order statistics): sort x ascending, h = (n − 1)·(p / 100),
 * k = ⌊h⌋, t = h − k; for k + 1 ≤ n − 1 the result is numpy's monotone lerp
 * x[k] + (x[k+1] − x[k])·t when t < 0.5, else x[k+1] − (x[k+1] − x[k])·(1 − t).
 * f32 input is widened to f64 first. NaN for an empty list, for p = NaN or when any
 * value is NaN (as numpy); p outside [0, 100] is clamped.
 */
export function percentile(values: Float32Array | Float64Array | number[], p: number): number {
  const n = values.length;
  if (n === 0 || Number.isNaN(p)) return NaN;
  const x = Float64Array.from(values).sort(); // numeric order, NaN last
  if (Number.isNaN(x[n - 1])) return NaN;
  const q = Math.min(Math.max(p, 0), 100) / 100;
  const h = (n - 1) * q;
  const k = Math.floor(h);
  if (k >= n - 1) return x[n - 1];
  const t = h - k;
  const a = x[k];
  const b = x[k + 1];
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/**
 * Exponential-decay weighted mean of the similarities in one window (QASC step 4): S = Σ α_i·sim_i / Σ α_i over i in [lo, hi), α_i = exp(−λ·|i − r|). 0 when
 * the window is empty (or every α underflows).
 * @param sims similarities (f32)
 * @param lo first index of the window
 * @param hi end of the window (exclusive)
 * @param r seed index
 * @param lambda decay rate λ ≥ 0
 */
export function decayScore(sims: Float32Array, lo: number, hi: number, r: number, lambda: number): number {
  let num = 0;
  let den = 0;
  for (let i = lo; i < hi; i++) {
    const alpha = Math.exp(-lambda * Math.abs(i - r));
    num += alpha * sims[i];
    den += alpha;
  }
  return den > 0 ? num / den : 0;
}

/**
 * {@link decayScore} for m windows at once: window j is [lo[j], hi[j]) around seed r[j].
 * @returns Float64Array of m scores
 */
export function decayScores(
  sims: Float32Array,
  lo: ArrayLike<number>,
  hi: ArrayLike<number>,
  r: ArrayLike<number>,
  lambda: number,
): Float64Array {
  const out = new Float64Array(lo.length);
  for (let j = 0; j < lo.length; j++) out[j] = decayScore(sims, lo[j], hi[j], r[j], lambda);
  return out;
}

/** True when index a ranks below index b: NaN last, then lower score, then higher index. */
function ranksBelow(s: Float32Array, a: number, b: number): boolean {
  const x = s[a];
  const y = s[b];
  const xNaN = Number.isNaN(x);
  const yNaN = Number.isNaN(y);
  if (xNaN || yNaN) return xNaN && (!yNaN || a > b);
  return x < y || (x === y && a > b);
}

/**
 * Indices of the k highest scores, best first (QASC's hybrid mode: top-k
 * candidates). Ties go to the lower index (−0 and +0 tie); NaN ranks after every
 * number, −Infinity included. Returns min(k, n) indices (none when k ≤ 0).
 * Keeps a sorted list of the best k seen (insertion), so it is O(n) on typical data
 * when k is small; large k sorts all indices.
 */
export function topK(scores: Float32Array, k: number): Int32Array {
  const n = scores.length;
  const m = Math.max(0, Math.min(Math.floor(k), n));
  if (m === 0) return new Int32Array(0);
  if (m > 64) {
    const idx = Array.from({ length: n }, (_, i) => i);
    idx.sort((a, b) => (ranksBelow(scores, a, b) ? 1 : ranksBelow(scores, b, a) ? -1 : 0));
    return Int32Array.from(idx.slice(0, m));
  }
  const best = new Int32Array(m);
  let size = 0;
  for (let i = 0; i < n; i++) {
    if (size === m && !ranksBelow(scores, best[m - 1], i)) continue;
    let j = size < m ? size++ : m - 1;
    while (j > 0 && ranksBelow(scores, best[j - 1], i)) {
      best[j] = best[j - 1];
      j--;
    }
    best[j] = i;
  }
  return best;
}

/**
 * Banded similarities (cluster-semantic chunking): out[i·w + k] = M[i] · M[i − k] for
 * 1 ≤ k < w and k ≤ i over an n × d row-major matrix of unit rows (so the dot product
 * is the cosine); every other entry 0. Sums in f64, rounded to f32.
 * @returns Float32Array of n·w
 */
export function bandDots(matrix: Float32Array, d: number, w: number): Float32Array {
  const n = Math.floor(matrix.length / d);
  const out = new Float32Array(n * w);
  for (let i = 0; i < n; i++) {
    for (let k = 1; k < w && k <= i; k++) out[i * w + k] = dot(matrix, i * d, matrix, (i - k) * d, d);
  }
  return out;
}

/**
 * Mean dot product over all pairs i < j of the rows of an n × d matrix, written as the
 * definition would be too slow (n²), so via the identity
 * Σ_{i<j} M[i]·M[j] = (|Σ_i M[i]|² − Σ_i |M[i]|²) / 2: (|Σ M[i]|² − Σ |M[i]|²) / (n·(n − 1)).
 * f64 sums in the kernel's order (column sums row by row, then their squares). 0 when n < 2.
 */
export function meanPairDot(matrix: Float32Array, d: number): number {
  const n = Math.floor(matrix.length / d);
  if (n < 2) return 0;
  const col = new Float64Array(d);
  let squares = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      const x = matrix[i * d + j];
      col[j] += x;
      squares += x * x;
    }
  }
  let total = 0;
  for (let j = 0; j < d; j++) total += col[j] * col[j];
  return (total - squares) / (n * (n - 1));
}

/** The DP table of {@link clusterSegments}. */
export interface ClusterSegmentation {
  /** The best chunk ending at piece i starts at start[i]. */
  start: Int32Array;
  /** The best total reward of pieces 0 … i. */
  dp: Float64Array;
}

/**
 * Cluster-semantic segmentation, after Chroma's ClusterSemanticChunker
 * (`chunking_evaluation/chunking/cluster_semantic_chunker.py`, `_optimal_segmentation`):
 * dp[i] = max over j in [L(i), i] of reward(j, i) + dp[j − 1] (dp[−1] = 0), where
 * reward(j, i) = Σ over a ≠ b in [j, i] of (S(a, b) − mu) — the whole square sub-matrix,
 * diagonal 0, as Chroma sums it — and S(i, i − k) = band[i·w + k];
 * L(i) = min(i, max(lo[i], L(i − 1), i − w + 1, 0)). Ties go to the larger j (sizes tried
 * from 1 upward, strictly better wins).
 *
 * reward(j, i) = reward(j, i − 1) + 2·Σ_{a=j}^{i−1} (S(a, i) − mu): the new column's sum,
 * grown as j moves left, kept per start j; the kernel adds in the same order in f64, so
 * both agree bit for bit. O(n·w).
 * `test/kernels.test.ts` checks dp against every segmentation of small inputs.
 */
export function clusterSegments(band: Float32Array, w: number, mu: number, lo: ArrayLike<number>): ClusterSegmentation {
  const n = lo.length;
  const start = new Int32Array(n);
  const dp = new Float64Array(n);
  const reward = new Float64Array(n); // reward[j] = reward(j, i) after step i
  let prevL = 0;
  for (let i = 0; i < n; i++) {
    const L = Math.max(0, Math.min(i, Math.max(lo[i], prevL, i - w + 1)));
    prevL = L;
    let best = -Infinity;
    let bestJ = i;
    let col = 0;
    for (let j = i; j >= L; j--) {
      if (j === i) reward[j] = 0;
      else {
        col += band[i * w + (i - j)] - mu;
        reward[j] = reward[j] + 2 * col;
      }
      const cand = j > 0 ? reward[j] + dp[j - 1] : reward[j];
      if (cand > best) {
        best = cand;
        bestJ = j;
      }
    }
    dp[i] = best;
    start[i] = bestJ;
  }
  return { start, dp };
}

/** Reference of `firstSurrogate`: the first index in [from, to) of a code unit in [0xD800, 0xDFFF], or −1. */
export function firstSurrogate(text: string, from = 0, to = text.length): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return i;
  }
  return -1;
}
