/**
 * The strategy registry: builds a chunker from a strategy name and plain options, so
 * the CLI, the demo and the evaluation share one mapping. Core module: no Node built-ins.
 * @module
 */
import type { Chunk } from './chunk.js';
import { FixedSizeChunker, type FixedSizeOptions } from './chunkers/fixed-size.js';
import { SlidingWindowChunker, type SlidingWindowOptions } from './chunkers/sliding-window.js';
import { InvalidOptionError } from './errors.js';
import type { TextSource } from './stream/source.js';

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
