/**
 * HTML blocks (CommonMark §4.6, kinds 1–7): which kind a line starting with `<` opens,
 * and the line that closes kinds 1–5. Core module.
 * @module
 */
import { isAlnum, isAlpha, isBlankTail, isSpaceTab } from '../chars.js';
import { HTML, PARAGRAPH, type Node } from './node.js';
import type { Scanner } from './scanner.js';

/** Raw HTML element names (CommonMark HTML block type 1). */
const RAW_NAMES = new Set(['pre', 'script', 'style', 'textarea']);
/** Block element names (type 6), as micromark-util-html-tag-name lists them. */
const BLOCK_NAMES = new Set(
  'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul'.split(
    ' ',
  ),
);
/** The line that closes an HTML block of kinds 1–5, by kind. */
export const HTML_CLOSE = [undefined, /<\/(?:script|pre|textarea|style)>/i, /-->/, /\?>/, />/, /\]\]>/];

/** An HTML block at the scanner's next non-space under `container` (kind 7 cannot interrupt a paragraph, nor start on a lazy line). */
export function htmlFlowStart(s: Scanner, container: Node): boolean {
  const kind = htmlBlockKind(s.t, s.nextNonspace, s.lineEnd);
  if (kind > 0 && (kind < 7 || (container.type !== PARAGRAPH && !(!s.allClosed && !s.blank && s.tip.type === PARAGRAPH)))) {
    s.closeUnmatched();
    const h = s.add(HTML, s.nextNonspace);
    h.htmlType = kind;
    return true;
  }
  return false;
}

/** The HTML block kind (1–7) a line starting with `<` at `i` opens, or 0. */
function htmlBlockKind(t: string, i: number, end: number): number {
  const c = t.charCodeAt(i + 1);
  if (c === 33) {
    if (t.startsWith('!--', i + 1)) return 2;
    if (t.startsWith('![CDATA[', i + 1)) return 5;
    if (isAlpha(t.charCodeAt(i + 2))) return 4;
    return 0;
  }
  if (c === 63) return 3;
  const close = c === 47;
  let j = i + (close ? 2 : 1);
  const nameStart = j;
  if (!isAlpha(t.charCodeAt(j))) return 0;
  while (j < end && (isAlnum(t.charCodeAt(j)) || t.charCodeAt(j) === 45)) j++;
  const name = t.slice(nameStart, j).toLowerCase();
  const after = t.charCodeAt(j);
  const ends = j >= end || after === 32 || after === 9 || after === 62 || (after === 47 && t.charCodeAt(j + 1) === 62);
  if (!close && RAW_NAMES.has(name) && (j >= end || after === 32 || after === 9 || after === 62)) return 1;
  if (BLOCK_NAMES.has(name) && ends) return 6;
  // kind 7: a complete open or closing tag, then only whitespace (commonmark.js and micromark accept raw names here too)
  let k = j;
  if (close) {
    while (k < end && isSpaceTab(t.charCodeAt(k))) k++;
    if (t.charCodeAt(k) !== 62) return 0;
    return isBlankTail(t, k + 1, end) ? 7 : 0;
  }
  for (;;) {
    const ws = k;
    while (k < end && isSpaceTab(t.charCodeAt(k))) k++;
    const d = t.charCodeAt(k);
    if (k >= end) return 0;
    if (d === 62) return isBlankTail(t, k + 1, end) ? 7 : 0;
    if (d === 47) return t.charCodeAt(k + 1) === 62 && isBlankTail(t, k + 2, end) ? 7 : 0;
    if (k === ws || !(isAlpha(d) || d === 95 || d === 58)) return 0;
    k++;
    while (k < end && (isAlnum(t.charCodeAt(k)) || t.charCodeAt(k) === 95 || t.charCodeAt(k) === 46 || t.charCodeAt(k) === 58 || t.charCodeAt(k) === 45)) k++;
    let e = k;
    while (e < end && isSpaceTab(t.charCodeAt(e))) e++;
    if (t.charCodeAt(e) !== 61) continue;
    e++;
    while (e < end && isSpaceTab(t.charCodeAt(e))) e++;
    const q = t.charCodeAt(e);
    if (q === 34 || q === 39) {
      const close2 = t.indexOf(q === 34 ? '"' : "'", e + 1);
      if (close2 < 0 || close2 >= end) return 0;
      k = close2 + 1;
    } else {
      const v = e;
      while (e < end) {
        const u = t.charCodeAt(e);
        if (u <= 32 || u === 34 || u === 39 || u === 61 || u === 60 || u === 62 || u === 96) break;
        e++;
      }
      if (e === v) return 0;
      k = e;
    }
  }
}
