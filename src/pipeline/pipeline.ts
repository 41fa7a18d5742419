/**
 * {@link pipeline}: documents in, chunks with vectors synced into a sink, a summary out —
 * load → chunk → refine → embed → store, with the batching, concurrency limit, retry,
 * embedding cache and progress events in one place (`chunkwise embed` is this loop).
 * The stages are their own modules (load.ts, chunk.ts, refine.ts, embed.ts, store.ts);
 * this one holds the run: groups of documents, windows of chunks, the writes behind them.
 * Core module: no Node built-in, so it runs in Node, browsers, workers and edge runtimes.
 * @module
 */
import { DocumentError } from '../documents/document-error.js';
import { InvalidOptionError } from '../engine/errors.js';
import { embedderIdentity } from '../embedders/identity.js';
import { utf8Length } from '../engine/size/utf8.js';
import { incrementalSink, type IncrementalSink } from '../sinks/incremental.js';
import type { DocumentRecord } from '../sinks/types.js';
import { counted, takeDocument, type Taken } from './load.js';
import { chunkDocument, chunkerChoice, chunkingChoice } from './chunk.js';
import { refineSegments } from './refine.js';
import { vectorsFor } from './embed.js';
import { rowOf, sortWindow, writeWindow, type DocState, type Segment, type StoreContext } from './store.js';
import type { PipelineDocument, PipelineOptions, PipelineSummary } from './types.js';

export type { PipelineDocument, PipelineProgress, PipelineSummary, EmbeddedBatch, PipelineOptions } from './types.js';
export { chunkingIdentity } from './chunk.js';

function count(name: string, value: unknown, fallback: number, min = 1): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new InvalidOptionError(name, value, `an integer ≥ ${min}`);
  return v;
}

/** Documents looked up together in the sink's records (and the string text or bytes they may hold: about 32 MB at most). */
const DOCUMENT_GROUP = 256;
const GROUP_BYTES = 32 << 20;
/** A window ends at this many bytes of chunk text (and embed text), whatever its chunk count. */
const WINDOW_TEXT_BYTES = 32 << 20;

/**
 * Syncs documents into a sink, in batches of documents. Documents are read in groups
 * whose records the sink keeps ({@link Sink.documents}: content hash, embedder and chunking
 * of the last run that synced each whole) are looked up at once: a document whose
 * content hash (`document.hash`, else a hash of its string text), embedder identity and
 * chunking (`chunking`) match is skipped before it is read or chunked, its rows counted
 * as kept. The others are chunked (streaming when the text comes in pieces and the
 * chunker streams) into a window of `batchSize` chunks that may span many documents;
 * each full window is `refine`d (per document), then synced with a handful of calls:
 * one read of what the sink holds for the window's new documents (`storedMany`: ids,
 * embedder, place; no vectors), one read of the stored vectors of kept chunks that moved
 * (text before them changed their start, end, token count or metadata: `vectorsMany`),
 * the embedding of the others' `embedText ?? text` (`embedBatchSize` texts per call,
 * `concurrency` calls at once, transient failures retried with exponential backoff; a
 * text whose vector is in the run's cache is not embedded again), one upsert of the
 * window's rows, and, for the documents that ended in it, one delete of their rows whose
 * ids they no longer have (`removeRows`) and one write of their records. With `prune`,
 * the sources the sink holds that the run did not see are deleted at the end
 * (`removeSources`). A sink without the batched members works through `incrementalSink`
 * (per-source calls).
 *
 * Memory is bounded by one window (its chunks and vectors), the ids of the documents in
 * it, a group of documents (their sources, and their texts when given as strings), the
 * cache and what the chunker holds (one section for a streaming chunker), not by the input.
 * Writes go record-drop, upsert, delete, record-write: a run stopped at any point and run
 * again converges to one clean run (a document whose rows changed has no record until
 * they are whole again, so it is never skipped half-synced).
 *
 * @example
 * ```ts
 * async function* docs() {
 *   yield { source: 'guide.md', text: '# Guide\n\nChunks that survive the trip.' };
 * }
 * const summary = await pipeline({ documents: docs(), chunker: 'auto', embedder: new HashingEmbedder(), sink: new MemorySink() });
 * // { documents: 1, chunks: 1, added: 1, kept: 0, removed: 0, pruned: 0, embedded: 1, seconds: … }
 * ```
 * @throws {InvalidOptionError} for a bad option or a document without a source or text.
 * @throws {SinkError} from the sink (a table of another dimension fails before any embedding).
 * @throws {EmbeddingError} when the embedder fails for good or returns a wrong shape.
 */
export async function pipeline(options: PipelineOptions): Promise<PipelineSummary> {
  const started = Date.now();
  const o = options ?? ({} as PipelineOptions);
  const docs = o.documents as Partial<Iterable<PipelineDocument> & AsyncIterable<PipelineDocument>> | undefined;
  if (docs == null || (typeof docs[Symbol.asyncIterator] !== 'function' && typeof docs[Symbol.iterator] !== 'function')) {
    throw new InvalidOptionError('documents', o.documents, 'an iterable or async iterable of { source, text }');
  }
  const embedder = o.embedder;
  if (!embedder || typeof embedder.embed !== 'function' || !Number.isInteger(embedder.dimension) || embedder.dimension < 1) {
    throw new InvalidOptionError('embedder', embedder, 'an Embedder ({ dimension, embed(texts) })');
  }
  if (o.load !== undefined && (typeof o.load !== 'object' || o.load === null)) throw new InvalidOptionError('load', o.load, '{ password?, encoding?, pdfjs? }');
  const chunkerFor = chunkerChoice(o);
  const chunkingOf = chunkingChoice(o);
  const sink = o.sink === undefined ? undefined : incrementalSink(o.sink);
  const batchSize = count('batchSize', o.batchSize, Math.min(o.sink?.batchSize ?? 256, 8192));
  const embedBatchSize = count('embedBatchSize', o.embedBatchSize, 64);
  const concurrency = count('concurrency', o.concurrency, 2);
  const policy = {
    maxRetries: count('maxRetries', o.maxRetries, 3, 0),
    initialDelayMs: count('initialDelayMs', o.initialDelayMs, 500, 0),
    maxDelayMs: count('maxDelayMs', o.maxDelayMs, 30_000, 0),
    onRetry: o.onRetry,
  };
  const cacheSize = count('cacheSize', o.cacheSize, 8192, 0);
  const identity = embedderIdentity(embedder);
  const d = embedder.dimension;
  const summary: PipelineSummary = { documents: 0, chunks: 0, added: 0, kept: 0, removed: 0, pruned: 0, embedded: 0, failed: 0, seconds: 0 };
  const vectorsOf = vectorsFor({ embedder, identity, embedBatchSize, concurrency, policy, cacheSize, counts: summary });
  let bytes = 0;
  const seen = new Set<string>();
  const records = sink && o.skipUnchanged !== false && (['documents', 'writeDocuments', 'forgetDocuments'] as const).every((m) => typeof sink[m] === 'function') ? sink : undefined;
  if (sink) await sink.prepare(d);
  let wrote = false;

  // the window: chunks of consecutive documents (segments), and the documents that ended in it
  let window: Segment[] = [];
  let windowChunks = 0;
  let windowBytes = 0;
  let ended: DocState[] = [];
  /** The writes of the last window flushed (they overlap the next window's chunking and embedding). */
  let writing: Promise<void> = Promise.resolve();

  const endDocument = (doc: DocState) => {
    summary.documents++;
    bytes += doc.bytes;
    o.onProgress?.({ kind: 'document', source: doc.source, documents: summary.documents, bytes, documentBytes: doc.bytes, chunks: summary.chunks, embedded: summary.embedded });
  };
  const store: StoreContext = {
    sink,
    records,
    identity,
    d,
    summary,
    onBatch: o.onBatch,
    onProgress: o.onProgress,
    doneBytes: () => bytes,
    endDocument,
    wrote: () => (wrote = true),
  };

  /** The window so far: refined, sorted against the sink, its fresh chunks embedded, its writes started. */
  const flush = async () => {
    const segments = window;
    const done = ended;
    window = [];
    windowChunks = 0;
    windowBytes = 0;
    ended = [];
    if (segments.length === 0 && done.length === 0) return;
    if (o.refine) await refineSegments(segments, o.refine);
    const docsHere = [...new Set([...segments.map((seg) => seg.doc), ...done])];
    const forget = docsHere.filter((doc) => doc.forget);
    for (const doc of forget) doc.forget = false;
    const { fresh, rows } = await sortWindow(store, segments, docsHere);
    const vectors = fresh.length > 0 ? await vectorsOf(fresh.map((f) => f.chunk)) : new Float32Array(0);
    fresh.forEach((f, i) => rows.push(rowOf(f.chunk, f.doc.source, vectors.subarray(i * d, (i + 1) * d), identity)));
    // the writes of the window before must be done: each document's writes stay in order
    await writing;
    writing = writeWindow(store, segments, done, forget, fresh, rows, vectors);
    // its failure is thrown where it is awaited (the next window, or the run's end)
    writing.catch(() => {});
  };

  /** Chunks one document into the window, flushing full windows. */
  const take = async (t: Taken, record: DocumentRecord | undefined, forget: boolean) => {
    const doc: DocState = { source: t.source, ids: new Set(), bytes: typeof t.text === 'string' ? utf8Length(t.text) : 0, record, forget };
    const counter = { bytes: 0 };
    let segment: Segment | undefined;
    try {
      const text = typeof t.text === 'string' || t.text instanceof Uint8Array ? t.text : counted(t.text, counter);
      for await (const c of chunkDocument(chunkerFor(t.source, t.document), t.source, text, o.load)) {
        if (!segment) window.push((segment = { doc, chunks: [] }));
        segment.chunks.push(c);
        windowBytes += 2 * (c.text.length + (c.embedText?.length ?? 0));
        if (++windowChunks >= batchSize || windowBytes >= WINDOW_TEXT_BYTES) {
          segment = undefined;
          await flush();
        }
      }
    } catch (error) {
      if (!(error instanceof DocumentError) || !o.onDocumentError) throw error;
      // an unreadable version of the document: what the sink holds of it stays as it was
      // (its chunks not yet synced are dropped)
      window = window.filter((seg) => seg.doc !== doc);
      windowChunks = window.reduce((n, seg) => n + seg.chunks.length, 0);
      windowBytes = window.reduce((n, seg) => n + seg.chunks.reduce((m, c) => m + 2 * (c.text.length + (c.embedText?.length ?? 0)), 0), 0);
      summary.failed++;
      o.onDocumentError(error, t.source);
      return;
    }
    doc.bytes += counter.bytes;
    ended.push(doc);
    if (ended.length >= batchSize) await flush();
  };

  /** A group of documents: their records looked up at once, the unchanged skipped, the others chunked. */
  const runGroup = async (group: Taken[]) => {
    const keyed = records ? group.filter((t) => t.contentHash !== undefined && t.chunking !== undefined) : [];
    const known = keyed.length > 0 ? await records!.documents!(keyed.map((t) => t.source)) : new Map<string, DocumentRecord>();
    for (const t of group) {
      const had = known.get(t.source);
      const record = t.contentHash !== undefined && t.chunking !== undefined && records ? { source: t.source, contentHash: t.contentHash, embedder: identity, chunking: t.chunking, chunks: 0 } : undefined;
      if (record && had && had.contentHash === record.contentHash && had.embedder === identity && had.chunking === record.chunking) {
        summary.chunks += had.chunks;
        summary.kept += had.chunks;
        endDocument({ source: t.source, ids: new Set(), bytes: typeof t.text === 'string' ? utf8Length(t.text) : 0, forget: false });
        continue;
      }
      await take(t, record, had !== undefined);
    }
  };

  let group: Taken[] = [];
  let groupBytes = 0;
  try {
    for await (const doc of docs as AsyncIterable<PipelineDocument>) {
      const t = takeDocument(doc, records !== undefined, chunkingOf);
      seen.add(t.source);
      group.push(t);
      groupBytes += typeof t.text === 'string' || t.text instanceof Uint8Array ? t.text.length : 0;
      if (group.length >= DOCUMENT_GROUP || groupBytes >= GROUP_BYTES) {
        const g = group;
        group = [];
        groupBytes = 0;
        await runGroup(g);
      }
    }
    await runGroup(group);
    await flush();
    await writing;
  } finally {
    // a run that fails leaves no write running behind it
    await writing.catch(() => {});
  }

  if (o.prune && sink) {
    const gone = (await sink.sources()).filter((s) => !seen.has(s));
    if (gone.length > 0) {
      const pruned = await sink.removeSources(gone);
      summary.pruned += pruned;
      summary.removed += pruned;
      wrote = true;
    }
  }
  if (sink && wrote) await sink.optimize?.();
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

export type { IncrementalSink };
