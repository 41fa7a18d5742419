/**
 * The package's workerd and edge-light entries in the runtimes they are for, against
 * Node's output byte for byte. Each is bundled from the packed layout the way the
 * platform's tooling bundles a user's code (test/runtimes/support.ts `bundleLikeDeploy`:
 * esbuild with the runtime's export conditions, the `.wasm` imports kept as modules):
 * - workerd (Cloudflare Workers) through miniflare 3: test/runtimes/worker.mjs imports
 *   `chunkwise` (dist/runtime/workerd.js, whose `import wasm from '…/chunkwise.wasm'`
 *   is a CompiledWasm module: workerd refuses `WebAssembly.compile` of bytes) and
 *   `chunkwise/encodings/<encoding>` (the rank tables bundled, used synchronously).
 * - Vercel's edge-runtime: `chunkwise` with the edge-light condition (dist/runtime/edge.js,
 *   `import wasm from '…/chunkwise.wasm?module'` supplied as that module); the rank
 *   tables through `await loadTokenizer(encoding)`.
 * The workload is test/runtimes/harness.mjs (every registered strategy on the seeds and
 * the state_of_the_union corpus, HashingEmbedder bytes, kernels).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';
import { bundleLikeDeploy, firstDifference, nodeReference, workloadDocs, type Doc } from './runtimes/support.js';

const harness = join(repoRoot, 'test', 'runtimes', 'harness.mjs');

let docs: Doc[];
let expected: string;
/** workerd runs in its own process while Node computes the reference (2 cores). */
let workerd: Promise<{ status: number; body: string }>;

async function runWorkerd(): Promise<{ status: number; body: string }> {
  const built = await bundleLikeDeploy(join(repoRoot, 'test', 'runtimes', 'worker.mjs'), ['workerd', 'worker', 'browser']);
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    modules: [
      { type: 'ESModule', path: built.js },
      ...built.wasm.map((path) => ({ type: 'CompiledWasm' as const, path })),
    ],
    modulesRoot: built.dir,
    compatibilityDate: '2025-07-01',
  });
  try {
    const response = await mf.dispatchFetch('http://localhost/', { method: 'POST', body: JSON.stringify(docs) });
    return { status: response.status, body: await response.text() };
  } finally {
    await mf.dispose();
  }
}

beforeAll(async () => {
  docs = workloadDocs();
  workerd = runWorkerd();
  workerd.catch(() => undefined);
  expected = await nodeReference(docs);
});

describe('workerd (miniflare)', () => {
  it('the workerd bundle gives Node’s JSON byte for byte', async () => {
    const { status, body: got } = await workerd;
    expect(status, got.slice(0, 2000)).toBe(200);
    expect(JSON.parse(got).strategies).toEqual(expect.arrayContaining(['sliding', 'fixed']));
    expect(got === expected, firstDifference(got, expected)).toBe(true);
  });
});

describe('Vercel edge-runtime', () => {
  it('the edge-light bundle gives Node’s JSON byte for byte', async () => {
    // One classic script for EdgeRuntime: the package and the harness as an IIFE; the
    // `?module` wasm imports become globals holding the compiled modules, as Vercel's
    // bundler provides them.
    const entry = `import * as api from 'chunkwise';
import { runWorkload } from ${JSON.stringify(harness)};
globalThis.__run = async (docsJson) => { await api.loadTokenizer('cl100k_base'); await api.loadTokenizer('o200k_base'); return runWorkload(api, JSON.parse(docsJson)); };`;
    const built = await bundleLikeDeploy(entry, ['edge-light', 'worker', 'browser'], { format: 'iife', wasmGlobal: '__CHUNKWISE_WASM__' });
    const code = readFileSync(built.js, 'utf8');
    const { EdgeRuntime } = await import('edge-runtime');
    const modules = Object.fromEntries(built.wasm.map((path) => [path.slice(built.dir.length + 1), new WebAssembly.Module(readFileSync(path))]));
    const runtime = new EdgeRuntime({
      extend: (context) => Object.assign(context, { __CHUNKWISE_WASM__: modules }),
      initialCode: code,
    });
    // No Node globals leak into the runtime the bundle ran in.
    expect(runtime.evaluate('typeof process + typeof require + typeof Buffer')).toBe('undefinedundefinedundefined');
    const got = (await runtime.evaluate(`__run(${JSON.stringify(JSON.stringify(docs))})`)) as string;
    expect(got === expected, firstDifference(got, expected)).toBe(true);
  });
});
