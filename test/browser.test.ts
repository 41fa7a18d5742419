/**
 * The browser bundles in Debian's Chromium (playwright-core drives /usr/bin/chromium; no
 * browser is downloaded): a page served from 127.0.0.1 runs the harness
 * (test/runtimes/harness.mjs: every registered strategy on the texts of texts/ and the
 * state_of_the_union corpus, HashingEmbedder bytes, kernels) and its JSON must equal
 * Node's byte for byte — with the inline bundle (`await initKernels()`) and with the
 * asset bundle (`await initKernels(url of chunkwise.wasm)`); the rank tables come from
 * the bundle's lazy chunks (`await loadTokenizer(encoding)`). Embedding strategies also
 * run with the ONNX fixture model through onnxruntime-web (the bundle's `onnx.js` entry). The
 * code strategy runs on the 12 source fixtures through the bundle's `code.js` entry
 * (web-tree-sitter in its own chunk), grammars fetched from the served tree-sitter-wasms folder.
 * `pipeline()` runs in the inline bundle with a custom async source and MemorySink
 * (test/runtimes/pipeline-workload.mjs) and must give Node's rows and summaries; and on
 * PDF bytes (the load stage with the page's pdf.js module as `load.pdfjs`), whose rows'
 * pages and boxes must equal Node's.
 * Without /usr/bin/chromium (or the file CHROMIUM_PATH names): fails when CI=true, skips
 * otherwise.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEncoderOnnx, writeOnnxFolder } from './helpers/embedder-fixtures.js';
import { markdownDir, repoRoot, sharedFiles } from './helpers/paths.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable, firstDifference, htmlChunksOf, nodeReference, strategiesWithoutChunks, serveStatic, workloadDocs, type Doc } from './runtimes/support.js';

const run = chromiumAvailable();
const EMBEDDING = /semantic|qasc|late/;
/** The PDFs of test/fixtures/documents the PDF pipeline page reads. */
const PDF_NAMES = ['report.pdf', 'manual.pdf'];
const DOCUMENTS = join(repoRoot, 'test', 'fixtures', 'documents');

/**
 * The page: loads a bundle, initialises the kernels and both tokenizers (their rank
 * tables are lazy chunks of the bundle), runs the harness, exposes the JSON.
 */
function page(dir: string, init: string): string {
  return `<!doctype html><meta charset="utf-8"><title>chunkwise runtime test</title>
<script type="importmap">{"imports":{"onnxruntime-web":"/ort/ort.bundle.min.mjs"}}</script>
<script type="module">
import * as api from ${JSON.stringify(dir + 'index.js')};
import * as kernels from ${JSON.stringify(dir + 'kernels.js')};
import ${JSON.stringify(dir + 'code.js')}; // chunkwise/code: the registry's code strategy uses it
import { runWorkload } from '/harness.mjs';
try {
  await api.initKernels(${init});
  await api.loadTokenizer('cl100k_base');
  await api.loadTokenizer('o200k_base');
  const docs = await (await fetch('/docs.json')).json();
  const embedders = {};
  if (api.strategyNames().some((n) => ${EMBEDDING}.test(n))) {
    const { OnnxEmbedder } = await import(${JSON.stringify(dir + 'onnx.js')});
    embedders.onnx = await OnnxEmbedder.load(location.origin + '/model/', { backend: 'web', wasmPaths: location.origin + '/ort/' });
  }
  const code = { grammarBase: location.origin + '/grammars/', treeSitterWasm: location.origin + '/wts/tree-sitter.wasm' };
  window.__result = await runWorkload({ ...api, ...kernels }, docs, embedders, { code });
} catch (error) {
  window.__error = String(error && error.stack || error);
}
</script>`;
}

/** The pipeline page: `pipeline()` with a custom async source and MemorySink in the inline bundle (test/runtimes/pipeline-workload.mjs). */
const PIPELINE_PAGE = `<!doctype html><meta charset="utf-8"><title>chunkwise pipeline test</title>
<script type="module">
import * as api from '/bundle/inline/index.js';
import { runPipelineWorkload } from '/pipeline-workload.mjs';
try {
  await api.initKernels();
  await api.loadTokenizer('cl100k_base');
  window.__result = await runPipelineWorkload(api, await (await fetch('/pipeline-docs.json')).json());
} catch (error) {
  window.__error = String(error && error.stack || error);
}
</script>`;
/** The PDF pipeline page: PDF bytes through `pipeline()` in the inline bundle, pdf.js (legacy build, its worker) given as `load.pdfjs`. */
const PDF_PIPELINE_PAGE = `<!doctype html><meta charset="utf-8"><title>chunkwise PDF pipeline test</title>
<script type="module">
import * as api from '/bundle/inline/index.js';
import * as pdfjs from '/pdfjs/pdf.mjs';
import { runPdfPipelineWorkload } from '/pipeline-workload.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/pdfjs/pdf.worker.mjs';
try {
  await api.initKernels();
  await api.loadTokenizer('cl100k_base');
  const pdfs = [];
  for (const name of ${JSON.stringify(PDF_NAMES)}) pdfs.push({ name, bytes: new Uint8Array(await (await fetch('/pdf/' + name)).arrayBuffer()) });
  window.__result = await runPdfPipelineWorkload(api, pdfs, { pdfjs });
} catch (error) {
  window.__error = String(error && error.stack || error);
}
</script>`;
const pipelineDocs = run ? sharedFiles(markdownDir, '.md').map((f) => ({ name: f.slice(markdownDir.length + 1), text: readFileSync(f, 'utf8') })) : [];

describe('without Chromium', () => {
  it('CI=true fails with a clear message; locally the browser tests skip', () => {
    expect(() => chromiumAvailable('/nonexistent/chromium', { CI: 'true' })).toThrow(/\/nonexistent\/chromium is missing: install it with apt-get install -y chromium/);
    expect(chromiumAvailable('/nonexistent/chromium', {})).toBe(false);
    expect(chromiumAvailable('/nonexistent/chromium', { CI: 'false' })).toBe(false);
    // an executable that exists runs the tests, with or without CI
    expect(chromiumAvailable(process.execPath, { CI: 'true' })).toBe(true);
    expect(chromiumAvailable(process.execPath, {})).toBe(true);
    // this run: Chromium (or CHROMIUM_PATH) present → the tests run; missing → they skip (CI unset)
    expect(run).toBe(existsSync(CHROMIUM));
  });
});

describe.skipIf(!run)('browser bundles in Chromium', () => {
  let server: Server;
  let origin: string;
  let docs: Doc[];
  let expected: string;
  let modelDir: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;

  /** Both pages run while Node computes its reference (2 cores: Chromium and Node overlap). */
  let pages: Record<'inline' | 'asset', Promise<string>>;

  beforeAll(async () => {
    docs = workloadDocs({ code: true });
    modelDir = mkdtempSync(join(tmpdir(), 'chunkwise-browser-model-'));
    writeOnnxFolder(modelDir, makeEncoderOnnx().bytes, { pooling: 'mean' });
    ({ server, origin } = await serveStatic(
      {
        '/bundle/': join(repoRoot, 'dist', 'bundle'),
        '/model/': modelDir,
        '/ort/': join(repoRoot, 'node_modules', 'onnxruntime-web', 'dist'),
        '/grammars/': join(repoRoot, 'node_modules', 'tree-sitter-wasms', 'out'),
        '/wts/': join(repoRoot, 'node_modules', 'web-tree-sitter'),
      },
      {
        '/inline.html': { type: 'text/html', body: page('/bundle/inline/', '') },
        '/asset.html': { type: 'text/html', body: page('/bundle/asset/', "'/bundle/asset/chunkwise.wasm'") },
        '/harness.mjs': { type: 'text/javascript', body: readFileSync(join(repoRoot, 'test', 'runtimes', 'harness.mjs')) },
        '/docs.json': { type: 'application/json', body: JSON.stringify(docs) },
      },
    ));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    pages = { inline: runPage('/inline.html'), asset: runPage('/asset.html') };
    // Keep a rejected page from being reported as unhandled before its test awaits it.
    for (const p of Object.values(pages)) p.catch(() => undefined);
    const api = { ...(await import(join(repoRoot, 'dist', 'src', 'index.js'))), ...(await import(join(repoRoot, 'dist', 'src', 'kernels.js'))) };
    const needsModel = (api.strategyNames() as string[]).some((n) => EMBEDDING.test(n));
    if (needsModel) {
      const { runWorkload } = await import(join(repoRoot, 'test', 'runtimes', 'harness.mjs'));
      const { OnnxEmbedder } = await import(join(repoRoot, 'dist', 'src', 'onnx.js'));
      const onnx = await OnnxEmbedder.load(modelDir, { backend: 'web' });
      expected = await runWorkload(api, docs, { onnx });
    } else expected = await nodeReference(docs);
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (modelDir) rmSync(modelDir, { recursive: true, force: true });
  });

  async function runPage(path: string): Promise<string> {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e: Error) => errors.push(String(e)));
    try {
      await tab.goto(origin + path);
      await tab.waitForFunction(() => (window as any).__result || (window as any).__error, undefined, { timeout: 100_000 });
      const error = await tab.evaluate(() => (window as any).__error);
      if (error) throw new Error(`page ${path} failed: ${error}`);
      if (errors.length) throw new Error(`page ${path}: uncaught ${errors.join('; ')}`);
      return await tab.evaluate(() => (window as any).__result as string);
    } finally {
      await tab.close();
    }
  }

  it('the inline bundle gives Node’s JSON byte for byte', async () => {
    const got = await pages.inline;
    const parsed = JSON.parse(got);
    expect(parsed.strategies).toEqual(expect.arrayContaining(['sliding', 'fixed', 'html']));
    expect(htmlChunksOf(got).filter((c) => c.metadata.headingPath.length > 1).length).toBeGreaterThan(5);
    expect(strategiesWithoutChunks(got)).toEqual(['late']);
    // Every strategy on every document, and real chunks (not an error list).
    expect(parsed.results.filter((r: { chunks?: unknown[] }) => r.chunks && r.chunks.length > 0).length).toBeGreaterThanOrEqual(5 * docs.filter((d) => !d.language).length);
    // the code strategy in the browser: every source file chunked (12 grammars loaded), none an error
    const code = parsed.results.filter((r: { strategy: string }) => r.strategy === 'code');
    expect(code.map((r: { doc: string }) => r.doc)).toEqual(docs.filter((d) => d.language).map((d) => d.name));
    expect(code.filter((r: { chunks?: unknown[]; error?: string }) => !r.chunks?.length).map((r: { error?: string }) => r.error)).toEqual([]);
    expect(got === expected, firstDifference(got, expected)).toBe(true);
  });

  it('the asset bundle (initKernels(url of chunkwise.wasm)) gives the same JSON', async () => {
    const got = await pages.asset;
    expect(got === expected, firstDifference(got, expected)).toBe(true);
  });
});

describe.skipIf(!run)('pipeline() in Chromium', () => {
  let server: Server;
  let origin: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;

  beforeAll(async () => {
    ({ server, origin } = await serveStatic(
      { '/bundle/': join(repoRoot, 'dist', 'bundle'), '/pdfjs/': join(repoRoot, 'node_modules', 'pdfjs-dist', 'legacy', 'build'), '/pdf/': DOCUMENTS },
      {
        '/pipeline.html': { type: 'text/html', body: PIPELINE_PAGE },
        '/pdf-pipeline.html': { type: 'text/html', body: PDF_PIPELINE_PAGE },
        '/pipeline-workload.mjs': { type: 'text/javascript', body: readFileSync(join(repoRoot, 'test', 'runtimes', 'pipeline-workload.mjs')) },
        '/pipeline-docs.json': { type: 'application/json', body: JSON.stringify(pipelineDocs) },
      },
    ));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  /** The JSON a page leaves in `window.__result` (its error, or an uncaught one, fails). */
  async function pageResult(path: string): Promise<string> {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e: Error) => errors.push(String(e)));
    try {
      await tab.goto(origin + path);
      await tab.waitForFunction(() => (window as any).__result || (window as any).__error, undefined, { timeout: 100_000 });
      const error = await tab.evaluate(() => (window as any).__error);
      if (error) throw new Error(`page ${path} failed: ${error}`);
      expect(errors).toEqual([]);
      return await tab.evaluate(() => (window as any).__result as string);
    } finally {
      await tab.close();
    }
  }

  /** Node's side of each page: dist/src's entry (kernels and cl100k_base loaded) and the workloads module. */
  async function nodeSide() {
    const api = await import(join(repoRoot, 'dist', 'src', 'index.js'));
    const workloads = await import(join(repoRoot, 'test', 'runtimes', 'pipeline-workload.mjs'));
    await api.initKernels();
    await api.loadTokenizer('cl100k_base');
    return { api, workloads };
  }

  it('a custom async source into MemorySink gives Node’s rows and summaries (first run, rerun, prune)', { timeout: 120_000 }, async () => {
    const got = await pageResult('/pipeline.html');
    const { api, workloads } = await nodeSide();
    const want = await workloads.runPipelineWorkload(api, pipelineDocs);
    const parsed = JSON.parse(got);
    expect(parsed.first.added).toBeGreaterThan(20);
    expect(parsed.second).toMatchObject({ added: 0, kept: parsed.first.added, embedded: 0 });
    expect(parsed.pruned.pruned).toBeGreaterThan(0);
    expect(got === want, firstDifference(got, want)).toBe(true);
  });

  it('the bundle loads PDF bytes (pdf.js given as load.pdfjs) into MemorySink: rows, pages and boxes equal Node’s', { timeout: 120_000 }, async () => {
    const got = await pageResult('/pdf-pipeline.html');
    // Node: the same workload through dist/src, pdf.js's legacy build imported by the loader
    const { api, workloads } = await nodeSide();
    const want = await workloads.runPdfPipelineWorkload(api, PDF_NAMES.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(DOCUMENTS, name))) })));
    const parsed = JSON.parse(got) as { summary: { documents: number; failed: number }; rows: { source: string; pages: { first: number; last: number }; boxes: { page: number }[] }[] };
    expect(parsed.summary).toMatchObject({ documents: 2, failed: 0 });
    for (const name of PDF_NAMES) {
      const rows = parsed.rows.filter((r) => r.source === name);
      expect(rows.length, name).toBeGreaterThan(1);
      expect(rows.every((r) => r.pages.first >= 1 && r.pages.last >= r.pages.first && r.boxes.length > 0), name).toBe(true);
    }
    expect(new Set(parsed.rows.map((r) => r.pages.first)).size).toBeGreaterThan(1);
    expect(got === want, firstDifference(got, want)).toBe(true);
  });
});
