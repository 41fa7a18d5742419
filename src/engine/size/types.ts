/**
 * Units: how big a piece of text is, and where a window may start or end.
 *
 * A {@link Sizer} turns text into units with UTF-16 offsets into the original string
 * (JavaScript string indices) and measures any text in that unit. Chunkers measure
 * budgets with {@link Sizer.size} on the exact text they emit.
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

/**
 * Finds the last safe cut in `text[from, text.length]` — an offset where the text can be
 * split and both halves segmented into units separately with the same result as the
 * whole, whatever follows — or returns `from` when there is none yet.
 */
export type SafeCut = (text: string, from: number) => number;

/**
 * A local safe cut: true when offset `p` (`0 < p < text.length`) is a unit boundary of
 * every text that holds `text[p − 1]` and `text[p]` around it, whatever precedes or
 * follows, so the units of any span of `text` that contains both code units are the
 * units of its two halves split at `p`. Packers use it to size a run of pieces from the
 * pieces' sizes and the small joins between them instead of re-measuring the run.
 */
export type CutAt = (text: string, p: number) => boolean;

/**
 * A sizer: how big a piece of text is, in one unit. The one contract every packer,
 * planner and stream measures with (STYLE.md, "How big is a piece?").
 *
 * Capabilities are declared, never detected, and callers decide by them, never by
 * {@link unit}: `safeCut` where units can be segmented piecewise (streams), `additive`
 * where sizes add up across joins (characters, words), `blankUnits: false` where no unit
 * is whitespace (words), `clusterAligned` where units are never coarser than a grapheme
 * cluster (characters), `joinSize` where a join inside a unit is known exactly,
 * `gapSize` where the sizer knows what the whitespace between two joined pieces adds.
 */
export interface Sizer {
  /** The unit kind (`custom` for a user `lengthFunction`). Informational: callers read the capabilities. */
  readonly unit: UnitKind | 'custom';
  /** A name for metadata: `char`, `word`, `token:<encoding>`, or a custom name. */
  readonly name: string;
  /** Size of `text` on its own, in this unit: what budgets are checked against. */
  size(text: string): number;
  /** The units of `text`, with UTF-16 offsets (windows are laid over them). */
  segment(text: string): UnitSpans;
  /** Where a stream may cut before segmenting; absent: the text is segmented once, whole. */
  readonly safeCut?: SafeCut;
  /** Declared where the sizer's units split at a {@link CutAt} rule (tiktoken's encodings). */
  readonly cutAt?: CutAt;
  /**
   * Declared where a unit may be a single UTF-16 code unit (characters): true when every
   * unit of `text.slice(from, to)` is one code unit, so unit i is `[from + i, from + i + 1)`
   * and windows are laid without calling {@link segment}.
   */
  singleCodeUnits?(text: string, from: number, to: number): boolean;
  /**
   * Sizes add up: `size(a + b) === size(a) + size(b)` for every split at a unit boundary,
   * and every unit measures 1, so the text from unit i's start to unit j's end measures
   * `j − i` (characters, words). Packers then add sizes instead of re-measuring joins.
   */
  readonly additive?: boolean;
  /** `false` where no unit's text is whitespace only (words); absent or true: units may be (characters, tokens). */
  readonly blankUnits?: boolean;
  /** Every grapheme-cluster boundary is a unit boundary (code points): a run of whole clusters is a run of whole units. */
  readonly clusterAligned?: boolean;
  /**
   * For an {@link additive} sizer: what joining at `p` (`0 < p < text.length`) adds to the
   * sizes of the two halves, `size(text) − size(text[0, p)) − size(text[p, end))`, read
   * from the code units around `p` (words: −1 where `p` falls inside a word; characters:
   * −1 inside a surrogate pair; 0 elsewhere).
   */
  joinSize?(text: string, p: number): number;
  /**
   * Estimate of what the whitespace `gap` adds when two pieces are joined around it
   * (words: 0; characters: its size; tokens: 0, since whitespace mostly merges into a
   * neighbouring token). Default: `size(gap)`.
   */
  gapSize?(gap: string): number;
}

/**
 * A sizer with `count` (the name before sizers): `count(text) === size(text)`. The
 * built-in `charUnits`, `wordUnits` and `tokenUnits(…)` are both.
 */
export interface UnitSegmenter extends Sizer {
  readonly unit: UnitKind;
  /** Same as {@link Sizer.size}. */
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
   * Declared capability: where a stream may cut text before encoding it so that the
   * pieces encode to the same tokens as the whole (tiktoken's cl100k_base and
   * o200k_base: {@link SafeCut} `tiktokenCut`). Absent: a stream holds the text until
   * its end before tokenizing it.
   */
  readonly safeCut?: SafeCut;
  /** Declared capability: the local form of {@link safeCut} ({@link CutAt} `tiktokenCutAt`). */
  readonly cutAt?: CutAt;
  /**
   * Declared capability of a tokenizer that pre-tokenizes text into pieces and encodes
   * each piece alone (tiktoken's encodings), with {@link cutAt}: piece i of `text` ends at
   * UTF-16 offset `ends[i]` and pieces 0…i hold `counts[i]` tokens, for i < `count` (the
   * arrays may be longer). Chunkers count many overlapping chunks of one text from it
   * in one pass (`spanTokenCounts`).
   */
  pieceCounts?(text: string): { ends: Int32Array; counts: Int32Array; count: number };
  /** Declared where counting many short texts at once is cheaper than one by one: `count` of each text, in order. */
  countEach?(texts: readonly string[]): ArrayLike<number>;
  /**
   * Declared where counting many spans of one text is cheaper than counting their slices
   * one by one (the WASM tokenizer copies the text in once, and counts the text that
   * overlapping spans share once): `count(text.slice(s.start, s.end))` for each span, in
   * order. Where declared, `spanTokenCounts` uses it rather than {@link pieceCounts}.
   */
  countSpans?(text: string, spans: readonly { readonly start: number; readonly end: number }[]): ArrayLike<number>;
}
