// Rollup bundles of chunkwise for browsers, web workers and edge runtimes, made from
// tsc's ESM output in dist/ (so `npm run build` compiles TypeScript once). Node uses
// tsc's output directly (dist/src/index.js): it is already ESM, keeps its dependencies
// external and keeps the Node-only helpers in dist/src/node/ at their relative paths.
//
//   dist/bundle/inline/index.js   WebAssembly bytes built in (base64). Browsers
//                                 (`await initKernels()` in the main thread) and web
//                                 workers (synchronous use is fine there).
//   dist/bundle/asset/index.js    no bytes built in: `await initKernels(url)` loads
//                                 dist/bundle/asset/chunkwise.wasm (a copy of
//                                 build/chunkwise.wasm) as a separate asset.
//   dist/bundle/asset/workerd.js  Cloudflare Workers: `import wasm from './chunkwise.wasm'`
//                                 (workerd refuses to compile WebAssembly from bytes).
//   dist/bundle/asset/edge.js     Vercel Edge: `import wasm from './chunkwise.wasm?module'`.
//
// Dependencies are bundled (js-tiktoken, @huggingface/tokenizers); onnxruntime-web stays
// an external, dynamically imported module (it brings its own .wasm files and is only
// loaded by OnnxEmbedder). Type declarations are tsc's (dist/src/index.d.ts).
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import commonjs from '@rollup/plugin-commonjs';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const index = join(dist, 'src', 'index.js');
const codeEntry = join(dist, 'src', 'code.js');
const bindings = join(dist, 'bindings', 'index.js');
const bpeBindings = join(dist, 'bindings', 'bpe.js');
const inlineWasm = join(dist, 'bindings', 'generated', 'kernels-wasm.js');

/** Virtual entry modules: the public API, plus for workerd / Vercel Edge the wasm import. */
function entries(extra) {
  const wrappers = {
    'entry:index': `export * from ${JSON.stringify(index)};\n`,
    // chunkwise/code for browsers: web-tree-sitter bundled in; importing it also makes the registry's code entry use it
    'entry:code': `export * from ${JSON.stringify(codeEntry)};\n`,
    'entry:workerd':
      `import wasm from 'chunkwise-wasm-module:./chunkwise.wasm';\n` +
      `import bpeWasm from 'chunkwise-wasm-module:./bpe.wasm';\n` +
      `import { setKernelsModule } from ${JSON.stringify(bindings)};\n` +
      `import { setBpeModule } from ${JSON.stringify(bpeBindings)};\n` +
      `setKernelsModule(wasm);\nsetBpeModule(bpeWasm);\nexport * from ${JSON.stringify(index)};\n`,
    'entry:edge':
      `import wasm from 'chunkwise-wasm-module:./chunkwise.wasm?module';\n` +
      `import bpeWasm from 'chunkwise-wasm-module:./bpe.wasm?module';\n` +
      `import { setKernelsModule } from ${JSON.stringify(bindings)};\n` +
      `import { setBpeModule } from ${JSON.stringify(bpeBindings)};\n` +
      `setKernelsModule(wasm);\nsetBpeModule(bpeWasm);\nexport * from ${JSON.stringify(index)};\n`,
  };
  return {
    name: 'chunkwise-entries',
    resolveId(id) {
      if (id in wrappers) return id;
      if (id.startsWith('chunkwise-wasm-module:')) return { id: id.slice('chunkwise-wasm-module:'.length), external: true };
      if (id === 'onnxruntime-web') return { id, external: true };
      // web-tree-sitter's Node-only branches (never taken in a browser)
      if (id === 'fs/promises' || id === 'module' || id === 'fs' || id === 'path' || id === 'url') return { id, external: true };
      return extra?.resolveId?.(id) ?? null;
    },
    load(id) {
      if (id in wrappers) return wrappers[id];
      return extra?.load?.(id) ?? null;
    },
  };
}

/** Replaces the base64 WebAssembly module with an empty string (the asset bundles). */
const noInlineWasm = {
  load(id) {
    if (id === inlineWasm) return 'export const KERNELS_WASM_BASE64 = "";\n';
    return null;
  },
};

/** Copies build/chunkwise.wasm beside the asset bundles. */
const copyWasm = {
  name: 'chunkwise-copy-wasm',
  writeBundle() {
    mkdirSync(join(dist, 'bundle', 'asset'), { recursive: true });
    copyFileSync(join(root, 'build', 'chunkwise.wasm'), join(dist, 'bundle', 'asset', 'chunkwise.wasm'));
    copyFileSync(join(root, 'build', 'bpe.wasm'), join(dist, 'bundle', 'asset', 'bpe.wasm'));
  },
};

const resolve = () =>
  nodeResolve({ browser: true, exportConditions: ['browser', 'worker', 'import', 'default'], preferBuiltins: false });

const onwarn = (warning, warn) => {
  // The computed `import(spec)` of Node-only helpers is meant to stay unresolved.
  if (warning.code === 'CIRCULAR_DEPENDENCY') return; // bindings/index ⇄ bindings/embedding, harmless
  if (warning.message?.includes('dynamic import')) return;
  warn(warning);
};

export default [
  // dist/bundle/code/code.js: chunkwise/code for browsers and workers, web-tree-sitter inside (a chunk it
  // imports on first use); a build of its own, so the root bundles stay one file and free of tree-sitter
  {
    input: { code: 'entry:code' },
    plugins: [entries(), resolve(), commonjs()],
    output: { dir: join(dist, 'bundle', 'code'), format: 'es', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: false },
    onwarn,
  },
  {
    input: { index: 'entry:index' },
    plugins: [entries(), resolve(), commonjs()],
    output: { dir: join(dist, 'bundle', 'inline'), format: 'es', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: false },
    onwarn,
  },
  {
    input: { index: 'entry:index', workerd: 'entry:workerd', edge: 'entry:edge' },
    plugins: [entries(noInlineWasm), resolve(), commonjs(), copyWasm],
    output: { dir: join(dist, 'bundle', 'asset'), format: 'es', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: false },
    onwarn,
  },
];
