/**
 * Tables in the HTML walk: sections, rows (a row of `th` cells before any body row is a
 * header row), cells with their column spans, the caption, and stray content kept as
 * table text. Core module.
 * @module
 */
import type { HtmlElement } from '../tree.js';
import type { HtmlTableRow } from '../blocks.js';
import { Sep, TABLE_SECTIONS, type Frame, type TableState, type Walker } from './walker.js';

/** An element inside a table (outside any cell): sections, rows, cells, the caption. */
export function enterInTable(w: Walker, el: HtmlElement, frame: Frame): Frame {
  const t = w.table!;
  const tag = el.tag;
  if (TABLE_SECTIONS.has(tag)) {
    frame.role = 'tablePart';
    t.section = tag;
    return frame;
  }
  if (tag === 'tr') {
    startRow(w, t, el.start, el.end);
    frame.role = 'row';
    return frame;
  }
  if (tag === 'td' || tag === 'th') {
    if (!t.row) startRow(w, t, el.start, el.end); // a cell without a row: the row is implied
    const row = t.row!;
    if (tag !== 'th') t.rowHead = false;
    const span = Math.max(1, Math.min(1000, Number.parseInt(el.attrs?.colspan ?? '1', 10) || 1));
    const cell = { vStart: -1, vEnd: -1, span };
    row.cells.push(cell);
    if (row.end < el.end) row.end = el.end;
    w.want(row.cells.length > 1 ? Sep.Cell : Sep.Line);
    w.recorders.push(cell);
    w.inCell++;
    frame.role = 'cell';
    frame.recorder = cell;
    return frame;
  }
  if (tag === 'caption') {
    const caption = { vStart: -1, vEnd: -1 };
    t.info.caption = caption;
    w.want(Sep.Line);
    w.recorders.push(caption);
    w.inCell++;
    frame.role = 'caption';
    frame.recorder = caption;
    return frame;
  }
  if (tag === 'colgroup' || tag === 'col') return frame;
  // anything else in a table outside a cell (a form, a div, text): kept as text of the table
  frame.role = 'stray';
  w.inCell++;
  frame.vAt = w.length;
  return frame;
}

/** Opens a row of table `t` (ending the open one). */
function startRow(w: Walker, t: TableState, start: number, end: number): void {
  endRow(w, t);
  const row: HtmlTableRow = { start, end, vStart: -1, vEnd: -1, cells: [] };
  t.row = row;
  t.rowHead = true;
  w.want(Sep.Line);
  w.recorders.push(row);
}

/** Ends the open row of table `t`: a header row or a body row, or nothing when empty. */
export function endRow(w: Walker, t: TableState): void {
  const row = t.row;
  if (!row) return;
  t.row = undefined;
  const at = w.recorders.lastIndexOf(row);
  if (at >= 0) w.recorders.splice(at, 1);
  w.want(Sep.Line);
  if (row.vStart < 0) return; // an empty row
  const info = t.info;
  const allTh = t.rowHead && row.cells.length > 0;
  if (t.section === 'thead' || (allTh && t.section !== 'tfoot' && info.head.length === 0 && info.body.length === 0)) info.head.push(row);
  else info.body.push(row);
}
