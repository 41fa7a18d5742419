/**
 * The Markdown block scanner: CommonMark's "parsing strategy" (appendix A) line by line
 * — match the open containers, open new blocks, add the rest to the tip or as a lazy
 * continuation — with each construct's start in its own module of this folder. See
 * `../blocks.ts` for what it reports. Core module: no Node built-ins.
 * @module
 */
import { isBlank, isSpace } from '../../../engine/text.js';
import { inlineText } from '../inline.js';
import type { MarkdownBlock, MarkdownBlockType, MarkdownScan, ScanOptions } from '../blocks.js';
import { isBlankTail, isSpaceTab, runEnd } from '../chars.js';
import { blockQuoteStart } from './block-quote.js';
import { fencedCodeStart, indentedCodeStart } from './code.js';
import { takeDefinitions } from './definition.js';
import { frontMatter } from './frontmatter.js';
import { footnoteStart } from './gfm-footnote-definition.js';
import { tableStart } from './gfm-table.js';
import { atxHeadingStart, setextStart } from './heading.js';
import { HTML_CLOSE, htmlFlowStart } from './html-flow.js';
import { listItemStart } from './list.js';
import { thematicBreakStart } from './thematic-break.js';
import { BLOCKQUOTE, CODE, DOCUMENT, FOOTNOTE, HEADING, HTML, ITEM, LIST, PARAGRAPH, TABLE, THEMATIC, MAX_NESTING, Node, TYPE_NAMES, canContain } from './node.js';

/** Characters that may start a block other than a paragraph (after up to 3 spaces). */
const SPECIAL = new Uint8Array(128);
for (const ch of '#`~*+_=<>-0123456789|:[') SPECIAL[ch.charCodeAt(0)] = 1;

/**
 * The scanner's state over one text: the open blocks, the current line and the position
 * helpers of commonmark.js. Its members are the construct modules' to read and drive
 * (`block-quote.ts`, `list.ts`, …); nothing outside this folder uses them.
 */
export class Scanner {
  readonly t: string;
  readonly n: number;
  readonly opts: ScanOptions;
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
  nl = -2;
  cr = -2;
  readonly hasCr: boolean;
  /** Paragraph lines: content start, line end, pairs. */
  log = new Int32Array(256);
  logLen = 0;
  /** Headings to give text once every definition is known. */
  readonly headings: { block: { text?: string; unresolved?: boolean }; content: string; top: boolean }[] = [];
  openFrontMatter = false;
  /** See {@link MarkdownScan.resumePoints}. */
  readonly resumePoints: number[] = [];

  constructor(text: string, options: ScanOptions) {
    this.t = text;
    this.n = Math.min(options.end ?? text.length, text.length);
    this.opts = options;
    this.definitions = new Set(options.definitions);
    this.footnotes = new Set(options.footnotes);
    this.doc = new Node(DOCUMENT, 0, undefined);
    this.tip = this.oldTip = this.lastMatched = this.doc;
    this.hasCr = text.indexOf('\r') >= 0;
  }

  run(): MarkdownScan {
    const t = this.t;
    let pos = 0;
    if (this.opts.documentStart !== false) {
      if (t.charCodeAt(0) === 0xfeff) pos = 1;
      pos = frontMatter(this, pos);
    }
    const resume = this.opts.partial === true;
    const doc = this.doc;
    while (pos < this.n) {
      const end = this.terminator(pos);
      this.lineStart = pos;
      this.lineEnd = end;
      // the last top-level block before the line: every block still open lies inside it
      const before = doc.last;
      this.readLine();
      // a point when that block is closed, not by this line as its own last line (a closing
      // fence, the end of an HTML block), and no block of this line starts above it
      if (resume && (!before || (!before.open && before.end <= pos))) {
        const last = doc.last;
        if (last === before || last!.start >= pos) this.resumePoints.push(pos);
      }
      pos = end >= this.n ? this.n : end + (t.charCodeAt(end) === 13 && t.charCodeAt(end + 1) === 10 && end + 1 < this.n ? 2 : 1);
    }
    while (this.tip !== this.doc) this.finalize(this.tip);
    const context = { definitions: this.definitions, footnotes: this.footnotes };
    for (const h of this.headings) {
      if (this.opts.topLevelHeadingText && !h.top) continue;
      const r = inlineText(h.content, context);
      this.steps += r.steps;
      h.block.text = r.text;
      if (r.unresolved) h.block.unresolved = true;
    }
    return { blocks: this.doc.out!, definitions: this.definitions, footnotes: this.footnotes, openFrontMatter: this.openFrontMatter, resumePoints: this.resumePoints, steps: this.steps };
  }

  /** Position of the line terminator at or after `p` (or the scan end). */
  terminator(p: number): number {
    const t = this.t;
    if (this.nl !== -1 && this.nl < p) this.nl = t.indexOf('\n', p);
    let e = this.nl === -1 ? this.n : this.nl;
    if (this.hasCr) {
      if (this.cr !== -1 && this.cr < p) this.cr = t.indexOf('\r', p);
      if (this.cr !== -1 && this.cr < e) e = this.cr;
    }
    return Math.min(e, this.n);
  }

  // --- position helpers (commonmark.js) ---

  /** Line start and offsets of the last whitespace scan (reused while inside it: deep list indentation is scanned once per line, not per container). */
  #scanLine = -1;
  #scanFrom = 0;

  findNextNonspace(): void {
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

  advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partialTab = false;
  }

  advanceOffset(count: number, columns: boolean): void {
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
  trimEnd(from: number, to: number): number {
    const t = this.t;
    while (to > from && isSpace(t.charCodeAt(to - 1))) to--;
    return to;
  }

  // --- the line algorithm ---

  readLine(): void {
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
      this.findNextNonspace();
      const r = this.continueBlock(container);
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
      this.findNextNonspace();
      const c = this.t.charCodeAt(this.nextNonspace);
      if (!this.indented && (this.blank || c >= 128 || !SPECIAL[c])) {
        this.advanceNextNonspace();
        break;
      }
      const r = this.startBlock(container);
      if (r === 0) {
        this.advanceNextNonspace();
        break;
      }
      this.steps++;
      container = this.tip;
      if (r === 2) matchedLeaf = true;
    }
    // the rest of the line: lazy continuation, or text of the container
    if (!this.allClosed && !this.blank && this.tip.type === PARAGRAPH) {
      this.logLine(this.tip);
      return;
    }
    this.closeUnmatched();
    const type = container.type;
    if (type === PARAGRAPH) this.logLine(container);
    else if (type === CODE || type === HTML) {
      const e = this.trimEnd(this.offset, this.lineEnd);
      if (e > this.offset && !isBlank(this.t, this.offset, e)) container.end = Math.max(container.end, e);
      if (type === HTML && container.htmlType <= 5 && HTML_CLOSE[container.htmlType]!.test(this.t.slice(this.offset, this.lineEnd))) this.finalize(container);
    } else if (type === TABLE) {
      if (this.offset < this.lineEnd && !this.blank) {
        const e = this.trimEnd(this.nextNonspace, this.lineEnd);
        // a row of only other white space (U+FEFF, U+00A0 …) would end the table past its last newline: no row
        if (e > this.nextNonspace) {
          container.rows!.push({ start: this.nextNonspace, end: e });
          container.end = Math.max(container.end, e);
        }
      }
    } else if (this.offset < this.lineEnd && !this.blank) {
      const p = this.add(PARAGRAPH, this.nextNonspace);
      this.advanceNextNonspace();
      p.lineFrom = p.lineTo = this.logLen;
      this.logLine(p);
    }
  }

  /** Logs the current line (from `offset`) as a line of paragraph `p`. */
  logLine(p: Node): void {
    if (this.logLen + 2 > this.log.length) {
      const grown = new Int32Array(this.log.length * 2);
      grown.set(this.log);
      this.log = grown;
    }
    this.log[this.logLen++] = this.offset;
    this.log[this.logLen++] = this.lineEnd;
    p.lineTo = this.logLen;
  }

  /** Continuation of open block `b` on this line: 0 matched, 1 not, 2 line consumed (closing fence). */
  continueBlock(b: Node): number {
    const t = this.t;
    switch (b.type) {
      case BLOCKQUOTE:
        if (!this.indented && t.charCodeAt(this.nextNonspace) === 62 && !this.blank) {
          this.advanceNextNonspace();
          b.end = Math.max(b.end, this.offset + 1);
          this.advanceOffset(1, false);
          if (isSpaceTab(t.charCodeAt(this.offset)) && this.offset < this.lineEnd) this.advanceOffset(1, true);
          return 0;
        }
        return 1;
      case ITEM:
      case FOOTNOTE:
        if (this.blank) {
          if (b.type === ITEM && !b.last) return 1; // a blank line after an empty item ends it
          this.advanceNextNonspace();
        } else if (this.indent >= b.markerOffset + b.padding) {
          this.advanceOffset(b.markerOffset + b.padding, true);
        } else return 1;
        return 0;
      case LIST:
        return 0;
      case CODE:
        if (b.fenced) {
          const ns = this.nextNonspace;
          if (this.indent <= 3 && t.charCodeAt(ns) === b.fenceChar) {
            const j = runEnd(t, ns, this.lineEnd, b.fenceChar);
            if (j - ns >= b.fenceLength && isBlankTail(t, j, this.lineEnd)) {
              b.end = j;
              this.finalize(b);
              return 2;
            }
          }
          let i = b.fenceOffset;
          while (i > 0 && isSpaceTab(t.charCodeAt(this.offset)) && this.offset < this.lineEnd) {
            this.advanceOffset(1, true);
            i--;
          }
          return 0;
        }
        if (this.indent >= 4) this.advanceOffset(4, true);
        else if (this.blank) this.advanceNextNonspace();
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

  closeUnmatched(): void {
    if (this.allClosed) return;
    while (this.oldTip !== this.lastMatched) {
      const parent = this.oldTip.parent!;
      this.finalize(this.oldTip);
      this.oldTip = parent;
    }
    this.allClosed = true;
  }

  /** Opens a block of `type` at `start` under the tip, closing blocks that cannot hold it. */
  add(type: number, start: number): Node {
    while (!canContain(this.tip.type, type)) this.finalize(this.tip);
    const node = new Node(type, start, this.tip);
    this.tip.last = node;
    this.tip = node;
    this.steps++;
    return node;
  }

  /** Tries to open a block at `nextNonspace` under `container`: 0 none, 1 a container, 2 a leaf. */
  startBlock(container: Node): number {
    const t = this.t;
    const ns = this.nextNonspace;
    const c = t.charCodeAt(ns);
    const nest = container.depth < MAX_NESTING;
    if (!this.indented) {
      if (c === 62 && nest) {
        blockQuoteStart(this);
        return 1;
      }
      if (c === 91 && t.charCodeAt(ns + 1) === 94 && nest && footnoteStart(this)) return 1;
      if (c === 35 && atxHeadingStart(this)) return 2;
      if ((c === 96 || c === 126) && fencedCodeStart(this)) return 2;
      if (c === 60 && htmlFlowStart(this, container)) return 2;
      if (container.type === PARAGRAPH) {
        if ((c === 124 || c === 58 || c === 45) && tableStart(this, container)) return 2;
        if ((c === 61 || c === 45) && setextStart(this, container)) return 2;
      }
      if ((c === 42 || c === 45 || c === 95) && thematicBreakStart(this)) return 2;
    }
    if ((!this.indented || container.type === LIST) && container.depth < MAX_NESTING - 1 && listItemStart(this, container)) return 1;
    if (this.indented && this.tip.type !== PARAGRAPH && !this.blank) {
      indentedCodeStart(this);
      return 2;
    }
    return 0;
  }

  /** Closes block `b` and reports it to its parent. */
  finalize(b: Node): void {
    if (!b.open) return;
    b.open = false;
    this.steps++;
    const parent = b.parent!;
    this.tip = parent;
    let block: MarkdownBlock | undefined;
    switch (b.type) {
      case PARAGRAPH: {
        takeDefinitions(this, b);
        if (b.lineTo > b.lineFrom) {
          b.start = this.log[b.lineFrom]; // after the definitions, if any
          // trimmed back over whitespace-only lines too (a lazy line of U+FEFF, say)
          const e = this.trimEnd(b.start, this.log[b.lineTo - 1]);
          b.end = e;
          if (e > b.start) block = { type: 'paragraph', start: b.start, end: e };
        }
        this.logLen = b.lineFrom;
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
        this.headings.push({ block: h, content: b.content, top: parent.type === DOCUMENT });
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
