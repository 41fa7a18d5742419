/**
 * `chunkwise/kernels`: the WebAssembly kernels the strategies plan on, as typed
 * functions over plain typed arrays or {@link WasmArray} handles already in the module's
 * memory — window planning, interval merging, cosine similarities, percentiles,
 * exponential-decay scores, top-k, row normalisation — and {@link WasmMatrix}, an
 * embedding matrix kept in that memory. The modules' set-up for runtimes that load
 * them themselves: `setKernelsModule`, `setBpeModule`, `initBpe`, `setRankTable`
 * (`initKernels` is on the root entry too: a page sets the module up before chunking).
 * @module
 */
export {
  getKernels,
  initKernels,
  setKernelsModule,
  Kernels,
  WasmArray,
  planWindows,
  windowCount,
  mergeIntervals,
  cosineMatVec,
  cosineNeighbours,
  percentile,
  decayScore,
  decayScores,
  topK,
  normalizeRows,
  type KernelsSource,
  type KernelsOptions,
  type WindowPlan,
  type MergedIntervals,
} from '../bindings/index.js';
export { WasmMatrix } from './engine/wasm-matrix.js';
export { initBpe, setBpeModule } from '../bindings/bpe.js';
export { setRankTable } from '../bindings/bpe-ranks.js';
