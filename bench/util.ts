/**
 * Shared helpers for the tinybench suites: run a set of tasks in one Bench and report
 * mean time, throughput and ratios against a baseline as a Markdown table.
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';

/** Repository root, from bench/ or dist/bench/. */
export const repoRoot = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  if (dir.endsWith(join('dist', 'bench'))) dir = dirname(dirname(dir));
  else dir = dirname(dir);
  return dir;
})();
/** shared/ beside the repository. */
export const sharedDir = resolve(repoRoot, '..', 'shared');

/** Reads corpora from shared/eval/corpora by name (without .md) and joins them. */
export function corpusText(names: string[]): string {
  return names.map((n) => readFileSync(join(sharedDir, 'eval', 'corpora', `${n}.md`), 'utf8')).join('\n\n');
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
