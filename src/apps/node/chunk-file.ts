/**
 * Chunks one file (or stdin) into CLI records, streaming the file through the chunker's
 * `chunkStream` when it has one (sliding, fixed, sentence, Markdown), so a file of any
 * size is chunked in about one window (sliding, fixed) or one section (sentence,
 * Markdown: see docs/streaming.md) of memory. Node only.
 * @module
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { chunkRecord, type Chunk } from '../../engine/chunk.js';
import { strategies, strategyDefinition } from '../../strategies/index.js';
import type { Chunker } from '../../engine/chunker.js';
import { AUTO_STRATEGY } from '../../strategies/file-chunkers.js';
import { isStreamingChunker } from '../../engine/stream/index.js';
import { UnreadableFileError } from '../cli/io.js';
import { binaryReason, SNIFF_BYTES } from '../cli/inputs.js';
import { LazyCodeChunker } from '../../strategies/code/schema.js';
import { chunkDocumentBytes, fileDocumentKind } from './documents.js';
import { textDecoderFor } from '../../documents/load.js';
import { DOCUMENT_EXTENSIONS } from '../../engine/document-kinds.js';

export { chunkRecord };

/** How files are read: `encoding` for text files ({@link filePieces}), `pdfPassword` for encrypted PDFs. */
export interface ReadOptions {
  encoding?: string;
  pdfPassword?: string;
}
export { AUTO_STRATEGY, FileChunkers, type FileChunkerOptions } from '../../strategies/file-chunkers.js';

/**
 * The text of a file (or stdin for `-`) as decoded pieces. The encoding is, in order: a
 * UTF-16 byte order mark (`FF FE` little-endian, `FE FF` big-endian), `encoding` (any
 * WHATWG label: `latin1`, `windows-1252`, `utf-16le`, `shift_jis` …), else UTF-8, which
 * must be valid: a byte that is not UTF-8 is an error naming the file and `--input-encoding`,
 * never a silent U+FFFD. Decoding is WHATWG `TextDecoder` in streaming mode with the BOM
 * kept (U+FEFF at offset 0), so the pieces join to the same text wherever the byte blocks
 * split a character. `onBytes` is told the size of each block read (progress).
 * @throws {UnreadableFileError} when the file cannot be opened or read, is a directory, or
 *   is not valid UTF-8 without `encoding`.
 * @throws {RangeError} for an `encoding` TextDecoder does not know.
 */
export async function* filePieces(name: string, blockBytes = 1 << 20, onBytes?: (bytes: number) => void, encoding?: string): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let input: AsyncIterable<Buffer>;
  if (name === '-') input = process.stdin;
  else {
    try {
      if ((await stat(name)).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    } catch (cause) {
      throw new UnreadableFileError(name, cause);
    }
    input = createReadStream(name, { highWaterMark: blockBytes });
  }
  try {
    for await (const block of input) {
      if (!decoder) {
        decoder = textDecoderFor(block, encoding);
        // stdin is sniffed as a named file is: its first block must look like text
        const reason = name === '-' && encoding === undefined && decoder.encoding === 'utf-8' ? binaryReason(block.subarray(0, SNIFF_BYTES), block.length < SNIFF_BYTES) : undefined;
        if (reason !== undefined) throw new BinaryInputError(reason);
      }
      onBytes?.(block.length);
      const text = decoder.decode(block, { stream: true });
      if (text.length > 0) yield text;
    }
    const rest = decoder?.decode() ?? '';
    if (rest.length > 0) yield rest;
  } catch (cause) {
    if (cause instanceof TypeError && decoder?.fatal) throw new UnreadableFileError(name, 'not valid UTF-8; give its encoding with --input-encoding (e.g. --input-encoding latin1)');
    throw new UnreadableFileError(name, cause instanceof BinaryInputError ? cause.message : cause);
  }
}


/** Standard input that is not text (its first block has a NUL byte, or is mostly invalid UTF-8). */
class BinaryInputError extends Error {
  constructor(reason: string) {
    super(`a binary file, not text (${reason})`);
  }
}

/**
 * Chunks the file `name` with `chunker` and hands its records (JSON strings, one per
 * chunk, in order) to `sink` in batches of about `batchChars` characters, awaiting each
 * (back-pressure); the first chunk's record is handed over alone, as soon as it is decided.
 * `name` is the `source` written in each record; the chunk ids are the chunker's with no
 * document id (content ids, as the library's `chunk(text)` and the web page give them);
 * `onBytes` is told the bytes read as the file is read (progress); `notice` gets the one line to show on stderr when the file was chunked
 * otherwise than asked ({@link fallbackNotice}); `read.encoding` decodes text files as {@link filePieces} says, `read.pdfPassword` opens encrypted PDFs.
 * @returns the number of chunks.
 * @throws {UnreadableFileError} when the file cannot be read; chunker errors as thrown.
 */
export async function chunkFileRecords(
  chunker: Chunker,
  name: string,
  sink: (records: string[]) => void | Promise<void>,
  batchChars = 1 << 20,
  onBytes?: (bytes: number) => void,
  notice?: (line: string) => void,
  read: ReadOptions = {},
): Promise<number> {
  const { encoding } = read;
  let batch: string[] = [];
  let size = 0;
  let count = 0;
  const add = async (chunk: Chunk) => {
    const line = JSON.stringify(chunkRecord(chunk, name));
    batch.push(line);
    size += line.length;
    count++;
    // the first chunk goes out at once (a reader sees output start); then batches
    if (size >= batchChars || count === 1) {
      const b = batch;
      batch = [];
      size = 0;
      await sink(b);
    }
  };
  if (fileDocumentKind(name)) {
    for (const chunk of await chunkDocumentBytes(chunker, name, read.pdfPassword)) await add(chunk);
  } else if (isStreamingChunker(chunker)) {
    for await (const chunk of chunker.chunkStream(filePieces(name, undefined, onBytes, encoding))) await add(chunk);
  } else {
    let text = '';
    for await (const piece of filePieces(name, undefined, onBytes, encoding)) text += piece;
    for (const chunk of await chunker.chunk(text)) await add(chunk);
  }
  if (batch.length > 0) await sink(batch);
  const line = fallbackNotice(chunker, name);
  if (line !== undefined) notice?.(line);
  return count;
}

/**
 * The stderr line (with its newline) for a file the code strategy chunked by the
 * recursive splitter because its parse was given up (see `CodeChunker.chunk`), after
 * `chunker` chunked it; undefined otherwise.
 */
export function fallbackNotice(chunker: Chunker, name: string): string | undefined {
  const reason = chunker instanceof LazyCodeChunker ? chunker.lastFallback : undefined;
  return reason === undefined ? undefined : `chunkwise: ${name}: ${reason}; chunked by the recursive splitter instead (metadata.fallback)\n`;
}

/**
 * The extensions a directory walk picks when `--ext` is not given: `defaults` (.md and
 * .txt) plus the strategy's own for a text strategy (recursive: .txt; markdown: .md,
 * .markdown, .mdx), only its own for a strategy of another kind of file (`code`: source
 * files; `html`: .html, .htm, .xhtml), and for `auto` every registered strategy's plus
 * `defaults` and the documents (.pdf, .docx).
 */
export function walkExtensions(strategy: string, defaults: readonly string[]): string[] {
  const own = strategy === AUTO_STRATEGY ? [...strategies().flatMap((s) => s.extensions ?? []), ...DOCUMENT_EXTENSIONS] : (strategyDefinition(strategy)?.extensions ?? []);
  const textStrategy = strategy === AUTO_STRATEGY || own.length === 0 || own.some((e) => defaults.includes(e));
  return textStrategy ? [...new Set([...defaults, ...own])] : [...own];
}
