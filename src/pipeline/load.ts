/**
 * The load stage of {@link pipeline}: each document taken from the input is checked and
 * keyed (its source, its content hash, the identity of its chunking), and a document
 * given as bytes is loaded (PDF, DOCX, HTML, Markdown, text) into the text it is chunked
 * as. Core module: no Node built-in.
 * @module
 */
import { hashText } from '../engine/chunk.js';
import { InvalidOptionError } from '../engine/errors.js';
import { utf8Length } from '../engine/size/utf8.js';
import type { LoadedDocument, LoadOptions } from '../documents/load.js';
import { documentExtensionOf, documentKindOf } from '../documents/kind.js';
import type { PipelineDocument } from './types.js';
import type { pipeline } from './pipeline.js';

/** A document taken from the input, checked, with what decides whether it is skipped. */
export interface Taken {
  source: string;
  text: string | Iterable<string> | AsyncIterable<string> | Uint8Array;
  contentHash?: string;
  chunking?: string;
  /** Bytes that are a PDF or a Word file (by their magic bytes, else `source`'s extension): `auto` picks its strategy by it. */
  document?: '.pdf' | '.docx';
}

/**
 * A document of the input, checked: its source (`source`, else `id`), its text or bytes,
 * and its content hash (`hash`, else a hash of its string text or of its bytes; none for
 * text in pieces), with the chunking identity `chunkingOf` gives when `keyed` (a sink
 * that keeps records) and it has a hash; bytes that are a PDF or a Word file say so.
 * @throws {InvalidOptionError} for a document without a source, or without text or bytes, or with a hash that is not a non-empty string.
 */
export function takeDocument(doc: PipelineDocument, keyed: boolean, chunkingOf: (source: string, document?: '.pdf' | '.docx') => string | undefined): Taken {
  const source = doc?.source ?? doc?.id;
  if (typeof source !== 'string' || source.length === 0) throw new InvalidOptionError('documents', doc, 'documents with a source (or id) string');
  // a document as bytes: loaded (PDF, DOCX, HTML, Markdown, text) where it is chunked
  const bytes = doc.bytes instanceof Uint8Array && doc.text === undefined ? doc.bytes : undefined;
  const text = bytes ? '' : (doc.text as PipelineDocument['text'] | undefined);
  const isString = typeof text === 'string';
  if (!isString && (text == null || (typeof (text as AsyncIterable<string>)[Symbol.asyncIterator] !== 'function' && typeof (text as Iterable<string>)[Symbol.iterator] !== 'function'))) {
    throw new InvalidOptionError('documents', doc, `document ${source}: text as a string or pieces of strings`);
  }
  if (doc.hash !== undefined && (typeof doc.hash !== 'string' || doc.hash.length === 0)) throw new InvalidOptionError('documents', doc, `document ${source}: hash as a non-empty string`);
  const contentHash = doc.hash ?? (bytes ? `${hashText(new TextDecoder('latin1').decode(bytes))}:${bytes.length}:bytes` : isString ? `${hashText(text)}:${text.length}` : undefined);
  const document = bytes ? documentExtensionOf(documentKindOf(source, bytes)) : undefined;
  const chunking = keyed && contentHash !== undefined ? chunkingOf(source, document) : undefined;
  return { source, text: bytes ?? text!, contentHash, chunking, document };
}

/** The pieces of a document's text, counting their UTF-8 bytes into `counter`. */
export async function* counted(text: Iterable<string> | AsyncIterable<string>, counter: { bytes: number }): AsyncGenerator<string> {
  for await (const piece of text as AsyncIterable<string>) {
    if (typeof piece !== 'string') throw new InvalidOptionError('documents', piece, 'text pieces that are strings');
    counter.bytes += utf8Length(piece);
    yield piece;
  }
}

/**
 * The loaders of the load stage, named in variables so that bundlers do not follow them:
 * the root entry's module graph keeps out pdf.js and mammoth (Node built-ins), which only a
 * run with bytes documents loads, from the module tree beside this one (`dist/src`). The
 * package's own builds (rollup.config.mjs: the Node build, the browser bundles) make these
 * imports literal, so that they reach the loaders' chunks.
 */
const LOAD_MODULE = '../documents/load.js';
const PDF_MODULE = '../documents/pdf.js';

/** `import(spec)` with a specifier bundlers do not follow. */
async function importLoader<T>(spec: string): Promise<T> {
  return (await import(/* @vite-ignore */ spec)) as T;
}

/** A document's bytes loaded with `options`: its text, and a PDF's layout (`loadDocument`). */
export async function loadBytes(source: string, bytes: Uint8Array, options?: LoadOptions): Promise<LoadedDocument> {
  const { loadDocument } = await importLoader<typeof import('../documents/load.js')>(LOAD_MODULE);
  return loadDocument({ source, bytes }, options);
}

/** The PDF module (`PdfChunker`, which maps a PDF's layout onto each chunk). */
export function pdfModule(): Promise<typeof import('../documents/pdf.js')> {
  return importLoader<typeof import('../documents/pdf.js')>(PDF_MODULE);
}
