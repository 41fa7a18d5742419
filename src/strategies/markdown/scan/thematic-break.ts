/**
 * Thematic breaks (CommonMark §4.1): three or more `*`, `-` or `_`, spaces and tabs
 * between. Core module.
 * @module
 */
import { isSpaceTab } from '../chars.js';
import { THEMATIC } from './node.js';
import type { Scanner } from './scanner.js';

/** A thematic break at the scanner's next non-space: opened and closed on this line. */
export function thematicBreakStart(s: Scanner): boolean {
  const t = s.t;
  const ns = s.nextNonspace;
  const end = s.lineEnd;
  const c = t.charCodeAt(ns);
  let count = 0;
  let j = ns;
  for (; j < end; j++) {
    const d = t.charCodeAt(j);
    if (d === c) count++;
    else if (!isSpaceTab(d)) break;
  }
  if (j >= end && count >= 3) {
    s.closeUnmatched();
    const b = s.add(THEMATIC, ns);
    b.end = s.trimEnd(ns, end);
    s.offset = end;
    return true;
  }
  return false;
}
