// Interval merging (QASC step 5): merges half-open intervals [start, end)
// sorted by start; two intervals merge when the next starts at most `gap` after the
// current one ends (gap = 0 merges overlapping and adjacent intervals).

/**
 * In: n intervals as Int32 arrays starts[n], ends[n], sorted by start.
 * Out: merged intervals in outStarts / outEnds (may alias the inputs) and, for each
 * input interval, the index of the merged interval it went into (groupPtr, Int32[n];
 * pass 0 to skip). Returns the number of merged intervals.
 */
export function mergeIntervals(
  startsPtr: usize,
  endsPtr: usize,
  n: i32,
  gap: i32,
  outStartsPtr: usize,
  outEndsPtr: usize,
  groupPtr: usize,
): i32 {
  if (n <= 0) return 0;
  let curStart = load<i32>(startsPtr);
  let curEnd = load<i32>(endsPtr);
  let m: i32 = 0;
  if (groupPtr) store<i32>(groupPtr, 0);
  for (let i: i32 = 1; i < n; i++) {
    const s = load<i32>(startsPtr + (<usize>i << 2));
    const e = load<i32>(endsPtr + (<usize>i << 2));
    if (s <= curEnd + gap) {
      if (e > curEnd) curEnd = e;
    } else {
      store<i32>(outStartsPtr + (<usize>m << 2), curStart);
      store<i32>(outEndsPtr + (<usize>m << 2), curEnd);
      m++;
      curStart = s;
      curEnd = e;
    }
    if (groupPtr) store<i32>(groupPtr + (<usize>i << 2), m);
  }
  store<i32>(outStartsPtr + (<usize>m << 2), curStart);
  store<i32>(outEndsPtr + (<usize>m << 2), curEnd);
  return m + 1;
}
