/**
 * Units (how big a piece is): characters, words, tokens.
 * @module
 */
import { InvalidOptionError } from '../errors.js';
import { charUnits } from './chars.js';
import { ENCODINGS, isEncodingName } from './encodings.js';
import { getTokenizer, tokenUnits } from './tokens.js';
import type { UnitKind, UnitSegmenter } from './types.js';
import { wordUnits } from './words.js';

export * from './types.js';
export { charUnits, countChars, segmentChars } from './chars.js';
export { wordUnits, countWords, segmentWords, isBlank } from './words.js';
export { tokenUnits, getTokenizer } from './tokens.js';
export { ENCODINGS, isEncodingName, type EncodingName } from './encodings.js';
export { utf16ToUtf8Offset, utf16ToCodePointOffset, utf8ToUtf16Offsets, utf8Length } from './utf8.js';

/** The unit kinds. */
export const UNIT_KINDS: readonly UnitKind[] = ['char', 'word', 'token'];

/**
 * The unit segmenter for a unit kind (`encoding` applies to tokens; default `cl100k_base`).
 * @throws {InvalidOptionError} for an unknown unit or encoding.
 */
export function getUnits(unit: UnitKind | string, encoding = 'cl100k_base'): UnitSegmenter {
  switch (unit) {
    case 'char':
      return charUnits;
    case 'word':
      return wordUnits;
    case 'token':
      if (!isEncodingName(encoding)) {
        throw new InvalidOptionError('encoding', encoding, `one of ${ENCODINGS.join(', ')}`);
      }
      return tokenUnits(getTokenizer(encoding));
    default:
      throw new InvalidOptionError('unit', unit, `one of ${UNIT_KINDS.join(', ')}`);
  }
}
export { lengthFunctionSizer, hfTokenizerSizer, type HfLikeTokenizer } from './custom.js';
export { rangeMeasure, type RangeMeasure } from './measure.js';
export { charCut, wordCut, tiktokenCut, tiktokenCutAt, safeCutFor } from './safe-cuts.js';
