/**
 * Text helpers every step shares: JavaScript whitespace by code unit (the one definition
 * of whitespace and "blank"), blank tests,
 * trimming a span to its non-whitespace part, and the input check of `chunk(text)`.
 * Core module: no Node built-ins.
 * @module
 */
import { InvalidInputError } from './errors.js';

/** A span `[start, end)` of a text, in UTF-16 code units. */
export interface TextSpan {
  start: number;
  end: number;
}

/** Whitespace as JavaScript's `\s` defines it. */
export function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false; // U+0085 (NEL) is not \s: it is a control, not White_Space's Zs
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * True when `text` (or its part `[start, end)`) has no non-whitespace character. The one
 * definition of "blank" every strategy, the trimming of spans and the "nothing lost"
 * invariant use: {@link isSpace}. Format characters (U+200B, U+2060, U+00AD) are not
 * whitespace: a text of only those is kept.
 */
export function isBlank(text: string, start = 0, end = text.length): boolean {
  for (let i = start; i < end; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** Throws unless `text` is a string. @throws {InvalidInputError} naming the value. */
export function requireText(text: unknown): string {
  if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
  return text;
}

/**
 * Narrows `[start, end)` of `text` to its non-whitespace part, so a span never starts
 * or ends with whitespace (and so never ends between a CR and its LF).
 */
export function trimSpan(text: string, start: number, end: number): TextSpan {
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return { start, end };
}

/**
 * {@link trimSpan} where the trimmed span still `fits`; otherwise the trimmed span with the
 * one space or tab before it (with BPE tokens, dropping the space before a word can
 * re-encode the word into more tokens: " tricky" is one cl100k token, "tricky" two);
 * otherwise the span with only its end trimmed, otherwise the span as given.
 */
export function trimSpanWithin(text: string, start: number, end: number, fits: (start: number, end: number) => boolean): TextSpan {
  const both = trimSpan(text, start, end);
  if (both.end <= both.start || fits(both.start, both.end)) return both;
  const before = text.charCodeAt(both.start - 1);
  if (both.start > start && (before === 0x20 || before === 0x09) && fits(both.start - 1, both.end)) return { start: both.start - 1, end: both.end };
  if (fits(start, both.end)) return { start, end: both.end };
  return { start, end };
}
