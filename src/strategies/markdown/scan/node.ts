/**
 * A Markdown block while the scanner holds it open: its kind, its span so far and what
 * each construct keeps of it (list markers, code fences, paragraph lines, heading text,
 * table rows). Core module.
 * @module
 */
import type { TextSpan } from '../../../engine/text.js';
import type { MarkdownBlock, MarkdownBlockType } from '../blocks.js';

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
export { BLOCKQUOTE, CODE, DOCUMENT, FOOTNOTE, HEADING, HTML, ITEM, LIST, PARAGRAPH, TABLE, THEMATIC };

/**
 * Containers nested deeper than this are not opened: the marker is text of the
 * innermost block (markdown-it's `maxNesting` does the same, at 100). Only inputs nested
 * a thousand deep differ from CommonMark; it keeps the tree — and the memory of a
 * megabyte of `>` on one line — small.
 */
export const MAX_NESTING = 1000;

/** The mdast name of each node kind. */
export const TYPE_NAMES: MarkdownBlockType[] = ['paragraph', 'blockquote', 'list', 'listItem', 'footnoteDefinition', 'paragraph', 'heading', 'code', 'html', 'thematicBreak', 'table'];

/** A block while it is open. */
export class Node {
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

/** True when a block of kind `child` may stand directly inside one of kind `parent`. */
export function canContain(parent: number, child: number): boolean {
  if (parent === LIST) return child === ITEM;
  if (parent === DOCUMENT || parent === BLOCKQUOTE || parent === ITEM || parent === FOOTNOTE) return child !== ITEM;
  return false;
}
