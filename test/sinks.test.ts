/**
 * Sinks against the real engines (never mocks): LanceDB embedded in a temp folder,
 * PGlite with pgvector in memory and in a folder, and a Postgres server over the wire
 * (PGlite served by pglite-socket on a loopback port, through `pg`). Each: write a real
 * document's chunks with HashingEmbedder vectors, read them back, query the nearest
 * neighbour, write the same job again (each chunk kept, nothing rewritten), write a
 * changed document (its old chunks go, other documents stay), list and delete sources,
 * and refuse a vector dimension that disagrees with the table.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder, InvalidOptionError, RecursiveChunker, SinkError, type Chunk } from '../src/index.js';
import { writeChunks, type Sink, type SinkRow } from '../src/sinks/index.js';
import { LanceDbSink } from '../src/sinks/lancedb.js';
import { openPgliteSink } from '../src/sinks/pglite.js';
import { openPostgresSink } from '../src/sinks/postgres.js';
import { texts } from './helpers/paths.js';
import { startPgServer, type PgServer } from './helpers/pg-server.js';

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-sinks-'));
const seed = texts.enSliding;
const text = readFileSync(seed, 'utf8');
const embedder = new HashingEmbedder({ dimension: 64 });
const chunker = new RecursiveChunker({ chunkSize: 80, chunkOverlap: 0 });

async function embedAll(chunks: Chunk[], e = embedder): Promise<Float32Array> {
  return e.embed(chunks.map((c) => c.embedText ?? c.text));
}

let server: PgServer;
beforeAll(async () => {
  server = await startPgServer();
});
afterAll(async () => {
  await server?.stop();
});

const engines: [string, () => Promise<Sink>][] = [
  ['LanceDB (folder)', () => LanceDbSink.open(join(tmp, 'lance'), { table: 'chunks' })],
  ['PGlite (memory)', () => openPgliteSink(undefined, { table: 'chunks' })],
  ['PGlite (folder)', () => openPgliteSink(join(tmp, 'pglite'), { table: 'chunks' })],
  ['Postgres (pg over the wire)', () => openPostgresSink(server.url('chunks'))],
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
    const result = await writeChunks(sink, chunks, vectors, { source: 'sliding.txt', batchSize: 7, embedder: 'hashing:64', onProgress: (done) => progress.push(done) });
    expect(result).toEqual({ written: chunks.length, kept: 0, removed: 0, sources: 1, dimension: 64 });
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
      expect(r.embedder).toBe('hashing:64');
    }
    const place = (c: { start: number; end: number; tokenCount: number; metadata: object }) => ({ start: c.start, end: c.end, tokenCount: c.tokenCount, metadata: JSON.parse(JSON.stringify(c.metadata)) });
    expect([...(await sink.stored('sliding.txt'))].sort()).toEqual(chunks.map((c) => [c.id, { embedder: 'hashing:64', ...place(c) }]).sort());
    expect((await sink.stored('no-such.txt')).size).toBe(0);
    // vectors: only the ids asked for that have a row
    const asked = await sink.vectors('sliding.txt', [chunks[2].id, 'no-such-id', chunks[0].id]);
    expect([...asked.keys()].sort()).toEqual([chunks[0].id, chunks[2].id].sort());
    expect(Array.from(asked.get(chunks[2].id)!)).toEqual(Array.from(vectors.subarray(2 * 64, 3 * 64)));
    expect((await sink.vectors('no-such.txt', [chunks[0].id])).size).toBe(0);

    // A query made of one chunk's own words: that chunk comes first, at distance ~0.
    const k = chunks.findIndex((c) => c.text.includes('stride'));
    const [q] = [await embedder.embed([chunks[k].text])];
    const hits = await sink.search(q, 3);
    expect(hits[0].id).toBe(chunks[k].id);
    expect(hits[0].text).toBe(chunks[k].text);
    expect(hits[0].distance).toBeCloseTo(0, 5);
    expect(hits[1].distance).toBeGreaterThan(hits[0].distance);
  });

  it('the same job twice keeps each chunk (no write); another embedder rewrites them all; no identity writes all', async () => {
    const vectors = await embedAll(chunks);
    const upserts: number[] = [];
    const counting: Sink = Object.assign(Object.create(null), {
      name: sink.name,
      prepare: (d: number) => sink.prepare(d),
      upsert: (rows: SinkRow[]) => (upserts.push(rows.length), sink.upsert(rows)),
      stored: (source: string) => sink.stored(source),
      removeStale: (source: string, keep: ReadonlySet<string>) => sink.removeStale(source, keep),
    });
    const result = await writeChunks(counting, chunks, vectors, { source: 'sliding.txt', embedder: 'hashing:64' });
    expect(result).toEqual({ written: 0, kept: chunks.length, removed: 0, sources: 1, dimension: 64 });
    expect(upserts).toEqual([]);
    // one chunk's row replaced by another embedder's: only that one is written again
    await sink.upsert([{ ...(await sink.rows('sliding.txt'))[3], embedder: 'other:64' }]);
    expect(await writeChunks(sink, chunks, vectors, { source: 'sliding.txt', embedder: 'hashing:64' })).toEqual({ written: 1, kept: chunks.length - 1, removed: 0, sources: 1, dimension: 64 });
    expect(await writeChunks(sink, chunks, vectors, { source: 'sliding.txt', embedder: 'hashing:64@v2' })).toEqual({ written: chunks.length, kept: 0, removed: 0, sources: 1, dimension: 64 });
    expect(await writeChunks(sink, chunks, vectors, { source: 'sliding.txt' })).toEqual({ written: chunks.length, kept: 0, removed: 0, sources: 1, dimension: 64 });
    expect((await sink.rows()).map((r) => r.embedder)).toEqual(chunks.map(() => ''));
    await writeChunks(sink, chunks, vectors, { source: 'sliding.txt', embedder: 'hashing:64' });
    expect(await sink.count()).toBe(chunks.length);
    expect(new Set((await sink.rows()).map((r) => r.id)).size).toBe(chunks.length);
  });

  it('the same chunks moved (text put before them): each row is rewritten at its new place, none kept stale', async () => {
    const vectors = await embedAll(chunks);
    await writeChunks(sink, chunks, vectors, { source: 'moved.txt', embedder: 'hashing:64' });
    const shifted: Chunk[] = chunks.map((c, i) => ({ ...c, start: c.start + 5, end: c.end + 5, metadata: { ...c.metadata, line: i + 2 } }));
    // the first chunk stays where it was: kept; every other one moved: written
    shifted[0] = chunks[0];
    const result = await writeChunks(sink, shifted, vectors, { source: 'moved.txt', embedder: 'hashing:64' });
    expect(result).toMatchObject({ written: chunks.length - 1, kept: 1, removed: 0 });
    expect((await sink.rows('moved.txt')).map((r) => [r.id, r.start, r.end, r.metadata.line])).toEqual(shifted.map((c) => [c.id, c.start, c.end, c.metadata.line]));
    await sink.removeSources(['moved.txt']);
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

  it('lists its sources and deletes whole sources', async () => {
    const docs = ['b.txt', "it's.txt", 'a.txt'].map((source) => chunker.chunk(`The ${source} document.\n\nIts second paragraph.`).map((c) => ({ ...c, source })));
    for (const d of docs) await writeChunks(sink, d, await embedAll(d), { embedder: 'hashing:64' });
    expect(await sink.sources()).toEqual(['a.txt', 'b.txt', "it's.txt", 'sliding.txt']);
    const before = await sink.count();
    expect(await sink.removeSources(["it's.txt", 'a.txt', 'never-written.txt'])).toBe(docs[1].length + docs[2].length);
    expect(await sink.sources()).toEqual(['b.txt', 'sliding.txt']);
    expect(await sink.count()).toBe(before - docs[1].length - docs[2].length);
    expect(await sink.removeSources([])).toBe(0);
    expect(await sink.removeSources(['b.txt'])).toBe(docs[0].length);
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

describe('a table made before the embedder column', () => {
  const chunks = chunker.chunk(text).slice(0, 4);
  const old = (r: SinkRow) => ({ id: r.id, source: r.source, text: r.text, embed_text: r.embedText, start: r.start, end: r.end, token_count: r.tokenCount, metadata: JSON.stringify(r.metadata), vector: Array.from(r.vector) });
  async function check(sink: Sink) {
    expect([...(await sink.stored('doc')).values()].map((v) => v.embedder)).toEqual(chunks.map(() => ''));
    // prepare adds the column ('' for the rows there), and they are rewritten once with the identity
    const result = await writeChunks(sink, chunks, await embedAll(chunks), { source: 'doc', embedder: 'hashing:64' });
    expect(result).toMatchObject({ written: chunks.length, kept: 0, removed: 0 });
    expect((await sink.rows('doc')).map((r) => [r.id, r.embedder])).toEqual(chunks.map((c) => [c.id, 'hashing:64']));
    expect((await writeChunks(sink, chunks, await embedAll(chunks), { source: 'doc', embedder: 'hashing:64' })).kept).toBe(chunks.length);
  }
  it('LanceDB: the column is added by schema evolution', async () => {
    const { connect } = await import('@lancedb/lancedb');
    const { Schema } = await import('apache-arrow');
    const { lanceSchema } = await import('../src/sinks/lancedb.js');
    const dir = join(tmp, 'old-lance');
    const rows = (await import('../src/sinks/write.js')).sinkRows(chunks, await embedAll(chunks), 64, 'doc');
    const db = await connect(dir);
    const schema = new Schema(lanceSchema(64).fields.filter((f) => f.name !== 'embedder'));
    await db.createTable('chunks', (await import('@lancedb/lancedb')).makeArrowTable(rows.map(old), { schema }));
    db.close();
    const sink = await LanceDbSink.open(dir);
    try {
      await check(sink);
    } finally {
      await sink.close();
    }
  });
  it('PGlite: the column is added by ALTER TABLE', async () => {
    const sink = await openPgliteSink(undefined);
    try {
      const pg = (sink as unknown as { client: { query(sql: string, params?: unknown[]): Promise<unknown> } }).client;
      await pg.query(`CREATE TABLE chunks ("id" text NOT NULL, "source" text NOT NULL, "text" text NOT NULL, "embed_text" text, "start" integer NOT NULL, "end" integer NOT NULL, "token_count" integer NOT NULL, "metadata" jsonb NOT NULL, "vector" vector(64) NOT NULL, PRIMARY KEY ("source", "id"))`);
      const rows = (await import('../src/sinks/write.js')).sinkRows(chunks, await embedAll(chunks), 64, 'doc');
      for (const r of rows.map(old)) await pg.query('INSERT INTO chunks VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::vector)', [...Object.values({ ...r, vector: `[${r.vector.join(',')}]` })]);
      await check(sink);
    } finally {
      await sink.close();
    }
  });
});

describe('PGlite folder: one writer', () => {
  it('a second opener gets a one-line SinkError naming the holder; after close the folder opens again', async () => {
    const dir = join(tmp, 'locked');
    const first = await openPgliteSink(dir);
    expect(readFileSync(join(dir, 'chunkwise.lock'), 'utf8')).toBe(`${process.pid}\n`);
    const err = await openPgliteSink(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SinkError);
    expect((err as Error).message).toMatch(new RegExp(`^pglite:${dir}: the database is in use by process ${process.pid} \\(`));
    expect((err as Error).message).not.toContain('\n');
    await first.close();
    expect(existsSync(join(dir, 'chunkwise.lock'))).toBe(false);
    const again = await openPgliteSink(dir);
    await again.close();
  });
  it('a lock left by a process that is gone is taken over; a live one is refused', async () => {
    const dir = join(tmp, 'stale-lock');
    mkdirSync(dir);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, 'chunkwise.lock'), `${gone.stdout}\n`);
    const sink = await openPgliteSink(dir);
    expect(readFileSync(join(dir, 'chunkwise.lock'), 'utf8')).toBe(`${process.pid}\n`);
    await sink.close();
    const parent = process.ppid; // alive while this test runs
    writeFileSync(join(dir, 'chunkwise.lock'), `${parent}\n`);
    await expect(openPgliteSink(dir)).rejects.toThrow(`the database is in use by process ${parent}`);
  });
});

describe('Postgres over the wire: bad URLs and servers that cannot be reached', () => {
  it('one-line errors, no password in them', async () => {
    await expect(openPostgresSink('mysql://u@h/db')).rejects.toThrow(InvalidOptionError);
    await expect(openPostgresSink(server.url('chunks'), { table: 'other' })).rejects.toThrow(/Invalid option table: "other" \(one table: the URL names "chunks"\)/);
    await expect(openPostgresSink(server.url('no-dash'))).rejects.toThrow(/Invalid option table: "no-dash"/);
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as { port: number }).port;
    await new Promise((done) => closed.close(done));
    const err = await openPostgresSink(`postgres://me:s3cret@127.0.0.1:${port}/db?table=docs`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SinkError);
    expect((err as Error).message).toMatch(new RegExp(`^postgres://me@127.0.0.1:${port}/db: cannot connect: .*ECONNREFUSED`));
    expect((err as Error).message).not.toContain('s3cret');
    expect((err as Error).message).not.toContain('\n');
  });
});
