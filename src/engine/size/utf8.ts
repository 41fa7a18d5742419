/**
 * Offset conversions between UTF-16 code units (JavaScript string indices, chunkwise's
 * offsets), Unicode code points and UTF-8 bytes, for callers in other languages.
 * Lone surrogates count as U+FFFD (3 UTF-8 bytes), as `TextEncoder` writes them.
 * @module
 */
import { InvalidInputError } from '../errors.js';

/** UTF-8 length of the character starting at UTF-16 index i, and its UTF-16 width. */
export function utf8CharAt(text: string, i: number): { bytes: number; width: number } {
  const c = text.charCodeAt(i);
  if (c < 0x80) return { bytes: 1, width: 1 };
  if (c < 0x800) return { bytes: 2, width: 1 };
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return { bytes: 4, width: 2 };
  }
  return { bytes: 3, width: 1 };
}

/** Number of UTF-8 bytes `TextEncoder` writes for `text`. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    const ch = utf8CharAt(text, i);
    bytes += ch.bytes;
    i += ch.width;
  }
  return bytes;
}

function checkOffset(text: string, offset: number): void {
  if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
  if (!Number.isInteger(offset) || offset < 0 || offset > text.length) {
    throw new InvalidInputError(`offset must be an integer in [0, ${text.length}] (UTF-16 code units)`, offset);
  }
}

/**
 * Converts a UTF-16 offset into `text` to a UTF-8 byte offset. An offset inside a
 * surrogate pair counts the pair's bytes from its start.
 * @throws {InvalidInputError} when the offset is not an integer in [0, text.length].
 */
export function utf16ToUtf8Offset(text: string, offset: number): number {
  return sumBefore(text, offset, (bytes) => bytes);
}

/**
 * Converts a UTF-16 offset to a code-point offset (Python's `str` indices).
 * @throws {InvalidInputError} when the offset is not an integer in [0, text.length].
 */
export function utf16ToCodePointOffset(text: string, offset: number): number {
  return sumBefore(text, offset, () => 1);
}

/** Σ `weight(UTF-8 bytes)` over the code points that end at or before `offset` (a surrogate pair cut by it counts nothing). */
function sumBefore(text: string, offset: number, weight: (bytes: number) => number): number {
  checkOffset(text, offset);
  let sum = 0;
  for (let i = 0; i < offset; ) {
    const ch = utf8CharAt(text, i);
    if (i + ch.width > offset) break;
    sum += weight(ch.bytes);
    i += ch.width;
  }
  return sum;
}

/**
 * Maps UTF-8 byte offsets (sorted ascending) to UTF-16 offsets in `text`. A byte
 * offset inside a multi-byte character moves forward to that character's end, so no
 * character is cut. Returns an Int32Array of the same length.
 */
export function utf8ToUtf16Offsets(text: string, byteOffsets: ArrayLike<number>): Int32Array {
  const out = new Int32Array(byteOffsets.length);
  let i = 0; // UTF-16 index
  let b = 0; // byte offset of index i
  for (let k = 0; k < byteOffsets.length; k++) {
    const target = byteOffsets[k];
    while (b < target && i < text.length) {
      const ch = utf8CharAt(text, i);
      b += ch.bytes;
      i += ch.width;
    }
    out[k] = i;
  }
  return out;
}
