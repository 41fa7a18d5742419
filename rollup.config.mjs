// The package's builds beside tsc's ESM output (dist/src, dist/bindings), which is what
// Node and bundlers (Vite, esbuild, webpack, wrangler) use: module by module, so that they
// tree-shake and emit each rank table as its own lazy chunk.
//
//   dist/runtime/workerd.js       Cloudflare Workers (`workerd` condition): imports
//                                 build/chunkwise.wasm and build/bpe.wasm as compiled
//                                 modules (workerd refuses to compile WebAssembly from
//                                 bytes), then re-exports dist/src/index.js.
//   dist/runtime/edge.js          Vercel Edge (`edge-light`): the same with `?module`.
//
// Rollup bundles, for use without a bundler (a page importing them directly, the web
// page in web/), with code splitting so that entries share one instance of everything:
//   dist/bundle/inline/           WebAssembly bytes built in (base64): index.js, onnx.js,
//                                 evaluation.js, code.js, encodings/<encoding>.js; shared code and
//                                 the rank tables in chunks/.
//   dist/bundle/asset/            the same without the kernels' bytes: `await
//                                 initKernels(url)` loads dist/bundle/asset/chunkwise.wasm.
//
// Dependencies are bundled (@huggingface/tokenizers, the Markdown parser); onnxruntime-web
// stays an external, dynamically imported module (it brings its own .wasm files and is
// only loaded by OnnxEmbedder). Type declarations are tsc's (dist/src/*.d.ts).
import { rmSync, writeFileSync } from 'node:fs';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import commonjs from '@rollup/plugin-commonjs';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const inlineWasm = join(dist, 'bindings', 'generated', 'kernels-wasm.js');
// Bundles of earlier builds (chunk names carry hashes) would otherwise pile up and be packed.
rmSync(join(dist, 'bundle'), { recursive: true, force: true });

/** The bundles' entries: the public API and the subpaths a page may need beside it. */
const inputs = {
  index: join(dist, 'src', 'index.js'),
  onnx: join(dist, 'src', 'onnx.js'),
  evaluation: join(dist, 'src', 'evaluation', 'index.js'),
  'encodings/cl100k_base': join(dist, 'src', 'encodings', 'cl100k_base.js'),
  'encodings/o200k_base': join(dist, 'src', 'encodings', 'o200k_base.js'),
  // chunkwise/code: web-tree-sitter goes to a chunk only this entry loads
  code: join(dist, 'src', 'code.js'),
};

/** onnxruntime-web stays external; `extra` may load modules differently. */
function entries(extra) {
  return {
    name: 'chunkwise-entries',
    resolveId(id) {
      if (id === 'onnxruntime-web') return { id, external: true };
      // web-tree-sitter's Node branch (taken only in Node): its built-ins stay external
      if (id === 'fs/promises' || id === 'module' || id === 'fs' || id === 'path' || id === 'url') return { id, external: true };
      return null;
    },
    load(id) {
      return extra?.load?.(id) ?? null;
    },
  };
}

/** The workerd and Vercel Edge entries: the compiled wasm modules set up on import, then the API. */
function runtimeEntry(suffix) {
  return (
    `// Written by rollup.config.mjs. Imports the WebAssembly modules as compiled modules\n` +
    `// (workerd and Vercel Edge refuse to compile WebAssembly from bytes) and sets them up.\n` +
    `import wasm from '../../build/chunkwise.wasm${suffix}';\n` +
    `import bpeWasm from '../../build/bpe.wasm${suffix}';\n` +
    `import { setKernelsModule } from '../bindings/index.js';\n` +
    `import { setBpeModule } from '../bindings/bpe.js';\n` +
    `setKernelsModule(wasm);\nsetBpeModule(bpeWasm);\nexport * from '../src/index.js';\n`
  );
}

/** Replaces the base64 WebAssembly module with an empty string (the asset bundles). */
const noInlineWasm = {
  load(id) {
    if (id === inlineWasm) return 'export const KERNELS_WASM_BASE64 = "";\n';
    return null;
  },
};

/** Copies build/chunkwise.wasm beside the asset bundles; writes dist/runtime/. */
const copyWasm = {
  name: 'chunkwise-copy-wasm',
  writeBundle() {
    mkdirSync(join(dist, 'runtime'), { recursive: true });
    writeFileSync(join(dist, 'runtime', 'workerd.js'), runtimeEntry(''));
    writeFileSync(join(dist, 'runtime', 'edge.js'), runtimeEntry('?module'));
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
  {
    input: inputs,
    plugins: [entries(), resolve(), commonjs()],
    // strict: shared code goes to chunks/, never into another entry (loading index.js must
    // not load evaluation.js)
    preserveEntrySignatures: 'strict',
    output: { dir: join(dist, 'bundle', 'inline'), format: 'es', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: false },
    onwarn,
  },
  {
    input: inputs,
    plugins: [entries(noInlineWasm), resolve(), commonjs(), copyWasm],
    preserveEntrySignatures: 'strict',
    output: { dir: join(dist, 'bundle', 'asset'), format: 'es', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: false },
    onwarn,
  },
];
