/**
 * Sliding-window chunking: a window of `windowSize` units moved by `stride` units.
 *
 * Source: SPEC section 1, "Sliding-window rules (exact)", from the seed articles on
 * sliding-window chunking (`shared/seeds/000`, `002`, `003`).
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { PrefixIds } from '../core/ids.js';
import { InvalidOptionError } from '../core/errors.js';
import { integerOption } from '../core/options.js';
import { planSpans } from '../plan/windows.js';
import { isBlank, requireText } from '../core/text.js';
import type { UnitKind } from '../size/index.js';
import { resolveUnits, trimBlankUnits, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';
export type { UnitOptions } from '../size/resolve.js';
import { slidingWindowStream } from '../stream/sliding-window-stream.js';
import type { TextSource } from '../stream/source.js';

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
  readonly windowSize: number;
  readonly stride: number;
  readonly allowGaps: boolean;
  readonly unit: UnitKind;
  readonly encoding: string;
  /** Strategy name written to chunk metadata. */
  protected strategy = 'sliding';
  readonly #resolved: ResolvedUnits;

  constructor(options: SlidingWindowOptions = {}) {
    this.windowSize = integerOption('windowSize', options.windowSize, 512);
    this.stride = integerOption('stride', options.stride, Math.max(1, Math.floor(this.windowSize / 2)));
    const allowGaps: unknown = options.allowGaps ?? false;
    if (typeof allowGaps !== 'boolean') throw new InvalidOptionError('allowGaps', allowGaps, 'must be a boolean');
    this.allowGaps = allowGaps;
    if (this.stride > this.windowSize && !this.allowGaps) {
      throw new InvalidOptionError(
        'stride',
        this.stride,
        `must be ≤ windowSize (${this.windowSize}); a larger stride skips text between windows (set allowGaps to accept that)`,
      );
    }
    this.#resolved = resolveUnits(options);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
  }

  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks.
   * @param text the source; offsets in the chunks are UTF-16 indices into it.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string): Chunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    const { units, tokenizer, countTokens, unit } = this.#resolved;
    const spans = trimBlankUnits(text, units.segment(text));
    const planned = planSpans(text, spans, this.windowSize, this.stride, unit === 'token' ? units.count : undefined);
    const ids = new PrefixIds();
    const chunks: Chunk[] = [];
    let prevEnd = 0;
    let prevUnitEnd = 0;
    for (const p of planned) {
      const chunkText = text.slice(p.start, p.end);
      const index = chunks.length;
      const tokenCount =
        unit === 'token' ? p.unitCount : countTokens && tokenizer ? tokenizer.count(chunkText) : -1;
      chunks.push({
        id: ids.id(text, p.start, p.end),
        index,
        text: chunkText,
        start: p.start,
        end: p.end,
        tokenCount,
        metadata: {
          strategy: this.strategy,
          unit: units.name,
          unitCount: p.unitCount,
          overlap: index === 0 ? 0 : Math.max(0, prevEnd - p.start),
          overlapUnits: index === 0 ? 0 : Math.max(0, prevUnitEnd - p.unitStart),
          ...(p.oversized ? { oversized: true } : {}),
        },
      });
      prevEnd = p.end;
      prevUnitEnd = p.unitEnd;
    }
    return chunks;
  }

  /**
   * Chunks a text stream: yields the chunks `chunk(wholeText)` would return, equal in
   * every field (ids included: see `src/core/ids.ts`), each as soon as later text can no
   * longer change it, with offsets into the whole stream. Memory stays near one window
   * plus one piece (token units: text with no space or newline next to a Latin letter is
   * held until such a place or the end; a custom non-tiktoken tokenizer holds the whole
   * text). Source: SPEC section 1, same rules as {@link chunk}; docs/streaming.md.
   * @param source a `ReadableStream<string>` or (async) iterable of string pieces of any size.
   * @throws {InvalidInputError} when the source is not a stream/iterable or yields a non-string.
   */
  chunkStream(source: TextSource): AsyncGenerator<Chunk> {
    return slidingWindowStream(source, {
      windowSize: this.windowSize,
      stride: this.stride,
      resolved: this.#resolved,
      strategy: this.strategy,
    });
  }
}
