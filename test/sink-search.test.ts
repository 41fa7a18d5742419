/**
 * `search()` returns each row's metadata (issue 38): the structure a chunker stored (a
 * Markdown heading path, a PDF's pages) is there at query time, on LanceDB, PGlite,
 * Postgres over the wire and the memory sink.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashingEmbedder, MarkdownChunker, type Chunk } from '../src/index.js';
import { writeChunks } from '../src/sinks/index.js';
import { markdownDir } from './helpers/paths.js';
import { usePgServer } from './helpers/pg-server.js';
import { everySink } from './helpers/sink-engines.js';

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-search-'));
const server = usePgServer();
const embedder = new HashingEmbedder({ dimension: 64 });
const markdown = readFileSync(join(markdownDir, 'ch08-02-strings.md'), 'utf8');
// a heading path on every chunk (the chunker's), pages on some (as a PDF's chunks carry them)
const chunks: Chunk[] = new MarkdownChunker({ chunkSize: 120 }).chunk(markdown).map((c, i) => (i % 3 === 0 ? { ...c, metadata: { ...c.metadata, pages: [i + 1, i + 2] } } : c));

const engines = everySink(tmp, server, 'search_rows');

describe.each(engines)('%s: search()', (_name, open) => {
  it("returns each match's stored metadata: heading path, pages", async () => {
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.filter((c) => Array.isArray(c.metadata.headingPath) && c.metadata.headingPath.length > 0).length).toBeGreaterThan(chunks.length / 2);
    const sink = await open();
    try {
      const vectors = await embedder.embed(chunks.map((c) => c.embedText ?? c.text));
      await writeChunks(sink, chunks, vectors, { source: 'ch08-02-strings.md' });
      for (const [i, c] of chunks.entries()) {
        const [best] = await sink.search(vectors.subarray(i * 64, (i + 1) * 64), 1);
        expect(best.id).toBe(c.id);
        expect(best.distance).toBeCloseTo(0, 5);
        expect(best.metadata).toEqual(JSON.parse(JSON.stringify(c.metadata)));
      }
      const all = await sink.search(vectors.subarray(0, 64), chunks.length);
      expect(all.length).toBe(chunks.length);
      const byId = new Map(chunks.map((c) => [c.id, c]));
      for (const m of all) expect(m.metadata).toEqual(JSON.parse(JSON.stringify(byId.get(m.id)!.metadata)));
      expect(all.filter((m) => Array.isArray(m.metadata.pages)).length).toBe(Math.ceil(chunks.length / 3));
    } finally {
      await sink.close();
    }
  });
});
