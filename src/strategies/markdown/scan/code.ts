/**
 * Code blocks: fenced (three or more backticks or tildes, CommonMark §4.5) and indented
 * (four columns, §4.4). Core module.
 * @module
 */
import { hasChar, runEnd } from '../chars.js';
import { CODE } from './node.js';
import type { Scanner } from './scanner.js';

/** A code fence at the scanner's next non-space (a backtick fence's info string holds no backtick). */
export function fencedCodeStart(s: Scanner): boolean {
  const t = s.t;
  const ns = s.nextNonspace;
  const end = s.lineEnd;
  const c = t.charCodeAt(ns);
  const j = runEnd(t, ns, end, c);
  if (j - ns >= 3 && (c === 126 || !hasChar(t, 96, j, end))) {
    s.closeUnmatched();
    const code = s.add(CODE, ns);
    code.fenced = true;
    code.fenceChar = c;
    code.fenceLength = j - ns;
    code.fenceOffset = s.indent;
    s.advanceNextNonspace();
    s.advanceOffset(j - ns, false);
    code.end = s.trimEnd(ns, end);
    return true;
  }
  return false;
}

/** Indented code from the scanner's next non-space (the caller checked the indent). */
export function indentedCodeStart(s: Scanner): void {
  const ns = s.nextNonspace;
  const end = s.lineEnd;
  s.advanceOffset(4, true);
  s.closeUnmatched();
  const code = s.add(CODE, ns);
  code.end = s.trimEnd(ns, end);
}
