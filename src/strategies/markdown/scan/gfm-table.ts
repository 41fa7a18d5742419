/**
 * GFM tables (`micromark-extension-gfm-table` 2.1): the delimiter row that turns the
 * paragraph above into a table whose last line is the header row, and the cells of a
 * row. Core module.
 * @module
 */
import { isBlank, isSpace, type TextSpan } from '../../../engine/text.js';
import { isSpaceTab } from '../chars.js';
import { TABLE, type Node } from './node.js';
import type { Scanner } from './scanner.js';

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
  const trailing = starts.length > 1 && last !== row.start && isBlank(text, last + 1, row.end);
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

/** A delimiter row at the scanner's next non-space under paragraph `container` whose last line has as many cells: the table opens. */
export function tableStart(s: Scanner, container: Node): boolean {
  const t = s.t;
  const ns = s.nextNonspace;
  const end = s.lineEnd;
  const cells = delimiterCells(t, ns, end);
  if (cells > 0) {
    const head = s.log[container.lineTo - 2];
    const headEnd = s.log[container.lineTo - 1];
    if (headCells(t, head, headEnd) === cells) {
      s.closeUnmatched();
      toTable(s, container, head, headEnd);
      s.offset = end;
      return true;
    }
  }
  return false;
}

/** Paragraph `p` becomes a table: its last line the header row; earlier lines stay a paragraph. */
function toTable(s: Scanner, p: Node, head: number, headEnd: number): void {
  const parent = p.parent!;
  p.lineTo -= 2;
  if (p.lineTo > p.lineFrom) s.finalize(p);
  else {
    // the paragraph was only the header row: it never was a paragraph
    p.open = false;
    s.tip = parent;
    s.logLen = p.lineFrom;
  }
  const table = s.add(TABLE, head);
  table.rows = [{ start: head, end: s.trimEnd(head, headEnd) }];
  table.end = s.trimEnd(s.nextNonspace, s.lineEnd);
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
