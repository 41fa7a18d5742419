// A Cloudflare Worker (run by miniflare/workerd in test/edge.test.ts, bundled first by
// esbuild as wrangler does): POST a JSON list of documents, get the harness's JSON.
// Imports the package's `workerd` entry, which imports chunkwise.wasm and bpe.wasm as
// compiled modules (workerd refuses to compile wasm bytes), and the rank tables
// statically (`chunkwise/encodings/<encoding>`: synchronous use, no await). The code
// strategy: `chunkwise/code`, with web-tree-sitter's runtime and the grammars imported as
// compiled modules too, handed over as `treeSitterWasm` and `grammar`.
import * as api from 'chunkwise';
import * as kernels from 'chunkwise/kernels';
import 'chunkwise/code';
import 'chunkwise/encodings/cl100k_base';
import 'chunkwise/encodings/o200k_base';
import treeSitterWasm from '../../node_modules/web-tree-sitter/tree-sitter.wasm';
import typescript from '../../node_modules/tree-sitter-wasms/out/tree-sitter-typescript.wasm';
import tsx from '../../node_modules/tree-sitter-wasms/out/tree-sitter-tsx.wasm';
import javascript from '../../node_modules/tree-sitter-wasms/out/tree-sitter-javascript.wasm';
import python from '../../node_modules/tree-sitter-wasms/out/tree-sitter-python.wasm';
import rust from '../../node_modules/tree-sitter-wasms/out/tree-sitter-rust.wasm';
import go from '../../node_modules/tree-sitter-wasms/out/tree-sitter-go.wasm';
import java from '../../node_modules/tree-sitter-wasms/out/tree-sitter-java.wasm';
import c from '../../node_modules/tree-sitter-wasms/out/tree-sitter-c.wasm';
import cpp from '../../node_modules/tree-sitter-wasms/out/tree-sitter-cpp.wasm';
import csharp from '../../node_modules/tree-sitter-wasms/out/tree-sitter-c_sharp.wasm';
import ruby from '../../node_modules/tree-sitter-wasms/out/tree-sitter-ruby.wasm';
import php from '../../node_modules/tree-sitter-wasms/out/tree-sitter-php.wasm';
import { runWorkload } from './harness.mjs';

const grammars = { typescript, tsx, javascript, python, rust, go, java, c, cpp, csharp, ruby, php };
const code = (doc) => ({ grammar: grammars[doc.language], treeSitterWasm });

export default {
  async fetch(request) {
    try {
      const docs = await request.json();
      return new Response(await runWorkload({ ...api, ...kernels }, docs, {}, { code }), { headers: { 'content-type': 'application/json' } });
    } catch (error) {
      return new Response(String((error && error.stack) || error), { status: 500 });
    }
  },
};
