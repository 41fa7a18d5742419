/**
 * The whole benchmark suite (`npm run bench`): imports every `bench/*.bench.ts` (or
 * `.bench.js` when run from dist/bench) in name order and calls each exported function
 * named `run…Bench` (no arguments; each returns Markdown), so suites added later join
 * without changes here. Prints the Markdown and appends one dated section to
 * bench/RESULTS.md with the machine and the command.
 *
 *   npm run bench                   # all suites
 *   npm run bench -- kernels chunk  # only files whose name contains one of the words
 * @module
 */
import { appendFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from './util.js';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));

/** Bench files in `dir` (`*.bench.ts` / `*.bench.js`), in name order, whose name contains one of `filters` (all if none). */
export function discoverBenchFiles(dir: string, filters: readonly string[] = []): string[] {
  return readdirSync(dir)
    .filter((f) => /\.bench\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
    .sort();
}

/** The exported `run…Bench` functions of a bench module, in export order. */
export function benchRunners(mod: Record<string, unknown>): [string, () => Promise<string>][] {
  return Object.entries(mod).filter(([name, fn]) => /^run\w*Bench$/.test(name) && typeof fn === 'function') as [string, () => Promise<string>][];
}

const files = discoverBenchFiles(here, filters);

/** Runs every `run*Bench` export of every bench file; returns the Markdown section. */
export async function runAll(): Promise<string> {
  const started = Date.now();
  const loadBefore = os.loadavg()[0];
  const parts: string[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>;
    for (const [name, fn] of benchRunners(mod)) {
      process.stderr.write(`bench: ${file} ${name}…\n`);
      const t0 = Date.now();
      const md = await fn();
      parts.push(`### ${name} (${file}, ${((Date.now() - t0) / 1000).toFixed(0)} s)\n\n${md.trim()}\n`);
    }
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const header = [
    `## Full suite, ${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC`,
    '',
    `Command: \`npm run bench${filters.length ? ' -- ' + filters.join(' ') : ''}\` (bench/run.ts: every \`run*Bench\` of ${files.join(', ')}).`,
    `Machine: ${cpu} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}. ` +
      `Single run, ${((Date.now() - started) / 1000).toFixed(0)} s; ratios within one table come from the same run. ` +
      `Load average (1 min) ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end: other jobs share the machine, so absolute figures are noisy.`,
    '',
  ];
  return header.join('\n') + parts.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAll().then(
    (md) => {
      process.stdout.write(md + '\n');
      appendFileSync(join(repoRoot, 'bench', 'RESULTS.md'), `\n${md}\n`);
    },
    (error) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
