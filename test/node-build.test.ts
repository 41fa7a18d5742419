/**
 * The Node build (dist/node/, the `node` condition of every JavaScript subpath of
 * `exports`; rollup.config.mjs), used from the packed tarball installed into a fresh
 * project the way a user installs it:
 * - Node resolves every subpath to dist/node/, and nothing of a process that imports
 *   several subpaths comes from dist/src (one module instance per process: the registry,
 *   the error classes, the rank-table state; the dual-package hazard);
 * - entries share state: `createChunker('code', …)` after `import 'chunkwise/code'`
 *   chunks (tree-sitter, the grammar found from the package through `import.meta.url`),
 *   errors thrown by chunkwise/code and chunkwise/evaluation are `instanceof` the root
 *   entry's classes, the lazy Node helpers load from their chunks (StaticEmbedder.load's
 *   model-folder reader), cl100k ids equal chunkwise/tiktoken's (js-tiktoken);
 * - the root import stays small and lazy: a few files, no evaluation, QASC index, HF
 *   tokenizer, code strategy or rank-table data until used; a cl100k_base count reads
 *   the packaged `.bpe` (ids of js-tiktoken);
 * - `pipeline()` loads PDF bytes through the build's own loader chunks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
/** Subpaths whose default is a dist/src JavaScript file, with that file. */
const JS_SUBPATHS = Object.entries(pkg.exports as Record<string, string | Record<string, string>>)
  .filter(([, t]) => typeof t === 'object' && /^\.\/dist\/src\/.+\.js$/.test(t.default))
  .map(([k, t]) => [k, (t as Record<string, string>).default] as const);

let project = '';
let hooks = '';

/** Runs `script` (an ES module) in `project` with a resolve hook logging URLs; returns its last stdout line as JSON and the URLs. */
function run(script: string): { out: any; urls: string[] } {
  const log = join(project, `urls-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const out = execFileSync(process.execPath, ['--import', pathToFileURL(hooks).href, '--input-type=module', '-e', script], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, URLS_FILE: log },
  });
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { out: JSON.parse(out.trim().split('\n').pop()!), urls };
}

beforeAll(() => {
  const root = mkdtempSync(join(tmpdir(), 'chunkwise-node-build-'));
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const tarball = join(root, JSON.parse(out)[0].filename);
  project = join(root, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'node-build-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', tarball, '--omit=dev', '--omit=optional', '--omit=peer', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // optional peers of the code strategy, chunkwise/tiktoken and PDF loading, as a user would install them
  for (const peer of ['web-tree-sitter', 'tree-sitter-wasms', 'js-tiktoken', 'pdfjs-dist']) symlinkSync(join(repoRoot, 'node_modules', peer), join(project, 'node_modules', peer), 'dir');
  const hookFile = join(root, 'hooks.mjs');
  writeFileSync(
    hookFile,
    `import { appendFileSync } from 'node:fs';
export async function resolve(spec, context, next) { const r = await next(spec, context); appendFileSync(process.env.URLS_FILE, r.url + '\\n'); return r; }`,
  );
  hooks = join(root, 'register.mjs');
  writeFileSync(hooks, `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hookFile).href)});`);
}, 180_000);

describe('the Node build from the installed tarball', () => {
  it('every JavaScript subpath resolves to dist/node/ in Node', () => {
    expect(JS_SUBPATHS.length).toBeGreaterThanOrEqual(15);
    const specs = JS_SUBPATHS.map(([k]) => 'chunkwise' + k.slice(1));
    const { out } = run(`console.log(JSON.stringify(${JSON.stringify(specs)}.map((s) => import.meta.resolve(s))));`);
    const base = pathToFileURL(join(project, 'node_modules', 'chunkwise')).href;
    expect(out).toEqual(JS_SUBPATHS.map(([, file]) => base + file.replace(/^\.\/dist\/src\//, '/dist/node/')));
  });

  it('entries share one instance: code strategy through the registry, errors instanceof across entries, rank tables', () => {
    const script = `
const cw = await import('chunkwise');
const code = await import('chunkwise/code');
const evaluation = await import('chunkwise/evaluation');
const tiktoken = await import('chunkwise/tiktoken');
const source = 'function f() {\\n  return 1;\\n}\\n\\nfunction g() {\\n  return 2;\\n}\\n';
const chunks = await cw.createChunker('code', { language: 'javascript', chunkSize: 8, unit: 'word' }).chunk(source);
const out = { chunks: chunks.map((c) => [c.start, c.end, c.text === source.slice(c.start, c.end)]) };
const caught = async (f) => { try { await f(); return 'no error'; } catch (e) { return [e.constructor.name, e instanceof cw.ChunkwiseError, e instanceof cw.InvalidOptionError, e instanceof cw.InvalidDatasetError]; } };
out.code = await caught(() => code.CodeChunker.create({ language: 'klingon' }));
out.evaluation = await caught(() => evaluation.parseQuestionsCsv('question\\n\\n"unterminated'));
out.staticLoad = await caught(() => cw.StaticEmbedder.load('/nonexistent/model-folder')); // through importNodeHelper('model-folder')
out.ids = Array.from(cw.getTokenizer('cl100k_base').encode('hello world, Grüße'));
out.reference = Array.from(new tiktoken.TiktokenTokenizer('cl100k_base').encode('hello world, Grüße'));
console.log(JSON.stringify(out));`;
    const { out, urls } = run(script);
    expect(out.chunks.length).toBeGreaterThanOrEqual(2);
    expect(out.chunks.every((c: [number, number, boolean]) => c[2])).toBe(true);
    expect(out.chunks[0][0]).toBe(0);
    expect(out.code).toEqual(['InvalidOptionError', true, true, false]);
    expect(out.evaluation).toEqual(['InvalidDatasetError', true, false, true]);
    expect(out.staticLoad).toEqual(['ModelLoadError', true, false, false]);
    expect(out.ids.slice(0, 2)).toEqual([15339, 1917]);
    expect(out.ids).toEqual(out.reference); // the packaged .bpe table read from dist/node gives js-tiktoken's ids
    const own = urls.filter((u) => u.includes('/node_modules/chunkwise/'));
    // one copy of each module: nothing from dist/src, the grammar helper and the code strategy from dist/node
    expect(own.filter((u) => u.includes('/dist/src/'))).toEqual([]);
    expect(own.some((u) => /\/dist\/node\/chunks\/code-grammars-[\w-]+\.js$/.test(u))).toBe(true);
    expect(own.some((u) => /\/dist\/node\/chunks\/code-[\w-]+\.js$/.test(u))).toBe(true);
    expect(own.some((u) => /\/dist\/node\/chunks\/model-folder-[\w-]+\.js$/.test(u))).toBe(true);
  });

  it('the root import plus a word chunk loads three files of the package, nothing lazy', () => {
    const script = `
const { SlidingWindowChunker } = await import('chunkwise');
const chunks = new SlidingWindowChunker({ unit: 'word', windowSize: 5, stride: 3, countTokens: false }).chunk('one two three four five six');
console.log(JSON.stringify(chunks.map((c) => c.text)));`;
    const { out, urls } = run(script);
    expect(out).toEqual(['one two three four five', 'four five six']);
    const own = urls.filter((u) => u.includes('/node_modules/chunkwise/')).map((u) => u.replace(/^.*\/node_modules\/chunkwise\//, ''));
    expect([...new Set(own.map((u) => u.replace(/-[\w-]{8}\.js$/, '.js')))].sort()).toEqual(['dist/bindings/generated/ranks/index.js', 'dist/node/chunks/core.js', 'dist/node/index.js']);
    // no package loads either (htmlparser2 and the entities tables are bundled)
    expect(urls.filter((u) => u.includes('/node_modules/') && !u.includes('/node_modules/chunkwise/'))).toEqual([]);
  });

  it('lazy parts of the root entry are chunks of their own (evaluation, QASC index, HF tokenizer, code strategy, rank data)', () => {
    const dir = join(project, 'node_modules', 'chunkwise', 'dist', 'node');
    const core = execFileSync('sh', ['-c', 'cat chunks/core-*.js'], { cwd: dir, encoding: 'utf8' });
    for (const marker of ['class QascIndex', 'class HfTokenizer', 'class CodeChunker ', 'function parseQuestionsCsv']) {
      expect(core.includes(marker), marker).toBe(false);
    }
    // the same markers are where they belong, so the check can fail
    const evaluation = readFileSync(join(dir, 'evaluation', 'index.js'), 'utf8');
    expect(evaluation).toContain('class QascIndex');
    // the computed imports became literal ones (rollup.config.mjs, literalImport)
    expect(core).toMatch(/case "\.\.\/strategies\/code\/code-grammars\.js": return import\('\.\/code-grammars-[\w-]+\.js'\)/);
    expect(core).toMatch(/case "\.\/code\.js": return import\('\.\/code-[\w-]+\.js'\)/);
  });

  it('pipeline() loads PDF bytes through the loader chunks of dist/node (pages and boxes on every row)', () => {
    const pdf = join(repoRoot, 'test', 'fixtures', 'documents', 'report.pdf');
    const script = `
const { readFileSync } = await import('node:fs');
const { pipeline, MemorySink, HashingEmbedder } = await import('chunkwise');
const sink = new MemorySink();
const summary = await pipeline({ documents: [{ source: 'report.pdf', bytes: new Uint8Array(readFileSync(${JSON.stringify(pdf)})) }], chunker: 'auto', embedder: new HashingEmbedder(), sink });
const rows = await sink.rows();
console.log(JSON.stringify({ documents: summary.documents, rows: rows.length, placed: rows.filter((r) => r.metadata.pages.first >= 1 && r.metadata.boxes.length > 0).length }));`;
    const { out, urls } = run(script);
    expect(out.documents).toBe(1);
    expect(out.rows).toBeGreaterThan(1);
    expect(out.placed).toBe(out.rows);
    const own = urls.filter((u) => u.includes('/node_modules/chunkwise/')).map((u) => u.replace(/^.*\/node_modules\/chunkwise\//, ''));
    expect(own.some((u) => /^dist\/node\/chunks\/load-[\w-]+\.js$/.test(u))).toBe(true);
    expect(own.filter((u) => u.startsWith('dist/src/'))).toEqual([]);
  });
});
