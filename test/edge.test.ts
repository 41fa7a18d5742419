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
 * The workload is test/runtimes/harness.mjs (every registered strategy on texts/ and
 * the state_of_the_union corpus, HashingEmbedder bytes, kernels; the code strategy on the
 * 12 source fixtures through `chunkwise/code`, web-tree-sitter's runtime and the grammars
 * imported as compiled modules and handed over as `treeSitterWasm` and `grammar`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';
import { bundleLikeDeploy, firstDifference, htmlChunksOf, nodeReference, strategiesWithoutChunks, workloadDocs, type Doc } from './runtimes/support.js';

const harness = join(repoRoot, 'test', 'runtimes', 'harness.mjs');
/** web-tree-sitter's Node branch (`import("fs/promises")`, `import("module")`), never taken here. */
const TREE_SITTER_NODE = ['fs/promises', 'module'];
const grammarsDir = join(repoRoot, 'node_modules', 'tree-sitter-wasms', 'out');
const GRAMMAR_FILES: Record<string, string> = {
  typescript: 'typescript', tsx: 'tsx', javascript: 'javascript', python: 'python', rust: 'rust', go: 'go',
  java: 'java', c: 'c', cpp: 'cpp', csharp: 'c_sharp', ruby: 'ruby', php: 'php',
};

let docs: Doc[];
let expected: string;
/** workerd runs in its own process while Node computes the reference (2 cores). */
let workerd: Promise<{ status: number; body: string }>;

async function runWorkerd(): Promise<{ status: number; body: string }> {
  const built = await bundleLikeDeploy(join(repoRoot, 'test', 'runtimes', 'worker.mjs'), ['workerd', 'worker', 'browser'], { external: TREE_SITTER_NODE });
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

/** The code strategy's runs in a workload's JSON: one per source file, each with chunks. */
function expectCodeChunked(json: string): void {
  const code = JSON.parse(json).results.filter((r: { strategy: string }) => r.strategy === 'code');
  expect(code.map((r: { doc: string }) => r.doc)).toEqual(docs.filter((d) => d.language).map((d) => d.name));
  expect(code.filter((r: { chunks?: unknown[] }) => !r.chunks?.length).map((r: { error?: string }) => r.error)).toEqual([]);
}

beforeAll(async () => {
  docs = workloadDocs({ code: true });
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
    expectCodeChunked(got);
    expect(got === expected, firstDifference(got, expected)).toBe(true);
  });
});

describe('Vercel edge-runtime', () => {
  it('the edge-light bundle gives Node’s JSON byte for byte', async () => {
    // One classic script for EdgeRuntime: the package and the harness as an IIFE; the
    // `?module` wasm imports become globals holding the compiled modules, as Vercel's
    // bundler provides them.
    // the code strategy: chunkwise/code, web-tree-sitter's runtime and the grammars as `?module` imports
    const grammarImports = Object.entries(GRAMMAR_FILES)
      .map(([lang, file]) => `import ${lang} from ${JSON.stringify(join(grammarsDir, `tree-sitter-${file}.wasm?module`))};`)
      .join('\n');
    const entry = `import * as api from 'chunkwise';
import * as kernels from 'chunkwise/kernels';
import 'chunkwise/code';
import treeSitterWasm from ${JSON.stringify(join(repoRoot, 'node_modules', 'web-tree-sitter', 'tree-sitter.wasm?module'))};
${grammarImports}
import { runWorkload } from ${JSON.stringify(harness)};
const grammars = { ${Object.keys(GRAMMAR_FILES).join(', ')} };
const code = (doc) => ({ grammar: grammars[doc.language], treeSitterWasm });
globalThis.__run = async (docsJson) => { await api.loadTokenizer('cl100k_base'); await api.loadTokenizer('o200k_base'); return runWorkload({ ...api, ...kernels }, JSON.parse(docsJson), {}, { code }); };`;
    const built = await bundleLikeDeploy(entry, ['edge-light', 'worker', 'browser'], { format: 'iife', wasmGlobal: '__CHUNKWISE_WASM__', external: TREE_SITTER_NODE });
    const code = readFileSync(built.js, 'utf8');
    const { EdgeRuntime } = await import('edge-runtime');
    // The modules are compiled inside the runtime's own realm, as Vercel hands `?module` imports
    // over: web-tree-sitter's loader checks `instanceof WebAssembly.Module`, which a module of
    // Node's realm fails ("binary2.subarray is not a function").
    const bytes = Object.fromEntries(built.wasm.map((path) => [path.slice(built.dir.length + 1), new Uint8Array(readFileSync(path))]));
    const runtime = new EdgeRuntime({
      extend: (context) => Object.assign(context, { __CHUNKWISE_WASM_BYTES__: bytes }),
      initialCode:
        'globalThis.__CHUNKWISE_WASM__ = Object.fromEntries(Object.entries(__CHUNKWISE_WASM_BYTES__).map(([name, b]) => [name, new WebAssembly.Module(b)]));\n' + code,
    });
    // No Node globals leak into the runtime the bundle ran in.
    expect(runtime.evaluate('typeof process + typeof require + typeof Buffer')).toBe('undefinedundefinedundefined');
    const got = (await runtime.evaluate(`__run(${JSON.stringify(JSON.stringify(docs))})`)) as string;
    expect(htmlChunksOf(got).filter((c) => c.metadata.headingPath.length > 1).length).toBeGreaterThan(5);
    expect(strategiesWithoutChunks(got)).toEqual(['late']);
    expectCodeChunked(got);
    expect(got === expected, firstDifference(got, expected)).toBe(true);
  });
});
