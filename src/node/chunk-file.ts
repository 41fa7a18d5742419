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
import { createChunker, strategies, strategyDefinition, strategyForFile, type Chunker, type StrategyOptions } from '../strategies/registry.js';
import { isStreamingChunker } from '../stream/index.js';
import { UnreadableFileError } from '../cli/io.js';
import { chunkDocumentFile, documentKind, DOCUMENT_EXTENSIONS, DOCUMENT_STRATEGIES } from './documents.js';

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
  if (documentKind(name)) {
    for (const chunk of await chunkDocumentFile(chunker, name)) await add(chunk);
  } else if (isStreamingChunker(chunker)) {
    for await (const chunk of chunker.chunkStream(filePieces(name))) await add(chunk);
  } else {
    let text = '';
    for await (const piece of filePieces(name)) text += piece;
    for (const chunk of await chunker.chunk(text)) await add(chunk);
  }
  if (batch.length > 0) await sink(batch);
  return count;
}

/** The pseudo-strategy that picks a strategy per file by its extension (`--strategy auto`). */
export const AUTO_STRATEGY = 'auto';

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

/**
 * Options of {@link FileChunkers}: the strategy's options, or for `auto` the options of
 * each strategy it may pick, by strategy name (as `autoStrategyOptions` in the CLI makes
 * them: each gets the given flags its schema takes).
 */
export type FileChunkerOptions = StrategyOptions | Readonly<Record<string, StrategyOptions>>;

/**
 * The chunker of each file: one per strategy, except that `auto` chooses the strategy by
 * the file's extension ({@link strategyForFile}: `.md` → markdown, `.html`/`.htm` → html,
 * source extensions → code, `.txt` → recursive, `.pdf` → recursive over the extracted
 * text, `.docx` → html over mammoth's HTML, other files and stdin → `fallback`) with
 * that strategy's entry of the options, and the code strategy gets the file's name (its
 * language and context header) unless `filename` is given.
 */
export class FileChunkers {
  readonly #cache = new Map<string, Chunker>();
  readonly #byName: Readonly<Record<string, StrategyOptions>>;
  constructor(
    readonly strategy: string,
    options: FileChunkerOptions,
    readonly fallback = 'fixed',
  ) {
    this.#byName = strategy === AUTO_STRATEGY ? (options as Readonly<Record<string, StrategyOptions>>) : { [strategy]: options as StrategyOptions };
  }

  /**
   * Builds every strategy's chunker once, so bad options fail before any work (`code`,
   * which takes its language from each file, with a stand-in language when none is given).
   * @throws {InvalidOptionError} for options a strategy rejects.
   */
  check(): this {
    for (const [name, o] of Object.entries(this.#byName)) {
      createChunker(name, name === 'code' && o.language === undefined && o.filename === undefined ? { ...o, language: 'typescript' } : o);
    }
    return this;
  }

  /** The strategy and options for `file` (`-`: stdin). */
  plan(file: string): { strategy: string; options: StrategyOptions } {
    const document = documentKind(file);
    const strategy = this.strategy === AUTO_STRATEGY ? (file === '-' ? this.fallback : document ? DOCUMENT_STRATEGIES[document] : strategyForFile(file, this.fallback)) : this.strategy;
    let options = this.#byName[strategy] ?? {};
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
    if (strategy === 'code' && options.filename !== this.#byName.code?.filename) return createChunker(strategy, options);
    let chunker = this.#cache.get(strategy);
    if (!chunker) this.#cache.set(strategy, (chunker = createChunker(strategy, options)));
    return chunker;
  }
}
