/**
 * Scaling suite (issue 16, "Superlinear paths"): every registered strategy (default
 * options; late chunking with the ONNX fixture encoder of test/helpers/golden.ts) on
 * each of its pathological kinds (test/helpers/pathological.ts `kindsFor`: the prose
 * kinds, source code for the code strategy), the input doubled four times (25 KB →
 * 400 KB for most strategies; slower ones start lower, late chunking doubles three
 * times). Per size: CPU time of the call, the process's peak RSS and the work counted
 * (test/helpers/work.ts: tokenizer calls and characters, `Intl.Segmenter` cost,
 * characters scanned by regular expressions, packer steps, tree-sitter's node reads, the
 * chunkers' own counters), reported as growth per doubling. Plus one line of
 * HTML-ish text at 10 MB for the strategies fast enough to reach it, and the tokenizer
 * alone on the kinds that are one long pre-tokenizer piece.
 *
 * Each cell runs in a fresh child process (bench/scaling-worker.ts), two at a time (CPU
 * time, not wall time, is compared: the machine is shared), killed after
 * {@link RUN_TIMEOUT_MS} per run so one catastrophic cell cannot hold the suite; a cell
 * stops doubling once a run took {@link STOP_AFTER_MS} of CPU. The deterministic
 * counterpart (work counted at small sizes, asserted ≤ 2.2× per doubling) is
 * test/scaling.test.ts.
 *
 * Run: `npm run bench -- scaling` (or `npx tsx bench/scaling.bench.ts [--strategies=a,b]
 * [--kinds=x,y] [--doublings=4]`, which prints the Markdown only).
 * @module
 */
import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getTokenizer } from '../src/engine/size/tokens.js';
import { strategies } from '../src/strategies/index.js';
import { PATHOLOGICAL_KINDS, kindsFor, type PathologicalKind } from '../test/helpers/pathological.js';
import { WORK_FLOOR, worstGrowth, type WorkRun } from '../test/helpers/work.js';
import type { ScalingRequest } from './scaling-worker.js';

/** Doublings per cell (five sizes). */
const DOUBLINGS = 4;
/** The first size per strategy (UTF-16 code units); others start at {@link DEFAULT_BASE}. */
const BASE: Readonly<Record<string, number>> = { markdown: 12_500, 'cluster-semantic': 12_500, late: 3_125 };
const DEFAULT_BASE = 25_000;
/** Fewer doublings for late chunking (3.1 KB → 25 KB): every character goes through the 64-token fixture model. */
const DOUBLINGS_OF: Readonly<Record<string, number>> = { late: 3 };
/** A run taking longer (wall time: generous, the machine may be loaded many times over) is stopped (the child is killed) and the cell reported as such. */
const RUN_TIMEOUT_MS = 40_000;
/** After a run of this much CPU time, the cell does not double again. */
const STOP_AFTER_MS = 3_000;
/** The 10 MB line of HTML-ish text is tried for strategies whose 400 KB run took less CPU time than this. */
const TEN_MB_IF_UNDER_MS = 600;
/** Cells measured at once (each in its own process). */
const CONCURRENCY = 2;
/** Growth per doubling above this is flagged. */
const FLAG = 2.2;
/** CPU time ratios of runs under this many ms are noise (in parentheses, never flagged). */
const NOISE_MS = 20;

/** One measured size: the run and the process's peak RSS up to it (MB). */
interface Measured {
  run: WorkRun;
  peakRssMb: number;
}

/** One cell: the runs made, the RSS of the loaded process, and why it stopped early if it did. */
interface Cell {
  runs: Measured[];
  baseRssMb?: number;
  stopped?: string;
}

/** Measures one cell in a fresh process: `sizes` smallest first, stopping at a timeout, an error or a run over {@link STOP_AFTER_MS}. */
function measureCell(req: ScalingRequest): Promise<Cell> {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const child = fork(fileURLToPath(new URL(`./scaling-worker${ext}`, import.meta.url)), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const cell: Cell = { runs: [] };
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (stopped?: string) => {
      clearTimeout(timer);
      if (stopped) cell.stopped = stopped;
      child.removeAllListeners();
      child.kill('SIGKILL');
      resolve(cell);
    };
    const arm = () => {
      clearTimeout(timer);
      const n = req.sizes[cell.runs.length];
      timer = setTimeout(() => finish(`${kb(n)} run stopped after ${RUN_TIMEOUT_MS / 1000} s`), RUN_TIMEOUT_MS);
    };
    child.on('message', (msg: { ready?: boolean; rssMb?: number; ok?: boolean; run?: WorkRun; peakRssMb?: number; error?: string }) => {
      if (msg.ready) {
        cell.baseRssMb = msg.rssMb;
        child.send(req);
        arm();
        return;
      }
      if (!msg.ok) return finish(`${kb(req.sizes[cell.runs.length])}: ${msg.error}`);
      cell.runs.push({ run: msg.run!, peakRssMb: msg.peakRssMb! });
      if (cell.runs.length === req.sizes.length) return finish();
      if ((msg.run!.cpuMs ?? msg.run!.ms) > STOP_AFTER_MS) return finish(`stopped doubling: ${kb(msg.run!.chars)} took ${((msg.run!.cpuMs ?? 0) / 1000).toFixed(1)} s CPU`);
      arm();
    });
    child.on('exit', (code) => finish(`worker exited (${code}) at ${kb(req.sizes[cell.runs.length] ?? 0)}`));
  });
}

/** Runs `jobs` with at most {@link CONCURRENCY} at once, results in order. */
async function pool<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return out;
}

const kb = (chars: number): string =>
  chars >= 1e6 ? `${+(chars / 1e6).toFixed(1)} M` : chars >= 1e5 ? `${Math.round(chars / 1000)} k` : `${+(chars / 1000).toFixed(1)} k`;
const fmt = (g: number): string => (Number.isFinite(g) ? (g > FLAG ? `**${g.toFixed(2)}**` : g.toFixed(2)) : '–');
const cpuOf = (r: WorkRun): number => r.cpuMs ?? r.ms;

/** CPU time growth per doubling from run a to run b; NaN where a took under {@link NOISE_MS}. */
function cpuGrowth(a: WorkRun, b: WorkRun): number {
  return cpuOf(a) >= NOISE_MS ? (cpuOf(b) / cpuOf(a)) ** (1 / Math.log2(b.chars / a.chars)) : NaN;
}

/**
 * Work growth per doubling of a cell: the worst counter's growth at each doubling, the
 * last doubling's (what the flag is taken from: a fixed cost or a path that starts between
 * the first sizes inflates the first doublings only, superlinear work grows at every one),
 * the largest at any doubling, and the counters that start between two sizes.
 */
function workGrowth(runs: readonly Measured[]): { each: number[]; last: { counter: string; growth: number }; max: { counter: string; growth: number; at: string }; onsets: Set<string> } {
  const each: number[] = [];
  let last = { counter: '', growth: NaN };
  let max = { counter: '', growth: NaN, at: '' };
  const onsets = new Set<string>();
  for (let i = 1; i < runs.length; i++) {
    const w = worstGrowth(runs[i - 1].run, runs[i].run);
    for (const o of w.onsets) onsets.add(o);
    each.push(w.growth);
    last = { counter: w.counter, growth: w.growth };
    if (!(w.growth <= max.growth)) max = { counter: w.counter, growth: w.growth, at: kb(runs[i].run.chars) };
  }
  return { each, last, max, onsets };
}

/** The Markdown rows of one strategy. */
function strategyTable(name: string, cells: Map<string, Cell>): string {
  const lines = [
    `#### ${name}`,
    '',
    '| kind | sizes (chars) | CPU ms per size | CPU × per doubling | CPU × per doubling, first to last | work × per doubling (worst counter of the last doubling) | peak RSS MB per size (loaded process) | flag |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [kind, cell] of cells) {
    const runs = cell.runs.map((m) => m.run);
    const steps: string[] = [];
    for (let i = 1; i < runs.length; i++) {
      const g = cpuGrowth(runs[i - 1], runs[i]);
      steps.push(Number.isFinite(g) ? fmt(g) : `(${(cpuOf(runs[i]) / Math.max(cpuOf(runs[i - 1]), 0.1)).toFixed(1)})`);
    }
    const overall = runs.length >= 2 ? cpuGrowth(runs[0], runs[runs.length - 1]) : NaN;
    const work = workGrowth(cell.runs);
    const flag = [
      work.last.growth > FLAG ? `work (${work.last.counter})` : '',
      overall > FLAG ? 'cpu' : '',
      cell.stopped ?? '',
      work.onsets.size ? `starts between sizes: ${[...work.onsets].join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    lines.push(
      `| ${kind} | ${runs.length ? `${kb(runs[0].chars)}–${kb(runs[runs.length - 1].chars)}` : '–'} | ${runs.map((r) => cpuOf(r).toFixed(0)).join(' · ') || '–'} | ${steps.join(' ') || '–'} | ${Number.isFinite(overall) ? fmt(overall) : '–'} | ${work.each.length ? `${work.each.map(fmt).join(' ')} (${work.last.counter})` : '–'} | ${cell.runs.map((m) => m.peakRssMb.toFixed(0)).join(' · ') || '–'}${cell.baseRssMb ? ` (${cell.baseRssMb.toFixed(0)})` : ''} | ${flag} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The cl100k_base tokenizer alone (`count`, the WASM BPE) on the kinds whose text is one
 * long pre-tokenizer piece: what the strategies' time on them includes however linear
 * their own work is.
 */
function tokenizerTable(kinds: typeof PATHOLOGICAL_KINDS): string {
  const tok = getTokenizer('cl100k_base');
  const lines = ['| kind | CPU ms at 100 k · 200 k · 400 k · 800 k | CPU × per doubling | first to last |', '|---|---|---|---|'];
  for (const kind of kinds.filter((k) => ['long-word', 'cjk', 'combining-marks', 'emoji-zwj', 'whitespace-runs', 'html-line'].includes(k.name))) {
    const ms: number[] = [];
    for (const n of [100_000, 200_000, 400_000, 800_000]) {
      const text = kind.make(n);
      tok.count(text.slice(0, 1000)); // warm
      const t0 = process.cpuUsage();
      tok.count(text);
      const t = process.cpuUsage(t0);
      ms.push((t.user + t.system) / 1000);
    }
    const per = ms.slice(1).map((m, i) => (ms[i] >= 20 ? fmt(m / ms[i]) : `(${(m / Math.max(ms[i], 0.1)).toFixed(1)})`));
    lines.push(`| ${kind.name} | ${ms.map((m) => m.toFixed(0)).join(' · ')} | ${per.join(' ')} | ${ms[0] >= 20 ? fmt((ms[3] / ms[0]) ** (1 / 3)) : '–'} |`);
  }
  return lines.join('\n');
}

/**
 * Runs the scaling suite and returns Markdown: one table per strategy (rows: its
 * pathological kinds), then the 10 MB line, the tokenizer alone, and the flagged cells.
 */
export async function runScalingBench(options: { strategies?: string[]; kinds?: string[]; doublings?: number } = {}): Promise<string> {
  const started = Date.now();
  const load0 = os.loadavg()[0];
  const doublings = options.doublings ?? DOUBLINGS;
  const defs = strategies().filter((d) => !options.strategies || options.strategies.includes(d.name));
  const jobs: { strategy: string; kind: PathologicalKind }[] = [];
  for (const def of defs) for (const kind of kindsFor(def.name)) if (!options.kinds || options.kinds.includes(kind.name)) jobs.push({ strategy: def.name, kind });
  const cells = await pool(
    jobs.map(({ strategy, kind }) => () => {
      const n = Math.max(BASE[strategy] ?? DEFAULT_BASE, kind.block ?? 0);
      process.stderr.write(`scaling: ${strategy} ${kind.name} from ${kb(n)}…\n`);
      const d = options.doublings ?? DOUBLINGS_OF[strategy] ?? doublings;
      return measureCell({ strategy, kind: kind.name, sizes: Array.from({ length: d + 1 }, (_, i) => n * 2 ** i) });
    }),
  );
  const tables: string[] = [];
  const flagged: string[] = [];
  const tenMb: string[] = [];
  const summary: string[] = [];
  for (const def of defs) {
    const mine = new Map<string, Cell>();
    jobs.forEach((j, i) => j.strategy === def.name && mine.set(j.kind.name, cells[i]));
    if (!mine.size) continue;
    tables.push(strategyTable(def.name, mine));
    let maxCpu = { g: 0, kind: '' };
    let maxWork = { g: 0, kind: '', counter: '' };
    let maxAny = { g: 0, kind: '', counter: '', at: '' };
    for (const [kind, cell] of mine) {
      const runs = cell.runs.map((m) => m.run);
      const work = workGrowth(cell.runs);
      if (work.last.growth > maxWork.g) maxWork = { g: work.last.growth, kind, counter: work.last.counter };
      if (work.max.growth > maxAny.g) maxAny = { g: work.max.growth, kind, counter: work.max.counter, at: work.max.at };
      if (work.last.growth > FLAG) flagged.push(`${def.name} × ${kind}: work ×${work.last.growth.toFixed(2)} per doubling (${work.last.counter}) at the last doubling, up to ${kb(runs[runs.length - 1].chars)}`);
      const t = runs.length >= 2 ? cpuGrowth(runs[0], runs[runs.length - 1]) : NaN;
      if (t > maxCpu.g) maxCpu = { g: t, kind };
      if (t > FLAG) flagged.push(`${def.name} × ${kind}: CPU ×${t.toFixed(2)} per doubling from ${kb(runs[0].chars)} to ${kb(runs[runs.length - 1].chars)} (work ×${work.last.growth.toFixed(2)} at the last doubling)`);
      if (cell.stopped && (runs.length < 2 || !cell.stopped.startsWith('stopped doubling'))) flagged.push(`${def.name} × ${kind}: ${cell.stopped}`);
    }
    summary.push(
      `| ${def.name} | ${maxCpu.g ? `${fmt(maxCpu.g)} (${maxCpu.kind})` : '–'} | ${maxWork.g ? `${fmt(maxWork.g)} (${maxWork.kind}, ${maxWork.counter})` : '–'} | ${maxAny.g ? `${fmt(maxAny.g)} (${maxAny.kind}, ${maxAny.counter}, up to ${maxAny.at})` : '–'} |`,
    );
    // the 10 MB line of HTML-ish text, where the 400 KB one was quick
    const html = mine.get('html-line')?.runs;
    const last = html?.[html.length - 1]?.run;
    if (last && last.chars >= 390_000 && cpuOf(last) < TEN_MB_IF_UNDER_MS) {
      process.stderr.write(`scaling: ${def.name} html-line 10 M…\n`);
      const c = await measureCell({ strategy: def.name, kind: 'html-line', sizes: [10_000_000] });
      const r = c.runs[0];
      tenMb.push(
        `| ${def.name} | ${r ? `${cpuOf(r.run).toFixed(0)} ms CPU (${(r.run.chars / 1e6 / (cpuOf(r.run) / 1000)).toFixed(1)} MB/s), peak RSS ${r.peakRssMb.toFixed(0)} MB, work ×${worstGrowth(last, r.run).growth.toFixed(2)} per doubling from 400 k (${worstGrowth(last, r.run).counter})` : c.stopped} |`,
      );
    } else tenMb.push(`| ${def.name} | not run (${last ? `${kb(last.chars)} took ${cpuOf(last).toFixed(0)} ms CPU` : 'no html-line kind'}) |`);
  }
  const md = [
    `Every registered strategy with its default options (token units, cl100k_base; semantic and cluster-semantic with the HashingEmbedder; late with the 64-token ONNX fixture encoder; code with the language each code kind names), each of its pathological kinds (test/helpers/pathological.ts) doubled ${doublings} times from ${kb(DEFAULT_BASE)} (markdown and cluster-semantic from ${kb(BASE.markdown)}; late ${options.doublings ?? DOUBLINGS_OF.late} times from ${kb(BASE.late)}; kinds made of a large block from one block). ` +
      `Each cell in a fresh child process, ${CONCURRENCY} at a time, sizes smallest first; a run is killed after ${RUN_TIMEOUT_MS / 1000} s and a cell stops doubling after a run of ${STOP_AFTER_MS / 1000} s CPU. ` +
      `CPU time is the process's user + system time during the call. Peak RSS is \`process.resourceUsage().maxRSS\` after each size (so the peak up to it), with the RSS of the loaded process before the first run in parentheses. ` +
      `Work is counted in the same run (test/helpers/work.ts: tokenizer calls and characters, Intl.Segmenter cost = Σ characters × segments, characters scanned by regular expressions, packer steps, grapheme windows, the chunkers' own Work counters (chunk(text, { work })); counts under ${WORK_FLOOR} count as ${WORK_FLOOR}); "work ×" is the growth of the counter that grew most, per doubling; the flag is taken from the last doubling (a fixed cost, or a path that starts between the first sizes, inflates the first doublings only; superlinear work grows at every one). A counter under ${WORK_FLOOR} at one size and over it at the next starts between the two (a path the smaller text does not take) and is named in the flag column instead. Bold: > ${FLAG}×. CPU ratios of runs under ${NOISE_MS} ms are in parentheses (noise); single ratios swing with the machine's load, so the CPU flag is taken from first to last size. ` +
      `Load average (1 min) ${load0.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end; ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    '',
    '#### Largest growth per doubling, per strategy',
    '',
    '| strategy | CPU × per doubling, first to last, largest (kind) | work × at the last doubling, largest (kind, counter) | work × at any doubling, largest (kind, counter) |',
    '|---|---|---|---|',
    ...summary,
    '',
    ...tables.flatMap((t) => [t, '']),
    '#### One line of HTML-ish text, 10 MB',
    '',
    '| strategy | 10 MB |',
    '|---|---|',
    ...tenMb,
    '',
    '#### The tokenizer alone (cl100k_base, WASM BPE, `count` of the whole text)',
    '',
    tokenizerTable(PATHOLOGICAL_KINDS.filter((k) => !options.kinds || options.kinds.includes(k.name))),
    '',
    '#### Flagged cells',
    '',
    ...(flagged.length ? flagged.map((f) => `- ${f}`) : ['- none']),
  ];
  return md.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]?.split(',');
  runScalingBench({ strategies: arg('strategies'), kinds: arg('kinds'), doublings: Number(arg('doublings')?.[0] ?? DOUBLINGS) }).then(
    (md) => process.stdout.write(md + '\n'),
    (error) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
