/**
 * The chunk stage of {@link pipeline}: the chunker of each source (`chunker`, a function,
 * or `'auto'`), the identity of its chunking (what a document record's `chunking` hashes),
 * and the chunks of one document, in order. Core module: no Node built-in.
 * @module
 */
import { hashText, type Chunk } from '../engine/chunk.js';
import { VERSION } from '../engine/version.js';
import { InvalidOptionError } from '../engine/errors.js';
import { AUTO_STRATEGY, FileChunkers } from '../strategies/file-chunkers.js';
import type { Chunker } from '../engine/chunker.js';
import { loadBytes, pdfModule } from './load.js';
import type { PipelineOptions } from './types.js';
import type { LoadedDocument, LoadOptions } from '../documents/load.js';
import type { ChunkCallOptions } from '../engine/ids.js';
import type { pipeline } from './pipeline.js';

/**
 * Bumped when a chunker's output for the same text and options changes: stored records then
 * no longer match. The package version is part of the identity too ({@link chunkingIdentity}),
 * so an upgrade re-chunks even when this was not bumped.
 */
const CHUNKING_REVISION = '1';

/**
 * The string hashed into a document record's chunking: the chunking revision, the package
 * version and the chunker's own identity (strategy and options), NUL-separated.
 * @internal exported for tests
 */
export function chunkingIdentity(id: string, version: string = VERSION): string {
  return `${CHUNKING_REVISION}\u0000${version}\u0000${id}`;
}

/**
 * The chunks of a loaded document: a PDF's through `PdfChunker` (each chunk with
 * `metadata.pages` and `metadata.boxes`, offsets into the extracted text), a Word file's
 * HTML with `metadata.documentFormat: "docx-html"` (offsets into that HTML), the others'
 * text as it is. The CLI chunks its documents through this too.
 */
export async function chunkLoaded(chunker: Chunker, loaded: LoadedDocument, call?: ChunkCallOptions): Promise<Chunk[]> {
  if (loaded.pdf) return new (await pdfModule()).PdfChunker(chunker).chunk(loaded.pdf, call);
  const chunks = await chunker.chunk(loaded.text, call);
  if (loaded.kind === 'docx') for (const c of chunks) c.metadata.documentFormat = 'docx-html';
  return chunks;
}

/**
 * The chunks of one document, in order: through `chunkStream` when the text comes in
 * pieces and the chunker streams, else `chunk` of the whole text. The one place a
 * document meets its chunker: `source` (the key of the sink's rows) is the document id
 * of the chunk ids, so a chunk keeps its id across runs while its text stays the same.
 * Bytes are loaded first (with `load`).
 */
export async function* chunkDocument(chunker: Chunker, source: string, text: string | AsyncIterable<string> | Uint8Array, load?: LoadOptions): AsyncGenerator<Chunk> {
  const call = { documentId: source };
  if (text instanceof Uint8Array) {
    // the load stage: bytes → text (+ a PDF's layout, which PdfChunker maps onto each chunk)
    yield* await chunkLoaded(chunker, await loadBytes(source, text, load), call);
    return;
  }
  if (typeof text !== 'string' && typeof chunker.chunkStream === 'function') {
    yield* chunker.chunkStream(text, call);
    return;
  }
  let whole = '';
  if (typeof text === 'string') whole = text;
  else for await (const piece of text) whole += piece;
  yield* await chunker.chunk(whole, call);
}

/** A hash of the chunking of each source (undefined: none known, the source is never skipped). */
export function chunkingChoice(o: PipelineOptions): (source: string, document?: '.pdf' | '.docx') => string | undefined {
  const given = o.chunking;
  const hashed = (id: string | undefined) => (id === undefined ? undefined : hashText(chunkingIdentity(id)));
  if (typeof given === 'string') return () => hashed(given);
  if (typeof given === 'function') {
    return (source) => {
      const id = given(source);
      if (id !== undefined && typeof id !== 'string') throw new InvalidOptionError('chunking', id, `a string (or undefined) for ${source}`);
      return hashed(id);
    };
  }
  if (given !== undefined) throw new InvalidOptionError('chunking', given, 'a string or a function of the source returning one');
  if (o.refine) return () => undefined;
  const c = o.chunker;
  if (c === AUTO_STRATEGY) {
    const chunkers = new FileChunkers(AUTO_STRATEGY, o.chunkerOptions ?? {});
    return (source, document) => hashed(plainJson(chunkers.plan(source, document)));
  }
  if (typeof c === 'function' || !c) return () => undefined;
  const options = plainJson((c as { options?: unknown }).options);
  const id = options === undefined ? undefined : `${(c as object).constructor?.name ?? 'chunker'}:${options}`;
  return () => hashed(id);
}

/**
 * JSON of plain data (strings, numbers, booleans, null, arrays and plain objects, keys
 * sorted), or undefined when `value` holds anything else (a function, a class instance:
 * a tokenizer whose identity JSON cannot tell).
 */
function plainJson(value: unknown): string | undefined {
  let plain = true;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || Array.isArray(v)) return v;
    if (typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    if (v !== undefined) plain = false;
    return undefined;
  });
  return plain && value !== undefined ? json : undefined;
}

/** The chunker of each source, from `chunker` (and `chunkerOptions` for `'auto'`, by the source's name or its `document` kind). */
export function chunkerChoice(o: PipelineOptions): (source: string, document?: '.pdf' | '.docx') => Chunker {
  const c = o.chunker;
  if (c === AUTO_STRATEGY) {
    const chunkers = new FileChunkers(AUTO_STRATEGY, o.chunkerOptions ?? {}).check();
    return (source, document) => chunkers.for(source, document);
  }
  if (typeof c === 'function') {
    return (source) => {
      const chosen = (c as (source: string) => Chunker)(source);
      if (!chosen || typeof chosen.chunk !== 'function') throw new InvalidOptionError('chunker', chosen, `a chunker for ${source} (an object with chunk(text))`);
      return chosen;
    };
  }
  if (!c || typeof (c as Chunker).chunk !== 'function') throw new InvalidOptionError('chunker', c, "a chunker (an object with chunk(text)), a function returning one, or 'auto'");
  return () => c as Chunker;
}
