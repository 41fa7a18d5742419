/**
 * Rendering evaluation results: a Markdown table, JSON, and an SVG scatter chart of
 * recall against IoU. Core module: returns strings, writes nothing.
 * @module
 */
import type { EvaluationResult, MetricSummary } from './evaluate.js';

/** Table row label fields: the strategy, its size and overlap (in tokens) if known. */
export interface ReportRow {
  result: EvaluationResult;
  /** Strategy or library name, e.g. `fixed` or `langchain RecursiveCharacterTextSplitter`. */
  strategy: string;
  size?: number;
  overlap?: number;
}

function pct(m: { mean: number; std: number }): string {
  if (!Number.isFinite(m.mean)) return '–';
  return `${(m.mean * 100).toFixed(1)} ± ${(m.std * 100).toFixed(1)}`;
}

/**
 * A Markdown table: strategy, size, overlap, number of chunks, mean chunk tokens,
 * recall, precision and IoU as `mean ± std` in percent, over all questions.
 */
export function markdownTable(rows: readonly ReportRow[]): string {
  const lines = [
    '| strategy | size | overlap | chunks | mean chunk tokens | recall % | precision % | IoU % |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const o = r.result.overall;
    lines.push(
      `| ${r.strategy} | ${r.size ?? ''} | ${r.overlap ?? ''} | ${r.result.chunks ?? ''} | ${r.result.meanChunkTokens !== undefined ? r.result.meanChunkTokens.toFixed(1) : ''} | ${pct(o.recall)} | ${pct(o.precision)} | ${pct(o.iou)} |`,
    );
  }
  return lines.join('\n');
}

/** A Markdown table per corpus: rows are strategies, columns recall / precision / IoU means (%). */
export function perCorpusTable(rows: readonly ReportRow[]): string {
  const ids = [...new Set(rows.flatMap((r) => Object.keys(r.result.perCorpus)))];
  const head = ['| strategy | size | overlap |', '|---|---:|---:|'];
  for (const id of ids) {
    head[0] += ` ${id} R / P / IoU % |`;
    head[1] += '---:|';
  }
  const lines = [...head];
  for (const r of rows) {
    let line = `| ${r.strategy} | ${r.size ?? ''} | ${r.overlap ?? ''} |`;
    for (const id of ids) {
      const s: MetricSummary | undefined = r.result.perCorpus[id];
      line += s ? ` ${(s.recall.mean * 100).toFixed(1)} / ${(s.precision.mean * 100).toFixed(1)} / ${(s.iou.mean * 100).toFixed(1)} |` : ' – |';
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** JSON of the results (per-question scores included unless `perQuestion` is false). */
export function resultsJson(rows: readonly ReportRow[], options: { perQuestion?: boolean } = {}): string {
  const keep = options.perQuestion ?? true;
  return JSON.stringify(
    rows.map((r) => ({
      strategy: r.strategy,
      size: r.size ?? null,
      overlap: r.overlap ?? null,
      ...r.result,
      perQuestion: keep ? r.result.perQuestion : undefined,
    })),
    null,
    2,
  );
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

/** Options of {@link recallIouSvg}. */
export interface ChartOptions {
  title?: string;
  width?: number;
  height?: number;
}

/**
 * An SVG scatter chart: x = mean IoU (%), y = mean recall (%), one point per row; a
 * colour (and marker shape) per strategy, listed in a legend; each point labelled with
 * `size/overlap`. The IoU axis starts at 0; the recall axis spans the data rounded
 * to 5 % (so close rows stay apart). Later strategies get smaller markers, so rows
 * with identical scores (e.g. the same windows from two libraries) show as nested markers.
 */
export function recallIouSvg(rows: readonly ReportRow[], options: ChartOptions = {}): string {
  const width = options.width ?? 1100;
  const height = options.height ?? 720;
  const left = 70;
  const right = 300; // legend column
  const top = 50;
  const bottom = 60;
  const pw = width - left - right;
  const ph = height - top - bottom;
  const xs = rows.map((r) => r.result.overall.iou.mean * 100);
  const ys = rows.map((r) => r.result.overall.recall.mean * 100);
  const finite = (v: number[]) => v.filter(Number.isFinite);
  const xMax = Math.max(1, Math.ceil((Math.max(0, ...finite(xs)) * 1.1) / 1) * 1);
  // recall axis zoomed to the data (rounded to 5 %), so close rows stay apart
  const yLo = Math.max(0, Math.floor((Math.min(100, ...finite(ys)) - 5) / 5) * 5);
  const yHi = Math.min(100, Math.max(yLo + 10, Math.ceil((Math.max(0, ...finite(ys)) + 5) / 5) * 5));
  const X = (v: number) => left + (v / xMax) * pw;
  const Y = (v: number) => top + ph - ((v - yLo) / (yHi - yLo)) * ph;
  const strategies = [...new Set(rows.map((r) => r.strategy))];
  const colour = (s: string) => PALETTE[strategies.indexOf(s) % PALETTE.length];
  // later strategies get smaller markers, so rows with identical scores show as nested markers
  const marker = (s: string, cx: number, cy: number, legend = false) => {
    const i = strategies.indexOf(s);
    const c = colour(s);
    const r = legend ? 5.5 : Math.max(3.5, 8 - 1.1 * i);
    if (i % 3 === 1) return `<rect x="${(cx - r).toFixed(1)}" y="${(cy - r).toFixed(1)}" width="${(2 * r).toFixed(1)}" height="${(2 * r).toFixed(1)}" fill="${c}" stroke="#000" stroke-width="0.6"/>`;
    if (i % 3 === 2) return `<path d="M${cx.toFixed(1)},${(cy - r * 1.15).toFixed(1)} L${(cx + r * 1.15).toFixed(1)},${(cy + r).toFixed(1)} L${(cx - r * 1.15).toFixed(1)},${(cy + r).toFixed(1)} Z" fill="${c}" stroke="#000" stroke-width="0.6"/>`;
    return `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="${c}" stroke="#000" stroke-width="0.6"/>`;
  };
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect width="${width}" height="${height}" fill="#fff"/>`);
  out.push(`<text x="${left}" y="28" font-size="16" font-weight="bold">${esc(options.title ?? 'Recall against IoU (means over questions)')}</text>`);
  // grid and ticks
  for (let i = 0; i <= 5; i++) {
    const xv = (xMax * i) / 5;
    const yv = yLo + ((yHi - yLo) * i) / 5;
    out.push(`<line x1="${X(xv).toFixed(1)}" y1="${top}" x2="${X(xv).toFixed(1)}" y2="${top + ph}" stroke="#e5e5e5"/>`);
    out.push(`<line x1="${left}" y1="${Y(yv).toFixed(1)}" x2="${left + pw}" y2="${Y(yv).toFixed(1)}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${X(xv).toFixed(1)}" y="${top + ph + 18}" text-anchor="middle">${+xv.toFixed(1)}</text>`);
    out.push(`<text x="${left - 8}" y="${(Y(yv) + 4).toFixed(1)}" text-anchor="end">${+yv.toFixed(1)}</text>`);
  }
  out.push(`<line x1="${left}" y1="${top + ph}" x2="${left + pw}" y2="${top + ph}" stroke="#000"/>`);
  out.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${top + ph}" stroke="#000"/>`);
  out.push(`<text x="${left + pw / 2}" y="${height - 15}" text-anchor="middle" font-size="13">IoU (%) →</text>`);
  out.push(`<text transform="translate(20 ${top + ph / 2}) rotate(-90)" text-anchor="middle" font-size="13">Recall (%) →</text>`);
  // points with labels
  const labelled = new Set<string>();
  rows.forEach((r, i) => {
    if (!Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) return;
    const cx = X(xs[i]);
    const cy = Y(ys[i]);
    out.push(marker(r.strategy, cx, cy));
    const label = r.size !== undefined ? `${r.size}/${r.overlap ?? 0}` : '';
    const key = `${Math.round(cx / 4)},${Math.round(cy / 4)},${label}`;
    if (label && !labelled.has(key)) {
      labelled.add(key);
      out.push(`<text x="${(cx + 9).toFixed(1)}" y="${(cy - 7).toFixed(1)}" font-size="10" fill="#333">${esc(label)}</text>`);
    }
  });
  // legend
  const lx = left + pw + 25;
  out.push(`<text x="${lx}" y="${top}" font-weight="bold">strategy (label: size/overlap tokens)</text>`);
  strategies.forEach((s, i) => {
    const ly = top + 22 + i * 22;
    out.push(marker(s, lx + 6, ly - 4, true));
    out.push(`<text x="${lx + 20}" y="${ly}">${esc(s)}</text>`);
  });
  const ny = top + 32 + strategies.length * 22;
  out.push(`<text x="${lx}" y="${ny}" font-size="10" fill="#555">Rows with identical scores overlap:</text>`);
  out.push(`<text x="${lx}" y="${ny + 13}" font-size="10" fill="#555">later strategies are drawn smaller, on top.</text>`);
  out.push(`<text x="${lx}" y="${ny + 26}" font-size="10" fill="#555">Up and to the right is better.</text>`);
  out.push('</svg>');
  return out.join('\n');
}
