/**
 * Token units: the tokens of a {@link Tokenizer} with their UTF-16 spans.
 * @module
 */
import { getWasmBpeTokenizer } from './wasm-bpe.js';
import { ENCODINGS, isEncodingName } from './encodings.js';
import { UnknownEncodingError } from '../core/errors.js';
import type { Tokenizer, UnitSegmenter, UnitSpans } from './types.js';

/** Token units over `tokenizer`. */
export function tokenUnits(tokenizer: Tokenizer): UnitSegmenter {
  return {
    unit: 'token',
    name: `token:${tokenizer.encoding}`,
    segment(text: string): UnitSpans {
      const { starts, ends, ids } = tokenizer.encodeWithOffsets(text);
      return { starts, ends, count: ids.length };
    },
    count: (text: string) => tokenizer.count(text),
  };
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
