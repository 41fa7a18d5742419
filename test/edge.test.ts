/**
 * The edge bundles in the runtimes they are for, against Node's output byte for byte:
 * - workerd (Cloudflare Workers) through miniflare 3: test/runtimes/worker.mjs imports
 *   dist/bundle/asset/workerd.js, whose `import wasm from './chunkwise.wasm'` is a
 *   CompiledWasm module (workerd refuses `WebAssembly.compile` of bytes).
 * - Vercel's edge-runtime: dist/bundle/asset/edge.js, with its
 *   `import wasm from './chunkwise.wasm?module'` supplied as that module.
 * The workload is test/runtimes/harness.mjs (every registered strategy on the seeds and
 * the state_of_the_union corpus, HashingEmbedder bytes, kernels).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';
import { firstDifference, htmlChunksOf, nodeReference, strategiesWithoutChunks, workloadDocs, type Doc } from './runtimes/support.js';

const asset = join(repoRoot, 'dist', 'bundle', 'asset');
const harness = join(repoRoot, 'test', 'runtimes', 'harness.mjs');

let docs: Doc[];
let expected: string;
/** workerd runs in its own process while Node computes the reference (2 cores). */
let workerd: Promise<{ status: number; body: string }>;

async function runWorkerd(): Promise<{ status: number; body: string }> {
  const { Miniflare } = await import('miniflare');
  // Modules listed explicitly: miniflare's automatic collection rejects the bundle's
  // dynamic imports (onnxruntime-web, Node-only helpers), which are never reached here.
  const mf = new Miniflare({
    modules: [
      { type: 'ESModule', path: join(repoRoot, 'test', 'runtimes', 'worker.mjs') },
      { type: 'ESModule', path: harness },
      { type: 'ESModule', path: join(asset, 'workerd.js') },
      { type: 'ESModule', path: join(asset, 'index.js') },
      { type: 'CompiledWasm', path: join(asset, 'chunkwise.wasm') },
      { type: 'CompiledWasm', path: join(asset, 'bpe.wasm') },
    ],
    modulesRoot: repoRoot,
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
    expect(JSON.parse(got).strategies).toEqual(expect.arrayContaining(['sliding', 'fixed', 'html']));
    expect(htmlChunksOf(got).filter((c) => c.metadata.headingPath.length > 1).length).toBeGreaterThan(5);
    expect(strategiesWithoutChunks(got)).toEqual(['late']);
    expect(got === expected, firstDifference(got, expected)).toBe(true);
  });
});

describe('Vercel edge-runtime', () => {
  it('the edge-light bundle gives Node’s JSON byte for byte', async () => {
    // One classic script for EdgeRuntime: the bundle and the harness as an IIFE; the
    // `?module` wasm import becomes a global holding the compiled module, as Vercel's
    // bundler provides it.
    const entry = `import * as api from ${JSON.stringify(join(asset, 'edge.js'))};
import { runWorkload } from ${JSON.stringify(harness)};
globalThis.__run = (docsJson) => runWorkload(api, JSON.parse(docsJson));`;
    // esbuild converts it in well under a second (rollup took ~10 s for the 3.6 MB bundle).
    const { build } = await import('esbuild');
    const result = await build({
      stdin: { contents: entry, resolveDir: repoRoot, loader: 'js' },
      bundle: true,
      format: 'iife',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'edge-test',
          setup(b) {
            // The `?module` import: a global holding the compiled module.
            b.onResolve({ filter: /chunkwise\.wasm\?module$/ }, () => ({ path: 'kernels', namespace: 'edge-wasm' }));
            b.onResolve({ filter: /bpe\.wasm\?module$/ }, () => ({ path: 'bpe', namespace: 'edge-wasm' }));
            b.onLoad({ filter: /^kernels$/, namespace: 'edge-wasm' }, () => ({ contents: 'export default globalThis.__CHUNKWISE_WASM__;', loader: 'js' }));
            b.onLoad({ filter: /^bpe$/, namespace: 'edge-wasm' }, () => ({ contents: 'export default globalThis.__CHUNKWISE_BPE_WASM__;', loader: 'js' }));
            b.onResolve({ filter: /^onnxruntime-web$/ }, () => ({ path: 'onnxruntime-web', external: true }));
          },
        },
      ],
    });
    const code = result.outputFiles[0].text;
    const { EdgeRuntime } = await import('edge-runtime');
    const wasm = new WebAssembly.Module(readFileSync(join(asset, 'chunkwise.wasm')));
    const bpeWasm = new WebAssembly.Module(readFileSync(join(asset, 'bpe.wasm')));
    const runtime = new EdgeRuntime({
      extend: (context) => Object.assign(context, { __CHUNKWISE_WASM__: wasm, __CHUNKWISE_BPE_WASM__: bpeWasm }),
      initialCode: code,
    });
    // No Node globals leak into the runtime the bundle ran in.
    expect(runtime.evaluate('typeof process + typeof require + typeof Buffer')).toBe('undefinedundefinedundefined');
    const got = (await runtime.evaluate(`__run(${JSON.stringify(JSON.stringify(docs))})`)) as string;
    expect(got === expected, firstDifference(got, expected)).toBe(true);
  });
});
