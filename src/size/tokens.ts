/**
 * Token units: the tokens of a {@link Tokenizer} with their UTF-16 spans.
 * @module
 */
import { getWasmBpeTokenizer } from './wasm-bpe.js';
import { ENCODINGS, isEncodingName } from './encodings.js';
import { UnknownEncodingError } from '../core/errors.js';
import type { CutAt, Tokenizer, UnitSegmenter, UnitSpans } from './types.js';

const sizers = new WeakMap<Tokenizer, UnitSegmenter>();

/**
 * Token units over `tokenizer` (one sizer per tokenizer, cached). Its `safeCut` is the
 * tokenizer's declared one; without it a stream tokenizes the text once, at its end.
 */
export function tokenUnits(tokenizer: Tokenizer): UnitSegmenter {
  let sizer = sizers.get(tokenizer);
  if (sizer) return sizer;
  const count = (text: string): number => tokenizer.count(text);
  sizer = {
    unit: 'token',
    name: `token:${tokenizer.encoding}`,
    segment(text: string): UnitSpans {
      const { starts, ends, ids } = tokenizer.encodeWithOffsets(text);
      return { starts, ends, count: ids.length };
    },
    size: count,
    count,
    ...(tokenizer.safeCut ? { safeCut: tokenizer.safeCut } : {}),
    ...(tokenizer.cutAt ? { cutAt: tokenizer.cutAt } : {}),
    // whitespace between pieces mostly merges into a neighbouring token (" word", ".\n\n"):
    // estimate it as free; packers verify runs on the exact text
    gapSize: () => 0,
  };
  sizers.set(tokenizer, sizer);
  return sizer;
}

/**
 * The default tokenizer for `encoding`: chunkwise's WebAssembly BPE
 * ({@link getWasmBpeTokenizer}), which gives js-tiktoken's ids (kept as the reference:
 * `getTiktokenTokenizer` from `chunkwise/tiktoken`) several times faster.
 * @throws {UnknownEncodingError} for an encoding other than cl100k_base / o200k_base.
 */
export function getTokenizer(encoding: string): Tokenizer {
  if (!isEncodingName(encoding)) throw new UnknownEncodingError(encoding, ENCODINGS);
  return getWasmBpeTokenizer(encoding);
}

/** Token counts of spans of one text: `count(start, end)` equals `tokenizer.count(text.slice(start, end))`. */
export type SpanTokenCounter = (start: number, end: number) => number;

/**
 * Counts the tokens of many spans of one text with one tokenizer pass over the range they
 * cover, `[lo, hi)` (UTF-16 code units), instead of one pass per span (overlapping spans
 * would count their shared text again). The range is encoded once with its token ends; a
 * span `[s, e)` is then cut at its first and last safe cut `c1 ≤ c2` inside it (the
 * tokenizer's declared {@link CutAt}, which reads only the two code units around a cut, so
 * a cut of the range is a cut of the span and of its pieces): the tokens of `[c1, c2)` are
 * the range's tokens ending in `(c1, c2]` (a binary search over the ends), and only the
 * edges `[s, c1)` and `[c2, e)` are encoded again. Exact: a span without two cuts is
 * counted whole.
 *
 * Without a declared `cutAt` it counts each span on its own. Source of the cut rule:
 * `tiktokenCutAt` (src/size/safe-cuts.ts).
 * @param lo first code unit of the range the spans lie in (default 0).
 * @param hi end of that range (default `text.length`).
 */
export function spanTokenCounter(tokenizer: Tokenizer, text: string, lo = 0, hi = text.length): SpanTokenCounter {
  const cutAt = tokenizer.cutAt;
  const whole: SpanTokenCounter = (s, e) => tokenizer.count(text.slice(s, e));
  if (!cutAt || hi - lo < 2) return whole;
  let ends: Int32Array | undefined;
  /** Tokens of the range ending at or before `p` (range-relative ends, sorted). */
  const tokensUpTo = (p: number): number => {
    const q = p - lo;
    let a = 0;
    let b = ends!.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (ends![m] <= q) a = m + 1;
      else b = m;
    }
    return a;
  };
  return (s, e) => {
    if (s < lo || e > hi || e - s < 3) return whole(s, e);
    let c1 = s + 1;
    while (c1 < e && !cutAt(text, c1)) c1++;
    if (c1 >= e) return whole(s, e);
    let c2 = e - 1;
    while (c2 > c1 && !cutAt(text, c2)) c2--;
    ends ??= tokenizer.encodeWithOffsets(lo === 0 && hi === text.length ? text : text.slice(lo, hi)).ends;
    const middle = c2 > c1 ? tokensUpTo(c2) - tokensUpTo(c1) : 0;
    return tokenizer.count(text.slice(s, c1)) + middle + tokenizer.count(text.slice(c2, e));
  };
}
