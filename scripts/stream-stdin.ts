/**
 * Streams a large file into `chunkwise chunk -` (stdin) with the CLI's defaults (fixed
 * 512/64, token units, cl100k_base) and reports the child's peak RSS, time, and how much
 * of the input had been written into the pipe when the first chunk came out (an upper
 * bound on what the CLI had read). For the figures of issue 11 and docs/streaming.md.
 *
 *   npm run build && npx tsx scripts/stream-stdin.ts [MB=1000] [-- extra chunk flags]
 * @module
 */
import { spawn } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bigFile } from './stream-big.js';

/** What one run through stdin measured. */
export interface StdinRun {
  bytes: number;
  peakRssMb: number;
  seconds: number;
  cpuSeconds: number;
  chunks: number;
  /** Bytes written into the CLI's stdin when its first output line arrived. */
  bytesBeforeFirstChunk: number;
  lastEnd: number;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Pipes `file` into `chunkwise chunk - ...args`. */
export function runCliOnStdin(file: string, args: string[] = []): Promise<StdinRun> {
  const bin = join(root, 'dist', 'src', 'cli', 'bin.js');
  const report = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('maxRSS='+u.maxRSS+' cpu='+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', report, bin, 'chunk', '-', '--quiet', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let written = 0;
    let firstAt = -1;
    let chunks = 0;
    let tail = '';
    let stderr = '';
    const input = createReadStream(file, { highWaterMark: 1 << 16 });
    input.on('data', (block) => {
      written += block.length;
      if (!child.stdin.write(block)) input.pause();
    });
    child.stdin.on('drain', () => input.resume());
    input.on('end', () => child.stdin.end());
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      if (firstAt < 0) firstAt = written;
      for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) chunks++;
      tail = (tail + s).slice(-8192);
    });
    child.stderr.on('data', (s: Buffer) => (stderr += s.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const m = /maxRSS=(\d+) cpu=(\d+)/.exec(stderr);
      if (code !== 0 || !m) return fail(new Error(`chunkwise exited ${code}: ${stderr}`));
      const lines = tail.trimEnd().split('\n');
      done({
        bytes: statSync(file).size,
        peakRssMb: (Number(m[1]) * 1024) / 1e6,
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: Number(m[2]) / 1e6,
        chunks,
        bytesBeforeFirstChunk: firstAt,
        lastEnd: (JSON.parse(lines[lines.length - 1]) as { end: number }).end,
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mb = Number(process.argv[2] ?? 1000);
  const extra = process.argv.slice(3).filter((a) => a !== '--');
  const file = bigFile(mb);
  const run = await runCliOnStdin(file, extra);
  console.log(`cat ${file} | chunkwise chunk - ${extra.join(' ')}`);
  console.log(
    `${(run.bytes / 1e6).toFixed(0)} MB: peak RSS ${run.peakRssMb.toFixed(0)} MB, ${run.seconds.toFixed(1)} s wall, ${run.cpuSeconds.toFixed(1)} s CPU, ${run.chunks} chunks; first chunk after ${(run.bytesBeforeFirstChunk / 1e6).toFixed(2)} MB written (${((100 * run.bytesBeforeFirstChunk) / run.bytes).toFixed(3)} % of the input)`,
  );
}
