/**
 * Page layout for `chunkwise/pdf`: text items placed on a page are grouped into rows,
 * the rows into horizontal bands and columns, and read band by band, each band's columns
 * left to right. Internal: {@link extractPdf} is the public face.
 * @module
 */

/** Where a piece of text lies on its page (viewport coordinates, points; size: font size). */
export interface Extent {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  baseline: number;
  size: number;
}

/** A text item placed on its page. */
export interface Piece extends Extent {
  str: string;
  item: number;
  itemOffset: number;
  bold: boolean;
  italic: boolean;
}

/** A line in reading order before its text is laid out: pieces of one row within one block. */
export interface LayoutLine extends Extent {
  pieces: Piece[];
  /** Column index within its band, 0 = leftmost; -1 for a line of a band that spans the columns of a page that has some. */
  column: number;
  /** Block index on its page: each column of a band, and each band read across, has its own. */
  band: number;
  /** Every piece bold, every piece italic. */
  bold: boolean;
  italic: boolean;
  /** Left edge of the line's block (column or band). */
  colLeft: number;
  text: string;
}

/** Pieces on one baseline across the page, left to right. */
interface Row {
  pieces: Piece[];
  baseline: number;
  size: number;
  x0: number;
  x1: number;
  /** Smallest right edge and largest left edge of the row's pieces. */
  minX1: number;
  maxX0: number;
}

/** The extent of `items` (a non-empty list): smallest x0/top, largest x1/bottom, largest size; no spread over the list. */
export function extentOf(items: readonly Extent[]): Extent {
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  let size = 0;
  let baseline = items[0]?.baseline ?? 0;
  for (const p of items) {
    if (p.x0 < x0) x0 = p.x0;
    if (p.x1 > x1) x1 = p.x1;
    if (p.top < top) top = p.top;
    if (p.bottom > bottom) bottom = p.bottom;
    if (p.size > size) {
      size = p.size;
      baseline = p.baseline;
    }
  }
  return { x0, x1, top, bottom, baseline, size };
}

function rowOf(pieces: Piece[]): Row {
  pieces.sort((a, b) => a.x0 - b.x0);
  const e = extentOf(pieces);
  let minX1 = Infinity;
  let maxX0 = -Infinity;
  for (const p of pieces) {
    if (p.x1 < minX1) minX1 = p.x1;
    if (p.x0 > maxX0) maxX0 = p.x0;
  }
  return { pieces, baseline: e.baseline, size: e.size, x0: e.x0, x1: e.x1, minX1, maxX0 };
}

/**
 * Groups pieces into rows by baseline (within 0.3 of the smaller font size), top to
 * bottom. A row whose baseline lies within 0.55 of the font size of the row above or below
 * and whose pieces all fit in that row's gaps (a superscript, a subscript, the lowered E of
 * the TeX logo) joins it.
 */
export function pageRows(pieces: readonly Piece[]): Row[] {
  const sorted = [...pieces].sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0);
  const groups: Piece[][] = [];
  for (const p of sorted) {
    const row = groups[groups.length - 1];
    if (row && Math.abs(row[0].baseline - p.baseline) <= 0.3 * Math.min(row[0].size, p.size)) row.push(p);
    else groups.push([p]);
  }
  const rows = groups.map(rowOf);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    let into = -1;
    for (const k of [i - 1, i + 1]) {
      const n = rows[k];
      if (!n || n.pieces.length < r.pieces.length || Math.abs(n.baseline - r.baseline) >= 0.55 * Math.max(n.size, r.size) || !fitsBetween(r.pieces, n.pieces)) continue;
      if (into < 0 || Math.abs(n.baseline - r.baseline) < Math.abs(rows[into].baseline - r.baseline)) into = k;
    }
    if (into < 0) continue;
    const merged = rowOf([...rows[into].pieces, ...r.pieces]);
    merged.baseline = rows[into].baseline;
    merged.size = rows[into].size;
    rows[into] = merged;
    rows.splice(i, 1);
    i -= into < i ? 2 : 1;
    if (i < -1) i = -1;
  }
  return rows;
}

/** Whether no piece of `a` overlaps a piece of `b` in x by more than half a point (both sorted by x0). */
function fitsBetween(a: readonly Piece[], b: readonly Piece[]): boolean {
  let k = 0;
  for (const p of a) {
    while (k < b.length && b[k].x1 <= p.x0 + 0.5) k++;
    if (k < b.length && b[k].x0 < p.x1 - 0.5) return false;
  }
  return true;
}

/** The widest page a gutter is looked for on, in points (wider text is read as one column). */
const MAX_GUTTER_SCAN = 4000;
/** More rows than this in one block are read in order without looking for columns. */
const MAX_GUTTER_ROWS = 3000;

/**
 * The best gutter of a block of rows: the x that the longest run of consecutive rows leaves
 * free (no piece across it) while rows of that run hold text on both sides of it; the score
 * is the smaller of the two sides' row counts. Among the x with the best score, the middle
 * of the widest stretch. Undefined when no x scores 3.
 */
function findGutter(rows: readonly Row[]): { x: number; score: number; width: number } | undefined {
  if (rows.length < 4 || rows.length > MAX_GUTTER_ROWS) return undefined;
  let left = Infinity;
  let right = -Infinity;
  for (const r of rows) {
    if (r.x0 < left) left = r.x0;
    if (r.x1 > right) right = r.x1;
  }
  left = Math.floor(left);
  right = Math.ceil(right);
  const width = right - left;
  if (!(width >= 50 && width <= MAX_GUTTER_SCAN)) return undefined;
  // covered[r * width + x]: a piece of row r lies across x (merged intervals: linear in the row's width)
  const covered = new Uint8Array(rows.length * width);
  rows.forEach((r, i) => {
    let end = -Infinity;
    for (const p of r.pieces) {
      const a = Math.max(Math.ceil(p.x0) - left, end === -Infinity ? 0 : end, 0);
      const b = Math.min(Math.floor(p.x1) - left, width);
      for (let x = a; x < b; x++) covered[i * width + x] = 1;
      if (b > end) end = b;
    }
  });
  const score = new Int32Array(width);
  for (let x = 1; x < width; x++) {
    let best = 0;
    let l = 0;
    let r = 0;
    for (let i = 0; i < rows.length; i++) {
      if (covered[i * width + x]) {
        l = r = 0;
        continue;
      }
      if (rows[i].minX1 - left <= x) l++;
      if (rows[i].maxX0 - left >= x) r++;
      const s = Math.min(l, r);
      if (s > best) best = s;
    }
    score[x] = best;
  }
  let max = 0;
  for (let x = 0; x < width; x++) if (score[x] > max) max = score[x];
  if (max < 3) return undefined;
  let bestStart = -1;
  let bestLen = 0;
  for (let x = 0; x < width; ) {
    if (score[x] !== max) {
      x++;
      continue;
    }
    let y = x;
    while (y < width && score[y] === max) y++;
    if (y - x > bestLen) {
      bestLen = y - x;
      bestStart = x;
    }
    x = y;
  }
  return { x: left + bestStart + bestLen / 2, score: max, width: bestLen };
}

/** The pieces of `row` on one side of `x`: left (`x1 <= x`) or right. */
function side(row: Row, x: number, which: 'left' | 'right'): Row | undefined {
  const pieces = row.pieces.filter((p) => (which === 'left' ? p.x1 <= x : p.x0 >= x));
  return pieces.length ? rowOf(pieces) : undefined;
}

/**
 * Whether rows on one side of a gutter read as columns of text: at least 8 ems wide (a
 * man page's option tags are narrower), and the middle width of its runs of text (pieces
 * less than 1.5 ems apart) 8 ems or more: lines of prose, where a table's cells are short.
 */
function isTextColumn(rows: readonly Row[]): boolean {
  if (rows.length === 0) return false;
  const sizes = rows.map((r) => r.size).sort((a, b) => a - b);
  const em = sizes[Math.floor(sizes.length / 2)];
  const e = extentOf(rows.flatMap((r) => r.pieces));
  if (e.x1 - e.x0 < 8 * em) return false;
  const runs: number[] = [];
  for (const r of rows) {
    let start = r.pieces[0].x0;
    let end = r.pieces[0].x1;
    for (let k = 1; k < r.pieces.length; k++) {
      const p = r.pieces[k];
      if (p.x0 - end >= 1.5 * r.size) {
        runs.push(end - start);
        start = p.x0;
      }
      end = Math.max(end, p.x1);
    }
    runs.push(end - start);
  }
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)] >= 8 * em;
}

/** Numbers the page's blocks as they are emitted. */
interface Counter {
  band: number;
  columns: boolean;
}

/**
 * Rows in reading order, as lines: cut at the best gutter into bands of rows that lie
 * across it and bands of rows that leave it free; a free band whose two sides both read as
 * columns of text is read left side, then right side (each side laid out the same way, so
 * three columns work); every other band is laid out on its own, or read row by row.
 */
function order(rows: Row[], out: LayoutLine[], counter: Counter, depth: number, column = -1): void {
  const gutter = depth < 6 ? findGutter(rows) : undefined;
  if (!gutter) {
    emitBlock(rows, column, out, counter);
    return;
  }
  const x = gutter.x;
  const bands: { free: boolean; rows: Row[] }[] = [];
  for (const r of rows) {
    const free = !r.pieces.some((p) => p.x0 < x && p.x1 > x);
    const last = bands[bands.length - 1];
    if (last && last.free === free) last.rows.push(r);
    else bands.push({ free, rows: [r] });
  }
  for (const band of bands) {
    if (band.free) {
      const left = band.rows.map((r) => side(r, x, 'left')).filter((r): r is Row => r !== undefined);
      const right = band.rows.map((r) => side(r, x, 'right')).filter((r): r is Row => r !== undefined);
      if (left.length > 0 && right.length > 0 && isTextColumn(left) && isTextColumn(right)) {
        counter.columns = true;
        // each side laid out again: it may hold columns or tables of its own
        const base = Math.max(column, 0);
        order(left, out, counter, depth + 1, base);
        order(right, out, counter, depth + 1, base + 1);
        continue;
      }
      emitBlock(band.rows, column, out, counter);
      continue;
    }
    if (band.rows.length < rows.length) order(band.rows, out, counter, depth + 1, column);
    else emitBlock(band.rows, column, out, counter);
  }
}

/** The rows of one block as lines, top to bottom, under a new block number. */
function emitBlock(rows: readonly Row[], column: number, out: LayoutLine[], counter: Counter): void {
  if (rows.length === 0) return;
  counter.band++;
  const colLeft = extentOf(rows.flatMap((r) => r.pieces)).x0;
  for (const r of rows) out.push(layoutLine(r.pieces, column, counter.band, colLeft));
}

/** A line from pieces of one row (sorted left to right). */
export function layoutLine(pieces: Piece[], column: number, band: number, colLeft: number): LayoutLine {
  pieces.sort((a, b) => a.x0 - b.x0);
  const e = extentOf(pieces);
  let chars = 0;
  let weighted = 0;
  let bold = true;
  let italic = true;
  for (const p of pieces) {
    chars += p.str.length;
    weighted += p.size * p.str.length;
    if (!p.bold) bold = false;
    if (!p.italic) italic = false;
  }
  return {
    ...e,
    pieces,
    column,
    band,
    size: weighted / Math.max(1, chars),
    bold,
    italic,
    colLeft,
    text: pieces.map((p, k) => (k > 0 && spaced(pieces[k - 1], p) ? ' ' : '') + p.str).join(''),
  };
}

/**
 * Whether a line's text puts a space between two pieces, left to right: unless the second
 * starts within 0.15 of the smaller font size of the first's end (one word set in two
 * items: a small-caps heading's first letter, a kerned or re-encoded glyph), and neither is
 * a number raised or lowered in smaller type (a sentence number before a word, `¹The`;
 * a footnote mark after one), which stands apart from the word it touches (the raised A of
 * the LaTeX logo does not).
 */
export function spaced(a: Piece, b: Piece): boolean {
  if (b.x0 - a.x1 > 0.15 * Math.min(a.size, b.size)) return true;
  const big = Math.max(a.size, b.size);
  const mark = a.size < b.size ? a : b;
  return /^\d+$/.test(mark.str) && Math.abs(a.baseline - b.baseline) > 0.2 * big && big - mark.size > 0.2 * big;
}

/**
 * The lines of a page in reading order: rows cut into horizontal bands at rows that lie
 * across a column gap (titles, abstracts, full-width figures and tables), each band's
 * columns left to right, a column top to bottom; a table (rows with wide gaps between
 * cells) is read row by row. Lines of a page without columns have column 0.
 */
export function readingOrder(pieces: readonly Piece[]): LayoutLine[] {
  const out: LayoutLine[] = [];
  const counter: Counter = { band: -1, columns: false };
  order(pageRows(pieces), out, counter, 0);
  if (!counter.columns) for (const l of out) l.column = 0;
  return out;
}
