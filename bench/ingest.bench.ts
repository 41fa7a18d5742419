/**
 * Ingestion end to end (`npm run bench -- ingest`, issue 34): `chunkwise embed` (the built
 * CLI, a child process per run) over a generated corpus of real text — the eval corpora,
 * the eval Markdown chapters, docs/*.md and the README, concatenated and cut into
 * documents of 20–30 KB at rotating offsets — with the hashing embedder and markdown 256
 * tokens, into `--format jsonl` (to /dev/null), `--sink lancedb:`, `--sink pglite:` and a
 * Postgres server over the wire (PGlite served by pglite-socket on a loopback port, as
 * the tests do). For each sink: a first run, a rerun with nothing changed, a rerun after
 * editing 1 % of the documents, 100 new documents into an empty table and into the
 * table of the whole corpus (the cost per document as the table grows), and the first
 * run's peak RSS (the child's own `resourceUsage().maxRSS`). The sinks run interleaved
 * in each pass; figures are medians over the passes, ratios of medians; the load average
 * is printed beside. Optional: the queue with 1 and 2 workers into Postgres
 * (`INGEST_QUEUE=1`, needs redis-server; `INGEST_BATCH_FILES=1,25`: files per job, one
 * row each), `INGEST_SINKS=lancedb,pglite` to run only those sinks beside jsonl
 * (`none`: jsonl only), and `INGEST_COMPARE=<another build's dist/src/cli/bin.js>`: that
 * build's first runs beside this one's, in the same passes (before/after in one run).
 * Also printed: the cost of the first and the last 100 documents within each first run
 * (when each document's chunking starts, from a preloaded hook on `fs.open`), and each
 * store's floor (a process that only opens it empty: seconds and peak RSS). Needs
 * `npm run build` (runs dist/).
 *
 *   npx tsx bench/ingest.bench.ts                  # INGEST_DOCS=1000 INGEST_PASSES=3
 *   INGEST_DOCS=400 INGEST_PASSES=1 npx tsx bench/ingest.bench.ts
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startPgServer, type PgServer } from '../test/helpers/pg-server.js';
import { corporaDir, markdownDir, repoRoot } from './util.js';

const bin = join(repoRoot, 'dist', 'src', 'cli', 'bin.js');
const DOCS = Number(process.env.INGEST_DOCS ?? 1000);
const PASSES = Number(process.env.INGEST_PASSES ?? 3);
const NEW_DOCS = 100;
const chunking = ['--strategy', 'markdown', '--chunk-size', '256', '--embedder', 'hashing', '--quiet'];
/**
 * Preloaded into each child: at exit it reports its own peak RSS (kB, Linux) and, for the
 * files under `INGEST_TRACE_DIR`, when each was last opened (ms since the child started; a
 * run with a sink opens a file twice, to hash it and then to chunk it: the last open is
 * where its chunking starts). Documents are chunked in file-name order. The main thread
 * only (a worker thread, e.g. PGlite's, runs the preload too).
 */
const REPORT = `data:text/javascript,${encodeURIComponent(`import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';
const dir = process.env.INGEST_TRACE_DIR, opens = new Map();
if (isMainThread) {
if (dir) { const open = fs.open; fs.open = function (path, ...rest) { if (typeof path === 'string' && path.startsWith(dir)) opens.set(path, performance.now()); return open.call(this, path, ...rest); }; }
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write('maxRSS=' + u.maxRSS + ' cpu=' + (u.userCPUTime + u.systemCPUTime) + '\\n');
  if (dir) process.stderr.write('opens=' + JSON.stringify([...opens.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, t]) => Math.round(t))) + '\\n');
});
}`)}`;
/** A build to compare with (`INGEST_COMPARE=path/to/dist/src/cli/bin.js`): its first runs beside this build's, in the same passes. */
const COMPARE = process.env.INGEST_COMPARE;

/** The real text the documents are cut from. */
function sourceText(): string {
  const md = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => readFileSync(join(dir, f), 'utf8'));
  return [...md(corporaDir), ...md(markdownDir), ...md(join(repoRoot, 'docs')), readFileSync(join(repoRoot, 'README.md'), 'utf8')].join('\n\n');
}

/** Document `i`: 20–30 KB of the text from a rotating offset, starting at a line. */
function documentText(text: string, i: number): string {
  const size = 20_000 + ((i * 7919) % 10_000);
  let start = (i * 104_729) % text.length;
  start = text.indexOf('\n', start) + 1;
  const doubled = text + '\n\n' + text;
  return `# Document ${i}\n\n` + doubled.slice(start, start + size);
}

/** `text` with a paragraph added in its middle (the 1 % edit). */
function edited(text: string, i: number): string {
  const at = text.indexOf('\n\n', text.length >> 1);
  return text.slice(0, at) + `\n\nEdit ${i}: a paragraph added by the benchmark's rerun, so this document's middle chunks change.\n\n` + text.slice(at);
}

/** Writes documents `from`..`to - 1` into `dir`; returns their UTF-8 bytes. */
function writeDocuments(dir: string, text: string, from: number, to: number): number {
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const t = documentText(text, i);
    writeFileSync(join(dir, `doc-${String(i).padStart(4, '0')}.md`), t);
    bytes += Buffer.byteLength(t);
  }
  return bytes;
}

interface Run {
  seconds: number;
  rssMb: number;
  stderr: string;
  /** The child's own CPU seconds (user + system). */
  cpuSeconds: number;
  /** Seconds from the first document's chunking to the 100th's, and from the (n − 100)th's to the last's (with `trace`). */
  first100?: number;
  last100?: number;
}

/** Runs the CLI (asynchronously: the Postgres server in a child answers meanwhile); rejects on a non-zero exit. `trace`: the documents' folder, timed per document. */
function cli(args: string[], options: { trace?: string; bin?: string } = {}): Promise<Run> {
  const t0 = performance.now();
  const env = { ...process.env, CI: '1', ...(options.trace ? { INGEST_TRACE_DIR: options.trace + '/' } : {}) };
  const child = spawn(process.execPath, ['--import', REPORT, options.bin ?? bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      const m = /maxRSS=(\d+)/.exec(stderr);
      const opens = /opens=(\[.*\])/.exec(stderr);
      const t = opens ? (JSON.parse(opens[1]) as number[]) : [];
      const span = t.length > NEW_DOCS ? { first100: (t[NEW_DOCS] - t[0]) / 1000, last100: (t[t.length - 1] - t[t.length - 1 - NEW_DOCS]) / 1000 } : {};
      const cpu = /cpu=(\d+)/.exec(stderr);
      if (code !== 0) reject(new Error(`chunkwise ${args.slice(0, 3).join(' ')} exited ${code}: ${stderr}`));
      else resolve({ seconds, rssMb: m ? (Number(m[1]) * 1024) / 1e6 : NaN, cpuSeconds: cpu ? Number(cpu[1]) / 1e6 : NaN, stderr: stderr.replace(/maxRSS=\d+ cpu=\d+\n/, '').replace(/opens=.*\n/, ''), ...span });
    });
  });
}

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

type Kind = 'jsonl' | 'lancedb' | 'pglite' | 'postgres';
type Step = 'first' | 'unchanged' | 'edited' | 'new100Empty' | 'new100Full' | 'rss' | 'first100' | 'last100' | 'firstBefore' | 'rssBefore' | 'floorNew' | 'floorNewRss' | 'floorReopen' | 'floorReopenRss';

/** The CLI arguments of a run of `dir` into a store of `kind` named `name`. */
function target(kind: Kind, tmp: string, name: string, server: PgServer): string[] {
  if (kind === 'jsonl') return ['--format', 'jsonl', '--out', '/dev/null'];
  if (kind === 'lancedb') return ['--sink', `lancedb:${join(tmp, `lance-${name}`)}`];
  if (kind === 'pglite') return ['--sink', `pglite:${join(tmp, `pglite-${name}`)}`];
  return ['--sink', server.url(name.replace(/-/g, '_'))];
}

/**
 * The floor of a sink: a child process that only opens a store in a new folder (PGlite:
 * its initdb), prepares a 384-dimension table and closes it, then the same again on the
 * folder it made; seconds and peak RSS of each child.
 */
async function floorOf(kind: 'lancedb' | 'pglite', dir: string): Promise<{ newSeconds: number; newRssMb: number; reopenSeconds: number; reopenRssMb: number }> {
  const sinks = pathToFileURL(join(repoRoot, 'dist', 'src', 'apps', 'node', 'sinks.js')).href;
  const script = `const { openSink } = await import(${JSON.stringify(sinks)}); const t0 = performance.now(); const s = await openSink(${JSON.stringify(`${kind}:${dir}`)}); await s.prepare(384); await s.close(); process.stderr.write('seconds=' + (performance.now() - t0) / 1000 + '\\n');`;
  const once = () =>
    new Promise<{ seconds: number; rssMb: number }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', REPORT, '--input-type=module', '-e', script], { env: { ...process.env, LANCEDB_LOG: 'error' }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('error', reject);
      child.once('close', (code) => {
        const seconds = /seconds=([\d.]+)/.exec(stderr);
        const rss = /maxRSS=(\d+)/.exec(stderr);
        if (code !== 0 || !seconds || !rss) reject(new Error(`${kind} floor: exited ${code}: ${stderr}`));
        else resolve({ seconds: Number(seconds[1]), rssMb: (Number(rss[1]) * 1024) / 1e6 });
      });
    });
  const fresh = await once();
  const again = await once();
  return { newSeconds: fresh.seconds, newRssMb: fresh.rssMb, reopenSeconds: again.seconds, reopenRssMb: again.rssMb };
}

/** CPU seconds (user + system) a live process has used so far, from /proc (Linux); NaN elsewhere. */
function procCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

/** Pids of this process's children whose command line contains `needle`. */
function childPids(needle: string): number[] {
  const out: number[] = [];
  for (const entry of existsSync('/proc') ? readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** LanceDB versions of a table folder (one manifest file per version). */
function lanceVersions(dir: string): number {
  const versions = join(dir, 'chunks.lance', '_versions');
  return existsSync(versions) ? readdirSync(versions).length : NaN;
}

/** Runs the ingest bench; returns Markdown. */
export async function runIngestBench(): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-ingest-bench-'));
  const server = await startPgServer();
  const load0 = os.loadavg()[0];
  try {
    const text = sourceText();
    const docs = join(tmp, 'docs');
    const bytes = writeDocuments(docs, text, 0, DOCS);
    const fresh = join(tmp, 'new');
    writeDocuments(fresh, text, DOCS, DOCS + NEW_DOCS);
    const editedFiles = Array.from({ length: Math.max(1, Math.round(DOCS / 100)) }, (_, k) => Math.floor((k * DOCS) / Math.max(1, Math.round(DOCS / 100))));
    const only = process.env.INGEST_SINKS?.split(',');
    const kinds = (['jsonl', 'lancedb', 'pglite', 'postgres'] as Kind[]).filter((k) => k === 'jsonl' || !only || only.includes(k));
    const times = new Map<string, number[]>();
    const put = (kind: Kind, step: Step, x: number) => {
      const key = `${kind} ${step}`;
      if (!times.has(key)) times.set(key, []);
      times.get(key)!.push(x);
    };
    const versions: number[] = [];
    const summaries: string[] = [];
    for (let pass = 0; pass < PASSES; pass++) {
      // a different order of the sinks each pass: each meets the machine's load alike
      const order = kinds.map((_, k) => kinds[(k + pass) % kinds.length]);
      for (const kind of order) {
        const name = `p${pass}-${kind}`;
        const into = target(kind, tmp, name, server);
        if (COMPARE) {
          const before = await cli(['embed', docs, ...chunking, ...target(kind, tmp, `${name}-before`, server)], { bin: COMPARE });
          put(kind, 'firstBefore', before.seconds);
          put(kind, 'rssBefore', before.rssMb);
          for (const dir of [`lance-${name}-before`, `pglite-${name}-before`]) rmSync(join(tmp, dir), { recursive: true, force: true });
        }
        const first = await cli(['embed', docs, ...chunking, ...into, '--summary', 'json'], { trace: docs });
        put(kind, 'first', first.seconds);
        put(kind, 'rss', first.rssMb);
        put(kind, 'first100', first.first100 ?? NaN);
        put(kind, 'last100', first.last100 ?? NaN);
        if (pass === 0) summaries.push(`${kind}: ${first.stderr.trim()}`);
        if (kind === 'jsonl') continue;
        if (kind === 'lancedb' || kind === 'pglite') {
          const f = await floorOf(kind, join(tmp, `floor-${name}`));
          put(kind, 'floorNew', f.newSeconds);
          put(kind, 'floorNewRss', f.newRssMb);
          put(kind, 'floorReopen', f.reopenSeconds);
          put(kind, 'floorReopenRss', f.reopenRssMb);
          rmSync(join(tmp, `floor-${name}`), { recursive: true, force: true });
        }
        put(kind, 'unchanged', (await cli(['embed', docs, ...chunking, ...into])).seconds);
        const originals = editedFiles.map((i) => readFileSync(join(docs, `doc-${String(i).padStart(4, '0')}.md`), 'utf8'));
        editedFiles.forEach((i, k) => writeFileSync(join(docs, `doc-${String(i).padStart(4, '0')}.md`), edited(originals[k], i)));
        try {
          put(kind, 'edited', (await cli(['embed', docs, ...chunking, ...into])).seconds);
        } finally {
          editedFiles.forEach((i, k) => writeFileSync(join(docs, `doc-${String(i).padStart(4, '0')}.md`), originals[k]));
        }
        put(kind, 'new100Full', (await cli(['embed', fresh, ...chunking, ...into])).seconds);
        put(kind, 'new100Empty', (await cli(['embed', fresh, ...chunking, ...target(kind, tmp, `${name}-empty`, server)])).seconds);
        if (kind === 'lancedb') versions.push(lanceVersions(join(tmp, `lance-${name}`)));
        // the stores of this pass are not needed again: keep the disk small
        for (const dir of [`lance-${name}`, `pglite-${name}`, `lance-${name}-empty`, `pglite-${name}-empty`]) rmSync(join(tmp, dir), { recursive: true, force: true });
      }
    }
    const m = (kind: Kind, step: Step) => median(times.get(`${kind} ${step}`) ?? []);
    const jsonl = m('jsonl', 'first');
    const jsonlRss = m('jsonl', 'rss');
    const lines = [
      `${DOCS} documents, ${(bytes / 1e6).toFixed(1)} MB (UTF-8) cut from eval/corpora, eval/markdown, docs/*.md and README.md at rotating offsets (20–30 KB each); markdown 256 tokens, hashing embedder (384); \`chunkwise embed\` of dist/, one child process per run. ${PASSES} pass(es), the sinks in a rotated order each pass; medians. Load average (1 min) ${load0.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end (2 cores shared with other jobs).`,
      '',
      '| path | first run s | × jsonl | unchanged rerun s | × first | 1 % edited rerun s | × first | 100 new docs into the full table s | into an empty table s | full / empty | peak RSS MB | × jsonl RSS |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| \`embed --format jsonl\` | ${jsonl.toFixed(2)} | 1.00 | | | | | | | | ${jsonlRss.toFixed(0)} | 1.00 |`,
    ];
    const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '');
    for (const kind of kinds.slice(1)) {
      const first = m(kind, 'first');
      const label = kind === 'postgres' ? '`embed --sink postgres://` (pglite-socket)' : `\`embed --sink ${kind}:\``;
      lines.push(
        `| ${label} | ${first.toFixed(2)} | ${(first / jsonl).toFixed(2)} | ${m(kind, 'unchanged').toFixed(2)} | ${(m(kind, 'unchanged') / first).toFixed(2)} | ${m(kind, 'edited').toFixed(2)} | ${(m(kind, 'edited') / first).toFixed(2)} | ` +
          `${m(kind, 'new100Full').toFixed(2)} | ${m(kind, 'new100Empty').toFixed(2)} | ${(m(kind, 'new100Full') / m(kind, 'new100Empty')).toFixed(2)} | ${m(kind, 'rss').toFixed(0)} | ${(m(kind, 'rss') / jsonlRss).toFixed(2)} |`,
      );
    }
    lines.push(
      '',
      `Cost per document within the first run (seconds from the chunking of document 0 to that of document ${NEW_DOCS}, and from document ${DOCS - 1 - NEW_DOCS} to document ${DOCS - 1}: ${NEW_DOCS} documents each, start-up and the final writes outside both; medians):`,
      '',
      `| path | first ${NEW_DOCS} documents s | last ${NEW_DOCS} documents s | last / first |`,
      '|---|---:|---:|---:|',
      ...kinds.map((kind) => `| ${kind} | ${fmt(m(kind, 'first100'))} | ${fmt(m(kind, 'last100'))} | ${fmt(m(kind, 'last100') / m(kind, 'first100'))} |`),
    );
    const floors = kinds.filter((kind) => kind === 'lancedb' || kind === 'pglite');
    if (floors.length > 0) {
      lines.push(
        '',
        'The floor of each store: a process that only opens it in a new folder, prepares a 384-dimension table and closes it (PGlite: initdb), then the same on the folder it made; seconds and peak RSS, against the jsonl run:',
        '',
        '| store | new folder s | × jsonl run | peak RSS MB | × jsonl RSS | existing folder s | peak RSS MB | × jsonl RSS |',
        '|---|---:|---:|---:|---:|---:|---:|---:|',
        ...floors.map((kind) => `| ${kind} | ${fmt(m(kind, 'floorNew'))} | ${fmt(m(kind, 'floorNew') / jsonl)} | ${fmt(m(kind, 'floorNewRss'), 0)} | ${fmt(m(kind, 'floorNewRss') / jsonlRss)} | ${fmt(m(kind, 'floorReopen'))} | ${fmt(m(kind, 'floorReopenRss'), 0)} | ${fmt(m(kind, 'floorReopenRss') / jsonlRss)} |`),
      );
    }
    if (COMPARE) {
      const jsonlBefore = m('jsonl', 'firstBefore');
      lines.push(
        '',
        `First runs of the build at INGEST_COMPARE (${COMPARE}) and of this build, in the same passes (the compared build's run just before this one's):`,
        '',
        '| path | before s | × jsonl (before) | this build s | × jsonl | before peak RSS MB | this build MB |',
        '|---|---:|---:|---:|---:|---:|---:|',
        ...kinds.map((kind) => `| ${kind} | ${fmt(m(kind, 'firstBefore'))} | ${fmt(m(kind, 'firstBefore') / jsonlBefore)} | ${fmt(m(kind, 'first'))} | ${fmt(m(kind, 'first') / jsonl)} | ${fmt(m(kind, 'rssBefore'), 0)} | ${fmt(m(kind, 'rss'), 0)} |`),
      );
    }
    lines.push(
      '',
      `LanceDB table versions at the end of each pass (first run, two reruns, 100 more documents; optimize() after ≥ 8 writes of the chunks table in a run): ${versions.join(', ')}.`,
      '',
      'First-run summaries (pass 1):',
      '',
      ...summaries.map((s) => `- ${s}`),
    );
    if (process.env.INGEST_QUEUE === '1') lines.push('', await queueRows(tmp, docs, server));
    return lines.join('\n');
  } finally {
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The corpus over the queue into Postgres with 1 and 2 `chunkwise worker` processes (ready
 * before the clock starts), a row per `INGEST_BATCH_FILES` (files per job).
 */
async function queueRows(tmp: string, docs: string, server: PgServer): Promise<string> {
  const { startRedis } = await import('../test/helpers/redis.js');
  const { Queue } = await import('bullmq');
  const redis = await startRedis();
  const batches = (process.env.INGEST_BATCH_FILES ?? '1,25').split(',').map(Number);
  const rows: string[] = [];
  const summaries: string[] = [];
  const cpuRows: string[] = [];
  const serverPid = childPids('pglite-server.mjs')[0];
  const redisPid = childPids('redis-server')[0];
  try {
    for (const batch of batches) {
      const seconds: Record<number, number[]> = { 1: [], 2: [] };
      for (let round = 0; round < PASSES; round++) {
        for (const n of round % 2 === 0 ? [1, 2] : [2, 1]) {
          const name = `ingest-${batch}-${n}-${round}`;
          const workers: ChildProcess[] = Array.from({ length: n }, () => spawn(process.execPath, [bin, 'worker', '--queue', redis.url, '--queue-name', name, '--quiet'], { stdio: 'ignore' }));
          try {
            const queue = new Queue(name, { connection: { url: redis.url } });
            while ((await queue.getWorkers()).length < n) await new Promise((r) => setTimeout(r, 100));
            await queue.close();
            const server0 = procCpu(serverPid);
            const redis0 = procCpu(redisPid);
            const workers0 = workers.map((w) => procCpu(w.pid!));
            const load = os.loadavg()[0];
            const run = await cli(['embed', docs, ...chunking.filter((a) => a !== '--quiet'), '--no-progress', '--sink', server.url(`queue_${batch}_${n}_${round}`), '--queue', redis.url, '--queue-name', name, '--batch-files', String(batch), '--wait']);
            // --wait exits 1 when a job failed; a failed job also counts here (it would time nothing)
            if (!/ 0 failed/.test(run.stderr)) throw new Error(`queue run with ${n} worker(s): ${run.stderr}`);
            seconds[n].push(run.seconds);
            if (round === 0) {
              const worker = workers.reduce((sum, w, k) => sum + procCpu(w.pid!) - workers0[k], 0);
              const server = procCpu(serverPid) - server0;
              const redisCpu = procCpu(redisPid) - redis0;
              const total = worker + server + redisCpu + run.cpuSeconds;
              // on 2 cores: no faster than half the CPU it needs, nor than its serial parts (the one-threaded server)
              const bound = Math.max(total / 2, server);
              cpuRows.push(
                `| ${batch} | ${n} | ${run.seconds.toFixed(2)} | ${worker.toFixed(2)} | ${server.toFixed(2)} | ${redisCpu.toFixed(2)} | ${run.cpuSeconds.toFixed(2)} | ${total.toFixed(2)} | ${(total / run.seconds).toFixed(2)} | ${bound.toFixed(2)} | ${load.toFixed(1)} |`,
              );
            }
            if (round === 0) summaries.push(`${batch} file(s) a job, ${n} worker(s): ${run.stderr.trim().split('\n').pop()}`);
          } finally {
            await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : (w.once('exit', r), w.kill('SIGTERM'))))));
          }
        }
      }
      const one = median(seconds[1]);
      const two = median(seconds[2]);
      rows.push(`| ${batch} | ${one.toFixed(2)} | ${two.toFixed(2)} | **${(one / two).toFixed(2)}×** |`);
    }
    void tmp;
    return [
      `Queue into Postgres (pglite-socket), the same corpus, workers ready before the clock, \`embed --queue … --batch-files N --wait\` timed (median of ${PASSES}):`,
      '',
      '| files per job | 1 worker s | 2 workers s | 1 / 2 |',
      '|---:|---:|---:|---:|',
      ...rows,
      '',
      ...summaries.map((line) => `- ${line}`),
      '',
      'CPU seconds of each part during the first round of each row (workers from /proc before and after, the producer `embed --queue … --wait` its own, the pglite-socket server and redis-server from /proc); cores busy = CPU / wall; the shortest wall 2 cores allow = max(CPU / 2, the server\'s CPU: one thread):',
      '',
      '| files per job | workers | wall s | workers CPU s | server CPU s | Redis CPU s | producer CPU s | total CPU s | cores busy | shortest wall on 2 cores s | load |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...cpuRows,
    ].join('\n');
  } finally {
    await redis.stop();
  }
}

if (process.argv[1]?.endsWith('ingest.bench.ts')) {
  runIngestBench().then(
    (md) => process.stdout.write(md + '\n'),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
