/**
 * Streams bounded on every script (issue 38): 8 MB by default (64 MB on request) of generated text with no line
 * breaks — Chinese and Japanese without spaces, Thai without spaces between words,
 * base64-like text with no whitespace or punctuation at all, and English prose on one
 * line — through every streaming strategy (fixed, sliding, sentence, markdown,
 * cluster-semantic with its default hashing embedder) in char, word and token units, with
 * their default sizes. Each case runs in its own child process
 * (test/helpers/stream-probe.mjs, over the built package; two at a time) so its peak RSS
 * is its own; the first chunk must come out after at most 1 MB of input has been read, the
 * process must stay under 300 MB RSS, and the last chunk must reach the last
 * non-whitespace character.
 *
 * `CHUNKWISE_PROBE_ENTRY` points the children at another build's entry module (to show
 * the test fails on a build without bounded cuts); `CHUNKWISE_PROBE_MB` changes the size:
 * CI runs 8 MB (a build that reads everything first fails there too: its first chunk comes
 * after 8 MB); the 64 MB is `CHUNKWISE_PROBE_MB=64` (about an hour on 2 cores, the
 * figures are in docs/streaming.md).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';

const run = promisify(execFile);

const MB = Number(process.env.CHUNKWISE_PROBE_MB ?? 8);
const ENTRY = process.env.CHUNKWISE_PROBE_ENTRY ?? join(repoRoot, 'dist', 'src', 'index.js');

interface Probe {
  read: number;
  length: number;
  firstAt: number;
  chunks: number;
  lastEnd: number;
  lastText: number;
  peakRssMb: number;
  seconds: number;
  error?: string;
}

async function probe(strategy: string, unit: string, script: string): Promise<Probe> {
  const { stdout } = await run(process.execPath, [join(repoRoot, 'test', 'helpers', 'stream-probe.mjs'), strategy, unit, script, String(MB), ENTRY], {
    cwd: repoRoot,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as Probe;
}

const scripts = ['cjk', 'thai', 'unspaced', 'oneline'];

/** Runs `jobs` with at most `n` at a time; results in order. */
async function pool<T>(jobs: Array<() => Promise<T>>, n: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const k = next++;
      out[k] = await jobs[k]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, jobs.length) }, worker));
  return out;
}

describe(`${MB} MB of one-line text in every script, streamed`, () => {
  for (const strategy of ['fixed', 'sliding', 'sentence', 'markdown', 'cluster-semantic']) {
    for (const unit of ['char', 'word', 'token']) {
      // word units segment CJK and Thai with Intl.Segmenter: a few seconds per million characters
      it(`${strategy}, ${unit} units: first chunk after ≤ 1 MB read, peak RSS < 300 MB, nothing lost`, { timeout: 3_600_000 }, async () => {
        const failures: string[] = [];
        const probes = await pool(
          scripts.map((script) => () => probe(strategy, unit, script)),
          2,
        );
        probes.forEach((p, k) => {
          const script = scripts[k];
          console.log(
            `${strategy} ${unit} ${script}: first chunk after ${(p.firstAt / 1e6).toFixed(3)} MB of ${(p.read / 1e6).toFixed(1)} MB, peak RSS ${p.peakRssMb.toFixed(0)} MB, ${p.chunks} chunks, ${p.seconds.toFixed(1)} s`,
          );
          if (p.error) failures.push(`${script}: ${p.error}`);
          if (p.read < MB * 1e6) failures.push(`${script}: read ${p.read} bytes`);
          if (!(p.firstAt >= 0 && p.firstAt <= 1e6)) failures.push(`${script}: first chunk after ${p.firstAt} bytes`);
          if (!(p.peakRssMb < 300)) failures.push(`${script}: peak RSS ${p.peakRssMb.toFixed(0)} MB`);
          if (p.lastEnd !== p.lastText) failures.push(`${script}: last chunk ends at ${p.lastEnd}, the text at ${p.lastText}`);
        });
        expect(failures).toEqual([]);
      });
    }
  }
});
