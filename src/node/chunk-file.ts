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
import { createChunker, strategies, strategyDefinition, type Chunker, type StrategyOptions } from '../strategies/registry.js';
import { extensionOf } from '../segment/code-languages.js';
import { isStreamingChunker } from '../stream/index.js';
import { UnreadableFileError } from '../cli/io.js';

export { chunkRecord };

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

/** The pseudo-strategy that picks a strategy per file by its extension. */
export const AUTO_STRATEGY = 'auto';

/**
 * The strategy `--strategy auto` chooses for `file`: the first registered strategy whose
 * `extensions` hold the file's extension (`.md` → markdown, `.txt` → recursive, source
 * extensions → code, …), else `fallback` (stdin, other extensions).
 */
export function autoStrategy(file: string, fallback = 'fixed'): string {
  const ext = file === '-' ? '' : extensionOf(file);
  if (!ext) return fallback;
  return strategies().find((s) => s.extensions?.includes(ext))?.name ?? fallback;
}

/**
 * The extensions a directory walk picks when `--ext` is not given: the strategy's own
 * (`code`: source files), for `auto` every registered strategy's, plus `.md` and `.txt`.
 */
export function walkExtensions(strategy: string, defaults: readonly string[]): string[] {
  const own = strategy === AUTO_STRATEGY ? strategies().flatMap((s) => s.extensions ?? []) : (strategyDefinition(strategy)?.extensions ?? []);
  return strategy === AUTO_STRATEGY || own.length === 0 ? [...new Set([...defaults, ...own])] : [...own];
}

/**
 * The chunker of each file: one per strategy, except that `auto` chooses the strategy by
 * the file's extension (and passes it the options it takes), and the code strategy gets
 * the file's name (its language and context header) unless `filename` is given.
 */
export class FileChunkers {
  readonly #cache = new Map<string, Chunker>();
  constructor(
    readonly strategy: string,
    readonly options: StrategyOptions,
  ) {}

  /** The strategy and options for `file`. */
  plan(file: string): { strategy: string; options: StrategyOptions } {
    const strategy = this.strategy === AUTO_STRATEGY ? autoStrategy(file) : this.strategy;
    let options = this.options;
    if (this.strategy === AUTO_STRATEGY) {
      const def = strategyDefinition(strategy);
      const takes = new Set([...Object.keys(def?.schema.options ?? {}), ...Object.keys(def?.aliases ?? {})]);
      options = Object.fromEntries(Object.entries(options).filter(([k]) => takes.has(k))) as StrategyOptions;
    }
    if (strategy === 'code' && options.filename === undefined && file !== '-') options = { ...options, filename: file };
    return { strategy, options };
  }

  /**
   * The chunker for `file`.
   * @throws {InvalidOptionError} for options the chosen strategy rejects (code: a file of
   *   no known language without `language`).
   */
  for(file: string): Chunker {
    const { strategy, options } = this.plan(file);
    if (strategy === 'code' && options.filename !== this.options.filename) return createChunker(strategy, options);
    let chunker = this.#cache.get(strategy);
    if (!chunker) this.#cache.set(strategy, (chunker = createChunker(strategy, options)));
    return chunker;
  }
}
