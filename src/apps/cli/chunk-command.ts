/**
 * `chunkwise chunk`: reads sources, chunks each with the chosen strategy, writes JSONL
 * (one chunk per line, with its `source`) or one JSON array.
 * @module
 */
import { InvalidOptionError, MissingDependencyError } from '../../engine/errors.js';
import { chunkFilesWithWorkers } from '../node/batch.js';
import { AUTO_STRATEGY, chunkFileRecords, FileChunkers, walkExtensions } from '../node/chunk-file.js';
import { fileDocumentKind, forEachFile, loadDocumentPeers, missingDocumentPackages } from '../node/documents.js';
import { LazyCodeChunker } from '../../strategies/code/schema.js';
import type { StrategyOptions } from '../../strategies/index.js';
import { createProgress, noticeEmptyFiles, Output, progressWanted, sourceSizes } from './io.js';
import { semanticOptionsFromCli } from './semantic-options.js';
import { UsageError } from './usage-error.js';
import { autoStrategyOptions, strategyOptionsFromFlags } from './strategy-flags.js';
import { DEFAULT_EXTENSIONS, expandInputs, type BinaryInputs } from './inputs.js';
import { RecordWriter } from './record-writer.js';

/** Options of `chunkwise chunk`, as commander parses them (strategy options under their schema names). */
export interface ChunkCommandOptions {
  strategy: string;
  format: 'jsonl' | 'json';
  out?: string;
  /** `--quiet`: nothing on stderr but errors. */
  quiet?: boolean;
  /** False with `--no-progress`. */
  progress?: boolean;
  /** Worker threads for many files (default 1: no workers). */
  workers?: number;
  /** Extensions a directory walk picks (default .md, .txt). */
  ext?: string[];
  /** `--skip-unsupported`: leave out the files whose strategy needs a package that is not installed. */
  skipUnsupported?: boolean;
  /** `--input-encoding`: the encoding of text files without a UTF-16 byte order mark (default: UTF-8, which must be valid). */
  inputEncoding?: string;
  /** `--pdf-password`: the password of encrypted PDF inputs. */
  pdfPassword?: string;
  [key: string]: unknown;
}

/**
 * Maps CLI options to strategy options: the generated flags (`strategy-flags.ts`) the
 * chosen strategy takes.
 * @throws {UsageError} for a flag the strategy does not take.
 */
export function strategyOptionsFromCli(o: ChunkCommandOptions): StrategyOptions {
  return strategyOptionsFromFlags(o.strategy, o);
}

export { chunkRecord } from '../node/chunk-file.js';

/**
 * Checks, then loads, what the chunkers of `files` need on first use (the code
 * strategy's web-tree-sitter and grammars) before anything is written: every optional
 * package missing is named in one error (a chunker with `missingPackages()` says which
 * it lacks), and a grammar that cannot be loaded fails up front, not after the other
 * files' chunks. With `skipUnsupported`, the files whose chunker lacks a package are
 * left out instead, said in one line through `notice`.
 * @returns the files to chunk (`files`, less those skipped).
 * @throws {MissingDependencyError} naming every missing package and the files that need them.
 * @throws {GrammarLoadError} as the chunker does.
 */
export async function loadPeersFirst(
  chunkers: FileChunkers,
  files: readonly string[],
  skipUnsupported = false,
  notice?: (line: string) => void,
): Promise<string[]> {
  const missingOf = new Map<string, Promise<string[]>>(); // by strategy: the same packages for each of its files
  const lacking = new Map<string, string[]>(); // strategy → files
  const packages = new Set<string>();
  const keep: string[] = [];
  for (const f of files) {
    // a document (by its bytes, else its name) goes to its loader, whose package (pdf.js, mammoth) counts as its strategy's
    const kind = fileDocumentKind(f);
    const c = chunkers.for(f, kind);
    const strategy = kind ? `${chunkers.plan(f, kind).strategy} (${kind.slice(1).toUpperCase()} loader)` : chunkers.plan(f, kind).strategy;
    let missing = missingOf.get(strategy);
    if (!missing) missingOf.set(strategy, (missing = kind ? missingDocumentPackages(f) : hasMissingPackages(c) ? c.missingPackages() : Promise.resolve([])));
    const names = await missing;
    if (names.length === 0) {
      keep.push(f);
      continue;
    }
    for (const n of names) packages.add(n);
    lacking.set(strategy, [...(lacking.get(strategy) ?? []), f]);
  }
  if (packages.size > 0) {
    const skipped = [...lacking.values()].reduce((n, l) => n + l.length, 0);
    const who = [...lacking].map(([strategy, fs]) => `the ${strategy} strategy, for ${fileList(fs)}`).join('; ');
    if (!skipUnsupported) {
      const rest = files.length - skipped;
      throw new MissingDependencyError([...packages], `${files.length === 1 ? 'Chunking' : `${skipped} of ${files.length} files`} (${who})`, undefined, {
        hint: rest > 0 ? `or pass --skip-unsupported to chunk the other ${rest} file${rest === 1 ? '' : 's'}` : undefined,
      });
    }
    notice?.(`chunkwise: skipped ${skipped} file${skipped === 1 ? '' : 's'} (${who}): not installed: ${[...packages].join(', ')} (npm install ${[...packages].join(' ')})\n`);
  }
  const seen = new Set<unknown>();
  for (const f of keep) {
    const c = chunkers.for(f, fileDocumentKind(f));
    if (seen.has(c)) continue;
    seen.add(c);
    if (c instanceof LazyCodeChunker) await c.chunk('');
  }
  return keep;
}

/** True for a chunker that can say which optional packages it lacks. */
function hasMissingPackages(c: unknown): c is { missingPackages(): Promise<string[]> } {
  return typeof (c as { missingPackages?: unknown }).missingPackages === 'function';
}

/** `a.py`, `a.py and b.ts`, `a.py, b.ts, c.go and 4 more`. */
function fileList(files: readonly string[]): string {
  const shown = files.slice(0, 3);
  const more = files.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : shown[0];
}

/**
 * How `chunk` and `embed` treat binary inputs: a binary file named by itself is an error,
 * one a walk or glob finds is skipped and said on stderr (not with `--quiet`); a PDF or
 * Word file (by its bytes, else `.pdf`/`.docx`) is no binary text but a document for its loader.
 */
export function binaryInputs(o: { quiet?: boolean; inputEncoding?: string }): BinaryInputs {
  return {
    skip: (file, reason) => {
      if (!o.quiet) process.stderr.write(`chunkwise: skipping ${file}: a binary file, not text (${reason})\n`);
    },
    // with --input-encoding a file is what its encoding says, not sniffed as UTF-8
    isText: (file) => fileDocumentKind(file) === undefined && o.inputEncoding === undefined,
  };
}

/**
 * Runs `chunkwise chunk`. Inputs are files, directories (walked for `--ext`, default
 * .md/.txt, for `code` source files, for `auto` every strategy's extensions) and globs
 * (see inputs.ts); a binary file (a NUL byte, or mostly invalid UTF-8) named by itself is
 * an error (exit 1), one a walk or glob finds is skipped with a line on stderr. On a
 * terminal the progress bar counts bytes as they are read (stdin: MB read and MB/s). `--strategy auto` (the default) chooses per file by extension (`.md` markdown,
 * `.html`/`.htm` html, source files code, `.txt` recursive, else fixed: `FileChunkers`)
 * and gives each the flags it takes; `code` takes each file's name for its language.
 * Every file is streamed through the chunker when the strategy streams (sliding, fixed: output identical to chunking the whole text).
 * With `--workers N` > 1, files are spread over N worker threads; the output is
 * byte-identical to the single-process run.
 * Throws UnreadableFileError / ChunkwiseError for the CLI to map to exit codes.
 */
export async function runChunk(inputs: string[], o: ChunkCommandOptions): Promise<void> {
  checkInputEncoding(o.inputEncoding);
  const semantic = await semanticOptionsFromCli(o);
  if (o.strategy === AUTO_STRATEGY && Object.keys(semantic).length > 0) throw new UsageError('--strategy auto picks no strategy that takes an --embedder');
  // auto: each file's strategy by its extension, with the flags it takes
  const strategyOptions = o.strategy === AUTO_STRATEGY ? autoStrategyOptions(o) : { ...strategyOptionsFromCli(o), ...semantic };
  const chunkers = new FileChunkers(o.strategy, strategyOptions).check(); // validates options before any work
  const workers = o.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) throw new InvalidOptionError('workers', workers, 'must be an integer ≥ 1');
  if (workers > 1 && semantic.embedder !== undefined) {
    throw new UsageError('--workers > 1 cannot share a loaded --embedder between threads; use --workers 1');
  }
  // binary files: an error when named, skipped (and said on stderr) when a walk or glob finds
  // them; a .pdf or .docx goes to its loader instead
  const notice = o.quiet ? undefined : (line: string) => process.stderr.write(line);
  const files = await loadPeersFirst(chunkers, await expandInputs(inputs, o.ext ?? walkExtensions(o.strategy, DEFAULT_EXTENSIONS), binaryInputs(o)), o.skipUnsupported === true, notice);
  const sizes = await sourceSizes(files);
  noticeEmptyFiles(files, sizes, notice);
  await loadDocumentPeers(files);
  // progress by bytes read: a large file or stdin (no total: bytes and rate) moves as it is read
  const progress = createProgress(
    sizes.reduce((a, b) => a + b, 0),
    files.length,
    progressWanted(o),
    { unknownTotal: files.includes('-') },
  );
  try {
    await Output.writeWith(o.out, async (output) => {
      const writer = new RecordWriter(output, o.format);
      await writer.begin();
      if (workers > 1 && files.length > 1 && !files.includes('-')) {
        await chunkFilesWithWorkers(files, {
          strategy: o.strategy,
          options: strategyOptions,
          workers,
          quiet: o.quiet === true,
          encoding: o.inputEncoding,
          pdfPassword: o.pdfPassword,
          write: (records) => writer.write(records),
          progress,
          sizes,
        });
      } else {
        await forEachFile(files, async (file, f) => {
          await chunkFileRecords(chunkers.for(file, fileDocumentKind(file)), file, (records) => writer.write(records), undefined, (bytes) => progress.read?.(bytes, file), notice, { encoding: o.inputEncoding, pdfPassword: o.pdfPassword });
          progress.advance(sizes[f], file);
        });
      }
      await writer.end();
    });
  } finally {
    progress.stop();
  }
}

/**
 * Checks `--input-encoding` before any work.
 * @throws {UsageError} for a label TextDecoder does not know, naming it.
 */
export function checkInputEncoding(label: string | undefined): void {
  if (label === undefined) return;
  try {
    new TextDecoder(label);
  } catch {
    throw new UsageError(`--input-encoding ${label} is not an encoding this runtime decodes (e.g. utf-8, utf-16le, latin1, windows-1252, shift_jis)`);
  }
}
