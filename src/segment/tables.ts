/**
 * Tables too large for the budget, cut between rows so that no row loses its labels:
 * each body row rewritten as `Header: value | Header: value` (`Functie: Senior
 * Developer | Maximum salaris: € 45.000 | Schaal: 11`), and each part of the table the
 * header lines followed by its rows, one per line, so that no row loses its labels (a
 * cell with the value € 45.000 says nothing without its row and column).
 *
 * Shared by the structure-aware strategies (HTML here; the same rewriting as the
 * Markdown chunker's). The parts are packed by the shared packer: {@link TableRowsLevel}
 * is the boundary level of a table's rows. Core module: no Node built-ins.
 * @module
 */
import type { PlannedChunk } from '../plan/assemble.js';
import type { PackLevel } from '../plan/pack.js';

/** A header cell: its text and how many columns it spans (`colspan`). */
export interface HeaderCell {
  text: string;
  span: number;
}

/**
 * The label of each column from the header rows: a cell spanning n columns labels all
 * of them; with several header rows, a column's labels are joined by a space (`2024
 * Omzet`); a column without a header cell has the label `''`.
 */
export function columnLabels(headerRows: readonly (readonly HeaderCell[])[]): string[] {
  const labels: string[] = [];
  for (const row of headerRows) {
    let col = 0;
    for (const cell of row) {
      for (let k = 0; k < Math.max(1, cell.span); k++, col++) {
        if (!cell.text) continue;
        labels[col] = labels[col] && labels[col] !== cell.text ? `${labels[col]} ${cell.text}` : cell.text;
      }
    }
  }
  for (let k = 0; k < labels.length; k++) labels[k] ??= '';
  return labels;
}

/**
 * One row with its labels: `Label: value` per cell joined by ` | `; a value in a column
 * without a label stands alone, an empty cell is left out.
 * @param labels the column labels ({@link columnLabels})
 * @param cells the row's cells (text and column span), in order
 */
export function labelledRow(labels: readonly string[], cells: readonly HeaderCell[]): string {
  const out: string[] = [];
  let col = 0;
  for (const cell of cells) {
    const label = labels[col];
    col += Math.max(1, cell.span);
    if (!cell.text) continue;
    out.push(label ? `${label}: ${cell.text}` : cell.text);
  }
  return out.join(' | ');
}

/** The text of a part: the header lines, then rows a..b, one per line. */
export function tablePartText(header: string, rows: readonly string[], a: number, b: number): string {
  const body = rows.slice(a, b + 1).join('\n');
  return header ? `${header}\n${body}` : body;
}

/**
 * The rows of one table as a packer level: section k is body row k (labelled); the
 * exact size of a run is that of its part text ({@link tablePartText}), so every part,
 * header lines included, fits the budget unless one row alone does not (it is then a
 * part of its own, flagged `oversized` by the packer: a row is indivisible).
 */
export class TableRowsLevel implements PackLevel {
  readonly count: number;
  readonly #header: string;
  readonly #rows: readonly string[];
  readonly #size: (text: string) => number;
  readonly #emit: (a: number, b: number, text: string, size: number, oversized: boolean) => PlannedChunk | undefined;
  readonly #sizes: Float64Array;
  readonly #prefix: Float64Array;
  readonly #headerSize: number;
  readonly #lineSize: number;

  /**
   * @param header the lines every part starts with (caption, header row); '' for none
   * @param rows the labelled body rows
   * @param size the size of a text in the budget's unit
   * @param emit the chunk of rows a..b given their part text and its exact size
   */
  constructor(
    header: string,
    rows: readonly string[],
    size: (text: string) => number,
    emit: (a: number, b: number, text: string, size: number, oversized: boolean) => PlannedChunk | undefined,
  ) {
    this.count = rows.length;
    this.#header = header;
    this.#rows = rows;
    this.#size = size;
    this.#emit = emit;
    this.#sizes = new Float64Array(rows.length);
    this.#prefix = new Float64Array(rows.length + 1);
    this.#lineSize = size('\n');
    for (let k = 0; k < rows.length; k++) {
      this.#sizes[k] = size(rows[k]);
      this.#prefix[k + 1] = this.#prefix[k] + this.#sizes[k] + this.#lineSize;
    }
    this.#headerSize = header ? size(header) : 0;
  }

  start(i: number): number {
    return i;
  }

  end(i: number): number {
    return i + 1;
  }

  /** Row i with the header lines: the smallest part that holds it. */
  size(i: number): number {
    return this.#headerSize + this.#sizes[i] + (this.#header ? this.#lineSize : 0);
  }

  estimate(a: number, b: number): number {
    return this.#headerSize + this.#prefix[b + 1] - this.#prefix[a] - (this.#header ? 0 : this.#lineSize);
  }

  exact(a: number, b: number): number {
    return this.#size(tablePartText(this.#header, this.#rows, a, b));
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    return this.#emit(a, b, tablePartText(this.#header, this.#rows, a, b), size, oversized);
  }
}
