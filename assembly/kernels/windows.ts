// Window planning (SPEC section 1, "Sliding-window rules (exact)").
// Windows start at 0, stride, 2·stride, …; window k covers units [k·stride, k·stride + windowSize)
// clipped to n; the last window is the first one that reaches n. With gaps allowed
// (stride > windowSize) the same rule applies and units between windows are skipped.

/** Number of windows over `n` units; 0 when n ≤ 0. */
export function windowCount(n: i32, windowSize: i32, stride: i32): i32 {
  if (n <= 0) return 0;
  if (n <= windowSize) return 1;
  // first k with k·stride + windowSize ≥ n, plus one
  const count = (n - windowSize + stride - 1) / stride + 1;
  // with gaps (stride > windowSize) no window may start at or past the end
  const starts = (n + stride - 1) / stride;
  return count < starts ? count : starts;
}

/**
 * Writes window k's first unit index to starts[k] and its end (exclusive) to ends[k].
 * `startsPtr` and `endsPtr` point at Int32 arrays of at least windowCount(n, …) slots.
 * Returns the number of windows.
 */
export function planWindows(n: i32, windowSize: i32, stride: i32, startsPtr: usize, endsPtr: usize): i32 {
  const count = windowCount(n, windowSize, stride);
  let start: i32 = 0;
  for (let k: i32 = 0; k < count; k++) {
    let end = start + windowSize;
    if (end > n) end = n;
    store<i32>(startsPtr + (<usize>k << 2), start);
    store<i32>(endsPtr + (<usize>k << 2), end);
    start += stride;
  }
  return count;
}
