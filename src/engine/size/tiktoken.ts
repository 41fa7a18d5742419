/**
 * `chunkwise/tiktoken`: tokenizers for OpenAI's `cl100k_base` and `o200k_base` encodings
 * through js-tiktoken, with each token's UTF-16 span — the reference the WebAssembly
 * tokenizer (the default, `getTokenizer`) is tested against, id for id. Special-token
 * strings (`<|endoftext|>` …) are encoded as ordinary text, never thrown on. The encoder
 * is built lazily on first use (js-tiktoken parses its rank table then, about two
 * seconds for cl100k_base) and cached.
 *
 * A separate entry because js-tiktoken (22 MB installed, its rank tables 1.1 + 2.3 MB of
 * JavaScript) is an optional peer dependency: `npm install js-tiktoken` to use it.
 * @module
 */
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k_base from 'js-tiktoken/ranks/cl100k_base';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { tiktokenCut, tiktokenCutAt } from './safe-cuts.js';
import { UnknownEncodingError } from '../errors.js';
import { ENCODINGS, isEncodingName, type EncodingName } from './encodings.js';
import type { CutAt, SafeCut, Tokenizer } from './types.js';
import { utf8ToUtf16Offsets } from './utf8.js';

export { ENCODINGS, isEncodingName, type EncodingName } from './encodings.js';

const RANKS = { cl100k_base, o200k_base } as const;

/** js-tiktoken's byte table, which its types do not declare. */
interface TiktokenInternals {
  textMap: Map<number, Uint8Array>;
}

/**
 * A {@link Tokenizer} over js-tiktoken: the reference for chunkwise's token units.
 * Token spans: each token's UTF-8 byte range, mapped to UTF-16; a token ending inside
 * a multi-byte character ends at that character's end instead, so the next token may
 * have an empty span.
 */
export class TiktokenTokenizer implements Tokenizer {
  readonly encoding: EncodingName;
  /** Declared: both encodings pre-tokenize with tiktoken's patterns, so a stream may cut where {@link tiktokenCut} says. */
  readonly safeCut: SafeCut = tiktokenCut;
  /** Declared: the same rule at one offset ({@link tiktokenCutAt}). */
  readonly cutAt: CutAt = tiktokenCutAt;
  #encoder: Tiktoken | undefined;
  #byteTable: Map<number, Uint8Array> | undefined;

  /** @throws {UnknownEncodingError} for an encoding other than {@link ENCODINGS}. */
  constructor(encoding: string) {
    if (!isEncodingName(encoding)) throw new UnknownEncodingError(encoding, ENCODINGS);
    this.encoding = encoding;
  }

  /** js-tiktoken's encoder, built on first use (parsing the rank table takes a while). */
  get #tiktoken(): Tiktoken {
    if (!this.#encoder) {
      this.#encoder = new Tiktoken(RANKS[this.encoding]);
      this.#byteTable = (this.#encoder as unknown as TiktokenInternals).textMap;
    }
    return this.#encoder;
  }

  get #bytes(): Map<number, Uint8Array> {
    void this.#tiktoken;
    return this.#byteTable!;
  }

  /** Token ids of `text`; special-token strings are ordinary text. */
  encode(text: string): Uint32Array {
    return Uint32Array.from(this.#tiktoken.encode(text, [], []));
  }

  /** Number of tokens of `text`. */
  count(text: string): number {
    return text.length === 0 ? 0 : this.#tiktoken.encode(text, [], []).length;
  }

  /** Ids plus each token's [start, end) in UTF-16 code units. */
  encodeWithOffsets(text: string): { ids: Uint32Array; starts: Int32Array; ends: Int32Array } {
    const ids = this.encode(text);
    const byteEnds = new Float64Array(ids.length);
    let b = 0;
    for (let i = 0; i < ids.length; i++) {
      const bytes = this.#bytes.get(ids[i]);
      b += bytes ? bytes.length : 0;
      byteEnds[i] = b;
    }
    const ends = utf8ToUtf16Offsets(text, byteEnds);
    const starts = new Int32Array(ids.length);
    for (let i = 1; i < ids.length; i++) starts[i] = ends[i - 1];
    return { ids, starts, ends };
  }

  /** Text of `ids` (invalid UTF-8 at the edges becomes U+FFFD). */
  decode(ids: ArrayLike<number>): string {
    return this.#tiktoken.decode(Array.from(ids));
  }
}

const cache = new Map<string, TiktokenTokenizer>();

/**
 * The cached js-tiktoken tokenizer for `encoding`.
 * @throws {UnknownEncodingError} for an unknown encoding.
 */
export function getTiktokenTokenizer(encoding: string): TiktokenTokenizer {
  let t = cache.get(encoding);
  if (!t) {
    t = new TiktokenTokenizer(encoding);
    cache.set(encoding, t);
  }
  return t;
}
