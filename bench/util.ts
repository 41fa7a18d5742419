/**
 * Shared helpers for the tinybench suites: run a set of tasks in one Bench and report
 * mean time, throughput and ratios against a baseline as a Markdown table.
 * @module
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { corporaDir } from '../test/helpers/paths.js';

export { corporaDir, evalDir, gloveDir, markdownDir, questionsCsv, repoRoot, textsDir } from '../test/helpers/paths.js';

/** Reads corpora from eval/corpora by name (without .md) and joins them. */
export function corpusText(names: string[]): string {
  return names.map((n) => readFileSync(join(corporaDir, `${n}.md`), 'utf8')).join('\n\n');
}

/** One benchmark task. */
export interface BenchTask {
  name: string;
  fn: () => unknown | Promise<unknown>;
  /** Bytes processed per call, for MB/s (UTF-8 length of the input). */
  bytes?: number;
}

/** A measured task. */
export interface BenchRow {
  name: string;
  meanMs: number;
  mbPerSec?: number;
  samples: number;
}

/** Runs tasks sequentially in one tinybench Bench; returns a row per task. */
export async function runTasks(tasks: BenchTask[], options: { time?: number; iterations?: number; warmupIterations?: number } = {}): Promise<BenchRow[]> {
  const bench = new Bench({
    time: options.time ?? 1500,
    iterations: options.iterations ?? 5,
    warmupIterations: options.warmupIterations ?? 1,
    warmupTime: 0,
  });
  for (const t of tasks) bench.add(t.name, t.fn);
  await bench.run();
  return bench.tasks.map((task, i) => {
    const result = task.result as unknown as { period?: number; latency?: { samplesCount?: number; samples?: number[] }; error?: unknown; state?: string };
    if (result?.error) throw new Error(`${task.name} failed: ${String(result.error)}`);
    const meanMs = result?.period ?? NaN;
    const bytes = tasks[i].bytes;
    return {
      name: task.name,
      meanMs,
      mbPerSec: bytes ? bytes / 1e6 / (meanMs / 1000) : undefined,
      samples: result?.latency?.samplesCount ?? result?.latency?.samples?.length ?? 0,
    };
  });
}

/** A Markdown table of rows, with each row's speed relative to `baseline` (a row name). */
export function table(rows: BenchRow[], baseline?: string): string {
  const base = rows.find((r) => r.name === baseline);
  const lines = ['| task | mean ms | MB/s | × ' + (baseline ?? 'baseline') + ' |', '|---|---:|---:|---:|'];
  for (const r of rows) {
    const ratio = base ? base.meanMs / r.meanMs : NaN;
    lines.push(
      `| ${r.name} | ${r.meanMs.toFixed(2)} | ${r.mbPerSec !== undefined ? r.mbPerSec.toFixed(2) : ''} | ${Number.isFinite(ratio) ? ratio.toFixed(2) : ''} |`,
    );
  }
  return lines.join('\n');
}

/** UTF-8 byte length. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Runs tasks interleaved: `rounds` rounds, each running every task `reps` times in a
 * shuffled order (the same shuffles every run), timing each with both the wall clock and the process's CPU time. On a
 * shared machine the load changes from second to second; interleaving puts every task
 * under the same load, and the median of CPU time per call is the steadiest figure.
 * Ratios in the table are of the median CPU times. Each task first runs `warmup` times
 * (default 2) and, with `warmupMs`, until it has run that long: the optimizing compiler
 * takes tens of calls on some paths, and a batch job runs warm.
 */
export async function runInterleaved(tasks: BenchTask[], options: { rounds?: number; reps?: number; warmup?: number; warmupMs?: number } = {}): Promise<BenchRow[]> {
  const rounds = options.rounds ?? 15;
  const reps = options.reps ?? 2;
  for (const t of tasks) {
    const t0 = performance.now();
    for (let i = 0; i < (options.warmup ?? 2) || performance.now() - t0 < (options.warmupMs ?? 0); i++) await t.fn();
  }
  const cpu: number[][] = tasks.map(() => []);
  // a new order every round (seeded): a rotation keeps each task's neighbours, so one task
  // would always pay for the garbage its predecessor left behind
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = tasks.map((_, i) => i);
  for (let r = 0; r < rounds; r++) {
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [order[k], order[j]] = [order[j], order[k]];
    }
    for (let k = 0; k < tasks.length; k++) {
      const i = order[k];
      const c0 = process.cpuUsage();
      for (let j = 0; j < reps; j++) await tasks[i].fn();
      const c = process.cpuUsage(c0);
      cpu[i].push((c.user + c.system) / 1000 / reps);
    }
  }
  return tasks.map((t, i) => {
    const sorted = [...cpu[i]].sort((a, b) => a - b);
    const meanMs = sorted[sorted.length >> 1];
    return { name: t.name, meanMs, mbPerSec: t.bytes ? t.bytes / 1e6 / (meanMs / 1000) : undefined, samples: sorted.length };
  });
}

/** A row measured in several interleaved passes: `meanMs` is the median of the passes' medians. */
export interface PassRow extends BenchRow {
  /** Each pass's median CPU time per call, ms. */
  passMs: number[];
}

/** The median of a non-empty list (the upper middle for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/**
 * Runs `passes` (default 3) interleaved passes of the same tasks (`runInterleaved`, so in
 * every round of a pass ours and the peers' calls alternate in a shuffled order) after one
 * warm-up, and records the 1-minute load average after each pass. A row's `meanMs` is the
 * median over the passes of each pass's median CPU time per call; `ratio` gives the median
 * of the per-pass ratios, so one noisy pass cannot make a row.
 */
export async function runPasses(
  tasks: BenchTask[],
  options: { passes?: number; rounds?: number; reps?: number; warmup?: number; warmupMs?: number } = {},
): Promise<{ rows: PassRow[]; loads: number[]; ratio(a: string, b: string): number }> {
  const passes = options.passes ?? 3;
  const perPass: BenchRow[][] = [];
  const loads: number[] = [];
  for (let p = 0; p < passes; p++) {
    // warm only before the first pass: the later passes run on warm code
    perPass.push(await runInterleaved(tasks, { ...options, warmup: p === 0 ? options.warmup : 0, warmupMs: p === 0 ? options.warmupMs : 0 }));
    loads.push(os.loadavg()[0]);
  }
  const rows: PassRow[] = tasks.map((t, i) => {
    const passMs = perPass.map((rs) => rs[i].meanMs);
    const meanMs = median(passMs);
    return { name: t.name, meanMs, passMs, mbPerSec: t.bytes ? t.bytes / 1e6 / (meanMs / 1000) : undefined, samples: perPass.reduce((n, rs) => n + rs[i].samples, 0) };
  });
  const at = (name: string) => {
    const i = tasks.findIndex((t) => t.name === name);
    if (i < 0) throw new Error(`no task ${name}`);
    return i;
  };
  /** How many times faster `a` ran than `b`: the median over the passes of b's time over a's. */
  const ratio = (a: string, b: string) => median(perPass.map((rs) => rs[at(b)].meanMs / rs[at(a)].meanMs));
  return { rows, loads, ratio };
}
