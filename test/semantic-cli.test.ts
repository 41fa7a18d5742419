import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeEncoderOnnx, writeOnnxFolder } from './helpers/embedder-fixtures.js';
import { expectInvariants } from './helpers/invariants.js';
import { cliBin, corporaDir, seedsDir } from './helpers/paths.js';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [cliBin, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'chunkwise-semcli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chunkwise chunk --strategy semantic|late, chunkwise qasc', () => {
  it('semantic on a real corpus: exact slices, disjoint, maxChunkSize holds', () => {
    const file = join(corporaDir, 'state_of_the_union.md');
    const r = run(['chunk', file, '--strategy', 'semantic', '--max-chunk-size', '200', '--breakpoint', 'interquartile']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    const records = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(20);
    expectInvariants(text, records, { unit: 'token', budget: 200 });
    let prevEnd = 0;
    for (const c of records) {
      expect(c.start).toBeGreaterThanOrEqual(prevEnd);
      expect(c.tokenCount).toBeLessThanOrEqual(200);
      expect(c.metadata.strategy).toBe('semantic');
      prevEnd = c.end;
    }
  });

  it('late needs a token-level model; with the fixture it writes a vector per chunk', () => {
    const bad = run(['chunk', join(seedsDir, '004_671b0f59775d2df1.txt'), '--strategy', 'late']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--embedder onnx:<folder>/);
    writeOnnxFolder(join(dir, 'encoder'), makeEncoderOnnx({ d: 16, seed: 7 }).bytes, { pooling: 'mean' });
    const r = run(['chunk', join(seedsDir, '004_671b0f59775d2df1.txt'), '--strategy', 'late', '--embedder', `onnx:${join(dir, 'encoder')}`, '--chunk-size', '128']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const records = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(5);
    for (const c of records) {
      expect(c.vector).toHaveLength(16);
      expect(c.metadata.macroWindows).toBeGreaterThan(1); // the fixture reads 32 tokens
    }
  }, 60_000);

  it('qasc answers the Dutch latency question from the seeds, with --explain', () => {
    const seeds = ['000_8f226b84e52f95a9.txt', '004_671b0f59775d2df1.txt'].map((s) => join(seedsDir, s));
    const r = run(['qasc', ...seeds, '--query', 'wat is de latentie van QASC?', '--top-k', '1', '--m', '1', '--explain']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/#1 {2}S = 0\.\d{4} {2}.*004_671b0f59775d2df1\.txt/);
    expect(r.stdout).toContain('380 ms');
    expect(r.stdout).toMatch(/τ = 0\.\d{4} {2}κ·τ = 0\.\d{4}/);
    const j = run(['qasc', seeds[1], '-q', 'latentie', '--format', 'jsonl']);
    const recs = j.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(recs.length).toBeGreaterThan(0);
    expect(recs[0].metadata.strategy).toBe('qasc');
    expect(run(['qasc', seeds[1]]).code).toBe(2); // --query is required
    expect(run(['qasc', seeds[1], '-q', 'x', '--p', '150']).code).toBe(2);
  });
});
