/**
 * Span splitters: the pluggable "split this text into spans within a budget" step that
 * structure-aware chunkers call where their structure gives no finer cut (a paragraph
 * longer than the budget, a plain-text parent). A splitter is a plain function so the
 * chunker it wraps can be swapped (sliding window today, the recursive splitter later)
 * without touching its callers.
 * @module
 */
import { callOption } from '../core/callbacks.js';
import { describe, InvalidOptionError } from '../core/errors.js';
import { FixedSizeChunker } from '../strategies/fixed-size.js';
import { RecursiveChunker } from '../strategies/recursive.js';
import type { UnitOptions } from '../size/resolve.js';

import type { TextSpan } from '../core/text.js';

export type { TextSpan } from '../core/text.js';

/**
 * Splits `text` into spans of at most `chunkSize` units (the unit the splitter was made
 * for), in order, covering every non-whitespace character of `text`. Offsets are UTF-16
 * code units into `text`.
 */
export type SpanSplitter = (text: string, chunkSize: number) => TextSpan[];

/** What a {@link SpanSplitterFactory} is given: the caller's unit options and overlap. */
export interface SpanSplitterOptions extends UnitOptions {
  /** Units shared by consecutive spans; clamped below each call's chunkSize. */
  chunkOverlap?: number;
}

/** Builds a {@link SpanSplitter} for a unit and overlap. */
export type SpanSplitterFactory = (options: SpanSplitterOptions) => SpanSplitter;

/**
 * A splitter from a chunker built per distinct `chunkSize` (cached), with `chunkOverlap`
 * clamped below it (default min(64, ⌊chunkSize/8⌋)), no token counts.
 */
function cachedSplitter(options: SpanSplitterOptions, make: (o: SpanSplitterOptions & { chunkSize: number; chunkOverlap: number }) => { spans(text: string): TextSpan[] }): SpanSplitter {
  const cache = new Map<number, { spans(text: string): TextSpan[] }>();
  return (text, chunkSize) => {
    let chunker = cache.get(chunkSize);
    if (!chunker) {
      const overlap = Math.min(options.chunkOverlap ?? Math.min(64, Math.floor(chunkSize / 8)), chunkSize - 1);
      chunker = make({ ...options, chunkSize, chunkOverlap: Math.max(0, overlap), countTokens: false });
      cache.set(chunkSize, chunker);
    }
    return chunker.spans(text).map((c) => ({ start: c.start, end: c.end }));
  };
}

/**
 * A splitter over {@link FixedSizeChunker} windows (sliding windows with
 * `windowSize = chunkSize`, `stride = chunkSize − chunkOverlap`). One chunker is built
 * and kept per distinct `chunkSize`.
 */
export const slidingSpanSplitter: SpanSplitterFactory = (options) => cachedSplitter(options, (o) => new FixedSizeChunker(o));

/**
 * A {@link SpanSplitterFactory} over {@link RecursiveChunker}: paragraphs, lines,
 * sentence ends, spaces, then grapheme clusters, merged up to each call's chunkSize with
 * `chunkOverlap` (clamped below it), in the caller's unit and encoding.
 */
export const recursiveSpanSplitter: SpanSplitterFactory = (options) => cachedSplitter(options, (o) => new RecursiveChunker(o));

const fallbacks = new Map<string, SpanSplitterFactory>([
  ['recursive', recursiveSpanSplitter],
  ['sliding', slidingSpanSplitter],
]);

/** Registers a named fallback splitter for the `fallback` option of the structure-aware chunkers. */
export function registerFallback(name: string, factory: SpanSplitterFactory): void {
  fallbacks.set(name, factory);
}

/** Names of the registered fallback splitters. */
export function fallbackNames(): string[] {
  return [...fallbacks.keys()];
}

/**
 * `spans` (what the user's splitter `fn`, given as `option`, returned) checked: an array
 * of `{ start, end }` spans with integer offsets, `from ≤ start ≤ end ≤ to`, in order
 * (each start at or after the one before). Without the check, tuples or strings lost the
 * text silently or gave NaN offsets, offsets past the end or fractional ones reached the
 * chunks, and `null` was an internal TypeError.
 * @throws {InvalidOptionError} naming `option` and the first bad span.
 */
export function checkSpans<T extends TextSpan>(option: string, fn: unknown, spans: unknown, from: number, to: number): T[] {
  if (!Array.isArray(spans)) throw new InvalidOptionError(option, fn, `a function returning an array of { start, end } spans; it returned ${describe(spans)}`);
  let last = from;
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i] as Partial<TextSpan> | null;
    const ok = s !== null && typeof s === 'object' && Number.isInteger(s.start) && Number.isInteger(s.end) && s.start! >= last && s.start! <= s.end! && s.end! <= to;
    if (!ok) {
      throw new InvalidOptionError(
        option,
        fn,
        `a function returning { start, end } spans with integer offsets, ${from} ≤ start ≤ end ≤ ${to}${from === 0 ? " (the text's length)" : ' (the range it was given)'}, in order; span ${i} is ${describe(s)}`,
      );
    }
    last = s.start!;
  }
  return spans as T[];
}

/**
 * A user's splitter function with its output checked on every call ({@link checkSpans}
 * over the whole text) and its throws typed.
 * @param option the option the function was given as (`fallback`, `parentSplitter` …), named in the error.
 * @throws {InvalidOptionError} (when the splitter is called) naming `option` and the first bad span.
 * @throws {CallbackError} (when the splitter throws) naming `option`, the original as `cause`.
 */
export function checkedSplitter(option: string, fn: SpanSplitter): SpanSplitter {
  return (text, chunkSize) => checkSpans(option, fn, callOption(option, () => fn(text, chunkSize)), 0, text.length);
}

/**
 * Resolves the `fallback` option: a registered name or a splitter function (its output
 * checked by {@link checkedSplitter}).
 * @throws {InvalidOptionError} for a name that is not registered.
 */
export function resolveFallback(fallback: unknown, options: SpanSplitterOptions): SpanSplitter {
  if (typeof fallback === 'function') return checkedSplitter('fallback', fallback as SpanSplitter);
  const factory = typeof fallback === 'string' ? fallbacks.get(fallback) : undefined;
  if (!factory) {
    throw new InvalidOptionError('fallback', fallback, `one of ${fallbackNames().join(', ')} (registered splitters) or a function (text, chunkSize) => spans`);
  }
  return factory(options);
}
