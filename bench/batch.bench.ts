/**
 * Batch chunking with worker threads (issue 7): `chunkwise chunk <dir> --workers N` over a
 * generated folder of files cut from the shared corpora, at 1 and 2 workers, end to end
 * (process start, tokenizer load per worker, reading, chunking, JSONL to /dev/null), in
 * one tinybench run so the ratio compares like with like. Needs `npm run build` (runs dist/).
 *
 *   npx tsx bench/batch.bench.ts
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusText, repoRoot, runTasks, table } from './util.js';

/** Files and size of the generated folder. */
export const BATCH_FILES = 400;

function makeFolder(): { dir: string; bytes: number } {
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-batch-bench-'));
  const corpus = corpusText(['finance', 'pubmed', 'state_of_the_union', 'wikitexts']);
  let bytes = 0;
  for (let i = 0; i < BATCH_FILES; i++) {
    const sub = join(dir, `group-${i % 10}`);
    mkdirSync(sub, { recursive: true });
    const start = (i * 104729) % (corpus.length - 40_000);
    const text = corpus.slice(start, start + 5_000 + ((i * 7919) % 30_000));
    writeFileSync(join(sub, `doc-${i}.md`), text);
    bytes += Buffer.byteLength(text);
  }
  return { dir, bytes };
}

function cli(dir: string, workers: number, unitArgs: string[]): void {
  const bin = join(repoRoot, 'dist', 'src', 'cli', 'bin.js');
  const r = spawnSync(process.execPath, [bin, 'chunk', dir, ...unitArgs, '--workers', String(workers), '-o', '/dev/null'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`chunkwise failed: ${r.stderr}`);
}

/** Runs the batch bench; returns a Markdown table per unit with MB/s and × 1 worker. */
export async function runBatchBench(): Promise<string> {
  const { dir, bytes } = makeFolder();
  try {
    const out: string[] = [`${BATCH_FILES} files, ${(bytes / 1e6).toFixed(1)} MB (UTF-8), in 10 folders; fixed 512/64 tokens (cl100k_base) and 512/64 words.`];
    for (const [label, args] of [
      ['tokens', ['--strategy', 'fixed', '--unit', 'token', '--chunk-size', '512', '--chunk-overlap', '64']],
      ['words, no token count', ['--strategy', 'fixed', '--unit', 'word', '--chunk-size', '512', '--chunk-overlap', '64', '--no-token-count']],
    ] as const) {
      const rows = await runTasks(
        [1, 2].map((w) => ({ name: `${label}, --workers ${w}`, fn: () => cli(dir, w, [...args]), bytes })),
        { time: 0, iterations: 3, warmupIterations: 1 },
      );
      out.push('', table(rows, `${label}, --workers 1`));
    }
    return out.join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runBatchBench().then(
    (t) => console.log(t),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
