// Top-k selection over f32 scores with a size-k min-heap: O(n log k), no full sort.
// Ties go to the lower index, so results are deterministic.

// @ts-ignore: decorator
@inline
function worse(s: usize, a: i32, b: i32): bool {
  // true when candidate a ranks below candidate b: NaN below every number (−Infinity
  // included), then the lower score, then the higher index
  const x = load<f32>(s + (<usize>a << 2));
  const y = load<f32>(s + (<usize>b << 2));
  const xNaN = x != x;
  const yNaN = y != y;
  if (xNaN || yNaN) return xNaN && (!yNaN || a > b);
  return x < y || (x == y && a > b);
}
// @ts-ignore: decorator
@inline
function hget(h: usize, i: i32): i32 {
  return load<i32>(h + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline
function hset(h: usize, i: i32, v: i32): void {
  store<i32>(h + (<usize>i << 2), v);
}

function siftDown(s: usize, h: usize, size: i32, i: i32): void {
  while (true) {
    const l = 2 * i + 1;
    if (l >= size) return;
    let m = l;
    const r = l + 1;
    if (r < size && worse(s, hget(h, r), hget(h, l))) m = r;
    if (worse(s, hget(h, m), hget(h, i))) {
      const t = hget(h, i);
      hset(h, i, hget(h, m));
      hset(h, m, t);
      i = m;
    } else return;
  }
}

/**
 * Writes the indices of the k highest of n scores to outIdx (Int32[k]), best first.
 * Returns min(k, n). NaN scores rank last.
 */
export function topK(scoresPtr: usize, n: i32, k: i32, outIdxPtr: usize): i32 {
  if (k > n) k = n;
  if (k <= 0) return 0;
  // the heap's root is the worst of the kept candidates
  for (let i: i32 = 0; i < k; i++) hset(outIdxPtr, i, i);
  for (let i: i32 = (k >> 1) - 1; i >= 0; i--) siftDown(scoresPtr, outIdxPtr, k, i);
  for (let i: i32 = k; i < n; i++) {
    const root = hget(outIdxPtr, 0);
    if (worse(scoresPtr, root, i)) {
      hset(outIdxPtr, 0, i);
      siftDown(scoresPtr, outIdxPtr, k, 0);
    }
  }
  // heap sort: repeatedly move the worst to the end
  for (let size = k - 1; size > 0; size--) {
    const t = hget(outIdxPtr, 0);
    hset(outIdxPtr, 0, hget(outIdxPtr, size));
    hset(outIdxPtr, size, t);
    siftDown(scoresPtr, outIdxPtr, size, 0);
  }
  return k;
}
