/**
 * The refine stage of {@link pipeline}: the caller's step between chunking and embedding,
 * on each document's chunks of a window, in order. Core module: no Node built-in.
 * @module
 */
import type { Chunk } from '../engine/chunk.js';
import { InvalidOptionError } from '../engine/errors.js';
import type { PipelineOptions } from './types.js';
import type { pipeline } from './pipeline.js';

/**
 * Replaces each segment's chunks (one document's chunks of a window) by what `refine`
 * returns for them, segment by segment in order.
 * @throws {InvalidOptionError} when `refine` returns something other than an array.
 */
export async function refineSegments(segments: { doc: { source: string }; chunks: Chunk[] }[], refine: NonNullable<PipelineOptions['refine']>): Promise<void> {
  for (const seg of segments) {
    const chunks = await refine(seg.chunks, seg.doc.source);
    if (!Array.isArray(chunks)) throw new InvalidOptionError('refine', chunks, 'a function returning an array of chunks');
    seg.chunks = chunks;
  }
}
