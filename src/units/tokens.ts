/**
 * Token units: the tokens of a {@link Tokenizer} with their UTF-16 spans.
 * @module
 */
import { getTiktokenTokenizer } from './tiktoken.js';
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

/** The default tokenizer for `encoding` (js-tiktoken today). */
export function getTokenizer(encoding: string): Tokenizer {
  return getTiktokenTokenizer(encoding);
}
