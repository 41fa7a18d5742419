/**
 * {@link documentFiles}: the documents of folders and files as `pipeline()` takes them
 * (`{ source, bytes, hash }`), read one at a time as the pipeline asks. Node only.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DOCUMENT_FILE_EXTENSIONS } from '../../documents/load.js';
import { expandInputs } from '../cli/inputs.js';
import { UnreadableFileError } from '../cli/errors.js';

/** Options of {@link documentFiles}. */
export interface DocumentFilesOptions {
  /**
   * The extensions a folder is walked for (lower case, with their dot). Default every kind
   * the loader reads: `.pdf`, `.docx`, `.html`/`.htm`/`.xhtml`, `.md`/`.markdown`/`.mdx`, `.txt`.
   */
  extensions?: readonly string[];
}

/** A document file as `pipeline()` takes it. */
export interface DocumentFile {
  /** The file's absolute path (the key of its rows in the sink). */
  source: string;
  /** Its bytes, loaded by the pipeline by their kind (the extension, else sniffed). */
  bytes: Uint8Array;
  /** `sha256:` and the hex SHA-256 of its bytes: an unchanged file is skipped on a rerun. */
  hash: string;
}

/**
 * The documents of `paths` (folders, files, globs), for `pipeline({ documents })`: a
 * folder is walked recursively for files with `extensions` (hidden files and folders and
 * `node_modules` skipped, a file reached through several links taken once), files are
 * taken as named; each path's files sorted by code unit, a file named twice taken once —
 * the CLI's rules for its inputs. Each file is read when the pipeline asks for it (one
 * file's bytes held at a time) and keyed by its absolute path, so `documentFiles('docs')`
 * and `documentFiles('./docs/')` write the same rows.
 *
 * @example
 * ```ts
 * import { pipeline, HashingEmbedder, MemorySink } from 'chunkwise';
 * import { documentFiles } from 'chunkwise/node';
 *
 * const sink = new MemorySink();
 * await pipeline({ documents: documentFiles('handbook/'), chunker: 'auto', embedder: new HashingEmbedder(), sink });
 * // a PDF's rows carry metadata.pages and metadata.boxes
 * ```
 * @throws {UnreadableFileError} (when iterated) for a path that does not exist, a folder
 *   without such files, or a file that cannot be read.
 */
export async function* documentFiles(paths: string | readonly string[], options: DocumentFilesOptions = {}): AsyncGenerator<DocumentFile> {
  const extensions = (options.extensions ?? DOCUMENT_FILE_EXTENSIONS).map((e) => e.toLowerCase());
  const files = await expandInputs(typeof paths === 'string' ? [paths] : [...paths], extensions);
  const seen = new Set<string>();
  for (const file of files) {
    const source = resolve(file);
    if (seen.has(source)) continue;
    seen.add(source);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(file));
    } catch (cause) {
      throw new UnreadableFileError(file, cause);
    }
    yield { source, bytes, hash: bytesHash(bytes) };
  }
}

/** `sha256:` and the hex SHA-256 of `bytes`: a file's content hash, as `chunkwise embed` records it. */
export function bytesHash(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
