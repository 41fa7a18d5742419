/**
 * HTML boundaries: the blocks of a document's kept content, its visible text, and a map
 * from visible text back to the source.
 *
 * From the element tree of `./tree.ts` one linear walk makes:
 * - the **visible text**: the text a reader sees, entities decoded, whitespace collapsed
 *   as a browser renders it (runs of whitespace → one space, outside `pre`); blocks on
 *   lines of their own, `<br>` a line break, table cells joined by ` | `, rows by lines;
 *   `script`, `style`, `template`, `noscript`, `head` and every hidden element
 *   (`hidden`, `display: none`, a closed `dialog`) contribute nothing;
 * - **dropped regions**: page landmarks left out of the content — by default `nav`,
 *   `aside`, and `header` / `footer` of the page (not those of an `article`, `section`,
 *   `aside`, `nav` or `main`, which belong to that content), and elements with the
 *   landmark roles `navigation`, `complementary`, `banner`, `contentinfo`;
 * - **blocks**, in document order: paragraphs and other leaf blocks (an element with no
 *   block inside, or a run of inline content between blocks), headings, `pre`, lists
 *   (`ul`, `ol`, `menu`, `dl`) with their items, `blockquote` and `figure` with their
 *   blocks, tables with their rows and cells; containers (`div`, `section`, `main` …) are
 *   flattened into the blocks they hold. Each block has its source span, its span in
 *   the visible text, and its heading path (`h1`–`h6` ranks, scoped by `section` /
 *   `article`; a sectioning element without a heading of its own contributes its
 *   `aria-label` or `title`); `hardBefore` marks where the heading path changes.
 *
 * Headings inside lists, tables, block quotes and figures are content, not structure.
 * Core module: no Node built-ins.
 * @module
 */
import { isBlank, isSpace, trimSpan } from '../../engine/text.js';
import { parseHtmlTree, BLOCK_TAGS, IntList, type HtmlElement, type TextPieces } from './tree.js';
import { upperBound } from '../../engine/search.js';

/** Landmark element names the chunker may drop (option `drop`). */
export const LANDMARKS = ['nav', 'aside', 'header', 'footer'] as const;
export type Landmark = (typeof LANDMARKS)[number];

/** ARIA landmark roles and the element they stand for. */
const ROLE_LANDMARK: Readonly<Record<string, Landmark>> = { navigation: 'nav', complementary: 'aside', banner: 'header', contentinfo: 'footer' };

/** What a block is. */
export type HtmlBlockKind = 'text' | 'heading' | 'pre' | 'group' | 'table';

/** A node of a heading path: a heading, or a sectioning element (a scope). */
export interface PathNode {
  readonly parent: PathNode | undefined;
  readonly depth: number;
  /** Heading rank 1–6; 0 for a sectioning element. */
  readonly rank: number;
  /** The heading's span in the visible text; -1 for a sectioning element. */
  readonly vStart: number;
  readonly vEnd: number;
  /** A sectioning element's label (`aria-label`, `title`), when it has no heading of its own. */
  readonly label: string | undefined;
  /** The path as strings, once asked for. */
  strings?: string[];
}

/** A span of the visible text. */
export interface VisibleSpan {
  vStart: number;
  vEnd: number;
}

/** A table row: its source span (the `tr`), its visible span, and its cells. */
export interface HtmlTableRow extends VisibleSpan {
  start: number;
  end: number;
  /** Cells with their visible span (vStart −1: empty) and `colspan`. */
  cells: (VisibleSpan & { span: number })[];
}

/** The rows of a table block. */
export interface HtmlTableInfo {
  caption: VisibleSpan | undefined;
  /** Header rows: those in `thead`, else the first row when all its cells are `th`. */
  head: HtmlTableRow[];
  body: HtmlTableRow[];
  /** False when the table holds visible text outside its cells and caption (it is then split as text). */
  regular: boolean;
}

/** A block of kept content. */
export interface HtmlBlock extends VisibleSpan {
  /** Tag name (`p`, `h2`, `ul`, `li`, `table`, `pre` …), `#text` for inline content between blocks. */
  readonly tag: string;
  readonly kind: HtmlBlockKind;
  /** Source span: the element's start tag through its end tag; for inline content, its first to its last node. */
  start: number;
  end: number;
  /** The heading path the block lies under (a heading's own path ends with itself). */
  readonly path: PathNode | undefined;
  /** A chunk must not hold this block together with the one before it (the heading path changes). */
  hardBefore: boolean;
  /** The blocks of a group (list items, a block quote's blocks, an item's blocks). */
  children?: HtmlBlock[];
  table?: HtmlTableInfo;
}

/** A landmark left out of the content. */
export interface DroppedRegion {
  /** Its tag name (`nav`, `header`, `div` for `role="navigation"` …). */
  element: string;
  start: number;
  end: number;
}

/** What {@link outlineHtml} returns. */
export interface HtmlOutline {
  readonly source: string;
  /** The visible text of the kept content. */
  readonly visible: string;
  /** Top-level blocks, in document order. */
  readonly blocks: HtmlBlock[];
  readonly dropped: DroppedRegion[];
  readonly map: VisibleMap;
  /** Tokenizer events, tree operations and walk steps: work counting for linear-time tests. */
  readonly operations: number;
  /** A block's heading path as strings (headings' visible text, sectioning labels). */
  headingPath(node: PathNode | undefined): string[];
}

/** Options of {@link outlineHtml}. */
export interface HtmlOutlineOptions {
  /** Landmarks to drop (default all of {@link LANDMARKS}). */
  drop?: ReadonlySet<string>;
}

/**
 * Where each character of the visible text comes from: segments `[v, v + len)` of the
 * visible text copied from `[src, src + srcLen)` of the source — one to one when the
 * lengths agree, else (a character reference, collapsed whitespace) as a whole; text
 * between segments (separators the walk adds: line breaks, ` | `) comes from nowhere.
 */
export class VisibleMap {
  readonly #v = new IntList();
  readonly #src = new IntList();
  readonly #len = new IntList();
  readonly #srcLen = new IntList();

  /** Segments so far. */
  get count(): number {
    return this.#v.length;
  }

  /** Appends a segment, merging it into the previous one where both are one to one and adjacent. */
  add(v: number, src: number, len: number, srcLen: number): void {
    const n = this.#v.length;
    if (n > 0 && len === srcLen) {
      const k = n - 1;
      const pv = this.#v.data[k];
      const pl = this.#len.data[k];
      const ps = this.#src.data[k];
      if (pl === this.#srcLen.data[k] && v - (pv + pl) === src - (ps + pl) && v - (pv + pl) <= 1 && v >= pv + pl) {
        // contiguous, or separated by one collapsed whitespace character that maps to one source character
        this.#len.data[k] = this.#srcLen.data[k] = v + len - pv;
        return;
      }
    }
    this.#v.push(v);
    this.#src.push(src);
    this.#len.push(len);
    this.#srcLen.push(srcLen);
  }

  /** The source spans the visible text comes from, in order, adjacent ones merged: `[start, end)` pairs. */
  sourceSpans(): { start: number; end: number }[] {
    const out: { start: number; end: number }[] = [];
    for (let k = 0; k < this.#v.length; k++) {
      const start = this.#src.data[k];
      const end = start + this.#srcLen.data[k];
      const last = out[out.length - 1];
      if (last && last.end === start) last.end = end;
      else out.push({ start, end });
    }
    return out;
  }

  /** Index of the last segment starting at or before `v`, or −1. */
  #find(v: number): number {
    return upperBound(this.#v.data, v, 0, this.#v.length) - 1;
  }

  /** The source offset where visible offset `v` starts (text from nowhere: the next segment's start; −1 if none). */
  sourceStart(v: number): number {
    const k = this.#find(v);
    if (k >= 0 && v < this.#v.data[k] + this.#len.data[k]) {
      return this.#len.data[k] === this.#srcLen.data[k] ? this.#src.data[k] + (v - this.#v.data[k]) : this.#src.data[k];
    }
    return k + 1 < this.#v.length ? this.#src.data[k + 1] : -1;
  }

  /** The source offset where the visible text before `vEnd` ends (text from nowhere: the previous segment's end; −1 if none). */
  sourceEnd(vEnd: number): number {
    const k = this.#find(vEnd - 1);
    if (k < 0) return -1;
    const v = this.#v.data[k];
    const len = this.#len.data[k];
    if (vEnd <= v + len && len === this.#srcLen.data[k]) return this.#src.data[k] + (vEnd - v);
    return this.#src.data[k] + this.#srcLen.data[k];
  }
}

/** Separators between visible pieces, weakest first. */
const enum Sep {
  None = 0,
  Space = 1,
  Cell = 2,
  Line = 3,
}
const SEP_TEXT = ['', ' ', ' | ', '\n'];

const HEADING_RANK: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const PRE_TAGS = new Set(['pre', 'listing', 'xmp', 'plaintext']);
const GROUP_TAGS = new Set(['ul', 'ol', 'menu', 'dir', 'dl', 'blockquote', 'figure']);
const ITEM_TAGS = new Set(['li', 'dt', 'dd']);
const SCOPE_TAGS = new Set(['section', 'article', 'aside', 'nav']);
/** Ancestors that make a `header` / `footer` belong to content rather than to the page. */
const CONTENT_SCOPE = new Set(['article', 'aside', 'main', 'nav', 'section']);
const TABLE_SECTIONS = new Set(['thead', 'tbody', 'tfoot']);
/** Blocks that end a heading holding them (an unclosed heading): flow content, not layout wrappers such as `div`. */
const FLOW_BREAKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dir', 'dl', 'fieldset', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hr', 'listing', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul', 'xmp',
]);

/** Something that records the visible span it receives text in. */
interface Recorder extends VisibleSpan {}

/** A block being collected: a leaf's text goes here. */
interface Leaf extends Recorder {
  tag: string;
  kind: HtmlBlockKind;
  start: number;
  end: number;
  /** An anonymous run of inline content: its source span follows its text. */
  anonymous: boolean;
  /** A heading that holds blocks (an unclosed `<h1>` before paragraphs): it ends at its first block; its span follows its text. */
  split?: Frame;
}

/** A table being collected. */
interface TableState extends Recorder {
  el: HtmlElement;
  info: HtmlTableInfo;
  row: HtmlTableRow | undefined;
  rowHead: boolean;
  section: string;
}

/** One open element of the walk and what entering it set up. */
interface Frame {
  el: HtmlElement;
  next: number;
  /** What to undo or finish on exit. */
  role: 'root' | 'leaf' | 'inline' | 'container' | 'group' | 'item' | 'table' | 'row' | 'cell' | 'caption' | 'tablePart' | 'stray';
  /** Visible length when entered (inline elements: did they add text?). */
  vAt: number;
  /** The heading path to restore (sectioning elements). */
  savedPath?: PathNode | undefined;
  scoped?: boolean;
  contentScope?: boolean;
  list?: HtmlBlock[];
  recorder?: Recorder;
}

/** The walk over the tree that makes the outline. */
class Walker {
  readonly source: string;
  readonly pieces: TextPieces;
  readonly drop: ReadonlySet<string>;
  readonly parts: string[] = [];
  length = 0;
  readonly map = new VisibleMap();
  readonly dropped: DroppedRegion[] = [];
  readonly blocks: HtmlBlock[] = [];
  /** The list blocks go to: the top level, or the open group's children. */
  out: HtmlBlock[] = this.blocks;
  groupDepth = 0;
  /** Open elements that make header/footer content (article, section …). */
  contentScopes = 0;
  sep: Sep = Sep.None;
  /** The open leaf (element leaf, heading, pre, anonymous run). */
  leaf: Leaf | undefined;
  /** Recorders of the open table, row, cell or caption. */
  readonly recorders: Recorder[] = [];
  table: TableState | undefined;
  /** Inside a table cell or caption: blocks and line breaks are spaces. */
  inCell = 0;
  pre = 0;
  path: PathNode | undefined;
  /** The lowest path depth since the last top-level block (is the previous block's path an ancestor?). */
  lowDepth = 0;
  ops = 0;

  constructor(source: string, pieces: TextPieces, drop: ReadonlySet<string>) {
    this.source = source;
    this.pieces = pieces;
    this.drop = drop;
  }

  want(sep: Sep): void {
    if (sep > this.sep) this.sep = sep;
  }

  /** Appends `text` (from source `[src, src + srcLen)`, or from nowhere when src < 0), after the pending separator. */
  #append(text: string, src: number, srcLen: number): void {
    if (this.length > 0 && this.sep !== Sep.None) {
      const s = SEP_TEXT[this.sep];
      this.parts.push(s);
      this.length += s.length;
    }
    this.sep = Sep.None;
    const at = this.length;
    this.parts.push(text);
    this.length += text.length;
    if (src >= 0) this.map.add(at, src, text.length, srcLen);
    // recorders: first and last non-whitespace character
    const { start: first, end: last } = trimSpan(text, 0, text.length);
    if (first === last) return;
    const vs = at + first;
    const ve = at + last;
    for (const r of this.recorders) {
      if (r.vStart < 0) r.vStart = vs;
      r.vEnd = ve;
    }
    const leaf = this.leaf;
    if (leaf) {
      if (leaf.vStart < 0) {
        leaf.vStart = vs;
        if (leaf.anonymous && leaf.start < 0) leaf.start = src >= 0 ? (text.length === srcLen ? src + first : src) : leaf.start;
      }
      leaf.vEnd = ve;
      if ((leaf.anonymous || leaf.split) && src >= 0) leaf.end = text.length === srcLen ? src + last : src + srcLen;
    }
  }

  /** Text piece k of the tree. */
  text(k: number): void {
    this.ops++;
    const s = this.pieces.starts[k];
    const e = this.pieces.ends[k];
    const decoded = this.pieces.decoded[k];
    if (!this.leaf && this.recorders.length === 0) {
      // inline content between blocks: an anonymous run starts at its first visible character
      if (decoded !== undefined ? isBlank(decoded) : isBlank(this.source, s, e)) return;
      this.#startRun(-1);
    } else if (this.table && this.inCell === 0 && !this.leaf) {
      // text in a table outside its cells and caption
      if (decoded !== undefined ? isBlank(decoded) : isBlank(this.source, s, e)) return;
      this.table.info.regular = false;
    }
    if (decoded !== undefined) {
      if (this.pre === 0 && isBlank(decoded)) this.want(Sep.Space);
      else this.#append(decoded, s, e - s);
      return;
    }
    if (this.pre > 0) {
      this.#appendPre(s, e);
      return;
    }
    const src = this.source;
    let i = s;
    while (i < e) {
      if (isSpace(src.charCodeAt(i))) {
        this.want(Sep.Space);
        while (i < e && isSpace(src.charCodeAt(i))) i++;
        continue;
      }
      // words joined by single spaces render as they are written: one slice, one map segment
      let j = i + 1;
      for (;;) {
        while (j < e && !isSpace(src.charCodeAt(j))) j++;
        if (j + 1 < e && src.charCodeAt(j) === 32 && !isSpace(src.charCodeAt(j + 1))) j += 2;
        else break;
      }
      this.#append(src.slice(i, j), i, j - i);
      i = j;
    }
  }

  /** Preformatted text: kept as is, except whitespace before the block's first character. */
  #appendPre(s: number, e: number): void {
    const leaf = this.leaf;
    if (leaf && leaf.vStart < 0) {
      while (s < e && isSpace(this.source.charCodeAt(s))) s++;
      if (s === e) return;
    }
    this.#append(this.source.slice(s, e), s, e - s);
  }

  #startRun(start: number): void {
    this.want(Sep.Line);
    this.leaf = { tag: '#text', kind: 'text', start, end: start, vStart: -1, vEnd: -1, anonymous: true };
  }

  /** Ends the open anonymous run, if any, as a block. */
  flushRun(): void {
    const leaf = this.leaf;
    if (!leaf || !leaf.anonymous) return;
    this.leaf = undefined;
    this.#emit(leaf);
    this.want(Sep.Line);
  }

  /** A finished leaf becomes a block (when it has visible text). */
  #emit(leaf: Leaf): void {
    if (leaf.vStart < 0) return;
    this.#push({ tag: leaf.tag, kind: leaf.kind, start: leaf.start, end: leaf.end, vStart: leaf.vStart, vEnd: leaf.vEnd, path: this.path, hardBefore: false });
  }

  /** Adds a block to the current list; at the top level, decides `hardBefore`. */
  #push(block: HtmlBlock): void {
    const out = this.out;
    if (out === this.blocks) {
      const prev = out[out.length - 1];
      if (prev && prev.path !== block.path) {
        // a heading followed by what lies under it (a deeper heading, its content) may share a chunk
        const under = prev.kind === 'heading' && prev.path !== undefined && this.lowDepth >= prev.path.depth;
        block.hardBefore = !under;
      }
      this.lowDepth = this.path?.depth ?? 0;
    }
    out.push(block);
  }

  #setPath(node: PathNode | undefined): void {
    const depth = node?.depth ?? 0;
    // the common ancestor's depth bounds how low the path went
    let a = this.path;
    let b = node;
    while (a && (a.depth > (b?.depth ?? 0))) a = a.parent;
    while (b && (b.depth > (a?.depth ?? 0))) b = b.parent;
    while (a !== b) {
      a = a?.parent;
      b = b?.parent;
      this.ops++;
    }
    this.lowDepth = Math.min(this.lowDepth, a?.depth ?? 0, depth);
    this.path = node;
  }

  /** A heading's text closes headings of the same or a lower rank (within the current scope) and opens its own. */
  #heading(rank: number, vStart: number, vEnd: number): PathNode {
    let p = this.path;
    while (p && p.rank >= rank && p.rank > 0) {
      p = p.parent;
      this.ops++;
    }
    const node: PathNode = { parent: p, depth: (p?.depth ?? 0) + 1, rank, vStart, vEnd, label: undefined };
    this.#setPath(node);
    return node;
  }

  /** Whether `el` is a landmark to drop. */
  #dropped(el: HtmlElement): boolean {
    if (this.drop.size === 0) return false;
    const role = el.attrs?.role?.trim().toLowerCase();
    const landmark = role !== undefined ? ROLE_LANDMARK[role] : undefined;
    if (landmark && this.drop.has(landmark)) return true;
    const tag = el.tag;
    if (tag === 'nav' || tag === 'aside') return this.drop.has(tag);
    if (tag === 'header' || tag === 'footer') return this.drop.has(tag) && this.contentScopes === 0;
    return false;
  }

  /** Enters `el`: returns its frame, or undefined when its content is not walked. */
  enter(el: HtmlElement): Frame | undefined {
    this.ops++;
    const tag = el.tag;
    if (el.skipped) return undefined;
    if (this.#dropped(el)) {
      if (!this.leaf?.anonymous || BLOCK_TAGS.has(tag)) this.flushRun();
      this.dropped.push({ element: tag, start: el.start, end: el.end });
      return undefined;
    }
    const frame: Frame = { el, next: 0, role: 'inline', vAt: this.length };
    if (CONTENT_SCOPE.has(tag)) {
      this.contentScopes++;
      frame.contentScope = true;
    }
    const blockish = BLOCK_TAGS.has(tag) || el.hasBlock;
    // a heading that holds blocks ends at the first of them, which lies under it
    if (this.leaf?.split && FLOW_BREAKS.has(tag)) {
      const heading = this.leaf.split;
      this.#closeLeaf(heading.el);
      heading.role = 'container';
    }
    // inside a leaf or a cell, everything is inline text
    if (this.leaf && !this.leaf.anonymous) {
      if (tag === 'br' || blockish) this.want(this.inCell || this.leaf.kind === 'heading' ? Sep.Space : Sep.Line);
      return frame;
    }
    if (this.inCell > 0) {
      if (tag === 'br' || blockish) this.want(Sep.Space);
      return frame;
    }
    if (this.table) return this.#enterInTable(el, frame);
    if (!blockish) {
      // inline content: joins (or starts) the run
      if (tag === 'br') this.want(Sep.Line);
      if (!this.leaf) this.#startRun(el.start);
      return frame;
    }
    this.flushRun();
    const rank = HEADING_RANK[tag];
    if (rank !== undefined) {
      this.#openLeaf(el, this.groupDepth === 0 ? 'heading' : 'text');
      if (el.hasBlock && el.children.some((c) => typeof c !== 'number' && FLOW_BREAKS.has(c.tag))) {
        this.leaf!.split = frame;
        this.leaf!.end = el.start;
      }
      frame.role = 'leaf';
      return frame;
    }
    if (PRE_TAGS.has(tag)) {
      this.#openLeaf(el, 'pre');
      this.pre++;
      frame.role = 'leaf';
      return frame;
    }
    if (tag === 'table' && isLayoutTable(el)) {
      frame.role = 'container';
      return frame;
    }
    if (tag === 'table') {
      this.want(Sep.Line);
      this.table = { el, info: { caption: undefined, head: [], body: [], regular: true }, row: undefined, rowHead: false, section: '', vStart: -1, vEnd: -1 };
      this.recorders.push(this.table);
      frame.role = 'table';
      return frame;
    }
    if (GROUP_TAGS.has(tag) || (ITEM_TAGS.has(tag) && el.hasBlock)) {
      frame.role = GROUP_TAGS.has(tag) ? 'group' : 'item';
      frame.list = this.out;
      this.out = [];
      this.groupDepth++;
      return frame;
    }
    if (SCOPE_TAGS.has(tag) && this.groupDepth === 0) {
      frame.scoped = true;
      frame.savedPath = this.path;
      const label = el.hasHeading ? undefined : collapse(el.attrs?.['aria-label'] ?? el.attrs?.title ?? '') || undefined;
      const p = this.path;
      this.#setPath({ parent: p, depth: (p?.depth ?? 0) + 1, rank: 0, vStart: -1, vEnd: -1, label });
    }
    if (el.hasBlock) {
      frame.role = 'container';
      return frame;
    }
    this.#openLeaf(el, 'text');
    frame.role = 'leaf';
    return frame;
  }

  /** Ends the open element leaf (of element `el`) as a block; a heading opens its path node. */
  #closeLeaf(el: HtmlElement): void {
    const leaf = this.leaf!;
    this.leaf = undefined;
    if (leaf.kind === 'pre') this.pre--;
    if (leaf.kind === 'heading' && leaf.vStart >= 0) this.#heading(HEADING_RANK[el.tag], leaf.vStart, leaf.vEnd);
    this.#emit(leaf);
    this.want(Sep.Line);
  }

  #openLeaf(el: HtmlElement, kind: HtmlBlockKind): void {
    this.want(Sep.Line);
    this.leaf = { tag: el.tag, kind, start: el.start, end: el.end, vStart: -1, vEnd: -1, anonymous: false };
  }

  /** An element inside a table (outside any cell): sections, rows, cells, the caption. */
  #enterInTable(el: HtmlElement, frame: Frame): Frame {
    const t = this.table!;
    const tag = el.tag;
    if (TABLE_SECTIONS.has(tag)) {
      frame.role = 'tablePart';
      t.section = tag;
      return frame;
    }
    if (tag === 'tr') {
      this.#startRow(t, el.start, el.end);
      frame.role = 'row';
      return frame;
    }
    if (tag === 'td' || tag === 'th') {
      if (!t.row) this.#startRow(t, el.start, el.end); // a cell without a row: the row is implied
      const row = t.row!;
      if (tag !== 'th') t.rowHead = false;
      const span = Math.max(1, Math.min(1000, Number.parseInt(el.attrs?.colspan ?? '1', 10) || 1));
      const cell = { vStart: -1, vEnd: -1, span };
      row.cells.push(cell);
      if (row.end < el.end) row.end = el.end;
      this.want(row.cells.length > 1 ? Sep.Cell : Sep.Line);
      this.recorders.push(cell);
      this.inCell++;
      frame.role = 'cell';
      frame.recorder = cell;
      return frame;
    }
    if (tag === 'caption') {
      const caption = { vStart: -1, vEnd: -1 };
      t.info.caption = caption;
      this.want(Sep.Line);
      this.recorders.push(caption);
      this.inCell++;
      frame.role = 'caption';
      frame.recorder = caption;
      return frame;
    }
    if (tag === 'colgroup' || tag === 'col') return frame;
    // anything else in a table outside a cell (a form, a div, text): kept as text of the table
    frame.role = 'stray';
    this.inCell++;
    frame.vAt = this.length;
    return frame;
  }

  #startRow(t: TableState, start: number, end: number): void {
    this.#endRow(t);
    const row: HtmlTableRow = { start, end, vStart: -1, vEnd: -1, cells: [] };
    t.row = row;
    t.rowHead = true;
    this.want(Sep.Line);
    this.recorders.push(row);
  }

  #endRow(t: TableState): void {
    const row = t.row;
    if (!row) return;
    t.row = undefined;
    const at = this.recorders.lastIndexOf(row);
    if (at >= 0) this.recorders.splice(at, 1);
    this.want(Sep.Line);
    if (row.vStart < 0) return; // an empty row
    const info = t.info;
    const allTh = t.rowHead && row.cells.length > 0;
    if (t.section === 'thead' || (allTh && t.section !== 'tfoot' && info.head.length === 0 && info.body.length === 0)) info.head.push(row);
    else info.body.push(row);
  }

  exit(frame: Frame): void {
    const el = frame.el;
    if (frame.contentScope) this.contentScopes--;
    switch (frame.role) {
      case 'leaf':
        this.#closeLeaf(el);
        break;
      case 'inline':
        if ((this.leaf?.anonymous || this.leaf?.split) && this.length > frame.vAt && this.recorders.length === 0) this.leaf.end = Math.max(this.leaf.end, el.end);
        if (BLOCK_TAGS.has(el.tag) || el.hasBlock) this.want(this.inCell || this.leaf?.kind === 'heading' ? Sep.Space : Sep.Line);
        break;
      case 'container':
        this.flushRun();
        break;
      case 'group':
      case 'item': {
        this.flushRun();
        const children = this.out;
        this.out = frame.list!;
        this.groupDepth--;
        if (children.length > 0) {
          this.#push({
            tag: el.tag,
            kind: 'group',
            start: el.start,
            end: el.end,
            vStart: children[0].vStart,
            vEnd: children[children.length - 1].vEnd,
            path: this.path,
            hardBefore: false,
            children,
          });
        }
        this.want(Sep.Line);
        break;
      }
      case 'table': {
        const t = this.table!;
        this.#endRow(t);
        this.table = undefined;
        this.recorders.pop();
        if (t.vStart >= 0) {
          this.#push({ tag: 'table', kind: 'table', start: el.start, end: el.end, vStart: t.vStart, vEnd: t.vEnd, path: this.path, hardBefore: false, table: t.info });
        }
        this.want(Sep.Line);
        break;
      }
      case 'row':
        if (this.table?.row && this.table.row.start === el.start) this.#endRow(this.table);
        break;
      case 'cell':
      case 'caption': {
        this.inCell--;
        const at = this.recorders.lastIndexOf(frame.recorder!);
        if (at >= 0) this.recorders.splice(at, 1);
        if (frame.role === 'caption') this.want(Sep.Line);
        break;
      }
      case 'stray':
        this.inCell--;
        if (this.length > frame.vAt && this.table) this.table.info.regular = false;
        this.want(Sep.Line);
        break;
      default:
        break;
    }
    if (frame.scoped) this.#setPath(frame.savedPath);
  }
}

/**
 * A table used for layout, not data: `role="presentation"` / `"none"`, or a cell holding
 * a heading, a table, a form or a sectioning element (a page laid out in cells; cells
 * with paragraphs or lists stay data). Its rows and cells are then containers like `div`s.
 */
function isLayoutTable(table: HtmlElement): boolean {
  const role = table.attrs?.role?.trim().toLowerCase();
  if (role === 'presentation' || role === 'none') return true;
  for (const part of table.children) {
    if (typeof part === 'number') continue;
    const rows = part.tag === 'tr' ? [part] : TABLE_SECTIONS.has(part.tag) ? part.children : [];
    for (const row of rows) {
      if (typeof row === 'number' || row.tag !== 'tr') continue;
      for (const cell of row.children) if (typeof cell !== 'number' && cell.holdsLayout) return true;
    }
  }
  return false;
}

/** Whitespace runs as one space, trimmed. */
function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * The outline of an HTML document: its kept blocks, visible text and dropped regions,
 * in time linear in the source (the walk keeps its own stack: nesting depth costs no
 * recursion). Any string is accepted.
 * @param source the HTML; offsets are UTF-16 code units of it.
 */
export function outlineHtml(source: string, options: HtmlOutlineOptions = {}): HtmlOutline {
  const tree = parseHtmlTree(source);
  const walker = new Walker(source, tree.pieces, options.drop ?? new Set(LANDMARKS));
  const frames: Frame[] = [{ el: tree.root, next: 0, role: 'root', vAt: 0 }];
  while (frames.length > 0) {
    const f = frames[frames.length - 1];
    const children = f.el.children;
    if (f.next < children.length) {
      const c = children[f.next++];
      if (typeof c === 'number') walker.text(c);
      else {
        const frame = walker.enter(c);
        if (frame) frames.push(frame);
      }
      continue;
    }
    frames.pop();
    walker.exit(f);
  }
  walker.flushRun();
  const visible = walker.parts.join('');
  const headingPath = (node: PathNode | undefined): string[] => pathStrings(node, visible);
  return { source, visible, blocks: walker.blocks, dropped: walker.dropped, map: walker.map, operations: tree.operations + walker.ops, headingPath };
}

/** The most entries a heading path holds (the outermost ones). */
const MAX_PATH = 32;

/** The strings of a path (memoized per node: shared prefixes are built once). */
function pathStrings(node: PathNode | undefined, visible: string): string[] {
  if (!node) return [];
  if (node.strings) return node.strings;
  // iterative: collect the nodes without strings, then fill them from the top
  const pending: PathNode[] = [];
  let p: PathNode | undefined = node;
  while (p && !p.strings) {
    pending.push(p);
    p = p.parent;
  }
  let above = p?.strings ?? [];
  for (let i = pending.length - 1; i >= 0; i--) {
    const n = pending[i];
    const label = n.rank > 0 ? collapse(visible.slice(n.vStart, n.vEnd)) : n.label;
    // at most MAX_PATH entries: sections nested thousands deep would make the paths quadratic in size
    n.strings = label && above.length < MAX_PATH ? [...above, label] : above;
    above = n.strings;
  }
  return node.strings!;
}
