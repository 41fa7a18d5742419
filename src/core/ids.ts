/**
 * Chunk ids that a stream can compute: the id of a chunk hashes the source's prefix up
 * to the chunk's end, so it is known the moment the chunk is, without the rest of the
 * document. Core module: no Node built-ins.
 *
 * Id format: `<hashText(source.slice(0, end))>:<start>-<end>` (offsets in UTF-16 code
 * units). The same text and span always give the same id; appending text to a document
 * keeps the ids of its earlier chunks; two documents that share a prefix share the ids
 * of the chunks lying inside that prefix (the chunks are then equal too).
 * @module
 */
import { chunkId, hex32 } from './chunk.js';

/**
 * The FNV-1a hash of {@link hashText} computed incrementally: after `update(a)` and
 * `update(b)`, `digest()` equals `hashText(a + b)`. Works across any split of the text,
 * including a split between the two halves of a surrogate pair (it hashes UTF-16 code units).
 */
export class RollingHash {
  #h1 = 0x811c9dc5;
  #h2 = 0x01000193 ^ 0x5bd1e995;
  /** UTF-16 code units hashed so far. */
  length = 0;

  /** Hashes `text[from, to)` (defaults: all of `text`) after what was hashed before. */
  update(text: string, from = 0, to = text.length): this {
    let h1 = this.#h1;
    let h2 = this.#h2;
    // string indices fit in 31 bits; integer loop bounds keep the loop on small integers
    for (let i = from | 0, end = to | 0; i < end; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h2 >>> 15);
    }
    this.#h1 = h1;
    this.#h2 = h2;
    this.length += to - from;
    return this;
  }

  /** A copy of this hash's state (to hash several continuations of one prefix). */
  clone(): RollingHash {
    const copy = new RollingHash();
    copy.#h1 = this.#h1;
    copy.#h2 = this.#h2;
    copy.length = this.length;
    return copy;
  }

  /** The hash of everything hashed so far, as 16 hex digits (same as {@link hashText}). */
  digest(): string {
    return hex32(this.#h1) + hex32(this.#h2);
  }
}

/**
 * Assigns prefix-hash ids to spans of one source, in order of their ends. Feed the spans
 * with non-decreasing `end`; each call hashes only the text between the previous end and
 * this one, so ids for a whole document cost one pass over it.
 */
export class PrefixIds {
  readonly #hash = new RollingHash();

  /**
   * The id of span [start, end) of the source. `text` holds the source from UTF-16 offset
   * `textOffset` on (a stream's buffer; 0 for a whole string) and must still hold
   * [previous end, end).
   * @throws {RangeError} when `end` is before a previous span's end.
   */
  id(text: string, start: number, end: number, textOffset = 0): string {
    const from = this.#hash.length;
    if (end < from) throw new RangeError(`span end ${end} is before the previous span's end ${from}`);
    if (end > from) this.#hash.update(text, from - textOffset, end - textOffset);
    return chunkId(this.#hash.digest(), start, end);
  }

  /**
   * Hashes the source up to offset `to` now (a stream calls this before it drops text
   * from its buffer); no later span may end before `to`. `text` as in {@link id}.
   */
  advance(text: string, to: number, textOffset = 0): void {
    const from = this.#hash.length;
    if (to > from) this.#hash.update(text, from - textOffset, to - textOffset);
  }
}
