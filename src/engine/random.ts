/**
 * A small seeded pseudo-random generator, the same in every runtime. Core module.
 * @module
 */

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): a function returning numbers uniform in
 * [0, 1), each a multiple of 2⁻³², the same sequence for the same seed everywhere.
 * @param seed any number; its low 32 bits are used.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
