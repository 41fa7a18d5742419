/**
 * What the package publishes and what its bundles import:
 * - `npm pack --dry-run` lists every file the `exports` map and `bin` point to, the
 *   bundles and the wasm, and no test, bench, TypeScript source or source map;
 * - the browser/edge bundles import no Node built-in and call no `require(`: their only
 *   imports are their own relative files, the `.wasm` module and the optional
 *   `onnxruntime-web`;
 * - installed beside LanceDB (`npm i <tarball> @lancedb/lancedb@0.31.0 apache-arrow`, the
 *   tree npm resolves, read from the lock it writes), chunkwise's optional peers bring no
 *   ONNX Runtime of their own: every onnxruntime package in the tree is an optional one,
 *   there through LanceDB's optional Transformers.js (a version range on the peers made
 *   npm add onnxruntime-web and -node 1.30 beside them: 982 MB installed, against 553 MB).
 *   This resolves against the npm registry (package metadata, no tarballs).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import { join, posix, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';

const pkgText = readFileSync(join(repoRoot, 'package.json'), 'utf8');
const pkg = JSON.parse(pkgText);

function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Module specifiers a bundle imports: static `import … from`, `export … from`, bare `import '…'`, `import('…')`. */
export function importSpecifiers(code: string): string[] {
  const specs = new Set<string>();
  // block comments that open a line (JSDoc `@import {T} from 'pkg'` in bundled code) are not imports
  code = code.replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, '');
  const patterns = [/\b(?:import|export)\s[^'";]*?\bfrom\s*(['"])([^'"]+)\1/g, /\bimport\s*(['"])([^'"]+)\1/g, /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g];
  for (const re of patterns) for (const m of code.matchAll(re)) specs.add(m[2]);
  return [...specs];
}

describe('the packed package.json', () => {
  it('has no prepare script (it builds a git checkout; an installed tarball listed it as an install script to approve)', () => {
    // packed from a copy, so the checkout's package.json is never changed while other tests run
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-pack-'));
    const copy = join(dir, 'chunkwise');
    try {
      for (const entry of ['package.json', 'scripts/pack-manifest.mjs', 'README.md', 'docs', 'dist/src', 'dist/bindings', 'dist/bundle', 'build', 'src/embedders/README.md', 'bench/RESULTS.md']) {
        cpSync(join(repoRoot, entry), join(copy, entry), { recursive: true });
      }
      // prepack strips `prepare`, postpack restores the file; --ignore-scripts would skip both
      execFileSync('npm', ['pack', '--pack-destination', dir, '--json'], { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, npm_config_ignore_scripts: '' } });
      const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
      const packed = JSON.parse(execFileSync('tar', ['-xzOf', join(dir, tgz), 'package/package.json'], { encoding: 'utf8' }));
      expect(pkg.scripts.prepare).toBe('npm run build');
      expect(packed.scripts.prepare).toBeUndefined();
      expect(packed.scripts.build).toBe(pkg.scripts.build);
      expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(pkgText); // restored after packing
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm pack --dry-run', () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const files: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);

  it('holds every exports target, the bin, the bundles and the wasm', () => {
    const needed = [...targets(pkg.exports), ...targets(pkg.bin)].map((t) => t.replace(/^\.\//, ''));
    expect(needed).toEqual(
      expect.arrayContaining([
        'dist/src/index.js',
        'dist/runtime/workerd.js',
        'dist/runtime/edge.js',
        'dist/src/onnx.js',
        'dist/src/kernels.js',
        'dist/node/kernels.js',
        'dist/src/evaluation/index.js',
        'dist/src/encodings/cl100k_base.js',
        'dist/node/index.js',
        'dist/node/code.js',
        'dist/node/evaluation/index.js',
        'dist/bindings/generated/ranks/cl100k_base.bpe',
        'dist/bindings/generated/ranks/o200k_base.bpe',
      ]),
    );
    for (const file of needed) expect(files, file).toContain(file);
    for (const file of [
      'build/chunkwise.wasm',
      'build/bpe.wasm',
      'dist/bundle/inline/index.js',
      'dist/bundle/asset/chunkwise.wasm',
      'dist/bundle/asset/index.js',
      'dist/src/index.d.ts',
      'dist/src/node/index.js',
      'README.md',
      'package.json',
    ]) {
      expect(files, file).toContain(file);
    }
  });

  it('maps every JavaScript subpath to the Node build under a `node` condition, after types and the edge runtimes, before default', () => {
    const js = Object.entries(pkg.exports as Record<string, string | Record<string, string>>).filter(
      (e): e is [string, Record<string, string>] => typeof e[1] === 'object' && /^\.\/dist\/src\/.+\.js$/.test(e[1].default),
    );
    expect(js.map(([k]) => k)).toEqual(expect.arrayContaining(['.', './code', './evaluation', './onnx', './node', './tiktoken', './transformers', './sinks']));
    for (const [subpath, conditions] of js) {
      const keys = Object.keys(conditions);
      expect(keys.slice(-2), subpath).toEqual(['node', 'default']);
      expect(keys[0], subpath).toBe('types');
      expect(conditions.node, subpath).toBe(conditions.default.replace('./dist/src/', './dist/node/'));
      expect(files, subpath).toContain(conditions.node.slice(2));
    }
    // the asset bundle is for pages; browsers and bundlers for browsers keep dist/src
    expect(Object.keys(pkg.exports['./asset'])).toEqual(['types', 'default']);
  });

  it('holds every file the packed Markdown links to (docs, SVG charts, src/embedders/README.md, bench/RESULTS.md; screenshots are in the repository only)', () => {
    const markdown = files.filter((f) => f.endsWith('.md'));
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/qasc.md', 'src/embedders/README.md', 'bench/RESULTS.md']));
    const missing: string[] = [];
    let links = 0;
    for (const file of markdown) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(m[1])) continue; // https:, mailto:
        links++;
        const target = posix.normalize(posix.join(posix.dirname(file), m[1]));
        // screenshots stay in the repository, out of the package (test/sizes-docs.test.ts)
        if (/\.(png|jpe?g)$/i.test(target) && existsSync(join(repoRoot, target))) continue;
        if (!files.includes(target)) missing.push(`${file} → ${m[1]}`);
      }
    }
    expect(links).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });

  it('holds no tests, benches, TypeScript sources or source maps (Markdown docs aside)', () => {
    const bad = files.filter(
      (f) =>
        (/^(src|test|bench|assembly|scripts|web|bindings|\.ci)\//.test(f) && !/^(src\/embedders\/README|bench\/RESULTS)\.md$/.test(f)) ||
        /^dist\/(test|bench)\//.test(f) ||
        (f.endsWith('.ts') && !f.endsWith('.d.ts')) ||
        f.endsWith('.map') ||
        /(^|\/)(rollup\.config|vitest\.config|tsconfig)/.test(f),
    );
    expect(bad).toEqual([]);
  });
});

describe('bundles for browsers and edge runtimes', () => {
  const bundleDir = join(repoRoot, 'dist', 'bundle');
  const runtimeDir = join(repoRoot, 'dist', 'runtime');
  const jsFiles = [...walk(bundleDir), ...walk(runtimeDir)].filter((f) => f.endsWith('.js'));
  const nodeBuiltins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

  it('exist for every variant', () => {
    expect(jsFiles.map((f) => relative(join(repoRoot, 'dist'), f)).sort()).toEqual(
      expect.arrayContaining([
        'bundle/asset/index.js',
        'bundle/asset/onnx.js',
        'bundle/asset/kernels.js',
        'bundle/inline/index.js',
        'bundle/inline/onnx.js',
        'bundle/inline/kernels.js',
        'bundle/inline/encodings/cl100k_base.js',
        'runtime/edge.js',
        'runtime/workerd.js',
      ]),
    );
  });

  // web-tree-sitter (inside the code bundle only) has a Node branch it takes when it runs in Node:
  // `await import("module")`, `import("fs/promises")`, `createRequire(import.meta.url)` then
  // `require("fs")`; bundlers leave dynamic imports of built-ins for browsers external. It is
  // checked to be that branch and nothing else.
  const TREE_SITTER = /^bundle\/(inline|asset)\/chunks\/tree-sitter-[\w-]+\.js$/;
  it.each(jsFiles.map((f) => [relative(join(repoRoot, 'dist'), f), f]))('%s imports no Node built-in and calls no require(', (name, file) => {
    let code = readFileSync(file, 'utf8');
    if (TREE_SITTER.test(name)) {
      const before = code;
      code = code
        .replace(/await import\(['"]fs\/promises['"]\)/g, '')
        .replace(/await import\(['"]module['"]\)/g, '')
        .replace(/var require = createRequire\(import\.meta\.url\);/g, '')
        .replace(/require\("(fs|path|url)"\)/g, '')
        .replace(/\/\/ \(import "e" "f"[^\n]*/g, ''); // a WebAssembly text comment, not an import
      expect(code).not.toBe(before);
      expect(code).toMatch(/ENVIRONMENT_IS_NODE/);
    }
    expect(code).not.toMatch(/\brequire\s*\(/);
    expect(code).not.toMatch(/['"]node:/);
    const specs = importSpecifiers(code);
    expect(specs.filter((s) => nodeBuiltins.has(s))).toEqual([]);
    // Only own files, the wasm module and the optional onnxruntime-web (and, in the PDF
    // loader's module, the optional pdf.js, imported when the page passes none of its own;
    // in the DOCX loader's module, the optional mammoth, which a page maps in its import map).
    const pdfLoader = /^bundle\/(inline|asset)\/(pdf\.js|chunks\/pdf-[\w-]+\.js)$/.test(name);
    const docxLoader = /^bundle\/(inline|asset)\/chunks\/docx-[\w-]+\.js$/.test(name);
    const peer = (s: string) => s === 'onnxruntime-web' || (pdfLoader && s === 'pdfjs-dist/legacy/build/pdf.mjs') || (docxLoader && s === 'mammoth');
    expect(specs.filter((s) => !s.startsWith('./') && !s.startsWith('../') && !peer(s))).toEqual([]);
  });

  it('the scanner ignores JSDoc @import lines', () => {
    expect(importSpecifiers(`/**\n * @import {Code} from 'micromark-util-types'\n */\nimport a from './a.js';`)).toEqual(['./a.js']);
  });

  it('the scanner finds what it must reject', () => {
    expect(importSpecifiers(`import { readFileSync } from 'node:fs';\nexport * from "path";\nimport 'os';\nawait import("node:crypto");`).sort()).toEqual(
      ['node:crypto', 'node:fs', 'os', 'path'],
    );
  });

  it('the asset bundle without initKernels fails with a WasmError naming initKernels', () => {
    // In a plain Node process (vitest's transform of a 3.6 MB bundle costs ~10 s).
    const script = `
      const asset = await import(${JSON.stringify(join(bundleDir, 'asset', 'index.js'))});
      const kernels = await import(${JSON.stringify(join(bundleDir, 'asset', 'kernels.js'))});
      const { readFileSync } = await import('node:fs');
      let before;
      try { kernels.planWindows(10, 4, 3); before = 'no error'; } catch (e) { before = (e instanceof asset.WasmError) + ' ' + e.message; }
      await asset.initKernels(readFileSync(${JSON.stringify(join(bundleDir, 'asset', 'chunkwise.wasm'))}));
      console.log(JSON.stringify({ before, after: Array.from(kernels.planWindows(10, 4, 3).starts) }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
    expect(out.before).toMatch(/^true This chunkwise bundle has no built-in WebAssembly bytes: call await initKernels\(url of chunkwise.wasm\)/);
    expect(out.after).toEqual([0, 3, 6]);
  });
});

describe('installed beside LanceDB', () => {
  it('npm resolves no ONNX Runtime for chunkwise (npm i <tarball> @lancedb/lancedb@0.31.0 apache-arrow)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-lancedb-'));
    try {
      const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const tarball = join(dir, JSON.parse(out)[0].filename);
      const app = join(dir, 'app');
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'lancedb-app', private: true }));
      execFileSync('npm', ['install', tarball, '@lancedb/lancedb@0.31.0', 'apache-arrow', '--package-lock-only', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: app,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string; optional?: boolean }> };
      expect(lock.packages['node_modules/chunkwise']).toBeDefined();
      expect(lock.packages['node_modules/@lancedb/lancedb'].version).toBe('0.31.0');
      const ort = Object.entries(lock.packages).filter(([path]) => /(^|\/)node_modules\/onnxruntime-(web|node|common)$/.test(path));
      // the ONNX Runtime LanceDB's optional Transformers.js brings, once, and nothing beside it
      expect(ort.map(([path, p]) => `${path}@${p.version}${p.optional ? ' (optional)' : ''}`)).toEqual(ort.map(([path, p]) => `${path}@${p.version} (optional)`));
      expect(ort.filter(([path]) => path.endsWith('/onnxruntime-web'))).toHaveLength(1);
      expect(ort.filter(([path]) => path.endsWith('/onnxruntime-node'))).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
