#!/usr/bin/env node
// `npm run web`: serves chunkwise's web page on http://127.0.0.1:<port>/ (PORT, default
// 8080): web/ at /, the browser bundles (dist/bundle, made by `npm run build`) at
// /bundle/, onnxruntime-web's files at /ort/, the code strategy's grammars (tree-sitter-wasms)
// at /grammars/ and web-tree-sitter at /wts/, pdf.js's build at /pdfjs/ (for pdf.html), the
// repository's data at /eval/ and /texts/ (so `?doc=/texts/<file>` opens a sample document),
// the document fixtures at /documents/, and /models.json: the static
// embedding models (Model2Vec layout: model.safetensors + tokenizer.json) found in
// build/models/ (`npm test` builds GloVe there; `npm run models` alone),
// served at /models/, which the page can load with StaticEmbedder. Local use only: it
// listens on 127.0.0.1 and serves nothing outside those folders.
import { createReadStream, existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mounts = [
  ['/bundle/', join(root, 'dist', 'bundle')],
  ['/ort/', join(root, 'node_modules', 'onnxruntime-web', 'dist')],
  // the code strategy's grammars and web-tree-sitter's runtime .wasm
  ['/grammars/', join(root, 'node_modules', 'tree-sitter-wasms', 'out')],
  ['/wts/', join(root, 'node_modules', 'web-tree-sitter')],
  // pdf.js for pdf.html (its module, its worker)
  ['/pdfjs/', join(root, 'node_modules', 'pdfjs-dist', 'build')],
  // the document fixtures (pdf.html?pdf=/documents/report.pdf)
  ['/documents/', join(root, 'test', 'fixtures', 'documents')],
  ['/eval/', join(root, 'eval')],
  ['/texts/', join(root, 'texts')],
  ['/models/', join(root, 'build', 'models')],
  ['/', join(root, 'web')],
];
const modelsDir = join(root, 'build', 'models');
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.md': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
  '.pdf': 'application/pdf',
};

/**
 * The static models under build/models/: `{ name, url, path }` per folder holding
 * model.safetensors and tokenizer.json (url as served here, path on this machine for
 * the page's code snippets).
 */
export function staticModels() {
  if (!existsSync(modelsDir)) return [];
  return readdirSync(modelsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && ['model.safetensors', 'tokenizer.json'].every((f) => existsSync(join(modelsDir, d.name, f))))
    .map((d) => ({ name: d.name, url: `/models/${d.name}/`, path: realpathSync(join(modelsDir, d.name)) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The file a request path names under a mount, or undefined: the path must stay inside the
 * mount's folder, and so must the file it names once symlinks are resolved (a link inside
 * a served folder to a file outside it is not served).
 */
function servedFile(dir, rest) {
  const file = resolve(dir, normalize('./' + rest));
  if (!file.startsWith(dir + '/')) return undefined;
  try {
    const real = realpathSync(file);
    const base = realpathSync(dir);
    return real.startsWith(base + '/') && statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined; // missing, or a dangling link
  }
}

/**
 * Serves web/ and the bundles; exported for tests.
 * @param {{ mounts?: [string, string][] }} [options] URL prefix → folder, first match wins (default: the page's folders)
 */
export function createWebServer(options = {}) {
  const served = options.mounts ?? mounts;
  return createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (path === '/') path = '/index.html';
    if (path === '/models.json') {
      res.writeHead(200, { 'content-type': types['.json'] }).end(JSON.stringify(staticModels()));
      return;
    }
    for (const [prefix, dir] of served) {
      if (!path.startsWith(prefix)) continue;
      const file = servedFile(dir, path.slice(prefix.length));
      if (file !== undefined) {
        res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'content-length': statSync(file).size });
        createReadStream(file).pipe(res);
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(root, 'dist', 'bundle', 'inline', 'index.js'))) {
    console.error('dist/bundle/inline/index.js is missing: run `npm run build` first');
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8080);
  const server = createWebServer();
  server.on('error', (error) => {
    console.error(`cannot listen on 127.0.0.1:${port}: ${error.message} (set PORT to another port)`);
    process.exit(1);
  });
  server.listen(port, '127.0.0.1', () => {
    const { port: actual } = server.address();
    console.log(`chunkwise web page: http://127.0.0.1:${actual}/`);
    console.log(`a sample document:  http://127.0.0.1:${actual}/?doc=/texts/nl-chunking-strategieen.txt`);
  });
}
