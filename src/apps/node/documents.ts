/**
 * Documents in the CLI: PDF and Word files (by their magic bytes, else `.pdf` and `.docx`)
 * are read as bytes and loaded by the documents layer's `loadDocument` (pdf.js, mammoth)
 * instead of being decoded as text; `chunk` chunks them here, `embed` (and the queue
 * worker, which runs it) hands their bytes to the pipeline's load stage. Node only.
 * @module
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Chunk } from '../../engine/chunk.js';
import { DocumentError } from '../../documents/document-error.js';
import { documentExtensionOf, documentKindOf } from '../../documents/kind.js';
import { loadDocument } from '../../documents/load.js';
import { MissingDependencyError } from '../../engine/errors.js';
import { documentKind } from '../../engine/document-kinds.js';
import type { Chunker } from '../../engine/chunker.js';
import { chunkLoaded } from '../../pipeline/chunk.js';
import { cliMessage } from '../cli/errors.js';
import { UnreadableFileError } from '../cli/io.js';

export { DOCUMENT_EXTENSIONS, DOCUMENT_STRATEGIES, documentKind } from '../../engine/document-kinds.js';

/** Bytes read from the start of a file to tell a PDF or a Word file by its magic bytes. */
const HEAD_BYTES = 4096;
const sniffed = new Map<string, '.pdf' | '.docx' | undefined>();

/**
 * The document kind of a file (`.pdf`, `.docx`) or undefined for a text file or stdin:
 * PDF and Word files by their magic bytes whatever their name (the first 4 KB, read once
 * per path and process), else by the extension; a file that cannot be read goes by its
 * extension (its reader reports it).
 */
export function fileDocumentKind(name: string): '.pdf' | '.docx' | undefined {
  if (name === '-') return undefined;
  if (sniffed.has(name)) return sniffed.get(name);
  let head = new Uint8Array(0);
  try {
    const fd = openSync(name, 'r');
    try {
      const buffer = new Uint8Array(HEAD_BYTES);
      head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    // a directory, a missing file: by its name
  }
  const kind = documentExtensionOf(documentKindOf('', head)) ?? documentKind(name);
  sniffed.set(name, kind);
  return kind;
}

/**
 * A document file's bytes.
 * @throws {UnreadableFileError} when the file cannot be read.
 */
export async function readDocumentFile(name: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(name));
  } catch (cause) {
    throw new UnreadableFileError(name, cause);
  }
}

/**
 * Chunks a PDF or Word file (by {@link fileDocumentKind}) with `chunker`: read, loaded
 * by `loadDocument` (`password` opens an encrypted PDF), and chunked as the pipeline
 * chunks a loaded document (`chunkLoaded`: a PDF's chunks with `metadata.pages` and
 * `metadata.boxes`, a Word file's HTML with `metadata.documentFormat: "docx-html"`).
 * @throws {UnreadableFileError} when the file cannot be read.
 * @throws {DocumentError} for a PDF with no text layer (it needs OCR), an encrypted PDF,
 *   or bytes that are not such a document.
 * @throws {MissingDependencyError} naming `pdfjs-dist` or `mammoth` when not installed.
 */
export async function chunkDocumentBytes(chunker: Chunker, name: string, password?: string): Promise<Chunk[]> {
  return chunkLoaded(chunker, await loadDocument({ source: name, bytes: await readDocumentFile(name) }, { password }));
}

/**
 * Imports pdf.js and mammoth up front when `files` hold a PDF or a Word file, so that a
 * missing package is an error before any output.
 * @throws {MissingDependencyError} naming the package.
 */
export async function loadDocumentPeers(files: readonly string[]): Promise<void> {
  if (files.some((f) => fileDocumentKind(f) === '.pdf')) await (await import('../../documents/pdf.js')).loadPdfJs();
  if (files.some((f) => fileDocumentKind(f) === '.docx')) await (await import('../../documents/docx.js')).loadMammoth();
}

/**
 * Runs `each(file)` for every file; a {@link DocumentError} (a scanned or encrypted PDF)
 * skips its file while the others go on. Afterwards, the skipped files' errors but the
 * last are written to stderr (one line each, `chunkwise: <message>`) and the last is
 * thrown, so the run exits 1 with one line per unreadable document.
 * @throws {DocumentError} the last document error, after every file was tried.
 */
export async function forEachFile(files: readonly string[], each: (file: string, index: number) => Promise<void>): Promise<void> {
  const failed: DocumentError[] = [];
  for (let i = 0; i < files.length; i++) {
    try {
      await each(files[i], i);
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      failed.push(error);
    }
  }
  throwDocumentErrors(failed);
}

/**
 * The end of a run that skipped unreadable documents: their errors but the last written to
 * stderr (one line each, `chunkwise: <message>`), the last thrown — nothing when there are none.
 * @throws {DocumentError} the last of `errors`.
 */
export function throwDocumentErrors(errors: readonly DocumentError[]): void {
  if (errors.length === 0) return;
  for (const e of errors.slice(0, -1)) process.stderr.write(`chunkwise: ${cliMessage(e.message)}\n`);
  throw errors[errors.length - 1];
}

/**
 * The optional package the loader of `file` needs and cannot import (`pdfjs-dist` for a
 * `.pdf`, `mammoth` for a `.docx`), as a list: empty for a text file or when it is there.
 * @throws what importing it throws other than a MissingDependencyError.
 */
export async function missingDocumentPackages(file: string): Promise<string[]> {
  const kind = fileDocumentKind(file);
  if (!kind) return [];
  try {
    await loadDocumentPeers([file]);
    return [];
  } catch (error) {
    if (error instanceof MissingDependencyError) return [kind === '.pdf' ? 'pdfjs-dist' : 'mammoth'];
    throw error;
  }
}
