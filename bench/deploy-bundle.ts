/**
 * Bundling code that imports chunkwise the way the edge platforms' tooling bundles a
 * user's code: esbuild with the runtime's export conditions (wrangler uses `workerd`,
 * `worker`, `browser`; Vercel Edge `edge-light`, `worker`, `browser`), `.wasm` imports
 * kept as separate modules (wrangler's CompiledWasm rule; Vercel's `?module`), no code
 * splitting. Used by test/edge.test.ts (workerd, edge-runtime) and bench/size.bench.ts.
 * @module
 */
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';

/** What {@link bundleLikeDeploy} wrote. */
export interface DeployBundle {
  /** The folder holding everything (the worker's modules root). */
  dir: string;
  /** The bundled JavaScript. */
  js: string;
  /** The `.wasm` modules the bundle imports, copied beside it. */
  wasm: string[];
  metafile: Metafile;
}

/** Options of {@link bundleLikeDeploy}. */
export interface DeployBundleOptions {
  /** `esm` (a Worker module, default) or `iife` (one classic script). */
  format?: 'esm' | 'iife';
  /**
   * For `iife`: the global whose property `<file>.wasm` holds each compiled module (the
   * way Vercel's bundler hands over `?module` imports). Required with `iife`.
   */
  wasmGlobal?: string;
  minify?: boolean;
  /** Where bare imports resolve from (a consumer project). Default: chunkwise is this repository, linked into a temporary node_modules. */
  resolveDir?: string;
  /** Output folder (default: a new temporary one). */
  outDir?: string;
  /**
   * Imports left to the runtime (esbuild `external`): web-tree-sitter's Node branch
   * (`import("fs/promises")`, `import("module")`, never taken outside Node) for a worker
   * that uses `chunkwise/code`; wrangler users mark them the same way (or enable nodejs_compat).
   */
  external?: string[];
}

const repoRoot = resolve(dirname(new URL(import.meta.url).pathname), '..');

/**
 * Bundles `entry` (a file path, or module source text when it contains a newline).
 * @throws when esbuild fails (an import that does not resolve under those conditions).
 */
export async function bundleLikeDeploy(entry: string, conditions: string[], options: DeployBundleOptions = {}): Promise<DeployBundle> {
  const dir = options.outDir ?? mkdtempSync(join(tmpdir(), 'chunkwise-deploy-'));
  mkdirSync(dir, { recursive: true });
  let nodePaths: string[] = [];
  let resolveDir = options.resolveDir;
  if (!resolveDir) {
    const modules = join(dir, 'node_modules');
    mkdirSync(modules, { recursive: true });
    symlinkSync(repoRoot, join(modules, 'chunkwise'), 'dir');
    nodePaths = [modules, join(repoRoot, 'node_modules')];
    resolveDir = repoRoot;
  }
  const wasm: string[] = [];
  const format = options.format ?? 'esm';
  const wasmModules: Plugin = {
    name: 'wasm-modules',
    setup(b) {
      b.onResolve({ filter: /\.wasm(\?module)?$/ }, (args) => {
        const file = resolve(args.resolveDir, args.path.replace(/\?module$/, ''));
        const name = basename(file);
        const copy = join(dir, name);
        if (!wasm.includes(copy)) {
          copyFileSync(file, copy);
          wasm.push(copy);
        }
        if (format === 'esm') return { path: './' + name, external: true };
        return { path: name, namespace: 'wasm-global' };
      });
      b.onLoad({ filter: /.*/, namespace: 'wasm-global' }, (args) => ({
        contents: `export default globalThis[${JSON.stringify(options.wasmGlobal)}][${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
  const js = join(dir, format === 'esm' ? 'worker.js' : 'script.js');
  const source = entry.includes('\n') || !isAbsolute(entry);
  const result = await build({
    ...(source ? { stdin: { contents: entry, resolveDir, loader: 'js' as const, sourcefile: 'entry.js' } } : { entryPoints: [entry] }),
    bundle: true,
    format,
    platform: 'neutral',
    mainFields: ['browser', 'module', 'main'],
    conditions,
    nodePaths,
    outfile: js,
    minify: options.minify ?? false,
    metafile: true,
    logLevel: 'silent',
    plugins: [wasmModules],
    ...(options.external ? { external: options.external } : {}),
  });
  return { dir, js, wasm, metafile: result.metafile };
}
