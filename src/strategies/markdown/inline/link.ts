/**
 * Links and images (CommonMark §6.3, §6.4): `[` and `![` open a bracket, `]` closes
 * it as an inline link (a resource), a full, collapsed or shortcut reference to a
 * definition the document has, or text. Also the label normalization and the raw
 * destination the block scanner's definitions share. Core module.
 * @module
 */
import { isAsciiPunct, isLineEnd, skipWs } from '../chars.js';
import { emphasis, removeDelim } from './attention.js';
import { footnoteCall } from './gfm-footnote-call.js';
import type { InlineParser } from './parser.js';

/**
 * A link label as definitions are matched (micromark's `normalizeIdentifier`): runs of
 * spaces, tabs and line endings as one space, trimmed, case-folded.
 */
export function normalizeLabel(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase()
    .toUpperCase();
}

/**
 * End of a raw link destination at `s[i]` (CommonMark: no spaces or controls,
 * parentheses balanced, nested at most `maxDepth` deep, backslash escapes), or -1 when
 * there is none (empty, unbalanced or too deep).
 */
export function rawDestinationEnd(s: string, i: number, maxDepth: number): number {
  const n = s.length;
  let j = i;
  let depth = 0;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c === 92 && j + 1 < n && isAsciiPunct(s.charCodeAt(j + 1))) j += 2;
    else if (c === 40) {
      if (++depth > maxDepth) return -1;
      j++;
    } else if (c === 41) {
      if (depth === 0) break;
      depth--;
      j++;
    } else if (c <= 32 || c === 127) break;
    else j++;
  }
  return j === i || depth !== 0 ? -1 : j;
}

/** `[` or `![` at `i` (a GFM footnote call when `[^label]` is defined). */
export function labelStart(p: InlineParser, i: number, image: boolean): number {
  const s = p.s;
  if (!image && s.charCodeAt(i + 1) === 94) {
    const end = footnoteCall(p, i);
    if (end > 0) {
      p.piece(''); // a footnote call: no text
      return end;
    }
  }
  const len = image ? 2 : 1;
  const piece = p.piece(s.slice(i, i + len));
  p.brackets = { piece, pos: i + len, image, active: true, delim: p.delims, prev: p.brackets };
  return i + len;
}

/** `]` at `i`: closes a link or image, or is text. */
export function labelEnd(p: InlineParser, i: number): number {
  const s = p.s;
  const opener = p.brackets;
  if (!opener) {
    p.pending += ']';
    return i + 1;
  }
  if (!opener.active) {
    p.brackets = opener.prev;
    p.pending += ']';
    return i + 1;
  }
  let after = i + 1;
  let matched = false;
  if (s.charCodeAt(after) === 40) {
    const end = resource(p, after + 1);
    if (end > 0) {
      matched = true;
      after = end;
    }
  }
  if (!matched) {
    const n = labelLength(p, after);
    let label: string | undefined;
    // micromark: a full reference [text][label]; else, where the text is defined, a
    // collapsed [text][] or (when no [ follows) a shortcut [text]
    if (n > 2) label = s.slice(after + 1, after + n - 1);
    else if (n === 2 || s.charCodeAt(after) !== 91) label = s.slice(opener.pos, i);
    if (label !== undefined && label.length <= 999 && /[^ \t\r\n]/.test(label)) {
      if (p.ctx.definitions.has(normalizeLabel(label))) {
        matched = true;
        if (n >= 2) after += n;
      } else p.unresolved = true;
    }
  }
  p.brackets = opener.prev;
  if (!matched) {
    // ![^label] that is no image: a ! and a footnote call (micromark's "potential footnote call")
    if (opener.image && s.charCodeAt(opener.pos) === 94) {
      const end = footnoteCall(p, opener.pos - 1);
      if (end === i + 1) {
        p.flush();
        p.out[opener.piece] = '!';
        for (let k = opener.piece + 1; k < p.out.length; k++) p.out[k] = '';
        while (p.delims && p.delims !== opener.delim) removeDelim(p, p.delims);
        return end;
      }
    }
    p.pending += ']';
    return i + 1;
  }
  p.flush();
  p.out[opener.piece] = '';
  emphasis(p, opener.delim, true);
  if (!opener.image) for (let b = p.brackets; b; b = b.prev) if (!b.image) b.active = false;
  return after;
}

/** Length of a link label `[…]` at `i` (brackets included), or 0. */
function labelLength(p: InlineParser, i: number): number {
  const s = p.s;
  if (s.charCodeAt(i) !== 91) return 0;
  let j = i + 1;
  while (j < s.length && j - i <= 1000) {
    const c = s.charCodeAt(j);
    if (c === 92 && j + 1 < s.length && isAsciiPunct(s.charCodeAt(j + 1))) j += 2;
    else if (c === 91) return 0;
    else if (c === 93) {
      p.step(j - i);
      return j - i > 1000 ? 0 : j + 1 - i;
    } else j++;
  }
  return 0;
}

/** After `](`: destination, optional title, `)`; returns the end, or 0. */
function resource(p: InlineParser, i: number): number {
  const s = p.s;
  const n = s.length;
  let j = skipWs(s, i);
  if (s.charCodeAt(j) === 41) return j + 1;
  if (s.charCodeAt(j) === 60) {
    j++;
    for (;;) {
      p.step();
      if (j >= n) return 0;
      const c = s.charCodeAt(j);
      if (c === 62) {
        j++;
        break;
      }
      if (c === 60 || isLineEnd(c)) return 0;
      j += c === 92 && j + 1 < n && isAsciiPunct(s.charCodeAt(j + 1)) ? 2 : 1;
    }
  } else {
    j = rawDestinationEnd(s, j, 32);
    if (j < 0) return 0;
    p.step(j - i);
  }
  const ws = skipWs(s, j);
  if (s.charCodeAt(ws) === 41) return ws + 1;
  if (ws === j) return 0;
  // title: "…", '…' or (…)
  const q = s.charCodeAt(ws);
  const closeQ = q === 34 ? 34 : q === 39 ? 39 : q === 40 ? 41 : -1;
  if (closeQ < 0) return 0;
  let k = ws + 1;
  for (;;) {
    p.step();
    if (k >= n) return 0;
    const c = s.charCodeAt(k);
    if (c === closeQ) break;
    if (q === 40 && c === 40) return 0;
    k += c === 92 && k + 1 < n && isAsciiPunct(s.charCodeAt(k + 1)) ? 2 : 1;
  }
  const end = skipWs(s, k + 1);
  return s.charCodeAt(end) === 41 ? end + 1 : 0;
}
