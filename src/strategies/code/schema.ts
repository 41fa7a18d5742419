/**
 * The code strategy's options schema and its lazy registry entry: what the root entry
 * knows of the code strategy without loading tree-sitter. The registry's `code` entry
 * builds a {@link LazyCodeChunker}, whose `chunk()` returns a Promise: on first use it
 * imports the implementation (`./code.js`, which imports web-tree-sitter) by a computed
 * specifier that bundlers do not follow, or takes the one that `chunkwise/code`
 * provided when it was imported (browsers and edge runtimes import it themselves).
 * Core module: no Node built-ins, no tree-sitter.
 * @module
 */
import type { Chunk } from '../../engine/chunk.js';
import { InvalidOptionError, MissingDependencyError } from '../../engine/errors.js';
import { importNodeHelper, isNode } from '../../engine/runtime.js';
import { typed, type OptionsOf, type StrategySchema } from '../../engine/options/schema.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { tagOf, type WasmSource } from '../../engine/wasm-source.js';

export { tagOf, type WasmSource };
import { capacitySchema, defineStrategy } from '../../engine/define.js';
import { documentIdOf, type ChunkCallOptions } from '../../engine/ids.js';
import { requireText } from '../../engine/text.js';
import { CODE_EXTENSIONS, CODE_LANGUAGE_NAMES, CODE_LANGUAGES, codeLanguage, languageForPath, type CodeLanguageSpec } from './languages.js';

const isWasmSource = (v: unknown) => typeof v === 'string' || v instanceof URL || ['Uint8Array', 'ArrayBuffer', 'WebAssembly.Module'].includes(tagOf(v));
const wasmSourceProblem = (v: unknown) => (isWasmSource(v) ? undefined : 'must be bytes (Uint8Array, ArrayBuffer), a URL or path, or a WebAssembly.Module');

/** The options schema of the code strategy. */
export const CODE_SCHEMA = capacitySchema(
  'code',
  {
    language: {
      type: 'enum',
      values: CODE_LANGUAGE_NAMES,
      doc: 'the source language; default: from the file extension (the CLI passes each file name)',
      cli: { placeholder: '<name>' },
    },
    filename: { type: 'string', doc: 'the file path: chooses the language by extension and heads the context header', cli: { placeholder: '<path>' } },
    contextHeaders: { type: 'boolean', default: false, doc: 'prefix embedText with a context header: file, imports, enclosing signatures (text unchanged)' },
    grammar: typed<WasmSource>()({ type: 'json', cli: false, doc: 'the grammar .wasm: bytes, a URL or path, or a WebAssembly.Module', check: wasmSourceProblem }),
    grammarBase: { type: 'string', doc: 'a URL or folder of tree-sitter-<grammar>.wasm files (default in Node: the tree-sitter-wasms package)', cli: { placeholder: '<url-or-dir>' } },
    treeSitterWasm: typed<WasmSource>()({ type: 'json', cli: false, doc: "web-tree-sitter's tree-sitter.wasm: bytes, a URL or a WebAssembly.Module", check: wasmSourceProblem }),
  },
  { size: 'budget per chunk, in units (embedText with its context header too)', overlap: false },
) satisfies StrategySchema;

/** Options of {@link CodeChunker}: read from {@link CODE_SCHEMA} (`language` one of {@link CODE_LANGUAGE_NAMES}; default from `filename`'s extension). */
export type CodeChunkerOptions = OptionsOf<typeof CODE_SCHEMA>;

/**
 * The language of resolved code options: `language`, else `filename`'s extension.
 * @throws {InvalidOptionError} when neither names a supported language.
 */
export function resolveCodeLanguage(o: { language?: string; filename?: string }): CodeLanguageSpec {
  if (o.language !== undefined) {
    const spec = codeLanguage(o.language);
    if (!spec) throw new InvalidOptionError('language', o.language, `one of ${CODE_LANGUAGE_NAMES.join(', ')}`);
    return spec;
  }
  if (o.filename !== undefined) {
    const spec = languageForPath(o.filename);
    if (spec) return spec;
    throw new InvalidOptionError(
      'filename',
      o.filename,
      `its extension names no supported language (${CODE_LANGUAGES.map((l) => l.extensions.join(' ')).join(' ')}); give language`,
    );
  }
  throw new InvalidOptionError('language', undefined, `give language (${CODE_LANGUAGE_NAMES.join(', ')}) or a filename with a known extension`);
}

/** What the implementation module gives the lazy entry. */
export interface CodeModule {
  CodeChunker: { create(options: CodeChunkerOptions): Promise<LoadedCodeChunker> };
}

/** What the lazy entry uses of a loaded `CodeChunker`. */
interface LoadedCodeChunker {
  chunk(text: string, options?: ChunkCallOptions): Chunk[];
  spans(text: string): PlannedChunk[];
  ready(): Promise<void>;
  lastFallback: string | undefined;
}

/**
 * Where `./code.js` leaves itself when evaluated: a global slot, so that a separately
 * bundled `chunkwise/code` (browsers) reaches the root bundle's registry too.
 */
const SLOT = Symbol.for('chunkwise.code');
const slot = globalThis as { [SLOT]?: CodeModule };

/** Called by `./code.js` when it is evaluated: the registry's `code` entry uses it from then on. @internal */
export function provideCodeModule(module: CodeModule): void {
  slot[SLOT] ??= module;
}

/** `import(path)` with a specifier bundlers do not follow (it keeps web-tree-sitter out of the root entry's graph). */
async function importModule<T>(path: string): Promise<T> {
  return (await import(/* @vite-ignore */ path)) as T;
}

/** The implementation of the code strategy, imported on first use. */
async function loadCodeModule(): Promise<CodeModule> {
  if (slot[SLOT]) return slot[SLOT];
  try {
    const m = await importModule<CodeModule>('./code.js');
    return (slot[SLOT] ??= m);
  } catch (cause) {
    throw new MissingDependencyError(
      'web-tree-sitter',
      "The code strategy (in browsers and edge runtimes, load the chunkwise/code entry first: the implementation is not beside this bundle)",
      cause,
    );
  }
}

/** One line for `--help` and the docs. */
export const CODE_DESCRIPTION = 'source code by syntax (tree-sitter): whole functions, classes and statements where they fit, split at child statements where not; symbol paths, line ranges';

/**
 * The registry's code chunker, the code strategy's registry entry: options validated
 * now, tree-sitter and the grammar loaded on the first `chunk()` (which therefore returns
 * a Promise), so the root entry never imports tree-sitter.
 * @throws {InvalidOptionError} at construction for invalid options or no language (see {@link resolveCodeLanguage}).
 */
export class LazyCodeChunker extends defineStrategy({
  name: 'code',
  description: CODE_DESCRIPTION,
  schema: CODE_SCHEMA,
  extensions: CODE_EXTENSIONS,
  async: true,
}) {
  #ready: Promise<LoadedCodeChunker> | undefined;
  #loaded: LoadedCodeChunker | undefined;

  constructor(options: CodeChunkerOptions = {}) {
    super(options);
    resolveCodeLanguage(this.options);
  }

  /** The loaded chunker (after a tree-sitter abort, once the fresh runtime is loaded). */
  async #chunker(): Promise<LoadedCodeChunker> {
    this.#ready ??= loadCodeModule().then((m) => m.CodeChunker.create(this.options));
    const chunker = (this.#loaded = await this.#ready);
    await chunker.ready(); // after a tree-sitter abort: the fresh runtime, in Node
    return chunker;
  }

  /** The planned chunks of `text` (see `CodeChunker.spans`). */
  async spans(text: string): Promise<PlannedChunk[]> {
    return (await this.#chunker()).spans(text);
  }

  /**
   * Chunks `text` (see `CodeChunker.chunk`; after a tree-sitter abort, once the fresh
   * runtime is loaded).
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string; {@link MissingDependencyError}
   *   or `GrammarLoadError` when tree-sitter or the grammar cannot be loaded.
   */
  override async chunk(text: string, options?: ChunkCallOptions): Promise<Chunk[]> {
    requireText(text);
    documentIdOf(options);
    return (await this.#chunker()).chunk(text, options);
  }

  /** `CodeChunker.lastFallback` of the last `chunk` call: why it used the recursive splitter, or undefined. */
  get lastFallback(): string | undefined {
    return this.#loaded?.lastFallback;
  }

  /**
   * The optional packages this chunker needs that are not installed (in Node: web-tree-sitter,
   * and tree-sitter-wasms for the packaged grammars), all at once, without loading them;
   * `[]` outside Node, where what is given (`grammar`, `grammarBase`) is checked on use.
   */
  async missingPackages(): Promise<string[]> {
    if (!isNode()) return [];
    const helper = await importNodeHelper<typeof import('./code-grammars.js')>('strategies/code/code-grammars');
    return helper.missingCodePackages(this.options.grammar === undefined && this.options.grammarBase === undefined);
  }
}
