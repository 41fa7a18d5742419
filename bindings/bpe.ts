/**
 * Loading the BPE tokenizer module (`assembly/bpe/`, built to `build/bpe.wasm`) and
 * driving it. Nothing here imports a Node built-in: it runs in Node, browsers and edge
 * runtimes.
 *
 * - {@link getBpeModule} compiles the bytes built into the package synchronously (Node,
 *   workers, edge runtimes); {@link initBpe} compiles them (or a URL, `Response`, bytes)
 *   asynchronously, for a browser's main thread where synchronous compilation of modules
 *   over 4 KiB is refused. Call it once before the first tokenizer is built there.
 * - {@link BpeEncoder} holds one encoding in its own instance: the binary rank table
 *   (`bindings/bpe-table.ts`, copied into the module's memory and hashed there) stays
 *   resident; per-call buffers are reused. Where the tables come from, one encoding at a
 *   time on first use: `bindings/bpe-ranks.ts`. Text is processed in pieces of about 64 Ki UTF-16 code units
 *   ({@link BpeEncoder.pieceUnits}) cut at
 *   places where the encoding's split pattern always splits, so memory stays bounded
 *   whatever the text's length; if a call still grew the memory past
 *   {@link BpeEncoder.retainBytes} (a text with no such place for megabytes), the
 *   instance is dropped afterwards and rebuilt on the next call.
 * @module
 */
import { InvalidInputError, WasmError } from '../src/engine/errors.js';
import { BPE_UNICODE_STAGE1_BASE64, BPE_UNICODE_STAGE2_BASE64 } from './generated/bpe-unicode.js';
import { BPE_WASM_BASE64 } from './generated/bpe-wasm.js';
import { base64ToBytes } from './index.js';
import { nodeBufferOver, type NodeBufferLike } from './node-buffer.js';
import { rankTableFromTiktoken, readRankTable, type BpeRankData } from './bpe-table.js';

export { CL100K_PATTERN, O200K_PATTERN, type BpeRankData } from './bpe-table.js';

/** The raw exports of `build/bpe.wasm` (pointers are byte offsets into its memory). */
export interface BpeExports {
  memory: WebAssembly.Memory;
  alloc(size: number): number;
  setUnicodeTables(stage1: number, stage2: number): void;
  loadRankTable(table: number, len: number): number;
  allBytesRanked(): number;
  setPattern(kind: number): void;
  ensureScratch(bytes: number): number;
  inputPtr(): number;
  utf16Ptr(): number;
  fromUtf16(units: number): number;
  countUtf16Range(at: number, units: number): number;
  countUtf16Ranges(list: number, n: number): void;
  countOrderedSpans(list: number, n: number, work: number, edge: number): number;
  idsPtr(): number;
  endsPtr(): number;
  scratchTop(): number;
  run(len: number, mode: number): number;
  pieces(len: number): number;
  pieceCounts(len: number, base16: number, baseCount: number, segments: number): number;
  tokenBytesPtr(): number;
  tokenOffsetsPtr(): number;
  tokenLengthsPtr(): number;
  vocabSize(): number;
}

let compiled: WebAssembly.Module | undefined;

/** True when the BPE module is compiled (or was given with {@link setBpeModule}). */
export function hasBpeModule(): boolean {
  return compiled !== undefined;
}

/**
 * Sets the compiled BPE module, for runtimes that import `.wasm` files as compiled
 * modules and refuse to compile bytes (Cloudflare workerd, Vercel Edge).
 */
export function setBpeModule(module: WebAssembly.Module): void {
  compiled = module;
}

/** The BPE module's bytes as built into the package. */
export function bpeWasmBytes(): Uint8Array {
  return base64ToBytes(BPE_WASM_BASE64);
}

/**
 * The compiled BPE module; compiled synchronously from the built-in bytes on first call
 * unless {@link initBpe} ran before.
 * @throws {WasmError} if the runtime refuses synchronous compilation (a browser's main
 *   thread): call `await initBpe()` first there.
 */
export function getBpeModule(): WebAssembly.Module {
  if (compiled) return compiled;
  try {
    compiled = new WebAssembly.Module(bpeWasmBytes() as BufferSource);
  } catch (cause) {
    throw new WasmError(
      `Could not compile the WebAssembly BPE tokenizer synchronously (${String(cause)}); call await initBpe() first`,
    );
  }
  return compiled;
}

/** What {@link initBpe} can load from. */
export type BpeSource = BufferSource | URL | string | Response | WebAssembly.Module;

/**
 * Compiles the BPE module asynchronously and makes it the one {@link getBpeModule}
 * returns. With no source it compiles the built-in bytes; a URL (or string URL) is
 * fetched; a `Response` is read.
 * @throws {WasmError} when the source cannot be fetched or compiled.
 */
export async function initBpe(source?: BpeSource): Promise<WebAssembly.Module> {
  try {
    if (source === undefined) compiled = await WebAssembly.compile(bpeWasmBytes() as BufferSource);
    else if (source instanceof WebAssembly.Module) compiled = source;
    else if (typeof source === 'string' || source instanceof URL) {
      const response = await fetch(source);
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${String(source)}`);
      compiled = await WebAssembly.compile(await response.arrayBuffer());
    } else if (typeof Response !== 'undefined' && source instanceof Response) {
      compiled = await WebAssembly.compile(await source.arrayBuffer());
    } else compiled = await WebAssembly.compile(source as BufferSource);
  } catch (cause) {
    throw new WasmError(`Could not load the WebAssembly BPE tokenizer: ${String(cause)}`);
  }
  return compiled;
}

let unicodeStages: [Uint8Array, Uint8Array] | undefined;


function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}
function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** JavaScript's \s for one UTF-16 code unit. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * A place in `text` at or after `from` where both split patterns always split and where
 * the pieces before it do not depend on the text after it, so that the two sides can be
 * tokenised apart:
 * - a space after a character that is not whitespace: that character's piece (letters,
 *   a contraction, digits, punctuation) ends there whatever follows, and no piece takes
 *   a space as a suffix;
 * - after a line feed, before a character that is neither whitespace nor `/`: the line
 *   feed's piece (a whitespace run, or punctuation followed by `[\r\n]*` / `[\r\n/]*`)
 *   ends there, and no piece takes a line feed as a prefix;
 * - between an ASCII letter and an ASCII digit, either way round: letter runs and digit
 *   runs end there (digit groups of three count from the run's start), and neither takes
 *   the other as a prefix (so blobs without whitespace, such as base64, still get cut).
 * `text.length` if there is none.
 */
function safeCut(text: string, from: number): number {
  const n = text.length;
  for (let i = Math.max(from, 1); i < n; i++) if (isSafeCut(text, i)) return i;
  return n;
}

/** Whether `0 < i < text.length` is a place {@link safeCut} may return (it reads code units i − 1 and i only). */
function isSafeCut(text: string, i: number): boolean {
  return cutBetween(text.charCodeAt(i - 1), text.charCodeAt(i));
}

/** The rule of {@link isSafeCut} between the code units `prev` and `c`. */
function cutBetween(prev: number, c: number): boolean {
  if (c === 0x20) return !isSpace(prev);
  if (prev === 0x0a) return c !== 0x2f && !isSpace(c);
  return isAsciiDigit(c) ? isAsciiLetter(prev) : isAsciiDigit(prev) && isAsciiLetter(c);
}

/** Code units from a span's edge within which {@link BpeEncoder.countSpans} looks for the span's first and last safe cut (beyond: the span is counted whole). */
const EDGE_UNITS = 64;

/**
 * Code units spans must share per span on average before {@link BpeEncoder.countSpans}
 * counts their shared text once: below it, counting each span whole costs less than the
 * cut search and the extra edges. cl100k, the four corpora joined, CPU-time minima of 21
 * interleaved rounds at load 6.5 (whole count 5.9 ms), whole vs once: windows 128 at
 * stride 112 (fixed char 128's default overlap of 16) 9.2 vs 13.7 ms, 512 at 448 8.0 vs
 * 8.1, 400 at 300 9.3 vs 8.2, 256 at 128 14.2 vs 11.3, 1000 at 800 8.5 vs 7.8, 512 at
 * 256 13.0 vs 9.6, 128 at 32 29.3 vs 25.1.
 */
const OVERLAP_UNITS = 80;

/**
 * The first `count` elements of `a`: a view when they fill at least three quarters of it
 * (the usual case: the guess of the token count was close), else a copy that frees the rest.
 */
function fitted<T extends Uint32Array | Int32Array>(a: T, count: number): T {
  return (count * 4 >= a.length * 3 ? a.subarray(0, count) : a.slice(0, count)) as T;
}

/** Code units up to which a text is written into the module's memory by a JavaScript loop (then converted to UTF-8 there). */
const SHORT_UNITS = 128;

interface RunResult {
  count: number;
  ids?: Uint32Array;
  ends?: Int32Array;
}

/**
 * One encoding in its own module instance. `ids` are tiktoken ranks; offsets are UTF-16
 * code units. Special-token strings are ordinary text. Not safe to share across threads
 * (each worker builds its own).
 */
export class BpeEncoder {
  /**
   * Linear memory (bytes) an instance may keep after a call; above it the instance is
   * dropped and rebuilt on the next call. An instance holds about 11.4 MB (cl100k_base)
   * or 17.2 MB (o200k_base) with its tables, its piece and segment maps and merge cache (5 MB) and usual buffers.
   */
  static retainBytes = 64 * 1024 * 1024;
  /**
   * UTF-16 code units per piece of text handed to the module at once (the piece then
   * extends to the next safe cut). Tests lower it to exercise the cuts.
   */
  static pieceUnits = 1 << 16;
  /**
   * Hand text to the module as UTF-16 through Node's `Buffer`, converted to UTF-8 there:
   * an order of magnitude faster than `TextEncoder.encodeInto` on ASCII, and the same
   * bytes. True in Node (a `Buffer` global and a Node version in `process`); elsewhere, or
   * when set to false, `encodeInto` is used.
   */
  static useBuffer = nodeBufferOver !== undefined;

  readonly #table: Uint8Array;
  readonly #pattern: number;
  readonly #specialById: Map<number, string>;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder('utf-8');
  #ex: BpeExports | undefined;
  #buffer: ArrayBuffer | undefined;
  #u8: Uint8Array = new Uint8Array(0);
  #u16: Uint16Array = new Uint16Array(0);
  #nodeBuffer: NodeBufferLike | undefined;
  #vocab = 0;

  /**
   * @param table the encoding's binary rank table (`bindings/bpe-table.ts`), or
   *   js-tiktoken's rank data for it (converted first, which takes longer).
   * @throws {WasmError} when the table is malformed, or js-tiktoken's split pattern is
   *   not cl100k_base's or o200k_base's (the module reproduces only those two).
   */
  constructor(table: Uint8Array | BpeRankData) {
    this.#table = table instanceof Uint8Array ? table : rankTableFromTiktoken(table);
    const info = readRankTable(this.#table);
    this.#pattern = info.pattern;
    this.#specialById = info.specials;
    this.#load();
  }

  /** Number of ordinary ranks (max rank + 1). */
  get vocabSize(): number {
    this.#load();
    return this.#vocab;
  }

  #load(): BpeExports {
    if (this.#ex) return this.#ex;
    let ex: BpeExports;
    try {
      const instance = new WebAssembly.Instance(getBpeModule(), {
        env: {
          abort: () => {
            throw new WasmError('The BPE module aborted');
          },
        },
      });
      ex = instance.exports as unknown as BpeExports;
    } catch (cause) {
      if (cause instanceof WasmError) throw cause;
      throw new WasmError(`Could not instantiate the WebAssembly BPE tokenizer: ${String(cause)}`);
    }
    if (!unicodeStages) unicodeStages = [base64ToBytes(BPE_UNICODE_STAGE1_BASE64), base64ToBytes(BPE_UNICODE_STAGE2_BASE64)];
    const [s1, s2] = unicodeStages;
    const p1 = ex.alloc(s1.length);
    const p2 = ex.alloc(s2.length);
    new Uint8Array(ex.memory.buffer, p1, s1.length).set(s1);
    new Uint8Array(ex.memory.buffer, p2, s2.length).set(s2);
    ex.setUnicodeTables(p1, p2);
    ex.setPattern(this.#pattern);
    // The table stays where it is copied to: its token bytes are the module's arena.
    const table = this.#table;
    const tablePtr = ex.alloc(table.length);
    new Uint8Array(ex.memory.buffer, tablePtr, table.length).set(table);
    const vocab = ex.loadRankTable(tablePtr, table.length);
    if (vocab <= 0 || ex.allBytesRanked() !== 1) throw new WasmError(`Could not load the BPE rank table (${vocab}, ${ex.allBytesRanked()})`);
    this.#vocab = vocab;
    this.#ex = ex;
    this.#buffer = undefined;
    return ex;
  }

  #mem(ex: BpeExports): Uint8Array {
    // growing the memory detaches its old buffer (byteLength 0): only then is
    // `memory.buffer` (a call into the engine) read again
    if (this.#buffer === undefined || this.#buffer.byteLength === 0) {
      this.#buffer = ex.memory.buffer as ArrayBuffer;
      this.#u8 = new Uint8Array(this.#buffer);
      this.#u16 = new Uint16Array(this.#buffer);
      this.#nodeBuffer = undefined;
    }
    return this.#u8;
  }

  /** A Node `Buffer` over the module's memory (rebuilt when the memory grew). */
  #buf(ex: BpeExports): NodeBufferLike {
    this.#mem(ex);
    return (this.#nodeBuffer ??= nodeBufferOver!(this.#buffer!));
  }

  #afterCall(ex: BpeExports): void {
    const held = this.#buffer;
    if (held !== undefined && held.byteLength !== 0 && held.byteLength <= BpeEncoder.retainBytes) return;
    if (ex.memory.buffer.byteLength > BpeEncoder.retainBytes) {
      this.#ex = undefined;
      this.#buffer = undefined;
      this.#u8 = new Uint8Array(0);
    }
  }

  /** Writes `text` as UTF-8 at the module's input; returns its length in bytes. */
  #write(ex: BpeExports, text: string): number {
    const n = text.length;
    const input = ex.ensureScratch(n * 3);
    if (n <= SHORT_UNITS || BpeEncoder.useBuffer) {
      this.#writeUtf16(ex, text, 0, n);
      return ex.fromUtf16(n);
    }
    return this.#encoder.encodeInto(text, this.#mem(ex).subarray(input, input + text.length * 3)).written;
  }

  /** Runs the module over one piece of text; returns the token count (and fills outputs). */
  #runPiece(ex: BpeExports, text: string, mode: number): number {
    return ex.run(this.#write(ex, text), mode);
  }

  #run(text: string, mode: number): RunResult {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
    const ex = this.#load();
    const n = text.length;
    try {
      if (n <= BpeEncoder.pieceUnits) {
        const count = n === 0 ? 0 : this.#runPiece(ex, text, mode);
        if (mode === 0) return { count };
        const mem = this.#mem(ex);
        const ids = new Uint32Array(mem.buffer, ex.idsPtr(), count).slice();
        if (mode === 1) return { count, ids };
        return { count, ids, ends: new Int32Array(mem.buffer, ex.endsPtr(), count).slice() };
      }
      let count = 0;
      let ids = mode === 0 ? undefined : new Uint32Array(Math.max(16, n >> 2));
      let ends = mode === 2 ? new Int32Array(ids!.length) : undefined;
      let from = 0;
      while (from < n) {
        const unit = BpeEncoder.pieceUnits;
        const cut = n - from <= unit ? n : safeCut(text, from + unit);
        const k = this.#runPiece(ex, text.substring(from, cut), mode);
        if (ids) {
          if (count + k > ids.length) {
            const grown = new Uint32Array(Math.max(ids.length * 2, count + k));
            grown.set(ids.subarray(0, count));
            ids = grown;
            if (ends) {
              const e = new Int32Array(grown.length);
              e.set(ends.subarray(0, count));
              ends = e;
            }
          }
          const mem = this.#mem(ex);
          ids.set(new Uint32Array(mem.buffer, ex.idsPtr(), k), count);
          if (ends) {
            const src = new Int32Array(mem.buffer, ex.endsPtr(), k);
            for (let i = 0; i < k; i++) ends[count + i] = src[i] + from;
          }
        }
        count += k;
        from = cut;
      }
      return { count, ids: ids && fitted(ids, count), ends: ends && fitted(ends, count) };
    } finally {
      this.#afterCall(ex);
    }
  }

  /** Token ids of `text` (special-token strings encoded as ordinary text). */
  encode(text: string): Uint32Array {
    return this.#run(text, 1).ids!;
  }

  /** Number of tokens of `text`, without materialising the ids. */
  count(text: string): number {
    return this.#run(text, 0).count;
  }

  /**
   * Token ids with UTF-16 spans: token i covers `text.slice(starts[i], ends[i])`; a token
   * ending inside a character ends at that character's end, so the next may be empty.
   */
  encodeWithOffsets(text: string): { ids: Uint32Array; starts: Int32Array; ends: Int32Array } {
    const r = this.#run(text, 2);
    const ends = r.ends!;
    const starts = new Int32Array(ends.length);
    for (let i = 1; i < ends.length; i++) starts[i] = ends[i - 1];
    return { ids: r.ids!, starts, ends };
  }

  /**
   * The text of token ids (invalid UTF-8 decodes to U+FFFD). Ids of the encoding's
   * special tokens decode to their strings.
   * @throws {InvalidInputError} for an id that is neither a rank nor a special token.
   */
  decode(ids: ArrayLike<number>): string {
    const ex = this.#load();
    const mem = this.#mem(ex);
    const offsets = new Uint32Array(mem.buffer, ex.tokenOffsetsPtr(), this.#vocab);
    const lengths = new Uint32Array(mem.buffer, ex.tokenLengthsPtr(), this.#vocab);
    const base = ex.tokenBytesPtr();
    let total = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (Number.isInteger(id) && id >= 0 && id < this.#vocab && lengths[id] > 0) total += lengths[id];
      else if (this.#specialById.has(id)) total += this.#specialById.get(id)!.length * 3;
      else throw new InvalidInputError(`token ids must be ranks of the encoding (id ${i})`, id);
    }
    const out = new Uint8Array(total);
    let o = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (id < this.#vocab && lengths[id] > 0) {
        const s = base + offsets[id];
        out.set(mem.subarray(s, s + lengths[id]), o);
        o += lengths[id];
      } else o += this.#encoder.encodeInto(this.#specialById.get(id)!, out.subarray(o)).written;
    }
    return this.#decoder.decode(out.subarray(0, o));
  }

  /**
   * The pre-tokens (split-pattern pieces) of `text` with their token counts: piece i ends
   * at UTF-16 offset `ends[i]` (the last at `text.length`), and pieces 0…i hold `counts[i]`
   * tokens (so `counts[count − 1] === count(text)`). The arrays may be longer than
   * `count`; they hold one entry per piece (at most one per code unit).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  pieceCounts(text: string): { ends: Int32Array; counts: Int32Array; count: number } {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
    const ex = this.#load();
    const n = text.length;
    let ends = new Int32Array(Math.min(n, 16 + (n >> 2)));
    let counts = new Int32Array(ends.length);
    let k = 0;
    let tokens = 0;
    try {
      for (let from = 0; from < n; ) {
        const cut = n - from <= BpeEncoder.pieceUnits ? n : safeCut(text, from + BpeEncoder.pieceUnits);
        const m = this.#pieceRun(ex, text.substring(from, cut), from, tokens, undefined);
        if (k + m > ends.length) {
          const size = Math.min(n, Math.max(ends.length * 2, k + m));
          const e = new Int32Array(size);
          e.set(ends.subarray(0, k));
          ends = e;
          const c = new Int32Array(size);
          c.set(counts.subarray(0, k));
          counts = c;
        }
        const out = this.#mem(ex).buffer;
        ends.set(new Int32Array(out, ex.idsPtr(), m), k);
        counts.set(new Int32Array(out, ex.endsPtr(), m), k);
        k += m;
        if (k > 0) tokens = counts[k - 1];
        from = cut;
      }
    } finally {
      this.#afterCall(ex);
    }
    return { ends, counts, count: k };
  }

  /**
   * Token counts of many spans of one text: `counts[k] === count(text.slice(spans[k].start,
   * spans[k].end))`. The text's code units are copied into the module once per window of
   * consecutive spans within 64 Ki code units (a longer span is counted alone), and each
   * span is converted and counted there, so a chunk costs one module call, not a copy of
   * its text (overlapping chunks are copied once).
   * @param spans `[start, end)` in UTF-16 code units, any order (windows follow the order given).
   * @throws {InvalidInputError} when `text` is not a string or a span is not
   *   `0 ≤ start ≤ end ≤ text.length` in integers.
   */
  countSpans(text: string, spans: readonly { readonly start: number; readonly end: number }[]): Int32Array {
    if (typeof text !== 'string') throw new InvalidInputError('text must be a string', text);
    const out = new Int32Array(spans.length);
    const n = text.length;
    for (let k = 0; k < spans.length; k++) {
      const { start, end } = spans[k];
      if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= n)) {
        throw new InvalidInputError(`spans must be [start, end) with 0 ≤ start ≤ end ≤ ${n} (span ${k})`, spans[k]);
      }
    }
    const ex = this.#load();
    const window = BpeEncoder.pieceUnits;
    try {
      for (let k = 0; k < spans.length; ) {
        // a window: the consecutive spans whose range stays within `window` code units
        let lo = spans[k].start;
        let hi = spans[k].end;
        let to = k + 1;
        for (; to < spans.length; to++) {
          const lo2 = Math.min(lo, spans[to].start);
          const hi2 = Math.max(hi, spans[to].end);
          if (hi2 - lo2 > window) break;
          lo = lo2;
          hi = hi2;
        }
        if (hi - lo > window) {
          out[k] = this.#run(text.slice(lo, hi), 0).count; // one span longer than a window
          k = to;
          continue;
        }
        // room for the window's text, and for the ranges' list (five pairs of i32 per span at most) at idsPtr()
        ex.ensureScratch(Math.max((hi - lo) * 3, (to - k) * 10 + 16));
        this.#writeUtf16(ex, text, lo, hi);
        this.#countWindow(ex, text, spans, k, to, lo, hi, out);
        k = to;
      }
    } finally {
      this.#afterCall(ex);
    }
    return out;
  }

  /**
   * Counts the spans `from ≤ k < to`, which lie in `[lo, hi)`, the window's code units
   * being at the module's UTF-16 input, in one module call. Where they overlap (a chunker's
   * overlap), each piece of text is counted once: a span `[s, e)` is cut at its first and
   * last safe cuts `a ≤ b` inside it (see {@link isSafeCut}; looked for within
   * {@link EDGE_UNITS} of its edges), so its count is `count([s, a)) + count([a, b)) +
   * count([b, e))`; the middles are sums of the counts of the stretches between
   * consecutive cuts of all the spans (each a safe cut, so the count of a stretch does not
   * depend on what is around it), each stretch counted once — inside the module
   * (countOrderedSpans), for spans in text order. Spans out of text order, and spans that
   * share less than {@link OVERLAP_UNITS} code units each on average, are counted whole.
   */
  #countWindow(ex: BpeExports, text: string, spans: readonly { readonly start: number; readonly end: number }[], from: number, to: number, lo: number, hi: number, out: Int32Array): void {
    const m = to - from;
    let covered = 0;
    for (let k = from; k < to; k++) covered += spans[k].end - spans[k].start;
    const list = new Int32Array(this.#mem(ex).buffer, ex.idsPtr(), 10 * m); // countOrderedSpans returns 0 before any count: no growth, the view holds
    let r = 0;
    if (m >= 2 && covered - (hi - lo) > OVERLAP_UNITS * m) {
      // spans in text order (what chunkers plan): the module cuts and counts them itself
      for (let k = from; k < to; k++) {
        list[r++] = spans[k].start - lo;
        list[r++] = spans[k].end - lo;
      }
      if (ex.countOrderedSpans(ex.idsPtr(), m, ex.endsPtr(), EDGE_UNITS) === 1) {
        const got = this.#ranges(ex, r);
        for (let k = from; k < to; k++) out[k] = got[2 * (k - from)];
        return;
      }
      r = 0;
    }
    // each span whole (few or little-overlapping spans, or spans out of text order)
    for (let k = from; k < to; k++) {
      list[r++] = spans[k].start - lo;
      list[r++] = spans[k].end - spans[k].start;
    }
    ex.countUtf16Ranges(ex.idsPtr(), m);
    const got = this.#ranges(ex, r);
    for (let k = from; k < to; k++) out[k] = got[2 * (k - from)];
  }

  /** The `n` i32s at idsPtr() after countUtf16Ranges (a view made again: a long piece's merge may have grown the memory). */
  #ranges(ex: BpeExports, n: number): Int32Array {
    return new Int32Array(this.#mem(ex).buffer, ex.idsPtr(), n);
  }

  /**
   * Stores code units [from, to) of `text` at the module's UTF-16 input (after ensureScratch
   * for (to − from) · 3 bytes): up to {@link SHORT_UNITS} by a JavaScript loop (cheaper
   * than a call to Node's Buffer write), more through the Buffer where there is one.
   */
  #writeUtf16(ex: BpeExports, text: string, from: number, to: number): void {
    if (BpeEncoder.useBuffer && to - from > SHORT_UNITS) {
      this.#buf(ex).write(from === 0 && to === text.length ? text : text.slice(from, to), ex.utf16Ptr(), (to - from) * 2, 'utf16le');
      return;
    }
    this.#mem(ex);
    const u16 = this.#u16;
    const at = (ex.utf16Ptr() >>> 1) - from;
    for (let i = from; i < to; i++) u16[at + i] = text.charCodeAt(i);
  }

  /**
   * Token counts of many texts, each tokenised on its own (`counts[i] === count(texts[i])`),
   * the short ones together in one module call per 64 Ki code units.
   * @throws {InvalidInputError} when an element is not a string.
   */
  countEach(texts: readonly string[]): Int32Array {
    const out = new Int32Array(texts.length);
    const ex = this.#load();
    const batch: string[] = [];
    const at: number[] = [];
    const segEnds: number[] = [];
    let units = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      const m = this.#pieceRun(ex, batch.join(''), 0, 0, segEnds);
      const mem = this.#mem(ex).buffer;
      const ends = new Int32Array(mem, ex.idsPtr(), m);
      const counts = new Int32Array(mem, ex.endsPtr(), m);
      let i = 0;
      let before = 0;
      for (let j = 0; j < batch.length; j++) {
        if (batch[j].length === 0) continue;
        while (ends[i] < segEnds[j]) i++;
        out[at[j]] = counts[i] - before;
        before = counts[i];
      }
      batch.length = at.length = segEnds.length = 0;
      units = 0;
    };
    try {
      for (let j = 0; j < texts.length; j++) {
        const t = texts[j];
        if (typeof t !== 'string') throw new InvalidInputError(`texts must be strings (element ${j})`, t);
        const last = t.charCodeAt(t.length - 1);
        // long texts alone; a text ending in a high surrogate too (joined, it would pair with the next)
        if (t.length > 4096 || (last >= 0xd800 && last <= 0xdbff)) {
          out[j] = this.#run(t, 0).count;
          continue;
        }
        if (units + t.length > BpeEncoder.pieceUnits) flush();
        units += t.length;
        batch.push(t);
        at.push(j);
        segEnds.push(units);
      }
      flush();
    } finally {
      this.#afterCall(ex);
    }
    return out;
  }

  /**
   * Runs the module's per-piece mode over `text` (UTF-16 offsets from `base16`, counts from
   * `baseCount`), or over the texts ending at `segEnds` (UTF-16 offsets into `text`), each alone.
   */
  #pieceRun(ex: BpeExports, text: string, base16: number, baseCount: number, segEnds: readonly number[] | undefined): number {
    const segs = segEnds?.length ?? 0;
    const input = ex.ensureScratch(text.length * 3 + segs * 4 + 8);
    const mem = this.#mem(ex);
    const { written } = this.#encoder.encodeInto(text, mem.subarray(input, input + text.length * 3));
    if (segEnds) new Int32Array(mem.buffer, (input + written + 3) & ~3, segs).set(segEnds);
    return ex.pieceCounts(written, base16, baseCount, segs);
  }

  /** Bytes of linear memory the instance holds now (0 after it was dropped). */
  memoryBytes(): number {
    return this.#ex ? this.#ex.memory.buffer.byteLength : 0;
  }

  /** The split pattern's pieces as UTF-8 byte end offsets (for tests). */
  pieceEnds(text: string): Uint32Array {
    const ex = this.#load();
    const k = ex.pieces(this.#write(ex, text));
    return new Uint32Array(this.#mem(ex).buffer, ex.idsPtr(), k).slice();
  }
}
