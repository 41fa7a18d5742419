// The package's builds beside tsc's ESM output (dist/src, dist/bindings), which is what
// bundlers (Vite, esbuild, webpack, wrangler) use: module by module, so that they
// tree-shake and emit each rank table as its own lazy chunk. Node uses dist/node (below).
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
//                                 evaluation.js, kernels.js, engine.js, code.js, pdf.js, encodings/<encoding>.js; shared code and
//                                 the rank tables in chunks/.
//   dist/bundle/asset/            the same without the kernels' bytes: `await
//                                 initKernels(url)` loads dist/bundle/asset/chunkwise.wasm.
//
// Dependencies are bundled (@huggingface/tokenizers, the Markdown parser); onnxruntime-web
// stays an external, dynamically imported module (it brings its own .wasm files and is
// only loaded by OnnxEmbedder). Type declarations are tsc's (dist/src/*.d.ts).
//
// The Node build (the `node` condition of every JavaScript subpath of `exports`):
//   dist/node/                    every such subpath in one build with code splitting, so
//                                 that whatever mix of subpaths a process imports, each
//                                 module (the registry, the error classes, the rank-table
//                                 state) exists once; shared code in chunks/. It exists for
//                                 Node's cold start, which is Node's ESM loader over the
//                                 number of modules (~106 files from dist/src and
//                                 htmlparser2's whole index, against a few chunks here).
//                                 htmlparser2, entities and character-entities are bundled
//                                 in (only htmlparser2's Tokenizer is used); every other
//                                 package stays external (optional peers, regular
//                                 dependencies), dynamic imports stay dynamic (own chunks),
//                                 and the rank-table data modules of
//                                 dist/bindings/generated/ranks/ are imported from there.
//                                 `import.meta.url` keeps meaning the module's dist/src or
//                                 dist/bindings file (the .bpe tables, the batch worker,
//                                 tree-sitter-wasms are found from there).
import { rmSync, writeFileSync } from 'node:fs';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import commonjs from '@rollup/plugin-commonjs';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const inlineWasm = join(dist, 'bindings', 'generated', 'kernels-wasm.js');
// Bundles of earlier builds (chunk names carry hashes) would otherwise pile up and be packed.
rmSync(join(dist, 'bundle'), { recursive: true, force: true });
rmSync(join(dist, 'node'), { recursive: true, force: true });

/** The bundles' entries: the public API and the subpaths a page may need beside it. */
const inputs = {
  index: join(dist, 'src', 'index.js'),
  onnx: join(dist, 'src', 'onnx.js'),
  kernels: join(dist, 'src', 'kernels.js'),
  engine: join(dist, 'src', 'engine.js'),
  evaluation: join(dist, 'src', 'evaluation', 'index.js'),
  'encodings/cl100k_base': join(dist, 'src', 'encodings', 'cl100k_base.js'),
  'encodings/o200k_base': join(dist, 'src', 'encodings', 'o200k_base.js'),
  // chunkwise/code: web-tree-sitter goes to a chunk only this entry loads
  code: join(dist, 'src', 'code.js'),
  // chunkwise/pdf for the web page's PDF view: pdf.js stays external (the page passes
  // its own module, served from node_modules, as `extractPdf(bytes, { pdfjs })`)
  pdf: join(dist, 'src', 'pdf.js'),
};

/** onnxruntime-web stays external; `extra` may load modules differently. */
function entries(extra) {
  return {
    name: 'chunkwise-entries',
    resolveId(id) {
      // mammoth too: the pipeline's load stage reaches the Word loader (it fails with MissingDependencyError unless the page maps it)
      if (id === 'onnxruntime-web' || id.startsWith('pdfjs-dist/') || id === 'mammoth') return { id, external: true };
      // web-tree-sitter's Node branch (taken only in Node): its built-ins stay external
      if (id === 'fs/promises' || id === 'module' || id === 'fs' || id === 'path' || id === 'url') return { id, external: true };
      return null;
    },
    load(id) {
      return extra?.load?.(id) ?? null;
    },
    transform(code, id) {
      return id === pipelineLoad ? literalLoaders(code, id) : null;
    },
  };
}

/** The pipeline's load stage, whose loaders (documents/load.js, documents/pdf.js) each build imports literally. */
const pipelineLoad = join(dist, 'src', 'pipeline', 'load.js');
function literalLoaders(code, id) {
  const specs = [...code.matchAll(/\b[A-Z]+_MODULE = '([^']+)'/g)].map((m) => m[1]);
  return literalImport(code, id, 'import(/* @vite-ignore */ spec)', 'spec', specs);
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

/** The Node build's entries: every `exports` subpath whose default is a dist/src JavaScript file, named by that path. */
function nodeInputs() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = {};
  for (const target of Object.values(pkg.exports)) {
    const file = typeof target === 'object' ? target.default : undefined;
    const m = /^\.\/dist\/src\/(.+)\.js$/.exec(file ?? '');
    if (m) out[m[1]] = join(dist, 'src', m[1] + '.js');
  }
  return out;
}

const nodeDist = join(dist, 'node');
const toPosix = (p) => p.split(sep).join('/');
/**
 * Packages bundled into the Node build: htmlparser2 (its Tokenizer is all chunkwise uses;
 * the rest of its index and the dom* packages it imports tree-shake away) and the entities
 * tables (`entities` for the Tokenizer, `character-entities` for Markdown).
 */
const BUNDLED = /^(htmlparser2|entities|character-entities|domhandler|domelementtype|domutils|dom-serializer)(\/|$)/;
const RANK_DATA = join(dist, 'bindings', 'generated', 'ranks') + sep;

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : []));
}

/**
 * Replaces a computed `import(<variable>)` (kept computed in dist/src so that browser
 * bundlers do not follow it) by a switch over the literal specifiers it is called with,
 * found in dist/src at build time, so that rollup puts those modules in lazy chunks of
 * the Node build instead of leaving a path relative to dist/src. Fails the build when
 * the code it expects is not there (the source changed: update this).
 */
function literalImport(code, id, expression, variable, specifiers) {
  if (!code.includes(expression)) throw new Error(`rollup.config.mjs: ${expression} not found in ${id}`);
  if (specifiers.length === 0) throw new Error(`rollup.config.mjs: no specifiers found for ${id}`);
  const cases = specifiers.map((s) => `case ${JSON.stringify(s)}: return import(${JSON.stringify(s)});`).join(' ');
  const fn = `__chunkwiseImport_${variable}`;
  return (
    code.replace(expression, `${fn}(${variable})`) +
    `\n/** Written by rollup.config.mjs (Node build): the computed import above, with literal specifiers. */\n` +
    `function ${fn}(spec) { switch (spec) { ${cases} default: return Promise.reject(new Error('chunkwise: no module ' + spec + ' in this build')); } }\n`
  );
}

/** The Node build's resolution, the computed imports made literal, and `import.meta.url` of the original file. */
function nodeBuild() {
  const runtime = join(dist, 'src', 'engine', 'runtime.js');
  const codeSchema = join(dist, 'src', 'strategies', 'code', 'schema.js');
  return {
    name: 'chunkwise-node',
    async resolveId(id, importer) {
      if (!importer) return null;
      if (id.startsWith('node:')) return { id, external: true };
      if (!id.startsWith('.') && !id.startsWith('/')) {
        if (BUNDLED.test(id)) return null; // node-resolve finds it
        return { id, external: true };
      }
      const resolved = join(dirname(importer), id);
      // the rank tables' data modules: stateless, megabytes; imported from dist/bindings
      if (resolved.startsWith(RANK_DATA)) return { id: resolved, external: true };
      return null;
    },
    transform(code, id) {
      if (id === runtime) {
        const names = new Set();
        for (const f of jsFiles(join(dist, 'src'))) {
          for (const m of readFileSync(f, 'utf8').matchAll(/\bimportNodeHelper\(\s*'([\w/-]+)'\s*\)/g)) names.add(m[1]);
        }
        // a helper path that names no module of this build comes from a stale file of an older layout: left out
        const helpers = [...names].filter((n) => existsSync(join(dist, 'src', `${n}.js`))).sort();
        return literalImport(code, id, 'import(/* @vite-ignore */ spec)', 'spec', helpers.map((n) => `../${n}.js`));
      }
      if (id === pipelineLoad) return literalLoaders(code, id);
      if (id === codeSchema) {
        const paths = [...new Set([...code.matchAll(/\bimportModule\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]))];
        return literalImport(code, id, 'import(/* @vite-ignore */ path)', 'path', paths);
      }
      return null;
    },
    resolveImportMeta(property, { chunkId, moduleId }) {
      if (property !== 'url') return null;
      const rel = toPosix(relative(dirname(join(nodeDist, chunkId)), moduleId));
      return `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
    },
  };
}

/**
 * Every module the root entry imports statically goes into one chunk (chunks/core-*.js):
 * `import('chunkwise')` then loads two files of this build, not the dozen small shared
 * chunks that code splitting over 15 entries would make. What other entries add, and
 * everything behind a dynamic import, stays in chunks of its own (loaded when used).
 */
function coreChunk(rootId) {
  let core;
  return (id, { getModuleInfo }) => {
    if (!core) {
      core = new Set();
      const todo = [rootId];
      while (todo.length) {
        const info = getModuleInfo(todo.pop());
        if (!info || info.isExternal || core.has(info.id)) continue;
        core.add(info.id);
        todo.push(...info.importedIds);
      }
    }
    return core.has(id) ? 'core' : undefined;
  };
}

const nodeOnwarn = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY') return; // bindings/index ⇄ bindings/embedding, harmless
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
  {
    input: nodeInputs(),
    plugins: [nodeBuild(), nodeResolve({ exportConditions: ['node', 'import', 'default'], preferBuiltins: true })],
    preserveEntrySignatures: 'strict',
    // entries at their dist/src paths (dist/node/index.js, dist/node/evaluation/index.js …)
    output: {
      dir: nodeDist,
      format: 'es',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      manualChunks: coreChunk(join(dist, 'src', 'index.js')),
      sourcemap: false,
    },
    onwarn: nodeOnwarn,
  },
];
