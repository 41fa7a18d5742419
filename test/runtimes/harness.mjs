// The same workload in every runtime (Node, Chromium, workerd, Vercel's edge-runtime):
// every registered strategy over the given documents, plus HashingEmbedder vectors and
// two kernels, serialised to one JSON string. The runtime tests compare that string
// byte for byte with Node's. Plain ESM JavaScript, no imports: each runtime passes in
// its chunkwise and chunkwise/kernels modules (`api`), so the harness runs unchanged everywhere.

/** Options per strategy (several per strategy: units, encodings). */
export const CASES = {
  sliding: [
    { unit: 'token', windowSize: 128, stride: 96 },
    { unit: 'token', encoding: 'o200k_base', windowSize: 128, stride: 96 },
    { unit: 'word', windowSize: 60, stride: 45 },
    { unit: 'char', windowSize: 500, stride: 400 },
  ],
  fixed: [
    { unit: 'token', chunkSize: 256, chunkOverlap: 32 },
    { unit: 'word', chunkSize: 80, chunkOverlap: 10, countTokens: false },
  ],
  // the code strategy runs only on source documents (those with a `language`), in the
  // runtimes whose test passes them; its loading options come from `extra.code`
  code: [{ chunkSize: 200, contextHeaders: true }],
  // Runtimes other than Node load both encodings' rank tables before the workload
  // (loadTokenizer, or the static chunkwise/encodings/<encoding> modules).
  html: [
    { unit: 'token', chunkSize: 128 },
    { unit: 'word', chunkSize: 60, drop: [] },
  ],
  // The other strategies (sentence, recursive, markdown, parent-child, semantic …) run with
  // their defaults plus a budget of 200 under the name the registry gives it (`budget.size`;
  // unknown options are errors).
  '*': [{ size: 200 }],
};

/** QASC's query (query time, outside the registry). */
const QUERY = 'How does a sliding window chunker choose its stride?';

/** Strategies whose chunks depend on an embedder: run once per embedder given. */
const EMBEDDING = /semantic|qasc|late/;

function describeError(error) {
  return { error: `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}` };
}

/**
 * Runs the workload.
 * @param api the `chunkwise` and `chunkwise/kernels` module namespaces of the runtime under
 *   test, merged (`{ ...api, ...kernels }`)
 * @param docs `[{ name, text }]`
 * @param embedders `{ name: Embedder }` for the embedding strategies; HashingEmbedder is
 *   always included as `hashing`
 * @param extra `{ code }`: options of the code strategy this runtime needs to load its
 *   grammars (`grammarBase`, `grammar`, `treeSitterWasm`), or a function of the document
 *   giving them; not recorded in the output
 * @returns a JSON string
 */
export async function runWorkload(api, docs, embedders = {}, extra = {}) {
  const allEmbedders = { hashing: new api.HashingEmbedder(), ...embedders };
  const results = [];
  const names = api.strategyNames();
  for (const name of names) {
    const budget = api.strategies().find((d) => d.name === name)?.budget?.size ?? 'chunkSize';
    const optionSets = CASES[name] ?? CASES['*'].map((o) => ({ [budget]: o.size }));
    const embedderNames = EMBEDDING.test(name) ? Object.keys(allEmbedders) : [null];
    for (const options of optionSets) {
      for (const embedderName of embedderNames) {
        const full = embedderName ? { ...options, embedder: allEmbedders[embedderName] } : { ...options };
        for (const doc of docs) {
          // source documents are the code strategy's, and only its
          if ((name === 'code') !== (doc.language !== undefined)) continue;
          const entry = { strategy: name, options, embedder: embedderName, doc: doc.name };
          try {
            const loading = typeof extra.code === 'function' ? extra.code(doc) : extra.code;
            const chunker = api.createChunker(name, name === 'code' ? { ...full, ...loading, language: doc.language, filename: doc.name } : full);
            entry.chunks = await chunker.chunk(doc.text);
          } catch (error) {
            Object.assign(entry, describeError(error));
          }
          results.push(entry);
        }
      }
    }
  }
  // QASC (query time, not a registered strategy): every step, with explain, per embedder.
  if (api.QueryAdaptiveChunker) {
    for (const [embedderName, embedder] of Object.entries(allEmbedders)) {
      for (const doc of docs.filter((d) => d.language === undefined)) {
        const entry = { strategy: 'qasc', query: QUERY, embedder: embedderName, doc: doc.name };
        try {
          entry.chunks = await new api.QueryAdaptiveChunker({ embedder, explain: true }).query(doc.text, entry.query);
        } catch (error) {
          Object.assign(entry, describeError(error));
        }
        results.push(entry);
      }
    }
  }
  // The embedder and kernels directly: bytes of the vectors, not rounded decimals.
  const firstLines = docs.filter((d) => d.language === undefined).map((d) => d.text.slice(0, 200));
  const vectors = await allEmbedders.hashing.embed(firstLines);
  const hashingBytes = Array.from(new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength));
  const sims = api.cosineNeighbours(vectors, allEmbedders.hashing.dimension);
  const kernels = {
    neighbours: Array.from(sims),
    p95: api.percentile(sims, 95),
    windows: api.planWindows(1000, 128, 96),
  };
  kernels.windows = { starts: Array.from(kernels.windows.starts), ends: Array.from(kernels.windows.ends) };
  return JSON.stringify({ strategies: names, results, hashingBytes, kernels });
}
