/**
 * The error of the document entries (`chunkwise/pdf`, `chunkwise/docx`), which the
 * pipeline hands to `onDocumentError`; exported by those entries and by the root.
 * @module
 */
import { ChunkwiseError, describe } from '../engine/errors.js';

/** Why a document could not be read: see {@link DocumentError}. */
export type DocumentErrorReason = 'no-text' | 'password' | 'invalid' | 'too-large';

/**
 * A document (PDF, DOCX) that chunkwise cannot turn into text: a PDF with no text layer
 * (scanned pages: it needs OCR first), an encrypted PDF without its password (or with a
 * wrong one), bytes that are not a document of that kind or are malformed, or a document
 * past a loader's limit (pages, text items, inflated bytes). `source` names the document
 * (a file name, or `"<bytes>"`); `reason` is `no-text`, `password`, `invalid` or
 * `too-large`. The message is one line.
 */
export class DocumentError extends ChunkwiseError {
  readonly source: string;
  readonly reason: DocumentErrorReason;
  /** What is wrong, in words (the message after the source). */
  readonly detail: string;
  constructor(source: string, reason: DocumentErrorReason, detail: string) {
    super(`Cannot read ${describe(source)}: ${detail}`);
    this.source = source;
    this.reason = reason;
    this.detail = detail;
  }
}
