/**
 * What chunkwise costs a user: the packed tarball installed into a fresh project the way
 * a user installs it, then
 * - install size: `npm install <tarball> --omit=dev --omit=optional --omit=peer`
 *   (production dependencies, no optional peers), bytes on disk and packages;
 * - browser builds with Vite 8 and esbuild (minified, code splitting) of four small apps:
 *   word units only; cl100k_base tokens (`await loadTokenizer`); everything the root
 *   exports plus `chunkwise/evaluation`; for each the JavaScript loaded at start (entry
 *   and its static imports), what loads later (dynamic chunks, e.g. rank tables), the
 *   `.wasm` assets and the largest emitted file, minified and gzip -9;
 * - edge builds as wrangler and Vercel bundle them (bench/deploy-bundle.ts: esbuild,
 *   the platform's conditions, no splitting, minified): a Worker using cl100k_base
 *   (`import 'chunkwise/encodings/cl100k_base'`, synchronous) and an edge function using
 *   `await loadTokenizer('cl100k_base')`; the upload's modules, uncompressed and gzip;
 * - Node cold start: a whole `node` process that imports the library and chunks one
 *   short text by words (chunkwise, @chonkiejs/core's RecursiveChunker,
 *   @langchain/textsplitters' RecursiveCharacterTextSplitter), many runs interleaved
 *   round by round, medians and the ratio to @chonkiejs/core of the same run; plus the
 *   Markdown parser's packages imported alone (what `src/strategies/markdown.ts` costs).
 *
 *   npm run bench -- size        (needs a build: npm run build)
 *   SIZE_RUNS=40 npm run bench -- size
 * @module
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleLikeDeploy } from './deploy-bundle.js';
import { repoRoot } from './util.js';

const gz = (b: Uint8Array | string) => gzipSync(b, { level: 9 }).length;
const kb = (n: number) => (n / 1000).toFixed(1);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

function du(dir: string): number {
  let n = 0;
  for (const f of walk(dir)) n += statSync(f).size;
  return n;
}

/** Packs the repository (already built) and installs the tarball into a new project. */
export function installTarball(): { project: string; tarball: string; tarballBytes: number; installBytes: number; packages: string[] } {
  const root = mkdtempSync(join(os.tmpdir(), 'chunkwise-size-'));
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const tarball = join(root, JSON.parse(out)[0].filename);
  const project = join(root, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'size-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', tarball, '--omit=dev', '--omit=optional', '--omit=peer', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const modules = join(project, 'node_modules');
  const packages = walk(modules)
    .filter((f) => f.endsWith('package.json') && relative(modules, f).split('/').length === (relative(modules, f).startsWith('@') ? 3 : 2))
    .map((f) => relative(modules, f).replace(/\/package\.json$/, ''));
  return { project, tarball, tarballBytes: statSync(tarball).size, installBytes: du(modules), packages };
}

/** The apps built for browsers: source of each, importing the installed package. */
const TEXT = 'Sliding windows move over a text by a fixed stride. Each window is one chunk. '.repeat(20);
export const APPS: Record<string, string> = {
  'word units': `import { initKernels, SlidingWindowChunker } from 'chunkwise';
await initKernels();
const chunks = new SlidingWindowChunker({ unit: 'word', windowSize: 40, stride: 30, countTokens: false }).chunk(${JSON.stringify(TEXT)});
document.body.textContent = JSON.stringify(chunks);`,
  'cl100k tokens': `import { initKernels, loadTokenizer, SlidingWindowChunker } from 'chunkwise';
await initKernels();
await loadTokenizer('cl100k_base');
const chunks = new SlidingWindowChunker({ unit: 'token', windowSize: 64, stride: 48 }).chunk(${JSON.stringify(TEXT)});
document.body.textContent = JSON.stringify(chunks);`,
  everything: `import * as cw from 'chunkwise';
import * as evaluation from 'chunkwise/evaluation';
await cw.initKernels();
await cw.loadTokenizer('cl100k_base');
await cw.loadTokenizer('o200k_base');
globalThis.chunkwise = { ...cw, ...evaluation };
document.body.textContent = JSON.stringify(cw.strategyNames().map((n) => [n, cw.createChunker(n, { embedder: new cw.HashingEmbedder() })]));`,
};

/** One browser build's figures. */
export interface BuildFigures {
  tool: string;
  app: string;
  /** JavaScript loaded at start: the entry and its static imports. */
  initial: { bytes: number; gzip: number };
  /** JavaScript loaded later by dynamic imports the app makes (rank tables). */
  loadedLater: { bytes: number; gzip: number };
  /** All emitted JavaScript, and the .wasm assets. */
  allJs: { bytes: number; gzip: number; files: number };
  wasm: { bytes: number; gzip: number; files: number };
  largest: { file: string; bytes: number };
}

/** Static and dynamic imports of an emitted chunk (relative specifiers only). */
function importsOf(code: string): { statics: string[]; dynamics: string[] } {
  const statics = new Set<string>();
  const dynamics = new Set<string>();
  for (const m of code.matchAll(/\b(?:import|export)\s*(?:[\w*${}\s,]+from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) statics.add(m[1]);
  for (const m of code.matchAll(/\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)) dynamics.add(m[1]);
  // Vite writes preloaded dynamic imports as __vite__mapDeps([...]) lists of file names
  for (const m of code.matchAll(/["'](?:\.\/)?((?:assets\/)?[\w.-]+\.js)["']/g)) if (!statics.has(m[1])) dynamics.add(m[1]);
  return { statics: [...statics], dynamics: [...dynamics] };
}

/** Measures an output folder: the entry's static closure, the app's lazy loads, the rest. */
function measure(tool: string, app: string, dir: string, entry: string, lazyPattern: RegExp): BuildFigures {
  const files = walk(dir);
  const js = files.filter((f) => f.endsWith('.js'));
  const wasm = files.filter((f) => f.endsWith('.wasm'));
  const read = (f: string) => readFileSync(f);
  const resolveIn = (from: string, spec: string) => {
    const byPath = join(from, '..', spec);
    if (js.includes(byPath)) return byPath;
    return js.find((f) => f.endsWith('/' + basename(spec)));
  };
  const initial = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const f = stack.pop()!;
    if (initial.has(f)) continue;
    initial.add(f);
    for (const s of importsOf(read(f).toString('utf8')).statics) {
      const g = resolveIn(f, s);
      if (g) stack.push(g);
    }
  }
  const later = js.filter((f) => !initial.has(f) && lazyPattern.test(basename(f)));
  const sum = (list: string[]) => ({ bytes: list.reduce((s, f) => s + statSync(f).size, 0), gzip: list.reduce((s, f) => s + gz(read(f)), 0) });
  const largest = files.map((f) => ({ file: relative(dir, f), bytes: statSync(f).size })).sort((a, b) => b.bytes - a.bytes)[0];
  return { tool, app, initial: sum([...initial]), loadedLater: sum(later), allJs: { ...sum(js), files: js.length }, wasm: { ...sum(wasm), files: wasm.length }, largest };
}

/** Which lazily loaded chunks each app fetches. */
const LAZY: Record<string, RegExp> = {
  'word units': /^$/,
  'cl100k tokens': /cl100k_base/,
  everything: /cl100k_base|o200k_base/,
};

/** Writes an app's source into the project; returns its folder and a file-name slug. */
function writeApp(project: string, app: string, source: string): { dir: string; slug: string } {
  const slug = app.replace(/\W+/g, '-');
  const dir = join(project, 'apps', slug);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.js'), source);
  return { dir, slug };
}

export async function viteBuild(project: string, app: string, source: string): Promise<BuildFigures> {
  const { build } = await import('vite');
  const { dir, slug } = writeApp(project, app, source);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="./app.js"></script>');
  const outDir = join(project, 'out-vite', slug);
  await build({ root: dir, configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true, reportCompressedSize: false, target: 'es2022' } });
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const entry = join(outDir, html.match(/src="\/?([^"]+\.js)"/)![1]);
  return measure('Vite 8', app, outDir, entry, LAZY[app]);
}

export async function esbuildBuild(project: string, app: string, source: string): Promise<BuildFigures> {
  const { build } = await import('esbuild');
  const { dir, slug } = writeApp(project, app, source);
  const outdir = join(project, 'out-esbuild', slug);
  await build({
    entryPoints: [join(dir, 'app.js')],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir,
    logLevel: 'silent',
  });
  return measure('esbuild', app, outdir, join(outdir, 'app.js'), LAZY[app]);
}

/** The edge builds: a Worker (workerd) with the cl100k table bundled, and a Vercel Edge function. */
async function edgeBuilds(project: string): Promise<{ name: string; js: number; jsGzip: number; wasm: number; wasmGzip: number; largest: number }[]> {
  const worker = `import { createChunker } from 'chunkwise';
import 'chunkwise/encodings/cl100k_base';
export default { async fetch(request) { return Response.json(createChunker('fixed', { chunkSize: 256, chunkOverlap: 32 }).chunk(await request.text())); } };`;
  const edge = `import { createChunker, loadTokenizer } from 'chunkwise';
export async function POST(request) { await loadTokenizer('cl100k_base'); return Response.json(createChunker('sliding', { windowSize: 200, stride: 150 }).chunk(await request.text())); }`;
  const rows = [];
  for (const [name, source, conditions] of [
    ['Cloudflare Worker, cl100k_base bundled (workerd)', worker, ['workerd', 'worker', 'browser']],
    ['Vercel Edge function, await loadTokenizer (edge-light)', edge, ['edge-light', 'worker', 'browser']],
  ] as const) {
    const built = await bundleLikeDeploy(source, [...conditions], { resolveDir: project, minify: true, outDir: join(project, 'out-edge', name.replace(/\W+/g, '-')) });
    const js = readFileSync(built.js);
    const wasm = built.wasm.map((f) => readFileSync(f));
    rows.push({
      name,
      js: js.length,
      jsGzip: gz(js),
      wasm: wasm.reduce((s, b) => s + b.length, 0),
      wasmGzip: wasm.reduce((s, b) => s + gz(b), 0),
      largest: Math.max(js.length, ...wasm.map((b) => b.length)),
    });
  }
  return rows;
}

/**
 * A copy of the installed package whose `src/strategies/markdown.ts` does not import its
 * Markdown parser (the six mdast/micromark imports replaced by empty functions): an
 * estimate of the cold start once that parser is replaced, for the report only.
 */
function withoutMarkdownParser(project: string): string {
  const name = 'chunkwise-without-markdown-parser';
  const copy = join(project, 'node_modules', name);
  cpSync(join(project, 'node_modules', 'chunkwise'), copy, { recursive: true });
  const file = join(copy, 'dist', 'src', 'strategies', 'markdown.js');
  const code = readFileSync(file, 'utf8').replace(/import \{ (\w+) \} from '(?:mdast-util-[a-z-]+|micromark-extension-[a-z]+)';/g, 'const $1 = () => {};');
  if (/from 'm(dast|icromark)/.test(code)) throw new Error('markdown.js still imports its parser');
  writeFileSync(file, code);
  return name;
}

/** Whole-process cold start: import + first word chunk, interleaved rounds; medians in ms. */
export function coldStart(project: string, runs: number): { name: string; median: number; p25: number; p75: number }[] {
  const nm = join(repoRoot, 'node_modules');
  const noMarkdown = withoutMarkdownParser(project);
  const url = (p: string) => pathToFileURL(p).href;
  const text = JSON.stringify('The quick brown fox jumps over the lazy dog. '.repeat(4));
  const cases: [string, string][] = [
    ['node (empty script)', '0;'],
    [
      'chunkwise (SlidingWindowChunker, words)',
      `const { SlidingWindowChunker } = await import('chunkwise'); new SlidingWindowChunker({ unit: 'word', windowSize: 8, stride: 6, countTokens: false }).chunk(${text});`,
    ],
    [
      '@chonkiejs/core (RecursiveChunker)',
      `const { RecursiveChunker } = await import(${JSON.stringify(url(join(nm, '@chonkiejs', 'core', 'dist', 'index.js')))}); await (await RecursiveChunker.create({ chunkSize: 8 })).chunk(${text});`,
    ],
    [
      '@langchain/textsplitters (RecursiveCharacterTextSplitter)',
      `const { RecursiveCharacterTextSplitter } = await import(${JSON.stringify(url(join(nm, '@langchain', 'textsplitters', 'dist', 'index.js')))}); await new RecursiveCharacterTextSplitter({ chunkSize: 40, chunkOverlap: 0 }).splitText(${text});`,
    ],
    [
      'chunkwise without its Markdown parser (estimate: markdown.js stubbed)',
      `const { SlidingWindowChunker } = await import('${noMarkdown}'); new SlidingWindowChunker({ unit: 'word', windowSize: 8, stride: 6, countTokens: false }).chunk(${text});`,
    ],
    [
      "the Markdown parser's packages alone (mdast/micromark, as src/strategies/markdown.ts imports them)",
      `await Promise.all(['mdast-util-from-markdown', 'mdast-util-frontmatter', 'mdast-util-gfm', 'mdast-util-to-string', 'micromark-extension-frontmatter', 'micromark-extension-gfm'].map((m) => import(m)));`,
    ],
  ];
  const times = cases.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) {
    cases.forEach(([, code], i) => {
      const t0 = process.hrtime.bigint();
      const p = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (p.status !== 0) throw new Error(`${cases[i][0]} failed: ${p.stderr}`);
      times[i].push(ms);
    });
  }
  const q = (a: number[], p: number) => {
    const s = [...a].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  };
  return cases.map(([name], i) => ({ name, median: q(times[i], 0.5), p25: q(times[i], 0.25), p75: q(times[i], 0.75) }));
}

/** The whole report (Markdown). */
export async function runSizeBench(): Promise<string> {
  const load0 = os.loadavg()[0];
  const inst = installTarball();
  const builds: BuildFigures[] = [];
  for (const [app, source] of Object.entries(APPS)) {
    builds.push(await viteBuild(inst.project, app, source));
    builds.push(await esbuildBuild(inst.project, app, source));
  }
  const edge = await edgeBuilds(inst.project);
  const runs = Number(process.env.SIZE_RUNS ?? 25);
  const cold = coldStart(inst.project, runs);
  const chonkie = cold.find((c) => c.name.startsWith('@chonkiejs'))!.median;
  const lines: string[] = [];
  lines.push(
    `Tarball ${kb(inst.tarballBytes)} KB. Production install (\`npm install <tarball> --omit=dev --omit=optional --omit=peer\` into an empty project): ` +
      `**${(inst.installBytes / 1e6).toFixed(1)} MB** in ${inst.packages.length} packages (${inst.packages.filter((p) => p !== 'chunkwise').length} besides chunkwise).`,
    '',
    'Browser builds (minified; gzip -9 per file, summed). *At start*: the entry and its static imports; *loaded later*: the rank-table chunks the app imports (`loadTokenizer`); *all JS*: every emitted `.js` file, loaded or not.',
    '',
    '| app | tool | JS at start | loaded later | at start + later, gzip | all JS emitted | .wasm assets | largest file |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  );
  for (const b of builds) {
    lines.push(
      `| ${b.app} | ${b.tool} | ${kb(b.initial.bytes)} KB (${kb(b.initial.gzip)} gzip) | ${kb(b.loadedLater.bytes)} KB (${kb(b.loadedLater.gzip)} gzip) | ` +
        `**${kb(b.initial.gzip + b.loadedLater.gzip)} KB** | ${kb(b.allJs.bytes)} KB in ${b.allJs.files} files | ${b.wasm.files ? `${kb(b.wasm.bytes)} KB (${b.wasm.files})` : 'none'} | ${b.largest.file}, ${kb(b.largest.bytes)} KB |`,
    );
  }
  lines.push(
    '',
    'Edge builds (esbuild as the platforms bundle: their conditions, no splitting, minified; the `.wasm` files are separate modules of the upload):',
    '',
    '| build | JS | .wasm | upload, uncompressed | upload, gzip | largest module |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const e of edge) {
    lines.push(
      `| ${e.name} | ${kb(e.js)} KB (${kb(e.jsGzip)} gzip) | ${kb(e.wasm)} KB (${kb(e.wasmGzip)} gzip) | ${kb(e.js + e.wasm)} KB | **${kb(e.jsGzip + e.wasmGzip)} KB** | ${kb(e.largest)} KB |`,
    );
  }
  lines.push(
    '',
    `Node ${process.version} cold start, whole process (spawn to exit: import + first chunk of a short text), ${runs} runs per row interleaved round by round, ` +
      `load average ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}:`,
    '',
    '| process | median ms | p25–p75 ms | × @chonkiejs/core |',
    '|---|---:|---:|---:|',
  );
  for (const c of cold) lines.push(`| ${c.name} | ${c.median.toFixed(0)} | ${c.p25.toFixed(0)}–${c.p75.toFixed(0)} | ${(c.median / chonkie).toFixed(2)} |`);
  return lines.join('\n');
}
