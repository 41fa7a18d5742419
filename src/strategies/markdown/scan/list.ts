/**
 * List items (CommonMark §5.2, §5.3): a bullet (`-`, `+`, `*`) or an ordered marker (up
 * to nine digits, then `.` or `)`) opens an item, and a list around it when the list
 * open has another kind or marker. Core module.
 * @module
 */
import { isBlankTail, isDigit, isSpaceTab } from '../chars.js';
import { ITEM, LIST, PARAGRAPH, type Node } from './node.js';
import type { Scanner } from './scanner.js';

/** A list marker at the scanner's next non-space: opens the list (if needed) and the item. */
export function listItemStart(s: Scanner, container: Node): boolean {
  const t = s.t;
  const ns = s.nextNonspace;
  const end = s.lineEnd;
  if (s.indent >= 4) return false;
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
  s.advanceNextNonspace();
  s.advanceOffset(len, true);
  const spacesCol = s.column;
  const spacesOffset = s.offset;
  const spacesTab = s.partialTab;
  do {
    s.advanceOffset(1, true);
  } while (s.column - spacesCol < 5 && s.offset < end && isSpaceTab(t.charCodeAt(s.offset)));
  const blankItem = s.offset >= end;
  const spaces = s.column - spacesCol;
  let padding: number;
  if (spaces >= 5 || spaces < 1 || blankItem) {
    padding = len + 1;
    s.column = spacesCol;
    s.offset = spacesOffset;
    s.partialTab = spacesTab;
    if (s.offset < end && isSpaceTab(t.charCodeAt(s.offset))) s.advanceOffset(1, true);
  } else padding = len + spaces;
  s.closeUnmatched();
  if (s.tip.type !== LIST || s.tip.ordered !== ordered || s.tip.marker !== marker) {
    const list = s.add(LIST, ns);
    list.ordered = ordered;
    list.marker = marker;
  }
  const item = s.add(ITEM, ns);
  item.ordered = ordered;
  item.marker = marker;
  item.markerOffset = s.indent;
  item.padding = padding;
  item.end = ns + len;
  return true;
}
