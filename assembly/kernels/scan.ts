// Scans over UTF-16 text laid in linear memory by the TypeScript side (little-endian
// code units, as Node's Buffer writes 'utf16le').

/**
 * Index of the first code unit in [0xD800, 0xDFFF] (a surrogate, paired or lone) among
 * the `n` code units at `ptr`, or −1 when there is none. Eight units per step (wasm SIMD).
 */
export function firstSurrogate(ptr: usize, n: i32): i32 {
  const mask = i16x8.splat(<i16>0xf800);
  const sur = i16x8.splat(<i16>0xd800);
  let i: i32 = 0;
  // 32 units per step: one test of four compared vectors
  for (; i + 32 <= n; i += 32) {
    const p = ptr + (<usize>i << 1);
    const a = i16x8.eq(v128.and(v128.load(p), mask), sur);
    const b = i16x8.eq(v128.and(v128.load(p, 16), mask), sur);
    const c = i16x8.eq(v128.and(v128.load(p, 32), mask), sur);
    const d = i16x8.eq(v128.and(v128.load(p, 48), mask), sur);
    if (v128.any_true(v128.or(v128.or(a, b), v128.or(c, d)))) break;
  }
  for (; i < n; i++) {
    if ((load<u16>(ptr + (<usize>i << 1)) & 0xf800) == 0xd800) return i;
  }
  return -1;
}
