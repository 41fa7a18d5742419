/**
 * Plain text of Markdown inline content (a heading, a table header cell): what
 * mdast-util-to-string gives for the mdast of that content — code spans without their
 * backticks, emphasis and strikethrough without their markers, links and images by their
 * text, `[label]` a link only when a definition of `label` exists, escapes, entities and
 * numeric character references decoded, raw HTML and autolinks kept as written, footnote
 * calls (GFM) dropped, hard line breaks dropped — without building a tree.
 *
 * Source: the CommonMark spec 0.31.2 (§6 "Inlines": code spans, emphasis with the
 * delimiter-run algorithm of its appendix, links, autolinks, raw HTML, hard breaks) and
 * the micromark extensions chunkwise used before (`micromark-extension-gfm-strikethrough`:
 * `~` and `~~`; `micromark-extension-gfm-footnote`: `[^label]`), whose choices it follows
 * where they differ from commonmark.js (a rule-of-three check on the runs' remaining
 * lengths; `*`, `_` and `~` counting as openers before another marker). Named entities:
 * the HTML table of `character-entities` (what micromark decodes with).
 *
 * Linear time: code spans find their closing run through an index of backtick runs, the
 * delimiter stack keeps CommonMark's `openers_bottom`, searches for a comment / CDATA /
 * instruction end remember where none exists; and every parse has a budget of 48 steps
 * per code unit (plus 4096): past it the parse stops and the text is the source with
 * whitespace collapsed (only adversarial input — thousands of unclosed link
 * destinations in one heading — gets there). Core module.
 * @module
 */
import { characterEntities } from 'character-entities';

/** Definitions known to the document: normalized labels ({@link normalizeLabel}). */
export interface InlineContext {
  readonly definitions: ReadonlySet<string>;
  readonly footnotes: ReadonlySet<string>;
}

/** What {@link inlineText} found. */
export interface InlineText {
  /** The plain text, whitespace runs as one space, trimmed. */
  text: string;
  /**
   * A `[label]` (or `[^label]`) looked up a definition that does not exist: a definition
   * added later in the document would change this text.
   */
  unresolved: boolean;
  /** Parse steps taken (work counting for linear-time tests). */
  steps: number;
}

/**
 * A link label as definitions are matched (micromark's `normalizeIdentifier`): runs of
 * spaces, tabs and line endings as one space, trimmed, case-folded.
 */
export function normalizeLabel(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase()
    .toUpperCase();
}

const PUNCT = /[\p{P}\p{S}]/u;
const SPACE = /\s/;
/** ASCII punctuation (what a backslash escapes). */
export const isAsciiPunct = (c: number): boolean => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlnum = (c: number): boolean => isAlpha(c) || (c >= 48 && c <= 57);
const isLineEnd = (c: number): boolean => c === 10 || c === 13;
const isSpaceTab = (c: number): boolean => c === 32 || c === 9;

/**
 * micromark's `classifyCharacter` of the code unit at `i` (micromark classifies UTF-16
 * code units, so half of a surrogate pair is "other"): 1 whitespace (or none), 2
 * punctuation, 0 other.
 */
function classify(s: string, i: number): number {
  if (i < 0 || i >= s.length) return 1;
  const c = s.charCodeAt(i);
  if (c < 128) {
    if (c <= 32) return c === 32 || (c >= 9 && c <= 13) ? 1 : 0;
    return isAsciiPunct(c) ? 2 : 0;
  }
  if (c >= 0xd800 && c <= 0xdfff) return 0;
  const ch = s[i];
  if (SPACE.test(ch)) return 1;
  return PUNCT.test(ch) ? 2 : 0;
}

/** Decodes a numeric character reference as micromark does (invalid code points → U+FFFD). */
function decodeNumeric(value: string, base: number): string {
  const code = Number.parseInt(value, base);
  if (
    code < 9 ||
    code === 11 ||
    (code > 13 && code < 32) ||
    (code > 126 && code < 160) ||
    (code > 55295 && code < 57344) ||
    (code > 64975 && code < 65008) ||
    (code & 65535) === 65535 ||
    (code & 65535) === 65534 ||
    code > 1114111
  ) {
    return '\uFFFD';
  }
  return String.fromCodePoint(code);
}

const entities = characterEntities as Record<string, string>;
const hasOwn = Object.prototype.hasOwnProperty;

/** A delimiter run of `*`, `_` or `~`. */
interface Delim {
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
interface Bracket {
  piece: number;
  /** Position after the bracket. */
  pos: number;
  image: boolean;
  active: boolean;
  /** The delimiter on top of the stack when the bracket was opened. */
  delim: Delim | null;
  prev: Bracket | null;
}

class BudgetError extends Error {}

/**
 * The plain text of Markdown inline content `src` (mdast-util-to-string of its mdast,
 * whitespace runs as one space, trimmed).
 * @param src the content, e.g. a heading without its `#` marks, lines joined by `\n`.
 * @param context the document's link and footnote definitions.
 */
export function inlineText(src: string, context: InlineContext): InlineText {
  if (isPlainInline(src)) return { text: collapseSpace(src), unresolved: false, steps: src.length };
  const p = new InlineParser(src, context);
  let raw: string;
  try {
    raw = p.parse();
  } catch (e) {
    if (!(e instanceof BudgetError)) throw e;
    raw = src;
  }
  return { text: collapseSpace(raw), unresolved: p.unresolved, steps: p.steps };
}

class InlineParser {
  readonly out: string[] = [];
  unresolved = false;
  #pending = '';
  #delims: Delim | null = null;
  #brackets: Bracket | null = null;
  #steps = 0;
  get steps(): number {
    return this.#steps;
  }
  /** The kind of the first delimiter run: 126 (`~`), 42 (`*` or `_`), or 0. */
  #firstKind = 0;
  readonly #budget: number;
  /** Backtick runs by length: positions, and a cursor per length. */
  #ticks: Map<number, number[]> | undefined;
  #tickCursor: Map<number, number> | undefined;
  /** Per terminator string: a position from which it does not occur (or -1: not known). */
  #absent: Map<string, number> | undefined;

  constructor(
    readonly s: string,
    readonly ctx: InlineContext,
  ) {
    this.#budget = 48 * s.length + 4096;
  }

  #step(n = 1): void {
    this.#steps += n;
    if (this.#steps > this.#budget) throw new BudgetError();
  }

  #flush(): void {
    if (this.#pending) {
      this.out.push(this.#pending);
      this.#pending = '';
    }
  }

  /** Pushes a piece of its own (a delimiter run or bracket), returning its index. */
  #piece(text: string): number {
    this.#flush();
    this.out.push(text);
    return this.out.length - 1;
  }

  parse(): string {
    const s = this.s;
    const n = s.length;
    let i = 0;
    while (i < n) {
      this.#step();
      const c = s.charCodeAt(i);
      if (isAtext(c) && this.#mayStartLiteral(i)) {
        const e = this.#literal(i);
        if (e > 0) {
          this.#piece(s.slice(i, e));
          i = e;
          continue;
        }
      }
      switch (c) {
        case 92: {
          // backslash: escape, hard break, or itself
          const d = s.charCodeAt(i + 1);
          if (i + 1 < n && isAsciiPunct(d)) {
            this.#piece(s[i + 1]);
            i += 2;
          } else if (isLineEnd(d)) {
            i = this.#lineEnd(i + 1, true);
          } else {
            this.#pending += '\\';
            i++;
          }
          break;
        }
        case 96:
          i = this.#code(i);
          break;
        case 60:
          i = this.#angle(i);
          break;
        case 38:
          i = this.#entity(i);
          break;
        case 42:
        case 95:
        case 126:
          i = this.#run(i, c);
          break;
        case 91:
          i = this.#open(i, false);
          break;
        case 33:
          if (s.charCodeAt(i + 1) === 91) i = this.#open(i, true);
          else {
            this.#pending += '!';
            i++;
          }
          break;
        case 93:
          i = this.#close(i);
          break;
        case 10:
        case 13: {
          // soft or hard break: two or more spaces before the line ending make it hard
          let sp = 0;
          while (sp < this.#pending.length && this.#pending.charCodeAt(this.#pending.length - 1 - sp) === 32) sp++;
          this.#pending = this.#pending.slice(0, this.#pending.length - sp);
          i = this.#lineEnd(i, sp >= 2);
          break;
        }
        default: {
          // a run of ordinary characters, up to a special one or where a literal autolink may start
          let j = i + 1;
          while (j < n && !isSpecial(s.charCodeAt(j)) && !(isAtext(s.charCodeAt(j)) && this.#mayStartLiteral(j))) j++;
          this.#step(j - i);
          this.#pending += s.slice(i, j);
          i = j;
        }
      }
    }
    this.#flush();
    this.#emphasis(null);
    return this.out.join('');
  }

  /** After a line ending at `i` (CRLF as one): the next line's leading spaces skipped. */
  #lineEnd(i: number, hard: boolean): number {
    const s = this.s;
    i += s.charCodeAt(i) === 13 && s.charCodeAt(i + 1) === 10 ? 2 : 1;
    if (!hard) this.#pending += '\n';
    while (i < s.length && isSpaceTab(s.charCodeAt(i))) i++;
    return i;
  }

  /** A code span at `i` (a run of backticks), or the run as text. */
  #code(i: number): number {
    const s = this.s;
    let j = i;
    while (s.charCodeAt(j) === 96) j++;
    const len = j - i;
    const close = this.#closingRun(len, j);
    if (close < 0) {
      this.#pending += s.slice(i, j);
      return j;
    }
    let content = s.slice(j, close).replace(/\r\n|\r|\n/g, ' ');
    if (content.length >= 2 && content.charCodeAt(0) === 32 && content.charCodeAt(content.length - 1) === 32 && /[^ ]/.test(content)) content = content.slice(1, -1);
    this.#step(close - j);
    this.#piece(content);
    return close + len;
  }

  /** The start of the first run of exactly `len` backticks at or after `from`, or -1. */
  #closingRun(len: number, from: number): number {
    if (!this.#ticks) {
      const runs = new Map<number, number[]>();
      const s = this.s;
      for (let k = 0; k < s.length; k++) {
        if (s.charCodeAt(k) !== 96) continue;
        let e = k;
        while (s.charCodeAt(e) === 96) e++;
        let list = runs.get(e - k);
        if (!list) runs.set(e - k, (list = []));
        list.push(k);
        k = e - 1;
      }
      this.#step(s.length);
      this.#ticks = runs;
    }
    const list = this.#ticks.get(len);
    if (!list) return -1;
    const cursors = (this.#tickCursor ??= new Map());
    let k = cursors.get(len) ?? 0;
    while (k < list.length && list[k] < from) {
      this.#step();
      k++;
    }
    cursors.set(len, k);
    return k < list.length ? list[k] : -1;
  }

  /** First occurrence of `needle` at or after `from`, remembering where there is none. */
  #find(needle: string, from: number): number {
    const none = this.#absent?.get(needle);
    if (none !== undefined && from >= none) return -1;
    const at = this.s.indexOf(needle, from);
    this.#step((at < 0 ? this.s.length : at) - from);
    if (at < 0) (this.#absent ??= new Map()).set(needle, from);
    return at;
  }

  /** `<`: an autolink (its URL as text), raw HTML (kept as written), or `<` itself. */
  #angle(i: number): number {
    const s = this.s;
    const link = this.#autolink(i);
    if (link > 0) {
      this.#step(link - i);
      this.#piece(s.slice(i + 1, link - 1));
      return link;
    }
    const html = this.#html(i);
    if (html > 0) {
      this.#step(html - i);
      this.#piece(s.slice(i, html));
      return html;
    }
    this.#pending += '<';
    return i + 1;
  }

  /** End of an autolink `<scheme:…>` or `<email>` at `i`, or 0. */
  #autolink(i: number): number {
    const s = this.s;
    const n = s.length;
    let j = i + 1;
    if (isAlpha(s.charCodeAt(j))) {
      // scheme: 2–32 of [A-Za-z0-9+.-], then ':'
      let k = j + 1;
      while (k < n && k - j < 33 && (isAlnum(s.charCodeAt(k)) || s.charCodeAt(k) === 43 || s.charCodeAt(k) === 46 || s.charCodeAt(k) === 45)) k++;
      if (s.charCodeAt(k) === 58 && k - j >= 2 && k - j <= 32) {
        k++;
        while (k < n) {
          const c = s.charCodeAt(k);
          if (c === 62) return k + 1;
          if (c <= 32 || c === 60 || c === 127) break;
          k++;
        }
      }
    }
    // email: local part, @, labels of ≤ 63 alphanumerics and hyphens
    j = i + 1;
    while (j < n && isEmailLocal(s.charCodeAt(j))) j++;
    if (j > i + 1 && s.charCodeAt(j) === 64) {
      let k = j + 1;
      let label = 0;
      let ok = false;
      while (k < n) {
        const c = s.charCodeAt(k);
        if (isAlnum(c) || (c === 45 && label > 0)) {
          label++;
          if (label > 63) return 0;
          k++;
        } else if (c === 46 && label > 0 && s.charCodeAt(k - 1) !== 45) {
          label = 0;
          k++;
        } else if (c === 62 && label > 0 && s.charCodeAt(k - 1) !== 45) {
          ok = true;
          break;
        } else return 0;
      }
      if (ok) return k + 1;
    }
    return 0;
  }

  /** End of inline raw HTML at `i` (micromark's html-text), or 0. */
  #html(i: number): number {
    const s = this.s;
    const n = s.length;
    const c = s.charCodeAt(i + 1);
    if (c === 33) {
      const d = s.charCodeAt(i + 2);
      if (d === 45) {
        if (s.charCodeAt(i + 3) !== 45) return 0;
        const e = this.#find('-->', i + 2);
        return e < 0 ? 0 : e + 3;
      }
      if (d === 91) {
        if (s.slice(i + 3, i + 9) !== 'CDATA[') return 0;
        const e = this.#find(']]>', i + 9);
        return e < 0 ? 0 : e + 3;
      }
      if (isAlpha(d)) {
        const e = this.#find('>', i + 3);
        return e < 0 ? 0 : e + 1;
      }
      return 0;
    }
    if (c === 63) {
      const e = this.#find('?>', i + 2);
      return e < 0 ? 0 : e + 2;
    }
    if (c === 47) {
      let j = i + 2;
      if (!isAlpha(s.charCodeAt(j))) return 0;
      while (j < n && (isAlnum(s.charCodeAt(j)) || s.charCodeAt(j) === 45)) j++;
      j = skipWs(s, j);
      return s.charCodeAt(j) === 62 ? j + 1 : 0;
    }
    if (!isAlpha(c)) return 0;
    let j = i + 2;
    while (j < n && (isAlnum(s.charCodeAt(j)) || s.charCodeAt(j) === 45)) j++;
    // attributes: whitespace, a name, optionally = and a value
    for (;;) {
      this.#step();
      const ws = skipWs(s, j);
      const d = s.charCodeAt(ws);
      if (d === 62) return ws + 1;
      if (d === 47) return s.charCodeAt(ws + 1) === 62 ? ws + 2 : 0;
      if (ws === j) return 0; // an attribute needs whitespace before it
      if (!(isAlpha(d) || d === 58 || d === 95)) return 0;
      j = ws + 1;
      while (j < n && (isAlnum(s.charCodeAt(j)) || s.charCodeAt(j) === 45 || s.charCodeAt(j) === 46 || s.charCodeAt(j) === 58 || s.charCodeAt(j) === 95)) j++;
      const eq = skipWs(s, j);
      if (s.charCodeAt(eq) !== 61) continue;
      let v = skipWs(s, eq + 1);
      const q = s.charCodeAt(v);
      if (q === 34 || q === 39) {
        const e = s.indexOf(q === 34 ? '"' : "'", v + 1);
        if (e < 0) return 0;
        this.#step(e - v);
        j = e + 1;
        const after = s.charCodeAt(j);
        if (!(after === 47 || after === 62 || after === 32 || after === 9 || isLineEnd(after))) return 0;
      } else {
        const start = v;
        while (v < n) {
          const u = s.charCodeAt(v);
          if (u === 34 || u === 39 || u === 60 || u === 61 || u === 96) return 0;
          if (u === 62 || u <= 32) break;
          v++;
        }
        if (v === start) return 0;
        j = v;
      }
    }
  }

  /** `&`: a character reference decoded, or `&` itself. */
  #entity(i: number): number {
    const s = this.s;
    const n = s.length;
    let j = i + 1;
    if (s.charCodeAt(j) === 35) {
      j++;
      const hex = s.charCodeAt(j) === 120 || s.charCodeAt(j) === 88;
      if (hex) j++;
      const from = j;
      const max = hex ? 6 : 7;
      while (j < n && j - from < max && (hex ? /[0-9A-Fa-f]/.test(s[j]) : s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57)) j++;
      if (j > from && s.charCodeAt(j) === 59) {
        this.#piece(decodeNumeric(s.slice(from, j), hex ? 16 : 10));
        return j + 1;
      }
    } else {
      while (j < n && j - i <= 31 && isAlnum(s.charCodeAt(j))) j++;
      if (j > i + 1 && s.charCodeAt(j) === 59) {
        const name = s.slice(i + 1, j);
        if (hasOwn.call(entities, name)) {
          this.#piece(entities[name]);
          return j + 1;
        }
      }
    }
    this.#pending += '&';
    return i + 1;
  }

  /** A run of `*`, `_` or `~` at `i`: a text piece and a delimiter (or plain text). */
  #run(i: number, ch: number): number {
    const s = this.s;
    let j = i;
    while (s.charCodeAt(j) === ch) j++;
    const count = j - i;
    const before = classify(s, i - 1);
    const after = classify(s, j);
    // micromark counts a neighbouring marker of another construct (GFM's ~) as an opener / closer
    const marker = (c: number) => c === 126;
    let canOpen: boolean;
    let canClose: boolean;
    if (ch === 126) {
      // GFM strikethrough: one or two tildes, not after another tilde
      if (count > 2) {
        this.#pending += s.slice(i, j);
        return j;
      }
      canOpen = after === 0 || (after === 2 && before !== 0);
      canClose = before === 0 || (before === 2 && after !== 0);
    } else {
      // micromark's attention: whitespace 1, punctuation 2, other 0 (falsy)
      const open = after === 0 || (after === 2 && before !== 0) || marker(s.charCodeAt(j));
      const close = before === 0 || (before === 2 && after !== 0) || marker(s.charCodeAt(i - 1));
      canOpen = ch === 42 ? open : open && (before !== 0 || !close);
      canClose = ch === 42 ? close : close && (after !== 0 || !open);
    }
    const piece = this.#piece(s.slice(i, j));
    if (this.#firstKind === 0) this.#firstKind = ch === 126 ? 126 : 42;
    if (canOpen || canClose) {
      const d: Delim = { piece, ch, count, canOpen, canClose, prev: this.#delims, next: null };
      if (this.#delims) this.#delims.next = d;
      this.#delims = d;
    }
    return j;
  }

  /** `[` or `![` at `i` (a GFM footnote call when `[^label]` is defined). */
  #open(i: number, image: boolean): number {
    const s = this.s;
    if (!image && s.charCodeAt(i + 1) === 94) {
      const end = this.#footnoteCall(i);
      if (end > 0) {
        this.#piece(''); // a footnote call: no text
        return end;
      }
    }
    const len = image ? 2 : 1;
    const piece = this.#piece(s.slice(i, i + len));
    this.#brackets = { piece, pos: i + len, image, active: true, delim: this.#delims, prev: this.#brackets };
    return i + len;
  }

  /**
   * `[^label]` at `i` (no whitespace or `[` inside, at most 999 characters): its end when
   * the footnote is defined, else 0 (and the lookup is recorded as unresolved).
   */
  #footnoteCall(i: number): number {
    const s = this.s;
    let j = i + 2;
    let data = false;
    while (j < s.length && j - i - 2 <= 999) {
      const c = s.charCodeAt(j);
      if (c === 93 || c === 91 || isSpaceTab(c) || isLineEnd(c)) break;
      data = true;
      j += c === 92 && (s.charCodeAt(j + 1) === 91 || s.charCodeAt(j + 1) === 92 || s.charCodeAt(j + 1) === 93) ? 2 : 1;
    }
    if (!data || s.charCodeAt(j) !== 93 || j - i - 2 > 999) return 0;
    this.#step(j - i);
    if (this.ctx.footnotes.has(normalizeLabel(s.slice(i + 2, j)))) return j + 1;
    this.unresolved = true;
    return 0;
  }

  /** Whether a GFM literal autolink may start at `i` (by the character before it). */
  #mayStartLiteral(i: number): boolean {
    if (this.#brackets) return false; // not inside an open link label (micromark's previousUnbalanced)
    const c = this.s.charCodeAt(i);
    const prev = i > 0 ? this.s.charCodeAt(i - 1) : -1;
    return ((c === 87 || c === 119) && wwwMayFollow(prev)) || ((c === 72 || c === 104) && !isAlpha(prev)) || emailMayFollow(prev);
  }

  /**
   * End of a GFM literal autolink at `i` (`www.…`, `http(s)://…`, an email address), or 0:
   * micromark-extension-gfm-autolink-literal's grammar. Its text stays as written.
   */
  #literal(i: number): number {
    const s = this.s;
    const c = s.charCodeAt(i);
    const prev = i > 0 ? s.charCodeAt(i - 1) : -1;
    if ((c === 87 || c === 119) && wwwMayFollow(prev)) {
      if (/^[wW]{3}\./.test(s.slice(i, i + 4)) && i + 4 < s.length) {
        const d = this.#domain(i);
        if (d > 0) return this.#path(d);
      }
    }
    if ((c === 72 || c === 104) && !isAlpha(prev)) {
      let j = i + 1;
      while (j < s.length && isAlpha(s.charCodeAt(j)) && j - i < 5) j++;
      const protocol = s.slice(i, j).toLowerCase();
      if ((protocol === 'http' || protocol === 'https') && s.charCodeAt(j) === 58 && s.charCodeAt(j + 1) === 47 && s.charCodeAt(j + 2) === 47) {
        const a = j + 3;
        if (a < s.length && !(classify(s, a) > 0 || s.charCodeAt(a) < 32 || s.charCodeAt(a) === 127)) {
          const d = this.#domain(a);
          if (d > 0) return this.#path(d);
        }
      }
    }
    if (emailMayFollow(prev)) {
      let j = i;
      while (j < s.length && isAtext(s.charCodeAt(j))) j++;
      this.#step(j - i);
      if (s.charCodeAt(j) !== 64) return 0;
      j++;
      let dot = false;
      let data = false;
      while (j < s.length) {
        const d = s.charCodeAt(j);
        if (d === 46) {
          if (!isAlnum(s.charCodeAt(j + 1))) break;
          dot = true;
          j++;
        } else if (d === 45 || d === 95 || isAlnum(d)) {
          data = true;
          j++;
        } else break;
      }
      this.#step(j - i);
      return data && dot && isAlpha(s.charCodeAt(j - 1)) ? j : 0;
    }
    return 0;
  }

  /** A literal autolink's domain from `i`: its end, or 0 (an underscore in its last two segments, or empty). */
  #domain(i: number): number {
    const s = this.s;
    let j = i;
    let seen = false;
    let usLast = false;
    let usLastLast = false;
    while (j < s.length) {
      this.#step();
      const c = s.charCodeAt(j);
      if (c === 46 || c === 95) {
        if (this.#trail(j)) break;
        if (c === 95) usLast = true;
        else {
          usLastLast = usLast;
          usLast = false;
        }
        j++;
        continue;
      }
      if (classify(s, j) === 1 || (c !== 45 && classify(s, j) === 2)) break;
      seen = true;
      j++;
    }
    return usLast || usLastLast || !seen ? 0 : j;
  }

  /** A literal autolink's path from `i` (balanced parentheses, trailing punctuation left out): its end. */
  #path(i: number): number {
    const s = this.s;
    let j = i;
    let open = 0;
    let close = 0;
    while (j < s.length) {
      this.#step();
      const c = s.charCodeAt(j);
      if (c === 40) {
        open++;
        j++;
      } else if (c === 41 && close < open) {
        close++;
        j++;
      } else if (c === 33 || c === 34 || c === 38 || c === 39 || c === 41 || c === 42 || c === 44 || c === 46 || c === 58 || c === 59 || c === 60 || c === 63 || c === 93 || c === 95 || c === 126) {
        if (this.#trail(j)) break;
        if (c === 41) close++;
        j++;
      } else if (classify(s, j) === 1) break;
      else j++;
    }
    return j;
  }

  /** Whether `s[i…]` is trailing punctuation up to whitespace, `<` or the end. */
  #trail(i: number): boolean {
    const s = this.s;
    let j = i;
    for (;;) {
      this.#step();
      if (j >= s.length) return true;
      const c = s.charCodeAt(j);
      if (c === 33 || c === 34 || c === 39 || c === 41 || c === 42 || c === 44 || c === 46 || c === 58 || c === 59 || c === 63 || c === 95 || c === 126) j++;
      else if (c === 38) {
        j++;
        if (!isAlpha(s.charCodeAt(j))) return false;
        while (isAlpha(s.charCodeAt(j))) j++;
        if (s.charCodeAt(j) !== 59) return false;
        j++;
      } else if (c === 93) {
        j++;
        const d = s.charCodeAt(j);
        if (j >= s.length || d === 40 || d === 91 || classify(s, j) === 1) return true;
      } else return c === 60 || classify(s, j) === 1;
    }
  }

  /** `]` at `i`: closes a link or image, or is text. */
  #close(i: number): number {
    const s = this.s;
    const opener = this.#brackets;
    if (!opener) {
      this.#pending += ']';
      return i + 1;
    }
    if (!opener.active) {
      this.#brackets = opener.prev;
      this.#pending += ']';
      return i + 1;
    }
    let after = i + 1;
    let matched = false;
    if (s.charCodeAt(after) === 40) {
      const end = this.#resource(after + 1);
      if (end > 0) {
        matched = true;
        after = end;
      }
    }
    if (!matched) {
      const n = this.#label(after);
      let label: string | undefined;
      // micromark: a full reference [text][label]; else, where the text is defined, a
      // collapsed [text][] or (when no [ follows) a shortcut [text]
      if (n > 2) label = s.slice(after + 1, after + n - 1);
      else if (n === 2 || s.charCodeAt(after) !== 91) label = s.slice(opener.pos, i);
      if (label !== undefined && label.length <= 999 && /[^ \t\r\n]/.test(label)) {
        if (this.ctx.definitions.has(normalizeLabel(label))) {
          matched = true;
          if (n >= 2) after += n;
        } else this.unresolved = true;
      }
    }
    this.#brackets = opener.prev;
    if (!matched) {
      // ![^label] that is no image: a ! and a footnote call (micromark's "potential footnote call")
      if (opener.image && s.charCodeAt(opener.pos) === 94) {
        const end = this.#footnoteCall(opener.pos - 1);
        if (end === i + 1) {
          this.#flush();
          this.out[opener.piece] = '!';
          for (let k = opener.piece + 1; k < this.out.length; k++) this.out[k] = '';
          while (this.#delims && this.#delims !== opener.delim) this.#remove(this.#delims);
          return end;
        }
      }
      this.#pending += ']';
      return i + 1;
    }
    this.#flush();
    this.out[opener.piece] = '';
    this.#emphasis(opener.delim, true);
    if (!opener.image) for (let b = this.#brackets; b; b = b.prev) if (!b.image) b.active = false;
    return after;
  }

  /** Length of a link label `[…]` at `i` (brackets included), or 0. */
  #label(i: number): number {
    const s = this.s;
    if (s.charCodeAt(i) !== 91) return 0;
    let j = i + 1;
    while (j < s.length && j - i <= 1000) {
      const c = s.charCodeAt(j);
      if (c === 92 && j + 1 < s.length && isAsciiPunct(s.charCodeAt(j + 1))) j += 2;
      else if (c === 91) return 0;
      else if (c === 93) {
        this.#step(j - i);
        return j - i > 1000 ? 0 : j + 1 - i;
      } else j++;
    }
    return 0;
  }

  /** After `](`: destination, optional title, `)`; returns the end, or 0. */
  #resource(i: number): number {
    const s = this.s;
    const n = s.length;
    let j = skipWs(s, i);
    if (s.charCodeAt(j) === 41) return j + 1;
    if (s.charCodeAt(j) === 60) {
      j++;
      for (;;) {
        this.#step();
        if (j >= n) return 0;
        const c = s.charCodeAt(j);
        if (c === 62) {
          j++;
          break;
        }
        if (c === 60 || isLineEnd(c)) return 0;
        j += c === 92 && j + 1 < n && isAsciiPunct(s.charCodeAt(j + 1)) ? 2 : 1;
      }
    } else {
      j = rawDestinationEnd(s, j, 32);
      if (j < 0) return 0;
      this.#step(j - i);
    }
    const ws = skipWs(s, j);
    if (s.charCodeAt(ws) === 41) return ws + 1;
    if (ws === j) return 0;
    // title: "…", '…' or (…)
    const q = s.charCodeAt(ws);
    const closeQ = q === 34 ? 34 : q === 39 ? 39 : q === 40 ? 41 : -1;
    if (closeQ < 0) return 0;
    let k = ws + 1;
    for (;;) {
      this.#step();
      if (k >= n) return 0;
      const c = s.charCodeAt(k);
      if (c === closeQ) break;
      if (q === 40 && c === 40) return 0;
      k += c === 92 && k + 1 < n && isAsciiPunct(s.charCodeAt(k + 1)) ? 2 : 1;
    }
    const end = skipWs(s, k + 1);
    return s.charCodeAt(end) === 41 ? end + 1 : 0;
  }

  /**
   * Matches the delimiter runs above `bottom` and drops them from the stack. micromark
   * resolves emphasis (`*`, `_`) and strikethrough (`~`) one after the other — at the top
   * level in the order their first run occurs, inside a link strikethrough first — and a
   * span of the first kind encloses what is inside it, so a run of the second kind only
   * pairs with one in the same enclosing span. Markers used are cut from their pieces.
   */
  #emphasis(bottom: Delim | null, inLink = false): void {
    const runs: Delim[] = [];
    for (let d = bottom ? bottom.next : this.#first(); d; d = d.next) {
      this.#step();
      runs.push(d);
    }
    if (runs.length === 0) {
      // no delimiter runs: nothing to match (the common case: text without emphasis)
      while (this.#delims && this.#delims !== bottom) this.#remove(this.#delims);
      return;
    }
    const strikeFirst = inLink || this.#firstKind === 126;
    const isFirst = (d: Delim) => (d.ch === 126) === strikeFirst;
    const region = new Int32Array(runs.length); // innermost span of the first kind around each run (-1: none)
    region.fill(-1);
    const spans = this.#match(runs, isFirst, undefined);
    // regions: a sweep over the runs with the spans (properly nested) closed and opened;
    // a run may close and open several (inner spans matched first, so opened last)
    const opens: number[][] = runs.map(() => []);
    const closes = new Int32Array(runs.length);
    for (let k = spans.length - 1; k >= 0; k--) opens[spans[k][0]].push(k);
    for (const [, c] of spans) closes[c]++;
    const stack: number[] = [];
    for (let i = 0; i < runs.length; i++) {
      for (let k = 0; k < closes[i]; k++) stack.pop();
      region[i] = stack.length ? stack[stack.length - 1] : -1;
      for (const k of opens[i]) stack.push(k);
    }
    this.#match(runs, (d) => !isFirst(d), region);
    while (this.#delims && this.#delims !== bottom) this.#remove(this.#delims);
  }

  /**
   * CommonMark's delimiter algorithm (closers left to right, the nearest fitting opener)
   * over the runs `take` selects, openers limited to the closer's region when given.
   * @returns the matched pairs (indices into `runs`), in the order they matched.
   */
  #match(runs: Delim[], take: (d: Delim) => boolean, region: Int32Array | undefined): [number, number][] {
    const pairs: [number, number][] = [];
    const idx: number[] = [];
    for (let i = 0; i < runs.length; i++) if (take(runs[i])) idx.push(i);
    const alive = idx.map(() => true);
    const openersBottom = new Map<string, number>();
    for (let ci = 0; ci < idx.length; ci++) {
      const closer = runs[idx[ci]];
      while (alive[ci] && closer.canClose && closer.count > 0) {
        this.#step();
        const key = `${closer.ch}:${closer.canOpen ? 1 : 0}:${closer.count % 3}:${region ? region[idx[ci]] : 0}`;
        const floor = openersBottom.get(key) ?? -1;
        let oi = ci - 1;
        for (; oi > floor; oi--) {
          this.#step();
          if (!alive[oi]) continue;
          const opener = runs[idx[oi]];
          if (opener.ch !== closer.ch || !opener.canOpen || opener.count === 0) continue;
          if (region && region[idx[oi]] !== region[idx[ci]]) continue;
          if (closer.ch === 126) {
            if (opener.count === closer.count) break;
          } else if (!((opener.canClose || closer.canOpen) && closer.count % 3 !== 0 && (opener.count + closer.count) % 3 === 0)) break;
        }
        if (oi <= floor) {
          openersBottom.set(key, ci - 1);
          if (!closer.canOpen) alive[ci] = false;
          break;
        }
        const opener = runs[idx[oi]];
        const use = closer.ch === 126 ? closer.count : opener.count >= 2 && closer.count >= 2 ? 2 : 1;
        opener.count -= use;
        closer.count -= use;
        this.out[opener.piece] = this.out[opener.piece].slice(use);
        this.out[closer.piece] = this.out[closer.piece].slice(use);
        pairs.push([idx[oi], idx[ci]]);
        // micromark's rule of three reads the runs' remaining lengths: an opener whose
        // length changed may now fit closers an earlier search ruled out below it
        for (const [key, f] of openersBottom) if (f >= oi) openersBottom.delete(key);
        for (let k = oi + 1; k < ci; k++) alive[k] = false;
        if (opener.count === 0) alive[oi] = false;
        if (closer.count === 0) alive[ci] = false;
      }
    }
    return pairs;
  }

  #first(): Delim | null {
    let d = this.#delims;
    while (d && d.prev) {
      this.#step();
      d = d.prev;
    }
    return d;
  }

  #remove(d: Delim): void {
    if (d.prev) d.prev.next = d.next;
    if (d.next) d.next.prev = d.prev;
    else this.#delims = d.prev;
  }
}

/**
 * End of a raw link destination at `s[i]` (CommonMark: no spaces or controls,
 * parentheses balanced, nested at most `maxDepth` deep, backslash escapes), or -1 when
 * there is none (empty, unbalanced or too deep).
 */
export function rawDestinationEnd(s: string, i: number, maxDepth: number): number {
  const n = s.length;
  let j = i;
  let depth = 0;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c === 92 && j + 1 < n && isAsciiPunct(s.charCodeAt(j + 1))) j += 2;
    else if (c === 40) {
      if (++depth > maxDepth) return -1;
      j++;
    } else if (c === 41) {
      if (depth === 0) break;
      depth--;
      j++;
    } else if (c <= 32 || c === 127) break;
    else j++;
  }
  return j === i || depth !== 0 ? -1 : j;
}

/** Characters that end a run of ordinary text. */
function isSpecial(c: number): boolean {
  return c === 92 || c === 96 || c === 60 || c === 38 || c === 42 || c === 95 || c === 126 || c === 91 || c === 33 || c === 93 || c === 10 || c === 13;
}

/**
 * True when `src` holds nothing the parser acts on: no character that opens a construct
 * ({@link isSpecial}: escapes, code, HTML and autolinks, entities, emphasis, links, line
 * endings) and no literal autolink's start (an email's `@`, `://` after `http`, `www.`).
 * The parser's text of such content is the content itself (most headings: `Data Types`,
 * `Appendix B: Operators and Symbols`).
 */
function isPlainInline(src: string): boolean {
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (isSpecial(c) || c === 64) return false;
    if (c === 58 && src.charCodeAt(i + 1) === 47 && src.charCodeAt(i + 2) === 47) return false;
    if (c === 46 && i >= 3 && (src.charCodeAt(i - 1) | 32) === 119 && (src.charCodeAt(i - 2) | 32) === 119 && (src.charCodeAt(i - 3) | 32) === 119) return false;
  }
  return true;
}

/** `text` with each whitespace run as one space, trimmed (what the parser's output gets); `text` itself where that changes nothing. */
function collapseSpace(text: string): string {
  const n = text.length;
  if (n === 0) return text;
  let clean = !isWhite(text.charCodeAt(0)) && !isWhite(text.charCodeAt(n - 1));
  for (let i = 1; clean && i < n - 1; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 ? text.charCodeAt(i + 1) === 32 : isWhite(c)) clean = false;
  }
  return clean ? text : text.replace(/\s+/g, ' ').trim();
}

/** What `\s` matches, for one code unit. */
function isWhite(c: number): boolean {
  return c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && SPACE.test(String.fromCharCode(c));
}

/** micromark's `previousWww`: a `www.` literal may follow the start, whitespace, `(`, `*`, `_`, `[`, `]` or `~`. */
const wwwMayFollow = (prev: number): boolean => prev === -1 || prev === 40 || prev === 42 || prev === 95 || prev === 91 || prev === 93 || prev === 126 || isSpaceTab(prev) || isLineEnd(prev);
/** micromark's `previousEmail`: an email literal may not follow `/` or an atext character. */
const emailMayFollow = (prev: number): boolean => !(prev === 47 || isAtext(prev));

/** GFM's `atext` of literal email autolinks: `+ - . _` and ASCII alphanumerics. */
function isAtext(c: number): boolean {
  return c === 43 || c === 45 || c === 46 || c === 95 || isAlnum(c);
}

/** Characters of an email autolink's local part. */
function isEmailLocal(c: number): boolean {
  return isAlnum(c) || (c >= 33 && c <= 47 && c !== 34 && c !== 40 && c !== 41 && c !== 44) || c === 61 || c === 63 || c === 94 || c === 95 || c === 96 || c === 123 || c === 124 || c === 125 || c === 126;
}

/** Skips spaces, tabs and line endings. */
function skipWs(s: string, i: number): number {
  while (i < s.length && (isSpaceTab(s.charCodeAt(i)) || isLineEnd(s.charCodeAt(i)))) i++;
  return i;
}
