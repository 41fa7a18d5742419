/**
 * Rendering a {@link TuneResult}: the Pareto front as a Markdown table, the recommended
 * configuration as a CLI line, a `createChunker(...)` call and a `--strategy` spec, the
 * whole table as JSON (what the web page opens), and the front as an SVG chart. Core
 * module: returns strings, writes nothing.
 * @module
 */
import { cliFlag, kebabCase } from '../engine/options/schema.js';
import { strategyDefinition } from '../strategies/index.js';
import { QASC_SPEC } from './evaluate-spec.js';
import { recallIouSvg, type ReportRow } from './report.js';
import { parseStrategySpec } from './strategy-spec.js';
import type { TuneResult, TuneRow } from './tune.js';

/** The `format` field of {@link tuneJson}, by which the web page knows the file. */
export const TUNE_JSON_FORMAT = 'chunkwise-tune/1';

/** A configuration in the three forms a user pastes. */
export interface ConfigurationForms {
  /** `chunkwise chunk FILE… --strategy … --unit token …` (or `chunkwise qasc … --query …`). */
  cli: string;
  /** `createChunker('recursive', { unit: 'token', chunkSize: 200, chunkOverlap: 0 })` (QASC: `new QascIndex({ … })`). */
  code: string;
  /** The `--strategy` spec of `chunkwise eval` and `chunkwise tune`. */
  spec: string;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value);
}

function objectLiteral(o: Record<string, unknown>): string {
  const entries = Object.entries(o).map(([k, v]) => `${k}: ${v}`);
  return entries.length ? `{ ${entries.join(', ')} }` : '{}';
}

function shellWord(value: string): string {
  return /^[\w.,:/=@+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The three forms of a spec. `embedder` is the CLI's embedder spec the configuration was
 * evaluated with: it is on the CLI line of strategies that embed (semantic ones, QASC),
 * and in the code as the variable `embedder`.
 * @throws {InvalidOptionError} for a malformed spec.
 */
export function configurationForms(spec: string, embedder: string): ConfigurationForms {
  const s = parseStrategySpec(spec);
  const options = s.options as Record<string, unknown>;
  if (s.name === QASC_SPEC) {
    const qasc: Record<string, unknown> = {};
    const flags = [`--pre-chunk-size ${s.size ?? 256}`, `--pre-chunk-overlap ${s.overlap ?? 32}`];
    for (const [key, value] of Object.entries(options)) {
      if (key === 'unit' || key === 'chunkSize' || key === 'chunkOverlap') continue;
      flags.push(`--${kebabCase(key)} ${shellWord(String(value))}`);
      qasc[key] = literal(value);
    }
    const chunker = `createChunker('fixed', ${objectLiteral({ unit: "'token'", chunkSize: s.size ?? 256, chunkOverlap: s.overlap ?? 32 })})`;
    return {
      cli: `chunkwise qasc FILE… --query '…' ${flags.join(' ')} --embedder ${shellWord(embedder)}`,
      code: `new QascIndex(${objectLiteral({ embedder: 'embedder', chunker, ...(Object.keys(qasc).length ? { qasc: objectLiteral(qasc) } : {}) })})`,
      spec,
    };
  }
  const schema = strategyDefinition(s.name)?.schema.options ?? {};
  const flags = [`--strategy ${s.name}`];
  const code: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const optionSpec = schema[key];
    const flag = optionSpec ? cliFlag(key, optionSpec) : `--${kebabCase(key)}`;
    if (flag) flags.push(value === true ? flag : `${flag} ${shellWord(String(value))}`);
    code[key] = literal(value);
  }
  if (schema.embedder) {
    flags.push(`--embedder ${shellWord(embedder)}`);
    code.embedder = 'embedder';
  }
  return { cli: `chunkwise chunk FILE… ${flags.join(' ')}`, code: `createChunker(${literal(s.name)}, ${objectLiteral(code)})`, spec };
}

const pct = (x: number) => (x * 100).toFixed(1);

/**
 * The report `chunkwise tune` prints: the front (mean recall and IoU in percent with their
 * 95 % intervals, chunks, mean chunk tokens), the recommendation, its rule and reason and
 * its three forms, and what the budget skipped.
 */
export function tuneMarkdown(result: TuneResult, embedder: string): string {
  const bySpec = new Map(result.rows.map((r) => [r.spec, r]));
  const lines = [
    `Embedder: ${embedder}; k = ${result.k}; ${result.questions} questions over ${result.corpora} corpora; ` +
      `${result.rows.length} configurations run in ${(result.elapsedMs / 1000).toFixed(1)} s of a ${(result.budgetMs / 1000).toFixed(0)} s budget` +
      (result.skipped.length ? `, ${result.skipped.length} skipped for the budget` : '') +
      '.',
    '',
    'Pareto front of mean recall against mean IoU (no other configuration has both at least as high); 95 % bootstrap intervals:',
    '',
    '| configuration | recall % [95 % CI] | IoU % [95 % CI] | chunks | mean chunk tokens |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const p of result.front) {
    const r = bySpec.get(p.spec)!.result;
    const mark = p.spec === result.recommendation.spec ? ' **(recommended)**' : '';
    lines.push(
      `| ${p.spec}${mark} | ${pct(p.recall.mean)} [${pct(p.recall.low)}, ${pct(p.recall.high)}] | ${pct(p.iou.mean)} [${pct(p.iou.low)}, ${pct(p.iou.high)}] | ${r.chunks ?? ''} | ${r.meanChunkTokens !== undefined ? r.meanChunkTokens.toFixed(1) : ''} |`,
    );
  }
  const forms = configurationForms(result.recommendation.spec, embedder);
  lines.push(
    '',
    `Recommended: ${result.recommendation.spec}`,
    `Rule: ${result.recommendation.rule}.`,
    `Why: ${result.recommendation.reason}`,
    '',
    `  CLI:        ${forms.cli}`,
    `  code:       ${forms.code}`,
    `  --strategy: ${forms.spec}`,
  );
  if (result.skipped.length) {
    lines.push('', `Skipped for the budget (${result.skipped.length}): ${result.skipped.map((s) => s.spec).join(', ')}`);
  }
  if (result.failed.length) {
    lines.push('', `Failed (${result.failed.length}, left out of the front):`, ...result.failed.map((f) => `  ${f.spec}: ${f.reason}`));
  }
  return lines.join('\n');
}

/**
 * The full table as JSON: `format` ({@link TUNE_JSON_FORMAT}), the run's facts, the
 * recommendation with its three forms, the front with intervals, and every configuration's
 * means, standard deviations and per-corpus summaries (no per-question scores), with the
 * skipped and inapplicable configurations.
 */
export function tuneJson(result: TuneResult, embedder: string): string {
  return JSON.stringify(
    {
      format: TUNE_JSON_FORMAT,
      embedder,
      k: result.k,
      questions: result.questions,
      corpora: result.corpora,
      budgetMs: result.budgetMs,
      elapsedMs: Math.round(result.elapsedMs),
      recommendation: { ...result.recommendation, ...configurationForms(result.recommendation.spec, embedder) },
      front: result.front,
      rows: result.rows.map((r) => ({
        spec: r.spec,
        strategy: r.strategy,
        size: r.size,
        overlap: r.overlap,
        seconds: Number(r.seconds.toFixed(3)),
        chunks: r.result.chunks ?? null,
        meanChunkTokens: r.result.meanChunkTokens ?? null,
        overall: r.result.overall,
        perCorpus: r.result.perCorpus,
        front: result.front.some((p) => p.spec === r.spec),
      })),
      skipped: result.skipped,
      notApplicable: result.notApplicable,
      failed: result.failed,
    },
    null,
    2,
  );
}

/** The row's label in the chart: the strategy, with QASC's window. */
function chartStrategy(row: TuneRow): string {
  return row.strategy === QASC_SPEC ? `qasc (${String(parseStrategySpec(row.spec).options.window)} windows)` : row.strategy;
}

/**
 * The chart: every configuration as a point (x IoU, y recall; colour by strategy, label
 * size/overlap), the Pareto front joined by a line, the recommended configuration ringed.
 */
export function tuneSvg(result: TuneResult, embedder: string): string {
  const rows: ReportRow[] = result.rows.map((r) => ({ result: r.result, strategy: chartStrategy(r), size: r.size, overlap: r.overlap }));
  const index = new Map(result.rows.map((r, i) => [r.spec, i]));
  return recallIouSvg(rows, {
    title: `chunkwise tune — recall against IoU, ${embedder}, k = ${result.k}`,
    front: result.front.map((p) => index.get(p.spec)!),
    mark: index.get(result.recommendation.spec),
  });
}
