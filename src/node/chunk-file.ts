/**
 * Chunks one file (or stdin) into CLI records, streaming the file through the chunker's
 * `chunkStream` when it has one (sliding, fixed, sentence, Markdown), so a file of any
 * size is chunked in about one window (sliding, fixed) or one section (sentence,
 * Markdown: see docs/streaming.md) of memory. Node only.
 * @module
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { chunkRecord, type Chunk } from '../core/chunk.js';
import { strategies, strategyDefinition, type Chunker } from '../strategies/registry.js';
import { AUTO_STRATEGY } from '../strategies/file-chunkers.js';
import { isStreamingChunker } from '../stream/index.js';
import { UnreadableFileError } from '../cli/io.js';

export { chunkRecord };
export { AUTO_STRATEGY, FileChunkers, type FileChunkerOptions } from '../strategies/file-chunkers.js';

/**
 * The text of a file (or stdin for `-`) as UTF-8 decoded pieces. Decoding is WHATWG
 * `TextDecoder` in streaming mode with the BOM kept, so the pieces join to exactly what
 * `readFile(path, 'utf8')` returns, invalid bytes (U+FFFD) included, wherever the
 * byte blocks split a character.
 * @throws {UnreadableFileError} when the file cannot be opened or read, or is a directory.
 */
export async function* filePieces(name: string, blockBytes = 1 << 20): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
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
      const text = decoder.decode(block, { stream: true });
      if (text.length > 0) yield text;
    }
  } catch (cause) {
    throw new UnreadableFileError(name, cause);
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

/**
 * Chunks the file `name` with `chunker` and hands its records (JSON strings, one per
 * chunk, in order) to `sink` in batches of about `batchChars` characters, awaiting each
 * (back-pressure); the first chunk's record is handed over alone, as soon as it is decided.
 * `source` is the name written in each record.
 * @returns the number of chunks.
 * @throws {UnreadableFileError} when the file cannot be read; chunker errors as thrown.
 */
export async function chunkFileRecords(
  chunker: Chunker,
  name: string,
  sink: (records: string[]) => void | Promise<void>,
  batchChars = 1 << 20,
): Promise<number> {
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
  if (isStreamingChunker(chunker)) {
    for await (const chunk of chunker.chunkStream(filePieces(name))) await add(chunk);
  } else {
    let text = '';
    for await (const piece of filePieces(name)) text += piece;
    for (const chunk of await chunker.chunk(text)) await add(chunk);
  }
  if (batch.length > 0) await sink(batch);
  return count;
}

/**
 * The extensions a directory walk picks when `--ext` is not given: `defaults` (.md and
 * .txt) plus the strategy's own for a text strategy (recursive: .txt; markdown: .md,
 * .markdown, .mdx), only its own for a strategy of another kind of file (`code`: source
 * files; `html`: .html, .htm, .xhtml), and for `auto` every registered strategy's plus
 * `defaults`.
 */
export function walkExtensions(strategy: string, defaults: readonly string[]): string[] {
  const own = strategy === AUTO_STRATEGY ? strategies().flatMap((s) => s.extensions ?? []) : (strategyDefinition(strategy)?.extensions ?? []);
  const textStrategy = strategy === AUTO_STRATEGY || own.length === 0 || own.some((e) => defaults.includes(e));
  return textStrategy ? [...new Set([...defaults, ...own])] : [...own];
}
