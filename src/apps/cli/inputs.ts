/**
 * Expands the CLI's inputs (files, directories, globs, `-`) into the ordered list of
 * files to chunk. Node only.
 *
 * - A directory is walked recursively for files with the chosen extensions (default
 *   `.md` and `.txt`); hidden files and folders (`.git`, `.cache` …) and `node_modules`
 *   are skipped; a file reached by several paths through symbolic links (a link to `.`
 *   made every file appear twice) is taken once, at the path with the fewest links (then
 *   the first in order).
 * - An argument with glob characters (`*`, `?`, `[`, `{`) that is not an existing path
 *   is matched with tinyglobby (the glob library vite and vitest already use: small, no
 *   native code; Node 20's `fs` has no glob, it came in Node 22). Extensions do not
 *   filter what a glob names. A relative pattern gives paths relative to the working
 *   directory, an absolute one absolute paths.
 * - Each argument's files are sorted by code unit (the same order in every locale and
 *   platform); arguments keep their order; a file named twice is chunked once.
 * - With `binary` options, files the text path reads are sniffed ({@link binaryReason}):
 *   a binary file named by itself is an error, one found by a walk or a glob is skipped
 *   and reported.
 * @module
 */
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { glob } from 'tinyglobby';
import { UnreadableFileError } from './io.js';

/** Extensions a directory walk picks by default. */
export const DEFAULT_EXTENSIONS = ['.md', '.txt'];

/** Parses `--ext md,txt` (or `.md,.txt`) into `['.md', '.txt']`. */
export function parseExtensions(value: string): string[] {
  const exts = value
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0)
    .map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase());
  return [...new Set(exts)];
}

const GLOB_CHARS = /[*?[\]{}]/;

/** Bytes read from the start of a file to tell text from binary. */
export const SNIFF_BYTES = 64 * 1024;

/**
 * Share of the sniffed bytes that may be invalid UTF-8 in a text file (a Latin-1 file has
 * its accented letters, 2–20 % of French or German; a binary format most of its bytes).
 */
export const MAX_INVALID_UTF8 = 0.3;

/**
 * Why the bytes `head` (the start of a file; `whole` when it is all of it) are not text,
 * or undefined when they are: a NUL byte (no text format has one; every common binary
 * format — images, archives, executables, fonts, UTF-16 text without its byte order
 * mark — has them early; UTF-16 with the mark is text), or more
 * than {@link MAX_INVALID_UTF8} of the bytes in invalid UTF-8 sequences. A sequence cut
 * by the end of a partial head is not counted.
 */
export function binaryReason(head: Uint8Array, whole = true): string | undefined {
  // UTF-16 with its byte order mark is text (its ASCII has NUL bytes)
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return undefined;
  const nul = head.indexOf(0);
  if (nul >= 0) return `a NUL byte at offset ${nul}`;
  if (head.length === 0) return undefined;
  const decoded = new TextDecoder('utf-8', { ignoreBOM: true }).decode(head, { stream: !whole });
  let replaced = 0;
  for (let i = decoded.indexOf('\ufffd'); i >= 0; i = decoded.indexOf('\ufffd', i + 1)) replaced++;
  // U+FFFD written in the file (EF BF BD) is text, not an invalid byte
  for (let i = head.indexOf(0xef); i >= 0 && i + 2 < head.length; i = head.indexOf(0xef, i + 1)) if (head[i + 1] === 0xbf && head[i + 2] === 0xbd) replaced--;
  const share = replaced / head.length;
  return share > MAX_INVALID_UTF8 ? `${Math.round(share * 100)}% of its first ${head.length} bytes are not UTF-8` : undefined;
}

/**
 * {@link binaryReason} of the first {@link SNIFF_BYTES} bytes of `path`, or undefined
 * when they are text or the file cannot be read (the reader reports that).
 */
export async function sniffBinary(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = new Uint8Array(SNIFF_BYTES);
    let n = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, n, SNIFF_BYTES - n, null);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n === SNIFF_BYTES) break;
    }
    return binaryReason(buf.subarray(0, n), n < SNIFF_BYTES);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** How {@link expandInputs} treats binary files. */
export interface BinaryInputs {
  /** A binary file found by a directory walk or a glob is left out and reported here (`reason`: {@link binaryReason}). */
  skip(file: string, reason: string): void;
  /**
   * Whether the text path reads `file` (default: every file). A file another reader
   * takes (a document loader for `.pdf` or `.docx`) is not sniffed.
   */
  isText?(file: string): boolean;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `found` (paths relative to the folder `dir`) joined to `dir`, each file once: of the
 * paths that lead to the same file (its real path), the one through the fewest symbolic
 * links, then the first by code unit.
 */
async function oncePerFile(dir: string, found: string[]): Promise<string[]> {
  const byReal = new Map<string, string[]>();
  for (const f of [...found].sort(byCodeUnit)) {
    const path = join(dir, f);
    const r = await realpath(path).catch(() => path);
    const list = byReal.get(r);
    if (list) list.push(f);
    else byReal.set(r, [f]);
  }
  const links = async (f: string): Promise<number> => {
    let n = 0;
    const parts = f.split('/'); // tinyglobby's separator on every platform
    for (let k = 1; k <= parts.length; k++) if ((await lstat(join(dir, ...parts.slice(0, k)))).isSymbolicLink()) n++;
    return n;
  };
  const out: string[] = [];
  for (const list of byReal.values()) {
    let best = list[0];
    if (list.length > 1) {
      let fewest = Infinity;
      for (const f of list) {
        const n = await links(f);
        if (n < fewest) [best, fewest] = [f, n];
      }
    }
    out.push(join(dir, best));
  }
  return out;
}

/**
 * The files named by `args`, in chunking order. With `binary`, binary files are left out
 * (see {@link BinaryInputs}).
 * @throws {UnreadableFileError} for an argument that is neither an existing path nor a
 *   glob matching a file (code ENOENT), a directory without matching (text) files, or,
 *   with `binary`, a file named by itself that is binary ("a binary file, not text (a NUL
 *   byte at offset 9)").
 */
export async function expandInputs(args: string[], extensions: string[] = DEFAULT_EXTENSIONS, binary?: BinaryInputs): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (files: string[]) => {
    for (const f of files.sort(byCodeUnit)) {
      if (!seen.has(f)) {
        seen.add(f);
        out.push(f);
      }
    }
  };
  /** `files` without the binary ones, each reported (or, for a file named by itself, an error). */
  const text = async (files: string[], named: boolean): Promise<string[]> => {
    if (!binary) return files;
    const kept: string[] = [];
    for (const f of files) {
      const reason = binary.isText?.(f) === false ? undefined : await sniffBinary(f);
      if (reason === undefined) kept.push(f);
      else if (named) throw new UnreadableFileError(f, `a binary file, not text (${reason})`);
      else binary.skip(f, reason);
    }
    return kept;
  };
  for (const arg of args) {
    if (arg === '-') {
      add(['-']);
      continue;
    }
    let isDir = false;
    let exists = false;
    try {
      const s = await stat(arg);
      exists = true;
      isDir = s.isDirectory();
    } catch {
      exists = false;
    }
    if (isDir) {
      const found = await glob(['**/*'], { cwd: arg, onlyFiles: true, dot: false, expandDirectories: false, ignore: ['**/node_modules/**'] });
      const files = await oncePerFile(arg, found.filter((x) => extensions.some((e) => x.toLowerCase().endsWith(e))));
      if (files.length === 0) {
        throw new UnreadableFileError(arg, `no ${extensionList(extensions)} files in directory`);
      }
      const kept = await text(files, false);
      if (kept.length === 0) throw new UnreadableFileError(arg, `no ${extensionList(extensions)} text files in directory (${files.length} binary skipped)`);
      add(kept);
    } else if (exists || !GLOB_CHARS.test(arg)) {
      add(exists ? await text([arg], true) : [arg]); // a file, or a missing path the reader reports
    } else {
      // an absolute pattern names absolute paths (tinyglobby would give them relative to the working directory)
      const files = await glob([arg], { onlyFiles: true, dot: false, expandDirectories: false, absolute: isAbsolute(arg) });
      if (files.length === 0) throw new UnreadableFileError(arg, 'no file matches the glob');
      add(await text(files, false));
    }
  }
  return out;
}

/** Extensions for a message: `.md/.txt`, or the first six and how many in all (`auto` walks some 30: `--ext` chooses). */
function extensionList(extensions: readonly string[]): string {
  return extensions.length <= 6 ? extensions.join('/') : `${extensions.slice(0, 6).join('/')}/… (${extensions.length} extensions; --ext chooses)`;
}
