/**
 * Code chunking: syntax-aware chunks of source code, parsed by tree-sitter
 * (web-tree-sitter: WebAssembly, the same parser in Node, browsers and edge runtimes)
 * with prebuilt grammars (`tree-sitter-wasms`).
 *
 * The strategy is its boundaries (`src/segment/code.ts`: syntax nodes, comments and
 * decorators attached to what follows them, large definitions opened up at their child
 * statements) and its options schema (`./code-schema.ts`); packing is the shared
 * packer's greedy policy (`src/plan/pack.ts`), a leaf too large for the budget (a huge
 * string literal or comment) is split by the recursive splitter, chunks come from the
 * shared assembler. This module imports web-tree-sitter (dynamically, on first use);
 * the root entry reaches it only through the registry's lazy entry or `chunkwise/code`.
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { GrammarLoadError, InvalidOptionError, MissingDependencyError } from '../core/errors.js';
import { importNodeHelper, isNode } from '../core/runtime.js';
import { resolveOptions } from '../core/schema.js';
import { isBlank, requireText } from '../core/text.js';
import { documentIdOf, type ChunkCallOptions, workOf } from '../core/ids.js';
import { Assembler, type PlannedChunk } from '../plan/assemble.js';
import { SpanLevel } from '../plan/levels.js';
import { splitRange } from '../plan/fallback.js';
import { pack, type PackLevel, type PackStats } from '../plan/pack.js';
import {
  childItems,
  expandItem,
  syntaxDefinitions,
  syntaxErrorSpans,
  syntaxSections,
  topLevelTexts,
  type SyntaxDefinition,
  type SyntaxNode,
  type SyntaxScope,
  type SyntaxSections,
  type SyntaxStats,
} from '../segment/code.js';
import type { CodeLanguageSpec } from '../segment/code-languages.js';
import { rangeMeasure, type RangeMeasure } from '../size/measure.js';
import { resolveUnits, type ResolvedUnits, chunkCounters } from '../size/resolve.js';
import { CODE_SCHEMA, provideCodeModule, resolveCodeLanguage, tagOf, type CodeChunkerOptions, type WasmSource } from './code-schema.js';
import { upperBound } from '../core/search.js';
import { addWork, type Work } from '../core/work.js';

export { CODE_SCHEMA, type CodeChunkerOptions, type WasmSource } from './code-schema.js';
export { CODE_LANGUAGES, CODE_EXTENSIONS, languageForPath, type CodeLanguageSpec } from '../segment/code-languages.js';
export type { SyntaxDefinition } from '../segment/code.js';

/**
 * The part of web-tree-sitter 0.25 the chunker uses, declared here: web-tree-sitter's own
 * types are an ambient `declare module`, which clashes with another copy's (LlamaIndex
 * depends on web-tree-sitter 0.24) wherever both are in one program.
 */
interface TSLanguage {
  readonly abiVersion: number;
}
interface TSParser {
  setLanguage(language: TSLanguage): void;
  parse(text: string, oldTree?: null, options?: { progressCallback?: (state: { currentOffset: number }) => boolean }): { rootNode: unknown; delete(): void } | null;
  delete(): void;
}
interface TreeSitter {
  Parser: { new (): TSParser; init(options?: Record<string, unknown>): Promise<void> };
  Language: { load(input: Uint8Array): Promise<TSLanguage> };
}

/** Metadata of a code chunk, after the common fields. */
export interface CodeChunkMetadata {
  /** The language name (`typescript`, `python`, …). */
  language: string;
  /** Enclosing definitions, outermost first (`["class Help", "method formatHelp"]`); a chunk that is one whole definition ends with it. */
  symbolPath: string[];
  /** The definitions the chunk holds whole, at its own level. */
  symbols: string[];
  /** 1-based line of the chunk's first character. */
  startLine: number;
  /** 1-based line of the chunk's last character. */
  endLine: number;
  /** Present (true) when the chunk holds text tree-sitter could not parse (it recovered; the chunk is still exact). */
  syntaxErrors?: true;
  /**
   * Present when the file was chunked by the recursive splitter instead of its syntax
   * tree: why (the parse ran past its work or time budget, or the tree-sitter runtime
   * aborted). `symbolPath` and `symbols` are then empty.
   */
  fallback?: string;
}

/**
 * A node taken as too large without measuring when it is longer than this many UTF-16
 * code units per token of the budget (code averages 3–4): bounds the tokenizer's work on
 * deeply nested input, keeping the whole chunking linear. Its children are placed
 * instead, and the packer joins them back where they fit.
 */
const CODE_UNITS_PER_TOKEN_CAP = 16;

// ---------------------------------------------------------------- loading

/**
 * The parse budget. tree-sitter calls the progress callback every 100 parser operations;
 * valid code takes 7–9 calls per 1,000 code units (minified JavaScript ~20) and generated
 * garbage at most ~50 (all 12 grammars), while a GLR stack explosion (the TypeScript and TSX grammars on
 * `[l=b?>'e\n"r}{#`) takes thousands for a few characters, each slower than the last
 * (10 ms apiece after a second), and runs for minutes until the runtime aborts. A parse
 * past {@link PARSE_BASE_STEPS} + length / {@link PARSE_UNITS_PER_STEP} calls (the
 * deterministic bound) is cancelled; so is one past {@link PARSE_BASE_MS} + length /
 * {@link PARSE_UNITS_PER_MS} milliseconds (10× what valid code takes: the bound on slow
 * steps) once it has made more than {@link PARSE_TIMED_STEPS} + length /
 * {@link PARSE_UNITS_PER_TIMED_STEP} calls (40 per 1,000), which valid code does not reach (so a
 * loaded machine, or a grammar's first parse while V8 compiles it, never changes how
 * valid code is chunked).
 */
const PARSE_BASE_STEPS = 100;
const PARSE_UNITS_PER_STEP = 4;
const PARSE_BASE_MS = 500;
const PARSE_UNITS_PER_MS = 100;
const PARSE_TIMED_STEPS = 16;
const PARSE_UNITS_PER_TIMED_STEP = 25;

/** web-tree-sitter's module, once per runtime: a runtime that aborted is replaced by a fresh one (Node) and its grammars loaded again. */
let runtime: Promise<TreeSitter> | undefined;
/** Counts runtimes: a chunker whose parser belongs to an older one builds a new parser. */
let generation = 0;
/** The `treeSitterWasm` source the first runtime was built from (a fresh runtime is built from it too). */
let runtimeSource: WasmSource | undefined;
/** Why no fresh runtime can be had (outside Node, where web-tree-sitter's module cannot be loaded twice). */
let runtimeLost: string | undefined;

/**
 * Drops the current tree-sitter runtime after it aborted (Emscripten's `Aborted()`, a
 * trap): its memory and tables may be corrupt, so nothing of it (parsers, grammars) is
 * used again. The next load builds a fresh module.
 */
function discardRuntime(reason: string): void {
  generation++;
  runtime = undefined;
  byKey.clear();
  byObject = new WeakMap();
  if (!isNode()) runtimeLost = `the tree-sitter runtime aborted (${reason}); outside Node it cannot be loaded again in this realm: reload the page or worker`;
}

/** Bytes of an ArrayBuffer or Uint8Array source. */
const bytesOf = (s: Uint8Array | ArrayBuffer) => (tagOf(s) === 'Uint8Array' ? (s as Uint8Array) : new Uint8Array(s));
// by tag, not instanceof: a module compiled in another realm (an edge runtime's VM) is one too
// (and not a type guard: WebAssembly.Module's type is empty, so a guard would narrow every object away)
const isModule = (s: unknown): boolean => tagOf(s) === 'WebAssembly.Module';

/** web-tree-sitter, initialised once per process (its WebAssembly module is a singleton: the first source given wins). */
function loadRuntime(given: WasmSource | undefined): Promise<TreeSitter> {
  if (runtimeLost !== undefined) return Promise.reject(new Error(runtimeLost));
  if (generation === 0) runtimeSource ??= given;
  const source = generation === 0 ? given : runtimeSource;
  const fresh = generation;
  runtime ??= (async () => {
    let ts: TreeSitter;
    try {
      if (fresh === 0) ts = (await import('web-tree-sitter')) as unknown as TreeSitter;
      else {
        // a fresh copy of the module (its Emscripten instance is a module-level singleton)
        const helper = await importNodeHelper<typeof import('../node/code-grammars.js')>('code-grammars');
        ts = (await helper.importFreshTreeSitter(fresh)) as TreeSitter;
      }
    } catch (cause) {
      throw new MissingDependencyError('web-tree-sitter', 'The code strategy', cause);
    }
    const init: Record<string, unknown> = {};
    if (isModule(source)) {
      const module = source as WebAssembly.Module;
      init.instantiateWasm = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
        const instance = new WebAssembly.Instance(module, imports);
        done(instance, module);
        return instance.exports;
      };
    } else if (typeof source === 'object' && !(source instanceof URL)) init.wasmBinary = bytesOf(source as Uint8Array);
    else if (source !== undefined) init.locateFile = () => String(source);
    try {
      await withWorkerLocation(() => ts.Parser.init(init));
    } catch (cause) {
      throw new GrammarLoadError('tree-sitter runtime', source === undefined ? 'web-tree-sitter/tree-sitter.wasm' : describeSource(source), String((cause as Error)?.message ?? cause));
    }
    loaded.clear(); // the runtime of an older generation is never used again
    loaded.set(fresh, ts);
    return ts;
  })();
  const p = runtime;
  p.catch(() => {
    if (runtime === p) runtime = undefined;
  });
  return p;
}

/** The runtimes loaded, by generation: a chunker builds its parsers synchronously from its own. */
const loaded = new Map<number, TreeSitter>();

/** The loaded runtime of `at` (set when its load resolved, before any chunker of it exists). */
function loadedRuntime(at: number): TreeSitter {
  const ts = loaded.get(at);
  if (!ts) throw new GrammarLoadError('tree-sitter runtime', 'web-tree-sitter', 'not loaded');
  return ts;
}

/**
 * Runs `init` with a stand-in `self.location` where a WorkerGlobalScope has none
 * (workerd): web-tree-sitter 0.25's Emscripten loader reads `self.location.href` in any
 * worker scope to find its own files, which it does not need when given the compiled
 * module (`instantiateWasm`).
 */
async function withWorkerLocation<T>(init: () => Promise<T>): Promise<T> {
  const g = globalThis as { WorkerGlobalScope?: unknown; location?: unknown };
  if (g.WorkerGlobalScope === undefined || g.location !== undefined) return init();
  Object.defineProperty(globalThis, 'location', { value: { href: '' }, configurable: true, writable: true });
  try {
    return await init();
  } finally {
    delete g.location;
  }
}

function describeSource(s: WasmSource): string {
  if (typeof s === 'string') return s;
  if (s instanceof URL) return s.href;
  return isModule(s) ? 'WebAssembly.Module' : `${bytesOf(s as Uint8Array).length} bytes`;
}

/** Grammars loaded, by language and source (URL or `default`); byte and module sources by identity. */
const byKey = new Map<string, Promise<TSLanguage>>();
let byObject = new WeakMap<object, Promise<TSLanguage>>();

/** The grammar of `spec` from the options' source, loaded once. */
function loadGrammar(ts: TreeSitter, spec: CodeLanguageSpec, o: CodeChunkerOptions): Promise<TSLanguage> {
  const source = o.grammar ?? (o.grammarBase !== undefined ? joinUrl(o.grammarBase, `tree-sitter-${spec.grammar}.wasm`) : undefined);
  if (source !== undefined && typeof source === 'object' && !(source instanceof URL)) {
    // bytes or a module: cached by identity
    let p = byObject.get(source);
    if (!p) byObject.set(source, (p = grammarFrom(ts, spec, source)));
    return p;
  }
  const key = `${spec.name}\u0000${source === undefined ? 'default' : String(source)}`;
  let p = byKey.get(key);
  if (!p) {
    byKey.set(key, (p = grammarFrom(ts, spec, source)));
    p.catch(() => byKey.delete(key));
  }
  return p;
}

function joinUrl(base: string, file: string): string {
  return base.endsWith('/') || base.endsWith('\\') ? base + file : `${base}/${file}`;
}

async function grammarFrom(ts: TreeSitter, spec: CodeLanguageSpec, source: WasmSource | undefined): Promise<TSLanguage> {
  const what = source === undefined ? `tree-sitter-wasms/out/tree-sitter-${spec.grammar}.wasm` : describeSource(source);
  let input: Uint8Array | WebAssembly.Module;
  if (source === undefined) {
    if (!isNode()) {
      throw new GrammarLoadError(spec.name, what, 'outside Node give grammar (bytes, a URL or a WebAssembly.Module) or grammarBase (a URL of the tree-sitter-wasms out/ folder)');
    }
    const helper = await importNodeHelper<typeof import('../node/code-grammars.js')>('code-grammars');
    input = await helper.readPackagedGrammar(spec.grammar, spec.name);
  } else if (typeof source === 'string' || source instanceof URL) {
    const url = String(source);
    if (isNode() && !/^(https?|data|blob):/i.test(url)) {
      const helper = await importNodeHelper<typeof import('../node/code-grammars.js')>('code-grammars');
      input = await helper.readGrammarFile(source, spec.name);
    } else {
      let response: Response;
      try {
        response = await fetch(url);
      } catch (cause) {
        throw new GrammarLoadError(spec.name, url, String((cause as Error)?.message ?? cause));
      }
      if (!response.ok) throw new GrammarLoadError(spec.name, url, `HTTP ${response.status}`);
      input = new Uint8Array(await response.arrayBuffer());
    }
  } else input = isModule(source) ? (source as WebAssembly.Module) : bytesOf(source as Uint8Array);
  try {
    return isModule(input) ? await languageFromModule(ts, input as WebAssembly.Module) : await ts.Language.load(input as Uint8Array);
  } catch (cause) {
    if (cause instanceof GrammarLoadError) throw cause;
    const message = String((cause as Error)?.message || cause || 'not a tree-sitter grammar');
    throw new GrammarLoadError(spec.name, what, `${message || 'not a tree-sitter grammar'} (web-tree-sitter 0.25 reads grammars of ABI 13–15 built by tree-sitter-cli ≤ 0.25, e.g. tree-sitter-wasms 0.1)`);
  }
}

/**
 * A grammar from a compiled `WebAssembly.Module` (Cloudflare Workers compile WebAssembly
 * only from modules imported at deploy time). `Language.load` takes bytes only and would
 * compile them; Emscripten's loader beneath it takes a module too. So `Language.load` is
 * given a stand-in: the wasm header and the module's `dylink` section (what the loader
 * reads before instantiating), and `WebAssembly.instantiate` maps exactly that stand-in
 * to the module while the call runs.
 */
async function languageFromModule(ts: TreeSitter, module: WebAssembly.Module): Promise<TSLanguage> {
  let name = 'dylink.0';
  let sections = WebAssembly.Module.customSections(module, name);
  if (sections.length === 0) sections = WebAssembly.Module.customSections(module, (name = 'dylink'));
  if (sections.length === 0) throw new Error('the module has no dylink section: not a tree-sitter grammar');
  const body = new Uint8Array(sections[0]);
  const nameBytes = new TextEncoder().encode(name);
  const payload = [...leb(nameBytes.length), ...nameBytes, ...body];
  const stub = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x00, ...leb(payload.length), ...payload]);
  const wasm = WebAssembly as unknown as { instantiate: (bytes: unknown, imports?: WebAssembly.Imports) => Promise<unknown> };
  const original = wasm.instantiate;
  wasm.instantiate = (bytes: unknown, imports?: WebAssembly.Imports) =>
    bytes === stub ? Promise.resolve({ module, instance: new WebAssembly.Instance(module, imports) }) : original.call(WebAssembly, bytes, imports);
  try {
    return await ts.Language.load(stub);
  } finally {
    wasm.instantiate = original;
  }
}

/** Unsigned LEB128. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

// ---------------------------------------------------------------- the chunker

const INTERNAL = Symbol('CodeChunker');

/**
 * Chunks source code at syntax boundaries: a function, method, class or top-level
 * statement that fits the budget is never cut; one that does not is opened up at its
 * child statements, recursively (its signature starts its first chunk), never inside a
 * token except a single token (a string literal, a comment) larger than the budget,
 * which the recursive splitter cuts at line breaks and spaces; consecutive small items
 * are packed together up to the budget (the shared greedy packer). Comments and
 * decorators / attributes directly before an item stay with it.
 *
 * Chunks are exact slices (`text === source.slice(start, end)`), trimmed to their
 * non-whitespace ends, and cover every non-whitespace character. Metadata:
 * {@link CodeChunkMetadata} (`language`, `symbolPath`, `symbols`, `startLine`,
 * `endLine`, `syntaxErrors`). With `contextHeaders`, `embedText` is a comment header
 * (file, imports, enclosing signatures, shortened until it takes at most half the
 * budget) plus the text, and the budget holds for it too. Files with syntax errors
 * chunk all the same (tree-sitter recovers); their chunks that hold an error say so.
 * Time is linear in the text (see the `operations` counted into `chunk(text, { work })`).
 *
 * Loading is asynchronous (web-tree-sitter compiles WebAssembly): build with
 * `await CodeChunker.create(options)`. In Node the grammar comes from the
 * `tree-sitter-wasms` package; elsewhere pass `grammar` (bytes, URL or
 * `WebAssembly.Module`) or `grammarBase`, and where no bundler serves web-tree-sitter's
 * own `tree-sitter.wasm`, `treeSitterWasm`.
 *
 * @example
 * ```ts
 * import { CodeChunker } from 'chunkwise/code';
 * const chunker = await CodeChunker.create({ filename: 'help.ts', chunkSize: 256 });
 * for (const c of chunker.chunk(source)) console.log(c.metadata.symbolPath, c.metadata.startLine, c.metadata.endLine);
 * ```
 */
export class CodeChunker {
  readonly chunkSize: number;
  readonly language: string;
  readonly filename: string | undefined;
  readonly contextHeaders: boolean;
  readonly unit: ResolvedUnits['unit'];
  readonly encoding: string;
  readonly #resolved: ResolvedUnits;
  readonly #spec: CodeLanguageSpec;
  readonly #options: Required<CodeChunkerOptions>;
  #parser: TSParser | undefined;
  #language: TSLanguage;
  /** The runtime generation #parser belongs to. */
  #generation: number;
  /** A parser being built on a fresh runtime, after the one of #generation aborted. */
  #rebuilding: Promise<void> | undefined;
  /** Why the last rebuild failed (the file then chunks by the recursive splitter). */
  #rebuildFailed: string | undefined;
  /** Why the last `chunk` call chunked by the recursive splitter instead of the syntax tree (its chunks' `metadata.fallback`), or undefined. */
  lastFallback: string | undefined;

  /**
   * Loads tree-sitter and the grammar, then builds the chunker.
   * @throws {InvalidOptionError} for an unknown option, chunkSize not an integer ≥ 1, an
   *   unknown language, or neither language nor a filename with a known extension.
   * @throws {MissingDependencyError} when web-tree-sitter (or, for the default grammars
   *   in Node, tree-sitter-wasms) is not installed.
   * @throws {GrammarLoadError} when the grammar cannot be read or loaded (a file or URL
   *   that is missing, bytes that are not a grammar, a grammar of another ABI).
   */
  static async create(options: CodeChunkerOptions = {}): Promise<CodeChunker> {
    const o = resolveOptions<CodeChunkerOptions>(CODE_SCHEMA, options);
    const spec = resolveCodeLanguage(o);
    const units = resolveUnits(o);
    const at = generation;
    const ts = await loadRuntime(o.treeSitterWasm);
    const language = await loadGrammar(ts, spec, o);
    return new CodeChunker(INTERNAL, o, spec, units, language, at === generation ? at : -1);
  }

  /**
   * Use {@link CodeChunker.create}.
   * @throws {InvalidOptionError} (option `new CodeChunker`, naming what was passed) when
   *   called directly: loading tree-sitter and the grammar is asynchronous.
   */
  constructor(internal: typeof INTERNAL, o: Required<CodeChunkerOptions>, spec: CodeLanguageSpec, units: ResolvedUnits, language: TSLanguage, at: number) {
    if (internal !== INTERNAL) {
      throw new InvalidOptionError('new CodeChunker', internal, 'the constructor is internal: build it with await CodeChunker.create(options), since loading tree-sitter and the grammar is asynchronous');
    }
    this.chunkSize = o.chunkSize;
    this.language = spec.name;
    this.filename = o.filename;
    this.contextHeaders = o.contextHeaders;
    this.#resolved = units;
    this.unit = units.unit;
    this.encoding = units.encoding;
    this.#spec = spec;
    this.#options = o;
    this.#language = language;
    this.#generation = at;
  }

  /**
   * Resolves when the chunker parses again after the tree-sitter runtime aborted (in Node
   * a fresh runtime and grammar are loaded; until then `chunk` uses the recursive
   * splitter). Never rejects: where no fresh runtime can be had, `chunk` keeps falling
   * back and says why in `metadata.fallback`.
   */
  async ready(): Promise<void> {
    if (this.#generation !== generation && this.#rebuildFailed === undefined) await (this.#rebuilding ??= this.#rebuild());
  }

  async #rebuild(): Promise<void> {
    try {
      const at = generation;
      const ts = await loadRuntime(this.#options.treeSitterWasm);
      this.#language = await loadGrammar(ts, this.#spec, this.#options);
      this.#parser = undefined;
      this.#generation = at === generation ? at : -1;
    } catch (cause) {
      this.#rebuildFailed = String((cause as Error)?.message ?? cause);
    } finally {
      this.#rebuilding = undefined;
    }
  }

  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks. A parse that runs past
   * its budget (see {@link PARSE_BASE_STEPS}: 30 or more times the work of valid code of
   * that length, or, where the work is already unusual, {@link PARSE_BASE_MS} ms plus 10 ms
   * per 1,000 code units), or that
   * aborts the tree-sitter runtime, is given up: the text is chunked by the recursive
   * splitter (linear time) and every chunk's `metadata.fallback` says why; the parser is
   * rebuilt (after an abort, on a fresh runtime: see {@link ready}).
   * @param text the source; offsets are UTF-16 indices into it.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string, options?: ChunkCallOptions): Chunk[] {
    requireText(text);
    this.lastFallback = undefined;
    if (isBlank(text)) return [];
    const work = workOf(options);
    const planned = this.#withTree(text, (root) => this.#plan(text, root, work), (reason) => this.#fallback(text, reason, work));
    return new Assembler({ strategy: 'code', ...chunkCounters(this.#resolved), documentId: documentIdOf(options) }).add(text, planned);
  }

  /**
   * Every definition in `text` (functions, methods, classes, …, nested ones too) with its
   * span, as the chunker's symbol paths name them: e.g. to check which chunks hold a
   * function whole. None where the parse is given up (see {@link chunk}).
   */
  definitions(text: string): SyntaxDefinition[] {
    requireText(text);
    return this.#withTree(text, (root) => syntaxDefinitions(root, text), () => []);
  }

  /** True when tree-sitter reports a syntax error anywhere in `text`, or gives the parse up (see {@link chunk}). */
  hasSyntaxErrors(text: string): boolean {
    requireText(text);
    return this.#withTree(text, (root) => root.hasError, () => true);
  }

  /** `use` of the syntax tree of `text`, or `otherwise` of the reason the parse was given up. */
  #withTree<T>(text: string, use: (root: SyntaxNode) => T, otherwise: (reason: string) => T): T {
    if (this.#generation !== generation) {
      if (this.#rebuildFailed !== undefined) return otherwise(this.#rebuildFailed);
      this.#rebuilding ??= this.#rebuild();
      return otherwise('the tree-sitter runtime aborted earlier and is being loaded again');
    }
    const parser = (this.#parser ??= this.#newParser());
    const maxSteps = PARSE_BASE_STEPS + Math.ceil(text.length / PARSE_UNITS_PER_STEP);
    const maxMs = PARSE_BASE_MS + text.length / PARSE_UNITS_PER_MS;
    const timedAfter = PARSE_TIMED_STEPS + text.length / PARSE_UNITS_PER_TIMED_STEP;
    let steps = 0;
    let over: string | undefined;
    const t0 = Date.now();
    const progressCallback = () => {
      if (++steps > maxSteps) over = `the parse ran past its work budget (${maxSteps} steps of 100 parser operations for ${text.length} code units)`;
      else if (steps > timedAfter && Date.now() - t0 > maxMs) over = `the parse ran past its time budget (${Math.round(maxMs)} ms for ${text.length} code units)`;
      return over !== undefined;
    };
    let tree: ReturnType<TSParser['parse']>;
    try {
      tree = parser.parse(text, null, { progressCallback });
    } catch (cause) {
      // an abort or a trap: the whole runtime is suspect
      const reason = `tree-sitter aborted (${String((cause as Error)?.message ?? cause)})`;
      this.#parser = undefined;
      discardRuntime(reason);
      this.#rebuilding ??= this.#rebuild();
      return otherwise(reason);
    }
    if (!tree) {
      // cancelled: this parser holds the unfinished parse; a new one starts clean
      this.#parser = undefined;
      parser.delete();
      return otherwise(over ?? 'tree-sitter returned no tree');
    }
    try {
      return use(tree.rootNode as unknown as SyntaxNode);
    } finally {
      tree.delete();
    }
  }

  #newParser(): TSParser {
    const ts = loadedRuntime(this.#generation);
    const parser = new ts.Parser();
    parser.setLanguage(this.#language);
    return parser;
  }

  /** The chunks of `text` by the recursive splitter (no syntax tree), each saying why in `metadata.fallback`. */
  #fallback(text: string, reason: string, work: Work | undefined): PlannedChunk[] {
    this.lastFallback = reason;
    const measure = rangeMeasure(text, this.#resolved.units);
    const ctx = new CodeContext(this, text, measure, this.#spec, [], []);
    const budget = Math.max(1, this.chunkSize - ctx.header([]).size);
    const out = splitRange(measure, 0, text.length, { max: budget }, work).map((p) => {
      const chunk = ctx.emit(p.start, p.end, [], [], [], p.oversized === true);
      chunk.metadata!.fallback = reason;
      return chunk;
    });
    return out;
  }

  /** The syntax tree's chunks; `work` gets `operations` (nodes read, items placed, packer steps, exact measures, sizer calls) and `packSteps`. */
  #plan(text: string, root: SyntaxNode, work: Work | undefined): PlannedChunk[] {
    const measure = rangeMeasure(text, this.#resolved.units);
    const imports = this.contextHeaders ? topLevelTexts(root, this.#spec.imports, text) : [];
    const ctx = new CodeContext(this, text, measure, this.#spec, imports, syntaxErrorSpans(root));
    const level = ctx.level(childItems(root, text, ctx.stats, 0, text.length), []);
    const packStats: PackStats = { steps: 0, exact: 0 };
    const out = pack(level, { max: this.chunkSize }, [], packStats);
    if (work) {
      addWork(work, 'operations', ctx.stats.steps + packStats.steps + packStats.exact + measure.calls);
      addWork(work, 'packSteps', packStats.steps + packStats.exact);
    }
    return out;
  }
}

/** A context header and its size (header plus the line break before the text). */
interface Header {
  text: string;
  size: number;
}

/** What one `chunk` call shares between its levels. */
class CodeContext {
  readonly stats: SyntaxStats = { steps: 0 };
  readonly max: number;
  readonly fits: (start: number, end: number, scope: SyntaxScope) => boolean;
  readonly #headers = new Map<SyntaxScope, Header>();
  readonly #imports: string[];
  readonly #errors: number[];
  #lineStarts: Int32Array | undefined;

  /**
   * @param imports the file's top-level imports, one line each (for context headers).
   * @param errors the syntax errors' spans, flat `[start, end, …]` (see `syntaxErrorSpans`).
   */
  constructor(
    readonly chunker: CodeChunker,
    readonly text: string,
    readonly measure: RangeMeasure,
    readonly spec: CodeLanguageSpec,
    imports: string[],
    errors: number[],
  ) {
    this.max = chunker.chunkSize;
    this.#imports = imports;
    this.#errors = errors;
    const cap = CODE_UNITS_PER_TOKEN_CAP * this.max;
    this.fits = (start, end, scope) => {
      if (!measure.cheap && end - start > cap) return false;
      return measure.size(start, end) + this.header(scope).size <= this.max;
    };
  }

  /** The packer level of `items` in `scope`. */
  level(items: Parameters<typeof syntaxSections>[0], scope: SyntaxScope): CodeLevel {
    return new CodeLevel(this, syntaxSections(items, this.text, scope, this.fits, this.stats));
  }

  /**
   * The context header of chunks in `scope`: the first of (file, imports, signatures),
   * (file, signatures), (file, labels), (labels), (file) whose size is at most half the
   * budget; none without `contextHeaders`.
   */
  header(scope: SyntaxScope): Header {
    let h = this.#headers.get(scope);
    if (h) return h;
    h = { text: '', size: 0 };
    if (this.chunker.contextHeaders) {
      const c = this.spec.comment;
      const file = this.chunker.filename !== undefined ? `${c} File: ${this.chunker.filename}` : '';
      const imports = this.#imports.length ? `${c} Imports: ${this.#imports.join(' ')}` : '';
      const sigs = scope.length ? `${c} In: ${scope.map((d) => d.signature).join(' > ')}` : '';
      const labels = scope.length ? `${c} In: ${scope.map((d) => d.label).join(' > ')}` : '';
      const units = this.measure.sizer;
      for (const lines of [[file, imports, sigs], [file, sigs], [file, labels], [labels], [file]]) {
        const t = lines.filter((l) => l).join('\n');
        if (!t) continue;
        const size = units.size(t + '\n');
        if (size <= Math.floor(this.max / 2)) {
          h = { text: t, size };
          break;
        }
      }
    }
    this.#headers.set(scope, h);
    return h;
  }

  /** Exact size of the chunk [s, e) in `scope`: its text, or with a header its embedText where larger. */
  exact(s: number, e: number, scope: SyntaxScope): number {
    const size = this.measure.size(s, e);
    const h = this.header(scope);
    if (!h.text) return size;
    // characters and words add up across the line break; tokens are counted on the joined text
    const embed = this.measure.cheap ? h.size + size : this.measure.sizer.size(`${h.text}\n${this.text.slice(s, e)}`);
    return Math.max(size, embed);
  }

  /** 1-based line of offset `i`. */
  line(i: number): number {
    const starts = (this.#lineStarts ??= lineStarts(this.text));
    return Math.max(1, upperBound(starts, i));
  }

  /** True when [s, e) overlaps a syntax error (or holds a missing node's position). */
  hasError(s: number, e: number): boolean {
    const errs = this.#errors; // [start, end, …] sorted, disjoint
    const n = errs.length / 2;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (errs[2 * mid + 1] < s) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < n && errs[2 * k] <= e; k++) {
      const es = errs[2 * k];
      const ee = errs[2 * k + 1];
      if (es === ee ? es >= s : es < e && ee > s) return true;
    }
    return false;
  }

  /** The planned chunk [s, e) in `scope`. */
  emit(s: number, e: number, scope: SyntaxScope, path: string[], symbols: string[], oversized: boolean): PlannedChunk {
    const h = this.header(scope);
    const metadata: Record<string, unknown> = {
      language: this.spec.name,
      symbolPath: path,
      symbols,
      startLine: this.line(s),
      endLine: this.line(e - 1),
    };
    if (this.hasError(s, e)) metadata.syntaxErrors = true;
    const chunk: PlannedChunk = { start: s, end: e, unitCount: this.measure.size(s, e), metadata };
    if (h.text) chunk.embedText = `${h.text}\n${this.text.slice(s, e)}`;
    if (oversized) chunk.oversized = true;
    return chunk;
  }
}

/** Offsets where lines start (after `\n`, `\r\n` or a lone `\r`). */
function lineStarts(text: string): Int32Array {
  const out = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) out.push(i + 1);
  }
  return Int32Array.from(out);
}

/** One level of syntax sections for the packer. */
class CodeLevel implements PackLevel {
  readonly count: number;
  #prefix: Float64Array | undefined;

  constructor(
    readonly ctx: CodeContext,
    readonly s: SyntaxSections,
  ) {
    this.count = s.count;
  }

  size(i: number): number {
    return this.ctx.measure.size(this.s.starts[i], this.s.ends[i]) + this.ctx.header(this.s.scopes[i]).size;
  }

  /** prefix[k] = Σ_{i<k} (gap before i + text size of i). */
  #sums(): Float64Array {
    if (this.#prefix) return this.#prefix;
    const { starts, ends } = this.s;
    const m = this.ctx.measure;
    const prefix = new Float64Array(this.count + 1);
    for (let i = 0; i < this.count; i++) prefix[i + 1] = prefix[i] + (i > 0 ? m.gap(ends[i - 1], starts[i]) : 0) + m.size(starts[i], ends[i]);
    return (this.#prefix = prefix);
  }

  estimate(a: number, b: number): number {
    const prefix = this.#sums();
    const gap = a > 0 ? this.ctx.measure.gap(this.s.ends[a - 1], this.s.starts[a]) : 0;
    return prefix[b + 1] - prefix[a] - gap + this.ctx.header(this.s.scopes[a]).size;
  }

  exact(a: number, b: number): number {
    return this.ctx.exact(this.s.starts[a], this.s.ends[b], this.scope(a, b));
  }

  /**
   * The scope of run a..b: its deepest section's (a run mixes scopes only where an
   * enclosing definition's head starts the first chunk of a nested one, or where a
   * closing token follows an opened definition's last chunk).
   */
  scope(a: number, b: number): SyntaxScope {
    const scopes = this.s.scopes;
    let deepest = scopes[a];
    for (let k = a + 1; k <= b; k++) if (scopes[k].length > deepest.length) deepest = scopes[k];
    return deepest;
  }

  hardBefore(i: number): boolean {
    return this.s.hard[i];
  }

  descend(i: number): PackLevel | undefined {
    const ctx = this.ctx;
    const s = this.s;
    const scope = s.scopes[i];
    if (!s.leaf[i]) {
      const expanded = expandItem(s.items[i], ctx.text, scope, ctx.fits, ctx.stats);
      if (expanded) return ctx.level(expanded.items, expanded.definition ? [...scope, expanded.definition] : scope);
    }
    // a leaf: the piece tree's spans (the fallback level), at the budget left beside the header
    const budget = Math.max(1, ctx.max - ctx.header(scope).size);
    const spans = splitRange(ctx.measure, s.starts[i], s.ends[i], { max: budget });
    if (spans.length <= 1 && spans[0]?.start === s.starts[i] && spans[0]?.end === s.ends[i]) return undefined;
    const path = scope.map((d) => d.label);
    return new SpanLevel(
      ctx.measure,
      spans.map((p) => p.start),
      spans.map((p) => p.end),
      {
        exact: (a, b) => ctx.exact(spans[a].start, spans[b].end, scope),
        emit: (a, b, _size, oversized) => ctx.emit(spans[a].start, spans[b].end, scope, path, [], oversized),
      },
    );
  }

  emit(a: number, b: number, _size: number, oversized: boolean): PlannedChunk {
    const s = this.s;
    const scope = this.scope(a, b);
    const path = scope.map((d) => d.label);
    const symbols: string[] = [];
    let other = false; // a section that is neither a definition nor only comments / decorators
    for (let k = a; k <= b; k++) {
      const d = s.definitions[k];
      if (d) symbols.push(d.label);
      else if (!s.attachOnly[k]) other = true;
    }
    if (symbols.length === 1 && !other) path.push(symbols[0]);
    return this.ctx.emit(s.starts[a], s.ends[b], scope, path, symbols, oversized);
  }
}

provideCodeModule({ CodeChunker });
