/**
 * Content-addressed chunk ids. Core module: no Node built-ins.
 *
 * Id format: 16 lower-case hex digits, a 64-bit hash of (the document id, the chunk's
 * `text`, its `embedText` where it is set and differs from `text`, the ordinal of that
 * (text, embedText) pair among the document's chunks so far). The text before a chunk
 * does not enter its id, so an edit elsewhere in the document keeps the ids of the
 * chunks whose text did not change; identical chunks of one document get ordinals 0, 1,
 * 2, … in order and so distinct ids. A stream knows each chunk's text when it emits it,
 * so `chunkStream` gives the ids `chunk` gives.
 *
 * The hash is cyrb53's construction (bryc, public domain: two 32-bit multiplicative
 * lanes over the UTF-16 code units, cross-mixed at the end) with both 32-bit lanes kept
 * (64 bits). Pure integer arithmetic (`Math.imul`), so it is the same in every runtime;
 * no `crypto.subtle` (asynchronous, and not in every runtime).
 * @module
 */
import { InvalidOptionError } from './errors.js';
import { hex64 } from './chunk.js';
import type { Work } from './work.js';

/** Per-call options of `chunk(text, options)` and `chunkStream(source, options)`. */
export interface ChunkCallOptions {
  /**
   * The id of the document being chunked (a file path, a database key): it enters every
   * chunk id, so ids are unique across documents with distinct ids. Default `''`: ids
   * are unique within the document only. The CLI passes each input's `source` (the
   * file's absolute path, `-` for stdin).
   */
  documentId?: string;
  /** Counters the call's work is added to (tests and benches of linear time); absent: nothing is counted. */
  work?: Work;
}

/**
 * The document id of per-call `options` (`''` when not given).
 * @throws {InvalidOptionError} when `options` is not an object or `documentId` is not a string.
 */
export function documentIdOf(options: ChunkCallOptions | undefined): string {
  if (options === undefined) return '';
  if (options === null || typeof options !== 'object') throw new InvalidOptionError('options', options, 'an object such as { documentId }');
  workOf(options);
  const id = options.documentId;
  if (id === undefined) return '';
  if (typeof id !== 'string') throw new InvalidOptionError('documentId', id, 'a string (the document id that enters every chunk id)');
  return id;
}

/**
 * The per-call `work` counters of `options`, or undefined.
 * @throws {InvalidOptionError} when `options` is not an object or `work` is given but is not an object.
 */
export function workOf(options: ChunkCallOptions | undefined): Work | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object') throw new InvalidOptionError('options', options, 'an object such as { documentId }');
  const work = options.work;
  if (work !== undefined && (work === null || typeof work !== 'object')) throw new InvalidOptionError('work', work, 'an object of counters such as {}');
  return work;
}

const M1 = 2654435761;
const M2 = 1597334677;

/** Hash state: two 32-bit lanes. */
interface Lanes {
  a: number;
  b: number;
}

/**
 * Mixes the UTF-16 code units of `text.slice(start, end)`, then its length (so
 * concatenations of parts do not collide), into `h`. Reading the range of the whole
 * text, not a slice of it, keeps `charCodeAt` on a flat string.
 */
function mixText(h: Lanes, text: string, start = 0, end = text.length): void {
  let a = h.a;
  let b = h.b;
  for (let i = start | 0, n = end | 0; i < n; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, M1);
    b = Math.imul(b ^ c, M2);
  }
  h.a = Math.imul(a ^ (end - start), M1);
  h.b = Math.imul(b ^ (end - start), M2);
}

/** Mixes one 32-bit integer into `h`. */
function mixInt(h: Lanes, x: number): void {
  h.a = Math.imul(h.a ^ x, M1);
  h.b = Math.imul(h.b ^ x, M2);
}

/** cyrb53's final avalanche of both lanes, as 16 hex digits. */
function finish(h: Lanes): string {
  let a = h.a;
  let b = h.b;
  a = Math.imul(a ^ (a >>> 16), 2246822507);
  a ^= Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507);
  b ^= Math.imul(a ^ (a >>> 13), 3266489909);
  return hex64(b, a);
}

/**
 * Counts per 53-bit key, given as its high 32 bits and low 21 bits: open addressing with
 * linear probing over typed arrays of 32-bit integers, so counting a chunk allocates
 * nothing and no step converts a double (a `Map` with non-Smi keys boxes each key and
 * hashes it through the heap number). It starts at 8 slots (a fallback splitter
 * assembles a few chunks per call) and doubles when half full.
 */
class KeyCounts {
  #hi = new Int32Array(8);
  #lo = new Int32Array(8);
  /** The count of the key in the same slot; 0 marks an empty slot. */
  #counts = new Int32Array(8);
  #size = 0;

  /** The slot a key starts probing at: both halves mixed (the keys are hash states, mixed in every bit). */
  static #slot(hi: number, lo: number, mask: number): number {
    return (hi ^ Math.imul(lo, 0x9e3779b1)) & mask;
  }

  /** The count of the key (`hi`, `lo`) so far, then one more. */
  next(hi: number, lo: number): number {
    let mask = this.#counts.length - 1;
    let i = KeyCounts.#slot(hi, lo, mask);
    for (;;) {
      const c = this.#counts[i];
      if (c === 0) break;
      if (this.#hi[i] === hi && this.#lo[i] === lo) {
        this.#counts[i] = c + 1;
        return c;
      }
      i = (i + 1) & mask;
    }
    if ((this.#size + 1) * 2 > this.#counts.length) {
      this.#grow();
      mask = this.#counts.length - 1;
      i = KeyCounts.#slot(hi, lo, mask);
      while (this.#counts[i] !== 0) i = (i + 1) & mask;
    }
    this.#hi[i] = hi;
    this.#lo[i] = lo;
    this.#counts[i] = 1;
    this.#size++;
    return 0;
  }

  /** Makes room for `n` more keys at once (one rehash instead of one per doubling). */
  reserve(n: number): void {
    let size = this.#counts.length;
    while ((this.#size + n) * 2 > size) size *= 2;
    if (size > this.#counts.length) this.#grow(size);
  }

  #grow(n = this.#counts.length * 2): void {
    const his = this.#hi;
    const los = this.#lo;
    const counts = this.#counts;
    this.#hi = new Int32Array(n);
    this.#lo = new Int32Array(n);
    this.#counts = new Int32Array(n);
    const mask = n - 1;
    for (let j = 0; j < counts.length; j++) {
      if (counts[j] === 0) continue;
      let i = KeyCounts.#slot(his[j], los[j], mask);
      while (this.#counts[i] !== 0) i = (i + 1) & mask;
      this.#hi[i] = his[j];
      this.#lo[i] = los[j];
      this.#counts[i] = counts[j];
    }
  }
}

/**
 * The ids of one document's chunks, in the order they are emitted. Keeps a count per
 * distinct (text, embedText) pair seen (one map entry per distinct chunk), so the
 * ordinal of a repeated chunk is known; a stream keeps one of these across its sections.
 */
export class ContentIds {
  readonly #doc: Lanes;
  readonly #seen = new KeyCounts();

  /** @param documentId enters every id (see {@link ChunkCallOptions.documentId}). */
  constructor(readonly documentId = '') {
    this.#doc = { a: 0xdeadbeef, b: 0x41c6ce57 };
    mixText(this.#doc, documentId);
  }

  /**
   * The id of the next chunk with this `text` and `embedText` (undefined, or equal to
   * `text`: the chunk embeds its text).
   */
  id(text: string, embedText?: string): string {
    return this.idOf(text, 0, text.length, embedText);
  }

  /** Makes room for `n` more distinct chunks (a caller that knows how many it will ask for). */
  reserve(n: number): void {
    this.#seen.reserve(n);
  }

  /**
   * {@link id} of the chunk whose text is `source.slice(start, end)` (UTF-16 offsets),
   * read from `source` without slicing it.
   */
  idOf(source: string, start: number, end: number, embedText?: string): string {
    const h = { a: this.#doc.a, b: this.#doc.b };
    mixText(h, source, start, end);
    if (embedText === undefined || (embedText.length === end - start && source.startsWith(embedText, start))) mixInt(h, 0);
    else {
      mixInt(h, 1);
      mixText(h, embedText);
    }
    // 53 bits of the pre-ordinal state key the count: all of lane a, the high 21 bits of lane b
    const ordinal = this.#seen.next(h.a | 0, h.b >>> 11);
    mixInt(h, ordinal);
    return finish(h);
  }
}

/**
 * The id `text` (with `embedText`) gets as the `ordinal`-th (0-based) identical chunk of
 * the document `documentId`: what {@link ContentIds} assigns, computed alone (to look an
 * id up without chunking, or to check one).
 */
export function contentId(text: string, options: { documentId?: string; embedText?: string; ordinal?: number } = {}): string {
  const ids = new ContentIds(options.documentId ?? '');
  let id = '';
  for (let k = 0; k <= (options.ordinal ?? 0); k++) id = ids.id(text, options.embedText);
  return id;
}
