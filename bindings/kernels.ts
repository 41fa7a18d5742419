/**
 * Typed access to the WebAssembly kernels (`assembly/`, compiled to `build/chunkwise.wasm`).
 *
 * Memory model: the kernels read and write typed arrays laid in the module's linear
 * memory. {@link Kernels} owns an arena over that memory: {@link Kernels.allocF32} and
 * friends return {@link WasmArray} handles whose `.view` is a Float32Array / Int32Array /
 * Float64Array over the module's memory (no copy), renewed whenever the memory grows.
 * {@link Kernels.job} runs a function and then frees everything it allocated; when the
 * outermost job ends and the memory has grown past `retainBytes`, the instance is
 * replaced by a fresh one, so a 1 GB job followed by small ones does not keep 1 GB —
 * unless allocations made outside any job are live (a matrix kept in memory across
 * calls): those keep the instance, and its memory, until {@link Kernels.reset}.
 * Handles from a released job throw {@link WasmError} when used.
 *
 * Nothing here imports a Node built-in: it runs in Node, browsers and edge runtimes.
 * @module
 */
import { WasmError } from '../src/engine/errors.js';

/** The raw exports of `build/chunkwise.wasm` (pointers are byte offsets, lengths element counts). */
export interface KernelExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  windowCount(n: number, windowSize: number, stride: number): number;
  planWindows(n: number, windowSize: number, stride: number, startsPtr: number, endsPtr: number): number;
  mergeIntervals(
    startsPtr: number,
    endsPtr: number,
    n: number,
    gap: number,
    outStartsPtr: number,
    outEndsPtr: number,
    groupPtr: number,
  ): number;
  dotF32(aPtr: number, bPtr: number, d: number): number;
  cosineMatVec(matPtr: number, n: number, d: number, vecPtr: number, outPtr: number, normalized: number): void;
  cosineNeighbours(matPtr: number, n: number, d: number, outPtr: number, normalized: number): void;
  normalizeRows(matPtr: number, n: number, d: number): void;
  bandDots(matPtr: number, n: number, d: number, w: number, outPtr: number): void;
  meanPairDot(matPtr: number, n: number, d: number, scratchPtr: number): number;
  clusterSegments(bandPtr: number, n: number, w: number, mu: number, loPtr: number, startPtr: number, dpPtr: number, rewardPtr: number): void;
  selectF64(ptr: number, n: number, k: number): void;
  percentileF32(valuesPtr: number, n: number, p: number, scratchPtr: number): number;
  percentileInPlaceF64(ptr: number, n: number, p: number): number;
  decayScore(simPtr: number, lo: number, hi: number, r: number, lambda: number): number;
  decayScores(simPtr: number, loPtr: number, hiPtr: number, rPtr: number, m: number, lambda: number, outPtr: number): void;
  topK(scoresPtr: number, n: number, k: number, outIdxPtr: number): number;
  firstSurrogate(ptr: number, n: number): number;
}

const PAGE = 65536;
const ALIGN = 16;

type ArrayCtor = Float32ArrayConstructor | Int32ArrayConstructor | Float64ArrayConstructor;
type ArrayOf<C extends ArrayCtor> = InstanceType<C>;

/**
 * A typed array that lives in the kernels' memory. `view` is renewed after memory
 * growth; `ptr` is the byte offset the kernels take. Valid until the job that
 * allocated it ends.
 */
export class WasmArray<C extends ArrayCtor = ArrayCtor> {
  /** Number of elements. */
  readonly length: number;
  /** Byte offset in the module's memory. */
  readonly ptr: number;
  readonly #kernels: Kernels;
  readonly #ctor: C;
  readonly #generation: number;
  readonly #owner: number;
  #view: ArrayOf<C> | undefined;

  /** @internal */
  constructor(kernels: Kernels, ctor: C, ptr: number, length: number, generation: number, owner: number) {
    this.#kernels = kernels;
    this.#ctor = ctor;
    this.ptr = ptr;
    this.length = length;
    this.#generation = generation;
    this.#owner = owner;
  }

  /** The elements, as a typed array over the module's memory (no copy). */
  get view(): ArrayOf<C> {
    this.#kernels.assertLive(this.#generation, this.#owner, this.ptr);
    const buffer = this.#kernels.exports.memory.buffer;
    if (this.#view === undefined || this.#view.buffer !== buffer) {
      this.#view = new this.#ctor(buffer, this.ptr, this.length) as ArrayOf<C>;
    }
    return this.#view;
  }

  /** A copy of the elements that outlives the job. */
  toArray(): ArrayOf<C> {
    return this.view.slice() as ArrayOf<C>;
  }
}

/** Options of {@link Kernels}. */
export interface KernelsOptions {
  /**
   * When the outermost {@link Kernels.job} ends with more memory than this (bytes),
   * the instance is replaced by a fresh one to give the memory back. Default 64 MiB.
   */
  retainBytes?: number;
}

/**
 * One instance of the kernels module plus the arena over its memory. Create it with
 * {@link Kernels.fromModule}; most code uses the shared instance from `bindings/index.ts`.
 */
export class Kernels {
  #module: WebAssembly.Module;
  #exports!: KernelExports;
  #heapBase = 0;
  #top = 0;
  #generation = 0;
  /** Ids of the open jobs, outermost first; allocations outside any job belong to `#rootOwner`. */
  #openJobs: number[] = [];
  #nextOwner = 1;
  #rootOwner = 0;
  readonly retainBytes: number;

  private constructor(module: WebAssembly.Module, options: KernelsOptions = {}) {
    this.#module = module;
    this.retainBytes = options.retainBytes ?? 64 * 1024 * 1024;
    this.#instantiate();
  }

  /** Instantiates a compiled module synchronously (fine for the small kernels module everywhere). */
  static fromModule(module: WebAssembly.Module, options?: KernelsOptions): Kernels {
    return new Kernels(module, options);
  }

  #instantiate(): void {
    const instance = new WebAssembly.Instance(this.#module, {});
    this.#exports = instance.exports as unknown as KernelExports;
    this.#heapBase = align(this.#exports.heapBase());
    this.#top = this.#heapBase;
    this.#generation++;
    this.#rootOwner = this.#nextOwner++;
  }

  /** The raw exports, for code that manages pointers itself. */
  get exports(): KernelExports {
    return this.#exports;
  }

  /** Bytes of linear memory the instance holds now. */
  get memoryBytes(): number {
    return this.#exports.memory.buffer.byteLength;
  }

  /** Bytes allocated in the arena now. */
  get allocatedBytes(): number {
    return this.#top - this.#heapBase;
  }

  /** @internal */
  assertLive(generation: number, owner: number, ptr: number): void {
    if (generation !== this.#generation || (owner !== this.#rootOwner && !this.#openJobs.includes(owner))) {
      throw new WasmError(`WasmArray at ${ptr} was used after the job that allocated it ended`);
    }
  }

  #alloc<C extends ArrayCtor>(ctor: C, length: number): WasmArray<C> {
    if (!Number.isInteger(length) || length < 0) {
      throw new WasmError(`Cannot allocate ${length} elements in WebAssembly memory`);
    }
    const bytes = length * ctor.BYTES_PER_ELEMENT;
    const ptr = this.#top;
    const end = align(ptr + bytes);
    if (end > 4 * 1024 * 1024 * 1024 - PAGE) {
      throw new WasmError(`Allocation of ${bytes} bytes exceeds the 4 GiB WebAssembly memory`);
    }
    const memory = this.#exports.memory;
    if (end > memory.buffer.byteLength) {
      const pages = Math.ceil((end - memory.buffer.byteLength) / PAGE);
      try {
        memory.grow(pages);
      } catch (cause) {
        throw new WasmError(`Could not grow WebAssembly memory by ${pages} pages: ${String(cause)}`);
      }
    }
    this.#top = end;
    const owner = this.#openJobs.length ? this.#openJobs[this.#openJobs.length - 1] : this.#rootOwner;
    return new WasmArray(this, ctor, ptr, length, this.#generation, owner);
  }

  /** Allocates `length` f32 slots (zeroed only on fresh memory; write before reading). */
  allocF32(length: number): WasmArray<Float32ArrayConstructor> {
    return this.#alloc(Float32Array, length);
  }
  /** Allocates `length` i32 slots. */
  allocI32(length: number): WasmArray<Int32ArrayConstructor> {
    return this.#alloc(Int32Array, length);
  }
  /** Allocates `length` f64 slots. */
  allocF64(length: number): WasmArray<Float64ArrayConstructor> {
    return this.#alloc(Float64Array, length);
  }
  /** Copies a Float32Array into the module's memory. */
  copyF32(values: ArrayLike<number>): WasmArray<Float32ArrayConstructor> {
    const a = this.allocF32(values.length);
    a.view.set(values);
    return a;
  }
  /** Copies an Int32Array (or numbers) into the module's memory. */
  copyI32(values: ArrayLike<number>): WasmArray<Int32ArrayConstructor> {
    const a = this.allocI32(values.length);
    a.view.set(values);
    return a;
  }

  /**
   * Runs `fn`, then frees everything allocated during it. Jobs nest. When the
   * outermost job ends and the memory exceeds `retainBytes`, the instance is replaced
   * (memory cannot shrink otherwise) — unless allocations made outside any job are
   * still live. Return copies, not {@link WasmArray}s, from `fn`.
   */
  job<T>(fn: (kernels: Kernels) => T): T {
    const mark = this.#top;
    const generation = this.#generation;
    this.#openJobs.push(this.#nextOwner++);
    try {
      return fn(this);
    } finally {
      this.#openJobs.pop();
      if (generation === this.#generation) this.#top = mark;
      if (this.#openJobs.length === 0) this.#trim();
    }
  }

  /**
   * Replaces the instance when the memory grew past retainBytes, unless allocations made
   * outside any job are still live (they would die with it); {@link reset} frees those.
   */
  #trim(): void {
    if (this.memoryBytes > this.retainBytes && this.#top === this.#heapBase) this.#instantiate();
  }

  /** Frees every allocation and gives memory back (replacing the instance if it grew). */
  reset(): void {
    if (this.#openJobs.length > 0) throw new WasmError('Kernels.reset() called inside a job');
    this.#top = this.#heapBase;
    this.#rootOwner = this.#nextOwner++;
    this.#trim();
  }
}

function align(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}
