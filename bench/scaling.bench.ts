/**
 * Scaling suite (issue 16, "Superlinear paths"): every registered strategy (default
 * options; late chunking with the ONNX fixture encoder of test/helpers/golden.ts) on
 * every pathological kind of test/helpers/pathological.ts, the input doubled four times
 * (50 KB → 800 KB for most strategies; slower ones start lower), time and work counted
 * per size (test/helpers/work.ts: tokenizer calls and characters, `Intl.Segmenter` cost,
 * characters scanned by regular expressions, packer steps, the chunkers' own counters),
 * reported as growth per doubling. Plus one line of HTML-ish text at 10 MB for the
 * strategies fast enough to reach it.
 *
 * Each run happens in a child process (bench/scaling-worker.ts) that is killed after
 * {@link RUN_TIMEOUT_MS}, so one catastrophic cell cannot hold the suite; a cell stops
 * doubling once a run took {@link STOP_AFTER_MS}. The deterministic counterpart (work
 * counted at small sizes, asserted ≤ 2.2× per doubling) is test/scaling.test.ts.
 *
 * Run: `npm run bench -- scaling` (or `npx tsx bench/scaling.bench.ts`).
 * @module
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getTokenizer } from '../src/size/tokens.js';
import { strategies } from '../src/strategies/registry.js';
import { PATHOLOGICAL_KINDS } from '../test/helpers/pathological.js';
import { WORK_FLOOR, worstGrowth, type WorkRun } from '../test/helpers/work.js';
import type { ScalingRequest } from './scaling-worker.js';

/** Doublings per cell (five sizes). */
const DOUBLINGS = 4;
/** The first size per strategy (UTF-16 code units); others start at {@link DEFAULT_BASE}. */
const BASE: Readonly<Record<string, number>> = { markdown: 12_500, 'cluster-semantic': 12_500, late: 3_125 };
const DEFAULT_BASE = 50_000;
/** A run taking longer is stopped (the child is killed) and the cell reported as such. */
const RUN_TIMEOUT_MS = 45_000;
/** After a run this long, the cell does not double again. */
const STOP_AFTER_MS = 8_000;
/** The 10 MB line of HTML-ish text is tried for strategies whose 800 KB run took less than this. */
const TEN_MB_IF_UNDER_MS = 1_500;
/** Growth per doubling above this is flagged. */
const FLAG = 2.2;

/** One child process, restarted after a timeout. */
class Runner {
  #child: ChildProcess | undefined;
  #ready: Promise<void> | undefined;

  #start(): Promise<void> {
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const child = fork(fileURLToPath(new URL(`./scaling-worker${ext}`, import.meta.url)), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.#child = child;
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`scaling worker exited (${code})`)));
    });
  }

  /** Measures one run, or reports a timeout or an error. */
  async run(req: ScalingRequest): Promise<{ run?: WorkRun; error?: string; timeout?: boolean }> {
    if (!this.#child || this.#child.exitCode !== null) this.#ready = this.#start();
    await this.#ready;
    const child = this.#child!;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.removeAllListeners('message');
        child.kill('SIGKILL');
        this.#child = undefined;
        resolve({ timeout: true });
      }, RUN_TIMEOUT_MS);
      child.once('message', (msg: { ok: boolean; run?: WorkRun; error?: string }) => {
        clearTimeout(timer);
        resolve(msg.ok ? { run: msg.run } : { error: msg.error });
      });
      child.send(req);
    });
  }

  stop(): void {
    this.#child?.kill();
    this.#child = undefined;
  }
}

/** One cell: the runs made, and why it stopped early if it did. */
interface Cell {
  runs: WorkRun[];
  stopped?: string;
}

const kb = (chars: number): string =>
  chars >= 1e6 ? `${+(chars / 1e6).toFixed(1)} M` : chars >= 1e5 ? `${Math.round(chars / 1000)} k` : `${+(chars / 1000).toFixed(1)} k`;
const fmt = (g: number): string => (Number.isFinite(g) ? (g > FLAG ? `**${g.toFixed(2)}**` : g.toFixed(2)) : '–');

/** Time growth per doubling from run a to run b; NaN where a took under 20 ms (noise). */
function timeGrowth(a: WorkRun, b: WorkRun): number {
  return a.ms >= 20 ? (b.ms / a.ms) ** (1 / Math.log2(b.chars / a.chars)) : NaN;
}

/** The Markdown rows of one strategy. */
function strategyTable(name: string, cells: Map<string, Cell>): string {
  const lines = [
    `#### ${name}`,
    '',
    '| kind | sizes (chars) | ms per size | time × per doubling | time × per doubling, first to last | work × per doubling (worst counter of the last doubling) | flag |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [kind, cell] of cells) {
    const { runs } = cell;
    const times: string[] = [];
    const works: string[] = [];
    const onsets = new Set<string>();
    let worstLast = { counter: '', growth: NaN };
    for (let i = 1; i < runs.length; i++) {
      const t = timeGrowth(runs[i - 1], runs[i]);
      times.push(Number.isFinite(t) ? fmt(t) : `(${(runs[i].ms / Math.max(runs[i - 1].ms, 0.1)).toFixed(1)})`);
      const w = worstGrowth(runs[i - 1], runs[i]);
      for (const o of w.onsets) onsets.add(o);
      worstLast = w;
      works.push(fmt(w.growth));
    }
    // the whole range at once: single doublings are noisy on a shared machine
    const overall = runs.length >= 3 ? timeGrowth(runs[0], runs[runs.length - 1]) : NaN;
    const timeFlag = overall > FLAG ? 'time' : '';
    const workFlag = worstLast.growth > FLAG ? `work (${worstLast.counter})` : '';
    const onsetNote = onsets.size ? `starts between sizes: ${[...onsets].join(', ')}` : '';
    const flag = [workFlag, timeFlag, cell.stopped ?? '', onsetNote].filter(Boolean).join('; ');
    lines.push(
      `| ${kind} | ${runs.length ? `${kb(runs[0].chars)}–${kb(runs[runs.length - 1].chars)}` : '–'} | ${runs.map((r) => r.ms.toFixed(0)).join(' · ') || '–'} | ${times.join(' ') || '–'} | ${Number.isFinite(overall) ? fmt(overall) : '–'} | ${works.join(' ') || '–'}${worstLast.counter ? ` (${worstLast.counter})` : ''} | ${flag} |`,
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
  const lines = ['| kind | ms at 100 k · 200 k · 400 k · 800 k | time × per doubling | first to last |', '|---|---|---|---|'];
  for (const kind of kinds.filter((k) => ['long-word', 'cjk', 'combining-marks', 'emoji-zwj', 'whitespace-runs', 'html-line'].includes(k.name))) {
    const ms: number[] = [];
    for (const n of [100_000, 200_000, 400_000, 800_000]) {
      const text = kind.make(n);
      tok.count(text.slice(0, 1000)); // warm
      const t0 = performance.now();
      tok.count(text);
      ms.push(performance.now() - t0);
    }
    const per = ms.slice(1).map((m, i) => (ms[i] >= 20 ? fmt(m / ms[i]) : `(${(m / Math.max(ms[i], 0.1)).toFixed(1)})`));
    lines.push(`| ${kind.name} | ${ms.map((m) => m.toFixed(0)).join(' · ')} | ${per.join(' ')} | ${ms[0] >= 20 ? fmt((ms[3] / ms[0]) ** (1 / 3)) : '–'} |`);
  }
  return lines.join('\n');
}

/**
 * Runs the scaling suite and returns Markdown: one table per strategy (rows: the
 * pathological kinds), then the 10 MB line, then a summary of the flagged cells.
 */
export async function runScalingBench(options: { strategies?: string[]; kinds?: string[]; doublings?: number } = {}): Promise<string> {
  const started = Date.now();
  const load0 = os.loadavg()[0];
  const doublings = options.doublings ?? DOUBLINGS;
  const defs = strategies().filter((d) => !options.strategies || options.strategies.includes(d.name));
  const kinds = PATHOLOGICAL_KINDS.filter((k) => !options.kinds || options.kinds.includes(k.name));
  const runner = new Runner();
  const tables: string[] = [];
  const flagged: string[] = [];
  const tenMb: string[] = [];
  try {
    for (const def of defs) {
      const cells = new Map<string, Cell>();
      for (const kind of kinds) {
        const cell: Cell = { runs: [] };
        cells.set(kind.name, cell);
        let n = Math.max(BASE[def.name] ?? DEFAULT_BASE, kind.block ?? 0);
        for (let i = 0; i <= doublings; i++, n *= 2) {
          process.stderr.write(`scaling: ${def.name} ${kind.name} ${kb(n)}…\n`);
          const r = await runner.run({ strategy: def.name, kind: kind.name, n });
          if (r.timeout) {
            cell.stopped = `${kb(n)} run stopped after ${RUN_TIMEOUT_MS / 1000} s`;
            break;
          }
          if (r.error) {
            cell.stopped = `${kb(n)}: ${r.error}`;
            break;
          }
          cell.runs.push(r.run!);
          if (r.run!.ms > STOP_AFTER_MS && i < doublings) {
            cell.stopped = `stopped doubling: ${kb(n)} took ${(r.run!.ms / 1000).toFixed(1)} s`;
            break;
          }
        }
        const runs = cell.runs;
        if (runs.length >= 2) {
          const w = worstGrowth(runs[runs.length - 2], runs[runs.length - 1]);
          if (w.growth > FLAG) flagged.push(`${def.name} × ${kind.name}: work ×${w.growth.toFixed(2)} per doubling (${w.counter}) at ${kb(runs[runs.length - 1].chars)}`);
          const t = runs.length >= 3 ? timeGrowth(runs[0], runs[runs.length - 1]) : NaN;
          if (t > FLAG) flagged.push(`${def.name} × ${kind.name}: time ×${t.toFixed(2)} per doubling from ${kb(runs[0].chars)} to ${kb(runs[runs.length - 1].chars)} (work ×${w.growth.toFixed(2)})`);
        }
        if (cell.stopped && (runs.length < 2 || !cell.stopped.startsWith('stopped doubling'))) flagged.push(`${def.name} × ${kind.name}: ${cell.stopped}`);
      }
      tables.push(strategyTable(def.name, cells));
      // the 10 MB line of HTML-ish text, where the 800 KB one was quick
      const html = cells.get('html-line')?.runs;
      const last = html?.[html.length - 1];
      if (last && last.chars >= 790_000 && last.ms < TEN_MB_IF_UNDER_MS) {
        process.stderr.write(`scaling: ${def.name} html-line 10 M…\n`);
        const r = await runner.run({ strategy: def.name, kind: 'html-line', n: 10_000_000 });
        tenMb.push(
          `| ${def.name} | ${r.run ? `${r.run.ms.toFixed(0)} ms (${((r.run.chars / 1e6) / (r.run.ms / 1000)).toFixed(1)} MB/s), ×${worstGrowth(last, r.run).growth.toFixed(2)} work per doubling from 800 k (${worstGrowth(last, r.run).counter})` : r.timeout ? `stopped after ${RUN_TIMEOUT_MS / 1000} s` : r.error} |`,
        );
      } else tenMb.push(`| ${def.name} | not run (${last ? `${kb(last.chars)} took ${last.ms.toFixed(0)} ms` : 'no html-line run'}) |`);
    }
  } finally {
    runner.stop();
  }
  const md = [
    `Every registered strategy with its default options (token units, cl100k_base; semantic and cluster-semantic with the HashingEmbedder; late with the 64-token ONNX fixture encoder), each pathological kind doubled ${doublings} times from ${kb(DEFAULT_BASE)} (markdown and cluster-semantic from ${kb(BASE.markdown)}, late from ${kb(BASE.late)}). ` +
      `One run per size in a child process (killed after ${RUN_TIMEOUT_MS / 1000} s; a cell stops doubling after a run of ${STOP_AFTER_MS / 1000} s). ` +
      `Work is counted in the same run (test/helpers/work.ts: tokenizer calls and characters, Intl.Segmenter cost = Σ characters × segments, characters scanned by regular expressions, packer steps, grapheme windows, the chunkers' lastWork / lastOperations; counts under ${WORK_FLOOR} count as ${WORK_FLOOR}); "work ×" is the largest growth of any counter, per doubling. A counter that is under ${WORK_FLOOR} at one size and over it at the next starts between the two (a path the smaller text does not take) and is named in the flag column instead. Bold: > ${FLAG}×. Time ratios of runs under 20 ms are in parentheses (noise); single time ratios swing with the machine's load, so the time flag is taken from first to last size. ` +
      `Load average (1 min) ${load0.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end; ${((Date.now() - started) / 1000).toFixed(0)} s.`,
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
    tokenizerTable(kinds),
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
