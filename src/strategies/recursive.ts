/**
 * Recursive chunking: split on an ordered separator list only where a piece is still
 * too large, then merge small pieces back up to the budget.
 *
 * Source: SPEC section 1 ("recursive"), the seeds' survey of chunking strategies
 * (`shared/seeds/001`, `003`), and the algorithm of LangChain's
 * `RecursiveCharacterTextSplitter` (@langchain/textsplitters 1.0.2, `_splitText` and
 * `mergeSplits`), which this chunker reproduces piece for piece while tracking exact
 * offsets. Deliberate differences are listed in `docs/recursive.md`.
 * @module
 */
import { chunkId, hashText, type Chunk } from '../core/chunk.js';
import { InvalidOptionError } from '../core/errors.js';
import { integerOption } from '../core/options.js';
import { isBlank, isSpace, requireText } from '../core/text.js';
import { resolveUnits, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';

/** Named separators: patterns a literal string cannot express. */
export type SeparatorKind = 'paragraph' | 'line' | 'sentence' | 'grapheme';

/**
 * A separator: a literal string (`""` means "between grapheme clusters", as LangChain's
 * `""` means "between characters"), or a named kind:
 * - `paragraph`: two consecutive line breaks, where a line break is `\r\n`, `\n` or `\r`
 *   (so `\n\n`, `\r\n\r\n`, `\r\r`); like LangChain's `\n\n` lookahead split, every
 *   position where two line breaks start is a split point.
 * - `line`: one line break (`\r\n` counts as one; never a cut between `\r` and `\n`).
 * - `sentence`: a sentence end, exactly: one whitespace character (or `\r\n`) that follows
 *   `.`, `!`, `?`, `…`, `。`, `！` or `？`, optionally with closing quotes or brackets
 *   (`"'’”»)]`) between; plus an empty match right after `。`, `！` or `？` (and closers) when
 *   no whitespace follows, since CJK text puts none. Abbreviations are not recognised here
 *   (the split only matters for pieces still too large, which are merged back).
 * - `grapheme`: between extended grapheme clusters (`Intl.Segmenter` granularity
 *   `grapheme`): the last resort, which never cuts an emoji with its modifier, a letter
 *   from its combining accent, or `\r\n`.
 */
export type Separator = string | { kind: SeparatorKind };

/** The default separators: paragraph, line, sentence end, space, grapheme cluster. */
export const DEFAULT_SEPARATORS: readonly Separator[] = Object.freeze([
  { kind: 'paragraph' },
  { kind: 'line' },
  { kind: 'sentence' },
  ' ',
  '',
] as Separator[]);

/** LangChain's default separators, for a drop-in `RecursiveCharacterTextSplitter`. */
export const LANGCHAIN_SEPARATORS: readonly string[] = Object.freeze(['\n\n', '\n', ' ', '']);

/**
 * Where a separator goes when text is split on it: `true` or `'start'` (default, as
 * LangChain JS): at the start of the piece after it; `'end'`: at the end of the piece
 * before it (LangChain Python's `keep_separator="end"`); `false`: in no piece, so a chunk
 * never starts or ends with it (it stays inside a chunk, which is an exact source slice).
 */
export type KeepSeparator = boolean | 'start' | 'end';

/** Options of {@link RecursiveChunker}. */
export interface RecursiveOptions extends UnitOptions {
  /** Budget per chunk in `unit`s, an integer ≥ 1. Default 512. */
  chunkSize?: number;
  /** Units consecutive merged chunks may share, an integer in [0, chunkSize). Default min(64, ⌊chunkSize/8⌋). */
  chunkOverlap?: number;
  /** Ordered separators, coarsest first. Default {@link DEFAULT_SEPARATORS}. */
  separators?: readonly Separator[];
  /** See {@link KeepSeparator}. Default `true`. */
  keepSeparator?: KeepSeparator;
}

const SEPARATOR_KINDS: readonly SeparatorKind[] = ['paragraph', 'line', 'sentence', 'grapheme'];

/** Sorted occurrences of a separator in the whole text: match [pos[i], pos[i] + len[i]). */
interface Occurrences {
  pos: Int32Array;
  len: Int32Array;
}

interface Span {
  start: number;
  end: number;
  count: number;
  oversized: boolean;
  level: number;
}

/** Length of the line break starting at `p` (2 for `\r\n`, 1 for `\n` or `\r`), else 0. */
function lineBreakAt(text: string, p: number): number {
  const c = text.charCodeAt(p);
  if (c === 13) return text.charCodeAt(p + 1) === 10 ? 2 : 1;
  if (c === 10) return p > 0 && text.charCodeAt(p - 1) === 13 ? 0 : 1; // the \n of \r\n is not a start
  return 0;
}

/** True when a cut at `p` would split `\r\n` or a surrogate pair. */
function badCut(text: string, p: number): boolean {
  if (p <= 0 || p >= text.length) return false;
  const a = text.charCodeAt(p - 1);
  const b = text.charCodeAt(p);
  return (a === 13 && b === 10) || (a >= 0xd800 && a <= 0xdbff && b >= 0xdc00 && b <= 0xdfff);
}

/** `。`, `！`, `？`: CJK sentence ends, which need no space after them. */
const isCjkMark = (c: number): boolean => c === 0x3002 || c === 0xff01 || c === 0xff1f;
/** `.`, `!`, `?`, `…` and the CJK marks. */
const isSentenceMark = (c: number): boolean => c === 0x2e || c === 0x21 || c === 0x3f || c === 0x2026 || isCjkMark(c);
/** Closing quotes and brackets that may follow a sentence mark: `"'’”»)]`. */
const isCloser = (c: number): boolean => c === 0x22 || c === 0x27 || c === 0x2019 || c === 0x201d || c === 0xbb || c === 0x29 || c === 0x5d;

/**
 * Splits text on an ordered list of separators, coarsest first, only where a piece is
 * still `chunkSize` units or more, and merges consecutive small pieces back into chunks
 * of at most `chunkSize` units that share up to `chunkOverlap` units: LangChain's
 * `RecursiveCharacterTextSplitter` algorithm, with budgets in characters (code points),
 * words or tokens (the foundation's units) and exact offsets.
 *
 * Each chunk is `source.slice(start, end)` with whitespace trimmed at both ends (what
 * LangChain's `.trim()` removes), so with `keepSeparator: true` and LangChain's
 * separators its text equals LangChain's chunk text. The budget is checked on the exact
 * emitted text (for tokens: the text re-encoded on its own); a chunk is over budget only
 * when one grapheme cluster alone is, and then it carries `metadata.oversized`.
 * Runs in time linear in the text for a fixed separator list (plus the overlap's repeats).
 *
 * @example
 * ```ts
 * const chunker = new RecursiveChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 200 });
 * for (const c of chunker.chunk(text)) console.log(c.start, c.end, c.text === text.slice(c.start, c.end));
 * ```
 * @throws {InvalidOptionError} at construction when chunkSize is not an integer ≥ 1,
 *   chunkOverlap is not an integer in [0, chunkSize), separators is not a non-empty array
 *   of strings and `{ kind }` objects, keepSeparator is not a boolean, `'start'` or `'end'`,
 *   or keepSeparator is false with a separator that holds non-whitespace (it would be lost).
 */
export class RecursiveChunker {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly separators: readonly Separator[];
  readonly keepSeparator: 'start' | 'end' | false;
  readonly unit: ResolvedUnits['unit'];
  readonly encoding: string;
  readonly #resolved: ResolvedUnits;
  /** Operations of the last `chunk` call (pieces measured, occurrences visited): for tests of linear time. */
  lastOperations = 0;

  constructor(options: RecursiveOptions = {}) {
    this.chunkSize = integerOption('chunkSize', options.chunkSize, 512);
    const defaultOverlap = Math.min(64, Math.floor(this.chunkSize / 8));
    this.chunkOverlap = integerOption('chunkOverlap', options.chunkOverlap, defaultOverlap, 0);
    if (this.chunkOverlap >= this.chunkSize) {
      throw new InvalidOptionError('chunkOverlap', this.chunkOverlap, `must be < chunkSize (${this.chunkSize})`);
    }
    const separators: unknown = options.separators ?? DEFAULT_SEPARATORS;
    if (!Array.isArray(separators) || separators.length === 0) {
      throw new InvalidOptionError('separators', separators, 'must be a non-empty array of strings and { kind } objects');
    }
    for (const s of separators) {
      const ok =
        typeof s === 'string' ||
        (typeof s === 'object' && s !== null && SEPARATOR_KINDS.includes((s as { kind: SeparatorKind }).kind));
      if (!ok) throw new InvalidOptionError('separators', s, `each must be a string or { kind: ${SEPARATOR_KINDS.join(' | ')} }`);
    }
    this.separators = separators as Separator[];
    const keep: unknown = options.keepSeparator ?? true;
    if (keep !== true && keep !== false && keep !== 'start' && keep !== 'end') {
      throw new InvalidOptionError('keepSeparator', keep, "must be true, false, 'start' or 'end'");
    }
    this.keepSeparator = keep === true ? 'start' : keep;
    if (this.keepSeparator === false) {
      for (const s of this.separators) {
        if (typeof s === 'string' && !isBlank(s)) {
          throw new InvalidOptionError('keepSeparator', false, `separator ${JSON.stringify(s)} holds non-whitespace text, which would be lost; use true, 'start' or 'end'`);
        }
      }
    }
    this.#resolved = resolveUnits(options);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
  }

  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks.
   * @param text the source; offsets are UTF-16 indices into it.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string): Chunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    const run = new RecursiveRun(text, this.separators, this.keepSeparator, this.chunkSize, this.chunkOverlap, this.#resolved);
    const spans = run.run();
    this.lastOperations = run.ops;
    const { units, tokenizer, countTokens, unit } = this.#resolved;
    const sourceHash = hashText(text);
    const chunks: Chunk[] = [];
    let prevEnd = 0;
    for (const s of spans) {
      const chunkText = text.slice(s.start, s.end);
      const index = chunks.length;
      chunks.push({
        id: chunkId(sourceHash, s.start, s.end),
        index,
        text: chunkText,
        start: s.start,
        end: s.end,
        tokenCount: unit === 'token' ? s.count : countTokens && tokenizer ? tokenizer.count(chunkText) : -1,
        metadata: {
          strategy: 'recursive',
          unit: units.name,
          unitCount: s.count,
          overlap: index === 0 ? 0 : Math.max(0, prevEnd - s.start),
          separatorLevel: s.level,
          ...(s.oversized ? { oversized: true } : {}),
        },
      });
      prevEnd = Math.max(prevEnd, s.end);
    }
    return chunks;
  }
}

/** One `chunk` call: occurrence tables are built lazily, once per separator. */
class RecursiveRun {
  ops = 0;
  readonly #occ: (Occurrences | undefined)[];
  readonly #out: Span[] = [];
  #graphemes: Intl.Segmenter | undefined;

  constructor(
    readonly text: string,
    readonly seps: readonly Separator[],
    readonly keep: 'start' | 'end' | false,
    readonly size: number,
    readonly overlap: number,
    readonly resolved: ResolvedUnits,
  ) {
    this.#occ = new Array(seps.length);
  }

  run(): Span[] {
    this.#split(0, this.text.length, 0);
    return this.#out;
  }

  #isGrapheme(i: number): boolean {
    const s = this.seps[i];
    return s === '' || (typeof s === 'object' && s.kind === 'grapheme');
  }

  /** Units of text[s, e), measured on that text alone. */
  #measure(s: number, e: number): number {
    this.ops += 1 + ((e - s) >> 6);
    if (this.resolved.unit === 'char') {
      let n = e - s;
      const t = this.text;
      for (let i = s; i < e - 1; i++) {
        const c = t.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff) {
          const d = t.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) {
            n--;
            i++;
          }
        }
      }
      return n;
    }
    return this.resolved.units.count(this.text.slice(s, e));
  }

  /** Occurrences of separator `i` (not the grapheme kind) in the whole text. */
  #occurrences(i: number): Occurrences {
    const cached = this.#occ[i];
    if (cached) return cached;
    const t = this.text;
    const pos: number[] = [];
    const len: number[] = [];
    const sep = this.seps[i];
    const add = (p: number, l: number): void => {
      // never cut inside \r\n or a surrogate pair
      if (badCut(t, p) || badCut(t, p + l)) return;
      pos.push(p);
      len.push(l);
    };
    if (typeof sep === 'string') {
      for (let p = t.indexOf(sep); p !== -1; p = t.indexOf(sep, p + 1)) add(p, sep.length);
    } else if (sep.kind === 'line' || sep.kind === 'paragraph') {
      for (let p = 0; p < t.length; p++) {
        const c = t.charCodeAt(p);
        if (c !== 10 && c !== 13) continue;
        const l1 = lineBreakAt(t, p);
        if (l1 === 0) continue;
        if (sep.kind === 'line') add(p, l1);
        else {
          const l2 = lineBreakAt(t, p + l1);
          if (l2 > 0) add(p, l1 + l2);
        }
      }
    } else {
      // sentence ends
      for (let p = 0; p < t.length; p++) {
        const ch = t.charCodeAt(p);
        if (!isSentenceMark(ch)) continue;
        let q = p + 1;
        while (q < t.length && isCloser(t.charCodeAt(q))) q++;
        if (q >= t.length) continue;
        const c = t.charCodeAt(q);
        if (c === 13 && t.charCodeAt(q + 1) === 10) add(q, 2);
        else if (isSpace(c)) add(q, 1);
        else if (isCjkMark(ch)) add(q, 0);
        p = q - 1;
      }
    }
    this.ops += t.length >> 6;
    const occ = { pos: Int32Array.from(pos), len: Int32Array.from(len) };
    this.#occ[i] = occ;
    return occ;
  }

  /** Index of the first occurrence at or after `s`. */
  #lowerBound(occ: Occurrences, s: number): number {
    let lo = 0;
    let hi = occ.pos.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (occ.pos[mid] < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** True when separator `i` occurs wholly inside [s, e) (LangChain's `text.includes(separator)`). */
  #occursIn(i: number, s: number, e: number): boolean {
    const occ = this.#occurrences(i);
    for (let k = this.#lowerBound(occ, s); k < occ.pos.length && occ.pos[k] < e; k++) {
      this.ops++;
      if (occ.pos[k] + occ.len[k] <= e) return true;
    }
    return false;
  }

  /** Pieces of [s, e) split on separator `i`, as [start, end) pairs and gaps before each. */
  #pieces(i: number, s: number, e: number): { starts: number[]; ends: number[] } {
    const starts: number[] = [];
    const ends: number[] = [];
    if (this.#isGrapheme(i)) return this.#graphemePieces(s, e);
    const occ = this.#occurrences(i);
    let cursor = s;
    for (let k = this.#lowerBound(occ, s); k < occ.pos.length && occ.pos[k] < e; k++) {
      this.ops++;
      const p = occ.pos[k];
      const q = p + occ.len[k];
      if (q > e) continue;
      if (this.keep === 'start') {
        // lookahead split: every occurrence after the start is a cut (overlapping ones too)
        if (p > cursor) {
          starts.push(cursor);
          ends.push(p);
          cursor = p;
        }
      } else {
        if (p < cursor) continue; // non-overlapping matches, as String.split
        if (this.keep === 'end') {
          if (q > cursor && q < e) {
            starts.push(cursor);
            ends.push(q);
            cursor = q;
          }
        } else {
          if (p > cursor) {
            starts.push(cursor);
            ends.push(p);
          }
          cursor = q;
          if (occ.len[k] === 0) continue;
        }
      }
    }
    if (cursor < e) {
      starts.push(cursor);
      ends.push(e);
    }
    return { starts, ends };
  }

  /**
   * LangChain's `_splitText` over [s, e) with separators from `level` on: the first
   * separator that occurs in the range splits it; pieces under the budget are merged,
   * larger ones split again with the separators after it. Where no separator occurs (or
   * the list is used up) the range is split into grapheme clusters, the last resort.
   */
  #split(s: number, e: number, level: number): void {
    let sep = -1; // -1: grapheme clusters
    let terminal = true;
    for (let i = level; i < this.seps.length; i++) {
      if (this.#isGrapheme(i)) {
        sep = i;
        break;
      }
      if (this.#occursIn(i, s, e)) {
        sep = i;
        terminal = false;
        break;
      }
    }
    const { starts, ends } = sep === -1 ? this.#graphemePieces(s, e) : this.#pieces(sep, s, e);
    const next = terminal ? this.seps.length : sep + 1;
    const lens = new Array<number>(starts.length);
    let goodFrom = -1;
    for (let k = 0; k < starts.length; k++) {
      lens[k] = this.#measure(starts[k], ends[k]);
      if (lens[k] < this.size) {
        if (goodFrom === -1) goodFrom = k;
        continue;
      }
      if (goodFrom !== -1) {
        this.#merge(starts, ends, lens, goodFrom, k, sep, next);
        goodFrom = -1;
      }
      if (terminal) this.#emitWhole(starts[k], ends[k], lens[k], sep);
      else this.#split(starts[k], ends[k], next);
    }
    if (goodFrom !== -1) this.#merge(starts, ends, lens, goodFrom, starts.length, sep, next);
  }

  #graphemePieces(s: number, e: number): { starts: number[]; ends: number[] } {
    this.#graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
    const starts: number[] = [];
    const ends: number[] = [];
    for (const g of this.#graphemes.segment(this.text.slice(s, e))) {
      this.ops++;
      starts.push(s + g.index);
      ends.push(s + g.index + g.segment.length);
    }
    return { starts, ends };
  }

  /** A piece that cannot be split further: one chunk, flagged when over budget. */
  #emitWhole(s: number, e: number, count: number, level: number): void {
    const [ts, te] = this.#trim(s, e);
    if (ts >= te) return;
    const c = ts === s && te === e ? count : this.#measure(ts, te);
    this.#out.push({ start: ts, end: te, count: c, oversized: c > this.size, level });
  }

  /** [s, e) without whitespace at either end (String.prototype.trim's set). */
  #trim(s: number, e: number): [number, number] {
    const t = this.text;
    while (s < e && isSpace(t.charCodeAt(s))) s++;
    while (e > s && isSpace(t.charCodeAt(e - 1))) e--;
    return [s, e];
  }

  /**
   * LangChain's `mergeSplits` over pieces [from, to): pieces are added to the current
   * chunk while its size stays ≤ chunkSize; on overflow the chunk is emitted and pieces
   * leave its front until it is ≤ chunkOverlap and the next piece fits.
   */
  #merge(starts: number[], ends: number[], lens: number[], from: number, to: number, level: number, next: number): void {
    // P[k] = size of pieces [from, from + k) including the separators between them
    const n = to - from;
    const P = new Float64Array(n + 1);
    const gap = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const i = from + k;
      gap[k] = k > 0 && this.keep === false && starts[i] > ends[i - 1] ? this.#measure(ends[i - 1], starts[i]) : 0;
      P[k + 1] = P[k] + gap[k] + lens[i];
    }
    const est = (a: number, b: number): number => P[b + 1] - P[a] - gap[a];
    let a = 0;
    for (let i = 0; i < n; i++) {
      this.ops++;
      if (a < i && est(a, i) > this.size) {
        this.#emitDoc(starts, ends, from + a, from + i - 1, level, next);
        while (a < i && (est(a, i - 1) > this.overlap || (est(a, i) > this.size && est(a, i - 1) > 0))) a++;
      }
    }
    if (a < n) this.#emitDoc(starts, ends, from + a, from + n - 1, level, next);
  }

  /** Emits pieces [a, b] as one chunk, checking the budget on the exact trimmed text. */
  #emitDoc(starts: number[], ends: number[], a: number, b: number, level: number, next: number): void {
    while (a <= b) {
      const [s, e] = this.#trim(starts[a], ends[b]);
      if (s >= e) return;
      const count = this.#measure(s, e);
      if (count <= this.size) {
        this.#out.push({ start: s, end: e, count, oversized: false, level });
        return;
      }
      // Over budget only when the units of the joined text exceed the pieces' sum (BPE
      // merging across a join): a single piece goes one level finer; otherwise emit the
      // longest prefix of pieces that fits and go on after it.
      if (a === b) {
        if (next < this.seps.length) this.#split(starts[a], ends[a], next);
        else this.#out.push({ start: s, end: e, count, oversized: true, level });
        return;
      }
      let lo = a;
      let hi = b - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        const [ms, me] = this.#trim(starts[a], ends[mid]);
        if (this.#measure(ms, me) <= this.size) lo = mid;
        else hi = mid - 1;
      }
      this.#emitDoc(starts, ends, a, lo, level, next);
      a = lo + 1;
    }
  }
}
