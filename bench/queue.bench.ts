/**
 * The ingestion queue (`npm run bench -- queue`): documents/s and MB/s of one in-process
 * `embed --sink` run, and of the same files over the queue with 1 and 2 `chunkwise
 * worker` processes (workers started and ready before the clock starts; the producer
 * enqueues and follows with `--wait`); then the queue's own cost per job: BullMQ jobs
 * with an empty processor (ms per job, Redis commands per job from INFO's
 * total_commands_processed). Redis is Debian's redis-server on a loopback port. Needs
 * `npm run build` (runs dist/).
 *
 *   npx tsx bench/queue.bench.ts
 * @module
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { startRedis, type RedisServer } from '../test/helpers/redis.js';
import { corpusText, repoRoot } from './util.js';

const bin = join(repoRoot, 'dist', 'src', 'cli', 'bin.js');
const DOCS = 200;
const chunking = ['--strategy', 'recursive', '--chunk-size', '256', '--chunk-overlap', '0', '--embedder', 'hashing', '--quiet'];

function makeFolder(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const corpus = corpusText(['finance', 'pubmed', 'state_of_the_union', 'wikitexts']);
  let bytes = 0;
  for (let i = 0; i < DOCS; i++) {
    const start = (i * 104729) % (corpus.length - 20_000);
    const text = corpus.slice(start, start + 2_000 + ((i * 7919) % 8_000));
    writeFileSync(join(dir, `doc-${String(i).padStart(3, '0')}.txt`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

function cli(args: string[]): void {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, CI: '' } });
  if (r.status !== 0) throw new Error(`chunkwise ${args[0]} failed: ${r.stderr}`);
}

function redisCommands(redis: RedisServer): number {
  const port = new URL(redis.url).port;
  const info = spawnSync('redis-cli', ['-p', port, 'info', 'stats'], { encoding: 'utf8' }).stdout;
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? NaN);
}

async function workersReady(url: string, queueName: string, n: number): Promise<void> {
  const queue = new Queue(queueName, { connection: { url } });
  try {
    while ((await queue.getWorkers()).length < n) await new Promise((r) => setTimeout(r, 100));
  } finally {
    await queue.close();
  }
}

/** Seconds for the 200 documents over the queue with `n` worker processes. */
async function overQueue(redis: RedisServer, docs: string, store: string, n: number): Promise<number> {
  const name = `bench-${n}-${Date.now()}`;
  const workers: ChildProcess[] = Array.from({ length: n }, () => spawn(process.execPath, [bin, 'worker', '--queue', redis.url, '--queue-name', name, '--quiet'], { stdio: 'ignore' }));
  try {
    await workersReady(redis.url, name, n);
    const t0 = performance.now();
    cli(['embed', docs, ...chunking, '--sink', `lancedb:${store}`, '--queue', redis.url, '--queue-name', name, '--wait']);
    return (performance.now() - t0) / 1000;
  } finally {
    await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : (w.once('exit', r), w.kill('SIGTERM'))))));
  }
}

/** ms per job and Redis commands per job for `jobs` BullMQ jobs with an empty processor. */
async function queueCost(redis: RedisServer, jobs: number): Promise<{ ms: number; commands: number }> {
  const name = `cost-${Date.now()}`;
  const connection = { url: redis.url, maxRetriesPerRequest: null };
  const queue = new Queue(name, { connection });
  const worker = new Worker(name, async () => ({ documents: 1, chunks: 0 }), { connection, concurrency: 1 });
  await worker.waitUntilReady();
  const before = redisCommands(redis);
  const t0 = performance.now();
  const payload = { documents: [{ path: '/data/docs/doc-000.txt' }], options: { strategy: 'recursive', chunkSize: 256, embedder: 'hashing', sink: 'postgres://db/rag' } };
  for (let i = 0; i < jobs; i += 500) {
    await queue.addBulk(Array.from({ length: Math.min(500, jobs - i) }, () => ({ name: 'embed', data: payload, opts: { attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { count: 100_000 } } })));
  }
  while ((await queue.getJobCounts('completed')).completed < jobs) await new Promise((r) => setTimeout(r, 20));
  const ms = (performance.now() - t0) / jobs;
  const commands = (redisCommands(redis) - before) / jobs;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return { ms, commands };
}

/** Runs the queue bench; returns Markdown. */
export async function runQueueBench(): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-queue-bench-'));
  const redis = await startRedis();
  try {
    const docs = join(tmp, 'docs');
    const bytes = makeFolder(docs);
    const rounds = 2;
    const times: Record<string, number[]> = { 'in-process embed --sink': [], 'queue, 1 worker': [], 'queue, 2 workers': [] };
    // interleaved rounds: each configuration once per round, a fresh store each time
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      cli(['embed', docs, ...chunking, '--sink', `lancedb:${join(tmp, `in-${r}`)}`]);
      times['in-process embed --sink'].push((performance.now() - t0) / 1000);
      times['queue, 1 worker'].push(await overQueue(redis, docs, join(tmp, `q1-${r}`), 1));
      times['queue, 2 workers'].push(await overQueue(redis, docs, join(tmp, `q2-${r}`), 2));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const base = median(times['queue, 1 worker']);
    const lines = [
      `${DOCS} documents, ${(bytes / 1e6).toFixed(2)} MB (UTF-8) cut from the eval corpora; recursive 256/0 tokens, hashing embedder, a LanceDB folder; ${rounds} interleaved rounds, median.`,
      '',
      '| run | seconds | documents/s | MB/s | × 1 worker |',
      '|---|---:|---:|---:|---:|',
    ];
    for (const [name, xs] of Object.entries(times)) {
      const s = median(xs);
      lines.push(`| ${name} | ${s.toFixed(2)} | ${(DOCS / s).toFixed(1)} | ${(bytes / 1e6 / s).toFixed(3)} | ${(base / s).toFixed(2)} |`);
    }
    const cost = await queueCost(redis, 2000);
    lines.push('', `Queue cost alone (2,000 BullMQ jobs with the embed job's payload and an empty processor, one worker): ${cost.ms.toFixed(2)} ms per job, ${cost.commands.toFixed(1)} Redis commands per job.`);
    return lines.join('\n');
  } finally {
    await redis.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('queue.bench.ts')) {
  runQueueBench().then((md) => process.stdout.write(md + '\n'));
}
