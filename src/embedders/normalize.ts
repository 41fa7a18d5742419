/**
 * Row normalisation shared by the embedders (a module of its own so that embedders
 * without ONNX, such as OpenAIEmbedder, do not import the ONNX embedder's module and,
 * through it, ONNX Runtime's loader).
 * @module
 */

/** L2-normalises each row of an n × d row-major matrix in place (zero rows stay zero). */
export function normalizeRows(m: Float32Array, d: number): void {
  for (let i = 0; i * d < m.length; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += m[i * d + j] * m[i * d + j];
    if (s > 0) {
      const inv = 1 / Math.sqrt(s);
      for (let j = 0; j < d; j++) m[i * d + j] *= inv;
    }
  }
}
