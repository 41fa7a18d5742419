/**
 * The strategy registry: builds a chunker from a strategy name and plain options, so
 * the CLI, the demo and the evaluation share one mapping. Core module: no Node built-ins.
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import type { ChunkCallOptions } from '../core/ids.js';
import { FIXED_SCHEMA, FixedSizeChunker, type FixedSizeOptions } from './fixed-size.js';
import { SLIDING_SCHEMA, SlidingWindowChunker, type SlidingWindowOptions } from './sliding-window.js';
import { InvalidOptionError } from '../core/errors.js';
import { SEMANTIC_SCHEMA, SemanticChunker, type SemanticOptions } from './semantic.js';
import { CLUSTER_SEMANTIC_SCHEMA, ClusterSemanticChunker, type ClusterSemanticOptions } from './cluster-semantic.js';
import { LateChunker } from '../compose/late.js';
import type { TokenEmbedder } from '../embedders/types.js';
import { RECURSIVE_SCHEMA, RecursiveChunker, type RecursiveOptions } from './recursive.js';
import { SENTENCE_SCHEMA, SentenceChunker, type SentenceChunkerOptions } from './sentence.js';
import { MARKDOWN_SCHEMA, MarkdownChunker, type MarkdownOptions } from './markdown.js';
import { HTML_SCHEMA, HtmlChunker, type HtmlOptions } from './html.js';
import { PARENT_CHILD_SCHEMA, ParentChildChunker, type ParentChildOptions } from '../compose/parent-child.js';
import type { Chunker } from '../core/chunker.js';
import { OPTION_SHAPES, resolveOptions, suggestOption, type StrategySchema } from '../core/schema.js';
import { CODE_SCHEMA, LazyCodeChunker, type CodeChunkerOptions } from './code-schema.js';
import { CODE_EXTENSIONS, extensionOf } from '../segment/code-languages.js';

export type { Chunker } from '../core/chunker.js';

/** Options any strategy may take; each strategy reads the ones it knows. */
export type StrategyOptions = SlidingWindowOptions & FixedSizeOptions & Record<string, unknown>;

/** A registered strategy. */
export interface StrategyDefinition {
  /** Name used by the CLI's `--strategy` and in chunk metadata. */
  name: string;
  /** One line for `--help` and docs. */
  description: string;
  /**
   * The options schema (type, range, default, doc of every option): the registry
   * validates options with it before `create`, and the CLI flags, `--help` and the docs'
   * option tables are generated from it.
   */
  schema: StrategySchema;
  /**
   * The options that are the budget and the overlap (for `name:size:overlap` specs and
   * the docs): e.g. `{ size: 'chunkSize', overlap: 'chunkOverlap' }`; sliding windows
   * give the overlap as a stride (`stride = size − overlap`).
   */
  budget?: { size: string; overlap?: string; overlapAsStride?: boolean };
  /** Other names an option is accepted under (`chunkSize` for semantic's `maxChunkSize`). */
  aliases?: Readonly<Record<string, string>>;
  /** Options passed through to another strategy (late chunking's span strategy): not validated against `schema`. */
  passThrough?: boolean;
  /** The file extensions this strategy is the natural choice for (`--strategy auto`). */
  extensions?: readonly string[];
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
  if (!definition) {
    const names = strategyNames();
    const suggestion = suggestOption(String(name), names);
    throw new InvalidOptionError('strategy', name, `one of ${names.join(', ')}${suggestion ? `; did you mean ${suggestion}?` : ''}`);
  }
  return definition.create(normalizeOptions(definition, options));
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

const SIZE_OVERLAP = { size: 'chunkSize', overlap: 'chunkOverlap' } as const;

registerStrategy({
  name: 'sliding',
  description: 'windows of windowSize units moved by stride units',
  schema: SLIDING_SCHEMA,
  budget: { size: 'windowSize', overlap: 'stride', overlapAsStride: true },
  create: (o) => new SlidingWindowChunker(o),
});
registerStrategy({
  name: 'fixed',
  description: 'chunks of chunkSize units overlapping by chunkOverlap units',
  schema: FIXED_SCHEMA,
  budget: SIZE_OVERLAP,
  create: (o) => new FixedSizeChunker(o),
});
registerStrategy({
  name: 'sentence',
  description: 'whole sentences (Intl.Segmenter, locale) packed up to chunkSize units, overlapSentences shared',
  schema: SENTENCE_SCHEMA,
  budget: { size: 'chunkSize' },
  create: (o) => new SentenceChunker(o as SentenceChunkerOptions),
});
registerStrategy({
  name: 'recursive',
  description: 'split on separators (paragraph, line, sentence end, space, grapheme) where still too large, merged up to chunkSize units',
  schema: RECURSIVE_SCHEMA,
  budget: SIZE_OVERLAP,
  extensions: ['.txt'],
  create: (o) => new RecursiveChunker(o as RecursiveOptions),
});
registerStrategy({
  name: 'markdown',
  description: 'Markdown by heading sections: heading paths, whole code blocks and tables, chunkSize units',
  schema: MARKDOWN_SCHEMA,
  budget: SIZE_OVERLAP,
  extensions: ['.md', '.markdown', '.mdx'],
  create: (o) => new MarkdownChunker(o as MarkdownOptions),
});
registerStrategy({
  name: 'html',
  description: 'HTML by blocks: heading paths, whole lists, pre blocks and tables (over-long tables by labelled rows), landmarks (nav, aside, page header/footer) dropped; chunkSize units of visible text',
  schema: HTML_SCHEMA,
  budget: SIZE_OVERLAP,
  extensions: ['.html', '.htm', '.xhtml'],
  create: (o) => new HtmlChunker(o as HtmlOptions),
});
registerStrategy({
  name: 'parent-child',
  description: 'parents of parentSize units (Markdown-aware) and children of childSize units with parentId',
  schema: PARENT_CHILD_SCHEMA,
  budget: { size: 'childSize', overlap: 'childOverlap' },
  create: (o) => new ParentChildChunker(o as ParentChildOptions),
});
registerStrategy({
  name: 'semantic',
  description: 'breaks where neighbouring sentences drift apart (breakpoint: percentile, standardDeviation, interquartile, gradient); maxChunkSize (or chunkSize) caps chunks',
  schema: SEMANTIC_SCHEMA,
  budget: { size: 'maxChunkSize' },
  aliases: { chunkSize: 'maxChunkSize' },
  create: (o) => new SemanticChunker(o as SemanticOptions),
});

registerStrategy({
  name: 'code',
  description: 'source code by syntax (tree-sitter): whole functions, classes and statements where they fit, split at child statements where not; symbol paths, line ranges',
  schema: CODE_SCHEMA,
  budget: { size: 'chunkSize' },
  extensions: CODE_EXTENSIONS,
  // tree-sitter loads on the first chunk() (a Promise): the root entry never imports it
  create: (o) => new LazyCodeChunker(o as CodeChunkerOptions),
});

/** The options of late chunking itself; the rest go to its span strategy. */
export const LATE_SCHEMA: StrategySchema = {
  name: 'late',
  options: {
    embedder: {
      type: 'object',
      doc: 'a token-level model (`embedTokens`), e.g. OnnxEmbedder; CLI `--embedder onnx:<folder>`',
      shape: OPTION_SHAPES.tokenEmbedder,
    },
    spans: { type: 'string', default: 'fixed', doc: 'the strategy that supplies the spans (default fixed, 256 tokens, no overlap); its options are passed on', cli: { placeholder: '<strategy>' } },
    macroOverlap: { type: 'number', min: 0, max: 0.9, default: 0.25, doc: "share of a macro window's tokens the next one repeats (documents longer than the model's context)" },
  },
};

registerStrategy({
  name: 'cluster-semantic',
  description: "Chroma's ClusterSemanticChunker: ~50-token pieces (recursive splitter) embedded, chunk boundaries by dynamic programming maximising within-chunk similarity; maxChunkSize (or chunkSize) caps chunks",
  schema: CLUSTER_SEMANTIC_SCHEMA,
  budget: { size: 'maxChunkSize' },
  aliases: { chunkSize: 'maxChunkSize' },
  create: (o) => new ClusterSemanticChunker(o as ClusterSemanticOptions),
});
registerStrategy({
  name: 'late',
  description: 'late chunking: spans from another strategy (spans, default fixed), vectors pooled from one pass of a token-level model (needs embedder)',
  schema: LATE_SCHEMA,
  passThrough: true,
  create: (o) => {
    const own: Record<string, unknown> = {};
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) (k in LATE_SCHEMA.options ? own : rest)[k] = v;
    if (own.embedder === undefined) throw new InvalidOptionError('embedder', undefined, 'late chunking needs a token-level model, e.g. --embedder onnx:<folder>');
    const r = resolveOptions<{ embedder: TokenEmbedder; spans: string; macroOverlap: number }>(LATE_SCHEMA, own);
    if (r.spans === 'late') throw new InvalidOptionError('spans', r.spans, 'a span strategy other than late');
    const defaults = r.spans === 'fixed' ? { chunkSize: 256, chunkOverlap: 0 } : {};
    return new LateChunker({ embedder: r.embedder, chunker: createChunker(r.spans, { ...defaults, ...rest }), macroOverlap: r.macroOverlap });
  },
});
