/**
 * `chunkwise embed`: chunk files with a strategy, embed every chunk, and write the chunks
 * with their vectors: JSONL (the chunk's fields, `source`, and `vector` as base64 of
 * little-endian Float32, or an array with `--vector-format array`), a NumPy `.npy` n × d
 * float32 matrix (rows in chunk order; use `--out`), or a vector store (`--sink`), synced
 * per file: chunks the store already has from the same embedder are kept, not embedded
 * again. The run is the library's `pipeline()`, fed each file as a stream of pieces.
 * Embeds `chunk.embedText ?? chunk.text`, stated here on purpose.
 * @module
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './usage-error.js';
import { UnreadableFileError } from './errors.js';
import { openCliSink } from './sink-cli.js';
import { AUTO_STRATEGY, fallbackNotice, FileChunkers, filePieces, walkExtensions } from '../node/chunk-file.js';
import { fileDocumentKind, loadDocumentPeers, readDocumentFile, throwDocumentErrors } from '../node/documents.js';
import { bytesHash } from '../node/document-files.js';
import { binaryInputs } from './chunk-command.js';
import { DocumentError } from '../../documents/document-error.js';
import { autoStrategyOptions } from './strategy-flags.js';
import { loadEmbedder } from '../node/embedders.js';
import { f32ToBase64, npyBytes } from '../node/embed-command.js';
import { checkInputEncoding, chunkRecord, loadPeersFirst, strategyOptionsFromCli, type ChunkCommandOptions } from './chunk-command.js';
import { createProgress, noticeEmptyFiles, Output, progressWanted, sourceSizes } from './io.js';
import { DEFAULT_EXTENSIONS, expandInputs } from './inputs.js';
import { requireInteger } from '../../engine/options/options.js';
import { pipeline, type PipelineSummary } from '../../pipeline/pipeline.js';
import type { Sink } from '../../sinks/types.js';
import { replaceNul } from '../../sinks/nul.js';
import type { Embedder } from '../../embedders/types.js';

/** Options of `chunkwise embed`. */
export interface EmbedCommandOptions extends ChunkCommandOptions {
  embedder: string;
  batchSize: number;
  /** `lancedb:<dir>` or `pglite:<dir>`: write to a vector store instead of JSONL / .npy (see sink-cli.ts). */
  sink?: string;
  table?: string;
  /** JSONL vectors as base64 of little-endian float32 (default) or plain arrays. */
  vectorFormat?: 'base64' | 'array';
  /** With `--sink`: delete the rows of files the run did not see (the inputs are the whole corpus). */
  prune?: boolean;
  /** The summary on stderr at the end: one line (default with `--sink`), JSON, or none (default without `--sink`). */
  summary?: 'text' | 'json' | 'none';
}

/**
 * An embedder and a sink that the caller opened and keeps (a queue worker runs many jobs
 * on one of each): `runEmbed` uses them instead of opening its own, and does not close them.
 */
export interface EmbedResources {
  embedder?: Embedder;
  sink?: Sink;
}

/**
 * Runs `chunkwise embed`. Inputs are expanded like `chunk`'s (files, directories walked
 * for `--ext`, globs, `-`); the output (or the store, whose table must take the
 * embedder's dimension) is opened before any embedding, so a missing directory fails at
 * once, and every write is checked (exit 1, never 0 without the output). Files are read
 * as streams and embedded and written in batches: memory stays flat in the input's size
 * (except for `--format npy`, whose matrix is written at the end).
 * @throws {InvalidOptionError} for a batch size that is not an integer ≥ 1.
 * @throws {UsageError} for `--prune` without `--sink`, or npy without `--out`.
 */
export async function runEmbed(inputs: string[], o: EmbedCommandOptions, opened: EmbedResources = {}): Promise<PipelineSummary> {
  checkInputEncoding(o.inputEncoding);
  requireInteger('batchSize', o.batchSize, 1);
  if (o.format === ('npy' as string) && (!o.out || o.out === '-')) {
    throw new UsageError('--format npy writes binary data: give --out FILE.npy');
  }
  if (o.prune && o.sink === undefined) throw new UsageError('--prune deletes rows of a --sink: give --sink lancedb:<dir>, pglite:<dir> or postgres://user@host:port/db[?table=name]');
  const sink = opened.sink ?? (await openCliSink(o));
  try {
    // auto: each file's strategy by its extension, as `chunk --strategy auto`
    const chunkers = new FileChunkers(o.strategy, o.strategy === AUTO_STRATEGY ? autoStrategyOptions(o) : strategyOptionsFromCli(o)).check();
    const files = await loadPeersFirst(chunkers, await expandInputs(inputs, o.ext ?? walkExtensions(o.strategy, DEFAULT_EXTENSIONS), binaryInputs(o)), o.skipUnsupported === true, o.quiet ? undefined : (line) => process.stderr.write(line));
    await loadDocumentPeers(files);
    const output = sink ? undefined : await Output.open(o.out);
    const embedder = opened.embedder ?? (await loadEmbedder(o.embedder));
    const d = embedder.dimension;
    // a table of another dimension fails here, before any embedding
    if (sink) await sink.prepare(d);
    // one spelling per file (its absolute path) as the document's key: `embed docs`,
    // `embed ./docs` and `cd docs && embed .` write the same rows; records name the file as given
    const canonical = (name: string) => (name === '-' ? name : resolve(name));
    const given = new Map(files.map((f) => [canonical(f), f]));
    const sizes = await sourceSizes(files);
    noticeEmptyFiles(files, sizes, o.quiet ? undefined : (line) => process.stderr.write(line));
    const sizeOf = new Map(files.map((f, i) => [canonical(f), sizes[i]]));
    const progress = createProgress(sizes.reduce((a, b) => a + b, 0), files.length, progressWanted(o));
    const npy: Float32Array[] = [];
    const documentErrors: DocumentError[] = [];
    let buffer = '';
    /** U+0000 replaced in the JSONL records (a sink counts its own): the same U+FFFD as every sink. */
    let nulReplaced = 0;
    let summary: PipelineSummary;
    try {
      summary = await pipeline({
        documents: (async function* () {
          // a PDF or Word file (by its bytes, else its name) goes to the pipeline's load
          // stage as bytes, not decoded as text; with a sink, a text file's bytes are hashed
          // first: an unchanged file is not read again
          for (const file of files) {
            if (fileDocumentKind(file)) {
              const bytes = await readDocumentFile(file);
              yield { source: canonical(file), bytes, hash: sink ? bytesHash(bytes) : undefined };
            } else yield { source: canonical(file), text: filePieces(file, undefined, undefined, o.inputEncoding), hash: sink && file !== '-' ? await fileHash(file) : undefined };
          }
        })(),
        load: { password: o.pdfPassword },
        // what a file's chunks depend on besides its bytes: its strategy and options (and loader)
        chunking: (source) => {
          const file = given.get(source)!;
          const kind = fileDocumentKind(file);
          return JSON.stringify({ ...chunkers.plan(file, kind), document: kind ?? null });
        },
        chunker: (source) => chunkers.for(given.get(source)!, fileDocumentKind(given.get(source)!)),
        // a scanned or encrypted PDF: its one-line error after the run (naming the file as
        // given), its rows kept, the other files go on
        onDocumentError: (error, source) => documentErrors.push(new DocumentError(given.get(source) ?? source, error.reason, error.detail)),
        embedder,
        sink,
        prune: o.prune,
        embedBatchSize: o.batchSize,
        onProgress: (p) => {
          if (p.kind !== 'document') return;
          progress.advance(sizeOf.get(p.source) ?? p.documentBytes, given.get(p.source));
          const file = given.get(p.source)!;
          const notice = o.quiet ? undefined : fallbackNotice(chunkers.for(file, fileDocumentKind(file)), file);
          if (notice !== undefined) process.stderr.write(notice);
        },
        onBatch: output
          ? async ({ source, chunks, vectors }) => {
              if (o.format === ('npy' as string)) {
                npy.push(vectors);
                return;
              }
              const name = given.get(source)!;
              for (let i = 0; i < chunks.length; i++) {
                const { item: chunk, replaced } = replaceNul(chunks[i]);
                nulReplaced += replaced;
                const record = { ...chunkRecord(chunk, name), embedder: o.embedder, dimension: d, vector: vectorField(vectors.subarray(i * d, (i + 1) * d), o.vectorFormat) };
                buffer += JSON.stringify(record) + '\n';
              }
              if (buffer.length > 1 << 20) {
                await output.write(buffer);
                buffer = '';
              }
            }
          : undefined,
      });
    } finally {
      progress.stop();
    }
    if (output) {
      try {
        if (o.format === ('npy' as string)) {
          const n = npy.reduce((a, v) => a + v.length / d, 0);
          const all = new Float32Array(n * d);
          let at = 0;
          for (const v of npy) {
            all.set(v, at);
            at += v.length;
          }
          await output.write(npyBytes(all, n, d));
        } else if (buffer) await output.write(buffer);
      } finally {
        await output.close();
      }
    }
    await writeSummary(summary, o, sink, sink?.nulReplaced ?? nulReplaced);
    throwDocumentErrors(documentErrors);
    return summary;
  } finally {
    if (!opened.sink) await sink?.close();
  }
}

/**
 * The run's summary on stderr: `text` (default with a sink, unless `--quiet`) is one line
 * — `chunkwise: <sink>: 2 file(s), 40 chunks: 3 added, 37 kept, 3 removed; 3 texts
 * embedded; 40 in the table; 0.4 s` —, `json` the same fields as one JSON object
 * (`documents, chunks, added, kept, removed, pruned, embedded, failed, seconds`, and with a sink
 * `sink` and `rows`, and `nulReplaced` when some U+0000 was written as U+FFFD). A line
 * before it (or alone, for JSONL) counts those replacements, with a sink or without.
 */
async function writeSummary(summary: PipelineSummary, o: EmbedCommandOptions, sink: Sink | undefined, nul = 0): Promise<void> {
  const format = o.summary ?? (sink && !o.quiet ? 'text' : 'none');
  if (nul > 0 && !o.quiet && format !== 'json') process.stderr.write(`chunkwise: ${nul} NUL code point(s) (U+0000) in chunk text or metadata written as U+FFFD\n`);
  if (format === 'none') return;
  const rows = sink ? await sink.count() : undefined;
  if (format === 'json') {
    process.stderr.write(JSON.stringify({ ...summary, ...(sink ? { sink: sink.name, rows } : {}), ...(nul > 0 ? { nulReplaced: nul } : {}) }) + '\n');
    return;
  }
  const s = summary;
  const pruned = s.pruned > 0 ? ` (${s.pruned} of files gone)` : '';
  const failed = s.failed > 0 ? `, ${s.failed} unreadable (rows kept)` : '';
  process.stderr.write(
    `chunkwise: ${sink ? sink.name + ': ' : ''}${s.documents} file(s)${failed}, ${s.chunks} chunks: ${s.added} added, ${s.kept} kept, ${s.removed} removed${pruned}; ${s.embedded} texts embedded${sink ? `; ${rows} in the table` : ''}; ${s.seconds.toFixed(1)} s\n`,
  );
}

/**
 * SHA-256 of a file's bytes (hex), read as a stream.
 * @throws {UnreadableFileError} when it cannot be read.
 */
async function fileHash(name: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const block of createReadStream(name)) hash.update(block as Buffer);
  } catch (cause) {
    throw new UnreadableFileError(name, cause);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** A JSONL vector: base64 of little-endian float32 (default), or an array of numbers. */
function vectorField(v: Float32Array, format: EmbedCommandOptions['vectorFormat']): string | number[] {
  return format === 'array' ? Array.from(v) : f32ToBase64(v);
}
