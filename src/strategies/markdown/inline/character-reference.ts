/**
 * Character references (CommonMark §2.5): `&name;` by the HTML table of
 * `character-entities` (what micromark decodes with), `&#…;` and `&#x…;` as micromark
 * decodes them. Core module.
 * @module
 */
import { characterEntities } from 'character-entities';
import { isAlnum } from '../chars.js';
import type { InlineParser } from './parser.js';

/** Decodes a numeric character reference as micromark does (invalid code points → U+FFFD). */
function decodeNumeric(value: string, base: number): string {
  const code = Number.parseInt(value, base);
  if (
    code < 9 ||
    code === 11 ||
    (code > 13 && code < 32) ||
    (code > 126 && code < 160) ||
    (code > 55295 && code < 57344) ||
    (code > 64975 && code < 65008) ||
    (code & 65535) === 65535 ||
    (code & 65535) === 65534 ||
    code > 1114111
  ) {
    return '\uFFFD';
  }
  return String.fromCodePoint(code);
}

const entities = characterEntities as Record<string, string>;
const hasOwn = Object.prototype.hasOwnProperty;

/** `&`: a character reference decoded, or `&` itself. */
export function characterReference(p: InlineParser, i: number): number {
  const s = p.s;
  const n = s.length;
  let j = i + 1;
  if (s.charCodeAt(j) === 35) {
    j++;
    const hex = s.charCodeAt(j) === 120 || s.charCodeAt(j) === 88;
    if (hex) j++;
    const from = j;
    const max = hex ? 6 : 7;
    while (j < n && j - from < max && (hex ? /[0-9A-Fa-f]/.test(s[j]) : s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57)) j++;
    if (j > from && s.charCodeAt(j) === 59) {
      p.piece(decodeNumeric(s.slice(from, j), hex ? 16 : 10));
      return j + 1;
    }
  } else {
    while (j < n && j - i <= 31 && isAlnum(s.charCodeAt(j))) j++;
    if (j > i + 1 && s.charCodeAt(j) === 59) {
      const name = s.slice(i + 1, j);
      if (hasOwn.call(entities, name)) {
        p.piece(entities[name]);
        return j + 1;
      }
    }
  }
  p.pending += '&';
  return i + 1;
}
