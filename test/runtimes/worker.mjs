// A Cloudflare Worker (run by miniflare/workerd in test/edge.test.ts): POST a JSON list
// of documents, get the harness's JSON. Imports the package's `workerd` bundle, which
// imports chunkwise.wasm as a compiled module (workerd refuses to compile wasm bytes).
import * as api from '../../dist/bundle/asset/workerd.js';
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
