/**
 * Word units: maximal runs of non-whitespace (JavaScript `\S`, i.e. not Unicode
 * White_Space). Words keep their punctuation ("data." is one word); a chunk of words is
 * the original slice from its first word's start to its last word's end, whitespace and all.
 *
 * Two rules bound a word, so that every text has a unit boundary within a bounded
 * distance (streams cut there: docs/streaming.md, "Units in scripts without spaces"):
 * - **Scripts written without spaces** (Han, Hiragana, Katakana, Thai, Lao, Khmer,
 *   Myanmar, and the CJK and fullwidth punctuation that goes with them): a run of
 *   non-whitespace holding such a character is split at Unicode word boundaries
 *   (`Intl.Segmenter`, granularity `word`, locale `und`), in pieces of at most
 *   {@link WORD_PIECE} code units. A word starts at a word-like segment that has a
 *   character of such a script on either side of its start; punctuation, symbols and
 *   Latin text next to Latin text stay in the word before, as in spaced text
 *   ("東京は2024年に" → 東京 · は · 2024 · 年 · に; "データ。「東京」" → データ。「 · 東京」).
 * - **Runs longer than {@link WORD_PIECE}**: a run of non-whitespace is cut into pieces
 *   of at most that length, each from the previous piece's end: after the last
 *   sentence or clause punctuation (`。．！？、，；：!?,;:.`) in the piece's second half,
 *   else at its end (moved back off a surrogate pair and combining marks). A piece
 *   without a character of the scripts above is one word.
 * Text of words up to 512 characters with no such script (spaced text) is segmented as
 * it always was.
 * @module
 */
import { isSpace } from '../text.js';
import type { SafeCut, UnitSegmenter, UnitSpans } from './types.js';

export { isBlank } from '../text.js';

/**
 * Longest piece of a run of non-whitespace segmented at once (UTF-16 code units); also the
 * longest word, so a chunk of 512 words holds at most 256 KiB of text and a stream of
 * text without whitespace (base64, a minified file) emits its first chunk within that.
 */
export const WORD_PIECE = 512;

/** True for a code unit of a script written without spaces (or its punctuation); high surrogates of the CJK planes 2–3. */
export function isUnspacedScript(c: number): boolean {
  if (c < 0x0e00) return false;
  return (
    c <= 0x0eff || // Thai, Lao
    (c >= 0x1000 && c <= 0x109f) || // Myanmar
    (c >= 0x1780 && c <= 0x17ff) || // Khmer
    (c >= 0x3001 && c <= 0x303f) || // CJK punctuation (U+3000 is a space)
    (c >= 0x3040 && c <= 0x30ff) || // Hiragana, Katakana
    (c >= 0x31f0 && c <= 0x31ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff01 && c <= 0xff9f) || // fullwidth forms, halfwidth Katakana
    (c >= 0xd840 && c <= 0xd8bf) // planes 2–3 (CJK extensions B–H), as high surrogates
  );
}

/** Punctuation after which a long run is preferably cut. */
function isClauseEnd(c: number): boolean {
  return c === 0x3002 || c === 0x3001 || c === 0xff0e || c === 0xff01 || c === 0xff1f || c === 0xff0c || c === 0xff1b || c === 0xff1a || c === 0x21 || c === 0x3f || c === 0x2c || c === 0x3b || c === 0x3a || c === 0x2e;
}

const MARK = /\p{M}/u;

/**
 * The end of the piece of a run of non-whitespace that starts at `p`, when the run goes
 * on past `p + WORD_PIECE` (the caller checked that `text[p, p + WORD_PIECE]` has no
 * whitespace): reads `text[p, p + WORD_PIECE]` only.
 */
function pieceEnd(text: string, p: number): number {
  const limit = p + WORD_PIECE;
  for (let q = limit; q > p + (WORD_PIECE >> 1); q--) if (isClauseEnd(text.charCodeAt(q - 1))) return q;
  let q = limit;
  const lo = text.charCodeAt(q);
  if (lo >= 0xdc00 && lo <= 0xdfff) q--;
  for (let k = 0; k < 32 && q > p + 1 && MARK.test(text[q]); k++) q--;
  return q;
}

let segmenter: Intl.Segmenter | undefined;

/** Word starts of the piece `text[s, e)` that holds a character of an unspaced script (see the module's rule), pushed to `out`. */
function pieceWords(text: string, s: number, e: number, out: number[]): void {
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  out.push(s);
  let wordLike = false; // the current word holds a word-like segment
  for (const g of segmenter.segment(text.slice(s, e))) {
    const at = s + g.index;
    if (!g.isWordLike) continue;
    if (wordLike && at > s && (isUnspacedScript(text.charCodeAt(at)) || isUnspacedScript(text.charCodeAt(at - 1)) || isLowOfUnspaced(text, at - 1))) out.push(at);
    wordLike = true;
  }
}

/** `text[i]` is the low half of a surrogate pair of the CJK planes. */
function isLowOfUnspaced(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff && i > 0 && isUnspacedScript(text.charCodeAt(i - 1));
}

/** Word starts of the run of non-whitespace `text[s, e)` (whole: `e` is the text's end or a space), pushed to `out`. */
function runWords(text: string, s: number, e: number, unspaced: boolean, out: number[]): void {
  if (!unspaced && e - s <= WORD_PIECE) {
    out.push(s);
    return;
  }
  let p = s;
  while (p < e) {
    const q = e - p <= WORD_PIECE ? e : pieceEnd(text, p);
    let has = false;
    for (let i = p; i < q && !has; i++) has = isUnspacedScript(text.charCodeAt(i));
    if (has) pieceWords(text, p, q, out);
    else out.push(p);
    p = q;
  }
}

/** Words of `text` with UTF-16 offsets (the module's rule). */
export function segmentWords(text: string): UnitSpans {
  const n = text.length;
  let starts = new Int32Array(Math.max(16, n >> 2));
  let ends = new Int32Array(starts.length);
  let count = 0;
  const run: number[] = [];
  const push = (s: number, e: number): void => {
    if (count === starts.length) {
      const grownS = new Int32Array(count * 2);
      grownS.set(starts);
      starts = grownS;
      const grownE = new Int32Array(count * 2);
      grownE.set(ends);
      ends = grownE;
    }
    starts[count] = s;
    ends[count] = e;
    count++;
  };
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const s = i;
    let unspaced = false;
    for (let c = text.charCodeAt(i); i < n && !isSpace(c); c = text.charCodeAt(++i)) if (c >= 0x0e00 && !unspaced) unspaced = isUnspacedScript(c);
    if (!unspaced && i - s <= WORD_PIECE) {
      push(s, i);
      continue;
    }
    run.length = 0;
    runWords(text, s, i, unspaced, run);
    for (let k = 0; k < run.length; k++) push(run[k], k + 1 < run.length ? run[k + 1] : i);
  }
  return { starts: starts.subarray(0, count), ends: ends.subarray(0, count), count };
}

/** Number of words of `text` (the module's rule). */
export function countWords(text: string): number {
  let count = 0;
  let runStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      runStart = -1;
      continue;
    }
    if (runStart < 0) {
      runStart = i;
      count++;
    }
    if ((c >= 0x0e00 && isUnspacedScript(c)) || i - runStart >= WORD_PIECE) return segmentWords(text).count;
  }
  return count;
}

/**
 * Code units each side of a join that {@link wordJoinSize} segments in a run holding an
 * unspaced script: word boundaries there are decided by a few characters around the join,
 * and a fallback joins its pieces at every word of such a run (segmenting
 * {@link WORD_PIECE} each side made word units on a paragraph of Chinese 50 µs per character).
 */
const JOIN_WINDOW = 32;

/**
 * What joining at `p` adds to the words of the halves: −1 where `p` falls inside a word
 * (two halves of one word), else 0. Inside a run holding an unspaced script it is
 * counted on the run around `p` (at most {@link JOIN_WINDOW} code units each side).
 */
export function wordJoinSize(text: string, p: number): number {
  const a = text.charCodeAt(p - 1);
  const b = text.charCodeAt(p);
  if (isSpace(a) || isSpace(b)) return 0;
  let s = p;
  let unspaced = false;
  while (s > 0 && s > p - JOIN_WINDOW && !isSpace(text.charCodeAt(s - 1))) {
    s--;
    if (isUnspacedScript(text.charCodeAt(s))) unspaced = true;
  }
  let e = p;
  while (e < text.length && e < p + JOIN_WINDOW && !isSpace(text.charCodeAt(e))) {
    if (isUnspacedScript(text.charCodeAt(e))) unspaced = true;
    e++;
  }
  if (!unspaced) return -1;
  return countWords(text.slice(s, e)) - countWords(text.slice(s, p)) - countWords(text.slice(p, e));
}

/**
 * Words: where a stream may cut. After the last whitespace character of `text(from, end)`
 * (or at `from`, which must be 0 or a cut an earlier call returned), then at the end of
 * every piece of a long run that is decided (its run goes on past {@link WORD_PIECE} code
 * units: the next character is known), so a run of any length is cut every
 * {@link WORD_PIECE} code units at most.
 */
export const wordCut: SafeCut = (text, from) => {
  const n = text.length;
  let base = from;
  for (let p = n; p > from; p--) {
    if (isSpace(text.charCodeAt(p - 1))) {
      base = p;
      break;
    }
  }
  while (n - base > WORD_PIECE) base = pieceEnd(text, base);
  return base;
};

/** Word units. */
export const wordUnits: UnitSegmenter = {
  unit: 'word',
  name: 'word',
  segment: segmentWords,
  size: countWords,
  count: countWords,
  safeCut: wordCut,
  additive: true,
  blankUnits: false,
  joinSize: wordJoinSize,
  gapSize: () => 0,
};
