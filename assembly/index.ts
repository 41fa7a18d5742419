// chunkwise WebAssembly kernels. Every function reads and writes typed arrays laid in
// this module's linear memory by the TypeScript side (bindings/); nothing here
// allocates, so the module runs with the stub runtime.
export { windowCount, planWindows } from './kernels/windows';
export { mergeIntervals } from './kernels/intervals';
export { dotF32, cosineMatVec, cosineNeighbours, normalizeRows, bandDots, meanPairDot } from './kernels/cosine';
export { clusterSegments } from './kernels/cluster';
export { selectF64, percentileF32, percentileInPlaceF64 } from './kernels/percentile';
export { decayScore, decayScores } from './kernels/decay';
export { topK } from './kernels/topk';
export { hashEmbedBatch, gatherMeanRows } from './kernels/hashing';
export { firstSurrogate } from './kernels/scan';

/** First free byte after the module's static data: where the TypeScript side's arena starts. */
export function heapBase(): usize {
  return __heap_base;
}
