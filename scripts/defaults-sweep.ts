/**
 * The sweep that chooses the defaults of QASC, cluster-semantic and semantic (dev-only;
 * `npm run eval:defaults`), by the rule of docs/evaluation.md, "How the strategies'
 * defaults are chosen": four cells (hashing and GloVe × 200 and 400 tokens, overlap 0),
 * each compared with LangChain's RecursiveCharacterTextSplitter S/0 under the same
 * embedder; a setting is eligible at tolerance d when its recall is at least the
 * baseline's minus d points in every cell (d the smallest of 0, 1, 2, … at which some
 * setting is); of those, the highest geometric mean over the cells of IoU ÷ the
 * baseline's wins (ties to the current default, then the earlier setting).
 *
 * Prints one table per strategy and writes it between `<!-- sweep:NAME:start -->` and
 * `<!-- sweep:NAME:end -->` in docs/qasc.md, docs/cluster-semantic.md and docs/semantic.md
 * (no date, machine or timing: a rerun of unchanged code writes the same text).
 *
 *   npx tsx scripts/defaults-sweep.ts [--only qasc,cluster-semantic,semantic] [--no-write]
 * @module
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { langchainRecursive, peerSpans } from '../bench/peers.js';
import { repoRoot } from '../bench/util.js';
import { EMBEDDERS, arg, evaluationData, writeBetweenMarkers } from './eval-all.js';
import {
  QascRetriever,
  chunkerFromSpec,
  evaluateChunker,
  evaluateRetriever,
  evaluateSpans,
  parseStrategySpec,
  type Corpus,
  type EvalQuestion,
  type Retriever,
} from '../src/evaluation/index.js';
import type { Embedder, QascParams } from '../src/index.js';
import { loadEmbedder } from '../src/apps/node/index.js';

/** One cell of the rule: an embedder and a size (tokens, overlap 0). */
export interface Cell {
  embedder: string;
  size: number;
}

/** Mean recall and IoU (fractions) of a setting or a baseline in one cell. */
export interface CellScore {
  recall: number;
  iou: number;
}

/** What {@link chooseByRule} returns. */
export interface RuleChoice {
  /** Index of the chosen setting. */
  chosen: number;
  /** The recall tolerance the choice needed, in points (0, 1, 2, …). */
  tolerance: number;
  /** Per setting: the lowest recall difference to the baseline over the cells (points). */
  lowestRecallDelta: number[];
  /** Per setting: the geometric mean over the cells of IoU ÷ the baseline's IoU. */
  iouRatio: number[];
}

/**
 * The rule of docs/evaluation.md, "How the strategies' defaults are chosen".
 * @param scores per setting, per cell (in the order of `baselines`)
 * @param baselines the baseline's score per cell
 * @param current index of the current default (wins ties), or −1
 * @throws {Error} for no settings, or a setting without a score per cell.
 */
export function chooseByRule(scores: readonly (readonly CellScore[])[], baselines: readonly CellScore[], current = -1): RuleChoice {
  if (scores.length === 0) throw new Error('chooseByRule: no settings');
  for (const s of scores) if (s.length !== baselines.length) throw new Error(`chooseByRule: ${s.length} scores for ${baselines.length} cells`);
  const lowestRecallDelta = scores.map((s) => Math.min(...s.map((c, i) => (c.recall - baselines[i].recall) * 100)));
  const iouRatio = scores.map((s) => Math.exp(s.reduce((sum, c, i) => sum + Math.log(c.iou / baselines[i].iou), 0) / s.length));
  // recall differences are compared at 1e-9 points: float noise must not decide eligibility
  const tolerance = Math.max(0, Math.ceil(-Math.max(...lowestRecallDelta) - 1e-9));
  const eligible = scores.map((_, i) => lowestRecallDelta[i] >= -tolerance - 1e-9);
  const key = (i: number) => Math.round(iouRatio[i] * 1000);
  let chosen = -1;
  for (let i = 0; i < scores.length; i++) {
    if (!eligible[i]) continue;
    if (chosen < 0 || key(i) > key(chosen) || (key(i) === key(chosen) && i === current)) chosen = i;
  }
  return { chosen, tolerance, lowestRecallDelta, iouRatio };
}

/** The evaluation data and an embedder for one cell. */
interface CellContext extends Cell {
  model: Embedder;
  corpora: readonly Corpus[];
  questions: readonly EvalQuestion[];
}

/** A strategy's sweep: its settings (labels) and how to score them all in one cell. */
interface Sweep {
  name: string;
  doc: string;
  /** What the settings vary, for the table's header. */
  knobs: string;
  labels: string[];
  current: number;
  run(ctx: CellContext): Promise<CellScore[]>;
}

const K = 5;
const SIZES = [200, 400];
const score = (r: { overall: { recall: { mean: number }; iou: { mean: number } } }): CellScore => ({ recall: r.overall.recall.mean, iou: r.overall.iou.mean });

const QASC_WINDOWS: { label: string; qasc: QascParams }[] = [
  { label: 'fixed m = 1', qasc: { window: 'fixed', m: 1 } },
  { label: 'fixed m = 2', qasc: { window: 'fixed', m: 2 } },
  { label: 'fixed m = 3', qasc: { window: 'fixed', m: 3 } },
  { label: 'adaptive', qasc: { window: 'adaptive' } },
];
const QASC_CANDIDATES = [2, 3, 4, 5, 6];
const QASC_RANKS = ['fused', 'seed', 'score'] as const;

function qascSweep(): Sweep {
  const grid = QASC_WINDOWS.flatMap((w) => QASC_RANKS.flatMap((rank) => QASC_CANDIDATES.map((c) => ({ w, rank, c }))));
  return {
    name: 'qasc',
    doc: 'qasc.md',
    knobs: 'window, rank, candidates per result',
    labels: grid.map((g) => `${g.w.label}, ${g.rank}, ${g.c}k`),
    current: grid.findIndex((g) => g.w.label === 'fixed m = 2' && g.rank === 'fused' && g.c === 4),
    async run(ctx) {
      const out: CellScore[] = [];
      for (const w of QASC_WINDOWS) {
        for (const rank of QASC_RANKS) {
          const { index } = await QascRetriever.build(ctx.corpora, { embedder: ctx.model, rank, chunker: chunkerFromSpec(`fixed:${ctx.size}:0`), qasc: w.qasc });
          for (const c of QASC_CANDIDATES) {
            const retriever: Retriever = {
              name: `qasc ${w.label} ${rank} ${c}k`,
              retrieve: async (q, n) => (await index.query(q, { topK: c * n, maxResults: n })).map((x) => ({ corpusId: x.documentId, start: x.start, end: x.end })),
            };
            out.push(score(await evaluateRetriever(retriever, ctx.questions, { k: K })));
          }
        }
      }
      return out;
    },
  };
}

/** A sweep over a registry strategy's options (spec `name:S:0`, the cell's embedder). */
function optionSweep(name: string, doc: string, knobs: string, grid: Record<string, number>[], current: number): Sweep {
  return {
    name,
    doc,
    knobs,
    labels: grid.map((g) => Object.entries(g).map(([k, v]) => `${k} ${v === Infinity ? '∞' : v}`).join(', ')),
    current,
    async run(ctx) {
      const out: CellScore[] = [];
      for (const g of grid) {
        const spec = parseStrategySpec(`${name}:${ctx.size}:0`);
        Object.assign(spec.options, g, { embedder: ctx.model });
        out.push(score(await evaluateChunker(chunkerFromSpec(spec), ctx.corpora, ctx.questions, ctx.model, { name: spec.spec, k: K })));
      }
      return out;
    },
  };
}

const PIECES = [25, 35, 50, 75, 100];
const SECTIONS = [512, 1024, 2048, 4096, Infinity];
const THRESHOLDS = [50, 70, 80, 90, 95, 98];

const SWEEPS: (() => Sweep)[] = [
  qascSweep,
  () => {
    const grid = PIECES.flatMap((pieceSize) => SECTIONS.map((sectionSize) => ({ pieceSize, sectionSize })));
    return optionSweep('cluster-semantic', 'cluster-semantic.md', 'pieceSize, sectionSize', grid, grid.findIndex((g) => g.pieceSize === 50 && g.sectionSize === 2048));
  },
  () => optionSweep('semantic', 'semantic.md', 'threshold (percentile)', THRESHOLDS.map((threshold) => ({ threshold })), THRESHOLDS.indexOf(95)),
];

const pts = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;

/** The Markdown table of one sweep: per setting and cell recall Δ (points) and IoU ÷ baseline; the rule's columns; the choice in bold. */
export function sweepTable(sweep: Pick<Sweep, 'knobs' | 'labels' | 'current'>, cells: readonly Cell[], scores: readonly (readonly CellScore[])[], baselines: readonly CellScore[], choice: RuleChoice): string {
  const head = cells.map((c) => `${c.embedder} ${c.size}: R Δ / IoU ×`);
  const lines = [
    `| ${sweep.knobs} | ${head.join(' | ')} | lowest R Δ | IoU × (geometric mean) |`,
    `|---|${cells.map(() => '---:').join('|')}|---:|---:|`,
    `| *baseline: LangChain recursive S/0, recall / IoU %* | ${baselines.map((b) => `*${(b.recall * 100).toFixed(1)} / ${(b.iou * 100).toFixed(2)}*`).join(' | ')} | | |`,
  ];
  scores.forEach((s, i) => {
    const bold = i === choice.chosen ? (x: string) => `**${x}**` : (x: string) => x;
    const role = i === sweep.current && i === choice.chosen ? ' (the default, kept)' : i === choice.chosen ? ' (the default)' : i === sweep.current ? ' (the old default)' : '';
    const label = `${sweep.labels[i]}${role}`;
    const cellsText = s.map((c, j) => `${pts((c.recall - baselines[j].recall) * 100)} / ${(c.iou / baselines[j].iou).toFixed(2)}`);
    lines.push(`| ${[label, ...cellsText, pts(choice.lowestRecallDelta[i]), choice.iouRatio[i].toFixed(3)].map(bold).join(' | ')} |`);
  });
  return [
    ...lines,
    '',
    `Recall tolerance needed: ${choice.tolerance} point${choice.tolerance === 1 ? '' : 's'}; chosen: **${sweep.labels[choice.chosen]}**. ` +
      `R Δ: mean recall minus the baseline's, points; IoU ×: mean IoU ÷ the baseline's; 308 questions, k = ${K}. Run: \`npm run eval:defaults\`.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const only = (arg('only') ?? '').split(',').filter(Boolean);
  const write = !process.argv.includes('--no-write');
  const { corpora, questions } = await evaluationData();
  const sweeps = SWEEPS.map((f) => f()).filter((s) => only.length === 0 || only.includes(s.name));
  const cells: Cell[] = [];
  const baselines: CellScore[] = [];
  const scores = new Map<string, CellScore[][]>(sweeps.map((s) => [s.name, s.labels.map(() => [])]));
  for (const e of EMBEDDERS) {
    const model = await loadEmbedder(e.spec);
    for (const size of SIZES) {
      cells.push({ embedder: e.label, size });
      const peer = langchainRecursive(size, 0);
      baselines.push(score(await evaluateSpans((await peerSpans(peer, corpora)).spans, questions, model, { name: peer.name, k: K })));
      for (const s of sweeps) {
        const t0 = performance.now();
        const r = await s.run({ embedder: e.label, size, model, corpora, questions });
        r.forEach((c, i) => scores.get(s.name)![i].push(c));
        process.stderr.write(`${s.name} ${e.label} ${size}: ${r.length} settings in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
      }
    }
  }
  for (const s of sweeps) {
    const sc = scores.get(s.name)!;
    const choice = chooseByRule(sc, baselines, s.current);
    const table = sweepTable(s, cells, sc, baselines, choice);
    process.stdout.write(`## ${s.name}\n\n${table}\n\n`);
    if (write) writeBetweenMarkers(join(repoRoot, 'docs', s.doc), `sweep:${s.name}`, table);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
