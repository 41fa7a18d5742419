/**
 * Fixed-size chunking: chunks of `chunkSize` units overlapping by `chunkOverlap` units.
 *
 * Source: SPEC section 1 ("fixed size"), the seeds' survey of chunking strategies
 * (`shared/seeds/001`). The same windows as {@link SlidingWindowChunker} with
 * `windowSize = chunkSize` and `stride = chunkSize − chunkOverlap`.
 * @module
 */
import { InvalidOptionError } from '../core/errors.js';
import { integerOption } from '../core/options.js';
import type { UnitOptions } from '../size/resolve.js';
import { SlidingWindowChunker } from './sliding-window.js';

/** Options of {@link FixedSizeChunker}. */
export interface FixedSizeOptions extends UnitOptions {
  /** Units per chunk, an integer ≥ 1. Default 512. */
  chunkSize?: number;
  /** Units shared by consecutive chunks, an integer in [0, chunkSize). Default 64 (12.5 % of 512). */
  chunkOverlap?: number;
}

/**
 * Chunks of `chunkSize` units (characters, words or tokens) where each chunk repeats
 * the last `chunkOverlap` units of the previous one.
 *
 * @example
 * ```ts
 * const chunker = new FixedSizeChunker({ unit: 'token', chunkSize: 512, chunkOverlap: 64 });
 * const chunks = chunker.chunk(text); // chunk.text === text.slice(chunk.start, chunk.end)
 * ```
 * @throws {InvalidOptionError} at construction when chunkSize is not an integer ≥ 1
 *   or chunkOverlap is not an integer in [0, chunkSize).
 */
export class FixedSizeChunker extends SlidingWindowChunker {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  protected override strategy = 'fixed';

  constructor(options: FixedSizeOptions = {}) {
    const chunkSize = integerOption('chunkSize', options.chunkSize, 512);
    const defaultOverlap = Math.min(64, Math.floor(chunkSize / 8));
    const chunkOverlap = integerOption('chunkOverlap', options.chunkOverlap, defaultOverlap, 0);
    if (chunkOverlap >= chunkSize) {
      throw new InvalidOptionError('chunkOverlap', chunkOverlap, `must be < chunkSize (${chunkSize})`);
    }
    super({ ...options, windowSize: chunkSize, stride: chunkSize - chunkOverlap });
    this.chunkSize = chunkSize;
    this.chunkOverlap = chunkOverlap;
  }
}
