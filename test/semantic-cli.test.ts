import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeEncoderOnnx, writeOnnxFolder } from './helpers/embedder-fixtures.js';
import { expectInvariants } from './helpers/invariants.js';
import { cliBin, corporaDir, texts } from './helpers/paths.js';
import { QueryAdaptiveChunker } from '../src/strategies/qasc/qasc.js';
import { getTokenizer } from '../src/engine/size/tokens.js';

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
    const bad = run(['chunk', texts.nlQasc, '--strategy', 'late']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--embedder onnx:<folder>/);
    writeOnnxFolder(join(dir, 'encoder'), makeEncoderOnnx({ d: 16, seed: 7 }).bytes, { pooling: 'mean' });
    const r = run(['chunk', texts.nlQasc, '--strategy', 'late', '--embedder', `onnx:${join(dir, 'encoder')}`, '--chunk-size', '128']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const records = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(5);
    for (const c of records) {
      expect(c.vector).toHaveLength(16);
      expect(c.metadata.macroWindows).toBeGreaterThan(1); // the fixture reads 32 tokens
    }
  }, 60_000);

  it('qasc answers the Dutch latency question from texts/, with --explain', () => {
    const seeds = [texts.nlSliding, texts.nlQasc];
    // top 2: with the hashing embedder the fused rank puts the latency bullet first and the
    // closing section (it names "de extra latentie") second, as test/qasc.test.ts reports
    const r = run(['qasc', ...seeds, '--query', 'wat is de latentie van QASC?', '--top-k', '2', '--m', '1', '--explain']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/#1 {2}S = 0\.\d{4} {2}.*nl-qasc\.txt/);
    expect(r.stdout).toMatch(/#2 {2}S = 0\.\d{4} {2}.*nl-qasc\.txt/);
    expect(r.stdout).toContain('380 ms');
    expect(r.stdout).toMatch(/τ = 0\.\d{4} {2}κ·τ = 0\.\d{4}/);
    const j = run(['qasc', seeds[1], '-q', 'latentie', '--format', 'jsonl']);
    const recs = j.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(recs.length).toBeGreaterThan(0);
    expect(recs[0].metadata.strategy).toBe('qasc');
    expect(run(['qasc', seeds[1]]).code).toBe(2); // --query is required
    expect(run(['qasc', seeds[1], '-q', 'x', '--p', '150']).code).toBe(2);
  });

  it('qasc: every parameter has a flag, both modes run, the locale is detected by default', async () => {
    const seed = texts.nlQasc;
    const text = readFileSync(seed, 'utf8');
    const q = 'wat is de latentie van QASC?';
    const jsonl = (args: string[]) => {
      const r = run(['qasc', seed, '-q', q, '--format', 'jsonl', ...args]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return r.stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    };
    // whole-document mode equals the API with the same parameters (locale auto → nl)
    const whole = jsonl(['--mode', 'whole', '--top-k', '50', '--window', 'adaptive', '--secondary-percentile', '60', '--max-radius', '2', '--align-distance', '1', '--max-chunk-size', '100', '--lambda', '0.7', '--kappa', '0.5', '--p', '80']);
    const api = await new QueryAdaptiveChunker({ window: 'adaptive', secondaryPercentile: 60, maxRadius: 2, alignDistance: 1, maxChunkSize: 100, lambda: 0.7, kappa: 0.5, p: 80, locale: 'nl' }).query(text, q);
    expect(whole.map((r) => [r.start, r.end, r.metadata.score])).toEqual(api.map((c) => [c.start, c.end, c.metadata.score]));
    for (const r of whole) {
      expect(r.text).toBe(text.slice(r.start, r.end));
      if (!r.metadata.oversized) expect(r.tokenCount).toBeLessThanOrEqual(100);
    }
    // hybrid (default) takes the same flags; --min-similarity drops every seed of a nonsense query
    expect(jsonl(['--max-chunk-size', '80']).every((r) => r.tokenCount <= 80 || r.metadata.oversized)).toBe(true);
    expect(jsonl(['--min-similarity', '0.15', '-q', 'zzzz qqqq xxxx'])).toEqual([]);
    expect(jsonl(['--mode', 'whole', '--min-similarity', '0.15', '-q', 'zzzz qqqq xxxx'])).toEqual([]);
    expect(jsonl(['--locale', 'nl'])).toEqual(jsonl([]));
    // hybrid defaults: rank fused, 3 × --top-k candidates, fixed windows with m = 1
    expect(jsonl(['--top-k', '2'])).toEqual(jsonl(['--top-k', '2', '--rank', 'fused', '--candidates', '6', '--window', 'fixed', '--m', '1']));
    expect(jsonl(['--top-k', '2', '--rank', 'seed']).length).toBeGreaterThan(0);
    expect(jsonl(['--encoding', 'o200k_base'])[0].tokenCount).toBe(getTokenizer('o200k_base').count(jsonl(['--encoding', 'o200k_base'])[0].text));
    for (const bad of [['--mode', 'both'], ['--max-chunk-size', '0'], ['--align-distance', '-1'], ['--min-similarity', '3'], ['--locale', 'not a tag'], ['--rank', 'best']]) {
      expect(run(['qasc', seed, '-q', q, ...bad]).code).toBe(2);
    }
  }, 60_000);
});
