// Window planning: the exact sliding-window rules of src/plan/windows.ts.
// Windows start at 0, stride, 2·stride, …; window k covers units [k·stride, k·stride + windowSize)
// clipped to n; the last window is the first one that reaches n. With gaps allowed
// (stride > windowSize) the same rule applies and units between windows are skipped.

/**
 * Number of windows over `n` units; 0 when n ≤ 0. windowSize and stride must be ≥ 1.
 * With gaps (stride > windowSize) no window starts at or after n: a window that would
 * only reach n by starting past it is not emitted (it would be empty).
 */
export function windowCount(n: i32, windowSize: i32, stride: i32): i32 {
  if (n <= 0) return 0;
  if (n <= windowSize) return 1;
  // first k with k·stride + windowSize ≥ n, plus one (in i64: no overflow near 2^31)
  const s = <i64>stride;
  const reachesEnd = (<i64>n - <i64>windowSize + s - 1) / s + 1;
  // windows whose start k·stride is below n
  const startsBelowEnd = (<i64>n + s - 1) / s;
  return <i32>(reachesEnd < startsBelowEnd ? reachesEnd : startsBelowEnd);
}

/**
 * Writes window k's first unit index to starts[k] and its end (exclusive) to ends[k].
 * `startsPtr` and `endsPtr` point at Int32 arrays of at least windowCount(n, …) slots.
 * Returns the number of windows.
 */
export function planWindows(n: i32, windowSize: i32, stride: i32, startsPtr: usize, endsPtr: usize): i32 {
  const count = windowCount(n, windowSize, stride);
  let start: i64 = 0;
  for (let k: i32 = 0; k < count; k++) {
    let end = start + <i64>windowSize;
    if (end > <i64>n) end = <i64>n;
    store<i32>(startsPtr + (<usize>k << 2), <i32>start);
    store<i32>(endsPtr + (<usize>k << 2), <i32>end);
    start += <i64>stride;
  }
  return count;
}
