/**
 * How the CLI reports errors: file-system failures in words (keeping the path), one line
 * per error in one style (`chunkwise: …`), and the exit code (2 usage, 1 I/O). Node only.
 * @module
 */

/** Words for the file-system error codes a user meets (Node's `error.code`). */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many levels of symbolic links',
  EEXIST: 'already exists',
  EBUSY: 'resource busy',
  EIO: 'input/output error',
  EFBIG: 'file too large',
  EPIPE: 'the reader closed the pipe',
  ENXIO: 'no such device',
  ETXTBSY: 'text file busy',
  EINVAL: 'invalid argument',
  ERR_STRING_TOO_LONG: 'too large to read as one string',
  ERR_FS_FILE_TOO_LARGE: 'too large to read into memory',
};

/**
 * What went wrong with a file, in words: `ENOENT` → "no such file or directory",
 * `EISDIR` → "is a directory", … A string is taken as the reason itself; an unknown code
 * gives Node's message without its `CODE:` prefix and trailing `, open '…'`.
 */
export function fsReason(cause: unknown, writing = false): string {
  if (typeof cause === 'string') return cause;
  const code = cause instanceof Error && 'code' in cause ? String((cause as NodeJS.ErrnoException).code) : undefined;
  // opening a file for writing fails with ENOENT when its directory is missing
  if (code === 'ENOENT' && writing) return 'no such directory';
  if (code !== undefined && FS_REASONS[code]) return FS_REASONS[code];
  const message = cause instanceof Error ? cause.message : String(cause);
  return message.replace(/^[A-Z_]+: /, '').replace(/, \w+ '.*'$/, '') || (code ?? 'unknown error');
}

/** The error code of a file-system error, if it has one. */
export function fsCode(cause: unknown): string | undefined {
  return cause instanceof Error && 'code' in cause ? String((cause as NodeJS.ErrnoException).code) : undefined;
}

/** Raised for a file the CLI cannot read; the CLI exits 1 with its message. */
export class UnreadableFileError extends Error {
  /** Node's error code (ENOENT, EISDIR, …) when there is one. */
  readonly code: string | undefined;
  /**
   * @param path the file, directory or glob, as the user wrote it
   * @param cause Node's error, or the reason in words
   */
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot read ${path}: ${fsReason(cause)}`);
    this.name = 'UnreadableFileError';
    this.code = fsCode(cause);
  }
}

/** Raised for an output the CLI cannot write (`--out`, stdout); the CLI exits 1 with its message. */
export class UnwritableFileError extends Error {
  /** Node's error code (ENOENT, EISDIR, ENOSPC, EPIPE …) when there is one. */
  readonly code: string | undefined;
  /**
   * @param path the output file, or `-` for stdout
   * @param cause Node's error, or the reason in words
   */
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot write ${path === '-' ? 'to stdout' : path}: ${fsReason(cause, path !== '-')}`);
    this.name = 'UnwritableFileError';
    this.code = fsCode(cause);
  }
}

/** An option of a command, as commander describes it. */
interface OptionLike {
  long?: string;
  attributeName(): string;
}

/**
 * The one style of option errors on the command line: `invalid option --flag: value
 * (requirement)`. Library messages (`Invalid option chunkSize: 0 (must be …)`) get the
 * flag that sets the option when the command has one, and option names the requirement
 * compares with or asks to set become flags too (`≤ windowSize (10)` → `≤ --window-size
 * (10)`, `set allowGaps` → `set --allow-gaps`).
 * Commander's own messages (`error: option '--chunk-size <n>' argument 'abc' is invalid.
 * expected an integer`) are rewritten to the same shape; its other messages (unknown
 * option, missing argument) keep their words, without the `error:` prefix, on one line.
 */
export function cliMessage(message: string, options: readonly OptionLike[] = []): string {
  const flags = new Map<string, string>();
  for (const o of options) if (o.long) flags.set(o.attributeName(), o.long);
  const flag = (name: string) => flags.get(name) ?? name;
  let m = message.trim().replace(/^error: /, '');
  const commander = /^option '(?:-\w, )?(--[\w-]+)[^']*' argument '([\s\S]*)' is invalid\. ([\s\S]*)$/.exec(m);
  if (commander) {
    const reason = commander[3].replace(/^Allowed choices are (.*?)\.?$/, 'one of $1').replace(/, got [\s\S]*$/, '');
    m = `invalid option ${commander[1]}: ${JSON.stringify(commander[2])} (${reason.replace(/\.$/, '')})`;
  }
  const library = /^Invalid option ([\w.]+): ([\s\S]*)$/.exec(m);
  if (library) {
    // other options named in the requirement: "≤ windowSize (10)", "set allowGaps to …", "give language" (not a signature such as "(text, chunkSize) =>")
    const rest = library[2].replace(/\b([a-z]+[A-Z]\w*)(?= \(\d)/g, (name) => flag(name)).replace(/(?<=\bset )([a-z]+[A-Z]\w*)\b/g, (name) => flag(name)).replace(/(?<=\bgive )([a-z]\w*)\b/g, (name) => flag(name));
    // no value given: say what is missing, not "undefined"
    const missing = /^undefined \(([\s\S]*)\)$/.exec(rest);
    m = missing ? `missing option ${flag(library[1])}: ${missing[1]}` : `invalid option ${flag(library[1])}: ${rest}`;
  }
  // one line, starting in lower case like commander's messages ("Could not load" → "could not load")
  return m.replace(/\s*\n\s*/g, ' ').replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
}
