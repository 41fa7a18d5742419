/**
 * Inline raw HTML (CommonMark §6.6, micromark's html-text): comments, CDATA,
 * declarations, processing instructions, open and closing tags. Core module.
 * @module
 */
import { isAlnum, isAlpha, isLineEnd, skipWs } from '../chars.js';
import type { InlineParser } from './parser.js';

/** End of inline raw HTML at `i` (micromark's html-text), or 0. */
export function htmlText(p: InlineParser, i: number): number {
  const s = p.s;
  const n = s.length;
  const c = s.charCodeAt(i + 1);
  if (c === 33) {
    const d = s.charCodeAt(i + 2);
    if (d === 45) {
      if (s.charCodeAt(i + 3) !== 45) return 0;
      const e = p.find('-->', i + 2);
      return e < 0 ? 0 : e + 3;
    }
    if (d === 91) {
      if (s.slice(i + 3, i + 9) !== 'CDATA[') return 0;
      const e = p.find(']]>', i + 9);
      return e < 0 ? 0 : e + 3;
    }
    if (isAlpha(d)) {
      const e = p.find('>', i + 3);
      return e < 0 ? 0 : e + 1;
    }
    return 0;
  }
  if (c === 63) {
    const e = p.find('?>', i + 2);
    return e < 0 ? 0 : e + 2;
  }
  if (c === 47) {
    let j = i + 2;
    if (!isAlpha(s.charCodeAt(j))) return 0;
    while (j < n && (isAlnum(s.charCodeAt(j)) || s.charCodeAt(j) === 45)) j++;
    j = skipWs(s, j);
    return s.charCodeAt(j) === 62 ? j + 1 : 0;
  }
  if (!isAlpha(c)) return 0;
  let j = i + 2;
  while (j < n && (isAlnum(s.charCodeAt(j)) || s.charCodeAt(j) === 45)) j++;
  // attributes: whitespace, a name, optionally = and a value
  for (;;) {
    p.step();
    const ws = skipWs(s, j);
    const d = s.charCodeAt(ws);
    if (d === 62) return ws + 1;
    if (d === 47) return s.charCodeAt(ws + 1) === 62 ? ws + 2 : 0;
    if (ws === j) return 0; // an attribute needs whitespace before it
    if (!(isAlpha(d) || d === 58 || d === 95)) return 0;
    j = ws + 1;
    while (j < n && (isAlnum(s.charCodeAt(j)) || s.charCodeAt(j) === 45 || s.charCodeAt(j) === 46 || s.charCodeAt(j) === 58 || s.charCodeAt(j) === 95)) j++;
    const eq = skipWs(s, j);
    if (s.charCodeAt(eq) !== 61) continue;
    let v = skipWs(s, eq + 1);
    const q = s.charCodeAt(v);
    if (q === 34 || q === 39) {
      const e = s.indexOf(q === 34 ? '"' : "'", v + 1);
      if (e < 0) return 0;
      p.step(e - v);
      j = e + 1;
      const after = s.charCodeAt(j);
      if (!(after === 47 || after === 62 || after === 32 || after === 9 || isLineEnd(after))) return 0;
    } else {
      const start = v;
      while (v < n) {
        const u = s.charCodeAt(v);
        if (u === 34 || u === 39 || u === 60 || u === 61 || u === 96) return 0;
        if (u === 62 || u <= 32) break;
        v++;
      }
      if (v === start) return 0;
      j = v;
    }
  }
}
