/**
 * Sliding-window chunking: a window of `windowSize` units moved by `stride` units.
 *
 * The exact window rules are those of `src/plan/windows.ts`.
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { InvalidOptionError } from '../core/errors.js';
import { resolveOptions, type StrategySchema } from '../core/schema.js';
import { isBlank, requireText } from '../core/text.js';
import { documentIdOf, type ChunkCallOptions } from '../core/ids.js';
import { Assembler, type PlannedChunk } from '../plan/assemble.js';
import { WindowPlan } from '../plan/windows.js';
import type { UnitKind } from '../size/index.js';
import { resolveUnits, UNIT_OPTIONS, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';
import { planWhole, streamPlan } from '../stream/driver.js';
import type { TextSource } from '../stream/source.js';

export type { UnitOptions } from '../size/resolve.js';

/** The options schema of the sliding-window strategy. */
export const SLIDING_SCHEMA: StrategySchema = {
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
};

/** Options of {@link SlidingWindowChunker}. */
export interface SlidingWindowOptions extends UnitOptions {
  /** Units per window, an integer ≥ 1. Default 512. */
  windowSize?: number;
  /** Units the window moves each step, an integer ≥ 1 and ≤ windowSize. Default 256 (50 % overlap). */
  stride?: number;
  /**
   * Allow `stride > windowSize`: the units between windows are then left out of every
   * chunk. Off by default, because it loses text.
   */
  allowGaps?: boolean;
}

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
export class SlidingWindowChunker {
  /** The options schema the constructor validates with (subclasses: their own). */
  static readonly schema: StrategySchema = SLIDING_SCHEMA;
  readonly windowSize: number;
  readonly stride: number;
  readonly allowGaps: boolean;
  readonly unit: UnitKind | 'custom';
  readonly encoding: string;
  /** Strategy name written to chunk metadata. */
  protected strategy = 'sliding';
  readonly #resolved: ResolvedUnits;
  readonly #plan: WindowPlan;

  constructor(options: SlidingWindowOptions = {}) {
    const ctor = new.target as unknown as { schema: StrategySchema; windows(o: Record<string, unknown>): { windowSize: number; stride: number } };
    const o = resolveOptions<Record<string, unknown>>(ctor.schema, options);
    const { windowSize, stride } = ctor.windows(o);
    this.windowSize = windowSize;
    this.stride = stride;
    this.allowGaps = (o.allowGaps as boolean | undefined) ?? false;
    this.#resolved = resolveUnits(o as UnitOptions);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
    this.#plan = new WindowPlan(this.windowSize, this.stride, this.#resolved);
  }

  /** The window size and stride of resolved options (fixed size maps chunkSize and chunkOverlap). @internal */
  static windows(o: Record<string, unknown>): { windowSize: number; stride: number } {
    return { windowSize: o.windowSize as number, stride: o.stride as number };
  }

  #assembler(options: ChunkCallOptions | undefined): Assembler {
    return new Assembler({ strategy: this.strategy, units: this.#resolved, documentId: documentIdOf(options) });
  }

  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks.
   * @param text the source; offsets in the chunks are UTF-16 indices into it.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string, options?: ChunkCallOptions): Chunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    return planWhole(text, this.#plan, this.#assembler(options));
  }

  /**
   * The planned spans of `text` (what {@link chunk} assembles), offsets into `text`: for
   * strategies that cut inside their own structure with windows.
   */
  spans(text: string): PlannedChunk[] {
    return this.#plan.step(text, 0, this.#plan.initial(), true).chunks;
  }

  /**
   * Chunks a text stream: yields the chunks `chunk(wholeText)` would return, equal in
   * every field (ids included), each as soon as later text can no longer change it, with
   * offsets into the whole stream. Both run the same window plan (`src/plan/windows.ts`)
   * through the one stream driver (`src/stream/driver.ts`). Memory stays near one window
   * plus one piece in every unit: text is segmented up to the sizer's declared safe cut
   * (token units: the tiktoken rule — a text with no space or newline next to a Latin
   * letter is held until such a place or the end; a tokenizer without a declared
   * `safeCut` holds the whole text). See docs/streaming.md.
   * @param source a `ReadableStream<string>` or (async) iterable of string pieces of any size.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when the source is not a stream/iterable or yields a non-string.
   */
  chunkStream(source: TextSource, options?: ChunkCallOptions): AsyncGenerator<Chunk> {
    return streamPlan(source, this.#plan, this.#assembler(options));
  }
}
