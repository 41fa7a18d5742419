/**
 * The strategy registry: builds a chunker from a strategy name and plain options, so
 * the CLI, the demo and the evaluation share one mapping. Core module: no Node built-ins.
 * The mechanism only: the built-in strategies are registered by `../strategies/index.ts`.
 * @module
 */
import type { Chunk } from './chunk.js';
import type { ChunkCallOptions } from './ids.js';
import { InvalidOptionError } from './errors.js';
import { resolveOptions, suggestOption, type StrategySchema } from './options/schema.js';
import { extensionOf } from './document-kinds.js';
import { checkStrategyDefinition, type Chunker, type StrategyDefinition, type StrategyOptions } from './chunker.js';

export type { Chunker, StrategyDefinition, StrategyOptions } from './chunker.js';

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
