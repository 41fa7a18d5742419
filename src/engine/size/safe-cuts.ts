/**
 * Safe cuts: offsets where a text can be split and its two halves segmented into units
 * separately with the same result as segmenting the whole, whatever follows. A stream
 * segments each piece of text up to its last safe cut and keeps the rest for later.
 * Core module: no Node built-ins.
 * @module
 */
import type { CutAt, SafeCut, UnitKind } from './types.js';
import { isSpace } from '../text.js';
import { wordCut } from './words.js';

export type { CutAt, SafeCut } from './types.js';


/** Code points: anywhere but after a high surrogate (its low half may come next). */
export const charCut: SafeCut = (text, from) => {
  const n = text.length;
  if (n <= from) return from;
  const last = text.charCodeAt(n - 1);
  return last >= 0xd800 && last <= 0xdbff ? n - 1 : n;
};

export { wordCut } from './words.js';

/** Bit flags of a code point's general category, as the tiktoken pre-tokenizers read it. */
const LETTER = 1;
const MARK = 2;
const NUMBER = 4;
const CATEGORY = /(\p{L})|(\p{M})|(\p{N})/u;
/** Categories of the BMP, built on first use (65,536 regex tests, a few ms). */
let bmp: Uint8Array | undefined;

function categoryOf(cp: number): number {
  const m = CATEGORY.exec(String.fromCodePoint(cp));
  return m === null ? 0 : m[1] !== undefined ? LETTER : m[2] !== undefined ? MARK : NUMBER;
}

function category(cp: number): number {
  if (cp < 0x10000) {
    if (bmp === undefined) {
      bmp = new Uint8Array(0x10000);
      for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) bmp[c] = categoryOf(c);
    }
    return bmp[cp];
  }
  return categoryOf(cp);
}

/**
 * Tokens of the tiktoken encodings (`cl100k_base`, `o200k_base`): BPE merges only inside
 * the pre-tokens the encoding's regex splits text into, and the regex, run from a
 * pre-token boundary, reads nothing before it. The boundaries found here are those
 * {@link tiktokenCutAt} proves from the two code points around an offset; on prose in any
 * script they lie a word or a clause apart. A run with none of them (letters only, no
 * space, digit or punctuation: a long token-free "word") is cut by the token sizer after a
 * bounded length instead (`src/engine/size/tokens.ts`, `FORCED_CUT`).
 */
export const tiktokenCut: SafeCut = (text, from) => {
  for (let p = text.length - 1; p > from; p--) if (tiktokenCutAt(text, p)) return p;
  return from;
};

/**
 * The rule of {@link tiktokenCut} at one offset, `0 < p < text.length`: true when `p` is a
 * pre-token boundary of every text that holds the code points `a` before `p` and `b` at
 * `p`, in both encodings, so the tokens of any span of `text` containing both are the
 * tokens of its two halves split at `p`. It reads those code points only (a {@link CutAt}).
 *
 * In both regexes a letter is only ever matched by a letter pattern (`\p{L}+` with an
 * optional non-letter prefix; o200k's letters take marks and a trailing `'s`-style
 * contraction), a digit only by `\p{N}{1,3}`, and every character is in some match. So
 * `p` is a boundary where
 * - `a` is a letter and `b` is not a letter, a mark or `'` (the letter match ends at `p`);
 * - exactly one of `a`, `b` is a digit (`\p{N}`: no other pattern takes a digit) and
 *   `a` is not whitespace (a run of spaces splits by what follows it: `\s+(?!\S)`);
 * - `a` is `\n` or `\r` and `b` a letter or digit (a run of whitespace ending in a line
 *   break is matched up to it, and the optional prefix of a letter run is never a line break);
 * - `a` is a mark and `b` a space (o200k: the letter match ends; cl100k: a mark is
 *   punctuation, whose pattern takes no space after it).
 * Never inside a surrogate pair.
 */
export const tiktokenCutAt: CutAt = (text, p) => {
  let a = text.charCodeAt(p - 1);
  const b0 = text.charCodeAt(p);
  if (a >= 0xdc00 && a <= 0xdfff && p >= 2) {
    const h = text.charCodeAt(p - 2);
    if (h >= 0xd800 && h <= 0xdbff) a = ((h - 0xd800) << 10) + (a - 0xdc00) + 0x10000;
  } else if (a >= 0xd800 && a <= 0xdbff && b0 >= 0xdc00 && b0 <= 0xdfff) return false;
  const b = b0 >= 0xd800 && b0 <= 0xdbff ? (text.codePointAt(p) ?? b0) : b0;
  const ca = a < 0x80 ? ASCII[a] : category(a);
  const cb = b < 0x80 ? ASCII[b] : category(b);
  if (ca & LETTER) return (cb & (LETTER | MARK)) === 0 && b !== 0x27;
  if (a === 0x0a || a === 0x0d) return (cb & (LETTER | NUMBER)) !== 0;
  if ((ca ^ cb) & NUMBER) return a > 0x20 && a !== 0x85 && !isSpace(a);
  return (ca & MARK) !== 0 && b === 0x20;
};

const ASCII = Uint8Array.from({ length: 0x80 }, (_, c) => ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a ? LETTER : c >= 0x30 && c <= 0x39 ? NUMBER : 0));

/** The safe cut for a unit kind (token units: the tiktoken rule). */
export function safeCutFor(unit: UnitKind): SafeCut {
  return unit === 'char' ? charCut : unit === 'word' ? wordCut : tiktokenCut;
}
