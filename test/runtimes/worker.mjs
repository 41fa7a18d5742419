// A Cloudflare Worker (run by miniflare/workerd in test/edge.test.ts, bundled first by
// esbuild as wrangler does): POST a JSON list of documents, get the harness's JSON.
// Imports the package's `workerd` entry, which imports chunkwise.wasm and bpe.wasm as
// compiled modules (workerd refuses to compile wasm bytes), and the rank tables
// statically (`chunkwise/encodings/<encoding>`: synchronous use, no await).
import * as api from 'chunkwise';
import 'chunkwise/encodings/cl100k_base';
import 'chunkwise/encodings/o200k_base';
import { runWorkload } from './harness.mjs';

export default {
  async fetch(request) {
    try {
      const docs = await request.json();
      return new Response(await runWorkload(api, docs), { headers: { 'content-type': 'application/json' } });
    } catch (error) {
      return new Response(String((error && error.stack) || error), { status: 500 });
    }
  },
};
