/**
 * {@link pipeline}: documents in, chunks with vectors synced into a sink, a summary out —
 * load → chunk → refine → embed → store, with the batching, concurrency limit, retry,
 * embedding cache and progress events in one place (`chunkwise embed` is this loop).
 * Core module: no Node built-in, so it runs in Node, browsers, workers and edge runtimes.
 * @module
 */
import { hashText, type Chunk } from '../engine/chunk.js';
import { VERSION } from '../engine/version.js';
import { DocumentError } from '../documents/document-error.js';
import { EmbeddingError, InvalidOptionError } from '../engine/errors.js';
import { withBackoff, type RetryEvent, type TransientFailure } from '../engine/retry.js';
import { embedderIdentity } from '../embedders/identity.js';
import { EmbeddingRequestError, RETRY_STATUS } from '../embedders/openai.js';
import type { Embedder } from '../embedders/types.js';
import { utf8Length } from '../engine/size/utf8.js';
import { AUTO_STRATEGY, FileChunkers, type FileChunkerOptions } from '../strategies/file-chunkers.js';
import type { Chunker } from '../engine/chunker.js';
import { incrementalSink, type IncrementalSink } from '../sinks/incremental.js';
import { removeStale } from '../sinks/write.js';
import { samePlace, type DocumentRecord, type Sink, type SinkRow, type StoredChunk } from '../sinks/types.js';

/**
 * A document: `source` is its key (a file's absolute path, a URL, any id of yours: the
 * sink's rows are kept per source, and it is the document id handed to the chunker);
 * `text` the whole text, or its pieces in order (a stream is chunked through the
 * chunker's `chunkStream` when it has one, so a large document is never held whole).
 * `id` is accepted for `source`.
 */
export interface PipelineDocument {
  source?: string;
  /** Alias of `source`. */
  id?: string;
  text?: string | Iterable<string> | AsyncIterable<string>;
  /**
   * The document as bytes instead of `text` (a PDF, a Word file, HTML, Markdown or text,
   * by the extension of `source` or else by its magic bytes): loaded by
   * `loadDocument` (src/documents/load.ts) before chunking; a PDF's chunks carry
   * `metadata.pages` and `metadata.boxes` to the sink, a Word file is chunked as its HTML.
   */
  bytes?: Uint8Array;
  /**
   * A hash of the document's content (the CLI: SHA-256 of the file's bytes, taken before
   * decoding). With it — or for a string `text`, whose hash the pipeline takes — a rerun
   * skips the document unread when the sink's record of it has the same hash, embedder
   * and chunking ({@link PipelineOptions.chunking}).
   */
  hash?: string;
}

/** What {@link PipelineOptions.onProgress} receives, after each batch and at each document's end. */
export interface PipelineProgress {
  /** `batch` after a batch of chunks is stored, `document` when a document is done. */
  kind: 'batch' | 'document';
  /** The document in work. */
  source: string;
  /** Documents done. */
  documents: number;
  /** UTF-8 bytes of the documents done (a document counts at its end). */
  bytes: number;
  /** UTF-8 bytes of this document (at `document`; 0 before). */
  documentBytes: number;
  /** Chunks seen so far (added and kept). */
  chunks: number;
  /** Texts sent to the embedder so far. */
  embedded: number;
}

/** What a run did: {@link pipeline}'s result. */
export interface PipelineSummary {
  /** Documents read. */
  documents: number;
  /** Chunks of those documents (added + kept). */
  chunks: number;
  /** Chunks written with a new vector (not in the sink before, or made by another embedder). */
  added: number;
  /**
   * Chunks already in the sink with the same id and embedder: not embedded; not written
   * either, unless the chunk moved (text before it changed its start, end or metadata):
   * then its row is rewritten in place with its stored vector.
   */
  kept: number;
  /** Rows deleted: chunks gone from their document, and (with `prune`) the rows of documents the run did not see. */
  removed: number;
  /** Of `removed`, the rows of documents the run did not see. */
  pruned: number;
  /** Texts sent to the embedder (identical texts once: the cache). */
  embedded: number;
  /** Documents skipped because they could not be read (a `DocumentError`, with `onDocumentError`): their rows are left as they were. */
  failed: number;
  /** Wall-clock seconds of the run. */
  seconds: number;
}

/** A batch of newly embedded chunks, handed to {@link PipelineOptions.onBatch}. */
export interface EmbeddedBatch {
  source: string;
  /** The chunks, in document order. */
  chunks: Chunk[];
  /** n × d row-major: row i is the vector of `chunks[i]` (of its `embedText ?? text`). */
  vectors: Float32Array;
}

/** Options of {@link pipeline}. */
export interface PipelineOptions {
  /** The documents: any iterable or async iterable (an async generator reading files, a queue, a crawler). */
  documents: Iterable<PipelineDocument> | AsyncIterable<PipelineDocument>;
  /**
   * A chunker for every document, a function choosing one per document, or `'auto'`:
   * the strategy by the source's extension (`.md` markdown, `.html` html, source files
   * code, `.txt` recursive, else `fixed`: the CLI's `--strategy auto`), with
   * `chunkerOptions` (for `'auto'`: by strategy name).
   */
  chunker: Chunker | 'auto' | ((source: string) => Chunker);
  /** For `'auto'`: each strategy's options by name, e.g. `{ markdown: { chunkSize: 256 } }`. */
  chunkerOptions?: FileChunkerOptions;
  /** A step between chunking and embedding, called on each batch of a document's chunks in order; returns the chunks to embed and store. */
  refine?: (chunks: Chunk[], source: string) => Chunk[] | Promise<Chunk[]>;
  embedder: Embedder;
  /**
   * Where rows go, synced in windows of documents: upserted by (source, id), stale rows
   * removed once their document has ended. A sink without the batched members
   * (`storedMany`, `vectorsMany`, `removeRows`, …) works through `incrementalSink`
   * (per-source calls, or rows read back from `rows()`; rows without an `embedder` are
   * embedded again). Optional: without it every chunk is new and reaches only `onBatch`.
   */
  sink?: Sink;
  /**
   * The identity of the chunking (strategy, options, refine step): a string, or one per
   * source. A document is skipped unread when its content hash, the embedder and this
   * match the sink's record of it. Default: for `'auto'` the strategy and options the
   * source gets; for a chunker whose `options` are plain data, its class name and
   * options; none (no document is skipped) for a function choosing chunkers or with
   * `refine` — give one then, and change it when the chunking changes.
   */
  chunking?: string | ((source: string) => string | undefined);
  /** Skip documents whose record in the sink matches (see {@link PipelineOptions.chunking}). Default true. */
  skipUnchanged?: boolean;
  /** Delete, at the end, the rows of every source in the sink that the run did not see ("these documents are the corpus"). Default false. */
  prune?: boolean;
  /**
   * Chunks per window: chunked (of one or many documents), looked up, embedded and written
   * together; memory is bounded by it. Default the sink's `batchSize` (at most 8192), else 256.
   * A window also ends at 32 MB of chunk text (JavaScript strings, 2 bytes a code unit), so
   * large chunks do not make a window of `batchSize` chunks hundreds of MB.
   */
  batchSize?: number;
  /** Texts per `embed` call. Default 64. */
  embedBatchSize?: number;
  /** `embed` calls in flight at once. Default 2. */
  concurrency?: number;
  /** Retries of an `embed` call that failed transiently (an error with an HTTP `status` of 408, 409, 429 or 5xx). Default 3. */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per retry. Default 500. */
  initialDelayMs?: number;
  /** Longest backoff delay in ms. Default 30000. */
  maxDelayMs?: number;
  /** Called before each retry. */
  onRetry?: (event: RetryEvent) => void;
  /** Distinct texts whose vectors are kept for reuse within the run, keyed by the embedder's identity and the text's hash (least recently used dropped first). Default 8192; 0 turns the cache off. */
  cacheSize?: number;
  onProgress?: (progress: PipelineProgress) => void;
  /**
   * Called when a document cannot be read (the chunker threw a `DocumentError`: a scanned
   * or encrypted PDF, bytes that are no document). With it, that document is skipped —
   * its rows in the sink are neither removed nor counted as stale, and `summary.failed`
   * counts it — and the run goes on; without it the error ends the run.
   */
  onDocumentError?: (error: DocumentError, source: string) => void;
  /** Called with each batch of newly embedded chunks (after the sink has them): a JSONL writer, a custom store. */
  onBatch?: (batch: EmbeddedBatch) => void | Promise<void>;
}

function count(name: string, value: unknown, fallback: number, min = 1): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new InvalidOptionError(name, value, `an integer ≥ ${min}`);
  return v;
}

/** A transient embedder failure: an HTTP-like `status` of {@link RETRY_STATUS}; an `EmbeddingRequestError` has had its own retries. */
function transient(error: unknown): TransientFailure | undefined {
  if (error instanceof EmbeddingRequestError) return undefined;
  const status = (error as { status?: unknown })?.status;
  if (typeof status !== 'number' || !RETRY_STATUS.has(status)) return undefined;
  return { status, reason: String((error as Error)?.message ?? error).split('\n', 1)[0] };
}

/** A least-recently-used map of vectors by key, at most `max` entries. */
class VectorCache {
  readonly #map = new Map<string, Float32Array>();
  constructor(readonly max: number) {}
  get(key: string): Float32Array | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  set(key: string, v: Float32Array): void {
    if (this.max === 0) return;
    this.#map.delete(key);
    this.#map.set(key, v);
    if (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as string);
  }
}

/** Runs `tasks` with at most `limit` in flight; resolves when all are done, rejects on the first failure. */
async function runLimited(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/** The pieces of a document's text, counting their UTF-8 bytes into `counter`. */
async function* counted(text: Iterable<string> | AsyncIterable<string>, counter: { bytes: number }): AsyncGenerator<string> {
  for await (const piece of text as AsyncIterable<string>) {
    if (typeof piece !== 'string') throw new InvalidOptionError('documents', piece, 'text pieces that are strings');
    counter.bytes += utf8Length(piece);
    yield piece;
  }
}

/** A document of the run while it is chunked and synced (its rows' keys, not its chunks). */
interface DocState {
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

/** A document taken from the input, checked, with what decides whether it is skipped. */
interface Taken {
  source: string;
  text: string | Iterable<string> | AsyncIterable<string> | Uint8Array;
  contentHash?: string;
  chunking?: string;
}

/** Documents looked up together in the sink's records (and the string text they may hold: at most ~32 MB). */
const DOCUMENT_GROUP = 256;
const GROUP_BYTES = 32 << 20;
/** A window ends at this many bytes of chunk text (and embed text), whatever its chunk count. */
const WINDOW_TEXT_BYTES = 32 << 20;
/**
 * Bumped when a chunker's output for the same text and options changes: stored records then
 * no longer match. The package version is part of the identity too ({@link chunkingIdentity}),
 * so an upgrade re-chunks even when this was not bumped.
 */
const CHUNKING_REVISION = '1';

/**
 * The string hashed into a document record's chunking: the chunking revision, the package
 * version and the chunker's own identity (strategy and options), NUL-separated.
 * @internal exported for tests
 */
export function chunkingIdentity(id: string, version: string = VERSION): string {
  return `${CHUNKING_REVISION}\u0000${version}\u0000${id}`;
}

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
  const cache = new VectorCache(count('cacheSize', o.cacheSize, 8192, 0));
  const identity = embedderIdentity(embedder);
  // the cache's key: the embedder's identity and the text's hash and length
  const cacheKey = (text: string) => `${identity}\u0000${hashText(text)}:${text.length}`;
  const d = embedder.dimension;
  const summary: PipelineSummary = { documents: 0, chunks: 0, added: 0, kept: 0, removed: 0, pruned: 0, embedded: 0, failed: 0, seconds: 0 };
  let bytes = 0;
  const seen = new Set<string>();
  const records = sink && o.skipUnchanged !== false && (['documents', 'writeDocuments', 'forgetDocuments'] as const).every((m) => typeof sink[m] === 'function') ? sink : undefined;
  if (sink) await sink.prepare(d);
  let wrote = false;

  const embedTexts = async (texts: string[]): Promise<Float32Array> => {
    const out = await withBackoff(() => embedder.embed(texts), transient, policy);
    if (!(out instanceof Float32Array) || out.length !== texts.length * d) {
      throw new EmbeddingError(`the embedder returned ${out instanceof Float32Array ? out.length : typeof out} values for ${texts.length} texts of dimension ${d}`);
    }
    summary.embedded += texts.length;
    return out;
  };

  /** n × d vectors of `chunks`' `embedText ?? text`: distinct texts not in the cache are embedded. */
  const vectorsOf = async (chunks: readonly Chunk[]): Promise<Float32Array> => {
    const vectors = new Float32Array(chunks.length * d);
    const pending = new Map<string, number[]>();
    chunks.forEach((c, i) => {
      const t = c.embedText ?? c.text;
      const hit = cache.get(cacheKey(t));
      if (hit) vectors.set(hit, i * d);
      else {
        const at = pending.get(t);
        if (at) at.push(i);
        else pending.set(t, [i]);
      }
    });
    const texts = [...pending.keys()];
    const tasks: (() => Promise<void>)[] = [];
    for (let s = 0; s < texts.length; s += embedBatchSize) {
      const part = texts.slice(s, s + embedBatchSize);
      tasks.push(async () => {
        const out = await embedTexts(part);
        part.forEach((t, j) => {
          const v = out.slice(j * d, (j + 1) * d);
          cache.set(cacheKey(t), v);
          for (const i of pending.get(t)!) vectors.set(v, i * d);
        });
      });
    }
    await runLimited(tasks, concurrency);
    return vectors;
  };

  // the window: chunks of consecutive documents (segments), and the documents that ended in it
  let window: { doc: DocState; chunks: Chunk[] }[] = [];
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

  const flush = async () => {
    const segments = window;
    const done = ended;
    window = [];
    windowChunks = 0;
    windowBytes = 0;
    ended = [];
    if (segments.length === 0 && done.length === 0) return;
    if (o.refine) {
      for (const seg of segments) {
        const chunks = await o.refine(seg.chunks, seg.doc.source);
        if (!Array.isArray(chunks)) throw new InvalidOptionError('refine', chunks, 'a function returning an array of chunks');
        seg.chunks = chunks;
      }
    }
    const docsHere = [...new Set([...segments.map((seg) => seg.doc), ...done])];
    if (sink) {
      const unread = docsHere.filter((doc) => doc.stored === undefined);
      if (unread.length > 0) {
        const got = await sink.storedMany(unread.map((doc) => doc.source));
        for (const doc of unread) doc.stored = got.get(doc.source) ?? new Map();
      }
    }
    const forget = docsHere.filter((doc) => doc.forget);
    for (const doc of forget) doc.forget = false;
    // each new chunk: fresh (embed), moved (rewrite with its stored vector) or kept
    const fresh: { doc: DocState; chunk: Chunk }[] = [];
    let moved: { doc: DocState; chunk: Chunk }[] = [];
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
      const vectorOf = (m: { doc: DocState; chunk: Chunk }) => found.get(m.doc.source)?.get(m.chunk.id);
      // a row gone since it was read (another writer): its chunk is embedded instead
      fresh.push(...moved.filter((m) => !vectorOf(m)));
      moved = moved.filter((m) => vectorOf(m));
      summary.kept += moved.length;
      for (const m of moved) rows.push(rowOf(m.chunk, m.doc.source, vectorOf(m)!, identity));
    }
    const vectors = fresh.length > 0 ? await vectorsOf(fresh.map((f) => f.chunk)) : new Float32Array(0);
    fresh.forEach((f, i) => rows.push(rowOf(f.chunk, f.doc.source, vectors.subarray(i * d, (i + 1) * d), identity)));
    // the writes of the window before must be done: each document's writes stay in order
    await writing;
    writing = write(segments, done, forget, fresh, rows, vectors);
    // its failure is thrown where it is awaited (the next window, or the run's end)
    writing.catch(() => {});
  };

  /**
   * The writes of a window, in the order that makes a stopped run converge: drop the
   * records of its documents that change, upsert its rows, then for the documents that
   * ended in it delete their stale rows and write their records. Runs while the next
   * window is chunked and embedded.
   */
  const write = async (segments: { doc: DocState }[], done: DocState[], forget: DocState[], fresh: { doc: DocState; chunk: Chunk }[], rows: SinkRow[], vectors: Float32Array) => {
    if (forget.length > 0) {
      await records!.forgetDocuments!(forget.map((doc) => doc.source));
      wrote = true;
    }
    if (sink && rows.length > 0) {
      await sink.upsert(rows);
      wrote = true;
    }
    summary.added += fresh.length;
    if (o.onBatch && fresh.length > 0) {
      // per document, in document order (fresh is in window order)
      for (let s = 0; s < fresh.length; ) {
        let e = s + 1;
        while (e < fresh.length && fresh[e].doc === fresh[s].doc) e++;
        await o.onBatch({ source: fresh[s].doc.source, chunks: fresh.slice(s, e).map((f) => f.chunk), vectors: vectors.slice(s * d, e * d) });
        s = e;
      }
    }
    if (segments.length > 0) {
      const last = segments[segments.length - 1].doc.source;
      o.onProgress?.({ kind: 'batch', source: last, documents: summary.documents, bytes, documentBytes: 0, chunks: summary.chunks, embedded: summary.embedded });
    }
    if (sink && done.length > 0) {
      // rows of the ended documents whose chunks are gone, after their new rows are in
      const removed = await removeStale(sink, new Map(done.map((doc) => [doc.source, doc.ids])), new Map(done.map((doc) => [doc.source, doc.stored!])));
      summary.removed += removed;
      if (removed > 0) wrote = true;
      const finished = done.filter((doc) => doc.record).map((doc) => ({ ...doc.record!, chunks: doc.ids.size }));
      if (finished.length > 0) {
        await records!.writeDocuments!(finished);
        wrote = true;
      }
    }
    for (const doc of done) {
      doc.stored = undefined;
      endDocument(doc);
    }
  };

  /** Chunks one document into the window, flushing full windows. */
  const take = async (t: Taken, record: DocumentRecord | undefined, forget: boolean) => {
    const doc: DocState = { source: t.source, ids: new Set(), bytes: typeof t.text === 'string' ? utf8Length(t.text) : 0, record, forget };
    const counter = { bytes: 0 };
    let segment: { doc: DocState; chunks: Chunk[] } | undefined;
    try {
      const text = typeof t.text === 'string' || t.text instanceof Uint8Array ? t.text : counted(t.text, counter);
      for await (const c of chunkDocument(chunkerFor(t.source), t.source, text)) {
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
      const source = doc?.source ?? doc?.id;
      if (typeof source !== 'string' || source.length === 0) throw new InvalidOptionError('documents', doc, 'documents with a source (or id) string');
      // a document as bytes: loaded (PDF, DOCX, HTML, Markdown, text) where it is chunked
      const bytes = doc.bytes instanceof Uint8Array && doc.text === undefined ? doc.bytes : undefined;
      const text = bytes ? '' : (doc.text as PipelineDocument['text'] | undefined);
      const isString = typeof text === 'string';
      if (!isString && (text == null || (typeof (text as AsyncIterable<string>)[Symbol.asyncIterator] !== 'function' && typeof (text as Iterable<string>)[Symbol.iterator] !== 'function'))) {
        throw new InvalidOptionError('documents', doc, `document ${source}: text as a string or pieces of strings`);
      }
      if (doc.hash !== undefined && (typeof doc.hash !== 'string' || doc.hash.length === 0)) throw new InvalidOptionError('documents', doc, `document ${source}: hash as a non-empty string`);
      seen.add(source);
      const contentHash = doc.hash ?? (bytes ? `${hashText(new TextDecoder('latin1').decode(bytes))}:${bytes.length}:bytes` : isString ? `${hashText(text)}:${text.length}` : undefined);
      const chunking = records && contentHash !== undefined ? chunkingOf(source) : undefined;
      group.push({ source, text: bytes ?? text!, contentHash, chunking });
      groupBytes += isString ? text.length : 0;
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

/** Chunk ids by source of `items`. */
function keysOf(items: readonly { doc: DocState; chunk: Chunk }[]): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const { doc, chunk } of items) {
    const ids = keys.get(doc.source);
    if (ids) ids.push(chunk.id);
    else keys.set(doc.source, [chunk.id]);
  }
  return keys;
}

/** The sink row of a chunk of `source` with its vector (copied) and the embedder's identity. */
function rowOf(c: Chunk, source: string, vector: Float32Array, embedder: string): SinkRow {
  return { id: c.id, source, text: c.text, embedText: c.embedText ?? null, start: c.start, end: c.end, tokenCount: c.tokenCount, metadata: c.metadata, vector: vector.slice(), embedder };
}

/**
 * The loaders of the load stage, named in variables so that bundlers do not follow them:
 * the root entry's module graph keeps out pdf.js and mammoth (Node built-ins), which only a
 * run with bytes documents loads, from the module tree beside this one (`dist/src`).
 */
const LOAD_MODULE = '../documents/load.js';
const PDF_MODULE = '../documents/pdf.js';

/**
 * The chunks of one document, in order: through `chunkStream` when the text comes in
 * pieces and the chunker streams, else `chunk` of the whole text. The one place a
 * document meets its chunker: `source` (the key of the sink's rows) is the document id
 * of the chunk ids, so a chunk keeps its id across runs while its text stays the same.
 */
async function* chunkDocument(chunker: Chunker, source: string, text: string | AsyncIterable<string> | Uint8Array): AsyncGenerator<Chunk> {
  const call = { documentId: source };
  if (text instanceof Uint8Array) {
    // the load stage: bytes → text (+ a PDF's layout, which PdfChunker maps onto each chunk)
    const { loadDocument } = (await import(/* @vite-ignore */ LOAD_MODULE)) as typeof import('../documents/load.js');
    const loaded = await loadDocument({ source, bytes: text });
    if (loaded.pdf) yield* await new ((await import(/* @vite-ignore */ PDF_MODULE)) as typeof import('../documents/pdf.js')).PdfChunker(chunker).chunk(loaded.pdf, call);
    else yield* await chunker.chunk(loaded.text, call);
    return;
  }
  if (typeof text !== 'string' && typeof chunker.chunkStream === 'function') {
    yield* chunker.chunkStream(text, call);
    return;
  }
  let whole = '';
  if (typeof text === 'string') whole = text;
  else for await (const piece of text) whole += piece;
  yield* await chunker.chunk(whole, call);
}

/** A hash of the chunking of each source (undefined: none known, the source is never skipped). */
function chunkingChoice(o: PipelineOptions): (source: string) => string | undefined {
  const given = o.chunking;
  const hashed = (id: string | undefined) => (id === undefined ? undefined : hashText(chunkingIdentity(id)));
  if (typeof given === 'string') return () => hashed(given);
  if (typeof given === 'function') {
    return (source) => {
      const id = given(source);
      if (id !== undefined && typeof id !== 'string') throw new InvalidOptionError('chunking', id, `a string (or undefined) for ${source}`);
      return hashed(id);
    };
  }
  if (given !== undefined) throw new InvalidOptionError('chunking', given, 'a string or a function of the source returning one');
  if (o.refine) return () => undefined;
  const c = o.chunker;
  if (c === AUTO_STRATEGY) {
    const chunkers = new FileChunkers(AUTO_STRATEGY, o.chunkerOptions ?? {});
    return (source) => hashed(plainJson(chunkers.plan(source)));
  }
  if (typeof c === 'function' || !c) return () => undefined;
  const options = plainJson((c as { options?: unknown }).options);
  const id = options === undefined ? undefined : `${(c as object).constructor?.name ?? 'chunker'}:${options}`;
  return () => hashed(id);
}

/**
 * JSON of plain data (strings, numbers, booleans, null, arrays and plain objects, keys
 * sorted), or undefined when `value` holds anything else (a function, a class instance:
 * a tokenizer whose identity JSON cannot tell).
 */
function plainJson(value: unknown): string | undefined {
  let plain = true;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || Array.isArray(v)) return v;
    if (typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    if (v !== undefined) plain = false;
    return undefined;
  });
  return plain && value !== undefined ? json : undefined;
}

/** The chunker of each source, from `chunker` (and `chunkerOptions` for `'auto'`). */
function chunkerChoice(o: PipelineOptions): (source: string) => Chunker {
  const c = o.chunker;
  if (c === AUTO_STRATEGY) {
    const chunkers = new FileChunkers(AUTO_STRATEGY, o.chunkerOptions ?? {}).check();
    return (source) => chunkers.for(source);
  }
  if (typeof c === 'function') {
    return (source) => {
      const chosen = (c as (source: string) => Chunker)(source);
      if (!chosen || typeof chosen.chunk !== 'function') throw new InvalidOptionError('chunker', chosen, `a chunker for ${source} (an object with chunk(text))`);
      return chosen;
    };
  }
  if (!c || typeof (c as Chunker).chunk !== 'function') throw new InvalidOptionError('chunker', c, "a chunker (an object with chunk(text)), a function returning one, or 'auto'");
  return () => c as Chunker;
}

export type { IncrementalSink };
