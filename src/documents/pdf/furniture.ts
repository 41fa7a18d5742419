/**
 * Page furniture for `chunkwise/pdf`: running headers and footers found per run of pages
 * (a chapter, one manual of several in one PDF), page numbers normalised. Internal:
 * {@link extractPdf} is the public face.
 * @module
 */
import { extentOf, pageRows, type Extent, type Piece } from './layout.js';

/** Pieces on one baseline, close together in x. */
export interface Fragment extends Extent {
  pieces: Piece[];
  /** The fragment's text, pieces joined by spaces. */
  text: string;
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

/** Where furniture was found on a page: fragment index → header or footer. */
export type FurnitureMarks = Map<number, 'header' | 'footer'>;

/** Pages a furniture decision looks at: the whole document when it has no more, else this many around the page. */
export const FURNITURE_WINDOW = 64;

/**
 * Finds page headers and footers, page by page: fragments in the top or bottom eighth of
 * their page whose text ({@link furnitureKeys}) recurs within 4 points of the same height
 * either on at least half the pages of the window (and two at least), or on 3 pages or more
 * of a run of pages where it is missing from no two pages in a row (a chapter's or one
 * manual's running header; running heads that alternate between left and right pages).
 * The window is the whole document when it has at most `window` pages; in a longer one, the
 * `window` pages around the page (centred where the document allows). It holds the keys of
 * the window's pages and the pages not yet decided (as the caller gives them: `P`, packed
 * small): memory is bounded by the window, not the document.
 */
export class FurnitureWindow<P> {
  readonly #count: number;
  readonly #size: number;
  readonly #need: number;
  /** The keys (±1 height bucket) of each page in the window, by page index. */
  readonly #keys = new Map<number, Set<string>>();
  readonly #seen = new Map<string, Pages>();
  /** Pages added and not yet decided, from page #next on: each with its fragments' own keys. */
  readonly #pending: { page: P; zoned: { fragment: number; keys: string[] }[] }[] = [];
  #next = 0;
  #added = 0;
  #dropped = 0;

  /**
   * @param count the document's page count
   * @param window pages a decision looks at ({@link FURNITURE_WINDOW})
   */
  constructor(count: number, window = FURNITURE_WINDOW) {
    this.#count = count;
    this.#size = Math.min(window, count);
    this.#need = Math.max(2, Math.ceil(this.#size / 2));
  }

  /**
   * Adds the next page: its fragments and height in points.
   * @returns the pages decided by it, in page order, each with its furniture
   */
  add(page: P, found: readonly Fragment[], height: number): { page: P; furniture: FurnitureMarks }[] {
    const i = this.#added++;
    const keys = new Set<string>();
    const zoned: { fragment: number; keys: string[] }[] = [];
    found.forEach((f, fragment) => {
      const own = keysOf(f, height, i);
      if (own.length > 0) zoned.push({ fragment, keys: own });
      for (const key of own) {
        const [zone, y] = key.split('|', 2);
        const rest = key.slice(zone.length + y.length + 2);
        // a baseline on a 4-point bucket edge is counted in both neighbouring buckets
        for (const d of [-1, 0, 1]) keys.add(`${zone}|${Number(y) + d}|${rest}`);
      }
    });
    this.#keys.set(i, keys);
    for (const k of keys) {
      let list = this.#seen.get(k);
      if (!list) this.#seen.set(k, (list = []));
      list.push(i);
    }
    this.#pending.push({ page, zoned });
    return this.#decide(i);
  }

  /** The pages not yet returned, decided: call after the last page. */
  finish(): { page: P; furniture: FurnitureMarks }[] {
    return this.#decide(this.#count - 1);
  }

  /** The first page of page `i`'s window. */
  #low(i: number): number {
    return Math.max(0, Math.min(i - Math.floor(this.#size / 2), this.#count - this.#size));
  }

  /** Decides every pending page whose window ends at or before page `last`. */
  #decide(last: number): { page: P; furniture: FurnitureMarks }[] {
    const out: { page: P; furniture: FurnitureMarks }[] = [];
    while (this.#pending.length > 0 && this.#low(this.#next) + this.#size - 1 <= last) {
      const i = this.#next++;
      const low = this.#low(i);
      for (; this.#dropped < low; this.#dropped++) this.#drop(this.#dropped);
      const { page, zoned } = this.#pending.shift()!;
      const furniture: FurnitureMarks = new Map();
      for (const { fragment, keys } of zoned) {
        for (const key of keys) {
          const list = this.#seen.get(key);
          if (list && (list.length >= this.#need || runAround(list, i) >= 3)) {
            furniture.set(fragment, key.startsWith('h') ? 'header' : 'footer');
            break;
          }
        }
      }
      out.push({ page, furniture });
    }
    return out;
  }

  /** Forgets page `i`'s keys (it left every window still to come). */
  #drop(i: number): void {
    for (const k of this.#keys.get(i) ?? []) {
      const list = this.#seen.get(k)!;
      list.shift();
      if (list.length === 0) this.#seen.delete(k);
    }
    this.#keys.delete(i);
  }
}

/** The keys of a fragment in the top or bottom eighth of its page: zone, height bucket, {@link furnitureKeys}. */
function keysOf(f: Fragment, height: number, index: number): string[] {
  const zone = f.bottom < height / 8 ? 'h' : f.top > (height * 7) / 8 ? 'f' : undefined;
  if (!zone) return [];
  const y = Math.round(f.baseline / 4);
  return furnitureKeys(f.text, index).map((k) => `${zone}|${y}|${k}`);
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
