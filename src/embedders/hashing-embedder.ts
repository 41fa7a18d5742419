/**
 * The built-in embedder that needs no model file: lexical feature hashing in the WASM
 * core.
 * @module
 */
import { hashEmbed } from '../../bindings/index.js';
import { EmbeddingError, InvalidOptionError } from '../engine/errors.js';
import { rejectUnknownOptions } from '../engine/options/schema.js';
import { hashText } from '../engine/chunk.js';
import { BUILTIN_STOPWORDS } from '../engine/boundaries/stopwords.js';
import type { Embedder } from './types.js';

/** Options of {@link HashingEmbedder}. */
export interface HashingEmbedderOptions {
  /** Vector length d (integer 8 … 65536). Default 384. */
  dimension?: number;
  /** Smallest character n-gram, in UTF-16 code units of "<word>". Default 3. */
  minN?: number;
  /** Largest character n-gram; 0 disables character n-grams. Default 5. */
  maxN?: number;
  /** Weight of word unigram and bigram features. Default 1. */
  wordWeight?: number;
  /** Weight of character n-gram features. Default 0.5. */
  charWeight?: number;
  /** Strip diacritics (é → e) after NFKC and lowercasing. Default true. */
  stripDiacritics?: boolean;
  /**
   * Words left out before hashing: `'builtin'` (default: frequent function words of
   * English, Dutch, French, German and Spanish, see `BUILTIN_STOPWORDS`), `false` (keep
   * every word), or your own list (normalised like the text). Bigrams join the words
   * around a removed one ("latentie van QASC" → "latentie qasc").
   */
  stopwords?: 'builtin' | false | Iterable<string>;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const MARKS = /\p{Mn}/gu;

/**
 * A deterministic lexical embedder: **a baseline, not a semantic model.** It finds
 * texts that share words and word pieces (so "latentie" matches "latentie", and
 * "chunking" matches "chunks" through shared character n-grams), not texts that mean
 * the same in other words or languages. For semantic quality load a sentence-embedding
 * model with `OnnxEmbedder` (or a Model2Vec model with `StaticEmbedder`).
 *
 * Algorithm (the "hashing trick", Weinberger et al. 2009, with fastText-style
 * character n-grams, Bojanowski et al. 2017):
 * 1. Normalise: Unicode NFKC, `toLowerCase()` (locale-independent), and — by default —
 *    diacritics stripped (NFD, remove non-spacing marks, NFC). Words are maximal runs
 *    of letters, digits and marks (`[\p{L}\p{N}\p{M}]+`); stopwords (by default a
 *    built-in list of function words in five languages) are left out — a stand-in for
 *    the IDF weighting a stateless embedder cannot learn.
 * 2. Features: each word (unigram), each pair of neighbouring words (bigram), and the
 *    character n-grams (minN … maxN code units) of each word padded as "<word>".
 * 3. Each feature is hashed with FNV-1a over UTF-16 code units plus murmur3's
 *    finaliser, per-kind seeds; a second mix gives its bucket (mod d) and sign.
 * 4. A feature with term frequency tf adds sign · weight · (1 + ln tf) (sublinear tf).
 * 5. The vector is L2-normalised.
 * Steps 2–5 run in the WebAssembly core (`assembly/kernels/hashing.ts`), with integer
 * hashing and the module's own `log`, so the vectors are bit-identical in Node,
 * browsers and edge runtimes.
 *
 * Output: `embed` gives n × d row-major Float32Array, rows unit length. A text with no
 * word (empty, only punctuation or spaces) gets the zero vector (cosine 0 with
 * everything).
 */
export class HashingEmbedder implements Embedder {
  /** Vector length d. */
  readonly dimension: number;
  /** No token limit: texts of any length are read whole (always `undefined`). */
  declare readonly maxTokens?: number;
  readonly #minN: number;
  readonly #maxN: number;
  readonly #wordWeight: number;
  readonly #charWeight: number;
  readonly #strip: boolean;
  readonly #stopwords: ReadonlySet<string>;
  /**
   * Identity (see `Embedder.id`): `hashing:<dimension>` with the default options, else
   * `hashing:<dimension>:<hash of the options>`.
   */
  readonly id: string;

  /** @throws {InvalidOptionError} for a dimension or n-gram range out of bounds. */
  constructor(options: HashingEmbedderOptions = {}) {
    rejectUnknownOptions<HashingEmbedderOptions>('HashingEmbedder', options, {
      dimension: true,
      minN: true,
      maxN: true,
      wordWeight: true,
      charWeight: true,
      stripDiacritics: true,
      stopwords: true,
    });
    const d = options.dimension ?? 384;
    if (!Number.isInteger(d) || d < 8 || d > 65536) throw new InvalidOptionError('dimension', d, 'an integer from 8 to 65536');
    const minN = options.minN ?? 3;
    const maxN = options.maxN ?? 5;
    if (!Number.isInteger(minN) || minN < 1) throw new InvalidOptionError('minN', minN, 'an integer ≥ 1');
    if (!Number.isInteger(maxN) || (maxN !== 0 && (maxN < minN || maxN > 16))) {
      throw new InvalidOptionError('maxN', maxN, `0, or an integer from minN (${minN}) to 16`);
    }
    for (const [name, v] of [['wordWeight', options.wordWeight], ['charWeight', options.charWeight]] as const) {
      if (v !== undefined && !(Number.isFinite(v) && v >= 0)) throw new InvalidOptionError(name, v, 'a finite number ≥ 0');
    }
    this.dimension = d;
    this.#minN = minN;
    this.#maxN = maxN;
    this.#wordWeight = options.wordWeight ?? 1;
    this.#charWeight = options.charWeight ?? 0.5;
    this.#strip = options.stripDiacritics ?? true;
    const sw = options.stopwords ?? 'builtin';
    const list = sw === 'builtin' ? BUILTIN_STOPWORDS : sw === false ? [] : sw;
    this.#stopwords = new Set([...list].map((w) => this.normalize(w)));
    const settings = [minN, maxN, this.#wordWeight, this.#charWeight, this.#strip, sw === 'builtin' ? sw : [...this.#stopwords].sort().join(' ')].join('\u0000');
    this.id = settings === [3, 5, 1, 0.5, true, 'builtin'].join('\u0000') ? `hashing:${d}` : `hashing:${d}:${hashText(settings)}`;
  }

  /** The normalised form of `text` that features are taken from (step 1 above). */
  normalize(text: string): string {
    let s = text.normalize('NFKC').toLowerCase();
    if (this.#strip) s = s.normalize('NFD').replace(MARKS, '').normalize('NFC');
    return s;
  }

  /**
   * Embeds a batch synchronously (the work is all in WASM).
   * @returns n × d row-major Float32Array, rows L2-normalised (zero for texts with no word).
   * @throws {EmbeddingError} if a text is not a string.
   */
  embedSync(texts: string[]): Float32Array {
    if (!Array.isArray(texts)) throw new EmbeddingError('embed() takes an array of strings', texts);
    const parts: string[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    const docWords = new Int32Array(texts.length + 1);
    let base = 0;
    texts.forEach((text, i) => {
      if (typeof text !== 'string') throw new EmbeddingError(`Text ${i} is not a string`, text);
      const s = this.normalize(text);
      for (const m of s.matchAll(WORD)) {
        if (this.#stopwords.has(m[0])) continue;
        starts.push(base + m.index!);
        ends.push(base + m.index! + m[0].length);
      }
      parts.push(s);
      base += s.length;
      docWords[i + 1] = starts.length;
    });
    const joined = parts.join('');
    const units = new Uint16Array(joined.length);
    for (let i = 0; i < joined.length; i++) units[i] = joined.charCodeAt(i);
    return hashEmbed(
      { units, wordStarts: Int32Array.from(starts), wordEnds: Int32Array.from(ends), docWords },
      {
        dimension: this.dimension,
        minN: this.#minN,
        maxN: this.#maxN,
        wordWeight: this.#wordWeight,
        charWeight: this.#charWeight,
      },
    );
  }

  /** {@link embedSync}, as the {@link Embedder} interface's promise. */
  async embed(texts: string[]): Promise<Float32Array> {
    return this.embedSync(texts);
  }
}
