/**
 * Shared pieces of the runtime tests (browser, workerd, edge-runtime): the documents,
 * Node's reference output, a static file server on 127.0.0.1 and the Chromium check.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { corporaDir, repoRoot, sharedFiles, textsDir } from '../helpers/paths.js';

export { bundleLikeDeploy, type DeployBundle } from '../../bench/deploy-bundle.js';

export interface Doc {
  name: string;
  text: string;
  /** A source file's language: only the code strategy runs on it. */
  language?: string;
}

/**
 * The texts of texts/, the state_of_the_union corpus and an HTML page (the html strategy's parser in
 * every runtime); with `code`, also the 12 source files of test/fixtures/code.
 */
export function workloadDocs(options: { code?: boolean } = {}): Doc[] {
  const docs: Doc[] = sharedFiles(textsDir, '.txt').map((f) => ({ name: f.slice(textsDir.length + 1), text: readFileSync(f, 'utf8') }));
  docs.push({ name: 'state_of_the_union.md', text: readFileSync(join(corporaDir, 'state_of_the_union.md'), 'utf8') });
  docs.push({ name: 'docs-page.html', text: readFileSync(join(repoRoot, 'test', 'golden', 'html', 'docs-page.html'), 'utf8') });
  if (options.code) {
    const dir = join(repoRoot, 'test', 'fixtures', 'code');
    for (const f of readdirSync(dir).sort()) docs.push({ name: `code/${f}`, text: readFileSync(join(dir, f), 'utf8'), language: CODE_LANGUAGE_BY_EXT[extname(f)] });
  }
  return docs;
}

/** The fixtures' languages by extension (one file per language). */
const CODE_LANGUAGE_BY_EXT: Record<string, string> = {
  '.ts': 'typescript', '.tsx': 'tsx', '.js': 'javascript', '.py': 'python', '.rs': 'rust', '.go': 'go',
  '.java': 'java', '.c': 'c', '.cpp': 'cpp', '.cs': 'csharp', '.rb': 'ruby', '.php': 'php',
};

/** Node's output of the harness, through the package's Node entry (dist/src/index.js). */
export async function nodeReference(docs: Doc[]): Promise<string> {
  const api = { ...(await import(join(repoRoot, 'dist', 'src', 'index.js'))), ...(await import(join(repoRoot, 'dist', 'src', 'kernels.js'))) };
  const { runWorkload } = await import(join(repoRoot, 'test', 'runtimes', 'harness.mjs'));
  return runWorkload(api, docs);
}

/** Debian's Chromium, or the executable named by CHROMIUM_PATH (point it at a missing file to see the tests skip). */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/**
 * Whether to run the Chromium tests: yes when {@link CHROMIUM} exists; when it is
 * missing, CI=true is an error (a clear failure, never a silent skip), otherwise a skip
 * (a newcomer's `npm ci && npm test` without Chromium passes).
 */
export function chromiumAvailable(path = CHROMIUM, env: Record<string, string | undefined> = process.env): boolean {
  if (existsSync(path)) return true;
  if (env.CI === 'true') {
    throw new Error(`${path} is missing: install it with apt-get install -y chromium (.ci/run does this)`);
  }
  return false;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.png': 'image/png',
};

/** A static file server: URL prefix → folder, plus fixed in-memory routes. */
export async function serveStatic(
  mounts: Record<string, string>,
  routes: Record<string, { type: string; body: string | Uint8Array }> = {},
): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const route = routes[path];
    if (route) {
      res.writeHead(200, { 'content-type': route.type });
      res.end(route.body);
      return;
    }
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!path.startsWith(prefix)) continue;
      const file = resolve(dir, normalize('./' + path.slice(prefix.length)));
      if (!file.startsWith(resolve(dir))) break;
      if (existsSync(file) && statSync(file).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        res.end(readFileSync(file));
        return;
      }
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/** First differing position of two strings, with context, for readable failures. */
export function firstDifference(a: string, b: string): string {
  if (a === b) return 'identical';
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `lengths ${a.length} vs ${b.length}; first difference at ${i}: …${JSON.stringify(a.slice(Math.max(0, i - 80), i + 80))} vs …${JSON.stringify(b.slice(Math.max(0, i - 80), i + 80))}`;
}

/**
 * The html strategy ran on the HTML page and made real chunks (its parser works in the
 * runtime; byte identity with Node is the caller's check).
 */
export function htmlChunksOf(json: string): { metadata: { headingPath: string[] }; embedText: string }[] {
  const parsed = JSON.parse(json) as { results: { strategy: string; doc: string; chunks?: { metadata: { headingPath: string[] }; embedText: string }[]; error?: string }[] };
  const run = parsed.results.find((r) => r.strategy === 'html' && r.doc === 'docs-page.html');
  if (!run?.chunks) throw new Error(`html on docs-page.html: ${run?.error ?? 'not run'}`);
  return run.chunks;
}

/**
 * The strategies of the workload that made no chunks (an error or nothing) on some
 * document: only late chunking, which needs a token-level model the workload lacks, may.
 */
export function strategiesWithoutChunks(json: string): string[] {
  const parsed = JSON.parse(json) as { results: { strategy: string; chunks?: unknown[] }[] };
  return [...new Set(parsed.results.filter((r) => !r.chunks?.length).map((r) => r.strategy))];
}
