/**
 * Fixed-size chunking: chunks of `chunkSize` units overlapping by `chunkOverlap` units.
 *
 * The same windows as {@link SlidingWindowChunker} with
 * `windowSize = chunkSize` and `stride = chunkSize − chunkOverlap`.
 * @module
 */
import { InvalidOptionError } from '../core/errors.js';
import type { StrategySchema } from '../core/schema.js';
import { UNIT_OPTIONS, type UnitOptions } from '../size/resolve.js';
import { SlidingWindowChunker } from './sliding-window.js';
import { defaultOverlap } from './recursive.js';

/** Options of {@link FixedSizeChunker}. */
export interface FixedSizeOptions extends UnitOptions {
  /** Units per chunk, an integer ≥ 1. Default 512. */
  chunkSize?: number;
  /** Units shared by consecutive chunks, an integer in [0, chunkSize). Default 64 (12.5 % of 512). */
  chunkOverlap?: number;
}

/** The options schema of the fixed-size strategy. */
export const FIXED_SCHEMA: StrategySchema = {
  name: 'fixed',
  options: {
    chunkSize: { type: 'integer', min: 1, default: 512, doc: 'units per chunk' },
    chunkOverlap: {
      type: 'integer',
      min: 0,
      default: defaultOverlap,
      defaultDoc: 'min(64, ⌊chunkSize/8⌋)',
      doc: 'units shared by consecutive chunks; less than chunkSize',
    },
    ...UNIT_OPTIONS,
  },
  check(r) {
    if ((r.chunkOverlap as number) >= (r.chunkSize as number)) {
      throw new InvalidOptionError('chunkOverlap', r.chunkOverlap, `must be < chunkSize (${r.chunkSize})`);
    }
  },
};

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
  static override readonly schema: StrategySchema = FIXED_SCHEMA;
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  protected override strategy = 'fixed';

  constructor(options: FixedSizeOptions = {}) {
    super(options as never);
    this.chunkSize = this.windowSize;
    this.chunkOverlap = this.windowSize - this.stride;
  }

  /** @internal */
  static override windows(o: Record<string, unknown>): { windowSize: number; stride: number } {
    return { windowSize: o.chunkSize as number, stride: (o.chunkSize as number) - (o.chunkOverlap as number) };
  }
}
