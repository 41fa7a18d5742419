/**
 * The shapes of {@link pipeline}'s input, options, progress events and result.
 * Core module: no Node built-in.
 * @module
 */
import type { Chunk } from '../engine/chunk.js';
import type { DocumentError } from '../documents/document-error.js';
import type { RetryEvent } from '../engine/retry.js';
import type { Embedder } from '../embedders/types.js';
import type { FileChunkerOptions } from '../strategies/file-chunkers.js';
import type { Chunker } from '../engine/chunker.js';
import type { Sink } from '../sinks/types.js';
import type { LoadOptions } from '../documents/load.js';
import type { pipeline } from './pipeline.js';

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
   * `loadDocument` (src/documents/load.ts, with {@link PipelineOptions.load}) before
   * chunking; a PDF's chunks carry `metadata.pages` and `metadata.boxes` to the sink, a
   * Word file is chunked as its HTML. In Node, `documentFiles(folder)` of `chunkwise/node`
   * yields a folder's documents so.
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
   * code, `.txt` recursive, else `fixed`: the CLI's `--strategy auto`) — for `bytes` that
   * are a PDF or a Word file (their magic bytes), `recursive` or `html` whatever the name —
   * with `chunkerOptions` (for `'auto'`: by strategy name).
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
  /**
   * How documents given as `bytes` are loaded: `password` (an encrypted PDF), `encoding`
   * (text without a UTF-16 byte order mark; default UTF-8, which must be valid) and
   * `pdfjs`, the pdf.js module to read PDFs with — in a browser, `import * as pdfjs from
   * 'pdfjs-dist'` with `pdfjs.GlobalWorkerOptions.workerSrc` set (Node imports pdf.js's
   * legacy build itself). Not part of the chunking identity: change `chunking` with it.
   */
  load?: LoadOptions;
}
