/**
 * GFM literal autolinks (`micromark-extension-gfm-autolink-literal`): `www.…`,
 * `http(s)://…` and email addresses without angle brackets, kept as written. Core module.
 * @module
 */
import { classify, isAlnum, isAlpha, isAtext, isLineEnd, isSpaceTab } from '../chars.js';
import type { InlineParser } from './parser.js';

/** micromark's `previousWww`: a `www.` literal may follow the start, whitespace, `(`, `*`, `_`, `[`, `]` or `~`. */
const wwwMayFollow = (prev: number): boolean => prev === -1 || prev === 40 || prev === 42 || prev === 95 || prev === 91 || prev === 93 || prev === 126 || isSpaceTab(prev) || isLineEnd(prev);
/** micromark's `previousEmail`: an email literal may not follow `/` or an atext character. */
const emailMayFollow = (prev: number): boolean => !(prev === 47 || isAtext(prev));

/** Whether a GFM literal autolink may start at `i` (by the character before it). */
export function mayStartLiteral(p: InlineParser, i: number): boolean {
  if (p.brackets) return false; // not inside an open link label (micromark's previousUnbalanced)
  const c = p.s.charCodeAt(i);
  const prev = i > 0 ? p.s.charCodeAt(i - 1) : -1;
  return ((c === 87 || c === 119) && wwwMayFollow(prev)) || ((c === 72 || c === 104) && !isAlpha(prev)) || emailMayFollow(prev);
}

/**
 * End of a GFM literal autolink at `i` (`www.…`, `http(s)://…`, an email address), or 0:
 * micromark-extension-gfm-autolink-literal's grammar. Its text stays as written.
 */
export function literal(p: InlineParser, i: number): number {
  const s = p.s;
  const c = s.charCodeAt(i);
  const prev = i > 0 ? s.charCodeAt(i - 1) : -1;
  if ((c === 87 || c === 119) && wwwMayFollow(prev)) {
    if (/^[wW]{3}\./.test(s.slice(i, i + 4)) && i + 4 < s.length) {
      const d = domain(p, i);
      if (d > 0) return path(p, d);
    }
  }
  if ((c === 72 || c === 104) && !isAlpha(prev)) {
    let j = i + 1;
    while (j < s.length && isAlpha(s.charCodeAt(j)) && j - i < 5) j++;
    const protocol = s.slice(i, j).toLowerCase();
    if ((protocol === 'http' || protocol === 'https') && s.charCodeAt(j) === 58 && s.charCodeAt(j + 1) === 47 && s.charCodeAt(j + 2) === 47) {
      const a = j + 3;
      if (a < s.length && !(classify(s, a) > 0 || s.charCodeAt(a) < 32 || s.charCodeAt(a) === 127)) {
        const d = domain(p, a);
        if (d > 0) return path(p, d);
      }
    }
  }
  if (emailMayFollow(prev)) {
    let j = i;
    while (j < s.length && isAtext(s.charCodeAt(j))) j++;
    p.step(j - i);
    if (s.charCodeAt(j) !== 64) return 0;
    j++;
    let dot = false;
    let data = false;
    while (j < s.length) {
      const d = s.charCodeAt(j);
      if (d === 46) {
        if (!isAlnum(s.charCodeAt(j + 1))) break;
        dot = true;
        j++;
      } else if (d === 45 || d === 95 || isAlnum(d)) {
        data = true;
        j++;
      } else break;
    }
    p.step(j - i);
    return data && dot && isAlpha(s.charCodeAt(j - 1)) ? j : 0;
  }
  return 0;
}

/** A literal autolink's domain from `i`: its end, or 0 (an underscore in its last two segments, or empty). */
function domain(p: InlineParser, i: number): number {
  const s = p.s;
  let j = i;
  let seen = false;
  let usLast = false;
  let usLastLast = false;
  while (j < s.length) {
    p.step();
    const c = s.charCodeAt(j);
    if (c === 46 || c === 95) {
      if (trail(p, j)) break;
      if (c === 95) usLast = true;
      else {
        usLastLast = usLast;
        usLast = false;
      }
      j++;
      continue;
    }
    if (classify(s, j) === 1 || (c !== 45 && classify(s, j) === 2)) break;
    seen = true;
    j++;
  }
  return usLast || usLastLast || !seen ? 0 : j;
}

/** A literal autolink's path from `i` (balanced parentheses, trailing punctuation left out): its end. */
function path(p: InlineParser, i: number): number {
  const s = p.s;
  let j = i;
  let open = 0;
  let close = 0;
  while (j < s.length) {
    p.step();
    const c = s.charCodeAt(j);
    if (c === 40) {
      open++;
      j++;
    } else if (c === 41 && close < open) {
      close++;
      j++;
    } else if (c === 33 || c === 34 || c === 38 || c === 39 || c === 41 || c === 42 || c === 44 || c === 46 || c === 58 || c === 59 || c === 60 || c === 63 || c === 93 || c === 95 || c === 126) {
      if (trail(p, j)) break;
      if (c === 41) close++;
      j++;
    } else if (classify(s, j) === 1) break;
    else j++;
  }
  return j;
}

/** Whether `s[i…]` is trailing punctuation up to whitespace, `<` or the end. */
function trail(p: InlineParser, i: number): boolean {
  const s = p.s;
  let j = i;
  for (;;) {
    p.step();
    if (j >= s.length) return true;
    const c = s.charCodeAt(j);
    if (c === 33 || c === 34 || c === 39 || c === 41 || c === 42 || c === 44 || c === 46 || c === 58 || c === 59 || c === 63 || c === 95 || c === 126) j++;
    else if (c === 38) {
      j++;
      if (!isAlpha(s.charCodeAt(j))) return false;
      while (isAlpha(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) !== 59) return false;
      j++;
    } else if (c === 93) {
      j++;
      const d = s.charCodeAt(j);
      if (j >= s.length || d === 40 || d === 91 || classify(s, j) === 1) return true;
    } else return c === 60 || classify(s, j) === 1;
  }
}
