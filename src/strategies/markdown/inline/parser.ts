/**
 * The inline parser of Markdown content: one pass over the text that pushes text
 * pieces, hands each construct's first character to its module in this folder, and
 * resolves emphasis at the end. See `../inline.ts` for what it computes. Core module.
 * @module
 */
import type { InlineContext } from '../inline.js';
import { isAsciiPunct, isAtext, isLineEnd, isSpaceTab } from '../chars.js';
import { attentionRun, emphasis } from './attention.js';
import { angle } from './autolink.js';
import { characterReference } from './character-reference.js';
import { codeSpan } from './code-text.js';
import { literal, mayStartLiteral } from './gfm-autolink-literal.js';
import { labelEnd, labelStart } from './link.js';

/** A delimiter run of `*`, `_` or `~`. */
export interface Delim {
  /** Index of its text piece in `out`. */
  piece: number;
  ch: number;
  /** Markers left. */
  count: number;
  canOpen: boolean;
  canClose: boolean;
  prev: Delim | null;
  next: Delim | null;
}

/** An open `[` or `![`. */
export interface Bracket {
  piece: number;
  /** Position after the bracket. */
  pos: number;
  image: boolean;
  active: boolean;
  /** The delimiter on top of the stack when the bracket was opened. */
  delim: Delim | null;
  prev: Bracket | null;
}

/** Thrown when a parse runs past its step budget. */
export class BudgetError extends Error {}

/**
 * The inline parser's state over one content string: the output pieces, the text not
 * yet pushed, the delimiter and bracket stacks, the step budget. Its members are the
 * construct modules' to read and drive (`attention.ts`, `link.ts`, …).
 */
export class InlineParser {
  readonly out: string[] = [];
  unresolved = false;
  pending = '';
  delims: Delim | null = null;
  brackets: Bracket | null = null;
  /** Parse steps taken (work counting for linear-time tests). */
  steps = 0;
  /** The kind of the first delimiter run: 126 (`~`), 42 (`*` or `_`), or 0. */
  firstKind = 0;
  readonly budget: number;
  /** Backtick runs by length: positions, and a cursor per length. */
  ticks: Map<number, number[]> | undefined;
  tickCursor: Map<number, number> | undefined;
  /** Per terminator string: a position from which it does not occur (or -1: not known). */
  absent: Map<string, number> | undefined;

  constructor(
    readonly s: string,
    readonly ctx: InlineContext,
  ) {
    this.budget = 48 * s.length + 4096;
  }

  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.budget) throw new BudgetError();
  }

  flush(): void {
    if (this.pending) {
      this.out.push(this.pending);
      this.pending = '';
    }
  }

  /** Pushes a piece of its own (a delimiter run or bracket), returning its index. */
  piece(text: string): number {
    this.flush();
    this.out.push(text);
    return this.out.length - 1;
  }

  parse(): string {
    const s = this.s;
    const n = s.length;
    let i = 0;
    while (i < n) {
      this.step();
      const c = s.charCodeAt(i);
      if (isAtext(c) && mayStartLiteral(this, i)) {
        const e = literal(this, i);
        if (e > 0) {
          this.piece(s.slice(i, e));
          i = e;
          continue;
        }
      }
      const construct = c < 128 ? TEXT[c] : undefined;
      if (construct) {
        i = construct(this, i, c);
        continue;
      }
      // a run of ordinary characters, up to a special one or where a literal autolink may start
      let j = i + 1;
      while (j < n && !isSpecial(s.charCodeAt(j)) && !(isAtext(s.charCodeAt(j)) && mayStartLiteral(this, j))) j++;
      this.step(j - i);
      this.pending += s.slice(i, j);
      i = j;
    }
    this.flush();
    emphasis(this, null);
    return this.out.join('');
  }

  /** After a line ending at `i` (CRLF as one): the next line's leading spaces skipped. */
  lineEnd(i: number, hard: boolean): number {
    const s = this.s;
    i += s.charCodeAt(i) === 13 && s.charCodeAt(i + 1) === 10 ? 2 : 1;
    if (!hard) this.pending += '\n';
    while (i < s.length && isSpaceTab(s.charCodeAt(i))) i++;
    return i;
  }

  /** First occurrence of `needle` at or after `from`, remembering where there is none. */
  find(needle: string, from: number): number {
    const none = this.absent?.get(needle);
    if (none !== undefined && from >= none) return -1;
    const at = this.s.indexOf(needle, from);
    this.step((at < 0 ? this.s.length : at) - from);
    if (at < 0) (this.absent ??= new Map()).set(needle, from);
    return at;
  }

}

/** A construct at `i` (starting with code unit `c`): what it reads, pushed to the parser; returns the position after it. */
type TextConstruct = (p: InlineParser, i: number, c: number) => number;

/** A backslash: an escape, a hard line break, or itself. */
function backslash(p: InlineParser, i: number): number {
  const s = p.s;
  const d = s.charCodeAt(i + 1);
  if (i + 1 < s.length && isAsciiPunct(d)) {
    p.piece(s[i + 1]);
    return i + 2;
  }
  if (isLineEnd(d)) return p.lineEnd(i + 1, true);
  p.pending += '\\';
  return i + 1;
}

/** `!`: an image's `![`, or itself. */
function bang(p: InlineParser, i: number): number {
  if (p.s.charCodeAt(i + 1) === 91) return labelStart(p, i, true);
  p.pending += '!';
  return i + 1;
}

/** A line ending: soft, or hard when two or more spaces precede it. */
function lineEnding(p: InlineParser, i: number): number {
  let sp = 0;
  while (sp < p.pending.length && p.pending.charCodeAt(p.pending.length - 1 - sp) === 32) sp++;
  p.pending = p.pending.slice(0, p.pending.length - sp);
  return p.lineEnd(i, sp >= 2);
}

/** The construct each special character starts, by code unit (micromark's `text` constructs); other characters are ordinary text. */
const TEXT: (TextConstruct | undefined)[] = new Array<TextConstruct | undefined>(128).fill(undefined);
TEXT[92] = backslash;
TEXT[96] = codeSpan;
TEXT[60] = angle;
TEXT[38] = characterReference;
TEXT[42] = TEXT[95] = TEXT[126] = attentionRun;
TEXT[91] = (p, i) => labelStart(p, i, false);
TEXT[33] = bang;
TEXT[93] = labelEnd;
TEXT[10] = TEXT[13] = lineEnding;

/** Characters that end a run of ordinary text. */
export function isSpecial(c: number): boolean {
  return c === 92 || c === 96 || c === 60 || c === 38 || c === 42 || c === 95 || c === 126 || c === 91 || c === 33 || c === 93 || c === 10 || c === 13;
}
