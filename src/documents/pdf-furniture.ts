/**
 * Page furniture for `chunkwise/pdf`: running headers and footers found per run of pages
 * (a chapter, one manual of several in one PDF), page numbers normalised. Internal:
 * {@link extractPdf} is the public face.
 * @module
 */
import { extentOf, pageRows, type Extent, type Piece } from './pdf-layout.js';

/** Pieces on one baseline, close together in x. */
export interface Fragment extends Extent {
  pieces: Piece[];
  /** The fragment's text, pieces joined by spaces. */
  text: string;
  furniture?: 'header' | 'footer';
}

/** Groups pieces into rows ({@link pageRows}), then splits each row into fragments at gaps wider than 2.5 ems. */
export function fragments(pieces: readonly Piece[]): Fragment[] {
  const out: Fragment[] = [];
  for (const { pieces: row } of pageRows(pieces)) {
    let current: Piece[] = [];
    const flush = () => {
      if (current.length === 0) return;
      out.push({ pieces: current, ...extentOf(current), baseline: current[0].baseline, text: current.map((p) => p.str).join(' ').replace(/\s+/g, ' ') });
      current = [];
    };
    for (const p of row) {
      const prev = current[current.length - 1];
      if (prev && p.x0 - prev.x1 > 2.5 * Math.max(prev.size, p.size)) flush();
      current.push(p);
    }
    flush();
  }
  return out;
}

const NUMBER = /\d+/g;
const ROMAN = /^[ivxlcdm]+$/i;
/** Numbers of a line tried as the page number (the first few). */
const MAX_NUMBERS = 4;

/**
 * The keys a furniture line of page `index` (0-based) is known by: its text as it is (a
 * date, an edition, a title recur unchanged), and, for each of its first numbers, the text
 * with that number replaced by its difference from the page index (a page number moves
 * with the page: "Page 3" on page 5 and "Page 4" on page 6 share `Page #-2`). A lone roman
 * numeral (front matter) is `#roman`. Body lines that differ only in other digits share no key.
 */
export function furnitureKeys(text: string, index: number): string[] {
  if (ROMAN.test(text)) return ['#roman'];
  const keys = [text];
  let n = 0;
  for (const m of text.matchAll(NUMBER)) {
    if (n++ >= MAX_NUMBERS || m[0].length > 6) break;
    keys.push(`${text.slice(0, m.index)}#${Number(m[0]) - index}${text.slice(m.index! + m[0].length)}`);
  }
  return keys;
}

/** Pages (0-based, ascending) on which one key was seen. */
type Pages = number[];

/**
 * Marks page headers and footers: fragments in the top or bottom eighth of their page whose
 * text ({@link furnitureKeys}) recurs within 4 points of the same height either on at least
 * half the pages (and two at least), or on 3 pages or more of a run of pages where it is
 * missing from no two pages in a row (a chapter's or one manual's running header; running
 * heads that alternate between left and right pages).
 * @param pages each page's fragments and height; `fragment.furniture` is set in place
 */
export function markFurniture(pages: readonly { fragments: Fragment[]; height: number }[]): void {
  const seen = new Map<string, Pages>();
  const keysOf = (f: Fragment, height: number, index: number): string[] => {
    const zone = f.bottom < height / 8 ? 'h' : f.top > (height * 7) / 8 ? 'f' : undefined;
    if (!zone) return [];
    const y = Math.round(f.baseline / 4);
    return furnitureKeys(f.text, index).map((k) => `${zone}|${y}|${k}`);
  };
  pages.forEach((p, i) => {
    for (const f of p.fragments) {
      for (const key of keysOf(f, p.height, i)) {
        const [zone, y] = key.split('|', 2);
        const rest = key.slice(zone.length + y.length + 2);
        // a baseline on a 4-point bucket edge is counted in both neighbouring buckets
        for (const d of [-1, 0, 1]) {
          const k = `${zone}|${Number(y) + d}|${rest}`;
          let list = seen.get(k);
          if (!list) seen.set(k, (list = []));
          if (list[list.length - 1] !== i) list.push(i);
        }
      }
    }
  });
  const need = Math.max(2, Math.ceil(pages.length / 2));
  pages.forEach((p, i) => {
    for (const f of p.fragments) {
      for (const key of keysOf(f, p.height, i)) {
        const list = seen.get(key);
        if (list && (list.length >= need || runAround(list, i) >= 3)) {
          f.furniture = key.startsWith('h') ? 'header' : 'footer';
          break;
        }
      }
    }
  });
}

/** How many pages of `list` lie in the run around page `i` (pages no more than 2 apart). */
function runAround(list: Pages, i: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < i) lo = mid + 1;
    else hi = mid;
  }
  if (list[lo] !== i) return 0;
  let a = lo;
  let b = lo;
  while (a > 0 && list[a] - list[a - 1] <= 2) a--;
  while (b < list.length - 1 && list[b + 1] - list[b] <= 2) b++;
  return b - a + 1;
}
