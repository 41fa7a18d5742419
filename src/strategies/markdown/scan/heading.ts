/**
 * Headings: ATX (`#` to `######`, CommonMark §4.2) and setext (a paragraph underlined by
 * `=` or `-`, §4.3). Their inline text is computed once every definition is known.
 * Core module.
 * @module
 */
import { isBlankTail, isSpaceTab, runEnd } from '../chars.js';
import { takeDefinitions } from './definition.js';
import { HEADING, type Node } from './node.js';
import type { Scanner } from './scanner.js';

/** An ATX heading at the scanner's next non-space: opened, closed with its content on this line. */
export function atxHeadingStart(s: Scanner): boolean {
  const t = s.t;
  const ns = s.nextNonspace;
  const end = s.lineEnd;
  let j = ns;
  while (j < end && t.charCodeAt(j) === 35 && j - ns < 7) j++;
  const level = j - ns;
  if (level <= 6 && (j >= end || isSpaceTab(t.charCodeAt(j)))) {
    s.advanceNextNonspace();
    s.closeUnmatched();
    const h = s.add(HEADING, ns);
    h.level = level;
    h.atx = true;
    h.end = s.trimEnd(ns, end);
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
    s.offset = end;
    return true;
  }
  return false;
}

/** A setext underline at the scanner's next non-space under paragraph `container`: the paragraph (after its definitions) becomes a heading. */
export function setextStart(s: Scanner, container: Node): boolean {
  const t = s.t;
  const ns = s.nextNonspace;
  const end = s.lineEnd;
  const c = t.charCodeAt(ns);
  const j = runEnd(t, ns, end, c);
  if (isBlankTail(t, j, end)) {
    s.closeUnmatched();
    takeDefinitions(s, container);
    if (container.lineTo > container.lineFrom) {
      setext(s, container, c === 61 ? 1 : 2, s.trimEnd(ns, end));
      s.offset = end;
      return true;
    }
  }
  return false;
}

/** Paragraph `p` becomes a setext heading of `depth` ending at `end`. */
function setext(s: Scanner, p: Node, depth: number, end: number): void {
  const parent = p.parent!;
  const log = s.log;
  const lines: string[] = [];
  for (let k = p.lineFrom; k < p.lineTo; k += 2) lines.push(s.t.slice(log[k], log[k + 1]));
  p.open = false;
  s.logLen = p.lineFrom;
  s.tip = parent;
  const h = s.add(HEADING, log[p.lineFrom]);
  h.level = depth;
  h.content = lines.join('\n');
  h.end = end;
}
