/**
 * Node-only input and output for the CLI: reading sources, writing JSONL/JSON, progress.
 * @module
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import cliProgress from 'cli-progress';

/** Raised for a file the CLI cannot read; the CLI exits 1 with its message. */
export class UnreadableFileError extends Error {
  constructor(readonly path: string, cause: unknown) {
    const reason = cause instanceof Error && 'code' in cause ? String((cause as NodeJS.ErrnoException).code) : String(cause);
    super(`cannot read ${path}: ${reason}`);
    this.name = 'UnreadableFileError';
  }
}

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

/** A line-oriented output: a file (`--out`) or stdout, honouring back-pressure. */
export class Output {
  readonly #stream: WriteStream | NodeJS.WriteStream;
  readonly #owned: boolean;
  constructor(path?: string) {
    this.#owned = path !== undefined && path !== '-';
    this.#stream = this.#owned ? createWriteStream(path!, { encoding: 'utf8' }) : process.stdout;
  }
  /** Writes text, waiting when the stream's buffer is full. */
  async write(text: string): Promise<void> {
    if (!this.#stream.write(text)) {
      await new Promise<void>((resolve) => this.#stream.once('drain', () => resolve()));
    }
  }
  /** Flushes and closes a file output (stdout stays open). */
  async close(): Promise<void> {
    if (!this.#owned) return;
    await new Promise<void>((resolve, reject) => {
      this.#stream.once('error', reject);
      (this.#stream as WriteStream).end(() => resolve());
    });
  }
}

/** A progress bar on stderr, shown only when stderr is a terminal and the work is long. */
export interface Progress {
  advance(bytes: number, label?: string): void;
  stop(): void;
}

/** Creates a progress bar over `totalBytes` of `files` files (a no-op when not a TTY or the work is short). */
export function createProgress(totalBytes: number, files: number): Progress {
  const long = files > 1 || totalBytes > 4 * 1024 * 1024;
  if (!process.stderr.isTTY || !long || process.env.CI) return { advance() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: 'chunking [{bar}] {percentage}% | {files} files | {mb} MB | {rate} MB/s | {label}',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = Date.now();
  let done = 0;
  let count = 0;
  bar.start(Math.max(totalBytes, 1), 0, { files: `0/${files}`, mb: '0.0', rate: '0.0', label: '' });
  return {
    advance(bytes: number, label = '') {
      done += bytes;
      count++;
      const secs = Math.max((Date.now() - started) / 1000, 1e-3);
      bar.update(done, {
        files: `${count}/${files}`,
        mb: (done / 1e6).toFixed(1),
        rate: (done / 1e6 / secs).toFixed(1),
        label,
      });
    },
    stop() {
      bar.stop();
    },
  };
}
