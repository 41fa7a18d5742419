/**
 * Separator boundaries: where an ordered list of separators (paragraph, line, sentence
 * end, space, grapheme — or any literal strings) may cut a text, found once per
 * separator over the whole text and binary-searched per piece. The boundary source of
 * the recursive strategy (and of any strategy that falls back to it). Line breaks
 * (`\r\n`, `\n`, `\r`) are handled here, in one place. Core module.
 *
 * Source: LangChain's `RecursiveCharacterTextSplitter` (@langchain/textsplitters 1.0.2,
 * `_splitText` / `splitOnSeparator`), whose splitting rules the literal separators follow
 * exactly, CRLF included.
 * @module
 */
import { isSpace } from '../text.js';
import { graphemeBounds } from './graphemes.js';

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
 * - `grapheme`: between extended grapheme clusters: the last resort, which never cuts an
 *   emoji with its modifier, a letter from its combining accent, or `\r\n`.
 *
 * A literal string matches wherever it occurs, as LangChain's does — `"\n"` also between
 * the `\r` and `\n` of a CRLF (chunks are trimmed, so no chunk starts or ends there).
 */
export type Separator = string | { kind: SeparatorKind };

/** The separator kinds. */
export const SEPARATOR_KINDS: readonly SeparatorKind[] = ['paragraph', 'line', 'sentence', 'grapheme'];

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
 * Where a separator goes when text is split on it: `'start'` (LangChain JS's
 * `keepSeparator: true`): at the start of the piece after it; `'end'` (LangChain Python's
 * `keep_separator="end"`): at the end of the piece before it; `false`: in no piece.
 */
export type SeparatorPlacement = 'start' | 'end' | false;

/** Pieces of a range: `[starts[k], ends[k])`, in order. */
export interface Pieces {
  starts: Int32Array;
  ends: Int32Array;
  count: number;
}

/** Arrays {@link SeparatorIndex.pieces} may write pieces into (replaced by larger ones where they are too short), instead of allocating two per call. */
export interface PieceScratch {
  starts: Int32Array;
  ends: Int32Array;
}

/** Length of the line break starting at `p` (2 for `\r\n`, 1 for `\n` or `\r`), else 0. */
function lineBreakAt(text: string, p: number): number {
  const c = text.charCodeAt(p);
  if (c === 13) return text.charCodeAt(p + 1) === 10 ? 2 : 1;
  if (c === 10) return p > 0 && text.charCodeAt(p - 1) === 13 ? 0 : 1; // the \n of \r\n is not a start
  return 0;
}

/** True when a cut at `p` would split a surrogate pair. */
function splitsPair(text: string, p: number): boolean {
  if (p <= 0 || p >= text.length) return false;
  const a = text.charCodeAt(p - 1);
  const b = text.charCodeAt(p);
  return a >= 0xd800 && a <= 0xdbff && b >= 0xdc00 && b <= 0xdfff;
}

/** `。`, `！`, `？`: CJK sentence ends, which need no space after them. */
const isCjkMark = (c: number): boolean => c === 0x3002 || c === 0xff01 || c === 0xff1f;
/** `.`, `!`, `?`, `…` and the CJK marks. */
const isSentenceMark = (c: number): boolean => c === 0x2e || c === 0x21 || c === 0x3f || c === 0x2026 || isCjkMark(c);
/** A needle's first occurrence (`at`, −1: none) at or after the position `from` it was looked for from. */
interface Occurrence {
  at: number;
  from: number;
}

/**
 * Makes `m` the first occurrence of `needle` in `text` at or after `p`, by `indexOf` only
 * where the remembered one does not answer (looked for from after `p`, or lying before
 * it), so scans for one needle over a text move forward only.
 * @returns the code units scanned (0 when the remembered answer held).
 */
function seek(text: string, needle: string, m: Occurrence, p: number): number {
  if (p >= m.from && (m.at === -1 || m.at >= p)) return 0;
  m.at = text.indexOf(needle, p);
  m.from = p;
  return (m.at === -1 ? text.length : m.at) - p + 1;
}

/** The characters {@link isSentenceMark} accepts. */
const SENTENCE_MARKS: readonly string[] = ['.', '!', '?', '\u2026', '\u3002', '\uff01', '\uff1f'];
/** Closing quotes and brackets that may follow a sentence mark: `"'’”»)]`. */
const isCloser = (c: number): boolean => c === 0x22 || c === 0x27 || c === 0x2019 || c === 0x201d || c === 0xbb || c === 0x29 || c === 0x5d;

/** True for the grapheme separator (`""` or `{ kind: 'grapheme' }`). */
export function isGraphemeSeparator(s: Separator): boolean {
  return s === '' || (typeof s === 'object' && s.kind === 'grapheme');
}

/**
 * Occurrences of one separator, found lazily: a window of occurrences over
 * `[from, scanned)` extended forward as ranges are asked for. The packer visits ranges in
 * text order (depth first, left to right), so each separator's scan moves forward only
 * and costs O(n) per text however many ranges ask; a range before the window restarts it.
 */
class Finder {
  pos = new Int32Array(16);
  len = new Int32Array(16);
  count = 0;
  from = 0;
  scanned = 0;
  /** First occurrence start at or after `scanned` (-1: none to the end; -2: not looked for). */
  next = -2;
  nextLen = 0;

  constructor(
    readonly text: string,
    /** The start of the first occurrence at or after p (its length in `found.len`), or -1. */
    readonly find: (p: number, found: { len: number }) => number,
    /** A literal separator that can never split a surrogate pair: found by `indexOf` directly. */
    readonly literal?: string,
  ) {}

  /** Length of the last occurrence `find` returned. */
  readonly found = { len: 0 };

  #push(p: number, l: number): void {
    if (this.count === this.pos.length) {
      const p2 = new Int32Array(this.count * 2);
      p2.set(this.pos);
      this.pos = p2;
      const l2 = new Int32Array(this.count * 2);
      l2.set(this.len);
      this.len = l2;
    }
    this.pos[this.count] = p;
    this.len[this.count] = l;
    this.count++;
  }

  /**
   * Makes the window hold every occurrence starting in [s, e) (invariant: the window holds
   * every occurrence starting in [from, scanned), and `next` is the first one at or after
   * `scanned`). Returns the steps taken.
   */
  cover(s: number, e: number): number {
    let steps = 0;
    if (s < this.from) {
      this.next = -2;
      this.count = 0;
      this.from = this.scanned = s;
    } else if (s >= this.scanned) {
      // `next` stays valid: the first occurrence at or after the old scan end is also the first at or after s, unless it lies before s
      if (this.next >= 0 && this.next < s) this.next = -2;
      this.count = 0;
      this.from = this.scanned = s;
    }
    const literal = this.literal;
    if (literal !== undefined) return steps + this.#coverLiteral(literal, e);
    while (this.scanned < e) {
      steps++;
      if (this.next === -2) {
        this.next = this.find(this.scanned, this.found);
        this.nextLen = this.found.len;
      }
      if (this.next === -1 || this.next >= e) {
        this.scanned = e;
        break;
      }
      this.#push(this.next, this.nextLen);
      this.scanned = this.next + 1;
      this.next = -2;
    }
    return steps;
  }

  /**
   * {@link cover}'s scan for a literal: `indexOf` from occurrence to occurrence, the
   * window's fields held in locals (a word-level split visits every space of a text, and
   * the loop over the fields cost about as much again as the `indexOf` calls).
   */
  #coverLiteral(literal: string, e: number): number {
    const text = this.text;
    const l = literal.length;
    let pos = this.pos;
    let len = this.len;
    let count = this.count;
    let scanned = this.scanned;
    let next = this.next;
    let steps = 0;
    while (scanned < e) {
      steps++;
      if (next === -2) next = text.indexOf(literal, scanned);
      if (next === -1 || next >= e) {
        scanned = e;
        break;
      }
      if (count === pos.length) {
        const p2 = new Int32Array(count * 2);
        p2.set(pos);
        const l2 = new Int32Array(count * 2);
        l2.set(len);
        this.pos = pos = p2;
        this.len = len = l2;
      }
      pos[count] = next;
      len[count] = l;
      count++;
      scanned = next + 1;
      next = -2;
    }
    this.count = count;
    this.scanned = scanned;
    this.next = next;
    this.nextLen = l;
    return steps;
  }

  /** Index in the window of the first occurrence at or after `s`. */
  lowerBound(s: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.pos[mid] < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * The separators of one text: each separator's occurrences found lazily, scanning
 * forward (see {@link Finder}); pieces of any range by binary search. `ops` counts the
 * work (entries visited, scan steps, characters the line-break search scanned), for
 * linear-time tests.
 */
export class SeparatorIndex {
  ops = 0;
  readonly #finders: (Finder | undefined)[];
  /** Per {@link cutUnit} separator: its first occurrence at or after `from` (see {@link nextCut}). */
  readonly #cuts: (Occurrence | undefined)[] = [];

  constructor(
    readonly text: string,
    readonly separators: readonly Separator[],
    readonly placement: SeparatorPlacement,
  ) {
    this.#finders = new Array(separators.length);
  }

  /** The finder of separator `i` (not the grapheme kind). */
  #finder(i: number): Finder {
    const cached = this.#finders[i];
    if (cached) return cached;
    const t = this.text;
    const n = t.length;
    const sep = this.separators[i];
    const ok = (p: number, l: number, found: { len: number }): number => {
      if (splitsPair(t, p) || splitsPair(t, p + l)) return -1;
      found.len = l;
      return p;
    };
    let find: (p: number, found: { len: number }) => number;
    if (typeof sep === 'string') {
      find = (p, found) => {
        for (let q = t.indexOf(sep, p); q !== -1; q = t.indexOf(sep, q + 1)) if (ok(q, sep.length, found) >= 0) return q;
        return -1;
      };
    } else if (sep.kind === 'line' || sep.kind === 'paragraph') {
      // the next line break: the nearer of the next \n and the next \r, each remembered
      // with the position it was looked for from, so a text of only one kind (CR-only
      // lines, or LF-only) scans for the other once, not once per break
      const nl = { at: -1, from: Infinity };
      const cr = { at: -1, from: Infinity };
      const after = (c: { at: number; from: number }, ch: string, p: number): number => {
        if (p < c.from || (c.at !== -1 && c.at < p)) {
          c.at = t.indexOf(ch, p);
          c.from = p;
          this.ops += (c.at === -1 ? n : c.at) - p; // characters scanned
        }
        return c.at;
      };
      const nextBreak = (p: number): number => {
        const a = after(nl, '\n', p);
        const b = after(cr, '\r', p);
        return b === -1 ? a : a === -1 ? b : Math.min(a, b);
      };
      find = (p, found) => {
        for (let q = nextBreak(p); q !== -1; q = nextBreak(q + 1)) {
          const l1 = lineBreakAt(t, q);
          if (l1 === 0) continue;
          if (sep.kind === 'line') return ok(q, l1, found);
          const l2 = lineBreakAt(t, q + l1);
          if (l2 > 0) return ok(q, l1 + l2, found);
        }
        return -1;
      };
    } else {
      // sentence ends: the whitespace (or empty match, after CJK marks) following a mark and closers
      const after = (p: number, found: { len: number }): number => {
        const ch = t.charCodeAt(p);
        let q = p + 1;
        while (q < n && isCloser(t.charCodeAt(q))) q++;
        if (q >= n) return -1;
        // (no surrogate check: the match follows a mark or closer and is whitespace or empty, so it can never cut a pair)
        const c = t.charCodeAt(q);
        if (c === 13 && t.charCodeAt(q + 1) === 10) found.len = 2;
        else if (isSpace(c)) found.len = 1;
        else if (isCjkMark(ch)) found.len = 0;
        else return -1;
        return q;
      };
      // an occurrence at P may follow a mark (and closers) before P: start the search there;
      // the next mark is the nearest of each mark's next `indexOf`, each remembered with
      // the position it was looked for from (as the line breaks' are), so `.` is searched
      // for once per occurrence, and a mark the whole text lacks is left out (most texts
      // hold one or two of the seven): a native scan without a regular expression's call
      // per mark (the sentence level of 200,000 characters of finance.md: 0.49 → 0.36 ms)
      const marks = SENTENCE_MARKS.filter((ch) => t.includes(ch)).map((ch) => ({ ch, at: -1, from: Infinity }));
      const nextMark = (p: number): number => {
        let best = -1;
        for (const m of marks) {
          seek(t, m.ch, m, p);
          if (m.at !== -1 && (best === -1 || m.at < best)) best = m.at;
        }
        return best;
      };
      find = (P, found) => {
        let p0 = P;
        while (p0 > 0 && isCloser(t.charCodeAt(p0 - 1))) p0--;
        if (p0 > 0 && isSentenceMark(t.charCodeAt(p0 - 1))) p0--;
        for (let m = nextMark(p0); m !== -1; m = nextMark(m + 1)) {
          const q = after(m, found);
          if (q >= P) return q;
        }
        return -1;
      };
    }
    // a literal can split a pair only if it starts with a low or ends with a high surrogate
    const plain =
      typeof sep === 'string' &&
      sep.length > 0 &&
      !(sep.charCodeAt(0) >= 0xdc00 && sep.charCodeAt(0) <= 0xdfff) &&
      !(sep.charCodeAt(sep.length - 1) >= 0xd800 && sep.charCodeAt(sep.length - 1) <= 0xdbff);
    const finder = new Finder(t, find, plain ? (sep as string) : undefined);
    this.#finders[i] = finder;
    return finder;
  }

  /**
   * The code unit of separator `i` when it is a literal of one code unit that is not a
   * surrogate (`' '`, `'\n'`), which {@link nextCut} and {@link lastCut} find; else -1.
   */
  cutUnit(i: number): number {
    const sep = this.separators[i];
    if (typeof sep !== 'string' || sep.length !== 1) return -1;
    const c = sep.charCodeAt(0);
    return c >= 0xd800 && c <= 0xdfff ? -1 : c;
  }

  /**
   * The first occurrence at or after `p` of separator `i` (a {@link cutUnit}), or -1.
   * Remembered with the position it was looked for from, so asking again from a later
   * position before the answer costs nothing, and a text's scans move forward only.
   */
  nextCut(i: number, p: number): number {
    let m = this.#cuts[i];
    if (!m) this.#cuts[i] = m = { at: -1, from: Infinity };
    this.ops += seek(this.text, this.separators[i] as string, m, p); // characters scanned
    return m.at;
  }

  /**
   * The last occurrence of separator `i` (a {@link cutUnit}) in (floor, p], or `floor`
   * when none: `floor` must be an occurrence itself or lie before the first one after it
   * is looked for (the scan back never passes it).
   */
  lastCut(i: number, floor: number, p: number): number {
    const text = this.text;
    if (text.charCodeAt(floor) !== this.cutUnit(i)) {
      const first = this.nextCut(i, floor + 1);
      if (first === -1 || first > p) return floor;
    }
    const q = text.lastIndexOf(this.separators[i] as string, p);
    this.ops += p - q + 1; // characters scanned
    return q > floor ? q : floor;
  }

  /** True when separator `i` occurs wholly inside [s, e) (LangChain's `text.includes(separator)`). */
  occursIn(i: number, s: number, e: number): boolean {
    if (this.cutUnit(i) >= 0) {
      // the first occurrence from s on answers it (no list of the range's occurrences)
      const q = this.nextCut(i, s);
      return q !== -1 && q < e;
    }
    const f = this.#finder(i);
    const steps = f.cover(s, e); // (cover may add to ops itself: read ops after it)
    this.ops += steps;
    for (let k = f.lowerBound(s); k < f.count && f.pos[k] < e; k++) {
      this.ops++;
      if (f.pos[k] + f.len[k] <= e) return true;
    }
    return false;
  }

  /**
   * The separator LangChain's `_splitText` picks for [s, e) from `level` on: the first
   * that occurs inside the range, or the grapheme kind when it comes first; -1 when none
   * occurs (then the range is split into grapheme clusters, chunkwise's last resort).
   */
  choose(level: number, s: number, e: number): number {
    for (let i = level; i < this.separators.length; i++) {
      if (isGraphemeSeparator(this.separators[i])) return i;
      if (this.occursIn(i, s, e)) return i;
    }
    return -1;
  }

  /**
   * Pieces of [s, e) split on separator `i` (-1 or the grapheme kind: grapheme clusters).
   * @param scratch where the pieces of a separator go (grown as needed); default new arrays.
   */
  pieces(i: number, s: number, e: number, scratch?: PieceScratch): Pieces {
    if (i < 0 || isGraphemeSeparator(this.separators[i])) {
      const b = graphemeBounds(this.text, s, e);
      this.ops += b.length;
      const count = Math.max(0, b.length - 1);
      return { starts: b.subarray(0, count), ends: b.subarray(1), count };
    }
    const f = this.#finder(i);
    const steps = f.cover(s, e); // (cover may add to ops itself: read ops after it)
    this.ops += steps;
    const first = f.lowerBound(s);
    let last = first;
    while (last < f.count && f.pos[last] < e) last++;
    // at most one piece per occurrence, plus the last
    const most = last - first + 1;
    let starts: Int32Array;
    let ends: Int32Array;
    if (!scratch) {
      starts = new Int32Array(most);
      ends = new Int32Array(most);
    } else {
      if (scratch.starts.length < most) {
        const m = Math.max(most, 2 * scratch.starts.length);
        scratch.starts = new Int32Array(m);
        scratch.ends = new Int32Array(m);
      }
      starts = scratch.starts;
      ends = scratch.ends;
    }
    let count = 0;
    const keep = this.placement;
    let cursor = s;
    for (let k = first; k < last; k++) {
      this.ops++;
      const p = f.pos[k];
      const q = p + f.len[k];
      if (q > e) continue;
      if (keep === 'start') {
        // lookahead split: every occurrence after the start is a cut (overlapping ones too)
        if (p > cursor) {
          starts[count] = cursor;
          ends[count++] = p;
          cursor = p;
        }
      } else {
        if (p < cursor) continue; // non-overlapping matches, as String.split
        if (keep === 'end') {
          if (q > cursor && q < e) {
            starts[count] = cursor;
            ends[count++] = q;
            cursor = q;
          }
        } else {
          if (p > cursor) {
            starts[count] = cursor;
            ends[count++] = p;
          }
          cursor = q;
        }
      }
    }
    if (cursor < e) {
      starts[count] = cursor;
      ends[count++] = e;
    }
    return { starts, ends, count };
  }
}
