/**
 * A WebAssembly byte-pair-encoding tokenizer for OpenAI's `cl100k_base` and `o200k_base`
 * encodings, giving the same token ids as tiktoken / js-tiktoken
 * (`new Tiktoken(ranks).encode(text, [], [])`), with UTF-16 token boundaries.
 *
 * Algorithm: tiktoken's. The text is split by the encoding's pre-tokenisation pattern
 * (reproduced by hand in the module, with Unicode classes taken from the JavaScript
 * engine's RegExp at build time); each piece's UTF-8 bytes are looked up whole in the
 * rank table, else merged pair by pair, always merging the adjacent pair whose
 * concatenation has the lowest rank (leftmost on ties) until no pair has a rank.
 * The ranks are js-tiktoken's published data (`js-tiktoken/ranks/<encoding>`), parsed at
 * load time into a hash table in the module's memory.
 * @module
 */
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { BpeEncoder, type BpeRankData } from '../../bindings/bpe.js';
import { tiktokenCut } from './safe-cuts.js';
import { UnknownEncodingError } from '../core/errors.js';
import type { SafeCut, Tokenizer } from './types.js';

/** The encodings {@link getWasmBpeTokenizer} knows. */
export type WasmBpeEncoding = 'cl100k_base' | 'o200k_base';

/** Names accepted by {@link getWasmBpeTokenizer}. */
export const WASM_BPE_ENCODINGS: readonly WasmBpeEncoding[] = ['cl100k_base', 'o200k_base'];

const RANKS: Record<WasmBpeEncoding, BpeRankData> = {
  cl100k_base: cl100kRanks,
  o200k_base: o200kRanks,
};

/**
 * tiktoken's BPE in WebAssembly, implementing {@link Tokenizer}.
 *
 * Units: offsets are UTF-16 code units (JavaScript string indices); counts are tokens.
 * Special-token strings such as `<|endoftext|>` are encoded as ordinary text. A lone
 * surrogate is encoded as U+FFFD (three bytes), as `TextEncoder` does. Not thread-safe
 * across workers by sharing: build one per worker (the factory caches per encoding and
 * per realm).
 */
export class WasmBpeTokenizer implements Tokenizer {
  /** Encoding name: `cl100k_base` or `o200k_base`. */
  readonly encoding: string;
  /** Declared: both encodings pre-tokenize with tiktoken's patterns, so a stream may cut where {@link tiktokenCut} says. */
  readonly safeCut: SafeCut = tiktokenCut;
  readonly #bpe: BpeEncoder;

  /**
   * Builds a tokenizer from js-tiktoken's rank data (parsing takes tens of milliseconds:
   * prefer {@link getWasmBpeTokenizer}, which caches).
   * @param encoding the encoding's name, for {@link encoding}.
   * @param ranks `js-tiktoken/ranks/<encoding>`'s default export.
   * @throws {WasmError} when the module cannot be compiled (call `await initBpe()` from
   *   `bindings/bpe` first in a browser's main thread), the split pattern is not
   *   cl100k_base's or o200k_base's, or the rank data cannot be parsed.
   */
  constructor(encoding: string, ranks: BpeRankData) {
    this.encoding = encoding;
    this.#bpe = new BpeEncoder(ranks);
  }

  /**
   * Token ids of `text`, in order.
   * @returns one id (tiktoken rank) per token.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  encode(text: string): Uint32Array {
    return this.#bpe.encode(text);
  }

  /**
   * Number of tokens of `text` (equal to `encode(text).length`), without building the ids.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  count(text: string): number {
    return this.#bpe.count(text);
  }

  /**
   * Token ids with their UTF-16 spans: token i covers `text.slice(starts[i], ends[i])`.
   * Spans are consecutive (`starts[i] === ends[i - 1]`, `starts[0] === 0`, the last end is
   * `text.length`). Where a token ends inside a character (a multi-byte UTF-8 sequence),
   * its end moves forward to that character's end, so the next token's span may be
   * empty; a span never splits a surrogate pair.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  encodeWithOffsets(text: string): { ids: Uint32Array; starts: Int32Array; ends: Int32Array } {
    return this.#bpe.encodeWithOffsets(text);
  }

  /**
   * The text of a sequence of token ids; byte sequences that are not valid UTF-8 (a
   * character split across a cut) decode to U+FFFD. The encoding's special-token ids
   * decode to their strings.
   * @throws {InvalidInputError} for an id that is not in the encoding.
   */
  decode(ids: ArrayLike<number>): string {
    return this.#bpe.decode(ids);
  }
}

const cache = new Map<string, WasmBpeTokenizer>();

/**
 * The shared {@link WasmBpeTokenizer} for an encoding, built on first use (the rank table
 * then stays resident).
 * @param encoding `cl100k_base` or `o200k_base`.
 * @throws {UnknownEncodingError} for any other name.
 * @throws {WasmError} when the module cannot be compiled synchronously (a browser's main
 *   thread: `await initBpe()` from `bindings/bpe` first).
 */
export function getWasmBpeTokenizer(encoding: WasmBpeEncoding): WasmBpeTokenizer {
  let t = cache.get(encoding);
  if (t) return t;
  if (!Object.prototype.hasOwnProperty.call(RANKS, encoding)) throw new UnknownEncodingError(String(encoding), WASM_BPE_ENCODINGS);
  t = new WasmBpeTokenizer(encoding, RANKS[encoding]);
  cache.set(encoding, t);
  return t;
}
