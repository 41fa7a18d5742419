/**
 * Sizers for budgets in a unit chunkwise does not ship: a user `lengthFunction`
 * (LangChain's option of that name), and a Hugging Face `tokenizer.json` tokenizer (the
 * embedding model's own tokens, so a budget of 512 means 512 of *its* tokens). Core
 * module: no Node built-ins; the Hugging Face tokenizer is passed in, never imported here.
 * @module
 */
import { callOption } from '../callbacks.js';
import { describe, InvalidOptionError } from '../errors.js';
import { countChars, segmentChars } from './chars.js';
import type { Sizer, UnitSpans } from './types.js';

/** Sizers whose results need no check: chunkwise's own, and sizers already wrapped by {@link checkedSizer}. */
const trusted = new WeakSet<Sizer>();

/** `n` if it is a size (a finite number ≥ 0). @throws {InvalidOptionError} naming `option` and `n` otherwise. */
function checkedSize(option: string, n: unknown, call: string, text: string): number {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
    throw new InvalidOptionError(option, n, `${call} must return a finite number ≥ 0 (for a text of ${countChars(text)} characters)`);
  }
  return n;
}

/**
 * `r` as unit spans of a text of `length` code units, checked: `{ starts, ends, count }`
 * with `starts` and `ends` Int32Arrays (or arrays of integers, copied into Int32Arrays)
 * of at least `count` entries, `0 ≤ starts[i] ≤ ends[i] ≤ length`, starts non-decreasing.
 * @throws {InvalidOptionError} naming `option` and the first thing wrong.
 */
function checkedSpans(option: string, owner: unknown, r: unknown, length: number): UnitSpans {
  const bad = (why: string) => new InvalidOptionError(option, owner, `segment(text) must return { starts, ends, count } with UTF-16 offsets into the text; ${why}`);
  if (typeof r !== 'object' || r === null) throw bad(`it returned ${describe(r)}`);
  const { starts: s0, ends: e0, count } = r as Record<string, unknown>;
  const ints = (a: unknown, name: string): Int32Array => {
    if (a instanceof Int32Array) return a;
    if (Array.isArray(a) && a.every((x) => Number.isInteger(x))) return Int32Array.from(a as number[]);
    throw bad(`${name} is ${a === undefined ? 'missing' : describe(a)}, not an Int32Array`);
  };
  const starts = ints(s0, 'starts');
  const ends = ints(e0, 'ends');
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > starts.length || count > ends.length) {
    throw bad(`count is ${describe(count)} (starts has ${starts.length} entries, ends ${ends.length})`);
  }
  let last = 0;
  for (let i = 0; i < count; i++) {
    if (!(starts[i] >= last && starts[i] <= ends[i] && ends[i] <= length)) {
      throw bad(`unit ${i} is [${starts[i]}, ${ends[i]}) in a text of ${length} code units${starts[i] < last ? `, before unit ${i - 1}'s start ${last}` : ''}`);
    }
    last = starts[i];
  }
  return s0 === starts && e0 === ends ? (r as UnitSpans) : { starts, ends, count };
}

/**
 * A user's sizer with every result checked and every throw typed: `size` and `gapSize`
 * must return a finite number ≥ 0, `segment` unit spans inside the text (see
 * {@link UnitSpans}), `safeCut` an integer offset in [from, text.length]; a member that
 * throws is a `CallbackError` naming `sizer.<member>` with the original as `cause`.
 * Without the check, a `segment` that returned anything but `{ starts, ends, count }` gave
 * 0 chunks. Chunkwise's own sizers (and sizers already checked) are returned unchanged.
 * The members' presence is checked at construction by the options schema.
 * @param option the option the sizer was given as, named in errors (default `sizer`).
 * @throws {InvalidOptionError} (when a member is called) naming `option` and what it returned.
 */
export function checkedSizer(sizer: Sizer, option = 'sizer'): Sizer {
  if (trusted.has(sizer)) return sizer;
  const u = sizer.unit;
  const checked: Sizer = {
    unit: u === 'char' || u === 'word' || u === 'token' ? u : 'custom',
    name: typeof sizer.name === 'string' ? sizer.name : 'custom',
    size: (text) => checkedSize(option, callOption(`${option}.size`, () => sizer.size(text)), 'size(text)', text),
    segment: (text) => checkedSpans(option, sizer, callOption(`${option}.segment`, () => sizer.segment(text)), text.length),
  };
  const { safeCut, cutAt, gapSize, joinSize } = sizer;
  if (typeof safeCut === 'function') {
    (checked as { safeCut: Sizer['safeCut'] }).safeCut = (text, from) => {
      const c = callOption(`${option}.safeCut`, () => safeCut.call(sizer, text, from));
      if (!Number.isInteger(c) || c < from || c > text.length) throw new InvalidOptionError(option, sizer, `safeCut(text, ${from}) must return an integer offset in [${from}, ${text.length}]; it returned ${describe(c)}`);
      return c;
    };
  }
  if (typeof cutAt === 'function') (checked as { cutAt: Sizer['cutAt'] }).cutAt = (text, p) => callOption(`${option}.cutAt`, () => cutAt.call(sizer, text, p)) === true;
  if (sizer.additive === true) (checked as { additive: boolean }).additive = true;
  if (sizer.blankUnits === false) (checked as { blankUnits: boolean }).blankUnits = false;
  if (sizer.clusterAligned === true) (checked as { clusterAligned: boolean }).clusterAligned = true;
  if (typeof joinSize === 'function') {
    checked.joinSize = (text, p) => {
      const j = callOption(`${option}.joinSize`, () => joinSize.call(sizer, text, p));
      if (typeof j !== 'number' || !Number.isFinite(j)) throw new InvalidOptionError(option, sizer, `joinSize(text, ${p}) must return a finite number; it returned ${describe(j)}`);
      return j;
    };
  }
  if (typeof gapSize === 'function') checked.gapSize = (gap) => checkedSize(option, callOption(`${option}.gapSize`, () => gapSize.call(sizer, gap)), 'gapSize(gap)', gap);
  trusted.add(checked);
  return checked;
}

/**
 * A sizer from a function `(text) => size`: budgets are measured with it on the exact
 * text of each chunk. Units (where windows are laid out) are code points, so sliding
 * windows grow by characters and are fitted by the function. Declares no safe cut (a
 * stream holds the text until its end) and nothing about joins.
 * @param lengthFunction returns the size of a text: a finite number ≥ 0.
 * @param name the unit name for `metadata.unit` (default `custom`).
 * @throws {InvalidOptionError} when `lengthFunction` is not a function; at measure time, when it returns something other than a finite number ≥ 0.
 * @throws {CallbackError} at measure time, when `lengthFunction` throws (the original as `cause`).
 */
export function lengthFunctionSizer(lengthFunction: (text: string) => number, name = 'custom'): Sizer {
  if (typeof lengthFunction !== 'function') throw new InvalidOptionError('lengthFunction', lengthFunction, 'must be a function (text) => number');
  const sizer: Sizer = {
    unit: 'custom',
    name,
    size: (text: string) => checkedSize('lengthFunction', callOption('lengthFunction', () => lengthFunction(text)), 'lengthFunction(text)', text),
    segment: segmentChars,
  };
  trusted.add(sizer);
  return sizer;
}

/** What {@link hfTokenizerSizer} needs of a Hugging Face tokenizer (chunkwise's `HfTokenizer` has it). */
export interface HfLikeTokenizer {
  /** Ids of the text's own tokens (no special tokens). */
  contentIds(text: string): number[];
  /** Encodes with offsets: `offsets` T × 2 UTF-16 spans, `special` 1 for added tokens. */
  encode(text: string, maxLength: number, withOffsets?: boolean): { offsets: Int32Array; special: Uint8Array };
}

/**
 * A sizer over a Hugging Face `tokenizer.json` tokenizer (`HfTokenizer`, as the ONNX and
 * static embedders load it): sizes are counts of the model's own tokens (special tokens
 * left out), units are its tokens with UTF-16 spans (`tokenizer.encode` with offsets).
 * Declares no safe cut: tokenizers differ in how they pre-tokenize, so a stream holds the
 * text until its end.
 * @param tokenizer the tokenizer (e.g. `(await OnnxEmbedder.load(dir)).tokenizer`).
 * @param name the unit name for `metadata.unit` (default `hf`).
 */
export function hfTokenizerSizer(tokenizer: HfLikeTokenizer, name = 'hf'): Sizer {
  const sizer: Sizer = {
    unit: 'custom',
    name,
    size: (text: string) => (text.length === 0 ? 0 : tokenizer.contentIds(text).length),
    segment(text: string): UnitSpans {
      const e = tokenizer.encode(text, Number.MAX_SAFE_INTEGER, true);
      const starts: number[] = [];
      const ends: number[] = [];
      for (let t = 0; t < e.special.length; t++) {
        if (e.special[t]) continue;
        starts.push(e.offsets[2 * t]);
        ends.push(e.offsets[2 * t + 1]);
      }
      return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), count: starts.length };
    },
  };
  trusted.add(sizer);
  return sizer;
}
