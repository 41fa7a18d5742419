/**
 * Binary search over ascending numbers (offsets, line starts, break positions): the one
 * copy the segmenters, strategies and adapters share.
 * Core module: no Node built-ins.
 * @module
 */

/**
 * The first index `i` in `[from, to)` with `sorted[i] > x` (`to` if none): the number of
 * entries ≤ x from `from`. `sorted` must be ascending over `[from, to)`. O(log n).
 * `upperBound(a, x) - 1` is the last entry at or before `x` (−1 if none).
 */
export function upperBound(sorted: ArrayLike<number>, x: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first index `i` in `[from, to)` with `sorted[i] >= x` (`to` if none). `sorted` must
 * be ascending over `[from, to)`. O(log n).
 */
export function lowerBound(sorted: ArrayLike<number>, x: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
