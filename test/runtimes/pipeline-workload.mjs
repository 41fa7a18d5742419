/**
 * The pipeline workload run in Node and in a browser page (test/browser.test.ts):
 * `pipeline()` with a custom async document source into a MemorySink with the
 * HashingEmbedder, twice (the rerun keeps every row), then one document dropped with
 * `prune`. Returns JSON (seconds zeroed, vectors as their first values and a sum) so
 * the runtimes can be compared byte for byte.
 * @param {typeof import('../../src/index.js')} api the chunkwise entry (kernels and cl100k_base loaded)
 * @param {{ name: string, text: string }[]} docs
 */
export async function runPipelineWorkload(api, docs) {
  async function* source(list) {
    for (const d of list) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      yield { source: d.name, text: d.text };
    }
  }
  const sink = new api.MemorySink();
  const chunker = new api.MarkdownChunker({ chunkSize: 256 });
  const embedder = new api.HashingEmbedder();
  const events = [];
  const run = async (list, more = {}) => ({ ...(await api.pipeline({ documents: source(list), chunker, embedder, sink, onProgress: (p) => p.kind === 'document' && events.push(p), ...more })), seconds: 0 });
  const first = await run(docs);
  const second = await run(docs);
  const pruned = await run(docs.slice(1), { prune: true });
  const rows = (await sink.rows()).map((r) => ({ id: r.id, source: r.source, start: r.start, end: r.end, embedder: r.embedder, head: Array.from(r.vector.subarray(0, 3)), sum: r.vector.reduce((a, b) => a + b, 0) }));
  return JSON.stringify({ first, second, pruned, events, rows });
}

/**
 * PDF bytes through `pipeline()` (the load stage: pdf.js, then PdfChunker over the
 * recursive strategy at 200 tokens) into a MemorySink with the HashingEmbedder, run in
 * Node and in a browser page (test/browser.test.ts). Returns JSON of the summary and each
 * row's place, pages and boxes (rows by source, then start), for a byte-for-byte comparison.
 * @param {typeof import('../../src/index.js')} api the chunkwise entry (kernels and cl100k_base loaded)
 * @param {{ name: string, bytes: Uint8Array }[]} pdfs
 * @param {object} [load] the pipeline's `load` option (a browser's pdf.js module as `pdfjs`)
 */
export async function runPdfPipelineWorkload(api, pdfs, load) {
  const sink = new api.MemorySink();
  const summary = await api.pipeline({
    documents: pdfs.map((p) => ({ source: p.name, bytes: p.bytes })),
    chunker: 'auto',
    chunkerOptions: { recursive: { chunkSize: 200 } },
    embedder: new api.HashingEmbedder(),
    sink,
    load,
  });
  const rows = (await sink.rows())
    .map((r) => ({ source: r.source, id: r.id, start: r.start, end: r.end, strategy: r.metadata.strategy, pages: r.metadata.pages, boxes: r.metadata.boxes }))
    .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.start - b.start));
  return JSON.stringify({ summary: { ...summary, seconds: 0 }, rows });
}
