/**
 * `chunkwise embed --sink` (the built CLI) under faults, for LanceDB, a PGlite folder and
 * a Postgres server over the wire (PGlite served by pglite-socket on a loopback port):
 *
 * - Two writers on one store: PGlite's second process gets a one-line error naming the
 *   first (exit 1) and the first ends normally; LanceDB's and Postgres' both end
 *   normally with each (source, id) once. The store then equals a clean run, and so does
 *   a rerun.
 * - Kill -9: a 40-file run killed at 3 moments spread over a run's duration (of the run
 *   just before)
 *   (switching between two versions of the corpus, so a kill lands between adding,
 *   keeping and removing rows), each followed by a rerun: the store equals a clean run
 *   of that version every time (sorted source, id, text, vector). Ten points per sink:
 *   `npx tsx scripts/sink-kill-points.ts` (too slow for the suite).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgServer, type PgServer } from './helpers/pg-server.js';
import { embedArgs, faultStores, killFractions, runCli, snapshot, writeCorpus, type RunResult } from './helpers/sink-faults.js';

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-sink-faults-'));
let server: PgServer;
beforeAll(async () => {
  server = await startPgServer();
});
afterAll(async () => {
  await server?.stop();
});

const ok = (r: RunResult) => expect(r.code, `${r.signal ?? ''} ${r.stderr}`).toBe(0);

describe.each(faultStores(tmp, () => server.url))('embed --sink $kind under faults', (store) => {
  const corpus = join(tmp, `${store.kind}-corpus`);
  const clean: Record<'a' | 'b', string[]> = { a: [], b: [] };
  let cleanMs = 0;

  it('clean runs of both versions of a 40-file corpus', async () => {
    writeCorpus(corpus, 'b');
    ok(await runCli(embedArgs(corpus, store.spec('clean_b'))));
    clean.b = (await snapshot(store, 'clean_b')).lines;
    writeCorpus(corpus, 'a');
    const a = await runCli(embedArgs(corpus, store.spec('clean_a')));
    ok(a);
    cleanMs = a.ms;
    clean.a = (await snapshot(store, 'clean_a')).lines;
    expect(clean.a.length).toBeGreaterThan(400);
    expect(new Set(clean.a).size).toBe(clean.a.length);
    const b = new Set(clean.b);
    const kept = clean.a.filter((l) => b.has(l)).length;
    expect(kept).toBeGreaterThan(clean.a.length / 2); // version b keeps most rows, changes some
    expect(kept).toBeLessThan(clean.a.length);
  }, 240_000);

  it('two writers at once', async () => {
    // PGlite: the folder already holds the corpus (the clean run's); the others start empty
    const name = store.kind === 'pglite' ? 'clean_a' : 'two';
    if (store.kind === 'pglite') {
      // the second opener comes while the first holds the lock
      const dir = store.spec(name).slice('pglite:'.length);
      let first = 0;
      const one = runCli(embedArgs(corpus, store.spec(name)), { onStart: (pid) => (first = pid) });
      const t0 = Date.now();
      while (!existsSync(join(dir, 'chunkwise.lock')) && Date.now() - t0 < 60_000) await new Promise((done) => setTimeout(done, 5));
      const two = await runCli(embedArgs(corpus, store.spec(name)));
      ok(await one);
      expect(two.code).toBe(1);
      expect(two.stderr).toBe(`chunkwise: ${store.spec(name)}: the database is in use by process ${first} (PGlite takes one writer; wait for it to end, or use a Postgres server for concurrent writers)\n`);
    } else {
      const [one, two] = await Promise.all([runCli(embedArgs(corpus, store.spec(name))), runCli(embedArgs(corpus, store.spec(name)))]);
      ok(one);
      ok(two);
    }
    const after = await snapshot(store, name);
    expect(after.rows).toBe(clean.a.length); // each key once
    expect(after.lines).toEqual(clean.a);
    ok(await runCli(embedArgs(corpus, store.spec(name))));
    expect((await snapshot(store, name)).lines).toEqual(clean.a);
  }, 240_000);

  it('kill -9 at 3 moments of a run, each followed by a rerun: the store equals a clean run every time', async () => {
    const name = 'clean_b'; // holds version b: the first point writes a over it
    const points: number[] = [];
    const killed: boolean[] = [];
    let last = cleanMs;
    for (const [i, f] of killFractions(3).entries()) {
      const version = i % 2 === 0 ? 'a' : 'b';
      const ms = Math.round(f * last);
      points.push(ms);
      writeCorpus(corpus, version);
      const r = await runCli(embedArgs(corpus, store.spec(name)), { killAfterMs: ms });
      killed.push(r.signal === 'SIGKILL');
      const again = await runCli(embedArgs(corpus, store.spec(name)));
      ok(again);
      last = again.ms;
      const after = await snapshot(store, name);
      expect(after.rows, `kill at ${ms} ms`).toBe(clean[version].length);
      expect(after.lines, `kill at ${ms} ms`).toEqual(clean[version]);
    }
    expect(killed.filter(Boolean).length, `kills at ${points.join(', ')} ms`).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
