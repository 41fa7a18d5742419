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
 * The ranks are js-tiktoken's published data, converted at build time to a binary table
 * (`bindings/bpe-table.ts`) that is copied into the module's memory and hashed there when
 * an encoding is first used; each encoding's table loads only when that encoding is used
 * (`bindings/bpe-ranks.ts`).
 * @module
 */
import { BpeEncoder, hasBpeModule, initBpe, type BpeRankData } from '../../../bindings/bpe.js';
import { loadRankTable, rankTable, type RankTableSource } from '../../../bindings/bpe-ranks.js';
import { UnknownEncodingError } from '../errors.js';
import { ENCODINGS, isEncodingName, type EncodingName } from './encodings.js';
import { tiktokenCut, tiktokenCutAt } from './safe-cuts.js';
import type { CutAt, SafeCut, Tokenizer } from './types.js';

/** The encodings {@link getWasmBpeTokenizer} knows. */
export type WasmBpeEncoding = EncodingName;

/** Names accepted by {@link getWasmBpeTokenizer}. */
export const WASM_BPE_ENCODINGS: readonly WasmBpeEncoding[] = ENCODINGS;

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
  /** Declared: the same rule at one offset ({@link tiktokenCutAt}). */
  readonly cutAt: CutAt = tiktokenCutAt;
  readonly #bpe: BpeEncoder;

  /**
   * Builds a tokenizer from a rank table (hashing it takes some milliseconds: prefer
   * {@link getWasmBpeTokenizer} or {@link loadTokenizer}, which cache).
   * @param encoding the encoding's name, for {@link encoding}.
   * @param ranks the encoding's binary rank table (`bindings/bpe-table.ts`; the package
   *   ships `chunkwise/ranks/<encoding>.bpe`), or `js-tiktoken/ranks/<encoding>`'s
   *   default export (converted first).
   * @throws {WasmError} when the module cannot be compiled (call `await initBpe()`
   *   first in a browser's main thread), the table is malformed, or js-tiktoken's split
   *   pattern is not cl100k_base's or o200k_base's.
   */
  constructor(encoding: string, ranks: Uint8Array | BpeRankData) {
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
   * Token counts of many texts, each on its own (`count(texts[i])`), the short ones in one
   * module call together.
   * @throws {InvalidInputError} when an element is not a string.
   */
  countEach(texts: readonly string[]): Int32Array {
    return this.#bpe.countEach(texts);
  }

  /**
   * Token counts of many spans of one text, `count(text.slice(s.start, s.end))` for each
   * span `s`, with one copy of the text into the module per 64 Ki code units; where spans
   * overlap, the text they share is counted once (each span's two edges alone).
   * @throws {InvalidInputError} when `text` is not a string or a span is out of range.
   */
  countSpans(text: string, spans: readonly { readonly start: number; readonly end: number }[]): Int32Array {
    return this.#bpe.countSpans(text, spans);
  }

  /**
   * The pre-tokens of `text` (pieces of the encoding's split pattern) with running token
   * counts: piece i ends at UTF-16 offset `ends[i]`, and pieces 0…i hold `counts[i]` tokens,
   * for i < `count` (the arrays may be longer; one entry per piece, at most `text.length`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  pieceCounts(text: string): { ends: Int32Array; counts: Int32Array; count: number } {
    return this.#bpe.pieceCounts(text);
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
 * then stays resident). Only that encoding's table is loaded.
 * @param encoding `cl100k_base` or `o200k_base`.
 * @throws {UnknownEncodingError} for any other name.
 * @throws {EncodingNotLoadedError} outside Node when the encoding's table was not loaded
 *   first ({@link loadTokenizer}) or bundled (`import 'chunkwise/encodings/<encoding>'`).
 * @throws {WasmError} when the module cannot be compiled synchronously (a browser's main
 *   thread: `await loadTokenizer(encoding)` or `await initBpe()` first).
 */
export function getWasmBpeTokenizer(encoding: WasmBpeEncoding): WasmBpeTokenizer {
  let t = cache.get(encoding);
  if (t) return t;
  if (!isEncodingName(encoding)) throw new UnknownEncodingError(String(encoding), WASM_BPE_ENCODINGS);
  t = new WasmBpeTokenizer(encoding, rankTable(encoding));
  cache.set(encoding, t);
  return t;
}

/**
 * Loads what an encoding's tokenizer needs, asynchronously, and returns the shared
 * tokenizer; afterwards token units and counts of that encoding work synchronously
 * (`createChunker('sliding', { unit: 'token' })`, `getTokenizer`). Use it where files
 * cannot be read synchronously: a browser (main thread or worker), Cloudflare workerd,
 * Vercel Edge. In Node it is optional (tables are read from the package on first use).
 * Compiles the BPE module first unless it is ready, then loads the rank table.
 * @param encoding `cl100k_base` or `o200k_base`.
 * @param source where the table comes from: by default the package's own module for
 *   it, imported dynamically (bundlers emit it as separate chunks); or the bytes of
 *   `<encoding>.bpe`, its URL (with Vite: the `?url` import of `chunkwise/ranks/<encoding>.bpe`),
 *   or a `Response`.
 * @throws {UnknownEncodingError} for any other encoding.
 * @throws {WasmError} when the module or the table cannot be loaded.
 */
export async function loadTokenizer(encoding: WasmBpeEncoding, source?: RankTableSource): Promise<WasmBpeTokenizer> {
  if (!isEncodingName(encoding)) throw new UnknownEncodingError(String(encoding), WASM_BPE_ENCODINGS);
  if (!hasBpeModule()) await initBpe();
  await loadRankTable(encoding, source);
  return getWasmBpeTokenizer(encoding);
}
