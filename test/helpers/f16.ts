/** IEEE 754 half precision (F16) from single precision, as safetensors stores F16 tensors. */

const f32 = new Float32Array(1);
const bits = new Uint32Array(f32.buffer);

/**
 * The F16 nearest to `value` rounded to F32 first (round to nearest, ties to even, at
 * both steps: what numpy's `astype(float32).astype(float16)` gives), as its 16 bits.
 * Beyond the F16 range it is ±Infinity; NaN stays NaN.
 */
export function f32ToF16(value: number): number {
  f32[0] = value;
  const x = bits[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}
