/**
 * Sliding-window chunking: a window of `windowSize` units moved by `stride` units.
 *
 * The exact window rules are those of `src/engine/pack/windows.ts`.
 * @module
 */
import { InvalidOptionError } from '../../engine/errors.js';
import type { OptionsOf, StrategySchema } from '../../engine/options/schema.js';
import { WindowPlan } from '../../engine/pack/windows.js';
import { UNIT_OPTIONS } from '../../engine/size/resolve.js';
import { defineStrategy } from '../../engine/define.js';

export type { UnitOptions } from '../../engine/size/resolve.js';

/** The options schema of the sliding-window strategy. */
export const SLIDING_SCHEMA = {
  name: 'sliding',
  options: {
    windowSize: { type: 'integer', min: 1, default: 512, doc: 'units per window' },
    stride: {
      type: 'integer',
      min: 1,
      default: (r: Readonly<Record<string, unknown>>) => Math.max(1, Math.floor((r.windowSize as number) / 2)),
      defaultDoc: '⌊windowSize/2⌋ (50 % overlap)',
      doc: 'units the window moves each step; at most windowSize unless allowGaps',
    },
    allowGaps: { type: 'boolean', default: false, doc: 'allow stride > windowSize: the units between windows are left out of every chunk (loses text)' },
    ...UNIT_OPTIONS,
  },
  check(r) {
    if ((r.stride as number) > (r.windowSize as number) && !r.allowGaps) {
      throw new InvalidOptionError(
        'stride',
        r.stride,
        `must be ≤ windowSize (${r.windowSize}); a larger stride skips text between windows (set allowGaps to accept that)`,
      );
    }
  },
} as const satisfies StrategySchema;

/** Options of {@link SlidingWindowChunker}: read from {@link SLIDING_SCHEMA}. */
export type SlidingWindowOptions = OptionsOf<typeof SLIDING_SCHEMA>;

/**
 * Fixed windows of `windowSize` units (characters, words or tokens) moved by `stride`
 * units; consecutive chunks overlap by `windowSize − stride` units.
 *
 * Units are laid out from the first to the last unit with non-whitespace text (char
 * and token units at the edges that are whitespace only are left out; inner ones stay).
 * Windows start at unit 0, stride, 2·stride, …; the last window is the first that
 * reaches the last unit, so no window lies inside the previous one and the number of
 * chunks is `1 + ⌈(n − windowSize) / stride⌉` for n > windowSize units (1 otherwise).
 * With token units a window's text is re-measured on its own and, where BPE encodes it
 * into more tokens than `windowSize` (a cut inside a word), shortened by whole tokens
 * until it fits; the next window then starts no later than its end.
 *
 * @example
 * ```ts
 * const chunker = new SlidingWindowChunker({ unit: 'word', windowSize: 5, stride: 3 });
 * chunker.chunk('RAG enhances LLMs by retrieving external data. This process reduces hallucinations.')
 *   .map((c) => c.text);
 * // ['RAG enhances LLMs by retrieving', 'by retrieving external data. This',
 * //  'data. This process reduces hallucinations.']
 * ```
 * @throws {InvalidOptionError} at construction when windowSize or stride is not an
 *   integer ≥ 1, or stride > windowSize without `allowGaps`.
 */
export class SlidingWindowChunker extends defineStrategy({
  name: 'sliding',
  description: 'windows of windowSize units moved by stride units',
  schema: SLIDING_SCHEMA,
  budget: { size: 'windowSize', overlap: 'stride', overlapAsStride: true },
  stream: true,
}) {
  readonly windowSize: number = this.options.windowSize;
  readonly stride: number = this.options.stride;
  readonly allowGaps: boolean = this.options.allowGaps;
  protected readonly plan = new WindowPlan(this.windowSize, this.stride, this.resolved);
}
