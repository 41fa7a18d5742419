/**
 * What the framework adapters (`chunkwise/langchain`, `chunkwise/llamaindex`) share:
 * building a chunker from a chunker or a strategy name, and the chunk fields they copy
 * into a framework's metadata. Core module: no Node built-in, no framework import.
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { InvalidInputError, InvalidOptionError } from '../core/errors.js';
import { createChunker, type Chunker, type StrategyOptions } from '../strategies/registry.js';

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

/** Chunks of `text` by `chunker` (sync or async), checking the text is a string. */
export async function chunksOf(chunker: Chunker, text: unknown, what: string): Promise<Chunk[]> {
  if (typeof text !== 'string') throw new InvalidInputError(`${what} must be a string`, text);
  return chunker.chunk(text);
}

/** Metadata fields of a chunk that a framework document carries: offsets, id, tokens, and structure where there is one. */
export interface ChunkFields {
  /** UTF-16 offset of the chunk in its source document, inclusive. */
  start: number;
  /** UTF-16 offset of the chunk's end in its source document, exclusive. */
  end: number;
  chunkId: string;
  tokenCount: number;
  /** Markdown heading path (Markdown, parent–child over Markdown). */
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
    ...(Array.isArray(m.headingPath) ? { headingPath: [...(m.headingPath as string[])] } : {}),
    ...(typeof m.level === 'string' ? { level: m.level } : {}),
    ...(typeof m.parentId === 'string' ? { parentId: m.parentId } : {}),
  };
}
