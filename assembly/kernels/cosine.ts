// Cosine similarity over row-major f32 matrices with 128-bit SIMD (f32x4).
// A zero vector has similarity 0 with everything (never NaN).

// @ts-ignore: decorator
@inline
function dot(a: usize, b: usize, d: i32): f32 {
  let acc0 = f32x4.splat(0);
  let acc1 = f32x4.splat(0);
  let i: i32 = 0;
  const d8 = d & ~7;
  for (; i < d8; i += 8) {
    const off = <usize>i << 2;
    acc0 = f32x4.add(acc0, f32x4.mul(v128.load(a + off), v128.load(b + off)));
    acc1 = f32x4.add(acc1, f32x4.mul(v128.load(a + off + 16), v128.load(b + off + 16)));
  }
  acc0 = f32x4.add(acc0, acc1);
  let sum: f32 =
    f32x4.extract_lane(acc0, 0) + f32x4.extract_lane(acc0, 1) + f32x4.extract_lane(acc0, 2) + f32x4.extract_lane(acc0, 3);
  for (; i < d; i++) {
    const off = <usize>i << 2;
    sum += load<f32>(a + off) * load<f32>(b + off);
  }
  return sum;
}

// @ts-ignore: decorator
@inline
function cosineOf(ab: f32, aa: f32, bb: f32): f32 {
  const den = Mathf.sqrt(aa) * Mathf.sqrt(bb);
  return den > 0 ? ab / den : 0;
}

/** Dot product of two f32 vectors of length d. */
export function dotF32(aPtr: usize, bPtr: usize, d: i32): f32 {
  return dot(aPtr, bPtr, d);
}

/**
 * out[i] = cos(M[i], v) for an n × d row-major matrix M and a vector v of length d.
 * If `normalized` is non-zero the rows and v are taken as unit vectors (dot only).
 */
export function cosineMatVec(matPtr: usize, n: i32, d: i32, vecPtr: usize, outPtr: usize, normalized: i32): void {
  const rowBytes = <usize>d << 2;
  const vv = normalized ? <f32>1 : dot(vecPtr, vecPtr, d);
  for (let i: i32 = 0; i < n; i++) {
    const row = matPtr + <usize>i * rowBytes;
    const ab = dot(row, vecPtr, d);
    const sim = normalized ? ab : cosineOf(ab, dot(row, row, d), vv);
    store<f32>(outPtr + (<usize>i << 2), sim);
  }
}

/**
 * out[i] = cos(M[i], M[i + 1]) for i in [0, n − 1): each row against the next.
 * `out` holds n − 1 floats (nothing is written when n < 2).
 */
export function cosineNeighbours(matPtr: usize, n: i32, d: i32, outPtr: usize, normalized: i32): void {
  if (n < 2) return;
  const rowBytes = <usize>d << 2;
  let prevNorm: f32 = normalized ? 1 : dot(matPtr, matPtr, d);
  for (let i: i32 = 0; i < n - 1; i++) {
    const a = matPtr + <usize>i * rowBytes;
    const b = a + rowBytes;
    const ab = dot(a, b, d);
    const nextNorm: f32 = normalized ? 1 : dot(b, b, d);
    store<f32>(outPtr + (<usize>i << 2), normalized ? ab : cosineOf(ab, prevNorm, nextNorm));
    prevNorm = nextNorm;
  }
}

/** Scales each row of an n × d matrix to unit length in place (zero rows stay zero). */
export function normalizeRows(matPtr: usize, n: i32, d: i32): void {
  const rowBytes = <usize>d << 2;
  for (let i: i32 = 0; i < n; i++) {
    const row = matPtr + <usize>i * rowBytes;
    const norm = Mathf.sqrt(dot(row, row, d));
    if (norm > 0) {
      const inv = f32x4.splat(<f32>1 / norm);
      let j: i32 = 0;
      const d4 = d & ~3;
      for (; j < d4; j += 4) {
        const p = row + (<usize>j << 2);
        v128.store(p, f32x4.mul(v128.load(p), inv));
      }
      for (; j < d; j++) {
        const p = row + (<usize>j << 2);
        store<f32>(p, load<f32>(p) / norm);
      }
    }
  }
}

/**
 * Banded similarities for cluster-semantic chunking: out[i·w + k] = M[i] · M[i − k] for
 * 1 ≤ k < w and k ≤ i (the dot product: rows are expected to be unit vectors, so it is
 * the cosine); every other entry (k = 0, the diagonal, and k > i) is set to 0.
 * `out` holds n·w floats.
 */
export function bandDots(matPtr: usize, n: i32, d: i32, w: i32, outPtr: usize): void {
  const rowBytes = <usize>d << 2;
  for (let i: i32 = 0; i < n; i++) {
    const a = matPtr + <usize>i * rowBytes;
    const base = outPtr + ((<usize>i * <usize>w) << 2);
    store<f32>(base, 0);
    for (let k: i32 = 1; k < w; k++) {
      store<f32>(base + (<usize>k << 2), k <= i ? dot(a, a - <usize>k * rowBytes, d) : 0);
    }
  }
}

/**
 * Mean dot product over all pairs i < j of the rows of an n × d matrix, in O(n·d):
 * Σ_{i<j} M[i]·M[j] = (|Σ_i M[i]|² − Σ_i |M[i]|²) / 2, so the mean is
 * (|Σ_i M[i]|² − Σ_i |M[i]|²) / (n·(n − 1)). Sums in f64 (column sums in `scratchPtr`,
 * d f64 slots). 0 when n < 2.
 */
export function meanPairDot(matPtr: usize, n: i32, d: i32, scratchPtr: usize): f64 {
  if (n < 2) return 0;
  for (let j: i32 = 0; j < d; j++) store<f64>(scratchPtr + (<usize>j << 3), 0);
  let squares: f64 = 0;
  for (let i: i32 = 0; i < n; i++) {
    const row = matPtr + <usize>i * (<usize>d << 2);
    for (let j: i32 = 0; j < d; j++) {
      const x = <f64>load<f32>(row + (<usize>j << 2));
      const p = scratchPtr + (<usize>j << 3);
      store<f64>(p, load<f64>(p) + x);
      squares += x * x;
    }
  }
  let total: f64 = 0;
  for (let j: i32 = 0; j < d; j++) {
    const s = load<f64>(scratchPtr + (<usize>j << 3));
    total += s * s;
  }
  return (total - squares) / (<f64>n * <f64>(n - 1));
}
