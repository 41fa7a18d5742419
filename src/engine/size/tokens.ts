/**
 * Token units: the tokens of a {@link Tokenizer} with their UTF-16 spans.
 * @module
 */
import { getWasmBpeTokenizer } from './wasm-bpe.js';
import { ENCODINGS, isEncodingName } from './encodings.js';
import { UnknownEncodingError } from '../errors.js';
import type { Tokenizer, UnitSegmenter, UnitSpans } from './types.js';

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
