/**
 * Tables too large for the budget, cut between rows so that no row loses its labels:
 * each body row rewritten as `Header: value | Header: value` (`Functie: Senior
 * Developer | Maximum salaris: € 45.000 | Schaal: 11`), and each part of the table the
 * header lines followed by its rows, one per line, so that no row loses its labels (a
 * cell with the value € 45.000 says nothing without its row and column).
 *
 * Shared by the structure-aware strategies (Markdown and HTML). The parts are packed by
 * the shared packer: `TableRowsLevel` (`src/engine/pack/levels.ts`) is the boundary level of a
 * table's rows. Core module: no Node built-ins.
 * @module
 */
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
 * @param cells the row's cells (text and column span; a string is a cell of one column), in order
 */
export function labelledRow(labels: readonly string[], cells: readonly (HeaderCell | string)[]): string {
  let out = '';
  let col = 0;
  for (const cell of cells) {
    const label = labels[col];
    const text = typeof cell === 'string' ? cell : cell.text;
    col += typeof cell === 'string' ? 1 : Math.max(1, cell.span);
    if (!text) continue;
    if (out) out += ' | ';
    out += label ? `${label}: ${text}` : text;
  }
  return out;
}

/** The text of a part: the header lines, then rows a..b, one per line. */
export function tablePartText(header: string, rows: readonly string[], a: number, b: number): string {
  const body = rows.slice(a, b + 1).join('\n');
  return header ? `${header}\n${body}` : body;
}
