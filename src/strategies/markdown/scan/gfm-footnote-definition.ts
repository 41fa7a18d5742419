/**
 * GFM footnote definitions (`micromark-extension-gfm-footnote`): `[^label]:` opens a
 * container whose lines continue indented by four columns. Core module.
 * @module
 */
import { isSpaceTab } from '../chars.js';
import { normalizeLabel } from '../inline/link.js';
import { FOOTNOTE } from './node.js';
import type { Scanner } from './scanner.js';

/** A footnote definition at the scanner's next non-space: its label is recorded and the container opens. */
export function footnoteStart(s: Scanner): boolean {
  const t = s.t;
  const ns = s.nextNonspace;
  const after = footnoteLabelEnd(t, ns, s.lineEnd);
  if (after > 0) {
      s.footnotes.add(normalizeLabel(t.slice(ns + 2, after - 2)));
      s.closeUnmatched();
      const f = s.add(FOOTNOTE, ns);
      f.end = after;
      f.markerOffset = 0;
      f.padding = 4;
      s.advanceNextNonspace();
      s.advanceOffset(after - ns, false);
      s.findNextNonspace();
      if (!s.blank) s.advanceNextNonspace();
      return true;
  }
  return false;
}

/** `[^label]:` at `i`: the offset after the colon, or 0. */
function footnoteLabelEnd(t: string, i: number, end: number): number {
  let j = i + 2;
  let data = false;
  let size = 0;
  while (j < end) {
    const c = t.charCodeAt(j);
    if (size > 999 || c === 91 || isSpaceTab(c)) return 0;
    if (c === 93) {
      if (!data) return 0;
      return t.charCodeAt(j + 1) === 58 ? j + 2 : 0;
    }
    data = true;
    size++;
    j += c === 92 && (t.charCodeAt(j + 1) === 91 || t.charCodeAt(j + 1) === 92 || t.charCodeAt(j + 1) === 93) ? 2 : 1;
  }
  return 0;
}
