/**
 * Streaming chunking: text in pieces (web `ReadableStream<string>` or async iterables),
 * chunks out as soon as they are decided, equal to the whole-string call.
 * Core module: no Node built-ins.
 *
 * How a strategy plugs in: implement {@link StreamingChunker} (`chunkStream(source)`),
 * yielding exactly the chunks `chunk(wholeText)` returns (same ids: use
 * {@link PrefixIds} in both paths). Two building blocks help:
 * - unit-level strategies (sliding, fixed) plan over units segmented up to a
 *   {@link SafeCut} of their unit kind (`src/stream/safe-cuts.ts`);
 * - strategies whose output restarts at hard breaks (a Markdown heading, a page break)
 *   can use {@link chunkSections} with a function finding the last such break.
 * {@link chunkStream} takes any chunker: streaming ones stream, the others get the whole
 * text collected first (same result, memory of the whole text).
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { chunkId } from '../core/chunk.js';
import { RollingHash } from '../core/ids.js';
import { InvalidInputError } from '../core/errors.js';
import { textPieces, type TextSource } from './source.js';

export { textPieces, type TextSource } from './source.js';
export { charCut, wordCut, tiktokenCut, safeCutFor, type SafeCut } from '../size/safe-cuts.js';
export { streamPlan, planWhole, type StreamPlan, type StepResult } from './driver.js';
export { RollingHash, PrefixIds } from '../core/ids.js';

/** A chunker that chunks a text stream itself. */
export interface StreamingChunker {
  chunk(text: string): Chunk[] | Promise<Chunk[]>;
  /** Yields what `chunk(wholeText)` returns, in order, as each chunk is decided. */
  chunkStream(source: TextSource): AsyncIterable<Chunk>;
}

/** True when `chunker` has its own `chunkStream`. */
export function isStreamingChunker(chunker: unknown): chunker is StreamingChunker {
  return typeof (chunker as StreamingChunker | null)?.chunkStream === 'function';
}

/**
 * Chunks a text stream with any chunker: through its `chunkStream` when it has one
 * (bounded memory), else by collecting the whole text and calling `chunk` once.
 * @throws {InvalidInputError} for a chunker without `chunk`, a source that is not a
 *   stream/iterable, or a piece that is not a string.
 */
export async function* chunkStream(
  chunker: { chunk(text: string): Chunk[] | Promise<Chunk[]>; chunkStream?: (source: TextSource) => AsyncIterable<Chunk> },
  source: TextSource,
): AsyncGenerator<Chunk> {
  if (isStreamingChunker(chunker)) {
    yield* chunker.chunkStream(source);
    return;
  }
  if (typeof chunker?.chunk !== 'function') throw new InvalidInputError('chunker must have a chunk(text) method', chunker);
  let text = '';
  for await (const piece of textPieces(source)) text += piece;
  yield* await chunker.chunk(text);
}

/**
 * Finds the last hard break in `text[from, text.length)` — an offset where the
 * strategy's chunks of the text before it do not depend on anything after it and its
 * chunks after it do not depend on anything before it — or returns `from` if there is
 * none yet. It must only return a break that stays a break whatever text follows.
 */
export type SectionBreak = (text: string, from: number) => number;

/**
 * Streams any chunker whose output restarts at hard breaks: each section (text between
 * breaks) is chunked on its own with `chunk`, its chunks shifted to stream offsets,
 * re-indexed and given prefix-hash ids (`hash(stream[0, end)):start-end`, as {@link PrefixIds}); `metadata.overlap` of a
 * section's first chunk is 0. This equals the whole-string call when the chunker's
 * `chunk` gives the same chunks for a text as for its sections one by one and uses
 * prefix-hash ids. Memory: one section plus one piece.
 * @throws {InvalidInputError} as {@link chunkStream}.
 */
export async function* chunkSections(
  chunker: { chunk(text: string): Chunk[] | Promise<Chunk[]> },
  source: TextSource,
  findBreak: SectionBreak,
): AsyncGenerator<Chunk> {
  const prefix = new RollingHash(); // hash of the stream before the current section
  let buf = '';
  let bufStart = 0;
  let index = 0;
  async function* emit(sectionEnd: number): AsyncGenerator<Chunk> {
    const section = buf.slice(0, sectionEnd - bufStart);
    const chunks = await chunker.chunk(section);
    // prefix hashes at every chunk end (chunks of a section need not end in order)
    const ends = [...new Set(chunks.map((c) => c.end))].sort((a, b) => a - b);
    const digests = new Map<number, string>();
    const h = prefix.clone();
    let at = 0;
    for (const e of ends) {
      h.update(section, at, e);
      at = e;
      digests.set(e, h.digest());
    }
    for (const c of chunks) {
      const start = c.start + bufStart;
      const end = c.end + bufStart;
      yield { ...c, id: chunkId(digests.get(c.end)!, start, end), index: index++, start, end };
    }
    prefix.update(section);
    buf = buf.slice(sectionEnd - bufStart);
    bufStart = sectionEnd;
  }
  let searched = 0;
  for await (const piece of textPieces(source)) {
    if (piece.length === 0) continue;
    buf += piece;
    const cut = findBreak(buf, searched);
    if (cut > searched) {
      yield* emit(bufStart + cut);
      searched = 0;
    } else searched = Math.max(0, buf.length - 1);
  }
  if (buf.length > 0) yield* emit(bufStart + buf.length);
}
