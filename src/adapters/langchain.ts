/**
 * `chunkwise/langchain`: {@link ChunkwiseTextSplitter}, a LangChain.js `TextSplitter`
 * (`@langchain/textsplitters`) that cuts with any chunkwise chunker and keeps its exact
 * offsets. Optional peer dependencies: `@langchain/textsplitters` and `@langchain/core`.
 * @module
 */
import { Document } from '@langchain/core/documents';
import { TextSplitter, type TextSplitterChunkHeaderOptions } from '@langchain/textsplitters';
import type { StrategyOptions } from '../strategies/index.js';
import type { Chunker } from '../engine/chunker.js';
import { ADAPTER_OPTION_KEYS, chunkFields, chunksOf, contentOf, resolveChunker, resolveContent, type ChunkContent, type ChunkerSource, type ChunkFields, type ChunkwiseAdapterOptions } from './shared.js';
import { rejectUnknownOptions } from '../engine/options/schema.js';
import { lowerBound } from '../engine/search.js';

/** LangChain's line location: 1-based, `from` the chunk's first line, `to` its last. */
export interface LocLines {
  from: number;
  to: number;
}

/** Metadata of a {@link ChunkwiseTextSplitter} document: the input metadata plus these fields. */
export type ChunkwiseDocumentMetadata = Record<string, unknown> &
  ChunkFields & {
    loc: Record<string, unknown> & { lines: LocLines };
  };

/**
 * Options of {@link ChunkwiseTextSplitter}: `strategy` (the strategy's options, with a
 * strategy name) and `content` (what `pageContent` and `splitText` hold) — the shape
 * `ChunkwiseNodeParser` takes too.
 */
export type ChunkwiseTextSplitterOptions = ChunkwiseAdapterOptions;

/**
 * The splitter's options from its constructor's arguments: the one shape (`{ strategy,
 * content }`) as the second argument, or the deprecated one (strategy options second,
 * `{ content }` third). A second argument is the one shape when its keys are only
 * `strategy` and `content` and no third is given.
 */
function splitterOptions(second: unknown, third: unknown): Record<string, unknown> {
  if (third !== undefined) return { ...(third as Record<string, unknown>), ...(second === undefined ? {} : { strategy: second }) };
  if (second === undefined) return {};
  if (second !== null && typeof second === 'object' && Object.keys(second).every((k) => k in ADAPTER_OPTION_KEYS)) return second as Record<string, unknown>;
  return { strategy: second };
}

/**
 * Lines of a text by offset: `line(offset)` is 1 + the count of `\n` in
 * `text.slice(0, offset)` (the 1-based line of the code unit at `offset`), by binary
 * search over the newline positions (found once, O(n)).
 */
export function lineIndex(text: string): (offset: number) => number {
  const breaks: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) breaks.push(i);
  return (offset: number) => lowerBound(breaks, offset) + 1;
}

/**
 * LangChain's `loc.lines` of the span [start, end) of `text`: `from` = 1 + newlines
 * before `start`, `to` = `from` + newlines inside the span (so a span ending in `\n`
 * ends a line later) — what `TextSplitter.createDocuments` computes, here from the
 * exact offsets instead of `indexOf` (which finds the first copy of a repeated chunk).
 */
export function locLines(line: (offset: number) => number, start: number, end: number): LocLines {
  return { from: line(start), to: line(end) };
}

/**
 * A LangChain `TextSplitter` over a chunkwise chunker. `splitText`, `createDocuments`,
 * `splitDocuments` and `transformDocuments` (so `invoke` in a chain) work as on any
 * LangChain splitter; each Document's `pageContent` is what the chunk embeds
 * (`chunk.embedText ?? chunk.text`, so a vector store embeds the visible text of HTML
 * and the labelled rows of a table; `content: 'text'` gives the exact slice instead), and
 * its metadata keeps the input metadata and adds `loc.lines` (LangChain's 1-based lines),
 * `start` / `end` (UTF-16 offsets of the chunk's exact text in the input:
 * `text.slice(start, end)`), `chunkId`, `tokenCount`, and where the strategy has them
 * `headingPath` (Markdown, HTML; absent when empty), `level` and `parentId`
 * (parent–child: parents and their children both come out; filter on `level`). Async
 * chunkers (semantic, late) work.
 *
 * Chunk ids take the input's `metadata.source` (when it is a string) as the document id
 * (`chunk(text, { documentId })`), so they are unique across sources and stay the same
 * for a chunk whose text did not change.
 *
 * `chunkHeader` / `chunkOverlapHeader` options of `createDocuments` prefix
 * `pageContent` as in LangChain (the offsets still describe the chunk in the input).
 *
 * @example
 * ```ts
 * const splitter = new ChunkwiseTextSplitter(new RecursiveChunker({ chunkSize: 256 }));
 * const docs = await splitter.splitDocuments(await loader.load());
 * const byName = new ChunkwiseTextSplitter('markdown', { strategy: { chunkSize: 256 }, content: 'text' });
 * ```
 * @throws {InvalidOptionError} at construction for an unknown strategy, bad options, or
 *   a value that is neither a chunker nor a strategy name.
 */
export class ChunkwiseTextSplitter extends TextSplitter {
  static override lc_name(): string {
    return 'ChunkwiseTextSplitter';
  }

  /** The chunkwise chunker that cuts. */
  readonly chunker: Chunker;
  /** What `pageContent` holds (see {@link ChunkwiseTextSplitterOptions.content}). */
  readonly content: ChunkContent;

  /**
   * @param chunker a chunkwise chunker, or a strategy name (`recursive`, `markdown`,
   *   `sentence`, `fixed`, `sliding`, `parent-child`, `semantic`, `late`) with
   *   `options.strategy`.
   * @param options `strategy` (the strategy's options, with a name only) and `content`
   *   (`embedText`, the default, or `text`): the shape `ChunkwiseNodeParser` takes.
   * @throws {InvalidOptionError} also for an unknown option or a bad `content`.
   */
  constructor(chunker: ChunkerSource, options?: ChunkwiseTextSplitterOptions);
  /**
   * @deprecated Strategy options as the second argument and `{ content }` as the third:
   * pass `{ strategy, content }` as the second (`new ChunkwiseTextSplitter('markdown', {
   * strategy: { chunkSize: 256 } })`), the shape both adapters take. Still accepted.
   */
  constructor(chunker: ChunkerSource, strategyOptions: StrategyOptions | undefined, splitterOptions?: { content?: ChunkContent });
  constructor(chunker: ChunkerSource, second?: ChunkwiseTextSplitterOptions | StrategyOptions, third?: { content?: ChunkContent }) {
    const options = splitterOptions(second, third);
    rejectUnknownOptions<ChunkwiseTextSplitterOptions>('ChunkwiseTextSplitter', options, ADAPTER_OPTION_KEYS);
    const content = resolveContent(options.content);
    const resolved = resolveChunker(chunker, options.strategy as StrategyOptions | undefined);
    const sizes = resolved as { chunkSize?: unknown; chunkOverlap?: unknown };
    const chunkSize = typeof sizes.chunkSize === 'number' && sizes.chunkSize > 0 ? sizes.chunkSize : 1000;
    const overlap = typeof sizes.chunkOverlap === 'number' && sizes.chunkOverlap < chunkSize ? sizes.chunkOverlap : 0;
    // informational: LangChain's own fields, not used to cut (the chunker decides)
    super({ chunkSize, chunkOverlap: overlap });
    this.chunker = resolved;
    this.content = content;
  }

  /** The chunks' contents (`embedText` by default, or each exact slice of `text` with `content: 'text'`). */
  async splitText(text: string): Promise<string[]> {
    return (await chunksOf(this.chunker, text, 'the text to split')).map((c) => contentOf(c, this.content));
  }

  /**
   * One Document per chunk of each text, with the metadata described on the class.
   * @param texts the texts to split.
   * @param metadatas one metadata object per text (kept, shallow-copied; its `loc` is
   *   kept with `lines` added).
   */
  override async createDocuments(texts: string[], metadatas: Record<string, unknown>[] = [], chunkHeaderOptions: TextSplitterChunkHeaderOptions = {}): Promise<Document[]> {
    const { chunkHeader = '', chunkOverlapHeader = "(cont'd) ", appendChunkOverlapHeader = false } = chunkHeaderOptions;
    const documents: Document[] = [];
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      const input = metadatas[i] ?? {};
      const chunks = await chunksOf(this.chunker, text, `texts[${i}]`, typeof input.source === 'string' ? input.source : '');
      const line = lineIndex(text);
      for (let c = 0; c < chunks.length; c++) {
        const chunk = chunks[c];
        const loc = input.loc && typeof input.loc === 'object' ? { ...(input.loc as Record<string, unknown>) } : {};
        const metadata: ChunkwiseDocumentMetadata = {
          ...input,
          ...chunkFields(chunk),
          loc: { ...loc, lines: locLines(line, chunk.start, chunk.end) },
        };
        const header = chunkHeader + (appendChunkOverlapHeader && c > 0 ? chunkOverlapHeader : '');
        documents.push(new Document({ pageContent: header + contentOf(chunk, this.content), metadata }));
      }
    }
    return documents;
  }
}

export type { ChunkContent, ChunkerSource, ChunkFields, ChunkwiseAdapterOptions };
