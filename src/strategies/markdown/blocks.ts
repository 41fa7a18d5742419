/**
 * Markdown block boundaries: a line-based scanner of CommonMark blocks (plus GFM tables
 * and footnote definitions, YAML/TOML front matter) that reports each block with its
 * exact source span, its type and its children, and nothing else — no inline tree. The
 * boundary source of the Markdown strategy.
 *
 * Source: the CommonMark spec 0.31.2 (§4 "Leaf blocks", §5 "Container blocks", and its
 * appendix "A parsing strategy": for each line, match the open containers, open new
 * blocks, add the rest to the tip or as a lazy continuation), as commonmark.js
 * implements it (`blocks.js`); GFM tables as `micromark-extension-gfm-table` 2.1 parses
 * them (a table may interrupt a paragraph: its last line is the header row; the
 * delimiter row's cell count must equal the header's; rows run to a blank line or the
 * start of another block; no lazy rows); footnote definitions as
 * `micromark-extension-gfm-footnote`; front matter as `micromark-extension-frontmatter`
 * (`---` YAML or `+++` TOML on the first line, closed by the same fence), where YAML may
 * also close with `...` as pulldown-cmark and Pandoc accept, within
 * {@link FRONT_MATTER_MAX_LINES} lines.
 *
 * Offsets are UTF-16 code units into the text (CRLF counts as two; a leading U+FEFF is
 * skipped for structure, not removed). A block's span runs from its first non-whitespace
 * character (a container's marker: `>`, `-`, `1.`, `[^x]:`) to after its last one,
 * markers of its last line included. Lines end at `\n`, `\r\n` or `\r`; tabs advance to
 * the next multiple of four columns. Time and memory are linear in the text: each line
 * is visited once per open container it continues (at most its length in markers) or
 * once for a lazy continuation; every block is closed once; nothing recurses.
 * Core module: no Node built-ins.
 * @module
 */
import { isSpace, type TextSpan } from '../../engine/text.js';
import { inlineText, isAsciiPunct, normalizeLabel, rawDestinationEnd } from './inline.js';
import { upperBound } from '../../engine/search.js';

export { inlineText, normalizeLabel, type InlineContext, type InlineText } from './inline.js';

/** Block types, named as mdast names its nodes (front matter: `yaml`, `toml`). */
export type MarkdownBlockType =
  | 'heading'
  | 'paragraph'
  | 'code'
  | 'table'
  | 'list'
  | 'listItem'
  | 'blockquote'
  | 'html'
  | 'thematicBreak'
  | 'yaml'
  | 'toml'
  | 'definition'
  | 'footnoteDefinition';

/** One block with its source span. */
export interface MarkdownBlock {
  readonly type: MarkdownBlockType;
  /** First non-whitespace code unit of the block (a container's marker included). */
  readonly start: number;
  /** After its last non-whitespace code unit. */
  readonly end: number;
  /** Containers (`list`, `listItem`, `blockquote`, `footnoteDefinition`): the blocks inside, in order. */
  readonly children?: readonly MarkdownBlock[];
  /** Headings: level 1–6. */
  readonly depth?: number;
  /** Headings: ATX (`#`) rather than setext (underlined). */
  readonly atx?: boolean;
  /** Headings: plain text (see {@link inlineText}). */
  readonly text?: string;
  /** Headings: the text looked up a link or footnote label that is not defined (a later definition would change it). */
  readonly unresolved?: boolean;
  /** Fenced and indented code: fenced. */
  readonly fenced?: boolean;
  /** Tables: the header row, then the body rows (the delimiter row is not a row), trimmed spans. */
  readonly rows?: readonly TextSpan[];
}

/** What {@link scanMarkdown} found. */
export interface MarkdownScan {
  /** Top-level blocks in order. */
  blocks: MarkdownBlock[];
  /** Link reference definitions (normalized labels), the given ones included. */
  definitions: Set<string>;
  /** GFM footnote definitions (normalized labels), the given ones included. */
  footnotes: Set<string>;
  /** The text starts with a front matter fence that is not closed before `end`. */
  openFrontMatter: boolean;
  /**
   * With `partial`: the line starts, ascending, at which the scan's state holds nothing a
   * later line can change — every block open before the line is closed while reading it
   * (the line is not theirs: a closing fence is its code block's), and no block it opens
   * starts on an earlier line (a setext heading or a table takes the paragraph above). A
   * scan of the text from such a point (`documentStart: false`, the definitions found so
   * far given) gives exactly this scan's blocks from there on. Empty without `partial`.
   */
  resumePoints: number[];
  /** Lines visited per open container, blocks opened and closed: work done, for linear-time tests. */
  steps: number;
}

/** Options of {@link scanMarkdown}. */
export interface ScanOptions {
  /** Scan `text[0, end)` only (default: all of it). */
  end?: number;
  /** More text may follow the scanned part (a stream): an unclosed front matter fence is then undecided. */
  partial?: boolean;
  /** Recognise front matter and a leading U+FEFF at offset 0 (default true). */
  documentStart?: boolean;
  /** Definitions known from text before `text` (a stream's earlier sections). */
  definitions?: Iterable<string>;
  footnotes?: Iterable<string>;
  /** Compute heading text for top-level headings only (default false: every heading). */
  topLevelHeadingText?: boolean;
}

/**
 * The blocks of Markdown `text`: CommonMark block structure, GFM tables and footnote
 * definitions, YAML/TOML front matter, with exact UTF-16 spans. Headings carry their
 * plain text. Never throws for any string.
 * @example
 * ```ts
 * markdownBlocks('# Title\n\n- a\n- b\n').map((b) => [b.type, b.start, b.end]);
 * // [ [ 'heading', 0, 7 ], [ 'list', 9, 16 ] ]
 * ```
 */
export function markdownBlocks(text: string): MarkdownBlock[] {
  return scanMarkdown(text).blocks;
}

/** {@link markdownBlocks} with the definitions found and options for streams. */
export function scanMarkdown(text: string, options: ScanOptions = {}): MarkdownScan {
  return new Scanner(text, options).run();
}

/** A table cell: its span as mdast positions a `tableCell` (from its leading pipe, or the row start, to the next pipe; the last through the row end), and its content between the pipes. */
export interface TableCell extends TextSpan {
  readonly content: TextSpan;
}

/**
 * The cells of table row `row` (a span of `text`). Pipes escaped with a backslash do not
 * divide cells; a leading pipe opens the first cell, a trailing one closes the last.
 */
export function tableCells(text: string, row: TextSpan): TableCell[] {
  const cells: TableCell[] = [];
  eachCell(text, row, (start, end, cs, ce) => cells.push({ start, end, content: { start: cs, end: ce } }));
  return cells;
}

/** The {@link cellText} of each of the {@link tableCells} of `row`, without the cell objects. */
export function rowCellTexts(text: string, row: TextSpan): string[] {
  const texts: string[] = [];
  const r = text.slice(row.start, row.end);
  if (r.includes('\\')) {
    eachCell(text, row, (start, end) => texts.push(cellText(text, { start, end })));
    return texts;
  }
  // no backslash: the cells start at the row start and at each pipe after it, found by
  // indexOf, and each is trimmed by String.prototype.trim (the whitespace isSpace
  // accepts), so the padding of an aligned table costs no loop of ours; the last cell
  // waits until the end shows whether its pipe is a trailing one (only whitespace after
  // it), which closes the cell before it instead
  let from = 0; // the current cell's start
  let prev = -1; // the start of the cell before it, once there is one
  for (let i = r.indexOf('|', 1); i >= 0; i = r.indexOf('|', i + 1)) {
    if (prev >= 0) texts.push(trimCell(r.slice(prev, from)));
    prev = from;
    from = i;
  }
  const tail = r.slice(from);
  if (prev >= 0 && tail.trim() === '|') texts.push(trimCell(r.slice(prev)));
  else {
    if (prev >= 0) texts.push(trimCell(r.slice(prev, from)));
    texts.push(trimCell(tail));
  }
  return texts;
}

/** {@link cellText} of a cell's source text: trimmed, one pipe dropped at each end, trimmed again. */
function trimCell(cell: string): string {
  let v = cell.trim();
  if (v.charCodeAt(0) === 124) v = v.slice(1);
  if (v.length > 0 && v.charCodeAt(v.length - 1) === 124) v = v.slice(0, -1);
  return v.trim();
}

/** Calls `fn` with each cell of `row`: its span and its content's (see {@link tableCells}). */
function eachCell(text: string, row: TextSpan, fn: (start: number, end: number, contentStart: number, contentEnd: number) => void): void {
  const pipes: number[] = [];
  for (let i = row.start; i < row.end; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 124) pipes.push(i);
  }
  const starts = pipes.length && pipes[0] === row.start ? pipes : [row.start, ...pipes];
  const last = starts[starts.length - 1];
  const trailing = starts.length > 1 && last !== row.start && isBlankRange(text, last + 1, row.end);
  if (trailing) starts.pop();
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k];
    const end = k + 1 < starts.length ? starts[k + 1] : row.end;
    const cs = text.charCodeAt(start) === 124 ? start + 1 : start;
    const ce = k + 1 < starts.length ? end : trailing ? last : end;
    fn(start, end, cs, Math.max(cs, ce));
  }
}

/** A table cell's text: its span without the pipes and the whitespace around them (trimmed). */
export function cellText(text: string, cell: TextSpan): string {
  let s = cell.start;
  let e = cell.end;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  if (s < e && text.charCodeAt(s) === 124) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  if (e > s && text.charCodeAt(e - 1) === 124) e--;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  return text.slice(s, e);
}

function isBlankRange(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

// Node kinds (numbers, for speed)
const DOCUMENT = 0;
const BLOCKQUOTE = 1;
const LIST = 2;
const ITEM = 3;
const FOOTNOTE = 4;
const PARAGRAPH = 5;
const HEADING = 6;
const CODE = 7;
const HTML = 8;
const THEMATIC = 9;
const TABLE = 10;

/**
 * Lines front matter may hold, its closing line included: an opening `---` with no
 * closing line within them is a thematic break. Real front matter is tens of lines; the
 * bound keeps a document that merely starts with a thematic break from being read as
 * front matter up to a `---` hundreds of lines on (one indivisible chunk), and bounds
 * what a stream holds while the fence is open.
 */
export const FRONT_MATTER_MAX_LINES = 256;

/**
 * Containers nested deeper than this are not opened: the marker is text of the
 * innermost block (markdown-it's `maxNesting` does the same, at 100). Only inputs nested
 * a thousand deep differ from CommonMark; it keeps the tree — and the memory of a
 * megabyte of `>` on one line — small.
 */
export const MAX_NESTING = 1000;

const TYPE_NAMES: MarkdownBlockType[] = ['paragraph', 'blockquote', 'list', 'listItem', 'footnoteDefinition', 'paragraph', 'heading', 'code', 'html', 'thematicBreak', 'table'];

/** A block while it is open. */
class Node {
  open = true;
  end = -1;
  /** Blocks closed inside this container, as they will be reported. */
  out: MarkdownBlock[] | undefined;
  /** The last child still open (or last added). */
  last: Node | undefined;
  // lists and items
  ordered = false;
  marker = 0;
  markerOffset = 0;
  padding = 0;
  // code and html
  fenced = false;
  fenceChar = 0;
  fenceLength = 0;
  fenceOffset = 0;
  htmlType = 0;
  // paragraphs: their lines in the line log, [from, to) in pairs
  lineFrom = 0;
  lineTo = 0;
  // headings
  level = 0;
  atx = false;
  content = '';
  // tables
  rows: TextSpan[] | undefined;

  /** Containers above it, itself included (the document: 0). */
  readonly depth: number;

  constructor(
    readonly type: number,
    public start: number,
    readonly parent: Node | undefined,
  ) {
    if (type <= FOOTNOTE) this.out = [];
    this.depth = parent ? parent.depth + (type <= FOOTNOTE ? 1 : 0) : 0;
  }
}

const canContain = (parent: number, child: number): boolean => {
  if (parent === LIST) return child === ITEM;
  if (parent === DOCUMENT || parent === BLOCKQUOTE || parent === ITEM || parent === FOOTNOTE) return child !== ITEM;
  return false;
};

/** Raw HTML element names (CommonMark HTML block type 1). */
const RAW_NAMES = new Set(['pre', 'script', 'style', 'textarea']);
/** Block element names (type 6), as micromark-util-html-tag-name lists them. */
const BLOCK_NAMES = new Set(
  'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul'.split(
    ' ',
  ),
);
const HTML_CLOSE = [undefined, /<\/(?:script|pre|textarea|style)>/i, /-->/, /\?>/, />/, /\]\]>/];

const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlnum = (c: number): boolean => isAlpha(c) || isDigit(c);
const isSpaceTab = (c: number): boolean => c === 32 || c === 9;

/** Characters that may start a block other than a paragraph (after up to 3 spaces). */
const SPECIAL = new Uint8Array(128);
for (const ch of '#`~*+_=<>-0123456789|:[') SPECIAL[ch.charCodeAt(0)] = 1;

class Scanner {
  readonly t: string;
  readonly n: number;
  readonly #opts: ScanOptions;
  readonly definitions: Set<string>;
  readonly footnotes: Set<string>;
  steps = 0;
  readonly doc: Node;
  tip: Node;
  oldTip: Node;
  lastMatched: Node;
  allClosed = true;
  // the current line
  lineStart = 0;
  lineEnd = 0;
  offset = 0;
  column = 0;
  partialTab = false;
  nextNonspace = 0;
  nextNonspaceColumn = 0;
  indent = 0;
  blank = false;
  indented = false;
  // next line terminators (cached searches)
  #nl = -2;
  #cr = -2;
  readonly #hasCr: boolean;
  /** Paragraph lines: content start, line end, pairs. */
  #log = new Int32Array(256);
  #logLen = 0;
  /** Headings to give text once every definition is known. */
  readonly #headings: { block: { text?: string; unresolved?: boolean }; content: string; top: boolean }[] = [];
  openFrontMatter = false;
  /** See {@link MarkdownScan.resumePoints}. */
  readonly resumePoints: number[] = [];

  constructor(text: string, options: ScanOptions) {
    this.t = text;
    this.n = Math.min(options.end ?? text.length, text.length);
    this.#opts = options;
    this.definitions = new Set(options.definitions);
    this.footnotes = new Set(options.footnotes);
    this.doc = new Node(DOCUMENT, 0, undefined);
    this.tip = this.oldTip = this.lastMatched = this.doc;
    this.#hasCr = text.indexOf('\r') >= 0;
  }

  run(): MarkdownScan {
    const t = this.t;
    let pos = 0;
    if (this.#opts.documentStart !== false) {
      if (t.charCodeAt(0) === 0xfeff) pos = 1;
      pos = this.#frontMatter(pos);
    }
    const resume = this.#opts.partial === true;
    const doc = this.doc;
    while (pos < this.n) {
      const end = this.#terminator(pos);
      this.lineStart = pos;
      this.lineEnd = end;
      // the last top-level block before the line: every block still open lies inside it
      const before = doc.last;
      this.#line();
      // a point when that block is closed, not by this line as its own last line (a closing
      // fence, the end of an HTML block), and no block of this line starts above it
      if (resume && (!before || (!before.open && before.end <= pos))) {
        const last = doc.last;
        if (last === before || last!.start >= pos) this.resumePoints.push(pos);
      }
      pos = end >= this.n ? this.n : end + (t.charCodeAt(end) === 13 && t.charCodeAt(end + 1) === 10 && end + 1 < this.n ? 2 : 1);
    }
    while (this.tip !== this.doc) this.#finalize(this.tip);
    const context = { definitions: this.definitions, footnotes: this.footnotes };
    for (const h of this.#headings) {
      if (this.#opts.topLevelHeadingText && !h.top) continue;
      const r = inlineText(h.content, context);
      this.steps += r.steps;
      h.block.text = r.text;
      if (r.unresolved) h.block.unresolved = true;
    }
    return { blocks: this.doc.out!, definitions: this.definitions, footnotes: this.footnotes, openFrontMatter: this.openFrontMatter, resumePoints: this.resumePoints, steps: this.steps };
  }

  /** Position of the line terminator at or after `p` (or the scan end). */
  #terminator(p: number): number {
    const t = this.t;
    if (this.#nl !== -1 && this.#nl < p) this.#nl = t.indexOf('\n', p);
    let e = this.#nl === -1 ? this.n : this.#nl;
    if (this.#hasCr) {
      if (this.#cr !== -1 && this.#cr < p) this.#cr = t.indexOf('\r', p);
      if (this.#cr !== -1 && this.#cr < e) e = this.#cr;
    }
    return Math.min(e, this.n);
  }

  /** Front matter at `pos` (the document start): returns where the first line after it starts. */
  #frontMatter(pos: number): number {
    const t = this.t;
    const c = t.charCodeAt(pos);
    if (c !== 45 && c !== 43) return pos;
    if (t.charCodeAt(pos + 1) !== c || t.charCodeAt(pos + 2) !== c) return pos;
    let e = this.#terminator(pos);
    for (let i = pos + 3; i < e; i++) if (!isSpaceTab(t.charCodeAt(i))) return pos;
    const partial = this.#opts.partial === true;
    if (e >= this.n) {
      // an opening fence needs a line ending; one at the end of a partial scan may get one
      if (partial) this.openFrontMatter = true;
      return pos;
    }
    let p = e + (t.charCodeAt(e) === 13 && t.charCodeAt(e + 1) === 10 ? 2 : 1);
    // YAML closes with `---` or `...`, TOML with `+++`
    const close = c === 45 ? 46 : c;
    for (let lines = 1; p <= this.n; lines++) {
      if (lines > FRONT_MATTER_MAX_LINES) {
        // no closing line within the bound: the fence is a thematic break, decided
        this.#nl = this.#cr = -2;
        return pos;
      }
      e = this.#terminator(p);
      this.steps++;
      const d = t.charCodeAt(p);
      if ((d === c || d === close) && t.charCodeAt(p + 1) === d && t.charCodeAt(p + 2) === d && p + 3 <= e) {
        let ok = true;
        for (let i = p + 3; i < e; i++) if (!isSpaceTab(t.charCodeAt(i))) ok = false;
        // a fence on the last line of a partial scan may go on (`---x` …): not decided
        if (ok && (e < this.n || !partial)) {
          this.doc.out!.push({ type: c === 45 ? 'yaml' : 'toml', start: pos, end: p + 3 });
          return e >= this.n ? this.n : e + (t.charCodeAt(e) === 13 && t.charCodeAt(e + 1) === 10 ? 2 : 1);
        }
      }
      if (e >= this.n) break;
      p = e + (t.charCodeAt(e) === 13 && t.charCodeAt(e + 1) === 10 ? 2 : 1);
    }
    if (partial) this.openFrontMatter = true;
    this.#nl = this.#cr = -2; // the searches ran ahead: restart them
    return pos;
  }

  // --- position helpers (commonmark.js) ---

  /** Line start and offsets of the last whitespace scan (reused while inside it: deep list indentation is scanned once per line, not per container). */
  #scanLine = -1;
  #scanFrom = 0;

  #findNextNonspace(): void {
    const t = this.t;
    let i = this.offset;
    let cols = this.column;
    const end = this.lineEnd;
    if (this.#scanLine === this.lineStart && i >= this.#scanFrom && i <= this.nextNonspace) {
      // the run from `i` to the cached next non-space is spaces and tabs already scanned
      this.indent = this.nextNonspaceColumn - cols;
      this.indented = this.indent >= 4;
      return;
    }
    this.#scanLine = this.lineStart;
    this.#scanFrom = i;
    while (i < end) {
      const c = t.charCodeAt(i);
      if (c === 32) {
        i++;
        cols++;
      } else if (c === 9) {
        i++;
        cols += 4 - (cols % 4);
      } else break;
    }
    this.blank = i >= end;
    this.nextNonspace = i;
    this.nextNonspaceColumn = cols;
    this.indent = cols - this.column;
    this.indented = this.indent >= 4;
  }

  #advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partialTab = false;
  }

  #advanceOffset(count: number, columns: boolean): void {
    const t = this.t;
    while (count > 0 && this.offset < this.lineEnd) {
      if (t.charCodeAt(this.offset) === 9) {
        const toTab = 4 - (this.column % 4);
        if (columns) {
          this.partialTab = toTab > count;
          const adv = toTab > count ? count : toTab;
          this.column += adv;
          this.offset += this.partialTab ? 0 : 1;
          count -= adv;
        } else {
          this.partialTab = false;
          this.column += toTab;
          this.offset++;
          count--;
        }
      } else {
        this.partialTab = false;
        this.offset++;
        this.column++;
        count--;
      }
    }
  }

  /** After the last non-whitespace code unit of `[from, to)`, or `from`. */
  #trimEnd(from: number, to: number): number {
    const t = this.t;
    while (to > from && isSpace(t.charCodeAt(to - 1))) to--;
    return to;
  }

  // --- the line algorithm ---

  #line(): void {
    this.offset = this.lineStart;
    this.column = 0;
    this.partialTab = false;
    this.blank = false;
    let allMatched = true;
    let container = this.doc;
    this.oldTip = this.tip;
    for (;;) {
      const last = container.last;
      if (!last || !last.open) break;
      container = last;
      this.steps++;
      this.#findNextNonspace();
      const r = this.#continue(container);
      if (r === 2) return;
      if (r === 1) {
        allMatched = false;
        container = container.parent!;
        break;
      }
    }
    void allMatched;
    this.allClosed = container === this.oldTip;
    this.lastMatched = container;
    let matchedLeaf = container.type === CODE || container.type === HTML;
    while (!matchedLeaf) {
      this.#findNextNonspace();
      const c = this.t.charCodeAt(this.nextNonspace);
      if (!this.indented && (this.blank || c >= 128 || !SPECIAL[c])) {
        this.#advanceNextNonspace();
        break;
      }
      const r = this.#start(container);
      if (r === 0) {
        this.#advanceNextNonspace();
        break;
      }
      this.steps++;
      container = this.tip;
      if (r === 2) matchedLeaf = true;
    }
    // the rest of the line: lazy continuation, or text of the container
    if (!this.allClosed && !this.blank && this.tip.type === PARAGRAPH) {
      this.#logLine(this.tip);
      return;
    }
    this.#closeUnmatched();
    const type = container.type;
    if (type === PARAGRAPH) this.#logLine(container);
    else if (type === CODE || type === HTML) {
      const e = this.#trimEnd(this.offset, this.lineEnd);
      if (e > this.offset && !isBlankRange(this.t, this.offset, e)) container.end = Math.max(container.end, e);
      if (type === HTML && container.htmlType <= 5 && HTML_CLOSE[container.htmlType]!.test(this.t.slice(this.offset, this.lineEnd))) this.#finalize(container);
    } else if (type === TABLE) {
      if (this.offset < this.lineEnd && !this.blank) {
        const e = this.#trimEnd(this.nextNonspace, this.lineEnd);
        // a row of only other white space (U+FEFF, U+00A0 …) would end the table past its last newline: no row
        if (e > this.nextNonspace) {
          container.rows!.push({ start: this.nextNonspace, end: e });
          container.end = Math.max(container.end, e);
        }
      }
    } else if (this.offset < this.lineEnd && !this.blank) {
      const p = this.#add(PARAGRAPH, this.nextNonspace);
      this.#advanceNextNonspace();
      p.lineFrom = p.lineTo = this.#logLen;
      this.#logLine(p);
    }
  }

  /** Logs the current line (from `offset`) as a line of paragraph `p`. */
  #logLine(p: Node): void {
    if (this.#logLen + 2 > this.#log.length) {
      const grown = new Int32Array(this.#log.length * 2);
      grown.set(this.#log);
      this.#log = grown;
    }
    this.#log[this.#logLen++] = this.offset;
    this.#log[this.#logLen++] = this.lineEnd;
    p.lineTo = this.#logLen;
  }

  /** Continuation of open block `b` on this line: 0 matched, 1 not, 2 line consumed (closing fence). */
  #continue(b: Node): number {
    const t = this.t;
    switch (b.type) {
      case BLOCKQUOTE:
        if (!this.indented && t.charCodeAt(this.nextNonspace) === 62 && !this.blank) {
          this.#advanceNextNonspace();
          b.end = Math.max(b.end, this.offset + 1);
          this.#advanceOffset(1, false);
          if (isSpaceTab(t.charCodeAt(this.offset)) && this.offset < this.lineEnd) this.#advanceOffset(1, true);
          return 0;
        }
        return 1;
      case ITEM:
      case FOOTNOTE:
        if (this.blank) {
          if (b.type === ITEM && !b.last) return 1; // a blank line after an empty item ends it
          this.#advanceNextNonspace();
        } else if (this.indent >= b.markerOffset + b.padding) {
          this.#advanceOffset(b.markerOffset + b.padding, true);
        } else return 1;
        return 0;
      case LIST:
        return 0;
      case CODE:
        if (b.fenced) {
          const ns = this.nextNonspace;
          if (this.indent <= 3 && t.charCodeAt(ns) === b.fenceChar) {
            let j = ns;
            while (j < this.lineEnd && t.charCodeAt(j) === b.fenceChar) j++;
            if (j - ns >= b.fenceLength && isBlankTail(t, j, this.lineEnd)) {
              b.end = j;
              this.#finalize(b);
              return 2;
            }
          }
          let i = b.fenceOffset;
          while (i > 0 && isSpaceTab(t.charCodeAt(this.offset)) && this.offset < this.lineEnd) {
            this.#advanceOffset(1, true);
            i--;
          }
          return 0;
        }
        if (this.indent >= 4) this.#advanceOffset(4, true);
        else if (this.blank) this.#advanceNextNonspace();
        else return 1;
        return 0;
      case HTML:
        return this.blank && (b.htmlType === 6 || b.htmlType === 7) ? 1 : 0;
      case PARAGRAPH:
      case TABLE:
        return this.blank ? 1 : 0;
      default:
        return 1; // headings and thematic breaks hold one line
    }
  }

  #closeUnmatched(): void {
    if (this.allClosed) return;
    while (this.oldTip !== this.lastMatched) {
      const parent = this.oldTip.parent!;
      this.#finalize(this.oldTip);
      this.oldTip = parent;
    }
    this.allClosed = true;
  }

  /** Opens a block of `type` at `start` under the tip, closing blocks that cannot hold it. */
  #add(type: number, start: number): Node {
    while (!canContain(this.tip.type, type)) this.#finalize(this.tip);
    const node = new Node(type, start, this.tip);
    this.tip.last = node;
    this.tip = node;
    this.steps++;
    return node;
  }

  /** Tries to open a block at `nextNonspace` under `container`: 0 none, 1 a container, 2 a leaf. */
  #start(container: Node): number {
    const t = this.t;
    const ns = this.nextNonspace;
    const c = t.charCodeAt(ns);
    const end = this.lineEnd;
    const nest = container.depth < MAX_NESTING;
    if (!this.indented) {
      // block quote
      if (c === 62 && nest) {
        this.#advanceNextNonspace();
        const gt = this.offset;
        this.#advanceOffset(1, false);
        if (isSpaceTab(t.charCodeAt(this.offset)) && this.offset < end) this.#advanceOffset(1, true);
        this.#closeUnmatched();
        const q = this.#add(BLOCKQUOTE, gt);
        q.end = gt + 1;
        return 1;
      }
      // GFM footnote definition [^label]:
      if (c === 91 && t.charCodeAt(ns + 1) === 94 && nest) {
        const after = footnoteLabelEnd(t, ns, end);
        if (after > 0) {
          this.footnotes.add(normalizeLabel(t.slice(ns + 2, after - 2)));
          this.#closeUnmatched();
          const f = this.#add(FOOTNOTE, ns);
          f.end = after;
          f.markerOffset = 0;
          f.padding = 4;
          this.#advanceNextNonspace();
          this.#advanceOffset(after - ns, false);
          this.#findNextNonspace();
          if (!this.blank) this.#advanceNextNonspace();
          return 1;
        }
      }
      // ATX heading
      if (c === 35) {
        let j = ns;
        while (j < end && t.charCodeAt(j) === 35 && j - ns < 7) j++;
        const level = j - ns;
        if (level <= 6 && (j >= end || isSpaceTab(t.charCodeAt(j)))) {
          this.#advanceNextNonspace();
          this.#closeUnmatched();
          const h = this.#add(HEADING, ns);
          h.level = level;
          h.atx = true;
          h.end = this.#trimEnd(ns, end);
          // content: without the opening run, a closing run of # and the spaces around
          let cs = j;
          while (cs < end && isSpaceTab(t.charCodeAt(cs))) cs++;
          let ce = end;
          while (ce > cs && isSpaceTab(t.charCodeAt(ce - 1))) ce--;
          let k = ce;
          while (k > cs && t.charCodeAt(k - 1) === 35) k--;
          if (k === cs) ce = cs;
          else if (k < ce && isSpaceTab(t.charCodeAt(k - 1))) {
            ce = k;
            while (ce > cs && isSpaceTab(t.charCodeAt(ce - 1))) ce--;
          }
          h.content = t.slice(cs, ce);
          this.offset = end;
          return 2;
        }
      }
      // fenced code
      if (c === 96 || c === 126) {
        let j = ns;
        while (j < end && t.charCodeAt(j) === c) j++;
        if (j - ns >= 3 && (c === 126 || !hasChar(t, 96, j, end))) {
          this.#closeUnmatched();
          const code = this.#add(CODE, ns);
          code.fenced = true;
          code.fenceChar = c;
          code.fenceLength = j - ns;
          code.fenceOffset = this.indent;
          this.#advanceNextNonspace();
          this.#advanceOffset(j - ns, false);
          code.end = this.#trimEnd(ns, end);
          return 2;
        }
      }
      // HTML block
      if (c === 60) {
        const kind = htmlBlockKind(t, ns, end);
        // kind 7 cannot interrupt a paragraph, nor start on a lazy line
        if (kind > 0 && (kind < 7 || (container.type !== PARAGRAPH && !(!this.allClosed && !this.blank && this.tip.type === PARAGRAPH)))) {
          this.#closeUnmatched();
          const h = this.#add(HTML, ns);
          h.htmlType = kind;
          return 2;
        }
      }
      if (container.type === PARAGRAPH) {
        // GFM table: a delimiter row under a paragraph whose last line has as many cells
        if (c === 124 || c === 58 || c === 45) {
          const cells = delimiterCells(t, ns, end);
          if (cells > 0) {
            const head = this.#log[container.lineTo - 2];
            const headEnd = this.#log[container.lineTo - 1];
            if (headCells(t, head, headEnd) === cells) {
              this.#closeUnmatched();
              this.#table(container, head, headEnd);
              this.offset = end;
              return 2;
            }
          }
        }
        // setext heading underline
        if (c === 61 || c === 45) {
          let j = ns;
          while (j < end && t.charCodeAt(j) === c) j++;
          if (isBlankTail(t, j, end)) {
            this.#closeUnmatched();
            this.#definitions(container);
            if (container.lineTo > container.lineFrom) {
              this.#setext(container, c === 61 ? 1 : 2, this.#trimEnd(ns, end));
              this.offset = end;
              return 2;
            }
          }
        }
      }
      // thematic break
      if (c === 42 || c === 45 || c === 95) {
        let count = 0;
        let j = ns;
        for (; j < end; j++) {
          const d = t.charCodeAt(j);
          if (d === c) count++;
          else if (!isSpaceTab(d)) break;
        }
        if (j >= end && count >= 3) {
          this.#closeUnmatched();
          const b = this.#add(THEMATIC, ns);
          b.end = this.#trimEnd(ns, end);
          this.offset = end;
          return 2;
        }
      }
    }
    // list item
    if ((!this.indented || container.type === LIST) && container.depth < MAX_NESTING - 1) {
      if (this.#listItem(container)) return 1;
    }
    // indented code
    if (this.indented && this.tip.type !== PARAGRAPH && !this.blank) {
      this.#advanceOffset(4, true);
      this.#closeUnmatched();
      const code = this.#add(CODE, ns);
      code.end = this.#trimEnd(ns, end);
      return 2;
    }
    return 0;
  }

  /** A list marker at `nextNonspace`: opens the list (if needed) and the item. */
  #listItem(container: Node): boolean {
    const t = this.t;
    const ns = this.nextNonspace;
    const end = this.lineEnd;
    if (this.indent >= 4) return false;
    const c = t.charCodeAt(ns);
    let ordered = false;
    let marker: number;
    let len: number;
    if (c === 42 || c === 43 || c === 45) {
      marker = c;
      len = 1;
    } else if (isDigit(c)) {
      let j = ns;
      while (j < end && isDigit(t.charCodeAt(j)) && j - ns < 10) j++;
      const d = t.charCodeAt(j);
      if (j - ns > 9 || (d !== 46 && d !== 41)) return false;
      if (container.type === PARAGRAPH && !(j - ns === 1 && c === 49)) return false; // only 1. interrupts a paragraph
      ordered = true;
      marker = d;
      len = j - ns + 1;
    } else return false;
    const next = t.charCodeAt(ns + len);
    if (!(ns + len >= end || next === 9 || next === 32)) return false;
    if (container.type === PARAGRAPH && isBlankTail(t, ns + len, end)) return false;
    // the item: marker, then 1–4 spaces of padding (or 1 if 5 or more, or none follow)
    this.#advanceNextNonspace();
    this.#advanceOffset(len, true);
    const spacesCol = this.column;
    const spacesOffset = this.offset;
    const spacesTab = this.partialTab;
    do {
      this.#advanceOffset(1, true);
    } while (this.column - spacesCol < 5 && this.offset < end && isSpaceTab(t.charCodeAt(this.offset)));
    const blankItem = this.offset >= end;
    const spaces = this.column - spacesCol;
    let padding: number;
    if (spaces >= 5 || spaces < 1 || blankItem) {
      padding = len + 1;
      this.column = spacesCol;
      this.offset = spacesOffset;
      this.partialTab = spacesTab;
      if (this.offset < end && isSpaceTab(t.charCodeAt(this.offset))) this.#advanceOffset(1, true);
    } else padding = len + spaces;
    this.#closeUnmatched();
    if (this.tip.type !== LIST || this.tip.ordered !== ordered || this.tip.marker !== marker) {
      const list = this.#add(LIST, ns);
      list.ordered = ordered;
      list.marker = marker;
    }
    const item = this.#add(ITEM, ns);
    item.ordered = ordered;
    item.marker = marker;
    item.markerOffset = this.indent;
    item.padding = padding;
    item.end = ns + len;
    return true;
  }

  /** Paragraph `p` becomes a table: its last line the header row; earlier lines stay a paragraph. */
  #table(p: Node, head: number, headEnd: number): void {
    const parent = p.parent!;
    p.lineTo -= 2;
    if (p.lineTo > p.lineFrom) this.#finalize(p);
    else {
      // the paragraph was only the header row: it never was a paragraph
      p.open = false;
      this.tip = parent;
      this.#logLen = p.lineFrom;
    }
    const table = this.#add(TABLE, head);
    table.rows = [{ start: head, end: this.#trimEnd(head, headEnd) }];
    table.end = this.#trimEnd(this.nextNonspace, this.lineEnd);
  }

  /** Paragraph `p` becomes a setext heading of `depth` ending at `end`. */
  #setext(p: Node, depth: number, end: number): void {
    const parent = p.parent!;
    const log = this.#log;
    const lines: string[] = [];
    for (let k = p.lineFrom; k < p.lineTo; k += 2) lines.push(this.t.slice(log[k], log[k + 1]));
    p.open = false;
    this.#logLen = p.lineFrom;
    this.tip = parent;
    const h = this.#add(HEADING, log[p.lineFrom]);
    h.level = depth;
    h.content = lines.join('\n');
    h.end = end;
  }

  /** Link reference definitions at the start of paragraph `p`: reported before it, its lines dropped. */
  #definitions(p: Node): void {
    const log = this.#log;
    const t = this.t;
    if (p.lineTo <= p.lineFrom || t.charCodeAt(log[p.lineFrom]) !== 91) return;
    // the paragraph's content: its lines (from their first non-blank character) joined by \n
    const starts: number[] = [];
    let s = '';
    for (let k = p.lineFrom; k < p.lineTo; k += 2) {
      if (k > p.lineFrom) s += '\n';
      starts.push(s.length);
      s += t.slice(log[k], log[k + 1]);
    }
    const source = (i: number): number => {
      const k = Math.max(0, upperBound(starts, i) - 1);
      return log[p.lineFrom + 2 * k] + (i - starts[k]);
    };
    let i = 0;
    let consumed = 0; // lines consumed
    const parent = p.parent!;
    while (i < s.length && s.charCodeAt(i) === 91) {
      const def = parseDefinition(s, i);
      if (!def) break;
      this.steps++;
      this.definitions.add(def.label);
      const end = source(def.end - 1) + 1;
      parent.out!.push({ type: 'definition', start: source(i), end });
      if (end > parent.end) parent.end = end;
      i = def.next;
      // lines consumed: those starting before `i`
      while (consumed < starts.length && starts[consumed] < i) consumed++;
    }
    if (consumed > 0) {
      p.lineFrom += 2 * consumed;
      if (p.lineFrom < p.lineTo) p.start = log[p.lineFrom];
    }
  }

  /** Closes block `b` and reports it to its parent. */
  #finalize(b: Node): void {
    if (!b.open) return;
    b.open = false;
    this.steps++;
    const parent = b.parent!;
    this.tip = parent;
    let block: MarkdownBlock | undefined;
    switch (b.type) {
      case PARAGRAPH: {
        this.#definitions(b);
        if (b.lineTo > b.lineFrom) {
          b.start = this.#log[b.lineFrom]; // after the definitions, if any
          // trimmed back over whitespace-only lines too (a lazy line of U+FEFF, say)
          const e = this.#trimEnd(b.start, this.#log[b.lineTo - 1]);
          b.end = e;
          if (e > b.start) block = { type: 'paragraph', start: b.start, end: e };
        }
        this.#logLen = b.lineFrom;
        break;
      }
      case HEADING: {
        const h: { type: MarkdownBlockType; start: number; end: number; depth: number; atx?: boolean; text?: string; unresolved?: boolean } = {
          type: 'heading',
          start: b.start,
          end: b.end,
          depth: b.level,
        };
        if (b.atx) h.atx = true;
        this.#headings.push({ block: h, content: b.content, top: parent.type === DOCUMENT });
        block = h;
        break;
      }
      case CODE:
        if (b.end > b.start) block = b.fenced ? { type: 'code', start: b.start, end: b.end, fenced: true } : { type: 'code', start: b.start, end: b.end };
        break;
      case TABLE:
        block = { type: 'table', start: b.start, end: b.end, rows: b.rows };
        break;
      case HTML:
      case THEMATIC:
        if (b.end > b.start) block = { type: TYPE_NAMES[b.type], start: b.start, end: b.end };
        break;
      default:
        // containers
        if (b.end > b.start) block = { type: TYPE_NAMES[b.type], start: b.start, end: b.end, children: b.out };
    }
    if (block) {
      // a block starts at its first non-whitespace character (U+FEFF and other JavaScript whitespace too)
      if (isSpace(this.t.charCodeAt(block.start))) (block as { start: number }).start = trimStart(this.t, block.start, block.end);
      parent.out!.push(block);
      if (block.end > parent.end) parent.end = block.end;
    }
  }
}

/** The first position in `[from, to)` that is not JavaScript whitespace (or `to`). */
function trimStart(t: string, from: number, to: number): number {
  while (from < to && isSpace(t.charCodeAt(from))) from++;
  return from;
}

/** True when code unit `c` occurs in `[from, to)`. */
function hasChar(t: string, c: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (t.charCodeAt(i) === c) return true;
  return false;
}

/** True when `[from, to)` holds only spaces and tabs. */
function isBlankTail(t: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpaceTab(t.charCodeAt(i))) return false;
  return true;
}

/** `[^label]:` at `i`: the offset after the colon, or 0. */
function footnoteLabelEnd(t: string, i: number, end: number): number {
  let j = i + 2;
  let data = false;
  let size = 0;
  while (j < end) {
    const c = t.charCodeAt(j);
    if (size > 999 || c === 91 || isSpaceTab(c)) return 0;
    if (c === 93) {
      if (!data) return 0;
      return t.charCodeAt(j + 1) === 58 ? j + 2 : 0;
    }
    data = true;
    size++;
    j += c === 92 && (t.charCodeAt(j + 1) === 91 || t.charCodeAt(j + 1) === 92 || t.charCodeAt(j + 1) === 93) ? 2 : 1;
  }
  return 0;
}

/** The HTML block kind (1–7) a line starting with `<` at `i` opens, or 0. */
function htmlBlockKind(t: string, i: number, end: number): number {
  const c = t.charCodeAt(i + 1);
  if (c === 33) {
    if (t.startsWith('!--', i + 1)) return 2;
    if (t.startsWith('![CDATA[', i + 1)) return 5;
    if (isAlpha(t.charCodeAt(i + 2))) return 4;
    return 0;
  }
  if (c === 63) return 3;
  const close = c === 47;
  let j = i + (close ? 2 : 1);
  const nameStart = j;
  if (!isAlpha(t.charCodeAt(j))) return 0;
  while (j < end && (isAlnum(t.charCodeAt(j)) || t.charCodeAt(j) === 45)) j++;
  const name = t.slice(nameStart, j).toLowerCase();
  const after = t.charCodeAt(j);
  const ends = j >= end || after === 32 || after === 9 || after === 62 || (after === 47 && t.charCodeAt(j + 1) === 62);
  if (!close && RAW_NAMES.has(name) && (j >= end || after === 32 || after === 9 || after === 62)) return 1;
  if (BLOCK_NAMES.has(name) && ends) return 6;
  // kind 7: a complete open or closing tag, then only whitespace (commonmark.js and micromark accept raw names here too)
  let k = j;
  if (close) {
    while (k < end && isSpaceTab(t.charCodeAt(k))) k++;
    if (t.charCodeAt(k) !== 62) return 0;
    return isBlankTail(t, k + 1, end) ? 7 : 0;
  }
  for (;;) {
    const ws = k;
    while (k < end && isSpaceTab(t.charCodeAt(k))) k++;
    const d = t.charCodeAt(k);
    if (k >= end) return 0;
    if (d === 62) return isBlankTail(t, k + 1, end) ? 7 : 0;
    if (d === 47) return t.charCodeAt(k + 1) === 62 && isBlankTail(t, k + 2, end) ? 7 : 0;
    if (k === ws || !(isAlpha(d) || d === 95 || d === 58)) return 0;
    k++;
    while (k < end && (isAlnum(t.charCodeAt(k)) || t.charCodeAt(k) === 95 || t.charCodeAt(k) === 46 || t.charCodeAt(k) === 58 || t.charCodeAt(k) === 45)) k++;
    let e = k;
    while (e < end && isSpaceTab(t.charCodeAt(e))) e++;
    if (t.charCodeAt(e) !== 61) continue;
    e++;
    while (e < end && isSpaceTab(t.charCodeAt(e))) e++;
    const q = t.charCodeAt(e);
    if (q === 34 || q === 39) {
      const close2 = t.indexOf(q === 34 ? '"' : "'", e + 1);
      if (close2 < 0 || close2 >= end) return 0;
      k = close2 + 1;
    } else {
      const v = e;
      while (e < end) {
        const u = t.charCodeAt(e);
        if (u <= 32 || u === 34 || u === 39 || u === 61 || u === 60 || u === 62 || u === 96) break;
        e++;
      }
      if (e === v) return 0;
      k = e;
    }
  }
}

/** Cells of a GFM table header row (micromark's count), or 0 when it cannot be one. */
function headCells(t: string, start: number, end: number): number {
  let size = 0;
  let sizeB = 0;
  let seen: boolean | undefined;
  let i = start;
  if (t.charCodeAt(i) !== 124) {
    seen = true;
    sizeB++;
  }
  while (i < end) {
    const c = t.charCodeAt(i);
    if (isSpaceTab(c)) {
      i++;
      continue;
    }
    sizeB++;
    if (seen) {
      seen = false;
      size++;
    }
    if (c === 124) {
      seen = true;
      i++;
      continue;
    }
    // cell data: to the next pipe or whitespace, \\ and \| escaped
    while (i < end) {
      const d = t.charCodeAt(i);
      if (d === 124 || isSpaceTab(d)) break;
      i += d === 92 && (t.charCodeAt(i + 1) === 92 || t.charCodeAt(i + 1) === 124) && i + 1 < end ? 2 : 1;
    }
  }
  return sizeB > 1 ? size : 0;
}

/** Cells of a GFM table delimiter row (`| :-- | --: |`), or 0 when it is not one. */
function delimiterCells(t: string, start: number, end: number): number {
  let i = start;
  let cells = 0;
  let seen = false;
  if (t.charCodeAt(i) === 124) {
    seen = true;
    i++;
  }
  for (;;) {
    while (i < end && isSpaceTab(t.charCodeAt(i))) i++;
    if (i >= end) break; // after a pipe: the row may end
    let c = t.charCodeAt(i);
    if (c === 58) {
      seen = true;
      i++;
      c = t.charCodeAt(i);
      if (c !== 45) return 0;
    }
    if (c !== 45) return 0;
    while (i < end && t.charCodeAt(i) === 45) i++;
    if (t.charCodeAt(i) === 58 && i < end) {
      seen = true;
      i++;
    }
    cells++;
    while (i < end && isSpaceTab(t.charCodeAt(i))) i++;
    if (i >= end) break;
    if (t.charCodeAt(i) !== 124) return 0;
    seen = true;
    i++;
  }
  return seen ? cells : 0;
}

/** One link reference definition at `s[i]` (`[label]: destination "title"`), or undefined. */
function parseDefinition(s: string, i: number): { label: string; end: number; next: number } | undefined {
  const n = s.length;
  // label
  let j = i + 1;
  let data = false;
  for (;;) {
    if (j >= n || j - i > 1000) return undefined;
    const c = s.charCodeAt(j);
    if (c === 91) return undefined;
    if (c === 93) break;
    if (c === 92 && j + 1 < n && isAsciiPunct(s.charCodeAt(j + 1))) {
      data = true;
      j += 2;
      continue;
    }
    if (!isSpaceTab(c) && c !== 10) data = true; // Markdown white space: spaces, tabs, line endings (U+00A0 is label text)
    j++;
  }
  if (!data || j - i - 1 > 999) return undefined;
  const label = normalizeLabel(s.slice(i + 1, j));
  if (s.charCodeAt(j + 1) !== 58) return undefined;
  j = skipWhitespace(s, j + 2, true);
  // destination
  let destEnd: number;
  if (s.charCodeAt(j) === 60) {
    let k = j + 1;
    for (;;) {
      if (k >= n) return undefined;
      const c = s.charCodeAt(k);
      if (c === 62) break;
      if (c === 60 || c === 10) return undefined;
      k += c === 92 && k + 1 < n && isAsciiPunct(s.charCodeAt(k + 1)) ? 2 : 1;
    }
    destEnd = k + 1;
  } else {
    destEnd = rawDestinationEnd(s, j, Infinity);
    if (destEnd < 0) return undefined;
  }
  // optional title (after whitespace), then only spaces and tabs to the line end
  const lineEndAfter = (p: number): number => {
    while (p < n && isSpaceTab(s.charCodeAt(p))) p++;
    if (p >= n) return n;
    return s.charCodeAt(p) === 10 ? p + 1 : -1;
  };
  const ws = skipWhitespace(s, destEnd, true);
  if (ws > destEnd && ws < n) {
    const q = s.charCodeAt(ws);
    const close = q === 34 ? 34 : q === 39 ? 39 : q === 40 ? 41 : -1;
    if (close > 0) {
      let k = ws + 1;
      let ok = false;
      while (k < n) {
        const c = s.charCodeAt(k);
        if (c === close) {
          ok = true;
          break;
        }
        if (q === 40 && c === 40) break;
        // a blank line ends a title (no blank lines inside paragraph content)
        k += c === 92 && k + 1 < n && isAsciiPunct(s.charCodeAt(k + 1)) ? 2 : 1;
      }
      if (ok) {
        const next = lineEndAfter(k + 1);
        if (next >= 0) return { label, end: k + 1, next };
      }
    }
  }
  const next = lineEndAfter(destEnd);
  if (next < 0) return undefined;
  return { label, end: destEnd, next };
}

/** Skips spaces and tabs and (when `lines`) at most one line ending. */
function skipWhitespace(s: string, i: number, lines: boolean): number {
  while (i < s.length && isSpaceTab(s.charCodeAt(i))) i++;
  if (lines && s.charCodeAt(i) === 10) {
    i++;
    while (i < s.length && isSpaceTab(s.charCodeAt(i))) i++;
  }
  return i;
}
