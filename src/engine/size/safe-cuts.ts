/**
 * Safe cuts: offsets where a text can be split and its two halves segmented into units
 * separately with the same result as segmenting the whole, whatever follows. A stream
 * segments each piece of text up to its last safe cut and keeps the rest for later.
 * Core module: no Node built-ins.
 * @module
 */
import type { CutAt, SafeCut, UnitKind } from './types.js';
import { isSpace } from '../text.js';

export type { CutAt, SafeCut } from './types.js';


/** Code points: anywhere but after a high surrogate (its low half may come next). */
export const charCut: SafeCut = (text, from) => {
  const n = text.length;
  if (n <= from) return from;
  const last = text.charCodeAt(n - 1);
  return last >= 0xd800 && last <= 0xdbff ? n - 1 : n;
};

/** Words (runs of non-whitespace): after the last whitespace character. */
export const wordCut: SafeCut = (text, from) => {
  for (let p = text.length; p > from; p--) if (isSpace(text.charCodeAt(p - 1))) return p;
  return from;
};

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/**
 * Tokens of the tiktoken encodings (`cl100k_base`, `o200k_base`): BPE merges only inside
 * the pre-tokens the encoding's regex splits text into, and the regex, run from a
 * pre-token boundary, reads nothing before it. Two places are always a boundary, whatever
 * follows: between an ASCII letter and a space or `\n` (no pattern takes whitespace
 * after letters), and between `\n` and an ASCII letter (no pattern puts a letter after a
 * newline). A text without either (no spaces or newlines next to Latin letters) is held
 * until the stream ends.
 */
export const tiktokenCut: SafeCut = (text, from) => {
  for (let p = text.length - 1; p > from; p--) if (tiktokenCutAt(text, p)) return p;
  return from;
};

/**
 * The rule of {@link tiktokenCut} at one offset, `0 < p < text.length`: true when `p` is a
 * pre-token boundary of every text that holds `text[p − 1]` and `text[p]` around it, so
 * the tokens of any span of `text` containing both are the tokens of its two halves split
 * at `p`. It reads those two code units only (a {@link CutAt}).
 */
export const tiktokenCutAt: CutAt = (text, p) => {
  const a = text.charCodeAt(p - 1);
  const b = text.charCodeAt(p);
  return (isAsciiLetter(a) && (b === 0x20 || b === 0x0a)) || (a === 0x0a && isAsciiLetter(b));
};

/** The safe cut for a unit kind (token units: the tiktoken rule). */
export function safeCutFor(unit: UnitKind): SafeCut {
  return unit === 'char' ? charCut : unit === 'word' ? wordCut : tiktokenCut;
}
