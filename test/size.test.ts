/**
 * The size targets of issue 12 as a regression test (the full report, with the packed
 * tarball, esbuild, edge builds and cold starts, is `npm run bench -- size`): a consumer
 * project with chunkwise linked into node_modules, built by Vite 8 for the browser.
 * - word units: ≤ 60 KB gzip of JavaScript, and no rank table or `.wasm` emitted;
 * - cl100k_base tokens: ≤ 700 KB gzip including the table it loads, and no o200k_base
 *   chunk loaded;
 * - everything the root and `chunkwise/evaluation` export: no emitted file over 1 MB and
 *   nothing of onnxruntime-web, although it is resolvable here (a devDependency): a
 *   bundler processes every dynamically imported package in the module graph, and
 *   onnxruntime-web's processing emits its 28 MB `.wasm`, so no module the root reaches
 *   may mention it.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS, viteBuild } from '../bench/size.bench.js';
import { repoRoot } from './helpers/paths.js';

let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'chunkwise-size-test-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(repoRoot, join(project, 'node_modules', 'chunkwise'), 'dir');
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

describe('Vite 8 browser builds of a consumer app', () => {
  it('word units: ≤ 60 KB gzip of JavaScript, no rank table, no .wasm', async () => {
    const b = await viteBuild(project, 'word units', APPS['word units']);
    expect(b.initial.gzip).toBeLessThanOrEqual(60_000);
    expect(b.initial.gzip).toBeGreaterThan(5_000); // the build holds the chunker
    expect(b.wasm.files).toBe(0);
    const files = walk(join(project, 'out-vite', 'word-units'));
    expect(files.filter((f) => /cl100k|o200k|ort-wasm|onnxruntime/.test(f))).toEqual([]);
  }, 120_000);

  it('cl100k_base tokens: ≤ 700 KB gzip with the table it loads, no file over 1 MB', async () => {
    const b = await viteBuild(project, 'cl100k tokens', APPS['cl100k tokens']);
    expect(b.loadedLater.gzip).toBeGreaterThan(400_000); // the table is counted
    expect(b.initial.gzip + b.loadedLater.gzip).toBeLessThanOrEqual(700_000);
    expect(b.largest.bytes).toBeLessThanOrEqual(1_000_000);
    expect(b.wasm.files).toBe(0);
  }, 120_000);

  it('everything but chunkwise/onnx: no file over 1 MB, no onnxruntime-web', async () => {
    const b = await viteBuild(project, 'everything', APPS.everything);
    expect(b.largest.bytes).toBeLessThanOrEqual(1_000_000);
    expect(b.wasm.files).toBe(0);
    expect(b.allJs.files).toBeGreaterThan(8); // the rank tables' chunks are there, lazily
  }, 120_000);
});
