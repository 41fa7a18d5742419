/**
 * GFM footnote calls (`micromark-extension-gfm-footnote`): `[^label]` where the
 * footnote is defined gives no text; an undefined one is recorded as unresolved. Core module.
 * @module
 */
import { isLineEnd, isSpaceTab } from '../chars.js';
import { normalizeLabel } from './link.js';
import type { InlineParser } from './parser.js';

/**
 * `[^label]` at `i` (no whitespace or `[` inside, at most 999 characters): its end when
 * the footnote is defined, else 0 (and the lookup is recorded as unresolved).
 */
export function footnoteCall(p: InlineParser, i: number): number {
  const s = p.s;
  let j = i + 2;
  let data = false;
  while (j < s.length && j - i - 2 <= 999) {
    const c = s.charCodeAt(j);
    if (c === 93 || c === 91 || isSpaceTab(c) || isLineEnd(c)) break;
    data = true;
    j += c === 92 && (s.charCodeAt(j + 1) === 91 || s.charCodeAt(j + 1) === 92 || s.charCodeAt(j + 1) === 93) ? 2 : 1;
  }
  if (!data || s.charCodeAt(j) !== 93 || j - i - 2 > 999) return 0;
  p.step(j - i);
  if (p.ctx.footnotes.has(normalizeLabel(s.slice(i + 2, j)))) return j + 1;
  p.unresolved = true;
  return 0;
}
