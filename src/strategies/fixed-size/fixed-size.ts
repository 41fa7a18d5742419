/**
 * Fixed-size chunking: chunks of `chunkSize` units overlapping by `chunkOverlap` units.
 *
 * The same windows as {@link SlidingWindowChunker} with
 * `windowSize = chunkSize` and `stride = chunkSize − chunkOverlap`.
 * @module
 */
import type { StrategySchema, OptionsOf } from '../../engine/options/schema.js';
import { WindowPlan } from '../../engine/pack/windows.js';
import { capacitySchema, defineStrategy } from '../../engine/define.js';

/** The options schema of the fixed-size strategy: the capacity block alone. */
export const FIXED_SCHEMA = capacitySchema('fixed', {}) satisfies StrategySchema;

/** Options of {@link FixedSizeChunker}: read from {@link FIXED_SCHEMA}. */
export type FixedSizeOptions = OptionsOf<typeof FIXED_SCHEMA>;

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
export class FixedSizeChunker extends defineStrategy({
  name: 'fixed',
  description: 'chunks of chunkSize units overlapping by chunkOverlap units',
  schema: FIXED_SCHEMA,
  stream: true,
}) {
  readonly chunkSize: number = this.options.chunkSize;
  readonly chunkOverlap: number = this.options.chunkOverlap;
  protected readonly plan = new WindowPlan(this.chunkSize, this.chunkSize - this.chunkOverlap, this.resolved);
}
