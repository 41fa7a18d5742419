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
 * @module
 */
import { lstat, realpath, stat } from 'node:fs/promises';
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
 * The files named by `args`, in chunking order.
 * @throws {UnreadableFileError} for an argument that is neither an existing path nor a
 *   glob matching a file (code ENOENT), or a directory without matching files.
 */
export async function expandInputs(args: string[], extensions: string[] = DEFAULT_EXTENSIONS): Promise<string[]> {
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
        throw new UnreadableFileError(arg, `no ${extensions.join('/')} files in directory`);
      }
      add(files);
    } else if (exists || !GLOB_CHARS.test(arg)) {
      add([arg]); // a file, or a missing path the reader reports
    } else {
      // an absolute pattern names absolute paths (tinyglobby would give them relative to the working directory)
      const files = await glob([arg], { onlyFiles: true, dot: false, expandDirectories: false, absolute: isAbsolute(arg) });
      if (files.length === 0) throw new UnreadableFileError(arg, 'no file matches the glob');
      add(files);
    }
  }
  return out;
}
