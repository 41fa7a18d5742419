/**
 * `<`: autolinks (CommonMark §6.5: `<scheme:…>`, `<email>`, their URL as text) or raw
 * HTML (kept as written), else `<` itself. Core module.
 * @module
 */
import { isAlnum, isAlpha, isEmailLocal } from '../chars.js';
import { htmlText } from './html-text.js';
import type { InlineParser } from './parser.js';

/** `<`: an autolink (its URL as text), raw HTML (kept as written), or `<` itself. */
export function angle(p: InlineParser, i: number): number {
  const s = p.s;
  const link = autolinkEnd(p, i);
  if (link > 0) {
    p.step(link - i);
    p.piece(s.slice(i + 1, link - 1));
    return link;
  }
  const html = htmlText(p, i);
  if (html > 0) {
    p.step(html - i);
    p.piece(s.slice(i, html));
    return html;
  }
  p.pending += '<';
  return i + 1;
}

/** End of an autolink `<scheme:…>` or `<email>` at `i`, or 0. */
function autolinkEnd(p: InlineParser, i: number): number {
  const s = p.s;
  const n = s.length;
  let j = i + 1;
  if (isAlpha(s.charCodeAt(j))) {
    // scheme: 2–32 of [A-Za-z0-9+.-], then ':'
    let k = j + 1;
    while (k < n && k - j < 33 && (isAlnum(s.charCodeAt(k)) || s.charCodeAt(k) === 43 || s.charCodeAt(k) === 46 || s.charCodeAt(k) === 45)) k++;
    if (s.charCodeAt(k) === 58 && k - j >= 2 && k - j <= 32) {
      k++;
      while (k < n) {
        const c = s.charCodeAt(k);
        if (c === 62) return k + 1;
        if (c <= 32 || c === 60 || c === 127) break;
        k++;
      }
    }
  }
  // email: local part, @, labels of ≤ 63 alphanumerics and hyphens
  j = i + 1;
  while (j < n && isEmailLocal(s.charCodeAt(j))) j++;
  if (j > i + 1 && s.charCodeAt(j) === 64) {
    let k = j + 1;
    let label = 0;
    let ok = false;
    while (k < n) {
      const c = s.charCodeAt(k);
      if (isAlnum(c) || (c === 45 && label > 0)) {
        label++;
        if (label > 63) return 0;
        k++;
      } else if (c === 46 && label > 0 && s.charCodeAt(k - 1) !== 45) {
        label = 0;
        k++;
      } else if (c === 62 && label > 0 && s.charCodeAt(k - 1) !== 45) {
        ok = true;
        break;
      } else return 0;
    }
    if (ok) return k + 1;
  }
  return 0;
}
