/**
 * `chunkwise/docx`: Word files (.docx) in, through `mammoth` (an optional peer
 * dependency, loaded only by this entry) into HTML, then the HTML strategy: heading
 * paths from the document's headings, lists whole, tables split between rows with each
 * row labelled by its header cells. Chunk offsets point into the HTML mammoth produced
 * (returned beside the chunks); each chunk's `metadata.documentFormat` says so.
 * @module
 */
import { DocumentError } from './document-error.js';
import { firstLine, InvalidInputError, InvalidOptionError, MissingDependencyError } from '../engine/errors.js';
import { checkZipInflation, MAX_INFLATED_BYTES } from './zip-limits.js';

export { DocumentError };
import { HtmlChunker, type HtmlChunk, type HtmlOptions } from '../strategies/html/html.js';

/** Options of {@link docxToHtml}. */
export interface DocxOptions {
  /** Name of the document for error messages (a file name). Default `"<bytes>"`. */
  source?: string;
  /** mammoth style-map lines (`"p[style-name='Title'] => h1:fresh"`), added to its defaults. */
  styleMap?: string[];
  /**
   * Most bytes the file's zip may inflate to, checked before mammoth inflates it whole (a zip
   * bomb is a `DocumentError`, reason `too-large`, in milliseconds). Default 256 MiB.
   */
  maxInflatedBytes?: number;
}

interface Mammoth {
  convertToHtml(input: { buffer?: unknown; arrayBuffer?: ArrayBuffer }, options?: { styleMap?: string[] }): Promise<{ value: string; messages: { type: string; message: string }[] }>;
}

let mammothModule: Promise<Mammoth> | undefined;
/**
 * mammoth, imported on first use.
 * @throws {MissingDependencyError} naming `mammoth` when it cannot be imported.
 */
export function loadMammoth(): Promise<unknown> {
  mammothModule ??= import('mammoth').then(
    (m) => ((m as { default?: Mammoth }).default ?? m) as Mammoth,
    (cause) => {
      mammothModule = undefined;
      throw new MissingDependencyError('mammoth', 'chunkwise/docx', cause);
    },
  );
  return mammothModule;
}

/**
 * Converts a .docx file's bytes to HTML with mammoth (headings as `h1`–`h6`, lists as
 * `ul`/`ol`, tables with their header rows as `thead`/`th`).
 * @returns the HTML and mammoth's messages (unrecognised styles and the like)
 * @throws {InvalidInputError} when `bytes` is not a Uint8Array.
 * @throws {DocumentError} reason `invalid` when the bytes are not a Word document (or its
 *   zip lies about its sizes); `too-large` when it inflates past `maxInflatedBytes`.
 * @throws {InvalidOptionError} for a `maxInflatedBytes` that is not a positive integer.
 * @throws {MissingDependencyError} when `mammoth` is not installed.
 */
export async function docxToHtml(bytes: Uint8Array, options: DocxOptions = {}): Promise<{ html: string; messages: string[] }> {
  if (!(bytes instanceof Uint8Array)) throw new InvalidInputError('a .docx file as a Uint8Array', bytes);
  const max = options.maxInflatedBytes ?? MAX_INFLATED_BYTES;
  if (!(max === Infinity || (Number.isInteger(max) && max > 0))) throw new InvalidOptionError('maxInflatedBytes', max, 'a positive integer');
  const mammoth = (await loadMammoth()) as Mammoth;
  await checkZipInflation(bytes, options.source ?? '<bytes>', max);
  const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  try {
    // `buffer` is what mammoth's Node build reads (JSZip takes a Uint8Array), `arrayBuffer` its browser build
    const result = await mammoth.convertToHtml({ buffer: bytes, arrayBuffer }, options.styleMap ? { styleMap: options.styleMap } : undefined);
    return { html: result.value, messages: result.messages.map((m) => `${m.type}: ${m.message}`) };
  } catch (error) {
    throw new DocumentError(options.source ?? '<bytes>', 'invalid', `not a Word (.docx) document mammoth can read (${firstLine(error)})`);
  }
}

/**
 * Chunks a .docx file: {@link docxToHtml}, then {@link HtmlChunker} with `options`.
 * `start`/`end` and `text` are offsets into and slices of the returned `html`;
 * `metadata.documentFormat` is `"docx-html"`.
 * @throws as {@link docxToHtml}, and InvalidOptionError for bad HTML options.
 */
export async function chunkDocx(bytes: Uint8Array, options: HtmlOptions & DocxOptions = {}): Promise<{ html: string; chunks: HtmlChunk[] }> {
  const { source, styleMap, maxInflatedBytes, ...html } = options;
  const converted = await docxToHtml(bytes, { source, styleMap, maxInflatedBytes });
  const chunks = new HtmlChunker(html).chunk(converted.html);
  for (const c of chunks) c.metadata.documentFormat = 'docx-html';
  return { html: converted.html, chunks };
}
