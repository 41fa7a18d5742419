/**
 * Code chunking: syntax-aware chunks of source code, parsed by tree-sitter
 * (web-tree-sitter: WebAssembly, the same parser in Node, browsers and edge runtimes)
 * with prebuilt grammars (`tree-sitter-wasms`).
 *
 * The strategy is its boundaries (`src/strategies/code/syntax.ts`: syntax nodes, comments and
 * decorators attached to what follows them, large definitions opened up at their child
 * statements) and its options schema (`./schema.ts`); packing is the shared
 * packer's greedy policy (`src/engine/pack/pack.ts`), a leaf too large for the budget (a huge
 * string literal or comment) is split by the recursive splitter, chunks come from the
 * shared assembler. This module imports web-tree-sitter (dynamically, on first use);
 * the root entry reaches it only through the registry's lazy entry or `chunkwise/code`.
 * @module
 */
import type { Chunk } from '../../engine/chunk.js';
import { InvalidOptionError } from '../../engine/errors.js';
import { discardRuntime, loadGrammar, loadedRuntime, loadRuntime, runtimeGeneration, type TSLanguage, type TSParser } from './tree-sitter.js';
import { requireText } from '../../engine/text.js';
import type { ChunkCallOptions } from '../../engine/ids.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { SpanLevel } from '../../engine/pack/levels.js';
import { RangeSplitter, splitRange } from '../../engine/pack/fallback.js';
import { pack, type PackLevel, type PackStats } from '../../engine/pack/pack.js';
import {
  childItems,
  expandItem,
  lineBreaks,
  MemoNode,
  syntaxDefinitions,
  syntaxErrorSpans,
  syntaxSections,
  topLevelTexts,
  type SyntaxDefinition,
  type SyntaxNode,
  type SyntaxScope,
  type SyntaxSections,
  type SyntaxStats,
} from './syntax.js';
import type { CodeLanguageSpec } from './languages.js';
import { rangeMeasure, type RangeMeasure } from '../../engine/size/measure.js';
import { CODE_DESCRIPTION, CODE_SCHEMA, LazyCodeChunker, provideCodeModule, resolveCodeLanguage, type CodeChunkerOptions, type WasmSource } from './schema.js';
import { CODE_EXTENSIONS } from './languages.js';
import { defineStrategy } from '../../engine/define.js';
import { lowerBound, upperBound } from '../../engine/search.js';
import { addWork, type Work } from '../../engine/work.js';

export { CODE_SCHEMA, type CodeChunkerOptions, type WasmSource } from './schema.js';
export { CODE_LANGUAGES, CODE_EXTENSIONS, languageForPath, type CodeLanguageSpec } from './languages.js';
export type { SyntaxDefinition } from './syntax.js';

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
 * past `baseSteps` + length / `unitsPerStep` calls (the
 * deterministic bound) is cancelled; so is one past `baseMs` + length /
 * `unitsPerMs` milliseconds (10× what valid code takes: the bound on slow
 * steps) once it has made more than `timedSteps` + length /
 * `unitsPerTimedStep` calls (40 per 1,000), which valid code does not reach (so a
 * loaded machine, or a grammar's first parse while V8 compiles it, never changes how
 * valid code is chunked).
 */
const PARSE_BUDGET = { baseSteps: 100, unitsPerStep: 4, baseMs: 500, unitsPerMs: 100, timedSteps: 16, unitsPerTimedStep: 25 } as const;

// ---------------------------------------------------------------- the chunker

const INTERNAL = Symbol('CodeChunker');

/**
 * Chunks source code at syntax boundaries: a function, method, class or top-level
 * statement that fits the budget is never cut; one that does not is opened up at its
 * child statements, recursively, never inside a token except a single token (a string
 * literal, a comment) larger than the budget, which the recursive splitter cuts at line
 * breaks and spaces; consecutive small items are packed together up to the budget (the
 * shared greedy packer). Comments and decorators / attributes directly before an item
 * stay with it. An opened statement's head (`if cond:`, a signature, with its comments
 * and decorators) is one piece that stays with its body's first statement where they fit
 * (a body that fits alone but not with it is opened at its statements); only a statement
 * with no body that alone is over the budget is cut inside, fenced from its neighbours.
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
export class CodeChunker extends defineStrategy({
  name: 'code',
  description: CODE_DESCRIPTION,
  schema: CODE_SCHEMA,
  extensions: CODE_EXTENSIONS,
  // the registry's entry: tree-sitter loads on the first chunk() (see LazyCodeChunker)
  create: (o) => new LazyCodeChunker(o as CodeChunkerOptions),
}) {
  readonly chunkSize: number = this.options.chunkSize;
  readonly language: string;
  readonly filename: string | undefined = this.options.filename;
  readonly contextHeaders: boolean = this.options.contextHeaders;
  readonly #spec: CodeLanguageSpec;
  #parser: TSParser | undefined;
  #language!: TSLanguage;
  /** The runtime generation #parser belongs to. */
  #generation = -1;
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
    const chunker = new CodeChunker(INTERNAL, options);
    await chunker.#load();
    return chunker;
  }

  /**
   * Use {@link CodeChunker.create}.
   * @throws {InvalidOptionError} (option `new CodeChunker`, naming what was passed) when
   *   called directly: loading tree-sitter and the grammar is asynchronous.
   */
  constructor(internal: typeof INTERNAL, options: CodeChunkerOptions) {
    if (internal !== INTERNAL) {
      throw new InvalidOptionError('new CodeChunker', internal, 'the constructor is internal: build it with await CodeChunker.create(options), since loading tree-sitter and the grammar is asynchronous');
    }
    super(options);
    this.#spec = resolveCodeLanguage(this.options);
    this.language = this.#spec.name;
  }

  /** Loads the runtime and the grammar (at construction, and after the runtime aborted). */
  async #load(): Promise<void> {
    const at = runtimeGeneration();
    const ts = await loadRuntime(this.options.treeSitterWasm);
    this.#language = await loadGrammar(ts, this.#spec, this.options);
    this.#parser = undefined;
    this.#generation = at === runtimeGeneration() ? at : -1;
  }

  /**
   * Resolves when the chunker parses again after the tree-sitter runtime aborted (in Node
   * a fresh runtime and grammar are loaded; until then `chunk` uses the recursive
   * splitter). Never rejects: where no fresh runtime can be had, `chunk` keeps falling
   * back and says why in `metadata.fallback`.
   */
  async ready(): Promise<void> {
    if (this.#generation !== runtimeGeneration() && this.#rebuildFailed === undefined) await (this.#rebuilding ??= this.#rebuild());
  }

  async #rebuild(): Promise<void> {
    try {
      await this.#load();
    } catch (cause) {
      this.#rebuildFailed = String((cause as Error)?.message ?? cause);
    } finally {
      this.#rebuilding = undefined;
    }
  }

  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks. A parse that runs past
   * its budget (see {@link PARSE_BUDGET}: 30 or more times the work of valid code of
   * that length, or, where the work is already unusual, `baseMs` ms plus 10 ms
   * per 1,000 code units), or that
   * aborts the tree-sitter runtime, is given up: the text is chunked by the recursive
   * splitter (linear time) and every chunk's `metadata.fallback` says why; the parser is
   * rebuilt (after an abort, on a fresh runtime: see {@link ready}).
   * @param text the source; offsets are UTF-16 indices into it.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  override chunk(text: string, options?: ChunkCallOptions): Chunk[] {
    requireText(text);
    this.lastFallback = undefined;
    return super.chunk(text, options);
  }

  /** The planned chunks of `text` (see {@link chunk}), by the syntax tree or, where the parse is given up, the recursive splitter. */
  spans(text: string): PlannedChunk[] {
    return this.plannedSpans(text, undefined);
  }

  protected override plannedSpans(text: string, work: Work | undefined): PlannedChunk[] {
    return this.#withTree(text, (root) => this.#plan(text, new MemoNode(root), work), (reason) => this.#fallback(text, reason, work));
  }

  /**
   * Every definition in `text` (functions, methods, classes, …, nested ones too) with its
   * span, as the chunker's symbol paths name them: e.g. to check which chunks hold a
   * function whole. None where the parse is given up (see {@link chunk}).
   */
  definitions(text: string): SyntaxDefinition[] {
    requireText(text);
    return this.#withTree(text, (root) => syntaxDefinitions(new MemoNode(root), text), () => []);
  }

  /** True when tree-sitter reports a syntax error anywhere in `text`, or gives the parse up (see {@link chunk}). */
  hasSyntaxErrors(text: string): boolean {
    requireText(text);
    return this.#withTree(text, (root) => root.hasError, () => true);
  }

  /** `use` of the syntax tree of `text`, or `otherwise` of the reason the parse was given up. */
  #withTree<T>(text: string, use: (root: SyntaxNode) => T, otherwise: (reason: string) => T): T {
    if (this.#generation !== runtimeGeneration()) {
      if (this.#rebuildFailed !== undefined) return otherwise(this.#rebuildFailed);
      this.#rebuilding ??= this.#rebuild();
      return otherwise('the tree-sitter runtime aborted earlier and is being loaded again');
    }
    const parser = (this.#parser ??= this.#newParser());
    const b = PARSE_BUDGET;
    const maxSteps = b.baseSteps + Math.ceil(text.length / b.unitsPerStep);
    const maxMs = b.baseMs + text.length / b.unitsPerMs;
    const timedAfter = b.timedSteps + text.length / b.unitsPerTimedStep;
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
    const measure = rangeMeasure(text, this.resolved.units);
    const ctx = new CodeContext(this, text, measure, this.#spec, [], []);
    const budget = Math.max(1, this.chunkSize - ctx.header([]).size);
    const out = splitRange(measure, 0, text.length, { max: budget }, work).map((p) => {
      const chunk = ctx.emit(p.start, p.end, [], [], [], p.oversized === true);
      return { ...chunk, metadata: { ...chunk.metadata, fallback: reason } };
    });
    return out;
  }

  /** The syntax tree's chunks; `work` gets `operations` (nodes read, items placed, packer steps, exact measures, sizer calls) and `packSteps`. */
  #plan(text: string, root: SyntaxNode, work: Work | undefined): PlannedChunk[] {
    const measure = rangeMeasure(text, this.resolved.units);
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

/** The header of every chunk without `contextHeaders`. */
const NO_HEADER: Header = Object.freeze({ text: '', size: 0 });

/** What one `chunk` call shares between its levels. */
class CodeContext {
  readonly stats: SyntaxStats = { steps: 0 };
  readonly max: number;
  readonly fits: (start: number, end: number, scope: SyntaxScope) => boolean;
  readonly #headers = new Map<SyntaxScope, Header>();
  /** The splitter of the text's leaves over the budget (one separator index, built on the first). */
  splitter: RangeSplitter | undefined;
  readonly #imports: string[];
  readonly #errors: number[];
  #lineStarts: Int32Array | undefined;
  /** The text's line breaks, where they are `\n` alone (null where there is a `\r`). */
  #breaks: Int32Array | null | undefined;

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
    if (!this.chunker.contextHeaders) return NO_HEADER;
    let h = this.#headers.get(scope);
    if (h) return h;
    h = NO_HEADER;
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
    // only `\n`: one more than the breaks before i, in the boundaries' line-break index (found once per text)
    const breaks = (this.#breaks ??= this.text.indexOf('\r') < 0 ? lineBreaks(this.text) : null);
    if (breaks) return 1 + lowerBound(breaks, i);
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

/** Offsets where lines start (after `\n`, `\r\n` or a lone `\r`), for a text with `\r`. */
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

  glued(i: number): boolean {
    return this.s.glue[i];
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
    const spans = (ctx.splitter ??= new RangeSplitter(ctx.measure)).split(s.starts[i], s.ends[i], { max: budget });
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
