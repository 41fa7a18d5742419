/**
 * The store stage of {@link pipeline}: what the sink holds of a window's documents, which
 * of their chunks are new, moved or kept, and the window's writes in the order that
 * makes a stopped run converge. Core module: no Node built-in.
 * @module
 */
import type { Chunk } from '../engine/chunk.js';
import type { IncrementalSink } from '../sinks/incremental.js';
import { removeStale } from '../sinks/write.js';
import { samePlace, type DocumentRecord, type SinkRow, type StoredChunk } from '../sinks/types.js';
import type { PipelineOptions, PipelineSummary } from './types.js';
import type { pipeline } from './pipeline.js';

/** A document of the run while it is chunked and synced (its rows' keys, not its chunks). */
export interface DocState {
  source: string;
  /** What the sink held of it when its first batch was synced (dropped at its end). */
  stored?: Map<string, StoredChunk>;
  /** Ids of its chunks so far. */
  ids: Set<string>;
  /** UTF-8 bytes read. */
  bytes: number;
  /** Its record to store once its rows are synced (undefined: no skipping for it). */
  record?: DocumentRecord;
  /** Its old record must be dropped before its rows change. */
  forget: boolean;
}

/** One document's chunks in a window. */
export interface Segment {
  doc: DocState;
  chunks: Chunk[];
}

/** A chunk of a window with its document. */
export interface WindowChunk {
  doc: DocState;
  chunk: Chunk;
}

/** What the store stage works with: the run's sink, its counts and callbacks. */
export interface StoreContext {
  /** The sink (undefined: no sink, every chunk is new). */
  sink?: IncrementalSink;
  /** The sink when it keeps document records and unchanged documents are skipped. */
  records?: IncrementalSink;
  /** The embedder's identity, stored with each row. */
  identity: string;
  /** The vectors' dimension. */
  d: number;
  summary: PipelineSummary;
  onBatch?: PipelineOptions['onBatch'];
  onProgress?: PipelineOptions['onProgress'];
  /** UTF-8 bytes of the documents done so far (progress events). */
  doneBytes(): number;
  /** Ends a document: counts it and tells progress. */
  endDocument(doc: DocState): void;
  /** Notes that the sink was written to (it is optimized at the end). */
  wrote(): void;
}

/**
 * Sorts a window's new chunks (each id once per document): fresh (not in the sink, or by
 * another embedder: to embed), moved (in the sink with the same embedder but another place:
 * rewritten with its stored vector, whose rows are returned) or kept. Reads first what the
 * sink holds of `docs` not read yet (`storedMany`, once per document), after the moved
 * ones' stored vectors (`vectorsMany`; a row gone since, by another writer, is fresh).
 * Counts `chunks` and `kept`.
 */
export async function sortWindow(ctx: StoreContext, segments: readonly Segment[], docs: readonly DocState[]): Promise<{ fresh: WindowChunk[]; rows: SinkRow[] }> {
  const { sink, summary, identity } = ctx;
  if (sink) {
    const unread = docs.filter((doc) => doc.stored === undefined);
    if (unread.length > 0) {
      const got = await sink.storedMany(unread.map((doc) => doc.source));
      for (const doc of unread) doc.stored = got.get(doc.source) ?? new Map();
    }
  }
  // each new chunk: fresh (embed), moved (rewrite with its stored vector) or kept
  const fresh: WindowChunk[] = [];
  let moved: WindowChunk[] = [];
  for (const { doc, chunks } of segments) {
    for (const c of chunks) {
      if (doc.ids.has(c.id)) continue;
      doc.ids.add(c.id);
      summary.chunks++;
      const had = doc.stored?.get(c.id);
      if (had?.embedder !== identity) fresh.push({ doc, chunk: c });
      else if (!samePlace(had, c)) moved.push({ doc, chunk: c });
      else summary.kept++;
    }
  }
  const rows: SinkRow[] = [];
  if (sink && moved.length > 0) {
    const found = await sink.vectorsMany(keysOf(moved));
    const vectorOf = (m: WindowChunk) => found.get(m.doc.source)?.get(m.chunk.id);
    // a row gone since it was read (another writer): its chunk is embedded instead
    fresh.push(...moved.filter((m) => !vectorOf(m)));
    moved = moved.filter((m) => vectorOf(m));
    summary.kept += moved.length;
    for (const m of moved) rows.push(rowOf(m.chunk, m.doc.source, vectorOf(m)!, identity));
  }
  return { fresh, rows };
}

/**
 * The writes of a window, in the order that makes a stopped run converge: drop the
 * records of its documents that change, upsert its rows, then for the documents that
 * ended in it delete their stale rows and write their records. Runs while the next
 * window is chunked and embedded.
 */
export async function writeWindow(ctx: StoreContext, segments: readonly Segment[], done: readonly DocState[], forget: readonly DocState[], fresh: readonly WindowChunk[], rows: SinkRow[], vectors: Float32Array): Promise<void> {
  const { sink, records, summary, d } = ctx;
  if (forget.length > 0) {
    await records!.forgetDocuments!(forget.map((doc) => doc.source));
    ctx.wrote();
  }
  if (sink && rows.length > 0) {
    await sink.upsert(rows);
    ctx.wrote();
  }
  summary.added += fresh.length;
  if (ctx.onBatch && fresh.length > 0) {
    // per document, in document order (fresh is in window order)
    for (let s = 0; s < fresh.length; ) {
      let e = s + 1;
      while (e < fresh.length && fresh[e].doc === fresh[s].doc) e++;
      await ctx.onBatch({ source: fresh[s].doc.source, chunks: fresh.slice(s, e).map((f) => f.chunk), vectors: vectors.slice(s * d, e * d) });
      s = e;
    }
  }
  if (segments.length > 0) {
    const last = segments[segments.length - 1].doc.source;
    ctx.onProgress?.({ kind: 'batch', source: last, documents: summary.documents, bytes: ctx.doneBytes(), documentBytes: 0, chunks: summary.chunks, embedded: summary.embedded });
  }
  if (sink && done.length > 0) {
    // rows of the ended documents whose chunks are gone, after their new rows are in
    const removed = await removeStale(sink, new Map(done.map((doc) => [doc.source, doc.ids])), new Map(done.map((doc) => [doc.source, doc.stored!])));
    summary.removed += removed;
    if (removed > 0) ctx.wrote();
    const finished = done.filter((doc) => doc.record).map((doc) => ({ ...doc.record!, chunks: doc.ids.size }));
    if (finished.length > 0) {
      await records!.writeDocuments!(finished);
      ctx.wrote();
    }
  }
  for (const doc of done) {
    doc.stored = undefined;
    ctx.endDocument(doc);
  }
}

/** Chunk ids by source of `items`. */
function keysOf(items: readonly WindowChunk[]): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const { doc, chunk } of items) {
    const ids = keys.get(doc.source);
    if (ids) ids.push(chunk.id);
    else keys.set(doc.source, [chunk.id]);
  }
  return keys;
}

/** The sink row of a chunk of `source` with its vector (copied) and the embedder's identity. */
export function rowOf(c: Chunk, source: string, vector: Float32Array, embedder: string): SinkRow {
  return { id: c.id, source, text: c.text, embedText: c.embedText ?? null, start: c.start, end: c.end, tokenCount: c.tokenCount, metadata: c.metadata, vector: vector.slice(), embedder };
}
