/**
 * Ten kill -9 points per sink (LanceDB folder, PGlite folder, Postgres over the wire —
 * PGlite served by pglite-socket on a loopback port) in a 40-file `chunkwise embed
 * --sink` run of the built CLI, each followed by a rerun: the store must equal a clean
 * run of the same corpus version (sorted source, id, text, vector) every time. The kills
 * land at 10 moments from 10 % to 95 % of a run's duration (the run just before, so the
 * moments follow the machine's load), alternating between two
 * versions of the corpus (so a kill falls between adding, keeping and removing rows).
 * test/sink-faults.test.ts runs 3 points per sink; this runs all 10 (minutes).
 *
 *   npm run build && npx tsx scripts/sink-kill-points.ts [points=10] [lancedb,pglite,postgres]
 *
 * Prints one line per point (kill time, whether the run was killed or had ended, rows,
 * equal or not) and exits 1 when a rerun differs from the clean run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPgServer } from '../test/helpers/pg-server.js';
import { embedArgs, faultStores, killFractions, runCli, snapshot, writeCorpus } from '../test/helpers/sink-faults.js';

const n = Number(process.argv[2] ?? 10);
const kinds = (process.argv[3] ?? 'lancedb,pglite,postgres').split(',');
const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-kill-points-'));
const server = await startPgServer();
let failed = 0;
try {
  for (const store of faultStores(tmp, () => server.url).filter((s) => kinds.includes(s.kind))) {
    const corpus = join(tmp, `${store.kind}-corpus`);
    const expect = async (what: string, code: number | null, stderr: string) => {
      if (code !== 0) throw new Error(`${store.kind}: ${what} exited ${code}: ${stderr}`);
    };
    writeCorpus(corpus, 'b');
    const b = await runCli(embedArgs(corpus, store.spec('clean_b')));
    await expect('clean run b', b.code, b.stderr);
    writeCorpus(corpus, 'a');
    const a = await runCli(embedArgs(corpus, store.spec('clean_a')));
    await expect('clean run a', a.code, a.stderr);
    const clean = { a: (await snapshot(store, 'clean_a')).lines, b: (await snapshot(store, 'clean_b')).lines };
    console.log(`${store.kind}: clean run ${a.ms} ms, ${clean.a.length} rows (version b ${clean.b.length})`);
    let killed = 0;
    let last = a.ms;
    for (const [i, f] of killFractions(n).entries()) {
      const version = i % 2 === 0 ? 'a' : 'b';
      const ms = Math.round(f * last);
      writeCorpus(corpus, version);
      const r = await runCli(embedArgs(corpus, store.spec('clean_b')), { killAfterMs: ms });
      if (r.signal === 'SIGKILL') killed++;
      const mid = await snapshot(store, 'clean_b');
      const again = await runCli(embedArgs(corpus, store.spec('clean_b')));
      await expect(`rerun after the kill at ${ms} ms`, again.code, again.stderr);
      last = again.ms;
      const after = await snapshot(store, 'clean_b');
      const equal = after.rows === clean[version].length && after.lines.every((l, j) => l === clean[version][j]);
      if (!equal) failed++;
      console.log(`${store.kind} point ${i + 1}: kill at ${ms} ms (${r.signal === 'SIGKILL' ? 'killed' : `had ended, exit ${r.code}`}), ${mid.rows} rows after the kill, ${after.rows} after the rerun: ${equal ? 'equal to the clean run' : 'DIFFERENT'}`);
    }
    console.log(`${store.kind}: ${killed} of ${n} runs killed before their end`);
  }
} finally {
  await server.stop();
}
process.exit(failed === 0 ? 0 : 1);
