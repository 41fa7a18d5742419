/**
 * Node-only input and output for the CLI: reading sources, writing JSONL/JSON, progress.
 * @module
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import { UnreadableFileError, UnwritableFileError } from './errors.js';
import { documentKind } from '../../engine/document-kinds.js';

export { UnreadableFileError, UnwritableFileError } from './errors.js';

/** A source to chunk: its name (`-` for stdin) and text. */
export interface Source {
  name: string;
  text: string;
}

/** Reads all of stdin as UTF-8. */
export async function readStdin(): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of process.stdin) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Reads a file as UTF-8, or stdin for `-`. @throws {UnreadableFileError} */
export async function readSource(name: string): Promise<Source> {
  if (name === '-') return { name, text: await readStdin() };
  try {
    return { name, text: await readFile(name, 'utf8') };
  } catch (cause) {
    throw new UnreadableFileError(name, cause);
  }
}

/**
 * A notice on stderr for each named text file of 0 bytes (it gives no chunks: said, not
 * silent), through `write` (undefined with `--quiet`). An empty PDF or Word file gets no
 * notice: it is no document, and its loader reports it (`cannot read "FILE": …`, exit 1).
 */
export function noticeEmptyFiles(names: readonly string[], sizes: readonly number[], write: ((line: string) => void) | undefined): void {
  names.forEach((name, i) => {
    if (name !== '-' && sizes[i] === 0 && documentKind(name) === undefined) write?.(`chunkwise: ${name}: empty file, no chunks\n`);
  });
}

/** Sizes of the files in bytes (stdin counts 0). @throws {UnreadableFileError} */

export async function sourceSizes(names: string[]): Promise<number[]> {
  return Promise.all(
    names.map(async (name) => {
      if (name === '-') return 0;
      try {
        const s = await stat(name);
        if (s.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
        return s.size;
      } catch (cause) {
        throw new UnreadableFileError(name, cause);
      }
    }),
  );
}

/**
 * An output: a file (`--out`) or stdout, honouring back-pressure. Every failure (a
 * missing directory, a directory given as the file, a full device, a closed pipe) is an
 * {@link UnwritableFileError} from `open`, `write` or `close`, never an unhandled
 * 'error' event; `close` resolves only once everything is written.
 */
export class Output {
  readonly #stream: WriteStream | NodeJS.WriteStream;
  readonly #owned: boolean;
  readonly #name: string;
  #error: Error | undefined;
  #opened: Promise<void>;

  /** Prefer {@link Output.open}, which fails before any work when the file cannot be created. */
  constructor(path?: string) {
    this.#owned = path !== undefined && path !== '-';
    this.#name = this.#owned ? path! : '-';
    this.#stream = this.#owned ? createWriteStream(path!) : process.stdout;
    const failed = new Promise<never>((_, reject) => {
      this.#stream.on('error', (error: Error) => {
        this.#error ??= error;
        reject(this.#failure());
      });
    });
    failed.catch(() => {}); // observed through #opened, write and close
    this.#opened = this.#owned ? Promise.race([new Promise<void>((resolve) => (this.#stream as WriteStream).once('ready', () => resolve())), failed]) : Promise.resolve();
    this.#opened.catch(() => {});
  }

  /**
   * Opens `path` for writing now (stdout for undefined or `-`).
   * @throws {UnwritableFileError} when the file cannot be created.
   */
  static async open(path?: string): Promise<Output> {
    const output = new Output(path);
    await output.#opened;
    return output;
  }

  #failure(): UnwritableFileError {
    return new UnwritableFileError(this.#name, this.#error);
  }

  /**
   * Writes text or bytes; resolves once the stream has taken them (waits when its buffer is full).
   * @throws {UnwritableFileError} when the output failed.
   */
  async write(data: string | Uint8Array): Promise<void> {
    await this.#opened;
    if (this.#error) throw this.#failure();
    await new Promise<void>((resolve, reject) => {
      this.#stream.write(data, (error?: Error | null) => {
        if (error) {
          this.#error ??= error;
          reject(this.#failure());
        } else resolve();
      });
    });
  }

  /**
   * Opens `path` (stdout for undefined or `-`), runs `write` with the output and closes
   * it. When `write` throws, the output is closed without masking that error.
   * @throws {UnwritableFileError} when the output cannot be opened or written.
   */
  static async writeWith<T>(path: string | undefined, write: (output: Output) => Promise<T>): Promise<T> {
    const output = await Output.open(path);
    let result: T;
    try {
      result = await write(output);
    } catch (error) {
      await output.close().catch(() => {});
      throw error;
    }
    await output.close();
    return result;
  }

  /**
   * Flushes and closes a file output (stdout is flushed and stays open).
   * @throws {UnwritableFileError} when something could not be written.
   */
  async close(): Promise<void> {
    await this.#opened;
    if (this.#error) throw this.#failure();
    if (!this.#owned) return this.write('');
    const stream = this.#stream as WriteStream;
    await new Promise<void>((resolve, reject) => {
      stream.once('error', () => reject(this.#failure()));
      stream.end(() => (this.#error ? reject(this.#failure()) : resolve()));
    });
  }
}

/**
 * A progress bar on stderr, shown only when stderr is a terminal and the work is long.
 * Progress counts bytes: {@link Progress.read} as a file is read (so one large file or
 * stdin moves the bar while it is chunked), {@link Progress.advance} when a file is done.
 */
export interface Progress {
  /**
   * A file is done: `bytes` is its size (the part {@link read} already counted is not
   * counted again), `label` its name.
   */
  advance(bytes: number, label?: string): void;
  /** `bytes` more bytes of the current file (`label`) were read. */
  read?(bytes: number, label?: string): void;
  stop(): void;
}

/** Options of {@link createProgress} beyond its size and file count. */
export interface ProgressOptions {
  /** Where the bar is drawn (default `process.stderr`): a terminal stream (`isTTY`, `columns`). */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** The total is not known (stdin): show the bytes read and the rate, no percentage. */
  unknownTotal?: boolean;
  /** The verb the bar starts with (default `chunking`). */
  verb?: string;
}

/**
 * Whether a command may draw a progress bar: stderr is a terminal, `CI` is unset, and
 * neither `--quiet` nor `--no-progress` was given.
 */
export function progressWanted(o: { quiet?: boolean; progress?: boolean } = {}): boolean {
  return !o.quiet && o.progress !== false && process.stderr.isTTY === true && !process.env.CI;
}

/**
 * Creates a progress bar over `totalBytes` of `files` files: percentage, files done, MB
 * and MB/s; with `unknownTotal` (stdin) MB read and MB/s only. A no-op when `enabled` is
 * false (see {@link progressWanted}) or the work is short (one file of at most 4 MiB
 * with a known size).
 */
export function createProgress(totalBytes: number, files: number, enabled = progressWanted(), options: ProgressOptions = {}): Progress {
  const unknown = options.unknownTotal === true;
  const long = unknown || files > 1 || totalBytes > 4 * 1024 * 1024;
  if (!enabled || !long) return { advance() {}, read() {}, stop() {} };
  const verb = options.verb ?? 'chunking';
  const bar = new cliProgress.SingleBar(
    {
      stream: (options.stream ?? process.stderr) as NodeJS.WriteStream,
      format: unknown ? `${verb} {mb} MB read | {rate} MB/s | {files} files | {label}` : `${verb} [{bar}] {percentage}% | {files} files | {mb} MB | {rate} MB/s | {label}`,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = Date.now();
  let done = 0; // bytes of the files done
  let current = 0; // bytes read of the file being read
  let count = 0;
  let label = '';
  const total = Math.max(totalBytes, 1);
  const draw = () => {
    const bytes = done + current;
    const secs = Math.max((Date.now() - started) / 1000, 1e-3);
    // with an unknown total the value never reaches it (no bar or percentage is drawn)
    bar.update(unknown ? 0 : Math.min(bytes, total), { files: `${count}/${files}`, mb: (bytes / 1e6).toFixed(1), rate: (bytes / 1e6 / secs).toFixed(1), label });
  };
  bar.start(unknown ? 1 : total, 0, { files: `0/${files}`, mb: '0.0', rate: '0.0', label: '' });
  return {
    read(bytes: number, name = label) {
      current += bytes;
      label = name;
      draw();
    },
    advance(bytes: number, name = '') {
      done += Math.max(bytes, current);
      current = 0;
      count++;
      label = name;
      draw();
    },
    stop() {
      bar.stop();
    },
  };
}
