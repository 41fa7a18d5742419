/**
 * Loading the kernels module in any runtime, and typed functions over it.
 *
 * - {@link getKernels} returns the shared instance, instantiating it synchronously from
 *   the bytes built into the package on first use (Node, workers, edge runtimes).
 * - {@link initKernels} instantiates it asynchronously from bytes, a URL, a `Response`
 *   or a compiled module: use it in a browser's main thread (where synchronous
 *   compilation of modules over 4 KiB is refused) or to load `build/chunkwise.wasm`
 *   as a separate asset.
 *
 * The typed functions accept plain typed arrays (copied in) or {@link WasmArray}
 * handles already in the module's memory (no copy); results are plain arrays.
 * @module
 */
import { WasmError } from '../src/engine/errors.js';
import { KERNELS_WASM_BASE64 } from './generated/kernels-wasm.js';
import { Kernels, WasmArray, type KernelsOptions } from './kernels.js';
import { nodeBufferOver } from './node-buffer.js';

export { Kernels, WasmArray, type KernelExports, type KernelsOptions } from './kernels.js';

let shared: Kernels | undefined;

/** Decodes base64 without Node built-ins (`atob` exists in every runtime chunkwise targets). */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The kernels module's bytes as built into the package.
 * @throws {WasmError} in a bundle built without them (`dist/bundle/asset/`), whose
 *   kernels come from `build/chunkwise.wasm` through {@link initKernels} or
 *   {@link setKernelsModule}.
 */
export function kernelsWasmBytes(): Uint8Array {
  if ((KERNELS_WASM_BASE64 as string) === '') {
    throw new WasmError(
      'This chunkwise bundle has no built-in WebAssembly bytes: call await initKernels(url of chunkwise.wasm) first ' +
        '(or setKernelsModule(module) where the runtime imports .wasm files as modules)',
    );
  }
  return base64ToBytes(KERNELS_WASM_BASE64);
}

/**
 * The shared kernels instance; instantiated synchronously from the built-in bytes on
 * first call unless {@link initKernels} ran before.
 * @throws {WasmError} if the runtime refuses synchronous compilation (a browser's main
 *   thread): call `await initKernels()` first there.
 */
export function getKernels(): Kernels {
  if (shared) return shared;
  const bytes = kernelsWasmBytes();
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(bytes as BufferSource);
  } catch (cause) {
    throw new WasmError(
      `Could not compile the WebAssembly kernels synchronously (${String(cause)}); call await initKernels() first`,
    );
  }
  shared = Kernels.fromModule(module);
  return shared;
}

let compiledKernels: WebAssembly.Module | null | undefined;

/**
 * A kernels instance of its own (its own memory, not the shared instance's), or
 * undefined where the runtime refuses synchronous compilation (a browser's main thread).
 * @param options its memory policy (default: the shared instance's, 64 MiB retained).
 */
export function ownKernels(options?: KernelsOptions): Kernels | undefined {
  if (compiledKernels === undefined) {
    try {
      compiledKernels = new WebAssembly.Module(kernelsWasmBytes() as BufferSource);
    } catch {
      compiledKernels = null;
    }
  }
  return compiledKernels ? Kernels.fromModule(compiledKernels, options) : undefined;
}

/**
 * Makes `module` (a compiled `build/chunkwise.wasm`) the shared kernels, synchronously.
 * For runtimes that refuse to compile WebAssembly from bytes at run time but import
 * `.wasm` files as compiled modules: Cloudflare Workers (`import wasm from
 * './chunkwise.wasm'`) and Vercel Edge (`'./chunkwise.wasm?module'`); the package's
 * `workerd` and `edge-light` bundles call it for you. Replaces any shared instance.
 * @throws {WasmError} when `module` cannot be instantiated (not the kernels module).
 */
export function setKernelsModule(module: WebAssembly.Module, options?: KernelsOptions): Kernels {
  try {
    shared = Kernels.fromModule(module, options);
  } catch (cause) {
    throw new WasmError(`Could not instantiate the WebAssembly kernels from ${String(module)}: ${String(cause)}`);
  }
  return shared;
}

/** What {@link initKernels} can load from. */
export type KernelsSource = BufferSource | URL | string | Response | WebAssembly.Module;

/**
 * Instantiates the shared kernels asynchronously. With no source it compiles the
 * built-in bytes; a URL (or string URL) is fetched; a `Response` is streamed.
 * Calling it again replaces the shared instance.
 * @throws {WasmError} when the source cannot be fetched or compiled.
 */
export async function initKernels(source?: KernelsSource, options?: KernelsOptions): Promise<Kernels> {
  let module: WebAssembly.Module;
  try {
    if (source === undefined) module = await WebAssembly.compile(kernelsWasmBytes() as BufferSource);
    else if (source instanceof WebAssembly.Module) module = source;
    else if (typeof source === 'string' || source instanceof URL) {
      const response = await fetch(source);
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${String(source)}`);
      module = await WebAssembly.compile(await response.arrayBuffer());
    } else if (typeof Response !== 'undefined' && source instanceof Response) {
      module = await WebAssembly.compile(await source.arrayBuffer());
    } else module = await WebAssembly.compile(source as BufferSource);
  } catch (cause) {
    throw new WasmError(`Could not load the WebAssembly kernels: ${String(cause)}`);
  }
  shared = Kernels.fromModule(module, options);
  return shared;
}

type F32In = Float32Array | WasmArray<Float32ArrayConstructor>;
type I32In = Int32Array | ArrayLike<number> | WasmArray<Int32ArrayConstructor>;

function f32In(k: Kernels, a: F32In): WasmArray<Float32ArrayConstructor> {
  return a instanceof WasmArray ? a : k.copyF32(a);
}
function i32In(k: Kernels, a: I32In): WasmArray<Int32ArrayConstructor> {
  return a instanceof WasmArray ? (a as WasmArray<Int32ArrayConstructor>) : k.copyI32(a as ArrayLike<number>);
}

/** Window starts and ends (unit indices, end exclusive), one entry per window. */
export interface WindowPlan {
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * Plans sliding windows over `n` units: starts 0, stride, 2·stride, …;
 * window k is [k·stride, min(k·stride + windowSize, n)); the last window is the first
 * one that reaches n. Arguments must be validated integers ≥ 1 (n ≥ 0).
 */
export function planWindows(n: number, windowSize: number, stride: number): WindowPlan {
  const k = getKernels();
  return k.job(() => {
    const count = k.exports.windowCount(n, windowSize, stride);
    const starts = k.allocI32(count);
    const ends = k.allocI32(count);
    k.exports.planWindows(n, windowSize, stride, starts.ptr, ends.ptr);
    return { starts: starts.toArray(), ends: ends.toArray() };
  });
}

/** Number of windows {@link planWindows} returns. */
export function windowCount(n: number, windowSize: number, stride: number): number {
  return getKernels().exports.windowCount(n, windowSize, stride);
}

/** Merged intervals and, per input interval, the index of the merged one it joined. */
export interface MergedIntervals {
  starts: Int32Array;
  ends: Int32Array;
  group: Int32Array;
}

/**
 * Merges half-open intervals [starts[i], ends[i]) sorted by start: an interval joins the
 * current one when it starts at most `gap` after the current end (0: overlapping or
 * adjacent intervals merge).
 */
export function mergeIntervals(starts: I32In, ends: I32In, gap = 0): MergedIntervals {
  const k = getKernels();
  return k.job(() => {
    const s = i32In(k, starts);
    const e = i32In(k, ends);
    const n = s.length;
    const outS = k.allocI32(n);
    const outE = k.allocI32(n);
    const group = k.allocI32(n);
    const m = k.exports.mergeIntervals(s.ptr, e.ptr, n, gap, outS.ptr, outE.ptr, group.ptr);
    return { starts: outS.view.slice(0, m), ends: outE.view.slice(0, m), group: group.toArray() };
  });
}

/**
 * cos(M[i], v) for each row of an n × d row-major matrix M (Float32Array of n·d) and a
 * vector v of length d. Zero vectors give 0. With `normalized` the inputs are taken as
 * unit vectors (a dot product only). Returns a Float32Array of n.
 */
export function cosineMatVec(matrix: F32In, d: number, vector: F32In, normalized = false): Float32Array {
  const k = getKernels();
  return k.job(() => {
    const m = f32In(k, matrix);
    const v = f32In(k, vector);
    const n = d > 0 ? Math.floor(m.length / d) : 0;
    const out = k.allocF32(n);
    k.exports.cosineMatVec(m.ptr, n, d, v.ptr, out.ptr, normalized ? 1 : 0);
    return out.toArray();
  });
}

/**
 * cos(M[i], M[i + 1]) for i < n − 1 over an n × d row-major matrix: each row against the
 * next. Returns a Float32Array of max(n − 1, 0).
 */
export function cosineNeighbours(matrix: F32In, d: number, normalized = false): Float32Array {
  const k = getKernels();
  return k.job(() => {
    const m = f32In(k, matrix);
    const n = d > 0 ? Math.floor(m.length / d) : 0;
    const out = k.allocF32(Math.max(n - 1, 0));
    k.exports.cosineNeighbours(m.ptr, n, d, out.ptr, normalized ? 1 : 0);
    return out.toArray();
  });
}

/**
 * The p-th percentile (0 ≤ p ≤ 100) of the values, numpy's default linear
 * interpolation, by selection (no full sort). NaN for an empty list.
 */
export function percentile(values: F32In | Float64Array | number[], p: number): number {
  const k = getKernels();
  return k.job(() => {
    if (values instanceof WasmArray || values instanceof Float32Array) {
      const v = f32In(k, values);
      const scratch = k.allocF64(v.length);
      return k.exports.percentileF32(v.ptr, v.length, p, scratch.ptr);
    }
    const a = k.allocF64(values.length);
    a.view.set(values);
    return k.exports.percentileInPlaceF64(a.ptr, a.length, p);
  });
}

/**
 * Exponential-decay weighted mean (QASC step 4):
 * S = Σ α_i·sim_i / Σ α_i over i in [lo, hi), α_i = exp(−λ·|i − r|).
 */
export function decayScore(sims: F32In, lo: number, hi: number, r: number, lambda: number): number {
  const k = getKernels();
  return k.job(() => k.exports.decayScore(f32In(k, sims).ptr, lo, hi, r, lambda));
}

/** {@link decayScore} for many windows: window j is [lo[j], hi[j]) around r[j]. Returns Float64Array. */
export function decayScores(sims: F32In, lo: I32In, hi: I32In, r: I32In, lambda: number): Float64Array {
  const k = getKernels();
  return k.job(() => {
    const s = f32In(k, sims);
    const l = i32In(k, lo);
    const h = i32In(k, hi);
    const c = i32In(k, r);
    const out = k.allocF64(l.length);
    k.exports.decayScores(s.ptr, l.ptr, h.ptr, c.ptr, l.length, lambda, out.ptr);
    return out.toArray();
  });
}

/** Indices of the k highest scores, best first; ties to the lower index; NaN ranks last. */
export function topK(scores: F32In, kCount: number): Int32Array {
  const k = getKernels();
  return k.job(() => {
    const s = f32In(k, scores);
    const out = k.allocI32(Math.max(0, Math.min(kCount, s.length)));
    const m = k.exports.topK(s.ptr, s.length, kCount, out.ptr);
    return out.view.slice(0, m);
  });
}

/**
 * Banded similarities of an n × d row-major matrix whose rows are unit vectors (so a
 * dot product is the cosine): out[i·w + k] = M[i] · M[i − k] for 1 ≤ k < w and k ≤ i,
 * every other entry 0. Returns a Float32Array of n·w (n = ⌊matrix.length / d⌋). The
 * similarity matrix of cluster-semantic chunking, kept to the w − 1 diagonals a chunk of
 * at most w pieces can use (O(n·w·d), never n²).
 * @throws {WasmError} when d or w is not an integer ≥ 1.
 */
export function bandDots(matrix: F32In, d: number, w: number): Float32Array {
  requirePositive('d', d);
  requirePositive('w', w);
  const k = getKernels();
  return k.job(() => {
    const m = f32In(k, matrix);
    const n = Math.floor(m.length / d);
    const out = k.allocF32(n * w);
    k.exports.bandDots(m.ptr, n, d, w, out.ptr);
    return out.toArray();
  });
}

/**
 * Mean dot product over all pairs i < j of the rows of an n × d row-major matrix, in
 * O(n·d) (|Σ M[i]|² − Σ |M[i]|²) / (n·(n − 1)), sums in f64; 0 when n < 2. For unit rows:
 * the mean of the off-diagonal similarity matrix, which Chroma's ClusterSemanticChunker
 * subtracts before its DP.
 * @throws {WasmError} when d is not an integer ≥ 1.
 */
export function meanPairDot(matrix: F32In, d: number): number {
  requirePositive('d', d);
  const k = getKernels();
  return k.job(() => {
    const m = f32In(k, matrix);
    const scratch = k.allocF64(d);
    return k.exports.meanPairDot(m.ptr, Math.floor(m.length / d), d, scratch.ptr);
  });
}

/** The DP table of {@link clusterSegments}: per piece i, the best chunk ending at i starts at `start[i]`; `dp[i]` is the best total reward of pieces 0…i. */
export interface ClusterSegmentation {
  start: Int32Array;
  dp: Float64Array;
}

/**
 * Cluster-semantic segmentation (Chroma's ClusterSemanticChunker `_optimal_segmentation`)
 * over n = lo.length pieces: dp[i] = max over j in [L(i), i] of reward(j, i) + dp[j − 1]
 * (dp[−1] = 0), reward(j, i) = Σ over a ≠ b in [j, i] of (S(a, b) − mu), with
 * S(i, i − k) = band[i·w + k] as {@link bandDots} lays it out and
 * L(i) = min(i, max(lo[i], L(i − 1), i − w + 1, 0)). Ties go to the shorter last chunk.
 * O(n·w) in f64. Backtrack from i = n − 1: a chunk [start[i], i], then i = start[i] − 1.
 * @throws {WasmError} when w is not an integer ≥ 1 or band holds fewer than n·w floats.
 */
export function clusterSegments(band: F32In, w: number, mu: number, lo: I32In): ClusterSegmentation {
  requirePositive('w', w);
  const k = getKernels();
  return k.job(() => {
    const l = i32In(k, lo);
    const n = l.length;
    const b = f32In(k, band);
    if (b.length < n * w) throw new WasmError(`clusterSegments: band holds ${b.length} floats, expected ${n} × ${w}`);
    const start = k.allocI32(n);
    const dp = k.allocF64(n);
    const reward = k.allocF64(n);
    k.exports.clusterSegments(b.ptr, n, w, mu, l.ptr, start.ptr, dp.ptr, reward.ptr);
    return { start: start.toArray(), dp: dp.toArray() };
  });
}

function requirePositive(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 1) throw new WasmError(`${name} must be an integer ≥ 1, got ${String(v)}`);
}

/** Scales each row of an n × d matrix in WASM memory to unit length, in place. */
export function normalizeRows(matrix: WasmArray<Float32ArrayConstructor>, d: number): void {
  const n = d > 0 ? Math.floor(matrix.length / d) : 0;
  getKernels().exports.normalizeRows(matrix.ptr, n, d);
}
export { hashEmbed, gatherMeanRows, embeddingExports, type HashInput, type HashParams, type EmbeddingKernelExports } from './embedding.js';

/** The scan's own kernels instance: chunking grows its memory, not the shared instance's (whose typed-array views a caller may keep). */
let scanKernels: Kernels | undefined;

/** Code units from which {@link firstSurrogate} scans in the kernels rather than with a regular expression. */
const SCAN_UNITS = 4096;
/** Code units copied into the kernels' memory per step of {@link firstSurrogate} (1 MiB), so a long text needs no more memory. */
const SCAN_PIECE = 1 << 19;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Index (UTF-16 code units, in `text`) of the first surrogate code unit — paired or lone —
 * in `text.slice(from, to)`, or −1 when there is none. In Node a long range is copied into
 * the memory of a kernels instance of its own (not the shared one) as UTF-16, half a
 * million units at a time, and scanned eight units per step (wasm SIMD); elsewhere, and
 * for short ranges, a regular expression scans it. The answer is
 * the same on every path. Cost on 1.41 MB of prose (`bench/kernels.bench.ts`, Node 20):
 * 0.3 ms where V8 stores the text as two-byte (any character above U+00FF; the regular
 * expression takes 1.6–2.7 ms), 0.46 ms where it stores it as one-byte (Latin-1 only; the
 * regular expression answers at once there — JavaScript cannot tell the two apart).
 */
export function firstSurrogate(text: string, from = 0, to = text.length): number {
  if (to - from >= SCAN_UNITS && nodeBufferOver) {
    const write = nodeBufferOver;
    scanKernels ??= ownKernels() ?? getKernels();
    return scanKernels.job((k) => {
      const units = k.allocI32(SCAN_PIECE >> 1);
      const buffer = write(k.exports.memory.buffer as ArrayBuffer, units.ptr, 2 * SCAN_PIECE);
      for (let lo = from; lo < to; lo += SCAN_PIECE) {
        const hi = Math.min(to, lo + SCAN_PIECE);
        buffer.write(lo === 0 && hi === text.length ? text : text.slice(lo, hi), 0, 2 * (hi - lo), 'utf16le');
        const i = k.exports.firstSurrogate(units.ptr, hi - lo);
        if (i >= 0) return lo + i;
      }
      return -1;
    });
  }
  const i = (from === 0 && to === text.length ? text : text.slice(from, to)).search(SURROGATE);
  return i < 0 ? -1 : from + i;
}
