/**
 * Rendering evaluation results: a Markdown table, JSON, and an SVG scatter chart of
 * recall against IoU. Core module: returns strings, writes nothing.
 * @module
 */
import { pairedBootstrap, type BootstrapOptions, type PairedDifference } from './bootstrap.js';
import type { EvaluationResult, MetricSummary } from './evaluate.js';

/** Table row label fields: the strategy, its size and overlap (in tokens) if known. */
export interface ReportRow {
  result: EvaluationResult;
  /** Strategy or library name, e.g. `fixed` or `langchain RecursiveCharacterTextSplitter`. */
  strategy: string;
  size?: number;
  overlap?: number;
  /** The embedder the row was evaluated with (for reports that hold several). */
  embedder?: string;
  /** The row against a baseline on the same questions (see {@link compareToBaselines}). */
  comparison?: RowComparison;
}

/** A row's paired differences to a baseline row: recall and IoU of this row minus the baseline's, per question. */
export interface RowComparison {
  /** The baseline's strategy name. */
  baseline: string;
  recall: PairedDifference;
  iou: PairedDifference;
  /** mean IoU of the row / mean IoU of the baseline. */
  iouRatio: number;
}

/**
 * Sets `comparison` on every row that has a baseline: the row for which `isBaseline` is
 * true with the same size, overlap and embedder (a baseline row itself gets none).
 * Differences are per question (recall, IoU), with {@link pairedBootstrap} intervals
 * (same seed for every row, so the same resampled question sets).
 * @throws {InvalidInputError} when a row and its baseline were scored on different numbers of questions.
 */
export function compareToBaselines(rows: ReportRow[], isBaseline: (row: ReportRow) => boolean, options: BootstrapOptions = {}): void {
  const key = (r: ReportRow) => `${r.embedder ?? ''}|${r.size ?? ''}|${r.overlap ?? ''}`;
  const baselines = new Map<string, ReportRow>();
  for (const r of rows) if (isBaseline(r)) baselines.set(key(r), r);
  for (const r of rows) {
    const b = baselines.get(key(r));
    if (!b || b === r) continue;
    const per = (row: ReportRow, m: 'recall' | 'iou') => row.result.perQuestion.map((q) => q[m]);
    r.comparison = {
      baseline: b.strategy,
      recall: pairedBootstrap(per(r, 'recall'), per(b, 'recall'), options),
      iou: pairedBootstrap(per(r, 'iou'), per(b, 'iou'), options),
      iouRatio: r.result.overall.iou.mean / b.result.overall.iou.mean,
    };
  }
}

/** A difference in percentage points with its interval, e.g. `+0.6 [−0.1, +1.3]`; bold when the interval excludes 0. */
function delta(d: PairedDifference, digits: number): string {
  const f = (x: number) => {
    const v = (x * 100).toFixed(digits);
    if (Number(v) === 0) return (0).toFixed(digits);
    return x > 0 ? `+${v}` : `−${v.slice(1)}`;
  };
  const text = `${f(d.mean)} [${f(d.low)}, ${f(d.high)}]`;
  return d.low > 0 || d.high < 0 ? `**${text}**` : text;
}

function pct(m: { mean: number; std: number }): string {
  if (!Number.isFinite(m.mean)) return '–';
  return `${(m.mean * 100).toFixed(1)} ± ${(m.std * 100).toFixed(1)}`;
}

/**
 * A Markdown table: strategy, size, overlap, number of chunks, mean chunk tokens,
 * recall, precision and IoU as `mean ± std` in percent, over all questions; where rows
 * carry a {@link RowComparison}, three more columns: the recall and IoU differences to the
 * baseline in percentage points with their 95 % intervals (bold when the interval
 * excludes 0) and the IoU ratio.
 */
export function markdownTable(rows: readonly ReportRow[]): string {
  const compared = rows.some((r) => r.comparison);
  const lines = [
    '| strategy | size | overlap | chunks | mean chunk tokens | recall % | precision % | IoU % |' + (compared ? ' Δ recall, points [95 % CI] | Δ IoU, points [95 % CI] | IoU ÷ baseline |' : ''),
    '|---|---:|---:|---:|---:|---:|---:|---:|' + (compared ? '---:|---:|---:|' : ''),
  ];
  const baselines = new Set(rows.flatMap((r) => (r.comparison ? [r.comparison.baseline] : [])));
  for (const r of rows) {
    const o = r.result.overall;
    let extra = '';
    if (compared) {
      const c = r.comparison;
      extra = c ? ` ${delta(c.recall, 1)} | ${delta(c.iou, 2)} | ${c.iouRatio.toFixed(2)}× |` : baselines.has(r.strategy) ? ' baseline | baseline | |' : ' | | |';
    }
    lines.push(
      `| ${r.strategy} | ${r.size ?? ''} | ${r.overlap ?? ''} | ${r.result.chunks ?? ''} | ${r.result.meanChunkTokens !== undefined ? r.result.meanChunkTokens.toFixed(1) : ''} | ${pct(o.recall)} | ${pct(o.precision)} | ${pct(o.iou)} |${extra}`,
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

/**
 * JSON of the results: per-question scores unless `perQuestion` is false, timings unless
 * `timings` is false (without them the JSON is the same on every run), the embedder and
 * the comparison to a baseline where the rows carry them.
 */
export function resultsJson(rows: readonly ReportRow[], options: { perQuestion?: boolean; timings?: boolean } = {}): string {
  const keep = options.perQuestion ?? true;
  const timings = options.timings ?? true;
  return JSON.stringify(
    rows.map((r) => ({
      strategy: r.strategy,
      size: r.size ?? null,
      overlap: r.overlap ?? null,
      ...(r.embedder !== undefined ? { embedder: r.embedder } : {}),
      ...r.result,
      perQuestion: keep ? r.result.perQuestion : undefined,
      timings: timings ? r.result.timings : undefined,
      comparison: r.comparison,
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
  /** Indices of rows joined by a line in this order (a Pareto front). */
  front?: readonly number[];
  /** Index of a row drawn with a ring (a recommendation). */
  mark?: number;
}

/**
 * An SVG scatter chart: x = mean IoU (%), y = mean recall (%), one point per row; a
 * colour (and marker shape) per strategy, listed in a legend; each point labelled with
 * `size/overlap`. The IoU axis starts at 0; the recall axis spans the data rounded
 * to 5 % (so close rows stay apart). Later strategies get smaller markers, so rows
 * with identical scores (e.g. the same windows from two libraries) show as nested markers.
 * `front` rows are joined by a dashed line, the `mark` row ringed.
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
  if (options.front?.length) {
    const path = options.front.filter((i) => Number.isFinite(xs[i]) && Number.isFinite(ys[i])).map((i) => `${X(xs[i]).toFixed(1)},${Y(ys[i]).toFixed(1)}`);
    out.push(`<polyline points="${path.join(' ')}" fill="none" stroke="#555" stroke-width="1.2" stroke-dasharray="4 3"/>`);
  }
  if (options.mark !== undefined && Number.isFinite(xs[options.mark]) && Number.isFinite(ys[options.mark])) {
    out.push(`<circle cx="${X(xs[options.mark]).toFixed(1)}" cy="${Y(ys[options.mark]).toFixed(1)}" r="13" fill="none" stroke="#000" stroke-width="2"/>`);
  }
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
  if (options.front?.length) out.push(`<text x="${lx}" y="${ny + 39}" font-size="10" fill="#555">Dashed: the Pareto front${options.mark !== undefined ? '; ringed: the recommended row' : ''}.</text>`);
  out.push('</svg>');
  return out.join('\n');
}
