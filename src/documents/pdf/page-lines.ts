/**
 * A page of `chunkwise/pdf` once it is laid out: its header, body and footer lines in
 * reading order, packed into typed arrays (numbers) and a list of line texts, with no
 * pdf.js item or piece object left. A long PDF keeps every page in this form until the
 * document text is written (the body font size and the heading styles' ranks are the
 * whole document's), which takes a few dozen bytes a run.
 * @module
 */
import type { Fragment, FurnitureMarks } from './furniture.js';
import type { StyledLine } from './headings.js';
import { layoutLine, pageRows, readingOrder, spaced, type LayoutLine, type Piece } from './layout.js';

/** A line of a laid-out page, unpacked: its type and place, and its runs. */
export interface PageLine extends StyledLine {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** The page's runs ({@link RUN_FIELDS} numbers each, see {@link PackedLines.runs}) and this line's first and count. */
  runs: Float64Array;
  firstRun: number;
  runCount: number;
}

/** Numbers per run: offset in the line's text, length, x0, top, x1, bottom, item, item offset, font size, bold (1/0). */
export const RUN_FIELDS = 10;
/** Numbers per line: x0, x1, top, bottom, baseline, size, type size, column, band, bold + 2 × italic, first run, run count. */
const LINE_FIELDS = 12;

/** Lines packed: `lines[k * 12 …]` and `texts[k]` for line k, runs as {@link RUN_FIELDS}. */
export interface PackedLines {
  texts: string[];
  lines: Float64Array;
  runs: Float64Array;
}

/** A page laid out: size in points, lines packed. */
export interface LaidPage {
  width: number;
  height: number;
  header: PackedLines;
  body: PackedLines;
  footer: PackedLines;
}

/** Packs laid-out lines; the text of a run starts where {@link spaced} puts it in the line's text. */
export function packLines(lines: readonly LayoutLine[]): PackedLines {
  let count = 0;
  for (const l of lines) count += l.pieces.length;
  const packed: PackedLines = { texts: [], lines: new Float64Array(lines.length * LINE_FIELDS), runs: new Float64Array(count * RUN_FIELDS) };
  let r = 0;
  lines.forEach((l, k) => {
    let typeSize = 0;
    let offset = 0;
    const firstRun = r;
    l.pieces.forEach((p, j) => {
      if (p.size > typeSize) typeSize = p.size;
      if (j > 0) {
        const before = l.pieces[j - 1];
        if (p.x0 - before.x1 >= 1.5 * l.size) typeSize = NaN;
        if (spaced(before, p)) offset++;
      }
      packed.runs.set([offset, p.str.length, p.x0, p.top, p.x1, p.bottom, p.item, p.itemOffset, p.size, p.bold ? 1 : 0], r * RUN_FIELDS);
      offset += p.str.length;
      r++;
    });
    packed.texts.push(l.text);
    packed.lines.set([l.x0, l.x1, l.top, l.bottom, l.baseline, l.size, typeSize, l.column, l.band, (l.bold ? 1 : 0) + (l.italic ? 2 : 0), firstRun, r - firstRun], k * LINE_FIELDS);
  });
  return packed;
}

/** The lines of a {@link PackedLines}, as objects (for one page at a time). */
export function unpackLines(packed: PackedLines): PageLine[] {
  return packed.texts.map((text, k) => {
    const n = packed.lines.subarray(k * LINE_FIELDS, (k + 1) * LINE_FIELDS);
    return { text, x0: n[0], x1: n[1], top: n[2], bottom: n[3], baseline: n[4], size: n[5], typeSize: n[6], column: n[7], band: n[8], bold: (n[9] & 1) === 1, italic: (n[9] & 2) === 2, runs: packed.runs, firstRun: n[10], runCount: n[11] };
  });
}

/** Numbers per piece: item, item offset, x0, x1, top, bottom, baseline, size, bold + 2 × italic. */
const PIECE_FIELDS = 9;

/** A page read and not laid out yet, packed: its fragments' pieces in order. */
export interface PackedPage {
  width: number;
  height: number;
  strs: string[];
  pieces: Float64Array;
  /** Where each fragment's pieces end (exclusive), in pieces. */
  fragmentEnds: Uint32Array;
}

/** Packs a page's fragments (what it holds while furniture is decided around it). */
export function packPage(found: readonly Fragment[], width: number, height: number): PackedPage {
  let count = 0;
  for (const f of found) count += f.pieces.length;
  const page: PackedPage = { width, height, strs: [], pieces: new Float64Array(count * PIECE_FIELDS), fragmentEnds: new Uint32Array(found.length) };
  let k = 0;
  found.forEach((f, j) => {
    for (const p of f.pieces) {
      page.strs.push(p.str);
      page.pieces.set([p.item, p.itemOffset, p.x0, p.x1, p.top, p.bottom, p.baseline, p.size, (p.bold ? 1 : 0) + (p.italic ? 2 : 0)], k * PIECE_FIELDS);
      k++;
    }
    page.fragmentEnds[j] = k;
  });
  return page;
}

/**
 * Lays a page out: body lines (the pieces of fragments not marked as furniture) in reading
 * order, header and footer lines, packed.
 */
export function layOutPage(page: PackedPage, furniture: FurnitureMarks): LaidPage {
  const body: Piece[] = [];
  const header: Piece[] = [];
  const footer: Piece[] = [];
  let j = 0;
  page.strs.forEach((str, k) => {
    while (page.fragmentEnds[j] <= k) j++;
    const n = page.pieces.subarray(k * PIECE_FIELDS, (k + 1) * PIECE_FIELDS);
    const piece: Piece = { str, item: n[0], itemOffset: n[1], x0: n[2], x1: n[3], top: n[4], bottom: n[5], baseline: n[6], size: n[7], bold: (n[8] & 1) === 1, italic: (n[8] & 2) === 2 };
    const kind = furniture.get(j);
    (kind === 'header' ? header : kind === 'footer' ? footer : body).push(piece);
  });
  const furnitureLines = (pieces: Piece[]) => pageRows(pieces).map((r) => layoutLine(r.pieces, -1, -1, 0));
  return { width: page.width, height: page.height, header: packLines(furnitureLines(header)), body: packLines(readingOrder(body)), footer: packLines(furnitureLines(footer)) };
}
