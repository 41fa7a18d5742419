/**
 * Sinks against the real engines (never mocks): LanceDB embedded in a temp folder,
 * PGlite with pgvector in memory and in a folder. Each: write a real document's chunks
 * with HashingEmbedder vectors, read them back, query the nearest neighbour, write the
 * same job again (each chunk stays once), write a changed document (its old chunks go,
 * other documents stay), and refuse a vector dimension that disagrees with the table.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HashingEmbedder, InvalidOptionError, RecursiveChunker, SinkError, type Chunk } from '../src/index.js';
import { writeChunks, type Sink } from '../src/sinks/index.js';
import { LanceDbSink } from '../src/sinks/lancedb.js';
import { openPgliteSink } from '../src/sinks/pglite.js';
import { seedsDir, sharedFiles } from './helpers/paths.js';

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-sinks-'));
const seed = sharedFiles(seedsDir, '.txt').find((f) => f.includes('003_'))!;
const text = readFileSync(seed, 'utf8');
const embedder = new HashingEmbedder({ dimension: 64 });
const chunker = new RecursiveChunker({ chunkSize: 80, chunkOverlap: 0 });

async function embedAll(chunks: Chunk[], e = embedder): Promise<Float32Array> {
  return e.embed(chunks.map((c) => c.embedText ?? c.text));
}

const engines: [string, () => Promise<Sink>][] = [
  ['LanceDB (folder)', () => LanceDbSink.open(join(tmp, 'lance'), { table: 'chunks' })],
  ['PGlite (memory)', () => openPgliteSink(undefined, { table: 'chunks' })],
  ['PGlite (folder)', () => openPgliteSink(join(tmp, 'pglite'), { table: 'chunks' })],
];

describe.each(engines)('%s', (_name, open) => {
  let sink: Sink;
  const chunks = chunker.chunk(text);
  afterAll(async () => {
    await sink?.close();
  });

  it('writes a document in batches, reads it back exactly, and finds the nearest chunk', async () => {
    sink = await open();
    expect(chunks.length).toBeGreaterThan(20);
    const vectors = await embedAll(chunks);
    const progress: number[] = [];
    const result = await writeChunks(sink, chunks, vectors, { source: 'sliding.txt', batchSize: 7, onProgress: (done) => progress.push(done) });
    expect(result).toEqual({ written: chunks.length, removed: 0, sources: 1, dimension: 64 });
    expect(progress.length).toBe(Math.ceil(chunks.length / 7));
    expect(progress.at(-1)).toBe(chunks.length);
    expect(await sink.count()).toBe(chunks.length);

    const rows = await sink.rows();
    expect(rows.map((r) => r.id)).toEqual(chunks.map((c) => c.id));
    for (const [i, r] of rows.entries()) {
      expect(r.source).toBe('sliding.txt');
      expect(r.text).toBe(text.slice(r.start, r.end));
      expect([r.start, r.end, r.tokenCount, r.text]).toEqual([chunks[i].start, chunks[i].end, chunks[i].tokenCount, chunks[i].text]);
      expect(r.embedText).toBeNull();
      expect(r.metadata).toEqual(JSON.parse(JSON.stringify(chunks[i].metadata)));
      expect(Array.from(r.vector)).toEqual(Array.from(vectors.subarray(i * 64, (i + 1) * 64)));
    }

    // A query made of one chunk's own words: that chunk comes first, at distance ~0.
    const k = chunks.findIndex((c) => c.text.includes('stride'));
    const [q] = [await embedder.embed([chunks[k].text])];
    const hits = await sink.search(q, 3);
    expect(hits[0].id).toBe(chunks[k].id);
    expect(hits[0].text).toBe(chunks[k].text);
    expect(hits[0].distance).toBeCloseTo(0, 5);
    expect(hits[1].distance).toBeGreaterThan(hits[0].distance);
  });

  it('the same job twice leaves each chunk once', async () => {
    const vectors = await embedAll(chunks);
    const result = await writeChunks(sink, chunks, vectors, { source: 'sliding.txt' });
    expect(result).toEqual({ written: chunks.length, removed: 0, sources: 1, dimension: 64 });
    expect(await sink.count()).toBe(chunks.length);
    expect(new Set((await sink.rows()).map((r) => r.id)).size).toBe(chunks.length);
  });

  it('a changed document replaces its old chunks; other documents stay', async () => {
    const other = chunker.chunk('A second document about token budgets.\n\nIt has two paragraphs.').map((c) => ({ ...c, source: 'other.txt' }));
    await writeChunks(sink, other, await embedAll(other));
    expect(await sink.count()).toBe(chunks.length + other.length);

    const changed = text.slice(0, text.length >> 1) + '\n\nA new closing paragraph about overlap ratios.\n';
    const next = chunker.chunk(changed);
    const result = await writeChunks(sink, next, await embedAll(next), { source: 'sliding.txt' });
    const kept = new Set(next.map((c) => c.id));
    const gone = chunks.filter((c) => !kept.has(c.id)).length;
    expect(gone).toBeGreaterThan(5);
    expect(result.removed).toBe(gone);
    const rows = await sink.rows('sliding.txt');
    expect(rows.map((r) => r.id)).toEqual(next.map((c) => c.id));
    for (const r of rows) expect(r.text).toBe(changed.slice(r.start, r.end));
    expect((await sink.rows('other.txt')).map((r) => r.id)).toEqual(other.map((c) => c.id));

    // A document that is now empty loses all its rows.
    expect((await writeChunks(sink, [], new Float32Array(0), { source: 'other.txt' })).removed).toBe(other.length);
    expect(await sink.count()).toBe(next.length);
  });

  it('refuses vectors of another dimension with a one-line SinkError, writing nothing', async () => {
    const before = await sink.count();
    const e32 = new HashingEmbedder({ dimension: 32 });
    const err = await writeChunks(sink, chunks, await embedAll(chunks, e32), { source: 'x.txt' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SinkError);
    expect((err as Error).message).toMatch(/table chunks: the table holds vectors of dimension 64, these chunks have 32/);
    expect((err as Error).message).not.toContain('\n');
    expect(await sink.count()).toBe(before);
    const query = await e32.embed(['stride']);
    const searchErr = await sink.search(query, 1).catch((e: unknown) => e);
    expect(searchErr).toBeInstanceOf(SinkError);
    expect((searchErr as Error).message).toMatch(/table chunks: cannot search: /);
    expect((searchErr as Error).message).not.toContain('\n');
  });
});

describe('writeChunks input checks', () => {
  const chunks = chunker.chunk(text).slice(0, 3);
  const sink = { prepare: async () => {}, upsert: async () => {}, removeStale: async () => 0 } as unknown as Sink;
  it('names what is wrong', async () => {
    await expect(writeChunks(sink, chunks, new Float32Array(3 * 64))).rejects.toThrow(/Invalid option source: undefined \(chunk 0 .* has no source/);
    await expect(writeChunks(sink, chunks, new Float32Array(10), { source: 's' })).rejects.toThrow(InvalidOptionError);
    await expect(writeChunks(sink, chunks, new Float32Array(3 * 64), { source: 's', dimension: 32 })).rejects.toThrow(/192 values.*3 chunks × 32 dimensions = 96 values/);
    await expect(writeChunks(sink, chunks, new Float32Array(3 * 64), { source: 's', batchSize: 0 })).rejects.toThrow(/batchSize: 0/);
  });
});

describe('stores that cannot be opened', () => {
  const file = join(tmp, 'a-file');
  writeFileSync(file, 'not a database');
  it('LanceDB: a file where the folder should be', async () => {
    const err = await LanceDbSink.open(file).then(async (s) => s.prepare(8).finally(() => s.close())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SinkError);
    expect((err as Error).message).toMatch(new RegExp(`^lancedb:${file}`));
    expect((err as Error).message).not.toContain('\n');
  });
  it('PGlite: a file where the folder should be', async () => {
    const err = await openPgliteSink(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SinkError);
    expect((err as Error).message).toMatch(new RegExp(`^pglite:${file}: cannot open the database`));
    expect((err as Error).message).not.toContain('\n');
  });
  it('bad table names are option errors', async () => {
    await expect(openPgliteSink(undefined, { table: 'x; DROP TABLE y' })).rejects.toThrow(/Invalid option table/);
    await expect(LanceDbSink.open(join(tmp, 'lance2'), { table: '1abc' })).rejects.toThrow(/Invalid option table/);
  });
});

describe('persistence on disk', () => {
  it('rows written to a folder are there after reopening (LanceDB and PGlite)', async () => {
    const chunks = chunker.chunk(text).slice(0, 5);
    const vectors = await embedAll(chunks);
    for (const open of [() => LanceDbSink.open(join(tmp, 'persist-lance')), () => openPgliteSink(join(tmp, 'persist-pglite'))]) {
      const a = await open();
      await writeChunks(a, chunks, vectors, { source: 'doc' });
      await a.close();
      const b = await open();
      expect((await b.rows()).map((r) => r.text)).toEqual(chunks.map((c) => c.text));
      await b.close();
    }
  });
});
