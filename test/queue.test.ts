/**
 * The ingestion queue end to end with real parts: Debian's redis-server on a loopback
 * port, BullMQ, `chunkwise embed --queue` as the producer and `chunkwise worker`
 * processes from dist/ as the consumers, a LanceDB folder as the shared store. Each
 * result is compared with one in-process `embed --sink` run of the same files: the same
 * (source, id, text, vector) rows, each once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanceDbSink } from '../src/sinks/lancedb.js';
import { queueStatus } from '../src/apps/queue/index.js';
import { cliBin, corporaDir, repoRoot } from './helpers/paths.js';
import { freePort, runRedisTests, startRedis, type RedisServer } from './helpers/redis.js';
import { startPgServer } from './helpers/pg-server.js';
import { openPostgresSink } from '../src/sinks/postgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-queue-'));
const chunking = ['--strategy', 'recursive', '--chunk-size', '128', '--chunk-overlap', '0'];

/** 200 documents of about 3 KB: paragraphs of two eval corpora, cut at blank lines. */
function writeDocuments(dir: string, n: number): string[] {
  mkdirSync(dir, { recursive: true });
  const paragraphs = ['pubmed.md', 'wikitexts.md'].flatMap((f) => readFileSync(join(corporaDir, f), 'utf8').split(/\n\s*\n/)).filter((p) => p.trim().length > 40);
  const files: string[] = [];
  const per = Math.floor(paragraphs.length / n);
  for (let i = 0; i < n; i++) {
    const file = join(dir, `doc-${String(i).padStart(3, '0')}.txt`);
    writeFileSync(file, paragraphs.slice(i * per, (i + 1) * per).join('\n\n') + '\n');
    files.push(file);
  }
  return files;
}

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [cliBin, ...args], { encoding: 'utf8', env: { ...process.env, CI: '' }, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A `chunkwise worker` process (short lock, so a killed worker's job comes back in about a second). */
function startWorker(url: string, queueName: string): ChildProcess {
  return spawn(process.execPath, [cliBin, 'worker', '--queue', url, '--queue-name', queueName, '--concurrency', '2', '--lock-duration', '1000'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '' } });
}

async function stopWorker(w: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (w.exitCode !== null) return w.exitCode;
  return new Promise((resolve) => {
    w.once('exit', (code) => resolve(code));
    w.kill(signal);
  });
}

/** The store's rows as sorted `source id text vector` lines, and their count. */
async function snapshot(dir: string): Promise<string[]> {
  const sink = await LanceDbSink.open(dir, { table: 'chunks' });
  try {
    return (await sink.rows()).map((r) => `${r.source}\t${r.id}\t${r.text}\t${Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength).toString('base64')}`).sort();
  } finally {
    await sink.close();
  }
}

async function until(what: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(runRedisTests)('embed --queue with chunkwise worker processes (redis-server, BullMQ, LanceDB)', () => {
  let redis: RedisServer;
  const files = writeDocuments(join(tmp, 'docs'), 200);
  let clean: string[];

  beforeAll(async () => {
    redis = await startRedis();
    const r = cli(['embed', join(tmp, 'docs'), ...chunking, '--sink', `lancedb:${join(tmp, 'clean')}`, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    clean = await snapshot(join(tmp, 'clean'));
  });
  afterAll(async () => {
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('200 documents, 2 workers: the sink holds exactly the rows of one in-process embed --sink run', async () => {
    expect(clean.length).toBeGreaterThan(500);
    const workers = [startWorker(redis.url, 'two'), startWorker(redis.url, 'two')];
    try {
      const r = cli(['embed', ...files, ...chunking, '--sink', `lancedb:${join(tmp, 'two')}`, '--queue', redis.url, '--queue-name', 'two', '--wait']);
      expect(r.code, r.stderr).toBe(0);
      // the sink check below is the point; the line says every job completed and none failed
      expect(r.stderr, r.stderr).toMatch(/^chunkwise: 200 of 200 job\(s\) completed, \d+ document\(s\), 0 failed, /);
    } finally {
      for (const w of workers) expect(await stopWorker(w)).toBe(0); // SIGTERM: the jobs in hand finish, exit 0
    }
    expect(await snapshot(join(tmp, 'two'))).toEqual(clean);
  });

  it('one worker killed with SIGKILL at three points and restarted: still equal, no duplicates, nothing missing', async () => {
    const url = redis.url;
    const store = join(tmp, 'killed');
    const steady = startWorker(url, 'kill');
    let victim = startWorker(url, 'kill');
    const r = cli(['embed', ...files, ...chunking, '--sink', `lancedb:${store}`, '--queue', url, '--queue-name', 'kill']);
    expect(r.code, r.stderr).toBe(0);
    try {
      for (const at of [30, 90, 150]) {
        await until(async () => (await queueStatus({ url, queueName: 'kill' })).completed >= at, 120_000);
        await stopWorker(victim, 'SIGKILL');
        victim = startWorker(url, 'kill');
      }
      await until(async () => {
        const s = await queueStatus({ url, queueName: 'kill' });
        return s.completed + s.failed === 200;
      }, 180_000);
      const s = await queueStatus({ url, queueName: 'kill' });
      expect([s.completed, s.failed]).toEqual([200, 0]);
    } finally {
      await stopWorker(victim);
      await stopWorker(steady);
    }
    const rows = await snapshot(store);
    expect(new Set(rows).size).toBe(rows.length);
    expect(rows).toEqual(clean);
  });

  it('a binary document and one that cannot be read end in the failed set with their reasons, at once; the others complete', async () => {
    const dir = join(tmp, 'bad');
    const good = writeDocuments(dir, 4);
    const gone = join(dir, 'gone.txt');
    writeFileSync(gone, 'here at enqueue time, gone when the worker looks\n');
    const png = join(dir, 'image.png');
    writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
    const w = startWorker(redis.url, 'bad');
    try {
      // the file disappears between enqueue and work: the worker cannot read it
      const enqueue = cli(['embed', ...good, gone, png, ...chunking, '--sink', `lancedb:${join(tmp, 'bad-store')}`, '--queue', redis.url, '--queue-name', 'bad']);
      expect(enqueue.code, enqueue.stderr).toBe(0);
      rmSync(gone);
      await until(async () => {
        const s = await queueStatus({ url: redis.url, queueName: 'bad' });
        return s.completed + s.failed === 6;
      }, 60_000);
      const s = await queueStatus({ url: redis.url, queueName: 'bad' });
      expect([s.completed, s.failed]).toEqual([4, 2]);
      const failures = [...s.failures].sort((a, b) => (a.documents[0] < b.documents[0] ? -1 : 1));
      expect(failures.map((f) => f.documents)).toEqual([[gone], [png]]);
      expect(failures[0].reason).toContain(gone);
      expect(failures[1].reason).toContain(`${png}: a binary file, not text (a NUL byte at offset 8)`);
      const status = cli(['queue', 'status', '--queue', redis.url, '--queue-name', 'bad']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(/^waiting 0\nactive 0\ndelayed 0\ncompleted 4\nfailed 2\nfailed job \S+ \(.*(gone\.txt|image\.png)\): /);
    } finally {
      await stopWorker(w);
    }
  });

  it('embed --wait exits 1 when a job failed: the summary counts the documents, each failure has its reason, a closing line', async () => {
    const dir = join(tmp, 'wait-fail');
    const good = writeDocuments(dir, 3);
    const png = join(dir, 'image.png');
    writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const w = startWorker(redis.url, 'wait-fail');
    try {
      const r = cli(['embed', ...good, png, ...chunking, '--sink', `lancedb:${join(tmp, 'wait-fail-store')}`, '--queue', redis.url, '--queue-name', 'wait-fail', '--wait']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^chunkwise: 3 of 4 job\(s\) completed, 3 document\(s\), 1 failed, [\d.]+ s\nchunkwise: job \S+ failed: .*image\.png: a binary file, not text \(a NUL byte at offset 8\)\nchunkwise: 1 of 4 job\(s\) failed\n$/);
    } finally {
      await stopWorker(w);
    }
  });

  it('embed --wait with no worker: exit 1 after --wait-timeout with one line, the jobs left queued; a bad --wait-timeout is a usage error', async () => {
    const docs = writeDocuments(join(tmp, 'idle'), 2);
    const started = Date.now();
    const r = cli(['embed', ...docs, '--sink', `lancedb:${join(tmp, 'idle-store')}`, '--queue', redis.url, '--queue-name', 'idle', '--wait', '--wait-timeout', '2']);
    const seconds = (Date.now() - started) / 1000;
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^chunkwise: 0 of 2 job\(s\) completed, 0 document\(s\), 0 failed, [\d.]+ s\nchunkwise: no job was taken or finished in 2 s: 2 of 2 job\(s\) still on queue idle \(they stay queued: start chunkwise worker on it, or wait longer with --wait-timeout\)\n$/);
    expect(seconds).toBeGreaterThanOrEqual(2);
    expect(seconds).toBeLessThan(10);
    expect((await queueStatus({ url: redis.url, queueName: 'idle' })).waiting).toBe(2);
    const zero = cli(['embed', ...docs, '--sink', `lancedb:${join(tmp, 'idle-store')}`, '--queue', redis.url, '--queue-name', 'idle', '--wait', '--wait-timeout', '0']);
    expect([zero.code, zero.stderr]).toEqual([2, 'chunkwise: invalid option --wait-timeout: 0 (must be an integer ≥ 1)\n']);
    expect(cli(['embed', ...docs, '--sink', `lancedb:${join(tmp, 'idle-store')}`, '--queue', redis.url, '--wait-timeout', '5']).stderr).toBe('chunkwise: --wait-timeout goes with --wait\n');
    const help = cli(['embed', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--wait-timeout <seconds> seconds to go on waiting while no job is taken or finished (no worker running) or Redis cannot be reached; then exit 1, the jobs left on the queue [default: 600]');
  });

  it('Redis killed and restarted during embed --wait: the wait reconnects and ends with every job; Redis gone for good: one line, exit 1', async () => {
    const dir = join(tmp, 'restart-redis');
    mkdirSync(dir);
    let server = await startRedis({ dir });
    const docs = writeDocuments(join(tmp, 'restart'), 20);
    const w = startWorker(server.url, 'restart');
    const waiting = spawn(process.execPath, [cliBin, 'embed', ...docs, ...chunking, '--sink', `lancedb:${join(tmp, 'restart-store')}`, '--queue', server.url, '--queue-name', 'restart', '--wait', '--wait-timeout', '30'], { env: { ...process.env, CI: '' } });
    let stderr = '';
    waiting.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => waiting.once('exit', (code) => resolve(code)));
    try {
      await until(async () => (await queueStatus({ url: server.url, queueName: 'restart' }).catch(() => ({ completed: 0 }))).completed >= 2, 60_000);
      await server.stop();
      await new Promise((r) => setTimeout(r, 2000)); // longer than a producer's reconnect attempts
      server = await startRedis({ port: server.port, dir });
      expect(await exited, stderr).toBe(0);
      expect(stderr).toMatch(/^chunkwise: lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \(.+\): reconnecting for up to 30 s\n/m);
      expect(stderr).toMatch(/^chunkwise: 20 of 20 job\(s\) completed, 20 document\(s\), 0 failed, [\d.]+ s\n$/m);
    } finally {
      waiting.kill('SIGKILL');
      expect(await stopWorker(w)).toBe(0);
    }
    // a Redis that does not come back: the wait gives up after --wait-timeout with the reason
    const gone = spawn(process.execPath, [cliBin, 'embed', docs[0], '--sink', `lancedb:${join(tmp, 'restart-store')}`, '--queue', server.url, '--queue-name', 'gone', '--wait', '--wait-timeout', '2'], { env: { ...process.env, CI: '' } });
    let goneErr = '';
    gone.stderr!.on('data', (d) => (goneErr += d));
    const goneExit = new Promise<number | null>((resolve) => gone.once('exit', (code) => resolve(code)));
    await until(async () => goneErr.includes('0 of 1') || (await queueStatus({ url: server.url, queueName: 'gone' })).waiting === 1, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    await server.stop();
    expect(await goneExit, goneErr).toBe(1);
    // (the lost-connection line only when the wait had connected before the server went)
    expect(goneErr).toMatch(/^(chunkwise: lost the connection to Redis at .*\n)?chunkwise: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/0: [^\n]+\n$/);
  });

  it("--sink postgres://…?table=NAME through the queue: the worker writes the URL's table (Postgres wire server)", async () => {
    const pg = await startPgServer();
    const docs = writeDocuments(join(tmp, 'pg-table'), 3);
    const w = startWorker(redis.url, 'pg-table');
    try {
      const r = cli(['embed', ...docs, ...chunking, '--sink', pg.url('docs_v2'), '--queue', redis.url, '--queue-name', 'pg-table', '--wait']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^chunkwise: 3 of 3 job\(s\) completed, 3 document\(s\), 0 failed, /);
      const inProcess = cli(['embed', ...docs, ...chunking, '--sink', pg.url('docs_here'), '--summary', 'json']);
      expect(inProcess.code, inProcess.stderr).toBe(0);
      const rows = JSON.parse(inProcess.stderr).rows as number;
      expect(rows).toBeGreaterThan(3);
      const sink = await openPostgresSink(pg.url('docs_v2'));
      try {
        expect(await sink.count()).toBe(rows);
      } finally {
        await sink.close();
      }
    } finally {
      await stopWorker(w);
      await pg.stop();
    }
  });

  it('a worker without Redis exits 1 within --redis-timeout with one line: unreachable at start, lost when idle, lost with SIGTERM while jobs are in hand', async () => {
    const port = await freePort(); // nothing listens there
    let started = Date.now();
    const none = spawnSync(process.execPath, [cliBin, 'worker', '--queue', `redis://127.0.0.1:${port}/0`, '--redis-timeout', '2'], { encoding: 'utf8', timeout: 30_000 });
    expect([none.status, none.stderr]).toEqual([1, `chunkwise: cannot reach Redis at redis://127.0.0.1:${port}/0: no answer in 2 s\n`]);
    expect(Date.now() - started).toBeLessThan(12_000);

    /** A worker on `url` with --redis-timeout 2: its stderr, its exit, and when it said it was ready. */
    const watched = (url: string, queueName: string) => {
      const child = spawn(process.execPath, [cliBin, 'worker', '--queue', url, '--queue-name', queueName, '--redis-timeout', '2'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '' } });
      const w = { child, stderr: '', exit: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))) };
      child.stderr!.on('data', (d) => (w.stderr += d));
      return w;
    };
    const lostLine = /\nchunkwise: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/0: connect ECONNREFUSED [\d.:]+\n$/;

    // idle when Redis goes: no SIGTERM needed
    const idleRedis = await startRedis();
    const idle = watched(idleRedis.url, 'lost-idle');
    try {
      await until(async () => idle.stderr.includes('worker on queue'), 30_000);
      started = Date.now();
      await idleRedis.stop();
      expect(await idle.exit, idle.stderr).toBe(1);
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(idle.stderr).toMatch(lostLine);
    } finally {
      idle.child.kill('SIGKILL');
    }

    // jobs in hand when Redis goes, then SIGTERM: the jobs cannot finish, the worker says why and exits
    const busyRedis = await startRedis();
    const docs = writeDocuments(join(tmp, 'lost-busy'), 40);
    expect(cli(['embed', ...docs, ...chunking, '--sink', `lancedb:${join(tmp, 'lost-busy-store')}`, '--queue', busyRedis.url, '--queue-name', 'lost-busy']).code).toBe(0);
    const busy = watched(busyRedis.url, 'lost-busy');
    try {
      await until(async () => (await queueStatus({ url: busyRedis.url, queueName: 'lost-busy' })).completed >= 1, 60_000);
      await busyRedis.stop();
      started = Date.now();
      busy.child.kill('SIGTERM');
      expect(await busy.exit, busy.stderr).toBe(1);
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(busy.stderr).toContain('chunkwise: stopping: finishing the jobs in hand\n');
      expect(busy.stderr).toMatch(lostLine);
    } finally {
      busy.child.kill('SIGKILL');
    }
  });

  it('queue retry-failed and drain; usage errors for a PGlite folder, a queue without a sink, queue flags without --queue', async () => {
    const dir = join(tmp, 'drain');
    const docs = writeDocuments(dir, 3);
    const enqueue = cli(['embed', ...docs, '--sink', `lancedb:${join(tmp, 'drain-store')}`, '--queue', redis.url, '--queue-name', 'drain']);
    expect(enqueue.code, enqueue.stderr).toBe(0);
    expect(enqueue.stderr).toBe('chunkwise: 3 job(s) for 3 file(s) on queue drain\n');
    expect(cli(['queue', 'drain', '--queue', redis.url, '--queue-name', 'drain']).stdout).toBe('3 job(s) removed\n');
    expect(cli(['queue', 'retry-failed', '--queue', redis.url, '--queue-name', 'drain']).stdout).toBe('0 failed job(s) back to waiting\n');
    const pglite = cli(['embed', docs[0], '--sink', `pglite:${join(tmp, 'pg')}`, '--queue', redis.url]);
    expect([pglite.code, pglite.stderr]).toEqual([2, expect.stringMatching(/^chunkwise: --sink pglite:.*: a PGlite folder takes one process, workers need a store they share: --sink postgres:\/\/… \(or lancedb:<dir> with every worker on this machine\)\n$/)]);
    expect(cli(['embed', docs[0], '--queue', redis.url]).stderr).toBe('chunkwise: --queue needs --sink: the store the workers write (postgres://… or lancedb:<dir>)\n');
    expect(cli(['embed', docs[0], '--wait']).stderr).toBe('chunkwise: --wait, --wait-timeout, --batch-files and --queue-name go with --queue redis://…\n');
    expect(cli(['worker', '--queue', 'http://x']).stderr).toMatch(/^chunkwise: .*queue.*http:\/\/x.*redis:\/\/host:port/);
  });
});

describe('runEmbedJob() in process (no Redis): a job of many documents into a postgres:// URL that names its table', () => {
  it('one run for the job: the URL\'s ?table= is used (no "chunks" forced on it), the rows equal an in-process embed --sink run; a job with an unreadable document still writes the others, then fails for good naming it', async () => {
    const { startPgServer } = await import('./helpers/pg-server.js');
    const { runEmbedJob, JobResources, JobDocumentsError } = await import('../src/apps/queue/worker.js');
    const { openPostgresSink } = await import('../src/sinks/postgres.js');
    const server = await startPgServer();
    const dir = join(tmp, 'job-docs');
    const files = writeDocuments(dir, 6);
    const options = { sink: server.url('job_rows'), embedder: 'hashing', strategy: 'recursive', chunkSize: 128, chunkOverlap: 0 };
    const resources = new JobResources();
    const rowsOf = async (url: string) => {
      const sink = await openPostgresSink(url);
      try {
        return (await sink.rows()).map((r) => `${r.source}\t${r.id}\t${r.text}\t${Array.from(r.vector).join(',')}`).sort();
      } finally {
        await sink.close();
      }
    };
    try {
      const result = await runEmbedJob({ documents: files.map((path) => ({ path })), options }, resources);
      expect(result.documents).toBe(6);
      const r = cli(['embed', dir, ...chunking, '--embedder', 'hashing', '--sink', server.url('clean_rows'), '--quiet']);
      expect(r.code, r.stderr).toBe(0);
      const rows = await rowsOf(server.url('job_rows'));
      expect(rows.length).toBe(result.chunks);
      expect(rows).toEqual(await rowsOf(server.url('clean_rows')));

      const gone = join(dir, 'gone.txt');
      const more = writeDocuments(join(tmp, 'job-docs-2'), 2);
      const failed = await runEmbedJob({ documents: [more[0], gone, more[1]].map((path) => ({ path })), options: { ...options, sink: server.url('job_rows_2') } }, resources).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(JobDocumentsError);
      expect((failed as InstanceType<typeof JobDocumentsError>).reasons).toEqual([expect.stringContaining(gone)]);
      expect(new Set((await rowsOf(server.url('job_rows_2'))).map((line) => line.split('\t')[0]))).toEqual(new Set(more));
    } finally {
      await resources.close();
      await server.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('runEmbedJob() in process (no Redis): documents through the pipeline\'s load stage', () => {
  it('a PDF without an extension (sniffed), a Word file and a scanned PDF into LanceDB: the PDF rows keep the pages and boxes `chunk` gives, the Word rows are html; the scanned PDF fails the job for good, naming it, after the others are written', async () => {
    const { runEmbedJob, JobResources, JobDocumentsError } = await import('../src/apps/queue/worker.js');
    const documents = join(repoRoot, 'test', 'fixtures', 'documents');
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-job-documents-'));
    const resources = new JobResources();
    try {
      const pdf = join(dir, 'report-download');
      writeFileSync(pdf, readFileSync(join(documents, 'report.pdf')));
      const docx = join(dir, 'handbook.docx');
      writeFileSync(docx, readFileSync(join(documents, 'handbook.docx')));
      const scanned = join(dir, 'scanned.pdf');
      writeFileSync(scanned, readFileSync(join(documents, 'scanned.pdf')));
      const options = { sink: `lancedb:${join(dir, 'db')}`, embedder: 'hashing', strategy: 'auto', chunkSize: 200 };
      const failed = await runEmbedJob({ documents: [pdf, scanned, docx].map((path) => ({ path })), options }, resources).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(JobDocumentsError);
      expect((failed as InstanceType<typeof JobDocumentsError>).reasons).toEqual([expect.stringMatching(new RegExp(`^${scanned}: Cannot read "${scanned}": .*OCR`))]);
      await resources.close();
      const sink = await LanceDbSink.open(join(dir, 'db'));
      try {
        const rows = (await sink.rows(pdf)).sort((a, b) => a.start - b.start);
        const want = cli(['chunk', join(documents, 'report.pdf'), '--chunk-size', '200']).stdout.trim().split('\n').map((l) => JSON.parse(l));
        expect(rows.map((r) => [r.start, r.end, r.metadata.pages, r.metadata.boxes])).toEqual(want.map((c) => [c.start, c.end, c.metadata.pages, c.metadata.boxes]));
        const words = await sink.rows(docx);
        expect(words.length).toBeGreaterThan(1);
        expect(words.every((r) => r.metadata.strategy === 'html' && r.metadata.documentFormat === 'docx-html')).toBe(true);
        expect(await sink.rows(scanned)).toEqual([]);
      } finally {
        await sink.close();
      }
    } finally {
      await resources.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
