/**
 * The strategy registry: builds a chunker from a strategy name and plain options, so
 * the CLI, the demo and the evaluation share one mapping. Core module: no Node built-ins.
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import type { ChunkCallOptions } from '../core/ids.js';
import { InvalidOptionError } from '../core/errors.js';
import { resolveOptions, suggestOption, type StrategySchema } from '../core/schema.js';
import { extensionOf } from '../core/document-kinds.js';
import { checkStrategyDefinition, type Chunker, type StrategyDefinition, type StrategyOptions } from '../core/chunker.js';
import { SlidingWindowChunker } from '../strategies/sliding-window.js';
import { FixedSizeChunker } from '../strategies/fixed-size.js';
import { SentenceChunker } from '../strategies/sentence.js';
import { RecursiveChunker } from '../strategies/recursive.js';
import { MarkdownChunker } from '../strategies/markdown.js';
import { HtmlChunker } from '../strategies/html.js';
import { PARENT_CHILD_STRATEGY } from './parent-child.js';
import { SEMANTIC_STRATEGY } from '../strategies/semantic.js';
import { CODE_STRATEGY } from '../strategies/code-schema.js';
import { CLUSTER_SEMANTIC_STRATEGY } from '../strategies/cluster-semantic.js';
import { LATE_STRATEGY } from './late.js';


export type { Chunker, StrategyDefinition, StrategyOptions } from '../core/chunker.js';

const registry = new Map<string, StrategyDefinition>();

/**
 * Adds (or replaces: a definition of the same name wins) a strategy in the registry.
 * @throws {InvalidOptionError} for a malformed definition, naming the field (see {@link checkStrategyDefinition}).
 */
export function registerStrategy(definition: StrategyDefinition): void {
  checkStrategyDefinition(definition, true);
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
  if (!definition) {
    const names = strategyNames();
    const suggestion = suggestOption(String(name), names);
    throw new InvalidOptionError('strategy', name, `one of ${names.join(', ')}${suggestion ? `; did you mean ${suggestion}?` : ''}`);
  }
  return definition.create(normalizeOptions(definition, options), createChunker);
}

/**
 * `options` with aliases renamed to their options; unknown keys are rejected by the
 * strategy's schema (here for a pass-through strategy's own keys only at `create`).
 * @throws {InvalidOptionError} for options that are not an object, or an alias given together with its option.
 */
function normalizeOptions(definition: StrategyDefinition, options: unknown): StrategyOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidOptionError('options', options, `the options of the ${definition.name} strategy must be an object`);
  }
  const out: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  for (const [alias, target] of Object.entries(definition.aliases ?? {})) {
    if (out[alias] === undefined) continue;
    if (out[target] !== undefined && out[target] !== out[alias]) {
      throw new InvalidOptionError(alias, out[alias], `is another name for ${target}, which is given too (${String(out[target])})`);
    }
    out[target] = out[alias];
    delete out[alias];
  }
  if (!definition.passThrough) resolveOptions(definition.schema, out); // fail early, before create, with the schema's message
  return out as StrategyOptions;
}

/**
 * The strategy `--strategy auto` picks for a file: the registered strategy whose
 * `extensions` hold the file's extension (case-insensitive: `.md` → markdown, `.html` /
 * `.htm` / `.xhtml` → html, source extensions → code, `.txt` → recursive), else `fallback`.
 * @param path a file name or path (`/` or `\\` separated)
 * @param fallback the strategy for any other file (the CLI's default, `fixed`)
 */
export function strategyForFile(path: string, fallback = 'fixed'): string {
  const ext = extensionOf(path);
  if (!ext) return fallback;
  for (const d of registry.values()) if (d.extensions?.includes(ext)) return d.name;
  return fallback;
}

/** The definition of a registered strategy, or undefined. */
export function strategyDefinition(name: string): StrategyDefinition | undefined {
  return registry.get(name);
}

// Each strategy's entry lives in its own file; this list is the registration order
// (the CLI's, the docs' and the web page's order of strategies).
for (const definition of [
  SlidingWindowChunker.definition,
  FixedSizeChunker.definition,
  SentenceChunker.definition,
  RecursiveChunker.definition,
  MarkdownChunker.definition,
  HtmlChunker.definition,
  PARENT_CHILD_STRATEGY,
  SEMANTIC_STRATEGY,
  CODE_STRATEGY,
  CLUSTER_SEMANTIC_STRATEGY,
  LATE_STRATEGY,
]) {
  registerStrategy(definition);
}
