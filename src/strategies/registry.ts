/**
 * The strategy registry: builds a chunker from a strategy name and plain options, so
 * the CLI, the demo and the evaluation share one mapping. Core module: no Node built-ins.
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { FixedSizeChunker, type FixedSizeOptions } from './fixed-size.js';
import { SlidingWindowChunker, type SlidingWindowOptions } from './sliding-window.js';
import { InvalidOptionError } from '../core/errors.js';
import { SemanticChunker, type SemanticOptions } from './semantic.js';
import { ClusterSemanticChunker, type ClusterSemanticOptions } from './cluster-semantic.js';
import { LateChunker } from '../compose/late.js';
import type { TokenEmbedder } from '../embedders/types.js';
import { RecursiveChunker, type RecursiveOptions } from './recursive.js';
import { SentenceChunker, type SentenceChunkerOptions } from './sentence.js';
import { MarkdownChunker, type MarkdownOptions } from './markdown.js';
import { ParentChildChunker, type ParentChildOptions } from '../compose/parent-child.js';
import type { TextSource } from '../stream/source.js';

/** Anything that turns a text into chunks (synchronously or not). */
export interface Chunker {
  chunk(text: string): Chunk[] | Promise<Chunk[]>;
  /**
   * Optional streaming form: yields what `chunk(wholeText)` returns, as chunks are
   * decided (see `src/stream/index.ts`, docs/streaming.md). The CLI streams files
   * through it when present.
   */
  chunkStream?(source: TextSource): AsyncIterable<Chunk>;
}

/** Options any strategy may take; each strategy reads the ones it knows. */
export type StrategyOptions = SlidingWindowOptions & FixedSizeOptions & Record<string, unknown>;

/** A registered strategy. */
export interface StrategyDefinition {
  /** Name used by the CLI's `--strategy` and in chunk metadata. */
  name: string;
  /** One line for `--help` and docs. */
  description: string;
  create(options: StrategyOptions): Chunker;
}

const registry = new Map<string, StrategyDefinition>();

/** Adds (or replaces) a strategy in the registry. */
export function registerStrategy(definition: StrategyDefinition): void {
  registry.set(definition.name, definition);
}

/** Names of the registered strategies, in registration order. */
export function strategyNames(): string[] {
  return [...registry.keys()];
}

/** The registered strategies. */
export function strategies(): StrategyDefinition[] {
  return [...registry.values()];
}

/**
 * Builds the chunker for `name` with `options`.
 * @throws {InvalidOptionError} for an unknown strategy name or invalid options.
 */
export function createChunker(name: string, options: StrategyOptions = {}): Chunker {
  const definition = registry.get(name);
  if (!definition) throw new InvalidOptionError('strategy', name, `one of ${strategyNames().join(', ')}`);
  return definition.create(options);
}

registerStrategy({
  name: 'sliding',
  description: 'windows of windowSize units moved by stride units',
  create: (o) => new SlidingWindowChunker(o),
});
registerStrategy({
  name: 'fixed',
  description: 'chunks of chunkSize units overlapping by chunkOverlap units',
  create: (o) => new FixedSizeChunker(o),
});
registerStrategy({
  name: 'sentence',
  description: 'whole sentences (Intl.Segmenter, locale) packed up to chunkSize units, overlapSentences shared',
  create: (o) => new SentenceChunker(o as SentenceChunkerOptions),
});
registerStrategy({
  name: 'recursive',
  description: 'split on separators (paragraph, line, sentence end, space, grapheme) where still too large, merged up to chunkSize units',
  create: (o) => new RecursiveChunker(o as RecursiveOptions),
});
registerStrategy({
  name: 'markdown',
  description: 'Markdown by heading sections: heading paths, whole code blocks and tables, chunkSize units',
  create: (o) => new MarkdownChunker(o as MarkdownOptions),
});
registerStrategy({
  name: 'parent-child',
  description: 'parents of parentSize units (Markdown-aware) and children of childSize units with parentId',
  create: (o) => new ParentChildChunker(o as ParentChildOptions),
});
registerStrategy({
  name: 'semantic',
  description: 'breaks where neighbouring sentences drift apart (breakpoint: percentile, standardDeviation, interquartile, gradient); maxChunkSize (or chunkSize) caps chunks',
  create: (o) => new SemanticChunker({ ...(o as SemanticOptions), maxChunkSize: (o.maxChunkSize as number | undefined) ?? o.chunkSize }),
});
registerStrategy({
  name: 'cluster-semantic',
  description: "Chroma's ClusterSemanticChunker: ~50-token pieces (recursive splitter) embedded, chunk boundaries by dynamic programming maximising within-chunk similarity; maxChunkSize (or chunkSize) caps chunks",
  create: (o) => new ClusterSemanticChunker({ ...(o as ClusterSemanticOptions), maxChunkSize: (o.maxChunkSize as number | undefined) ?? o.chunkSize }),
});
registerStrategy({
  name: 'late',
  description: 'late chunking: spans from another strategy (spans, default fixed), vectors pooled from one pass of a token-level model (needs embedder)',
  create: (o) => {
    const embedder = o.embedder as TokenEmbedder | undefined;
    if (!embedder || typeof embedder.embedTokens !== 'function') {
      throw new InvalidOptionError('embedder', embedder === undefined ? undefined : 'an embedder without token-level output', 'late chunking needs a token-level model, e.g. --embedder onnx:<folder>');
    }
    const spans = (o.spans as string | undefined) ?? 'fixed';
    if (spans === 'late') throw new InvalidOptionError('spans', spans, 'a span strategy other than late');
    const defaults = spans === 'fixed' ? { chunkSize: 256, chunkOverlap: 0 } : {};
    return new LateChunker({ embedder, chunker: createChunker(spans, { ...defaults, ...o, embedder: undefined }), macroOverlap: o.macroOverlap as number | undefined });
  },
});
