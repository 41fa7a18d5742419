/**
 * Documents in the CLI: `.pdf` and `.docx` files are read as bytes and turned into
 * chunks through `chunkwise/pdf` (pdf.js) and `chunkwise/docx` (mammoth) instead of
 * being decoded as UTF-8 text. Node only.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { Chunk } from '../../engine/chunk.js';
import { DocumentError } from '../../documents/document-error.js';
import { MissingDependencyError } from '../../engine/errors.js';
import { documentKind } from '../../engine/document-kinds.js';
import type { ChunkCallOptions } from '../../engine/ids.js';
import type { Chunker } from '../../engine/chunker.js';
import { cliMessage } from '../cli/errors.js';
import { UnreadableFileError } from '../cli/io.js';

export { DOCUMENT_EXTENSIONS, DOCUMENT_STRATEGIES, documentKind } from '../../engine/document-kinds.js';

/**
 * Chunks a `.pdf` or `.docx` file with `chunker`: a PDF through `extractPdf` and
 * `PdfChunker` (chunks with `metadata.pages` and `metadata.boxes`, offsets into the
 * extracted document text), a Word file through mammoth's HTML (offsets into that HTML).
 * `options.documentId` enters the chunk ids; `options.password` opens an encrypted PDF.
 * @throws {UnreadableFileError} when the file cannot be read.
 * @throws {DocumentError} for a PDF with no text layer (it needs OCR), an encrypted PDF,
 *   or bytes that are not such a document.
 * @throws {MissingDependencyError} naming `pdfjs-dist` or `mammoth` when not installed.
 */
export async function chunkDocumentFile(chunker: Chunker, name: string, options?: ChunkCallOptions & { password?: string }): Promise<Chunk[]> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(name));
  } catch (cause) {
    throw new UnreadableFileError(name, cause);
  }
  if (documentKind(name) === '.pdf') {
    const { extractPdf, PdfChunker } = await import('../../documents/pdf.js');
    return new PdfChunker(chunker).chunk(await extractPdf(bytes, { source: name, password: options?.password }), options);
  }
  const { docxToHtml } = await import('../../documents/docx.js');
  const chunks = await chunker.chunk((await docxToHtml(bytes, { source: name })).html, options);
  for (const c of chunks) c.metadata.documentFormat = 'docx-html';
  return chunks;
}

/**
 * Imports pdf.js and mammoth up front when `files` hold a PDF or a Word file, so that a
 * missing package is an error before any output.
 * @throws {MissingDependencyError} naming the package.
 */
export async function loadDocumentPeers(files: readonly string[]): Promise<void> {
  if (files.some((f) => documentKind(f) === '.pdf')) await (await import('../../documents/pdf.js')).loadPdfJs();
  if (files.some((f) => documentKind(f) === '.docx')) await (await import('../../documents/docx.js')).loadMammoth();
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
  const kind = documentKind(file);
  if (!kind) return [];
  try {
    await loadDocumentPeers([file]);
    return [];
  } catch (error) {
    if (error instanceof MissingDependencyError) return [kind === '.pdf' ? 'pdfjs-dist' : 'mammoth'];
    throw error;
  }
}
