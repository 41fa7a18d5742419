/**
 * An n × d embedding matrix kept in the WASM kernels' memory across calls, so the
 * query-time kernels (cosineMatVec) read it without a copy per query.
 * @module
 */
import { getKernels, WasmArray } from '../../bindings/index.js';

/**
 * An n × d row-major Float32Array held twice: in JavaScript (`data`, the source of
 * truth) and, once {@link handle} is called, in the shared kernels' memory as an
 * allocation outside any job. If that allocation dies (the kernels instance was
 * replaced or `Kernels.reset()` ran), the next {@link handle} copies the data in again.
 * The WASM copy lives until `getKernels().reset()`; a matrix that changes often should
 * not be kept this way.
 */
export class WasmMatrix {
  readonly data: Float32Array;
  readonly rows: number;
  readonly dimension: number;
  #handle: WasmArray<Float32ArrayConstructor> | undefined;

  /** @param data rows × dimension row-major values (taken, not copied). */
  constructor(data: Float32Array, dimension: number) {
    this.data = data;
    this.dimension = dimension;
    this.rows = dimension > 0 ? Math.floor(data.length / dimension) : 0;
  }

  /** The matrix in the kernels' memory (copied in on first use, or again after the allocation died). */
  handle(): WasmArray<Float32ArrayConstructor> {
    if (this.#handle) {
      try {
        void this.#handle.view;
        return this.#handle;
      } catch {
        this.#handle = undefined;
      }
    }
    this.#handle = getKernels().copyF32(this.data);
    return this.#handle;
  }
}
