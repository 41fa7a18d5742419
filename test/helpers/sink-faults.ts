/**
 * Fault runs of `chunkwise embed --sink` (the built CLI) for test/sink-faults.test.ts and
 * scripts/sink-kill-points.ts: a 40-file corpus in two versions, runs that are killed
 * with SIGKILL at a given moment, and a store's content as sorted (source, id, text,
 * vector) to compare with a clean run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sink } from '../../src/sinks/types.js';
import { LanceDbSink } from '../../src/sinks/lancedb.js';
import { openPgliteSink } from '../../src/sinks/pglite.js';
import { openPostgresSink } from '../../src/sinks/postgres.js';
import { cliBin, sharedFiles, textsDir } from './paths.js';

/** Files in the corpus. */
export const FILES = 40;

/**
 * Writes the corpus into `dir`: 40 files cut from the texts of texts/, each different.
 * Version `b` edits the first paragraph of files 0–4, empties file 5 and halves file 6
 * (chunks added, kept, and removed on a switch between the versions).
 * @returns the files' paths.
 */
export function writeCorpus(dir: string, version: 'a' | 'b'): string[] {
  mkdirSync(dir, { recursive: true });
  const seeds = sharedFiles(textsDir, '.txt').map((f) => readFileSync(f, 'utf8'));
  const files: string[] = [];
  for (let i = 0; i < FILES; i++) {
    let text = `File ${i}.\n\n` + seeds[i % seeds.length].slice(i * 37);
    if (version === 'b' && i < 5) text = `File ${i}, edited: a new first paragraph.\n\n` + text.slice(text.indexOf('\n\n') + 2);
    if (version === 'b' && i === 5) text = '';
    if (version === 'b' && i === 6) text = text.slice(0, text.length >> 1);
    const file = join(dir, `f${String(i).padStart(2, '0')}.txt`);
    writeFileSync(file, text);
    files.push(file);
  }
  return files;
}

/** The embed arguments of every fault run: the corpus folder into `spec`. */
export function embedArgs(dir: string, spec: string): string[] {
  return ['embed', dir, '--chunk-size', '100', '--chunk-overlap', '0', '--embedder', 'hashing:64', '--sink', spec];
}

/** How a CLI run ended. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  pid: number;
  ms: number;
}

/**
 * Runs the CLI with `args` (asynchronously: a Postgres server in this process keeps
 * answering); with `killAfterMs`, sends SIGKILL that long after the start (if it still runs).
 * `onStart` sees the child's pid as soon as it is spawned.
 */
export function runCli(args: string[], options: { killAfterMs?: number; onStart?: (pid: number) => void } = {}): Promise<RunResult> {
  const started = Date.now();
  const child = spawn(process.execPath, [cliBin, ...args], { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  options.onStart?.(child.pid!);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = options.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, pid: child.pid!, ms: Date.now() - started });
    });
  });
}

/** The sink kinds of the fault runs: a spec for a store named `name`, and how to open it in this process. */
export interface FaultStore {
  kind: 'lancedb' | 'pglite' | 'postgres';
  spec(name: string): string;
  open(name: string): Promise<Sink>;
}

/** The three stores, under `tmp` (folders) or on the server at `url(table)` (Postgres tables). */
export function faultStores(tmp: string, url: () => (table: string) => string): FaultStore[] {
  return [
    { kind: 'lancedb', spec: (name) => `lancedb:${join(tmp, `lancedb-${name}`)}`, open: (name) => LanceDbSink.open(join(tmp, `lancedb-${name}`)) },
    { kind: 'pglite', spec: (name) => `pglite:${join(tmp, `pglite-${name}`)}`, open: (name) => openPgliteSink(join(tmp, `pglite-${name}`)) },
    { kind: 'postgres', spec: (name) => url()(name), open: (name) => openPostgresSink(url()(name)) },
  ];
}

/** A store's rows as sorted `source id text vector` lines, and how many rows it has. */
export async function snapshot(store: FaultStore, name: string): Promise<{ rows: number; lines: string[] }> {
  const sink = await store.open(name);
  try {
    const rows = await sink.rows();
    const lines = rows.map((r) => JSON.stringify([r.source, r.id, r.text, Array.from(r.vector)])).sort();
    return { rows: rows.length, lines };
  } finally {
    await sink.close();
  }
}

/**
 * Where to kill `n` runs: fractions from 10 % to 95 % of a run's duration. The callers
 * take them of the run just before (a rerun), so the moments follow the machine's load.
 */
export function killFractions(n: number): number[] {
  return Array.from({ length: n }, (_, i) => 0.1 + (0.85 * i) / Math.max(1, n - 1));
}
