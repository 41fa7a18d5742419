// Percentile by selection (no full sort), with linear interpolation between order
// statistics, bit for bit as numpy's default ("linear") method: for sorted x of length n
// and p in [0, 100], q = p / 100, h = (n − 1)·q, k = ⌊h⌋, t = h − k and
// result = x[k] + (x[k+1] − x[k])·t when t < 0.5, else x[k+1] − (x[k+1] − x[k])·(1 − t)
// (numpy's `_lerp`, monotone in t).

// @ts-ignore: decorator
@inline
function at(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline
function put(p: usize, i: i32, v: f64): void {
  store<f64>(p + (<usize>i << 3), v);
}

/**
 * Rearranges the f64 array a[lo..hi] so that a[k] holds the k-th smallest value, all
 * values left of k are ≤ it and all right of it ≥ it. Three-way partitioning with a
 * median-of-three pivot, so runs of equal values and sorted input stay fast.
 */
export function selectF64(a: usize, n: i32, k: i32): void {
  let lo: i32 = 0;
  let hi: i32 = n - 1;
  while (hi > lo) {
    // median of three as pivot
    const mid = lo + ((hi - lo) >> 1);
    let x = at(a, lo), y = at(a, mid), z = at(a, hi);
    let pivot: f64;
    if (x < y) pivot = y < z ? y : (x < z ? z : x);
    else pivot = x < z ? x : (y < z ? z : y);
    // Dutch national flag: [lo, lt) < pivot, [lt, i) == pivot, (gt, hi] > pivot
    let lt = lo, i = lo, gt = hi;
    while (i <= gt) {
      const v = at(a, i);
      if (v < pivot) {
        put(a, i, at(a, lt));
        put(a, lt, v);
        lt++;
        i++;
      } else if (v > pivot) {
        put(a, i, at(a, gt));
        put(a, gt, v);
        gt--;
      } else {
        i++;
      }
    }
    if (k < lt) hi = lt - 1;
    else if (k > gt) lo = gt + 1;
    else return;
  }
}

/**
 * The p-th percentile (0 ≤ p ≤ 100) of n f32 values at valuesPtr, using an f64 scratch
 * buffer of n slots at scratchPtr (the input is left untouched). NaN when n = 0, when p
 * is NaN or when any value is NaN (as numpy); p outside [0, 100] is clamped.
 */
export function percentileF32(valuesPtr: usize, n: i32, p: f64, scratchPtr: usize): f64 {
  if (n <= 0 || p != p) return NaN;
  for (let i: i32 = 0; i < n; i++) {
    const v = load<f32>(valuesPtr + (<usize>i << 2));
    if (v != v) return NaN;
    put(scratchPtr, i, <f64>v);
  }
  return percentileNoNaN(scratchPtr, n, p);
}

/**
 * The p-th percentile of n f64 values at a, reordering them in place. NaN when n = 0,
 * when p is NaN or when any value is NaN (as numpy); p outside [0, 100] is clamped.
 */
export function percentileInPlaceF64(a: usize, n: i32, p: f64): f64 {
  if (n <= 0 || p != p) return NaN;
  for (let i: i32 = 0; i < n; i++) {
    const v = at(a, i);
    if (v != v) return NaN;
  }
  return percentileNoNaN(a, n, p);
}

/**
 * numpy's 'linear' method bit for bit: q = p / 100, h = (n − 1)·q, k = ⌊h⌋, t = h − k,
 * and numpy's monotone lerp between x[k] and x[k + 1] (`_lerp`: from the upper end
 * when t ≥ 0.5).
 */
function percentileNoNaN(a: usize, n: i32, p: f64): f64 {
  const q = (p < 0 ? 0 : p > 100 ? 100 : p) / 100.0;
  const h = <f64>(n - 1) * q;
  const fk = Math.floor(h);
  if (fk >= <f64>(n - 1)) {
    // the maximum: one pass, no selection
    let max = at(a, 0);
    for (let i: i32 = 1; i < n; i++) {
      const v = at(a, i);
      if (v > max) max = v;
    }
    return max;
  }
  const k = <i32>fk;
  selectF64(a, n, k);
  const lower = at(a, k);
  const t = h - fk;
  if (t == 0) return lower;
  // the next order statistic is the minimum of the right part
  let upper = at(a, k + 1);
  for (let i = k + 2; i < n; i++) {
    const v = at(a, i);
    if (v < upper) upper = v;
  }
  const diff = upper - lower;
  return t >= 0.5 ? upper - diff * (1 - t) : lower + diff * t;
}
