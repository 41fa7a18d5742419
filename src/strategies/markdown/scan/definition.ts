/**
 * Link reference definitions (CommonMark §4.7): taken from the start of a paragraph when
 * it closes (or becomes a setext heading), reported as `definition` blocks, their labels
 * added to the document's definitions. Core module.
 * @module
 */
import { upperBound } from '../../../engine/search.js';
import { isAsciiPunct, isSpaceTab } from '../chars.js';
import { normalizeLabel, rawDestinationEnd } from '../inline/link.js';
import type { Node } from './node.js';
import type { Scanner } from './scanner.js';

/** Link reference definitions at the start of paragraph `p`: reported before it, its lines dropped. */
export function takeDefinitions(sc: Scanner, p: Node): void {
  const log = sc.log;
  const t = sc.t;
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
    sc.steps++;
    sc.definitions.add(def.label);
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
