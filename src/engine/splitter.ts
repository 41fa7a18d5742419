/**
 * The span splitter: the pluggable "split this text into spans within a budget" step a
 * strategy calls where its own structure gives no finer cut (a paragraph longer than the
 * budget, a plain-text parent), and the checks a user's splitter's output goes through.
 * Core module: no Node built-ins.
 * @module
 */
import { callOption } from './callbacks.js';
import { describe, InvalidOptionError } from './errors.js';
import type { TextSpan } from './text.js';

/** A span a splitter returns; `oversized` when one indivisible piece alone is over the budget. */
export interface SplitSpan extends TextSpan {
  oversized?: boolean;
}

/**
 * Splits `text` into spans of at most `chunkSize` units (the unit the splitter was made
 * for), in order, covering every non-whitespace character of `text`. Offsets are UTF-16
 * code units into `text`.
 */
export type SpanSplitter = (text: string, chunkSize: number) => SplitSpan[];

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
