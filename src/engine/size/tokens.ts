/**
 * Token units: the tokens of a {@link Tokenizer} with their UTF-16 spans.
 * @module
 */
import { getWasmBpeTokenizer } from './wasm-bpe.js';
import { ENCODINGS, isEncodingName } from './encodings.js';
import { UnknownEncodingError } from '../errors.js';
import type { CutAt, SafeCut, Tokenizer, UnitSegmenter, UnitSpans } from './types.js';

/**
 * Longest run of text (UTF-16 code units) a token sizer with a local cut rule
 * ({@link Tokenizer.cutAt}) segments without a cut: a run longer than this with no
 * pre-token boundary the rule can prove (letters only — a 50 KB "word", Han text with no
 * punctuation, digit or space) is cut every `FORCED_CUT` code units from its start (one
 * later where that would split a surrogate pair) and each piece is tokenized alone. This
 * is the one place where token units differ from the tokenizer's tokens of the whole
 * text; a chunk's `unitCount` and `tokenCount` are still the tokenizer's count of the
 * chunk's own text (windows are measured on their text), so a stream of such text holds
 * at most this much before it can cut.
 */
export const FORCED_CUT = 1024;

/** The next forced cut after a cut at `last` in a run with no rule boundary: `last + FORCED_CUT`, off a surrogate pair. */
function forcedAfter(text: string, last: number): number {
  let p = last + FORCED_CUT;
  const c = text.charCodeAt(p);
  if (c >= 0xdc00 && c <= 0xdfff && p < text.length) {
    const h = text.charCodeAt(p - 1);
    if (h >= 0xd800 && h <= 0xdbff) p++;
  }
  return p;
}

/**
 * The forced cuts of `text[from, end)` (a run from `from`, itself a cut): the offsets
 * where {@link FORCED_CUT} code units passed without a `cutAt` boundary, in order.
 */
export function forcedCuts(text: string, cutAt: CutAt, from = 0): number[] {
  const out: number[] = [];
  const n = text.length;
  let last = from;
  let next = forcedAfter(text, last);
  for (let p = from + 1; p < n; p++) {
    if (p >= next) {
      out.push(p);
      last = p;
      next = forcedAfter(text, last);
    } else if (cutAt(text, p)) {
      last = p;
      next = forcedAfter(text, last);
    }
  }
  return out;
}

/**
 * The safe cut of token units over a rule `cutAt`: the last rule boundary in
 * `text(from, end)`, or, past it (or past `from`, which must be 0 or a cut an earlier
 * call returned), the last forced cut of the run ({@link FORCED_CUT}).
 */
export function boundedTokenCut(cutAt: CutAt): SafeCut {
  return (text, from) => {
    const n = text.length;
    let base = from;
    for (let p = n - 1; p > from; p--) {
      if (cutAt(text, p)) {
        base = p;
        break;
      }
    }
    for (let p = forcedAfter(text, base); p < n; p = forcedAfter(text, base)) base = p;
    return base;
  };
}

const sizers = new WeakMap<Tokenizer, UnitSegmenter>();

/**
 * Token units over `tokenizer` (one sizer per tokenizer, cached). With a declared local
 * rule (`cutAt`) its safe cut is {@link boundedTokenCut} and runs longer than
 * {@link FORCED_CUT} without a rule boundary are segmented in pieces; else the
 * tokenizer's `safeCut`; without either a stream tokenizes the text once, at its end.
 */
export function tokenUnits(tokenizer: Tokenizer): UnitSegmenter {
  let sizer = sizers.get(tokenizer);
  if (sizer) return sizer;
  const count = (text: string): number => tokenizer.count(text);
  const cutAt = tokenizer.cutAt;
  const encode = (text: string): UnitSpans => {
    const { starts, ends, ids } = tokenizer.encodeWithOffsets(text);
    return { starts, ends, count: ids.length };
  };
  sizer = {
    unit: 'token',
    name: `token:${tokenizer.encoding}`,
    segment: cutAt ? (text) => segmentCut(text, forcedCuts(text, cutAt), encode) : encode,
    size: count,
    count,
    ...(cutAt ? { safeCut: boundedTokenCut(cutAt) } : tokenizer.safeCut ? { safeCut: tokenizer.safeCut } : {}),
    ...(tokenizer.cutAt ? { cutAt: tokenizer.cutAt } : {}),
    // whitespace between pieces mostly merges into a neighbouring token (" word", ".\n\n"):
    // estimate it as free; packers verify runs on the exact text
    gapSize: () => 0,
  };
  sizers.set(tokenizer, sizer);
  return sizer;
}

/** The units of `text` cut at `cuts` (increasing offsets), each piece segmented alone by `segment`. */
function segmentCut(text: string, cuts: readonly number[], segment: (piece: string) => UnitSpans): UnitSpans {
  if (cuts.length === 0) return segment(text);
  const starts: number[] = [];
  const ends: number[] = [];
  let from = 0;
  for (let k = 0; k <= cuts.length; k++) {
    const to = k < cuts.length ? cuts[k] : text.length;
    const u = segment(text.slice(from, to));
    for (let i = 0; i < u.count; i++) {
      starts.push(from + u.starts[i]);
      ends.push(from + u.ends[i]);
    }
    from = to;
  }
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), count: starts.length };
}

/** The encoding a unit name (`metadata.unit`) counts tokens of: `cl100k_base` for `token:cl100k_base`; undefined for other units. */
export function tokenEncodingOf(unitName: unknown): string | undefined {
  return typeof unitName === 'string' && unitName.startsWith('token:') ? unitName.slice(6) : undefined;
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
