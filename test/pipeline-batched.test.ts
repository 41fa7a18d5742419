/**
 * `pipeline()`'s batched protocol, against a MemorySink whose calls are counted: a window
 * of many documents is synced with one read of what the sink holds, one upsert and one
 * delete; an unchanged corpus is skipped before it is chunked (0 documents chunked,
 * 0 texts embedded, every row kept); an edited document, a changed chunker option or
 * another embedder re-chunks; a run that fails half-way (after its upserts, before its
 * deletes and records) and a rerun of the other version leave what a clean run leaves;
 * writeChunks drops the records of the documents it rewrites.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashingEmbedder, MarkdownChunker, MemorySink, pipeline, type Chunk, type Chunker, type Embedder } from '../src/index.js';
import { writeChunks } from '../src/sinks/index.js';
import { chunkingIdentity } from '../src/pipeline/pipeline.js';
import { hashText } from '../src/engine/chunk.js';
import { VERSION } from '../src/engine/version.js';
import { markdownDir, sharedFiles } from './helpers/paths.js';
import { comparableRows, editFirstThird } from './helpers/sink-rows.js';

const corpus = sharedFiles(markdownDir, '.md').map((f) => [basename(f), readFileSync(f, 'utf8')] as const);

/** A MemorySink counting the calls of each member (and the rows of each upsert). */
class CountingSink extends MemorySink {
  calls: Record<string, number> = {};
  upserts: number[] = [];
  failAfterUpserts = Infinity;
  #count(name: string) {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }
  reset() {
    this.calls = {};
    this.upserts = [];
  }
  override async upsert(rows: Parameters<MemorySink['upsert']>[0]) {
    this.#count('upsert');
    this.upserts.push(rows.length);
    await super.upsert(rows);
    if (this.upserts.length >= this.failAfterUpserts) throw new Error('killed after an upsert');
  }
  override async stored(source: string) {
    this.#count('stored');
    return super.stored(source);
  }
  override async storedMany(sources: readonly string[]) {
    this.#count('storedMany');
    return super.storedMany(sources);
  }
  override async removeStale(source: string, keep: ReadonlySet<string>) {
    this.#count('removeStale');
    return super.removeStale(source, keep);
  }
  override async removeRows(keys: Parameters<MemorySink['removeRows']>[0]) {
    this.#count('removeRows');
    return super.removeRows(keys);
  }
  override async documents(sources: readonly string[]) {
    this.#count('documents');
    return super.documents(sources);
  }
  override async writeDocuments(records: Parameters<MemorySink['writeDocuments']>[0]) {
    this.#count('writeDocuments');
    return super.writeDocuments(records);
  }
}

/** A chunker counting the documents it chunks (with the inner chunker's `options`, so its chunking identity is derived from them). */
function counting(inner: Chunker): Chunker & { documents: string[] } {
  const documents: string[] = [];
  return { documents, options: (inner as { options?: unknown }).options, chunk: (text, call) => (documents.push(call?.documentId ?? ''), inner.chunk(text, call)) } as Chunker & { documents: string[] };
}

class CountingEmbedder implements Embedder {
  readonly inner = new HashingEmbedder();
  readonly dimension = this.inner.dimension;
  readonly id = this.inner.id;
  texts = 0;
  async embed(texts: string[]): Promise<Float32Array> {
    this.texts += texts.length;
    return this.inner.embed(texts);
  }
}

const markdown = new MarkdownChunker({ chunkSize: 256 });
const total = corpus.reduce((n, [name, t]) => n + markdown.chunk(t, { documentId: name }).length, 0);

describe('pipeline(): documents synced in windows', () => {
  it('a window of all the documents: one stored read, one upsert, one records read and write; a rerun chunks 0 documents and embeds 0 texts', async () => {
    expect(corpus.length).toBeGreaterThan(3);
    const sink = new CountingSink();
    const embedder = new CountingEmbedder();
    const chunker = counting(markdown);
    const first = await pipeline({ documents: corpus.map(([source, text]) => ({ source, text })), chunker, chunking: 'markdown 256', embedder, sink, batchSize: 8192 });
    expect(first).toMatchObject({ documents: corpus.length, chunks: total, added: total, kept: 0, removed: 0 });
    expect(sink.calls).toEqual({ documents: 1, storedMany: 1, upsert: 1, writeDocuments: 1 });
    expect(sink.upserts).toEqual([total]);
    expect(chunker.documents.length).toBe(corpus.length);

    sink.reset();
    chunker.documents.length = 0;
    embedder.texts = 0;
    const before = comparableRows(await sink.rows());
    const again = await pipeline({ documents: corpus.map(([source, text]) => ({ source, text })), chunker, chunking: 'markdown 256', embedder, sink, batchSize: 8192, prune: true });
    expect(again).toMatchObject({ documents: corpus.length, chunks: total, added: 0, kept: total, removed: 0, embedded: 0 });
    expect(chunker.documents).toEqual([]);
    expect(embedder.texts).toBe(0);
    expect(sink.calls).toEqual({ documents: 1 });
    expect(comparableRows(await sink.rows())).toEqual(before);
  });

  it('small windows: one stored read and one upsert per window of chunks, never per document', async () => {
    const sink = new CountingSink();
    const summary = await pipeline({ documents: corpus.map(([source, text]) => ({ source, text })), chunker: markdown, embedder: new HashingEmbedder(), sink, batchSize: 100 });
    expect(summary.added).toBe(total);
    const windows = Math.ceil(total / 100);
    expect(sink.upserts.slice(0, -1).every((n) => n === 100)).toBe(true);
    expect(sink.calls.upsert).toBe(windows);
    expect(sink.calls.storedMany).toBeLessThanOrEqual(windows + 1);
    expect(sink.calls.removeStale ?? 0).toBe(0);
  });

  it('an edited document, a changed chunker option and another embedder are re-chunked; the others are skipped', async () => {
    const sink = new CountingSink();
    const docs = (edit?: number) => corpus.map(([source, text], i) => ({ source, text: i === edit ? editFirstThird(text)?.text ?? text + '\n\nAdded.\n' : text }));
    await pipeline({ documents: docs(), chunker: counting(markdown), embedder: new HashingEmbedder(), sink });
    // the wrapper's options are plain data: its chunking identity is derived from them
    const chunker = counting(markdown);
    const embedder = new CountingEmbedder();
    const edited = await pipeline({ documents: docs(2), chunker, embedder, sink });
    expect(chunker.documents).toEqual([corpus[2][0]]);
    expect(edited.embedded).toBeGreaterThan(0);
    expect(edited.embedded).toBeLessThanOrEqual(3);
    expect(edited.documents).toBe(corpus.length);
    const clean = new MemorySink();
    await pipeline({ documents: docs(2), chunker: markdown, embedder: new HashingEmbedder(), sink: clean });
    expect(comparableRows(await sink.rows())).toEqual(comparableRows(await clean.rows()));

    // chunkSize 200 instead of 256: every document again
    const smaller = counting(new MarkdownChunker({ chunkSize: 200 }));
    await pipeline({ documents: docs(2), chunker: smaller, embedder: new HashingEmbedder(), sink });
    expect(smaller.documents.length).toBe(corpus.length);
    // another embedder: every document again
    const again = counting(new MarkdownChunker({ chunkSize: 200 }));
    const other = await pipeline({ documents: docs(2), chunker: again, embedder: new HashingEmbedder({ dimension: 384, stopwords: false }), sink });
    expect(again.documents.length).toBe(corpus.length);
    expect(other.kept).toBe(0);
    // a chunker function and no chunking given: nothing is skipped
    const fn = counting(markdown);
    await pipeline({ documents: docs(2), chunker: () => fn, embedder: new HashingEmbedder(), sink });
    expect(fn.documents.length).toBe(corpus.length);
  });

  it('records written by another package version do not match: an upgrade re-chunks every document, the same version skips them', async () => {
    expect(VERSION).toBe(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
    expect(chunkingIdentity('markdown 256')).toBe(chunkingIdentity('markdown 256', VERSION));
    expect(chunkingIdentity('markdown 256', '0.0.9')).not.toBe(chunkingIdentity('markdown 256'));
    const sink = new CountingSink();
    const docs = () => corpus.map(([source, text]) => ({ source, text }));
    await pipeline({ documents: docs(), chunker: markdown, chunking: 'markdown 256', embedder: new HashingEmbedder(), sink });
    const sources = corpus.map(([source]) => source);
    const records = [...(await sink.documents(sources)).values()];
    expect(records.length).toBe(corpus.length);
    expect(records.every((r) => r.chunking === hashText(chunkingIdentity('markdown 256')))).toBe(true);
    const before = comparableRows(await sink.rows());
    // the records as an older version would have written them (same revision constant, same options)
    await sink.writeDocuments(records.map((r) => ({ ...r, chunking: hashText(chunkingIdentity('markdown 256', '0.0.9')) })));
    const upgraded = counting(markdown);
    const summary = await pipeline({ documents: docs(), chunker: upgraded, chunking: 'markdown 256', embedder: new HashingEmbedder(), sink });
    expect(upgraded.documents.length).toBe(corpus.length);
    expect(summary).toMatchObject({ chunks: total, kept: total, added: 0, removed: 0 });
    expect(comparableRows(await sink.rows())).toEqual(before);
    // the rerun wrote this version's records: the next run skips every document
    const same = counting(markdown);
    await pipeline({ documents: docs(), chunker: same, chunking: 'markdown 256', embedder: new HashingEmbedder(), sink });
    expect(same.documents).toEqual([]);
  });

  it('a window also ends at 32 MB of chunk text: 20 one-chunk documents of 2 MB (1 Mi code units) with batchSize 8192 are two upserts, 16 rows then 4', async () => {
    const sink = new CountingSink();
    const big = (i: number) => String.fromCharCode(97 + i) + 'x'.repeat((1 << 20) - 1);
    const whole: Chunker = { chunk: (text, call) => [{ id: `${call?.documentId}-0`, index: 0, text, start: 0, end: text.length, tokenCount: 1, metadata: {} } as Chunk] };
    const tiny: Embedder = { dimension: 2, id: 'tiny', embed: async (texts) => new Float32Array(texts.length * 2).fill(0.5) };
    const summary = await pipeline({ documents: Array.from({ length: 20 }, (_, i) => ({ source: `big-${i}`, text: big(i) })), chunker: whole, embedder: tiny, sink, batchSize: 8192 });
    expect(summary).toMatchObject({ documents: 20, chunks: 20, added: 20 });
    expect(sink.upserts).toEqual([16, 4]);
  });

  it('a run stopped after an upsert (before its deletes and records), between two versions of the corpus: each rerun equals a clean run', async () => {
    const a = corpus.map(([source, text]) => ({ source, text }));
    const b = corpus.map(([source, text], i) => ({ source, text: i < 3 ? (editFirstThird(text)?.text ?? text) : i === 3 ? '' : text }));
    const cleanOf = async (docs: typeof a) => {
      const clean = new MemorySink();
      await pipeline({ documents: docs, chunker: markdown, embedder: new HashingEmbedder(), sink: clean });
      return comparableRows(await clean.rows());
    };
    const clean = { a: await cleanOf(a), b: await cleanOf(b) };
    expect(clean.a).not.toEqual(clean.b);
    const sink = new CountingSink();
    await pipeline({ documents: a, chunker: markdown, embedder: new HashingEmbedder(), sink });
    for (const [docs, want] of [[b, clean.b], [a, clean.a], [b, clean.b]] as const) {
      // stopped after its first upsert: the edited documents' new rows are in, their old ones and records not yet
      sink.failAfterUpserts = 1;
      sink.reset();
      await expect(pipeline({ documents: docs, chunker: markdown, embedder: new HashingEmbedder(), sink, batchSize: 64 })).rejects.toThrow('killed');
      sink.failAfterUpserts = Infinity;
      // the other version runs before this one is finished: never skipped half-synced
      await pipeline({ documents: docs === a ? b : a, chunker: markdown, embedder: new HashingEmbedder(), sink, batchSize: 64 });
      await pipeline({ documents: docs, chunker: markdown, embedder: new HashingEmbedder(), sink, batchSize: 64 });
      expect(comparableRows(await sink.rows())).toEqual(want);
    }
  });

  it('writeChunks drops the records of the documents it writes: the next run reads them again', async () => {
    const sink = new MemorySink();
    const [source, text] = corpus[0];
    await pipeline({ documents: [{ source, text }], chunker: counting(markdown), embedder: new HashingEmbedder(), sink });
    expect((await sink.documents([source])).size).toBe(1);
    const chunks: Chunk[] = markdown.chunk('# Other\n\nA different text.', { documentId: source });
    await writeChunks(sink, chunks, await new HashingEmbedder().embed(chunks.map((c) => c.text)), { source, embedder: 'hashing:384' });
    expect((await sink.documents([source])).size).toBe(0);
    const chunker = counting(markdown);
    await pipeline({ documents: [{ source, text }], chunker, embedder: new HashingEmbedder(), sink });
    expect(chunker.documents).toEqual([source]);
    const clean = new MemorySink();
    await pipeline({ documents: [{ source, text }], chunker: markdown, embedder: new HashingEmbedder(), sink: clean });
    expect(comparableRows(await sink.rows())).toEqual(comparableRows(await clean.rows()));
  });
});
