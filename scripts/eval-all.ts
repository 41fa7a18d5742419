/**
 * The full evaluation table (dev-only; `npm run eval`): every registered chunkwise
 * strategy and every peer (bench/peers.ts) at the report's settings (800/400, 400/200,
 * 400/0, 200/0 tokens of cl100k_base), one index over the four corpora of
 * eval/ per row, the same embedder and k for all — once with the lexical
 * HashingEmbedder and once with GloVe 6B 100d (static; built by scripts/build-glove.ts
 * into build/models/glove-6b-100d on first use).
 * Strategies that embed while chunking (semantic, cluster-semantic) use the row's
 * embedder. Each row is compared with LangChain's RecursiveCharacterTextSplitter at the
 * same size and overlap: paired bootstrap 95 % intervals of the recall and IoU differences
 * (10,000 resamples of the questions, seed 1).
 *
 * Writes docs/evaluation-results.json, docs/evaluation-recall-iou.svg (hashing),
 * docs/evaluation-recall-iou-glove.svg and the tables between the `<!-- results:start -->`
 * / `<!-- results:end -->` markers of docs/evaluation.md. These files hold no date,
 * machine or timing, so a rerun of unchanged code writes them byte for byte
 * (test/evaluation-table.test.ts checks the cheap rows); timings go to stdout and
 * out/evaluation-timings.md.
 *
 *   npx tsx scripts/eval-all.ts [--embedder hashing|glove|<spec>] [--k 5] [--only fixed,langchain]
 * (`--embedder` or `--only` print the tables without writing the tracked files.)
 * @module
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chonkieRecursive, langchainRecursive, langchainToken, peerSpans, type Peer } from '../bench/peers.js';
import { corporaDir, gloveDir, questionsCsv, repoRoot } from '../bench/util.js';
import { strategyNames, type Embedder, type QascParams } from '../src/index.js';
import { strategyDefinition } from '../src/engine.js';
import {
  QascRetriever,
  chunkerFromSpec,
  compareToBaselines,
  evaluateChunker,
  evaluateRetriever,
  evaluateSpans,
  markdownTable,
  pairedBootstrap,
  parseStrategySpec,
  perCorpusTable,
  recallIouSvg,
  resultsJson,
  type Corpus,
  type EvalQuestion,
  type PairedDifference,
  type ReportRow,
} from '../src/evaluation/index.js';
import { embeddingProgress, loadEmbedder, readCorpora, readQuestions } from '../src/apps/node/index.js';

/** The report's settings: [size, overlap] in cl100k_base tokens. */
export const SETTINGS: [number, number][] = [
  [800, 400],
  [400, 200],
  [400, 0],
  [200, 0],
];
/** Query-time strategies are evaluated as retrievers (hybrid QASC), not as chunk indexes. */
const QUERY_TIME = new Set(['qasc']);
/** The QASC hybrid rows: the defaults, and other configurations (window, rank, candidates per result) reported beside them. */
export const QASC_ROWS: { label: string; qasc: QascParams; rank?: 'fused' | 'seed' | 'score'; candidates?: number }[] = [
  { label: 'chunkwise qasc hybrid (defaults)', qasc: {} },
  // the sweep's best geometric-mean IoU ratio within 1 recall point of LangChain recursive S/0 in every cell (docs/qasc.md)
  { label: 'chunkwise qasc hybrid (adaptive windows, 5k candidates)', qasc: { window: 'adaptive' }, candidates: 5 },
  // the paper's ±2 windows, the default before the sweep
  { label: 'chunkwise qasc hybrid (fixed ±2 windows, 4k candidates)', qasc: { m: 2 }, candidates: 4 },
];
/** The baseline every row is compared with, at the same size and overlap. */
export const BASELINE = 'langchain RecursiveCharacterTextSplitter';
/** The embedders of the full run: a label for the docs and a spec for loadEmbedder. */
export const EMBEDDERS = [
  { label: 'hashing', spec: 'hashing', svg: 'evaluation-recall-iou.svg' },
  {
    label: 'glove',
    /** Builds the model on first use. */
    get spec() {
      return `static:${gloveDir()}`;
    },
    svg: 'evaluation-recall-iou-glove.svg',
  },
];

/** The evaluation data: the four corpora and the questions of eval/. */
export async function evaluationData(): Promise<{ corpora: Corpus[]; questions: EvalQuestion[] }> {
  const corpora = await readCorpora(['state_of_the_union', 'wikitexts', 'pubmed', 'finance'].map((c) => join(corporaDir, `${c}.md`)));
  const questions = await readQuestions(questionsCsv);
  return { corpora, questions };
}

/** What {@link evaluationRows} runs. */
export interface RowOptions {
  /** Label of the embedder in the rows (`hashing`, `glove`). */
  label: string;
  embedder: Embedder;
  corpora: readonly Corpus[];
  questions: readonly EvalQuestion[];
  k?: number;
  /** Which rows to run, by strategy or peer name; default all. */
  wanted?: (name: string) => boolean;
  /** Called with each row as it is done. */
  onRow?: (row: ReportRow) => void;
  /** Show progress bars (default true). */
  progress?: boolean;
}

/**
 * Evaluates every registered strategy at {@link SETTINGS}, QASC hybrid, and the peers,
 * with one embedder; returns the rows (in the table's order, baselines compared) and the
 * strategies that refused the settings.
 */
export async function evaluationRows(o: RowOptions): Promise<{ rows: ReportRow[]; skipped: string[] }> {
  const k = o.k ?? 5;
  const wanted = o.wanted ?? (() => true);
  const { corpora, questions, embedder } = o;
  const rows: ReportRow[] = [];
  const skipped: string[] = [];
  const bar = (name: string) => (o.progress === false ? { update: () => {}, stop: () => {} } : embeddingProgress(name));
  const add = (row: ReportRow) => {
    row.embedder = o.label;
    rows.push(row);
    o.onRow?.(row);
  };

  for (const name of strategyNames()) {
    if (QUERY_TIME.has(name) || !wanted(name)) continue;
    for (const [size, overlap] of SETTINGS) {
      let spec;
      let chunker;
      try {
        // a strategy without an overlap option has no rows with an overlap (sentence:800:400 would claim one)
        spec = parseStrategySpec(`${name}:${size}:${overlap}`);
        // strategies that embed while chunking use the row's embedder
        if (strategyDefinition(name)?.schema.options.embedder) spec.options.embedder = embedder;
        chunker = chunkerFromSpec(spec);
      } catch (error) {
        skipped.push(`${name}:${size}:${overlap}: ${(error as Error).message}`);
        continue;
      }
      const b = bar(spec.spec);
      const result = await evaluateChunker(chunker, corpora, questions, embedder, { name: spec.spec, k, onProgress: b.update });
      b.stop();
      add({ result, strategy: `chunkwise ${name}`, size, overlap });
    }
  }

  // QASC hybrid: candidates = the top pre-chunks of fixed-size S/0 chunks, QASC inside them,
  // the best k QASC chunks retrieved; every QASC option at its default (docs/qasc.md), and
  // the configurations of QASC_ROWS beside them.
  if (wanted('qasc')) {
    for (const variant of QASC_ROWS) {
      for (const [size, overlap] of SETTINGS.filter(([, ov]) => ov === 0)) {
        const t0 = performance.now();
        const retriever = await QascRetriever.build(corpora, {
          name: `qasc hybrid ${size}/${overlap}`,
          embedder,
          chunker: chunkerFromSpec(`fixed:${size}:${overlap}`),
          qasc: variant.qasc,
          ...(variant.rank ? { rank: variant.rank } : {}),
          ...(variant.candidates ? { candidates: (n: number) => variant.candidates! * n } : {}),
        });
        const chunkMs = performance.now() - t0;
        const result = await evaluateRetriever(retriever, questions, { k });
        result.chunks = retriever.index.chunkCount;
        result.timings = { chunkMs, retrieveMs: result.timings!.retrieveMs };
        add({ result, strategy: variant.label, size, overlap });
      }
    }
  }

  const peers: Peer[] = [];
  for (const [size, overlap] of SETTINGS) peers.push(langchainRecursive(size, overlap));
  for (const [size, overlap] of SETTINGS) peers.push(langchainToken(size, overlap));
  for (const [size, overlap] of SETTINGS) if (overlap === 0) peers.push(await chonkieRecursive(size));
  for (const peer of peers) {
    if (!wanted(peer.name)) continue;
    const t0 = performance.now();
    const mapping = await peerSpans(peer, corpora);
    const chunkMs = performance.now() - t0;
    const b = bar(`${peer.name} ${peer.size}/${peer.overlap}`);
    const result = await evaluateSpans(mapping.spans, questions, embedder, { name: peer.name, k, onProgress: b.update });
    b.stop();
    result.timings = { ...result.timings!, chunkMs };
    const { spans, ...counts } = mapping;
    result.notes = { ...counts, chunksFromLibrary: spans.length + counts.notFound };
    add({ result, strategy: peer.name, size: peer.size, overlap: peer.overlap });
  }
  compareToBaselines(rows, (r) => r.strategy === BASELINE);
  return { rows, skipped };
}

/** The Markdown of one embedder's results: the main table (with the comparisons), the chart, per corpus, the peers' offset mapping. */
export function resultsSection(label: string, rows: readonly ReportRow[], skipped: readonly string[], info: { k: number; questions: number; corpora: number; svg?: string }): string {
  const mapRows = rows.filter((r) => r.result.notes);
  const mappingTable = [
    '| peer | size | overlap | chunks | offsets from library | exact search | ambiguous | repaired (U+FFFD/space trimmed) | out of order | not found |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...mapRows.map((r) => {
      const n = r.result.notes!;
      return `| ${r.strategy} | ${r.size} | ${r.overlap} | ${n.chunksFromLibrary} | ${n.fromLibrary} | ${n.exact} | ${n.ambiguous} | ${n.repaired} | ${n.outOfOrder} | ${n.notFound} |`;
    }),
  ].join('\n');
  return [
    `### Embedder: ${label}`,
    '',
    `k = ${info.k}; ${info.questions} questions over ${info.corpora} corpora. Means ± population standard deviations over all questions, in percent. Sizes and overlaps in cl100k_base tokens; "mean chunk tokens" counted with cl100k_base on the indexed text. ` +
      `Δ columns: the row minus ${BASELINE} at the same size and overlap, mean over questions in percentage points, with a paired bootstrap 95 % interval (10,000 resamples of the questions, seed 1); **bold** where the interval excludes 0.`,
    '',
    markdownTable(rows),
    '',
    ...(info.svg ? [`![Recall against IoU, ${label} embedder](${info.svg})`, ''] : []),
    `#### Per corpus (${label}; means, recall / precision / IoU %)`,
    '',
    perCorpusTable(rows),
    '',
    ...(mapRows.length ? [`#### Mapping peers' chunk texts back to offsets (${label} run)`, '', mappingTable, ''] : []),
    ...(skipped.length ? ['Skipped (the strategy refused these options):', '', ...skipped.map((s) => `- ${s}`), ''] : []),
  ].join('\n');
}

/** The five peer points a chunkwise configuration is to lie above: [peer name, size, overlap]. */
export const PEER_POINTS: [string, number, number][] = [
  ['langchain RecursiveCharacterTextSplitter', 200, 0],
  ['langchain RecursiveCharacterTextSplitter', 400, 0],
  ['langchain TokenTextSplitter', 200, 0],
  ['langchain TokenTextSplitter', 400, 0],
  ['@chonkiejs/core RecursiveChunker', 400, 0],
];
/** IoU a dominating configuration needs, as a multiple of the peer's. */
export const DOMINANCE_IOU_RATIO = 1.2;

/** One chunkwise configuration against one peer point under one embedder. */
export interface PointComparison {
  embedder: string;
  /** Recall and IoU of the configuration minus the peer's, per question, with paired bootstrap intervals. */
  recall: PairedDifference;
  iou: PairedDifference;
  /** Mean IoU ÷ the peer's mean IoU. */
  iouRatio: number;
  /** Recall ≥ the peer's, IoU ≥ {@link DOMINANCE_IOU_RATIO} × the peer's, and the IoU interval above 0. */
  dominates: boolean;
}

/** The configuration chosen for one peer point (see {@link dominatingRows}). */
export interface PeerPointResult {
  peer: string;
  size: number;
  overlap: number;
  /** Label of the chunkwise row (`strategy size/overlap`), or undefined when there are no chunkwise rows. */
  config?: string;
  /** Its comparison under each embedder. */
  comparisons: PointComparison[];
  /** True when it dominates under every embedder. */
  dominates: boolean;
}

const rowKey = (r: ReportRow) => `${r.strategy} ${r.size ?? ''}/${r.overlap ?? ''}`;

/**
 * For each peer point, the chunkwise row (any strategy and setting of `rows`, which hold
 * every embedder's rows) that dominates it under every embedder: mean recall ≥ the peer's,
 * mean IoU ≥ {@link DOMINANCE_IOU_RATIO} × the peer's, and the paired bootstrap 95 %
 * interval of the IoU difference (10,000 resamples of the questions, seed 1) above 0.
 * Of several, the one with the highest smallest IoU ratio over the embedders; when none
 * dominates, the closest: the most (embedder, condition) pairs met, then the highest
 * smallest IoU ratio. Rows are paired by question order, so all rows must be scored on
 * the same questions.
 * @throws {InvalidInputError} (from the bootstrap) when two paired rows hold different numbers of questions.
 */
export function dominatingRows(rows: readonly ReportRow[], points: readonly [string, number, number][] = PEER_POINTS): PeerPointResult[] {
  const embedders = [...new Set(rows.map((r) => r.embedder ?? ''))];
  const configs = [...new Set(rows.filter((r) => r.strategy.startsWith('chunkwise ')).map(rowKey))];
  const find = (key: string, embedder: string) => rows.find((r) => rowKey(r) === key && (r.embedder ?? '') === embedder);
  const out: PeerPointResult[] = [];
  for (const [peer, size, overlap] of points) {
    const peerKey = `${peer} ${size}/${overlap}`;
    let best: { config: string; comparisons: PointComparison[]; met: number; ratio: number } | undefined;
    for (const config of configs) {
      const comparisons: PointComparison[] = [];
      let met = 0;
      for (const embedder of embedders) {
        const a = find(config, embedder);
        const b = find(peerKey, embedder);
        if (!a || !b) break;
        const per = (row: ReportRow, m: 'recall' | 'iou') => row.result.perQuestion.map((q) => q[m]);
        const recall = pairedBootstrap(per(a, 'recall'), per(b, 'recall'));
        const iou = pairedBootstrap(per(a, 'iou'), per(b, 'iou'));
        const iouRatio = a.result.overall.iou.mean / b.result.overall.iou.mean;
        const conditions = [a.result.overall.recall.mean >= b.result.overall.recall.mean, iouRatio >= DOMINANCE_IOU_RATIO, iou.low > 0];
        met += conditions.filter(Boolean).length;
        comparisons.push({ embedder, recall, iou, iouRatio, dominates: conditions.every(Boolean) });
      }
      if (comparisons.length !== embedders.length) continue;
      const ratio = Math.min(...comparisons.map((c) => c.iouRatio));
      if (!best || met > best.met || (met === best.met && ratio > best.ratio)) best = { config, comparisons, met, ratio };
    }
    out.push({ peer, size, overlap, config: best?.config, comparisons: best?.comparisons ?? [], dominates: !!best && best.comparisons.every((c) => c.dominates) });
  }
  return out;
}

/** The Markdown table of {@link dominatingRows}: per peer point the configuration, and per embedder its recall Δ, IoU ratio and IoU Δ with intervals. */
export function dominanceTable(results: readonly PeerPointResult[]): string {
  const embedders = results[0]?.comparisons.map((c) => c.embedder) ?? [];
  const f = (x: number, digits: number) => {
    const v = (x * 100).toFixed(digits);
    return Number(v) === 0 ? (0).toFixed(digits) : x > 0 ? `+${v}` : `−${v.slice(1)}`;
  };
  const ci = (d: PairedDifference, digits: number) => `${f(d.mean, digits)} [${f(d.low, digits)}, ${f(d.high, digits)}]`;
  return [
    `| peer point | chunkwise configuration | ${embedders.map((e) => `${e}: Δ recall, points [95 % CI] | ${e}: IoU ÷ peer | ${e}: Δ IoU, points [95 % CI]`).join(' | ')} | dominates with every embedder |`,
    `|---|---|${embedders.map(() => '---:|---:|---:').join('|')}|---|`,
    ...results.map(
      (r) =>
        `| ${r.peer} ${r.size}/${r.overlap} | ${r.config ?? '–'} | ${r.comparisons.map((c) => `${ci(c.recall, 1)} | ${c.iouRatio.toFixed(2)}× | ${ci(c.iou, 2)}`).join(' | ')} | ${r.dominates ? 'yes' : `**no** (${r.comparisons.filter((c) => !c.dominates).map((c) => c.embedder).join(', ')})`} |`,
    ),
  ].join('\n');
}

/** The dominance section of the results: {@link dominatingRows} over both embedders' rows, as a table with its explanation. */
export function dominanceSection(rows: readonly ReportRow[]): string {
  return [
    '### Above every peer point',
    '',
    `For each of five peer points, the chunkwise row of the tables below (any strategy, size and overlap) whose mean recall is at least the peer's and whose mean IoU is at least ${DOMINANCE_IOU_RATIO}× the peer's, with every embedder, the paired bootstrap 95 % interval of the IoU difference (10,000 resamples of the questions, seed 1) above 0; of several, the one with the highest smaller IoU ratio. Where none dominates, the closest row (the most conditions met) and **no**.`,
    '',
    dominanceTable(dominatingRows(rows)),
  ].join('\n');
}

/** Tables that `npm run eval` writes into a strategy's own doc, between `<!-- results:NAME:start -->` and `<!-- results:NAME:end -->`. */
export const STRATEGY_TABLES: { name: string; doc: string; rows: (r: ReportRow) => boolean }[] = [
  { name: 'qasc', doc: 'qasc.md', rows: (r) => r.strategy.startsWith('chunkwise qasc') || (r.strategy === 'chunkwise fixed' && r.overlap === 0) || (r.strategy === BASELINE && r.overlap === 0) },
  { name: 'cluster-semantic', doc: 'cluster-semantic.md', rows: (r) => r.strategy === 'chunkwise cluster-semantic' || (r.strategy === BASELINE && r.overlap === 0) },
  { name: 'semantic', doc: 'semantic.md', rows: (r) => r.strategy === 'chunkwise semantic' || (r.strategy === BASELINE && r.overlap === 0) },
];

/** One strategy's rows of every embedder: the main table and the per-corpus table per embedder. */
export function strategyTables(rows: readonly ReportRow[], keep: (r: ReportRow) => boolean): string {
  const embedders = [...new Set(rows.map((r) => r.embedder ?? ''))];
  return embedders
    .flatMap((e) => {
      const mine = rows.filter((r) => (r.embedder ?? '') === e && keep(r));
      return [`Embedder: ${e} (k = 5, 308 questions; Δ against ${BASELINE} at the same size, paired bootstrap 95 % intervals):`, '', markdownTable(mine), '', perCorpusTable(mine), ''];
    })
    .join('\n');
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in a file, if the file and the markers exist. */
export function writeBetweenMarkers(path: string, name: string, text: string): void {
  if (!existsSync(path)) return;
  const doc = readFileSync(path, 'utf8');
  const re = new RegExp(`(<!-- ${name}:start -->\\n)[\\s\\S]*?(<!-- ${name}:end -->)`);
  if (re.test(doc)) writeFileSync(path, doc.replace(re, (_m, a: string, b: string) => `${a}${text}\n${b}`));
  else process.stderr.write(`${path}: no <!-- ${name}:start --> marker\n`);
}

/** Chunking, embedding and retrieval time per row (not in the tracked files: it changes on every run). */
export function timingTable(rows: readonly ReportRow[]): string {
  return [
    '| embedder | strategy | size | overlap | chunking s | embedding s | retrieval s |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const t = r.result.timings!;
      return `| ${r.embedder ?? ''} | ${r.strategy} | ${r.size} | ${r.overlap} | ${((t.chunkMs ?? 0) / 1000).toFixed(1)} | ${((t.embedMs ?? 0) / 1000).toFixed(1)} | ${(t.retrieveMs / 1000).toFixed(2)} |`;
    }),
  ].join('\n');
}

/** The value after `--name` on the command line, if any. */
export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const embedderArg = arg('embedder');
  const k = Number(arg('k') ?? '5');
  const only = (arg('only') ?? '').split(',').filter(Boolean);
  const wanted = (name: string) => only.length === 0 || only.some((o) => name.includes(o));
  const full = only.length === 0 && embedderArg === undefined && k === 5;
  const runs = embedderArg === undefined ? EMBEDDERS : [EMBEDDERS.find((e) => e.label === embedderArg) ?? { label: embedderArg, spec: embedderArg, svg: '' }];
  const { corpora, questions } = await evaluationData();
  const started = Date.now();
  const sections: string[] = [];
  const allRows: ReportRow[] = [];
  for (const run of runs) {
    const embedder = await loadEmbedder(run.spec);
    const { rows, skipped } = await evaluationRows({
      label: run.label,
      embedder,
      corpora,
      questions,
      k,
      wanted,
      onRow: (row) => {
        const r = row.result;
        const t = r.timings!;
        process.stderr.write(
          `${run.label} ${row.strategy} ${row.size}/${row.overlap}: ${r.chunks} chunks, recall ${(r.overall.recall.mean * 100).toFixed(1)}, IoU ${(r.overall.iou.mean * 100).toFixed(2)} ` +
            `(chunk ${((t.chunkMs ?? 0) / 1000).toFixed(1)} s, embed ${((t.embedMs ?? 0) / 1000).toFixed(1)} s, retrieve ${(t.retrieveMs / 1000).toFixed(1)} s)\n`,
        );
      },
    });
    allRows.push(...rows);
    sections.push(resultsSection(run.label, rows, skipped, { k, questions: questions.length, corpora: corpora.length, svg: run.svg || undefined }));
    if (full) {
      const svg = recallIouSvg(rows, { title: `Recall against IoU — ${run.label} embedder, k = ${k}, ${questions.length} questions` });
      writeFileSync(join(repoRoot, 'docs', run.svg), svg + '\n');
    }
  }
  const dominance = runs.length > 1 ? dominanceSection(allRows) : '';
  const md = ['Run: `npm run eval` (both embedders; the files it writes hold no date, machine or timing).', '', ...(dominance ? [dominance, ''] : []), ...sections].join('\n');
  const timings = `Time per row (${((Date.now() - started) / 1000).toFixed(0)} s in total; chunking all corpora, embedding the chunks, retrieving for all questions):\n\n${timingTable(allRows)}\n`;
  process.stdout.write(`${md}\n${timings}`);
  mkdirSync(join(repoRoot, 'out'), { recursive: true });
  writeFileSync(join(repoRoot, 'out', 'evaluation-timings.md'), timings);

  if (full) {
    const docs = join(repoRoot, 'docs');
    writeFileSync(join(docs, 'evaluation-results.json'), resultsJson(allRows, { perQuestion: false, timings: false }) + '\n');
    writeBetweenMarkers(join(docs, 'evaluation.md'), 'results', md);
    for (const t of STRATEGY_TABLES) writeBetweenMarkers(join(docs, t.doc), `results:${t.name}`, strategyTables(allRows, t.rows));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
