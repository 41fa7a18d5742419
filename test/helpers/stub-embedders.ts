/**
 * Embedder stubs with hand-set vectors, for tests of the semantic strategies.
 */
import type { Embedder } from '../../src/embedders/types.js';

/** An embedder that maps each text to a vector chosen by `vectorOf`, and counts calls. */
export class StubEmbedder implements Embedder {
  readonly dimension: number;
  calls = 0;
  texts: string[] = [];
  readonly #vectorOf: (text: string) => ArrayLike<number>;
  constructor(dimension: number, vectorOf: (text: string) => ArrayLike<number>) {
    this.dimension = dimension;
    this.#vectorOf = vectorOf;
  }
  async embed(texts: string[]): Promise<Float32Array> {
    this.calls++;
    this.texts.push(...texts);
    const out = new Float32Array(texts.length * this.dimension);
    texts.forEach((t, i) => out.set(this.#vectorOf(t), i * this.dimension));
    return out;
  }
}

/** A deterministic pseudo-random vector for a string (FNV-1a seeded mulberry32), components in [−1, 1). */
export function hashVector(text: string, d: number): Float32Array {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  let a = h >>> 0;
  const out = new Float32Array(d);
  for (let j = 0; j < d; j++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[j] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  }
  return out;
}
