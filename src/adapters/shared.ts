/**
 * What the framework adapters (`chunkwise/langchain`, `chunkwise/llamaindex`) share:
 * building a chunker from a chunker or a strategy name, and the chunk fields they copy
 * into a framework's metadata. Core module: no Node built-in, no framework import.
 * @module
 */
import type { Chunk } from '../engine/chunk.js';
import { InvalidInputError, InvalidOptionError } from '../engine/errors.js';
import { createChunker, type StrategyOptions } from '../strategies/index.js';
import type { Chunker } from '../engine/chunker.js';

/** A chunker, or the name of a registered strategy (`createChunker`'s names). */
export type ChunkerSource = Chunker | string;

/**
 * The chunker for `source`: itself, or `createChunker(name, options)`.
 * @throws {InvalidOptionError} for something that is neither, an unknown name, or bad options.
 */
export function resolveChunker(source: ChunkerSource, options?: StrategyOptions): Chunker {
  if (typeof source === 'string') return createChunker(source, options);
  if (source !== null && typeof source === 'object' && typeof (source as Chunker).chunk === 'function') {
    if (options !== undefined) throw new InvalidOptionError('options', options, 'strategy options go with a strategy name; this chunker is already built');
    return source;
  }
  throw new InvalidOptionError('chunker', source, 'a chunkwise chunker (an object with chunk(text)) or a strategy name');
}

/**
 * Chunks of `text` by `chunker` (sync or async), checking the text is a string.
 * @param documentId enters every chunk id (`chunk(text, { documentId })`).
 */
export async function chunksOf(chunker: Chunker, text: unknown, what: string, documentId = ''): Promise<Chunk[]> {
  if (typeof text !== 'string') throw new InvalidInputError(`${what} must be a string`, text);
  return chunker.chunk(text, { documentId });
}

/**
 * What a framework document's content holds: `embedText` (default) is the text the
 * chunker means to be embedded, `chunk.embedText ?? chunk.text` (an HTML chunk's visible
 * text, a table part's labelled rows, a contextual header or code context header
 * before the text: what the budget was measured on); `text` is the exact source slice.
 */
export type ChunkContent = 'embedText' | 'text';

/**
 * The checked `content` option (default `embedText`).
 * @throws {InvalidOptionError} for any other value.
 */
export function resolveContent(value: unknown): ChunkContent {
  if (value === undefined || value === 'embedText') return 'embedText';
  if (value === 'text') return 'text';
  throw new InvalidOptionError('content', value, "'embedText' (the text the chunker means to embed, the default) or 'text' (the exact source slice)");
}

/**
 * The options both adapters take, in one shape: `new ChunkwiseTextSplitter(chunker,
 * options)` (LangChain) and `new ChunkwiseNodeParser(chunker, options)` (LlamaIndex)
 * accept the same object.
 */
export interface ChunkwiseAdapterOptions {
  /** The strategy's options, when the chunker is given by name (`{ chunkSize: 256 }`); none with a built chunker. */
  strategy?: StrategyOptions;
  /**
   * What a chunk's framework content holds: `embedText` (default), the text the chunker
   * means to be embedded (`chunk.embedText ?? chunk.text`: an HTML chunk's visible text,
   * a table part's rows labelled with their header cells, a contextual header before the
   * text); or `text`, the exact source slice. Either way the slice's offsets are in the
   * metadata.
   */
  content?: ChunkContent;
}

/** Keys of {@link ChunkwiseAdapterOptions}, for `rejectUnknownOptions`. */
export const ADAPTER_OPTION_KEYS = { strategy: true, content: true } as const;

/** The content of `chunk` for a framework document: see {@link ChunkContent}. */
export function contentOf(chunk: Chunk, content: ChunkContent): string {
  return content === 'text' ? chunk.text : (chunk.embedText ?? chunk.text);
}

/**
 * True when the content already starts with the chunk's heading path (a contextual
 * header `A > B`), so a framework need not repeat `headingPath` in what it embeds.
 */
export function contentHasHeadingPath(chunk: Chunk, content: string): boolean {
  const path = chunk.metadata.headingPath;
  return Array.isArray(path) && path.length > 0 && content.startsWith(path.join(' > '));
}

/** Metadata fields of a chunk that a framework document carries: offsets, id, tokens, and structure where there is one. */
export interface ChunkFields {
  /** UTF-16 offset of the chunk in its source document, inclusive. */
  start: number;
  /** UTF-16 offset of the chunk's end in its source document, exclusive. */
  end: number;
  chunkId: string;
  tokenCount: number;
  /** Heading path (Markdown, HTML, parent–child over Markdown); absent when empty. */
  headingPath?: string[];
  /** `parent` or `child` (parent–child). */
  level?: string;
  /** The parent's chunk id (children of parent–child). */
  parentId?: string;
}

/** The {@link ChunkFields} of a chunk. */
export function chunkFields(chunk: Chunk): ChunkFields {
  const m = chunk.metadata;
  return {
    start: chunk.start,
    end: chunk.end,
    chunkId: chunk.id,
    tokenCount: chunk.tokenCount,
    ...(Array.isArray(m.headingPath) && m.headingPath.length > 0 ? { headingPath: [...(m.headingPath as string[])] } : {}),
    ...(typeof m.level === 'string' ? { level: m.level } : {}),
    ...(typeof m.parentId === 'string' ? { parentId: m.parentId } : {}),
  };
}
