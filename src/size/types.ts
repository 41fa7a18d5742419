/**
 * Units: how big a piece of text is, and where a window may start or end.
 *
 * A {@link UnitSegmenter} turns text into units with UTF-16 offsets into the original
 * string (JavaScript string indices), and counts the units in any text. Chunkers
 * measure budgets with {@link UnitSegmenter.count} on the exact text they emit.
 * @module
 */

/** The unit a budget is measured in. */
export type UnitKind = 'char' | 'word' | 'token';

/**
 * Units of a text as parallel arrays: unit i covers `text.slice(starts[i], ends[i])`.
 * Offsets are UTF-16 code units, non-decreasing; a unit may be empty (a token whose
 * bytes lie inside a character another token already covers).
 */
export interface UnitSpans {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly count: number;
}

/** Splits text into units and counts units. */
export interface UnitSegmenter {
  /** The unit kind. */
  readonly unit: UnitKind;
  /** A name for metadata: `char`, `word`, or `token:<encoding>`. */
  readonly name: string;
  /** The units of `text`, with UTF-16 offsets. */
  segment(text: string): UnitSpans;
  /** How many units `text` has on its own (what budgets are checked against). */
  count(text: string): number;
}

/**
 * A tokenizer with offsets. `encode` returns token ids; `encodeWithOffsets` also gives
 * each token's UTF-16 span in the input (never inside a character: where a token ends
 * inside a multi-byte character, the boundary moves to the character's end).
 * Special-token strings such as `<|endoftext|>` are encoded as ordinary text.
 */
export interface Tokenizer {
  /** Encoding name, e.g. `cl100k_base`. */
  readonly encoding: string;
  encode(text: string): Uint32Array;
  /** Number of tokens of `text`: the fast path budgets need. */
  count(text: string): number;
  encodeWithOffsets(text: string): { ids: Uint32Array; starts: Int32Array; ends: Int32Array };
  decode(ids: ArrayLike<number>): string;
  /**
   * Declares where a stream of text may be cut without changing the tokens: `'tiktoken'`
   * for tokenizers whose pieces follow the tiktoken split patterns (`tiktokenCut`).
   * Absent: the stream driver segments the whole text at the end.
   */
  readonly safeCuts?: 'tiktoken';
}
