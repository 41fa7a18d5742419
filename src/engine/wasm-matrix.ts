/**
 * An n × d embedding matrix kept in WebAssembly memory across calls, so the query-time
 * kernel (cosineMatVec) reads it without a copy per query.
 * @module
 */
import { getKernels, Kernels, ownKernels, WasmArray } from '../../bindings/index.js';

/**
 * An n × d row-major Float32Array held in JavaScript (`data`, the source of truth) and,
 * from the first {@link cosine} call, in WebAssembly memory.
 *
 * Memory: the matrix gets a kernels instance of its own, so its WebAssembly memory is
 * garbage-collected with the WasmMatrix (the shared instance's arena cannot free one
 * allocation made outside a job). Where synchronous compilation is refused (a browser's
 * main thread) it lives in the shared instance instead, until `getKernels().reset()`;
 * if that allocation dies (the shared instance replaced or reset) it is copied in again.
 */
export class WasmMatrix {
  /** rows × dimension values, row-major. */
  readonly data: Float32Array;
  readonly rows: number;
  readonly dimension: number;
  #kernels: Kernels | undefined;
  #handle: WasmArray<Float32ArrayConstructor> | undefined;

  /** @param data rows × dimension row-major values (taken, not copied). */
  constructor(data: Float32Array, dimension: number) {
    this.data = data;
    this.dimension = dimension;
    this.rows = dimension > 0 ? Math.floor(data.length / dimension) : 0;
  }

  #live(): { k: Kernels; m: WasmArray<Float32ArrayConstructor> } {
    if (this.#kernels && this.#handle) {
      try {
        void this.#handle.view;
        return { k: this.#kernels, m: this.#handle };
      } catch {
        this.#handle = undefined;
      }
    }
    this.#kernels = ownKernels({ retainBytes: Infinity }) ?? getKernels();
    this.#handle = this.#kernels.copyF32(this.data);
    return { k: this.#kernels, m: this.#handle };
  }

  /**
   * cos(row i, vector) for every row (WASM `cosineMatVec`, f32 SIMD): Float32Array of
   * `rows` values; zero vectors give 0. With `normalized` the rows and the vector are
   * taken as unit vectors (dot products only).
   * @param vector `dimension` values
   */
  cosine(vector: Float32Array, normalized = false): Float32Array {
    const { k, m } = this.#live();
    return k.job(() => {
      const v = k.copyF32(vector.subarray(0, this.dimension));
      const out = k.allocF32(this.rows);
      k.exports.cosineMatVec(m.ptr, this.rows, this.dimension, v.ptr, out.ptr, normalized ? 1 : 0);
      return out.toArray();
    });
  }
}
