/**
 * A strategy as a definition: its name, its options schema and its boundaries (packer
 * levels or a stream plan); {@link defineStrategy} supplies the rest every strategy
 * shares — option validation, the resolved units, the Assembler, `chunk`, `spans` and
 * (for a stream plan) `chunkStream` — and the registry entry. The capacity block
 * ({@link capacitySchema}: `chunkSize`, `chunkOverlap` and the unit options) and the
 * overlap rule are defined here once. Core module: no Node built-ins.
 * @module
 */
import type { Chunk } from './chunk.js';
import { InvalidOptionError } from './errors.js';
import { documentIdOf, workOf, type ChunkCallOptions } from './ids.js';
import { addWork, type Work } from './work.js';
import { resolveOptions, type OptionsOf, type OptionsSchema, type ResolvedOf, type StrategySchema } from './options/schema.js';
import { isBlank, requireText } from './text.js';
import { Assembler, type PlannedChunk } from './assemble.js';
import { chunkCounters, resolveUnits, UNIT_OPTIONS, type ResolvedUnits, type UnitOptions } from './size/resolve.js';
import { planWhole, planWholeAsync, streamPlan, type StreamPlan } from './stream/driver.js';
import type { TextSource } from './stream/source.js';
import { checkStrategyDefinition, type StrategyDefinition } from './chunker.js';
import { callOption, callOptionAsync } from './callbacks.js';
import { checkSpans } from './splitter.js';

/** The default overlap of the size-and-overlap strategies: min(64, ⌊chunkSize/8⌋) units. */
export const defaultOverlap = (r: Readonly<Record<string, unknown>>): number => Math.min(64, Math.floor((r.chunkSize as number) / 8));

/** The budget option of the capacity block: units per chunk, an integer ≥ 1, default 512. */
const CHUNK_SIZE = { type: 'integer', min: 1, default: 512, doc: 'units per chunk' } as const;
/** The overlap option of the capacity block: units consecutive chunks share, in [0, chunkSize). */
const CHUNK_OVERLAP = {
  type: 'integer',
  min: 0,
  default: defaultOverlap,
  defaultDoc: 'min(64, ⌊chunkSize/8⌋)',
  doc: 'units shared by consecutive chunks; less than chunkSize',
} as const;

/**
 * The overlap rule: the option `overlap` must be less than the option `size` (a chunk
 * holds at least one unit that is not overlap).
 * @returns a schema `check` that throws {@link InvalidOptionError} naming `overlap`.
 */
export function overlapBelow(size: string, overlap: string): (r: Readonly<Record<string, unknown>>) => void {
  return (r) => {
    if ((r[overlap] as number) >= (r[size] as number)) throw new InvalidOptionError(overlap, r[overlap], `must be < ${size} (${r[size]})`);
  };
}

/** The options of a {@link capacitySchema}: `chunkSize`, `chunkOverlap` (unless left out), the strategy's own, the unit options. */
export type CapacityOptions<O extends OptionsSchema, Overlap extends boolean> = { readonly chunkSize: typeof CHUNK_SIZE } & (Overlap extends true
  ? { readonly chunkOverlap: typeof CHUNK_OVERLAP }
  : unknown) &
  O &
  typeof UNIT_OPTIONS;

/**
 * A strategy's schema with the capacity block: `chunkSize` (units per chunk, default
 * 512), `chunkOverlap` (default min(64, ⌊chunkSize/8⌋), less than chunkSize; absent with
 * `overlap: false`), then the strategy's `own` options, then the unit options (`unit`,
 * `encoding`, `tokenizer`, `sizer`, `lengthFunction`, `countTokens`), in that order for
 * the docs and `--help`.
 * @param docs the strategy's wording of the budget and overlap lines (what they are
 *   measured on); `overlap: false` for a strategy without unit overlap
 * @param check the strategy's own cross-option check, run after the overlap rule
 */
export function capacitySchema<const N extends string, const O extends OptionsSchema, const D extends { size?: string; overlap?: string | false } = object>(
  name: N,
  own: O,
  docs?: D,
  check?: (r: Record<string, unknown>) => void,
): { readonly name: N; readonly options: CapacityOptions<O, D extends { overlap: false } ? false : true>; readonly check: (r: Record<string, unknown>) => void } {
  const withOverlap = docs?.overlap !== false;
  const size = docs?.size === undefined ? CHUNK_SIZE : { ...CHUNK_SIZE, doc: docs.size };
  const overlap = typeof docs?.overlap === 'string' ? { ...CHUNK_OVERLAP, doc: docs.overlap } : CHUNK_OVERLAP;
  const rule = overlapBelow('chunkSize', 'chunkOverlap');
  return {
    name,
    options: { chunkSize: size, ...(withOverlap ? { chunkOverlap: overlap } : {}), ...own, ...UNIT_OPTIONS } as never,
    check: (r) => {
      if (withOverlap) rule(r);
      check?.(r);
    },
  };
}

/** What a strategy's registry entry says beside its schema (see {@link StrategyDefinition}). */
export type StrategyEntry = Omit<StrategyDefinition, 'schema' | 'create'> & { create?: StrategyDefinition['create'] };

/** The budget and alias of the strategies whose budget is `maxChunkSize` (`chunkSize` accepted for it). */
export const MAX_CHUNK_SIZE_BUDGET = { budget: { size: 'maxChunkSize' }, aliases: { chunkSize: 'maxChunkSize' } } as const;

/** What {@link defineStrategy} takes (`budget` defaults to the capacity block's `chunkSize` and `chunkOverlap`). */
export interface StrategySpec<S extends StrategySchema> extends StrategyEntry {
  /** The options schema: validated at construction; the option types are read from it ({@link OptionsOf}). */
  schema: S;
  /** The chunker has a stream plan (`plan`): `chunk` runs it over the whole text and `chunkStream` over a stream. */
  stream?: boolean;
  /**
   * The boundaries are asynchronous (they embed, or load a parser on first use): `chunk`
   * returns a Promise, `spans` (and a stream plan's steps) may too.
   */
  async?: boolean;
  /**
   * Boundaries, for a strategy without a subclass: the planned spans of `text` for the
   * chunker (its resolved `options`, its `units`), e.g. {@link packLevels} of a function
   * that gives the top packer level or the sections. A subclass may override `spans`
   * instead, or, with `stream: true`, set a `plan`. With `async: true` it may return a Promise.
   */
  spans?: (text: string, chunker: { readonly options: ResolvedOf<S>; readonly units: ResolvedUnits }) => PlannedChunk[] | Promise<PlannedChunk[]>;
}

/** The statics of a defined strategy's class: its schema and its registry entry. */
export interface StrategyStatics<S extends StrategySchema> {
  readonly schema: S;
  /** The registry entry: builds `new Class(options)` (of the class it is read from) unless the spec's `create` says otherwise. */
  readonly definition: StrategyDefinition;
}

/**
 * A planned span of a strategy with levels (parent–child): spans of one `level` are
 * numbered (`index`), measured for overlap and given ids among themselves, in the order
 * given; `parent` is the position, in the same list, of the span whose chunk id becomes
 * this chunk's `metadata.parentId` (the span's metadata should name `parentId` where the
 * key is to stand; its value is replaced).
 */
export interface LevelSpan extends PlannedChunk {
  level: string;
  parent?: number;
}

/**
 * The shell of a strategy: validates options with `spec.schema` at construction (an
 * unknown option is an `UnknownOptionError` with the closest name; a bad value an
 * `InvalidOptionError` naming it), resolves the units once, and chunks through the one
 * Assembler. The strategy adds its boundaries: `spec.spans` (e.g. {@link packLevels}), or a subclass overriding `spans(text)`, or, with
 * `stream: true`, a subclass setting `plan` (a {@link StreamPlan}) in its constructor,
 * which also gives `chunkStream`. With `async: true` the boundaries may be asynchronous
 * (an embedder, a parser loaded on first use) and `chunk` returns a Promise
 * ({@link AsyncShell}, {@link AsyncStreamShell}). `chunk` returns `[]` for empty or
 * whitespace-only text and throws `InvalidInputError` for a non-string. Public class names stay: `class
 * RecursiveChunker extends defineStrategy({ … }) { … }`; `new RecursiveChunker(options)`.
 * The class's `definition` is its registry entry, `schema` its schema.
 */
export function defineStrategy<const S extends StrategySchema>(
  spec: StrategySpec<S> & { stream: true; async: true },
): (abstract new (options?: OptionsOf<S>) => AsyncStreamShell<S>) & StrategyStatics<S>;
export function defineStrategy<const S extends StrategySchema>(
  spec: StrategySpec<S> & { async: true },
): (abstract new (options?: OptionsOf<S>) => AsyncShell<S>) & StrategyStatics<S>;
export function defineStrategy<const S extends StrategySchema>(
  spec: StrategySpec<S> & { stream: true },
): (abstract new (options?: OptionsOf<S>) => StreamShell<S>) & StrategyStatics<S>;
export function defineStrategy<const S extends StrategySchema>(
  spec: StrategySpec<S> & { spans: (text: string, chunker: { readonly options: ResolvedOf<S>; readonly units: ResolvedUnits }) => PlannedChunk[] },
): (new (options?: OptionsOf<S>) => Shell<S>) & StrategyStatics<S>;
export function defineStrategy<const S extends StrategySchema>(spec: StrategySpec<S>): (abstract new (options?: OptionsOf<S>) => Shell<S>) & StrategyStatics<S>;
export function defineStrategy<const S extends StrategySchema>(spec: StrategySpec<S>): unknown {
  checkStrategyDefinition(spec, false, ['stream', 'spans', 'async']);
  if (spec.spans !== undefined && typeof spec.spans !== 'function') throw new InvalidOptionError('definition.spans', spec.spans, 'a function (text, chunker) => spans, e.g. packLevels(levels)');
  const { schema, stream, spans, create, async: isAsync, ...entry } = spec;
  // the capacity block's budget unless the spec names another
  const budget = entry.budget ?? ('chunkSize' in schema.options ? { size: 'chunkSize', ...('chunkOverlap' in schema.options ? { overlap: 'chunkOverlap' } : {}) } : undefined);
  type Ctor = new (schema: S, strategy: string, options: unknown) => ShellBase<S>;
  const Base = (isAsync ? (stream ? AsyncStreamShell : AsyncShell) : stream ? StreamShell : Shell) as unknown as Ctor;
  abstract class Defined extends Base {
    static readonly schema = schema;
    static get definition(): StrategyDefinition {
      const Class = this as unknown as new (o: unknown) => ShellBase<S>;
      return { ...entry, ...(budget ? { budget } : {}), schema, create: create ?? ((o) => new Class(o) as never) };
    }
    constructor(options: OptionsOf<S> = {}) {
      super(schema, spec.name, options);
    }
  }
  if (spans) {
    // the definition's boundaries, checked: exact offsets in [0, text.length], in order; a throw is a CallbackError
    const check = (text: string, r: PlannedChunk[]) => checkSpans<PlannedChunk>('spans', spans, r, 0, text.length);
    (Defined.prototype as unknown as { spans(text: string): unknown }).spans = isAsync
      ? async function (this: ShellBase<S>, text: string): Promise<PlannedChunk[]> {
          return check(text, await callOptionAsync('spans', () => spans(text, { options: this.options, units: this.resolved })));
        }
      : function (this: ShellBase<S>, text: string): PlannedChunk[] {
          return check(text, callOption('spans', () => spans(text, { options: this.options, units: this.resolved })) as PlannedChunk[]);
        };
  }
  return Defined;
}

/** The part every defined strategy shares, synchronous or not (see {@link defineStrategy}). */
export abstract class ShellBase<S extends StrategySchema> {
  /** The options as resolved at construction (every default filled in). */
  readonly options: ResolvedOf<S>;
  readonly unit: ResolvedUnits['unit'];
  readonly encoding: string;
  /** The units budgets are measured in, resolved once. */
  protected readonly resolved: ResolvedUnits;
  readonly #strategy: string;

  constructor(schema: S, strategy: string, options: unknown) {
    if (typeof (this as { spans?: unknown }).spans !== 'function') {
      throw new InvalidOptionError('definition.spans', undefined, `boundaries for strategy ${strategy}: spans in its definition, a subclass's spans(text), or a plan with stream: true`);
    }
    this.options = resolveOptions<ResolvedOf<S>>(schema, options) as ResolvedOf<S>;
    this.#strategy = strategy;
    this.resolved = resolveUnits(this.options as UnitOptions);
    this.unit = this.resolved.unit;
    this.encoding = this.resolved.encoding;
  }

  /** Size of `text` in the chunker's unit, counted as one of the call's `measurements` in `work`. */
  protected measure(text: string, work: Work | undefined): number {
    addWork(work, 'measurements', 1);
    return this.resolved.units.size(text);
  }

  /** A fresh Assembler for one call (`documentId` of the call options enters every id). */
  protected assembler(options: ChunkCallOptions | undefined): Assembler {
    return new Assembler({ strategy: this.#strategy, ...chunkCounters(this.resolved), documentId: documentIdOf(options) });
  }

  /**
   * The chunks of `spans` over `text`: one assembler, or, for {@link LevelSpan}s (the
   * first span has a `level`), one per level, each level's spans added together in the
   * order given, the chunks returned in the order of `spans` with `parentId` filled in.
   */
  protected assemble(text: string, spans: readonly PlannedChunk[], options: ChunkCallOptions | undefined): Chunk[] {
    if (spans.length === 0 || (spans[0] as Partial<LevelSpan>).level === undefined) return this.assembler(options).add(text, spans);
    const byLevel = new Map<string, number[]>();
    spans.forEach((s, k) => {
      const level = (s as LevelSpan).level;
      const at = byLevel.get(level);
      if (at) at.push(k);
      else byLevel.set(level, [k]);
    });
    const out: Chunk[] = new Array(spans.length);
    for (const at of byLevel.values()) {
      const chunks = this.assembler(options).add(text, at.map((k) => spans[k]));
      at.forEach((k, i) => (out[k] = chunks[i]));
    }
    spans.forEach((s, k) => {
      const parent = (s as LevelSpan).parent;
      if (parent !== undefined) out[k].metadata.parentId = out[parent].id;
    });
    return out;
  }

  /**
   * The planned spans of `text` (what `chunk` assembles), offsets into `text`. A
   * span's `metadata` is read-only and may be one object shared by many spans: copy it
   * before changing it (each chunk of `chunk` has its own).
   */
  abstract spans(text: string): PlannedChunk[] | Promise<PlannedChunk[]>;
}

/** A defined strategy with synchronous boundaries (see {@link defineStrategy}). */
export abstract class Shell<S extends StrategySchema> extends ShellBase<S> {
  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks.
   * @param text the source; offsets in the chunks are UTF-16 indices into it.
   * @param options per-call options: `documentId` enters every chunk id (default `''`);
   *   `work` gathers the call's work counters where the strategy counts them.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string, options?: ChunkCallOptions): Chunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    return this.assemble(text, this.plannedSpans(text, workOf(options)), options);
  }

  /** The spans {@link chunk} assembles, counting the call's work into `work`: a strategy that counts work overrides this; by default {@link spans}. */
  protected plannedSpans(text: string, work: Work | undefined): PlannedChunk[] {
    void work;
    return this.spans(text);
  }

  abstract override spans(text: string): PlannedChunk[];
}

/** A defined strategy with a stream plan: `chunk` and `chunkStream` run the same plan through the one stream driver. */
export abstract class StreamShell<S extends StrategySchema> extends Shell<S> {
  /** The stream plan (`src/engine/stream/driver.ts`), set by the subclass's constructor. */
  protected abstract readonly plan: StreamPlan<unknown>;

  override chunk(text: string, options?: ChunkCallOptions): Chunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    return planWhole(text, this.plan, this.assembler(options));
  }

  spans(text: string): PlannedChunk[] {
    const r = this.plan.step(text, 0, this.plan.initial(), true);
    if (r instanceof Promise) throw new TypeError('spans: this plan is asynchronous');
    return r.chunks;
  }

  /**
   * Chunks a text stream: yields the chunks `chunk(wholeText)` returns, equal in every
   * field (ids included), each as soon as later text can no longer change it, with
   * offsets into the whole stream (docs/streaming.md).
   * @param source a `ReadableStream<string>` or (async) iterable of string pieces of any size.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when the source is not a stream/iterable or yields a non-string.
   */
  chunkStream(source: TextSource, options?: ChunkCallOptions): AsyncGenerator<Chunk> {
    return streamPlan(source, this.plan, this.assembler(options));
  }
}

/** A defined strategy with asynchronous boundaries (`async: true`): they embed, or load a parser on first use. */
export abstract class AsyncShell<S extends StrategySchema> extends ShellBase<S> {
  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks.
   * @param text the source; offsets in the chunks are UTF-16 indices into it.
   * @param options per-call options: `documentId` enters every chunk id (default `''`);
   *   `work` gathers the call's work counters where the strategy counts them.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  async chunk(text: string, options?: ChunkCallOptions): Promise<Chunk[]> {
    requireText(text);
    if (isBlank(text)) return [];
    return this.assemble(text, await this.plannedSpans(text, workOf(options)), options);
  }

  /** The spans {@link chunk} assembles, counting the call's work into `work`: a strategy that counts work overrides this; by default {@link spans}. */
  protected plannedSpans(text: string, work: Work | undefined): Promise<PlannedChunk[]> {
    void work;
    return this.spans(text);
  }

  abstract override spans(text: string): Promise<PlannedChunk[]>;
}

/** A defined strategy with a stream plan whose steps may be asynchronous (`stream: true, async: true`). */
export abstract class AsyncStreamShell<S extends StrategySchema> extends AsyncShell<S> {
  /** The stream plan of one call, counting its work into `work` (set by the subclass). */
  protected abstract planOf(work: Work | undefined): StreamPlan<unknown>;

  override async chunk(text: string, options?: ChunkCallOptions): Promise<Chunk[]> {
    requireText(text);
    if (isBlank(text)) return [];
    return planWholeAsync(text, this.planOf(workOf(options)), this.assembler(options));
  }

  async spans(text: string): Promise<PlannedChunk[]> {
    const plan = this.planOf(undefined);
    return (await plan.step(text, 0, plan.initial(), true)).chunks;
  }

  /**
   * Chunks a text stream: yields the chunks `chunk(wholeText)` returns, equal in every
   * field (ids included), each as soon as later text can no longer change it, with
   * offsets into the whole stream (docs/streaming.md).
   * @param source a `ReadableStream<string>` or (async) iterable of string pieces of any size.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when the source is not a stream/iterable or yields a non-string.
   */
  chunkStream(source: TextSource, options?: ChunkCallOptions): AsyncGenerator<Chunk> {
    return streamPlan(source, this.planOf(workOf(options)), this.assembler(options));
  }
}
