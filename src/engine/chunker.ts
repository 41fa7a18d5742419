/**
 * The chunker: what every strategy, composition and adapter takes or returns.
 * @module
 */
import type { Chunk } from './chunk.js';
import type { ChunkCallOptions } from './ids.js';
import { InvalidOptionError } from './errors.js';
import type { StrategySchema } from './options/schema.js';

/** Text given piece by piece. Bytes: pipe them through `TextDecoderStream` first. */
export type TextSource = ReadableStream<string> | AsyncIterable<string> | Iterable<string>;

/** Anything that turns a text into chunks (synchronously or not). */
export interface Chunker {
  /**
   * The chunks of `text`. `options.documentId` (default `''`) enters every chunk id
   * (content-addressed ids: docs/architecture.md "Determinism"); pass the document's
   * id (a file path, a database key) to make ids unique across documents.
   */
  chunk(text: string, options?: ChunkCallOptions): Chunk[] | Promise<Chunk[]>;
  /**
   * Optional streaming form: yields what `chunk(wholeText, options)` returns, as chunks
   * are decided (see `src/engine/stream/index.ts`, docs/streaming.md). The CLI streams files
   * through it when present.
   */
  chunkStream?(source: TextSource, options?: ChunkCallOptions): AsyncIterable<Chunk>;
}

/** Options any strategy may take; each strategy reads the ones it knows. */
export type StrategyOptions = Record<string, unknown>;

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
  /**
   * Builds the chunker from validated options; `chunker` builds another registered
   * strategy (late chunking's span strategy) without importing the registry.
   */
  create(options: StrategyOptions, chunker: (name: string, options: StrategyOptions) => Chunker): Chunker;
}

/** The fields a strategy definition may have (`defineStrategy`'s spec adds `stream` and `spans`). */
const DEFINITION_KEYS = new Set(['name', 'description', 'schema', 'budget', 'aliases', 'passThrough', 'extensions', 'create']);

/**
 * Checks a strategy definition before it is registered or defined: a non-empty `name`, a
 * `schema` with `options`, a `create` function (where `needsCreate`), `extensions` an
 * array of strings starting with `.`, `budget` options the schema has, and no key it does
 * not know (`extra` names the ones a caller adds).
 * @throws {InvalidOptionError} naming the first bad field (`definition.name`, …).
 */
export function checkStrategyDefinition(d: unknown, needsCreate: boolean, extra: readonly string[] = []): void {
  const bad = (field: string, value: unknown, expected: string) => new InvalidOptionError(`definition.${field}`, value, expected);
  if (d === null || typeof d !== 'object') throw new InvalidOptionError('definition', d, 'an object with name, schema and create');
  const def = d as Record<string, unknown>;
  for (const key of Object.keys(def)) if (!DEFINITION_KEYS.has(key) && !extra.includes(key)) throw bad(key, def[key], `no such field (fields: ${[...DEFINITION_KEYS, ...extra].join(', ')})`);
  if (typeof def.name !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/i.test(def.name)) throw bad('name', def.name, 'a non-empty name of letters, digits, ".", "_" or "-"');
  const schema = def.schema as { options?: unknown } | undefined;
  if (schema === null || typeof schema !== 'object' || schema.options === null || typeof schema.options !== 'object') throw bad('schema', schema, 'an options schema ({ name, options })');
  if (needsCreate && typeof def.create !== 'function') throw bad('create', def.create, 'a function (options) => chunker');
  if (def.extensions !== undefined && (!Array.isArray(def.extensions) || def.extensions.some((e) => typeof e !== 'string' || !e.startsWith('.')))) {
    throw bad('extensions', def.extensions, 'an array of extensions such as [".json"]');
  }
  const budget = def.budget as Record<string, unknown> | undefined;
  if (budget !== undefined) {
    for (const key of ['size', 'overlap'] as const) {
      const name = budget?.[key];
      if ((key === 'size' || name !== undefined) && (typeof name !== 'string' || !(name in (schema.options as object)))) throw bad(`budget.${key}`, name, 'the name of an option of the schema');
    }
  }
}

