/**
 * Manual check that the embedders give the same vectors in a browser as in Node:
 * bundles a page with esbuild (platform=browser), serves it and the fixture model on
 * 127.0.0.1, loads it in headless Chromium, and compares HashingEmbedder's bytes and
 * OnnxEmbedder's (onnxruntime-web) vectors with Node's.
 *
 * Needs Chromium (`apt-get install chromium`). Run: `npx tsx scripts/check-embedders-browser.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { HashingEmbedder, OnnxEmbedder } from '../src/embedders/index.js';
import { makeEncoderOnnx, writeOnnxFolder } from '../test/helpers/embedder-fixtures.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEXTS = ['Query-Adaptieve Semantische Chunking (QASC): latentie 380 ms.', 'Fenêtre glissante — œuvre ﬁnale', ''];
const ONNX_TEXTS = ['The quick brown fox jumps over the lazy dog.', 'What is the latency of QASC?', ''];

const dir = mkdtempSync(join(tmpdir(), 'chunkwise-browser-'));
try {
  writeOnnxFolder(join(dir, 'encoder'), makeEncoderOnnx().bytes, { pooling: 'mean' });
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `import { initKernels } from ${JSON.stringify(join(root, 'bindings/index.ts'))};
import { HashingEmbedder, OnnxEmbedder } from ${JSON.stringify(join(root, 'src/embedders/index.ts'))};
(async () => {
  try {
    await initKernels();
    const h = new HashingEmbedder().embedSync(${JSON.stringify(TEXTS)});
    const e = await OnnxEmbedder.load(location.origin + '/model/', { wasmPaths: location.origin + '/ort/' });
    const v = await e.embed(${JSON.stringify(ONNX_TEXTS)});
    const t = await e.embedTokens(${JSON.stringify(ONNX_TEXTS[1])});
    document.body.textContent = 'RESULT' + JSON.stringify({ backend: e.backend, hashing: Array.from(new Uint8Array(h.buffer)), onnx: Array.from(v), tokens: Array.from(t.vectors), offsets: Array.from(t.offsets) }) + 'END';
  } catch (err) {
    document.body.textContent = 'RESULT' + JSON.stringify({ error: String(err && err.stack || err) }) + 'END';
  }
})();
`,
  );
  await build({ entryPoints: [entry], bundle: true, platform: 'browser', format: 'esm', outfile: join(dir, 'page.js'), logLevel: 'warning' });
  const ortDist = join(root, 'node_modules', 'onnxruntime-web', 'dist');
  const types: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.json': 'application/json' };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let file: string;
    if (url.pathname === '/') file = join(dir, 'index.html');
    else if (url.pathname === '/page.js') file = join(dir, 'page.js');
    else if (url.pathname.startsWith('/model/')) file = join(dir, 'encoder', url.pathname.slice(7));
    else if (url.pathname.startsWith('/ort/')) file = join(ortDist, url.pathname.slice(5));
    else file = '';
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><body>pending<script type="module" src="/page.js"></script>');
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  let dom: string;
  try {
    dom = await new Promise<string>((resolveDom, reject) => {
      import('node:child_process').then(({ execFile }) =>
        execFile(
          'chromium',
          ['--headless', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=30000', '--dump-dom', `http://127.0.0.1:${port}/`],
          { timeout: 120_000, maxBuffer: 64 << 20 },
          (err, stdout) => (err && !stdout ? reject(err) : resolveDom(stdout)),
        ),
      );
    });
  } finally {
    server.close();
  }
  const m = /RESULT(.*)END/s.exec(dom);
  if (!m) throw new Error('no result in the page: ' + dom.slice(0, 500));
  const r = JSON.parse(m[1].replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'));
  if (r.error) throw new Error('browser: ' + r.error);
  const h = new HashingEmbedder().embedSync(TEXTS);
  const hashSame = Buffer.from(h.buffer).equals(Buffer.from(r.hashing));
  const e = await OnnxEmbedder.load(join(dir, 'encoder'), { backend: 'web' });
  const v = await e.embed(ONNX_TEXTS);
  const t = await e.embedTokens(ONNX_TEXTS[1]);
  const maxAbs = (a: ArrayLike<number>, b: number[]) => Array.from(a).reduce((m2, x, i) => Math.max(m2, Math.abs(x - b[i])), 0);
  console.log(`Chromium ${execFileSync('chromium', ['--version']).toString().trim()}`);
  console.log(`HashingEmbedder bytes identical to Node: ${hashSame}`);
  console.log(`OnnxEmbedder (${r.backend} in browser vs web in Node) embed max abs diff: ${maxAbs(v, r.onnx)}`);
  console.log(`embedTokens max abs diff: ${maxAbs(t.vectors, r.tokens)}; offsets identical: ${JSON.stringify(Array.from(t.offsets)) === JSON.stringify(r.offsets)}`);
  if (!hashSame) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
