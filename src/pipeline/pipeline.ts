/**
 * {@link pipeline}: documents in, chunks with vectors synced into a sink, a summary out —
 * load → chunk → refine → embed → store, with the batching, concurrency limit, retry,
 * embedding cache and progress events in one place (`chunkwise embed` is this loop).
 * Core module: no Node built-in, so it runs in Node, browsers, workers and edge runtimes.
 * @module
 */
import { hashText, type Chunk } from '../engine/chunk.js';
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
import { samePlace, type Sink, type SinkRow, type StoredChunk } from '../sinks/types.js';
import { sinkRows } from '../sinks/write.js';

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
  text: string | Iterable<string> | AsyncIterable<string>;
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
   * Where rows go, synced per document: upserted by (source, id), stale rows removed at
   * the document's end. A sink without `stored`/`vectors`/`sources`/`removeSources` works
   * through `incrementalSink` (read back from `rows()`; rows without an `embedder` are
   * embedded again). Optional: without it every
   * chunk is new and reaches only `onBatch`.
   */
  sink?: Sink;
  /** Delete, at the end, the rows of every source in the sink that the run did not see ("these documents are the corpus"). Default false. */
  prune?: boolean;
  /** Chunks per batch: chunked, looked up, embedded and written together; memory is bounded by it. Default the sink's `batchSize` (at most 1024), else 256. */
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

/**
 * Syncs documents into a sink. For each document, in order: chunk it (streaming when
 * the text comes in pieces and the chunker streams), and for each batch of `batchSize`
 * chunks: `refine`, look up the ids the sink already holds for the source with this
 * embedder's identity (`sink.stored(source)`, once per document) — those are kept,
 * not embedded, and not written unless they moved (their start, end, token count or
 * metadata differ from the stored row's: then the row is rewritten with its stored
 * vector, `sink.vectors`) —, embed the others' `embedText ?? text` (`embedBatchSize`
 * texts per call, `concurrency` calls at once, transient failures retried with
 * exponential backoff; a text whose vector is in the run's cache is not embedded again),
 * upsert their rows; at the document's end delete its rows whose ids it no longer has
 * (`sink.removeStale`). With `prune`, the sources the sink holds that the run did not
 * see are deleted at the end (`sink.removeSources`).
 *
 * Memory is bounded by one batch (its chunks and vectors), the document's ids, the cache
 * and what the chunker holds (one section for a streaming chunker), not by the input.
 * Writes go upsert-then-delete, so a run stopped at any point and run again converges.
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
  const sink = o.sink === undefined ? undefined : incrementalSink(o.sink);
  const batchSize = count('batchSize', o.batchSize, Math.min(o.sink?.batchSize ?? 256, 1024));
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
  if (sink) await sink.prepare(d);

  const embedTexts = async (texts: string[]): Promise<Float32Array> => {
    const out = await withBackoff(() => embedder.embed(texts), transient, policy);
    if (!(out instanceof Float32Array) || out.length !== texts.length * d) {
      throw new EmbeddingError(`the embedder returned ${out instanceof Float32Array ? out.length : typeof out} values for ${texts.length} texts of dimension ${d}`);
    }
    summary.embedded += texts.length;
    return out;
  };

  for await (const doc of docs as AsyncIterable<PipelineDocument>) {
    const source = doc?.source ?? doc?.id;
    if (typeof source !== 'string' || source.length === 0) throw new InvalidOptionError('documents', doc, 'documents with a source (or id) string');
    const text = doc.text as PipelineDocument['text'] | undefined;
    const isString = typeof text === 'string';
    if (!isString && (text == null || (typeof (text as AsyncIterable<string>)[Symbol.asyncIterator] !== 'function' && typeof (text as Iterable<string>)[Symbol.iterator] !== 'function'))) {
      throw new InvalidOptionError('documents', doc, `document ${source}: text as a string or pieces of strings`);
    }
    seen.add(source);
    const chunker = chunkerFor(source);
    // the sink's rows of this document, looked up when the first batch needs them
    let stored: Map<string, StoredChunk> | undefined;
    const ids = new Set<string>();
    const counter = { bytes: isString ? utf8Length(text) : 0 };

    const flush = async (batch: Chunk[]) => {
      const chunks = o.refine ? await o.refine(batch, source) : batch;
      if (!Array.isArray(chunks)) throw new InvalidOptionError('refine', chunks, 'a function returning an array of chunks');
      if (sink && stored === undefined) stored = await sink.stored(source);
      const fresh: Chunk[] = [];
      // kept chunks whose row sits elsewhere now (text before them changed): rewritten with the stored vector
      let moved: Chunk[] = [];
      for (const c of chunks) {
        if (ids.has(c.id)) continue;
        ids.add(c.id);
        summary.chunks++;
        const had = stored?.get(c.id);
        if (had?.embedder !== identity) fresh.push(c);
        else if (!samePlace(had, c)) moved.push(c);
        else summary.kept++;
      }
      let movedRows: SinkRow[] = [];
      if (sink && moved.length > 0) {
        const found = await sink.vectors(source, moved.map((c) => c.id));
        // a row gone since stored() (another writer): its chunk is embedded instead
        fresh.push(...moved.filter((c) => !found.has(c.id)));
        moved = moved.filter((c) => found.has(c.id));
        summary.kept += moved.length;
        const vectors = new Float32Array(moved.length * d);
        moved.forEach((c, i) => vectors.set(found.get(c.id)!, i * d));
        movedRows = sinkRows(moved, vectors, d, source).map((r) => ({ ...r, source, embedder: identity }));
      }
      if (fresh.length === 0 && movedRows.length > 0) await sink!.upsert(movedRows);
      if (fresh.length > 0) {
        const vectors = new Float32Array(fresh.length * d);
        // texts to embed: distinct, not in the cache
        const pending = new Map<string, number[]>();
        fresh.forEach((c, i) => {
          const t = c.embedText ?? c.text;
          const key = cacheKey(t);
          const hit = cache.get(key);
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
        if (sink) await sink.upsert([...sinkRows(fresh, vectors, d, source).map((r) => ({ ...r, source, embedder: identity })), ...movedRows]);
        summary.added += fresh.length;
        await o.onBatch?.({ source, chunks: fresh, vectors });
      }
      o.onProgress?.({ kind: 'batch', source, documents: summary.documents, bytes, documentBytes: 0, chunks: summary.chunks, embedded: summary.embedded });
    };

    let batch: Chunk[] = [];
    const take = async (c: Chunk) => {
      batch.push(c);
      if (batch.length >= batchSize) {
        const b = batch;
        batch = [];
        await flush(b);
      }
    };
    try {
      for await (const c of chunkDocument(chunker, source, isString ? text : counted(text, counter))) await take(c);
    } catch (error) {
      if (!(error instanceof DocumentError) || !o.onDocumentError) throw error;
      // an unreadable version of the document: what the sink holds of it stays as it was
      summary.failed++;
      o.onDocumentError(error, source);
      continue;
    }
    if (batch.length > 0) await flush(batch);
    if (sink) summary.removed += await sink.removeStale(source, ids);
    summary.documents++;
    bytes += counter.bytes;
    o.onProgress?.({ kind: 'document', source, documents: summary.documents, bytes, documentBytes: counter.bytes, chunks: summary.chunks, embedded: summary.embedded });
  }

  if (o.prune && sink) {
    const gone = (await sink.sources()).filter((s) => !seen.has(s));
    if (gone.length > 0) {
      const pruned = await sink.removeSources(gone);
      summary.pruned += pruned;
      summary.removed += pruned;
    }
  }
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

/**
 * The chunks of one document, in order: through `chunkStream` when the text comes in
 * pieces and the chunker streams, else `chunk` of the whole text. The one place a
 * document meets its chunker: `source` (the key of the sink's rows) is the document id
 * of the chunk ids, so a chunk keeps its id across runs while its text stays the same.
 */
async function* chunkDocument(chunker: Chunker, source: string, text: string | AsyncIterable<string>): AsyncGenerator<Chunk> {
  const call = { documentId: source };
  if (typeof text !== 'string' && typeof chunker.chunkStream === 'function') {
    yield* chunker.chunkStream(text, call);
    return;
  }
  let whole = '';
  if (typeof text === 'string') whole = text;
  else for await (const piece of text) whole += piece;
  yield* await chunker.chunk(whole, call);
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
