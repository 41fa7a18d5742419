/**
 * The walk over an HTML element tree that makes its outline: visible text (whitespace
 * collapsed as a browser renders it), dropped landmarks, blocks and their heading paths.
 * See `../blocks.ts` for what it reports. Core module.
 * @module
 */
import { isBlank, isSpace, trimSpan } from '../../../engine/text.js';
import { BLOCK_TAGS, type HtmlElement, type TextPieces } from '../tree.js';
import type { DroppedRegion, HtmlBlock, HtmlBlockKind, HtmlTableInfo, HtmlTableRow, Landmark, PathNode, VisibleSpan } from '../blocks.js';
import { openHeading, setPath } from './path.js';
import { endRow, enterInTable } from './table.js';
import { VisibleMap } from './visible-map.js';

/** ARIA landmark roles and the element they stand for. */
const ROLE_LANDMARK: Readonly<Record<string, Landmark>> = { navigation: 'nav', complementary: 'aside', banner: 'header', contentinfo: 'footer' };

/** Separators between visible pieces, weakest first. */
export const enum Sep {
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
export const TABLE_SECTIONS = new Set(['thead', 'tbody', 'tfoot']);
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
export interface TableState extends Recorder {
  el: HtmlElement;
  info: HtmlTableInfo;
  row: HtmlTableRow | undefined;
  rowHead: boolean;
  section: string;
}

/** One open element of the walk and what entering it set up. */
export interface Frame {
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

/** The walk over the tree that makes the outline (its table and heading-path steps: `table.ts`, `path.ts`). */
export class Walker {
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
    if (this.table) return enterInTable(this, el, frame);
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
      setPath(this, { parent: p, depth: (p?.depth ?? 0) + 1, rank: 0, vStart: -1, vEnd: -1, label });
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
    if (leaf.kind === 'heading' && leaf.vStart >= 0) openHeading(this, HEADING_RANK[el.tag], leaf.vStart, leaf.vEnd);
    this.#emit(leaf);
    this.want(Sep.Line);
  }

  #openLeaf(el: HtmlElement, kind: HtmlBlockKind): void {
    this.want(Sep.Line);
    this.leaf = { tag: el.tag, kind, start: el.start, end: el.end, vStart: -1, vEnd: -1, anonymous: false };
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
        endRow(this, t);
        this.table = undefined;
        this.recorders.pop();
        if (t.vStart >= 0) {
          this.#push({ tag: 'table', kind: 'table', start: el.start, end: el.end, vStart: t.vStart, vEnd: t.vEnd, path: this.path, hardBefore: false, table: t.info });
        }
        this.want(Sep.Line);
        break;
      }
      case 'row':
        if (this.table?.row && this.table.row.start === el.start) endRow(this, this.table);
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
    if (frame.scoped) setPath(this, frame.savedPath);
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
export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
