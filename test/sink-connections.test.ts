/**
 * A Postgres connection lost while the sink writes (issue 38): PGlite served over the
 * wire (pglite-socket, test/helpers/pglite-server.mjs) behind a proxy that resets every
 * connection when the client sends the chunk table's INSERT. A lost connection never
 * crashes the process (the checked-out client has an 'error' listener): the statement
 * runs again on a new connection after a backoff, and when the server stays gone the
 * error is one line. In this process (openPostgresSink), through `chunkwise embed
 * --sink postgres://…` and through a `chunkwise worker` (the built CLI).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder, RecursiveChunker, SinkError } from '../src/index.js';
import { writeChunks } from '../src/sinks/index.js';
import { openPostgresSink } from '../src/sinks/postgres.js';
import { startCuttingProxy, type CuttingProxy } from './helpers/cutting-proxy.js';
import { cliBin, texts } from './helpers/paths.js';
import { startPgServer, type PgServer } from './helpers/pg-server.js';
import { runRedisTests, startRedis } from './helpers/redis.js';

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-pg-lost-'));
const text = readFileSync(texts.enSliding, 'utf8');
const chunks = new RecursiveChunker({ chunkSize: 80, chunkOverlap: 0 }).chunk(text);
const embedder = new HashingEmbedder({ dimension: 32 });

let server: PgServer;
let proxy: CuttingProxy;
beforeAll(async () => {
  server = await startPgServer();
  proxy = await proxyToServer();
});
afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

/** A new proxy to the server. */
function proxyToServer(): Promise<CuttingProxy> {
  const { hostname, port } = new URL(server.url());
  return startCuttingProxy(hostname, Number(port));
}

/** Makes `p` refuse connections as soon as it has cut once (the server is gone for good); returns how to stop watching. */
function goneAfterCut(p: CuttingProxy): () => void {
  const timer = setInterval(() => p.cuts > 0 && (p.refuse(), clearInterval(timer)), 5);
  return () => clearInterval(timer);
}

/** The proxy's URL for `table`. */
const viaProxy = (table: string) => `postgres://postgres@127.0.0.1:${proxy.port}/postgres?table=${table}`;

/** Rows of `table`, read straight from the server (not through the proxy). */
async function rowsOf(table: string): Promise<number> {
  const sink = await openPostgresSink(server.url(table));
  try {
    return await sink.count();
  } finally {
    await sink.close();
  }
}

/** Files of the CLI runs: the test text cut in 4. */
function corpus(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const q = Math.ceil(text.length / 4);
  for (let i = 0; i < 4; i++) writeFileSync(join(dir, `part-${i}.txt`), text.slice(i * q, (i + 1) * q));
  return dir;
}

const chunking = ['--strategy', 'recursive', '--chunk-size', '80', '--chunk-overlap', '0', '--embedder', 'hashing:32'];

describe('openPostgresSink: a connection lost during a write', () => {
  it('is tried again on a new connection: every row is written, no unhandled error', async () => {
    const sink = await openPostgresSink(viaProxy('lost_once'));
    try {
      const vectors = await embedder.embed(chunks.map((c) => c.text));
      const before = proxy.cuts;
      proxy.cutOn('INSERT INTO "lost_once"', 2); // the first try and the first retry
      const result = await writeChunks(sink, chunks, vectors, { source: 'sliding.txt', embedder: 'hashing:32' });
      expect(proxy.cuts - before).toBe(2);
      expect(result.written).toBe(chunks.length);
      expect(await sink.count()).toBe(chunks.length);
    } finally {
      await sink.close();
    }
    expect(await rowsOf('lost_once')).toBe(chunks.length);
  });

  it('a server that stays gone: a one-line SinkError after the retries (about 3 s), no unhandled error', async () => {
    const other = await proxyToServer();
    const sink = await openPostgresSink(`postgres://postgres@127.0.0.1:${other.port}/postgres?table=lost_gone`);
    try {
      const vectors = await embedder.embed(chunks.map((c) => c.text));
      await sink.prepare(32);
      other.cutOn('INSERT INTO "lost_gone"', 1);
      const write = writeChunks(sink, chunks, vectors, { source: 'sliding.txt' });
      const started = Date.now();
      const stop = goneAfterCut(other); // every retry is refused
      const error = await write.then(() => undefined, (e: unknown) => e);
      stop();
      expect(error).toBeInstanceOf(SinkError);
      const message = (error as Error).message;
      expect(message).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres table lost_gone: cannot write rows: (connect ECONNREFUSED|read ECONNRESET|Connection terminated)/);
      expect(message).not.toContain('\n');
      expect(Date.now() - started).toBeGreaterThan(2500);
    } finally {
      await sink.close().catch(() => {});
      await other.close();
    }
    expect(await rowsOf('lost_gone')).toBe(0);
  });
});

describe('chunkwise embed --sink postgres:// with the connection lost', () => {
  it('once: the run goes on and writes every row (exit 0, as a run without the cut)', async () => {
    const dir = corpus('embed-once');
    const clean = spawnSync(process.execPath, [cliBin, 'embed', dir, ...chunking, '--sink', server.url('embed_clean'), '--summary', 'json'], { encoding: 'utf8' });
    expect(clean.status, clean.stderr).toBe(0);
    const rows = JSON.parse(clean.stderr).rows as number;
    expect(rows).toBeGreaterThan(10);
    proxy.cutOn('INSERT INTO "embed_once"', 1);
    const before = proxy.cuts;
    const run = await runAsync([cliBin, 'embed', dir, ...chunking, '--sink', viaProxy('embed_once'), '--summary', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.cuts - before).toBe(1);
    expect(JSON.parse(run.stderr).rows).toBe(rows);
    expect(await rowsOf('embed_once')).toBe(rows);
  });

  it('for good: exit 1 with one line, no stack', async () => {
    const dir = corpus('embed-gone');
    const gone = await proxyToServer();
    try {
      gone.cutOn('INSERT INTO "embed_gone"', 1);
      const stop = goneAfterCut(gone);
      const run = await runAsync([cliBin, 'embed', dir, ...chunking, '--sink', `postgres://postgres@127.0.0.1:${gone.port}/postgres?table=embed_gone`]);
      stop();
      expect(gone.cuts).toBe(1);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(/^chunkwise: postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres table embed_gone: cannot write rows: [^\n]+\n$/);
    } finally {
      await gone.close();
    }
  });
});

describe.runIf(runRedisTests)('chunkwise worker with the connection lost', () => {
  it('the job goes on after the cut: embed --wait exits 0, every row written, the worker still runs', { timeout: 120_000 }, async () => {
    const redis = await startRedis();
    const dir = corpus('worker');
    const worker = spawn(process.execPath, [cliBin, 'worker', '--queue', redis.url, '--queue-name', 'pg-lost'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '' } });
    let workerErr = '';
    worker.stderr!.on('data', (d: Buffer) => (workerErr += d.toString()));
    try {
      const clean = spawnSync(process.execPath, [cliBin, 'embed', dir, ...chunking, '--sink', server.url('worker_clean'), '--summary', 'json'], { encoding: 'utf8' });
      const rows = JSON.parse(clean.stderr).rows as number;
      proxy.cutOn('INSERT INTO "worker_lost"', 1);
      const before = proxy.cuts;
      const run = await runAsync([cliBin, 'embed', dir, ...chunking, '--sink', viaProxy('worker_lost'), '--queue', redis.url, '--queue-name', 'pg-lost', '--wait']);
      expect(run.code, run.stderr + workerErr).toBe(0);
      expect(proxy.cuts - before).toBe(1);
      expect(worker.exitCode, workerErr).toBeNull();
      expect(await rowsOf('worker_lost')).toBe(rows);
    } finally {
      await new Promise<void>((done) => (worker.exitCode !== null ? done() : (worker.once('exit', () => done()), worker.kill('SIGTERM'))));
      await redis.stop();
    }
  });
});

/** Runs node with `args` without blocking this process (the proxy lives here). */
function runAsync(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '' } });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}
