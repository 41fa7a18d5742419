/**
 * Sizers for budgets in a unit chunkwise does not ship: a user `lengthFunction`
 * (LangChain's option of that name), and a Hugging Face `tokenizer.json` tokenizer (the
 * embedding model's own tokens, so a budget of 512 means 512 of *its* tokens). Core
 * module: no Node built-ins; the Hugging Face tokenizer is passed in, never imported here.
 * @module
 */
import { InvalidOptionError } from '../core/errors.js';
import { countChars, segmentChars } from './chars.js';
import type { Sizer, UnitSpans } from './types.js';

/**
 * A sizer from a function `(text) => size`: budgets are measured with it on the exact
 * text of each chunk. Units (where windows are laid out) are code points, so sliding
 * windows grow by characters and are fitted by the function. Declares no safe cut (a
 * stream holds the text until its end) and nothing about joins.
 * @param lengthFunction returns the size of a text: a finite number ≥ 0.
 * @param name the unit name for `metadata.unit` (default `custom`).
 * @throws {InvalidOptionError} when `lengthFunction` is not a function; at measure time, when it returns something other than a finite number ≥ 0.
 */
export function lengthFunctionSizer(lengthFunction: (text: string) => number, name = 'custom'): Sizer {
  if (typeof lengthFunction !== 'function') throw new InvalidOptionError('lengthFunction', lengthFunction, 'must be a function (text) => number');
  return {
    unit: 'custom',
    name,
    size(text: string): number {
      const n = lengthFunction(text);
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new InvalidOptionError('lengthFunction', n, `must return a finite number ≥ 0 (for a text of ${countChars(text)} characters)`);
      return n;
    },
    segment: segmentChars,
  };
}

/** What {@link hfTokenizerSizer} needs of a Hugging Face tokenizer (chunkwise's `HfTokenizer` has it). */
export interface HfLikeTokenizer {
  /** Ids of the text's own tokens (no special tokens). */
  contentIds(text: string): number[];
  /** Encodes with offsets: `offsets` T × 2 UTF-16 spans, `special` 1 for added tokens. */
  encode(text: string, maxLength: number, withOffsets?: boolean): { offsets: Int32Array; special: Uint8Array };
}

/**
 * A sizer over a Hugging Face `tokenizer.json` tokenizer (`HfTokenizer`, as the ONNX and
 * static embedders load it): sizes are counts of the model's own tokens (special tokens
 * left out), units are its tokens with UTF-16 spans (`tokenizer.encode` with offsets).
 * Declares no safe cut: tokenizers differ in how they pre-tokenize, so a stream holds the
 * text until its end.
 * @param tokenizer the tokenizer (e.g. `(await OnnxEmbedder.load(dir)).tokenizer`).
 * @param name the unit name for `metadata.unit` (default `hf`).
 */
export function hfTokenizerSizer(tokenizer: HfLikeTokenizer, name = 'hf'): Sizer {
  return {
    unit: 'custom',
    name,
    size: (text: string) => (text.length === 0 ? 0 : tokenizer.contentIds(text).length),
    segment(text: string): UnitSpans {
      const e = tokenizer.encode(text, Number.MAX_SAFE_INTEGER, true);
      const starts: number[] = [];
      const ends: number[] = [];
      for (let t = 0; t < e.special.length; t++) {
        if (e.special[t]) continue;
        starts.push(e.offsets[2 * t]);
        ends.push(e.offsets[2 * t + 1]);
      }
      return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), count: starts.length };
    },
  };
}
