/**
 * Generates a large text file from the evaluation corpora (eval/corpora) and chunks it with the CLI's
 * stream path in a child process, reporting peak RSS (maxRSS of the child), time and
 * throughput. Used by test/stream.memory.test.ts (200 MB) and scripts/stream-1gb.ts (1 GB).
 * @module
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corporaDir = join(root, 'eval', 'corpora');

/** Writes (once) a file of `mb` × 10^6 bytes of corpus text, cut at a whole line; returns its path. */
export function bigFile(mb: number): string {
  const path = join('/tmp', `chunkwise-stream-${mb}mb.txt`);
  const bytes = mb * 1e6;
  if (existsSync(path) && statSync(path).size === bytes) return path;
  const corpus = ['finance', 'pubmed', 'state_of_the_union', 'wikitexts']
    .map((n) => readFileSync(join(corporaDir, `${n}.md`), 'utf8'))
    .join('\n\n');
  const block = Buffer.from(corpus + '\n', 'utf8');
  const fd = openSync(path, 'w');
  let written = 0;
  while (written < bytes) {
    const n = Math.min(block.length, bytes - written);
    writeSync(fd, block, 0, n);
    written += n;
  }
  closeSync(fd);
  return path;
}

/** What one run measured. */
export interface StreamRun {
  file: string;
  bytes: number;
  /** Peak resident set size of the CLI process, MB (10^6 bytes). */
  peakRssMb: number;
  seconds: number;
  /** User + system CPU time of the child, s (wall time suffers on a loaded machine). */
  cpuSeconds: number;
  mbPerSec: number;
  chunks: number;
  /** The last chunk's `end` (UTF-16 offset). */
  lastEnd: number;
}

/** Runs `chunkwise chunk <file> ...args` in a child process; counts its output lines as they stream. */
export function runCliOnFile(file: string, args: string[]): Promise<StreamRun> {
  const bin = join(root, 'dist', 'src', 'cli', 'bin.js');
  const report = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('maxRSS='+u.maxRSS+' cpu='+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', report, bin, 'chunk', file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let chunks = 0;
    let tail = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) chunks++;
      tail = (tail + s).slice(-4096);
    });
    child.stderr.on('data', (s: Buffer) => (stderr += s.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const m = /maxRSS=(\d+) cpu=(\d+)/.exec(stderr);
      if (code !== 0 || !m) return reject(new Error(`chunkwise exited ${code}: ${stderr}`));
      const lines = tail.trimEnd().split('\n');
      const last = JSON.parse(lines[lines.length - 1]) as { end: number };
      const bytes = statSync(file).size;
      resolvePromise({
        file,
        bytes,
        peakRssMb: (Number(m[1]) * 1024) / 1e6,
        seconds,
        cpuSeconds: Number(m[2]) / 1e6,
        mbPerSec: bytes / 1e6 / seconds,
        chunks,
        lastEnd: last.end,
      });
    });
  });
}
