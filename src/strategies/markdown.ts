/**
 * Structure-aware Markdown chunking: the heading tree gives every chunk its heading
 * path; fenced code and tables are indivisible; a table too large for the budget is cut
 * by rows and each part's `embedText` repeats the header lines and labels every value;
 * a block too large for the budget is split inside (lists by items, block quotes by
 * children, anything else by the fallback splitter).
 *
 * The strategy is its boundaries — Markdown blocks from
 * chunkwise's own line scanner (`src/segment/markdown.ts`), grouped into heading
 * sections — and its options schema; packing is the shared packer (`src/plan/pack.ts`,
 * greedy policy), chunks come from the shared assembler (`src/plan/assemble.ts`), and
 * `chunk` / `chunkStream` are one {@link StreamPlan} driven by `src/stream/driver.ts`.
 * @module
 */
import type { Chunk, ChunkMetadata } from '../core/chunk.js';
import { InvalidOptionError } from '../core/errors.js';
import { resolveOptions, type StrategySchema } from '../core/schema.js';
import { isBlank, requireText, trimSpan, trimSpanWithin, type TextSpan } from '../core/text.js';
import { documentIdOf, type ChunkCallOptions } from '../core/ids.js';
import { Assembler, type PlannedChunk } from '../plan/assemble.js';
import { pack, type PackLevel } from '../plan/pack.js';
import { upperBound } from '../core/search.js';
import { cellText, inlineText, scanMarkdown, tableCells, type MarkdownBlock, type MarkdownBlockType } from '../segment/markdown.js';
import { rangeMeasure, type RangeMeasure } from '../size/measure.js';
import type { CutAt, Sizer } from '../size/types.js';
import { innerUnitOptions, resolveUnits, UNIT_OPTIONS, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';
import { planWhole, streamPlan, type StepResult, type StreamPlan } from '../stream/driver.js';
import type { TextSource } from '../stream/source.js';
import { resolveFallback, type SpanSplitter } from '../compose/span-splitters.js';
import { defaultOverlap, RecursiveChunker } from './recursive.js';

export { markdownBlocks, type MarkdownBlock, type MarkdownBlockType } from '../segment/markdown.js';

/** Options of {@link MarkdownChunker}. */
export interface MarkdownOptions extends UnitOptions {
  /** Budget per chunk in units (tokens by default), an integer ≥ 1. Default 512. */
  chunkSize?: number;
  /**
   * Units shared by consecutive pieces where the fallback splits one block, an integer in
   * [0, chunkSize). Default min(64, ⌊chunkSize / 8⌋). Whole blocks never overlap.
   */
  chunkOverlap?: number;
  /**
   * How a block longer than the budget with no finer structure (a long paragraph or HTML
   * block) is split: a registered name (`'recursive'`, the default, or `'sliding'`; more
   * with `registerFallback`), or a function `(text, chunkSize) => spans`.
   */
  fallback?: string | SpanSplitter;
  /**
   * Prefix each chunk's `embedText` with its heading path (`A > B > C`, a blank line, then
   * the text). The budget then holds for `embedText` too. Default false.
   */
  contextualHeaders?: boolean;
}

/** Metadata of a Markdown chunk (on top of the common fields). */
export interface MarkdownChunkMetadata {
  headingPath: string[];
  /** Types of the blocks in the chunk, in order, each once (mdast's names). */
  blockTypes: MarkdownBlockType[];
  /** For a part of a table cut by rows: body rows [first, last], 1-based. */
  tableRows?: [number, number];
}

/** A chunk made by {@link MarkdownChunker}. */
export type MarkdownChunk = Chunk & { metadata: ChunkMetadata & MarkdownChunkMetadata };

/** The options schema of the Markdown strategy. */
export const MARKDOWN_SCHEMA: StrategySchema = {
  name: 'markdown',
  options: {
    chunkSize: { type: 'integer', min: 1, default: 512, doc: 'budget per chunk, in units, measured on the exact chunk text' },
    chunkOverlap: {
      type: 'integer',
      min: 0,
      default: defaultOverlap,
      defaultDoc: 'min(64, ⌊chunkSize/8⌋)',
      doc: 'overlap between the pieces of one block split by the fallback; whole blocks never overlap',
    },
    fallback: {
      type: 'string',
      default: 'recursive',
      doc: 'how a block over the budget with no finer structure is split: a registered splitter name (`recursive`, `sliding`) or, in the API, a function (text, chunkSize) => spans',
      alsoAccepts: ['function'],
    },
    contextualHeaders: { type: 'boolean', default: false, doc: 'prefix `embedText` with the heading path (`A > B`); the budget then holds for embedText too' },
    ...UNIT_OPTIONS,
  },
  check(r) {
    if ((r.chunkOverlap as number) >= (r.chunkSize as number)) {
      throw new InvalidOptionError('chunkOverlap', r.chunkOverlap, `must be < chunkSize (${r.chunkSize})`);
    }
  },
};

/** Block types kept whole whatever their size (flagged `oversized` when over the budget). */
const INDIVISIBLE = new Set<string>(['code', 'yaml', 'toml']);
/** Container types split into their children when over the budget. */
const CONTAINERS = new Set<string>(['list', 'listItem', 'blockquote', 'footnoteDefinition']);
/**
 * Container levels an oversized block is split through before the fallback takes the
 * rest whole: bounds the work (each level measures its children) and the packer's
 * recursion for inputs nested thousands deep.
 */
const MAX_DEPTH = 8;

/** A heading on the heading stack: its level and plain text. */
interface Heading {
  depth: number;
  text: string;
}

/** A heading section: its path, its prefix for embedText, its blocks. */
interface Section {
  path: string[];
  blocks: MarkdownBlock[];
  headingOnly: boolean;
  /** `A > B\n\n` with contextual headers, else ''. */
  prefix: string;
  /** Units of `prefix`. */
  prefixSize: number;
}

/** State a stream carries between steps. */
interface MarkdownState {
  stack: Heading[];
  definitions: Set<string>;
  footnotes: Set<string>;
}

/**
 * Chunks Markdown along its structure, with budgets of `chunkSize` units (tokens by
 * default, or characters / words).
 *
 * - Sections: each top-level heading (ATX or setext) starts a section; the section's
 *   chunks carry `metadata.headingPath`, the plain texts of the headings above (e.g.
 *   `["Guide", "Install"]`; levels may skip). A heading directly followed by a deeper
 *   heading joins that section's first chunk. Text before the first heading has the path
 *   `[]`; front matter is a chunk of its own. Headings inside lists or block quotes do
 *   not start sections.
 * - Blocks (paragraphs, lists, tables, code, HTML, block quotes…) are packed whole, in
 *   order, into chunks of at most `chunkSize` units measured on the exact chunk text;
 *   chunks never cross a section start.
 * - Fenced and indented code and front matter are never cut; one larger than the budget
 *   is a chunk of its own with `metadata.oversized = true`.
 * - A table larger than the budget is cut between rows; every part's `embedText` is the
 *   header lines (through the delimiter row) followed by its rows, one per line, as
 *   `Header: value | Header: value`. A single row over the budget is flagged `oversized`.
 * - A list, block quote or footnote definition larger than the budget is split into its
 *   items / children (recursively, 8 levels deep); any other block larger than the
 *   budget goes to the `fallback` splitter.
 *
 * Every chunk keeps `text === source.slice(start, end)` (UTF-16), never starts or ends
 * with whitespace (a fallback piece may start with the one space its first token holds),
 * and every non-whitespace character of the source lies in a chunk. Time and memory are
 * linear in the text (the block scanner visits each line once per open container).
 *
 * @example
 * ```ts
 * const chunker = new MarkdownChunker({ chunkSize: 256 });
 * for (const c of chunker.chunk(markdown)) console.log(c.metadata.headingPath, c.text.length);
 * ```
 * @throws {InvalidOptionError} at construction for an unknown option (with the closest
 *   valid name), a chunkSize that is not an integer ≥ 1, a chunkOverlap outside
 *   [0, chunkSize), an unknown fallback, unit or encoding, a contextualHeaders that is
 *   not a boolean.
 */
export class MarkdownChunker {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly contextualHeaders: boolean;
  readonly unit: ResolvedUnits['unit'];
  readonly encoding: string;
  readonly #resolved: ResolvedUnits;
  readonly #plan: MarkdownPlan;

  /**
   * Work of the last `chunk` call (or of the stream so far): scanner steps (lines per
   * open container, blocks, inline steps of heading text), packer steps and exact
   * measures, range measures, table rows and the fallback's own operations — for tests
   * of linear time.
   */
  get lastOperations(): number {
    return this.#plan.ops;
  }

  constructor(options: MarkdownOptions = {}) {
    const o = resolveOptions<MarkdownOptions>(MARKDOWN_SCHEMA, options);
    this.chunkSize = o.chunkSize;
    this.chunkOverlap = o.chunkOverlap;
    this.contextualHeaders = o.contextualHeaders;
    this.#resolved = resolveUnits(o);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
    // inner chunkers measure as this one does (unit or custom sizer, encoding, tokenizer)
    const inner = innerUnitOptions(this.#resolved, options.tokenizer);
    const custom = o.fallback === 'recursive' ? undefined : resolveFallback(o.fallback, { ...inner, chunkOverlap: this.chunkOverlap });
    this.#plan = new MarkdownPlan(this.chunkSize, this.chunkOverlap, this.contextualHeaders, this.#resolved, inner, custom);
  }

  #assembler(options: ChunkCallOptions | undefined): Assembler {
    return new Assembler({ strategy: 'markdown', units: this.#resolved, documentId: documentIdOf(options) });
  }

  /**
   * Chunks Markdown `text`. Empty or whitespace-only text gives no chunks.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string, options?: ChunkCallOptions): MarkdownChunk[] {
    requireText(text);
    this.#plan.ops = 0;
    if (isBlank(text)) return [];
    return planWhole(text, this.#plan, this.#assembler(options)) as MarkdownChunk[];
  }

  /**
   * Chunks a Markdown stream (`ReadableStream<string>` or (async) iterable of string
   * pieces, split anywhere, even inside a surrogate pair or a CRLF), yielding exactly the
   * chunks `chunk(wholeText)` returns (ids, indices, offsets into the whole stream,
   * heading paths, metadata): both are the same plan (`src/stream/driver.ts`).
   *
   * Hard breaks: the start of a section (after merging heading-only sections), once its
   * heading's lines have arrived, at a resume point of the block scanner at or before it
   * and after the section before: a line start where every block open before it is closed
   * and no block of the line starts higher up (see `MarkdownScan.resumePoints`; never
   * inside a paragraph that a setext underline, a table delimiter row or a lazy line may
   * still change, nor a list or a fence). The blocks before it never depend on the lines
   * after it, chunks never cross a section start, and the text from it on is scanned and
   * packed alone with the heading stack and the definitions seen so far carried over.
   * Inline text is not local: a link reference or footnote definition anywhere makes
   * `[label]` in a heading a link (changing the heading path text). A heading whose text
   * looked up a label with no definition yet is therefore held, with everything after it,
   * until such a definition arrives (its text is then final: the first definition of a
   * label wins) or the stream ends. A front matter fence at the start holds everything
   * until it closes or its bound of lines passes. Memory otherwise: one section plus one
   * piece; each step re-scans the held text (steps are tried as the held text grows by
   * half).
   * Ids: content-addressed, the same as {@link chunk}'s.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} for a source that is not a stream/iterable or a piece that
   *   is not a string.
   */
  chunkStream(source: TextSource, options?: ChunkCallOptions): AsyncGenerator<MarkdownChunk> {
    this.#plan.ops = 0;
    return streamPlan(source, this.#plan, this.#assembler(options)) as AsyncGenerator<MarkdownChunk>;
  }

  /** Units of `text` in this chunker's unit. @internal */
  count(text: string): number {
    return this.#resolved.units.size(text);
  }
}

/** Short texts whose sizes a plan remembers (a bounded memo: repeated gaps and joins). */
const SHORT_MEMO = 4096;

/** The Markdown strategy as a stream plan: scan, group into sections, pack, emit. */
class MarkdownPlan implements StreamPlan<MarkdownState> {
  readonly #recursive = new Map<number, RecursiveChunker>();
  /** Work counted since the last reset (see {@link MarkdownChunker.lastOperations}). */
  ops = 0;

  constructor(
    readonly chunkSize: number,
    readonly chunkOverlap: number,
    readonly contextual: boolean,
    readonly units: ResolvedUnits,
    /** Unit options of inner chunkers (the fallback). */
    readonly inner: UnitOptions,
    /** A fallback other than the built-in recursive splitter. */
    readonly custom: SpanSplitter | undefined,
  ) {}

  initial(): MarkdownState {
    return { stack: [], definitions: new Set(), footnotes: new Set() };
  }

  step(text: string, offset: number, state: MarkdownState, final: boolean): StepResult<MarkdownState> {
    // a partial step scans complete lines only
    const end = final ? text.length : Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
    if (end === 0) return { chunks: [], keep: 0, state };
    const scan = scanMarkdown(text, { end, partial: !final, documentStart: offset === 0, definitions: state.definitions, footnotes: state.footnotes, topLevelHeadingText: true });
    if (!final && scan.openFrontMatter) {
      this.ops += scan.steps;
      return { chunks: [], keep: 0, state };
    }
    const sections = this.#sections(scan.blocks, state.stack);
    let k = sections.length;
    let keep = 0;
    if (!final) {
      // the last section start, before any heading whose text may still change, with a
      // point of the scan between it and the section before where nothing is open
      let firstOpen = sections.length;
      for (let i = 0; i < sections.length && firstOpen === sections.length; i++) {
        for (const b of sections[i].blocks) if (b.type === 'heading' && b.unresolved) firstOpen = i;
      }
      const points = scan.resumePoints;
      for (k = Math.min(firstOpen, sections.length - 1); k >= 1; k--) {
        const at = upperBound(points, sections[k].blocks[0].start) - 1;
        const before = sections[k - 1].blocks;
        if (at >= 0 && points[at] >= before[before.length - 1].end) {
          keep = points[at];
          break;
        }
      }
      if (k < 1) {
        this.ops += scan.steps;
        return { chunks: [], keep: 0, state };
      }
    }
    const measure = measureOf(text, this.units.units);
    const chunks: PlannedChunk[] = [];
    const stats = { steps: 0, exact: 0 };
    for (let i = 0; i < k; i++) pack(new BlockLevel(this, text, measure, sections[i], sections[i].blocks, 0), { max: this.chunkSize }, chunks, stats);
    this.ops += scan.steps + stats.steps + stats.exact + measure.calls;
    if (final) return { chunks, keep: 0, state };
    let stack = state.stack;
    for (let i = 0; i < k; i++) for (const b of sections[i].blocks) if (b.type === 'heading') stack = push(stack, b);
    return { chunks, keep, state: { stack, definitions: scan.definitions, footnotes: scan.footnotes } };
  }

  /** Top-level blocks grouped into sections by heading, under the headings of `above`. */
  #sections(blocks: MarkdownBlock[], above: Heading[]): Section[] {
    const sections: Section[] = [];
    let stack = above;
    let current: Section | undefined;
    const open = (path: string[], headingOnly: boolean): Section => ({ path, blocks: [], headingOnly, prefix: '', prefixSize: 0 });
    for (const block of blocks) {
      if (block.end <= block.start) continue;
      if (block.type === 'heading') {
        stack = push(stack, block);
        current = open(
          stack.map((h) => h.text),
          true,
        );
        current.blocks.push(block);
        sections.push(current);
      } else if (block.type === 'yaml' || block.type === 'toml') {
        const s = open([], false);
        s.blocks.push(block);
        sections.push(s);
        current = undefined;
      } else {
        if (!current) {
          current = open(
            stack.map((h) => h.text),
            false,
          );
          sections.push(current);
        }
        current.blocks.push(block);
        current.headingOnly = false;
      }
    }
    // a heading with no body followed by a deeper heading leads that section's first chunk
    const merged: Section[] = [];
    for (let i = 0; i < sections.length; i++) {
      const s = sections[i];
      const next = sections[i + 1];
      if (s.headingOnly && next && next.path.length > s.path.length && s.path.every((h, j) => next.path[j] === h)) {
        next.blocks.unshift(...s.blocks);
        continue;
      }
      if (this.contextual && s.path.length) {
        s.prefix = s.path.join(' > ') + '\n\n';
        s.prefixSize = this.units.units.size(s.prefix);
      }
      merged.push(s);
    }
    return merged;
  }

  /** Sizes of short texts (gaps, block heads and tails, joins), which repeat: one sizer call each. */
  readonly #short = new Map<string, number>();

  /** Size of `text` in the chunker's unit; short texts are remembered (at most {@link SHORT_MEMO} of them). */
  sizeOf(text: string): number {
    if (text.length > 16) return this.units.units.size(text);
    let v = this.#short.get(text);
    if (v === undefined) {
      v = this.units.units.size(text);
      if (this.#short.size < SHORT_MEMO) this.#short.set(text, v);
    }
    return v;
  }

  /** The recursive splitter for a budget (one per distinct budget, as the span splitter keeps them). */
  recursive(budget: number): RecursiveChunker {
    let r = this.#recursive.get(budget);
    if (!r) {
      r = new RecursiveChunker({ ...this.inner, chunkSize: budget, chunkOverlap: Math.max(0, Math.min(this.chunkOverlap, budget - 1)) });
      this.#recursive.set(budget, r);
    }
    return r;
  }
}

/**
 * The range measure of `text`: the engine's O(1) measure for characters and words; for
 * tokens and custom sizers one that slices and measures, remembering only its last two
 * answers. Blocks and pieces are measured about once each, and the engine's memo (a Map
 * keyed by range) grows slower than linearly on megabyte inputs with a range per block.
 */
function measureOf(text: string, sizer: Sizer): RangeMeasure {
  return sizer.unit === 'char' || sizer.unit === 'word' ? rangeMeasure(text, sizer) : new SliceMeasure(text, sizer);
}

/** See {@link measureOf}. */
class SliceMeasure implements RangeMeasure {
  readonly cheap = false;
  calls = 0;
  #s0 = -1;
  #e0 = -1;
  #v0 = 0;
  #s1 = -1;
  #e1 = -1;
  #v1 = 0;
  constructor(
    readonly text: string,
    readonly sizer: Sizer,
  ) {}

  size(start: number, end: number): number {
    if (end <= start) return 0;
    if (start === this.#s0 && end === this.#e0) return this.#v0;
    if (start === this.#s1 && end === this.#e1) return this.#v1;
    this.calls++;
    const v = this.sizer.size(this.text.slice(start, end));
    this.#s1 = this.#s0;
    this.#e1 = this.#e0;
    this.#v1 = this.#v0;
    this.#s0 = start;
    this.#e0 = end;
    this.#v0 = v;
    return v;
  }

  gap(start: number, end: number): number {
    if (end <= start) return 0;
    return this.sizer.gapSize ? this.sizer.gapSize(this.text.slice(start, end)) : this.size(start, end);
  }

  sizeMany(starts: ArrayLike<number>, ends: ArrayLike<number>, count: number, out: Float64Array): Float64Array {
    for (let k = 0; k < count; k++) out[k] = this.size(starts[k], ends[k]);
    return out;
  }
}

/** The stack after heading `h`. */
function push(stack: Heading[], h: MarkdownBlock): Heading[] {
  const out = stack.slice();
  while (out.length && out[out.length - 1].depth >= h.depth!) out.pop();
  out.push({ depth: h.depth!, text: h.text ?? '' });
  return out;
}

/** Sizes within a section: of a span, and of a span with the section's embed prefix (or derived text). */
class Sizes {
  constructor(
    readonly plan: MarkdownPlan,
    readonly text: string,
    readonly measure: RangeMeasure,
    readonly section: Section,
  ) {}

  /** What the budget is checked against for `[s, e)`: its size, and the size of its embedText. */
  spanSize(s: number, e: number, derived?: string): number {
    const size = this.measure.size(s, e);
    const { prefix, prefixSize } = this.section;
    if (!prefix && derived === undefined) return size;
    const unit = this.plan.units.unit;
    // characters and words add up across the prefix's closing blank line
    const embed = derived === undefined && (unit === 'char' || unit === 'word') ? prefixSize + size : this.plan.units.units.size(prefix + (derived ?? this.text.slice(s, e)));
    return Math.max(size, embed);
  }

  /** The planned chunk of `[s, e)`; `size` is its exact size (the text's units where there is no embedText). */
  chunk(s: number, e: number, size: number, oversized: boolean, types: MarkdownBlockType[], derived?: string, tableRows?: [number, number]): PlannedChunk {
    const { prefix, path } = this.section;
    const metadata: Record<string, unknown> = { headingPath: path, blockTypes: types };
    if (tableRows) metadata.tableRows = tableRows;
    const unitCount = prefix || derived !== undefined ? this.measure.size(s, e) : size;
    const c: PlannedChunk = { start: s, end: e, unitCount, metadata };
    if (prefix || derived !== undefined) c.embedText = prefix + (derived ?? this.text.slice(s, e));
    if (oversized) c.oversized = true;
    return c;
  }
}

/** A block as a level sees it: its covered span (markers of a split container included) and its source block. */
interface Part {
  start: number;
  end: number;
  block: MarkdownBlock;
}

/**
 * Blocks (of a section, or the children of a container) as a pack level: sizes include
 * the section's embed prefix, runs grow by prefix sums of block and gap sizes, and a
 * block too large alone descends to its rows, children or the fallback.
 */
class BlockLevel extends Sizes implements PackLevel {
  readonly count: number;
  readonly #parts: Part[];
  readonly #sizes: Float64Array;
  readonly #prefix: Float64Array;
  readonly #gaps: Float64Array;
  /** Runs sized from their blocks (see {@link JoinSums}); undefined where the sizer declares no local cut. */
  readonly #joins: JoinSums | undefined;

  constructor(
    plan: MarkdownPlan,
    text: string,
    measure: RangeMeasure,
    section: Section,
    blocks: readonly MarkdownBlock[] | Part[],
    readonly depth: number,
  ) {
    super(plan, text, measure, section);
    const parts: Part[] = (blocks as (MarkdownBlock | Part)[]).map((b) => ('block' in b ? b : { start: b.start, end: b.end, block: b }));
    const n = parts.length;
    this.count = n;
    this.#parts = parts;
    this.#sizes = new Float64Array(n);
    this.#prefix = new Float64Array(n + 1);
    this.#gaps = new Float64Array(n);
    // each block and gap is measured once: straight from the sizer where a measure is
    // not O(1) (tokens), so thousands of blocks do not fill the range memo
    const sizer = plan.units.units;
    const size = measure.cheap ? (s: number, e: number) => measure.size(s, e) : (s: number, e: number) => (e > s ? plan.sizeOf(text.slice(s, e)) : 0);
    for (let i = 0; i < n; i++) this.#sizes[i] = size(parts[i].start, parts[i].end);
    const cutAt = measure.cheap ? undefined : sizer.cutAt;
    this.#joins = cutAt && n > 1 ? new JoinSums(text, parts, this.#sizes, cutAt, size) : undefined;
    for (let i = 0; i < n; i++) {
      // a gap between blocks counts its own size (a blank line is a token of its own for
      // BPE), so a run's estimate stays at or above its exact size and one exact measure
      // usually settles it (the sizer's gapSize, 0 for tokens, would grow runs past the
      // budget and make the packer search back)
      const gap = i > 0 ? size(parts[i - 1].end, parts[i].start) : 0;
      this.#gaps[i] = gap;
      this.#prefix[i + 1] = this.#prefix[i] + gap + this.#sizes[i];
    }
  }

  start(i: number): number {
    return this.#parts[i].start;
  }

  end(i: number): number {
    return this.#parts[i].end;
  }

  size(i: number): number {
    return this.#sizes[i] + this.section.prefixSize;
  }

  estimate(a: number, b: number): number {
    return this.#prefix[b + 1] - this.#prefix[a] - this.#gaps[a] + this.section.prefixSize;
  }

  exact(a: number, b: number): number {
    if (a === b && !this.section.prefix) return this.#sizes[a];
    const joined = this.#joins?.run(a, b);
    if (joined !== undefined && !this.section.prefix) return joined;
    return this.spanSize(this.#parts[a].start, this.#parts[b].end);
  }

  descend(i: number): PackLevel | undefined {
    let part = this.#parts[i];
    if (INDIVISIBLE.has(part.block.type)) return undefined;
    if (part.block.type === 'table') {
      const rows = part.block.rows!;
      return rows.length >= 2 ? new TableLevel(this.plan, this.text, this.measure, this.section, part, rows) : undefined;
    }
    if (CONTAINERS.has(part.block.type) && this.depth < MAX_DEPTH) {
      // a container with one child container covers the same text: go straight to it
      for (;;) {
        const children = coverChildren(this.text, part);
        if (children.length > 1) return new BlockLevel(this.plan, this.text, this.measure, this.section, children, this.depth + 1);
        if (children.length === 1 && CONTAINERS.has(children[0].block.type)) part = children[0];
        else break;
      }
    }
    return new FallbackLevel(this, part);
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    const types: MarkdownBlockType[] = [];
    for (let i = a; i <= b; i++) if (!types.includes(this.#parts[i].block.type)) types.push(this.#parts[i].block.type);
    return this.chunk(this.#parts[a].start, this.#parts[b].end, size, oversized, types);
  }
}

/**
 * Exact sizes of runs of blocks from the blocks' own sizes, for sizers that declare a
 * local cut ({@link CutAt}: tiktoken's encodings). Each block is split at its first and
 * last cut, `f` and `l` (both strictly inside it): its size is head [start, f) + middle
 * [f, l) + tail [l, end). A run a..b is the head of a, the middles, the joins
 * [l_i, f_j) to the next block j with a cut (a tail, the whitespace and any blocks without
 * a cut between, the next head: usually a few characters) and the tail of b, each split
 * at a cut, so its size is their sum — exact, from one measure per join instead of
 * measuring the run's text. A run that starts or ends at a block without a cut inside
 * (no Latin letter next to a space or line break: `</div>`, a link definition) is
 * measured on its text.
 */
class JoinSums {
  /** Sum over blocks before i of middle + join to the next block with a cut. */
  readonly #sums: Float64Array;
  /** Join after block i (0 where none). */
  readonly #join: Float64Array;
  readonly #head: Float64Array;
  readonly #tail: Float64Array;
  /** Block i has a cut inside. */
  readonly #cut: Uint8Array;

  constructor(text: string, parts: readonly Part[], sizes: Float64Array, cutAt: CutAt, size: (s: number, e: number) => number) {
    const n = parts.length;
    const first = new Int32Array(n).fill(-1);
    const last = new Int32Array(n).fill(-1);
    this.#head = new Float64Array(n);
    this.#tail = new Float64Array(n);
    this.#join = new Float64Array(n);
    this.#cut = new Uint8Array(n);
    this.#sums = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) {
      const { start, end } = parts[i];
      let f = start + 1;
      while (f < end && !cutAt(text, f)) f++;
      if (f >= end) continue;
      let l = end - 1;
      while (l > f && !cutAt(text, l)) l--;
      first[i] = f;
      last[i] = l;
      this.#cut[i] = 1;
      this.#head[i] = size(start, f);
      this.#tail[i] = size(l, end);
    }
    let next = -1; // the next block with a cut after i
    const middle = new Float64Array(n);
    for (let i = n - 1; i >= 0; i--) {
      if (!this.#cut[i]) continue;
      middle[i] = sizes[i] - this.#head[i] - this.#tail[i];
      if (next >= 0) this.#join[i] = size(last[i], first[next]);
      next = i;
    }
    for (let i = 0; i < n; i++) this.#sums[i + 1] = this.#sums[i] + middle[i] + this.#join[i];
  }

  /** Exact size of the text from block a's start to block b's end (a < b); undefined unless both have a cut. */
  run(a: number, b: number): number | undefined {
    if (!this.#cut[a] || !this.#cut[b]) return undefined;
    return this.#head[a] + this.#sums[b + 1] - this.#sums[a] - this.#join[b] + this.#tail[b];
  }
}

/**
 * A container's children as parts that together cover the container's text: the first
 * starts at the container's start (so list markers and `>` are kept), each later one at
 * the first non-whitespace after the previous, the last ends at the container's end.
 */
function coverChildren(text: string, parent: Part): Part[] {
  const parts: Part[] = [];
  let prev = parent.start;
  for (const child of parent.block.children ?? []) {
    if (child.end <= prev) continue;
    const span = trimSpan(text, prev, child.end);
    if (span.end > span.start) parts.push({ start: span.start, end: span.end, block: child });
    prev = child.end;
  }
  if (parts.length && prev < parent.end && !isBlank(text.slice(prev, parent.end))) parts[parts.length - 1].end = trimSpan(text, prev, parent.end).end;
  return parts;
}

/**
 * A table's body rows as a pack level: a part's text is whole source rows (the first
 * part from the table's start, so with the header lines), its embedText the header
 * lines and its rows as `Header: value | Header: value`.
 */
class TableLevel extends Sizes implements PackLevel {
  readonly count: number;
  readonly #part: Part;
  readonly #rows: readonly TextSpan[];
  readonly #header: string;
  readonly #headerSize: number;
  readonly #labelled: string[];
  readonly #rowSizes: Float64Array;
  readonly #prefix: Float64Array;

  constructor(plan: MarkdownPlan, text: string, measure: RangeMeasure, section: Section, part: Part, rows: readonly TextSpan[]) {
    super(plan, text, measure, section);
    const sizer = plan.units.units;
    this.#part = part;
    this.#rows = rows;
    this.#header = text.slice(part.start, rows[1].start).trimEnd();
    this.#headerSize = sizer.size(this.#header + '\n');
    const context = { definitions: new Set<string>(), footnotes: new Set<string>() };
    const labels = tableCells(text, rows[0]).map((c) => inlineText(text.slice(c.content.start, c.content.end), context).text);
    const n = rows.length - 1;
    this.count = n;
    this.#labelled = new Array(n);
    this.#rowSizes = new Float64Array(n);
    this.#prefix = new Float64Array(n + 1);
    plan.ops += rows.length;
    for (let r = 0; r < n; r++) {
      this.#labelled[r] = tableCells(text, rows[r + 1])
        .map((cell, k) => `${labels[k] ?? `Column ${k + 1}`}: ${cellText(text, cell)}`)
        .join(' | ');
      this.#rowSizes[r] = sizer.size(this.#labelled[r] + '\n');
      this.#prefix[r + 1] = this.#prefix[r] + this.#rowSizes[r];
    }
  }

  start(i: number): number {
    return i === 0 ? this.#part.start : this.#rows[i + 1].start;
  }

  end(i: number): number {
    return i === this.count - 1 ? this.#part.end : this.#rows[i + 1].end;
  }

  size(i: number): number {
    return this.section.prefixSize + this.#headerSize + this.#rowSizes[i];
  }

  estimate(a: number, b: number): number {
    return this.section.prefixSize + this.#headerSize + this.#prefix[b + 1] - this.#prefix[a];
  }

  #derived(a: number, b: number): string {
    return this.#header + '\n' + this.#labelled.slice(a, b + 1).join('\n');
  }

  exact(a: number, b: number): number {
    const unit = this.plan.units.unit;
    if (unit === 'char' || unit === 'word') {
      // characters and words of the embedText add up: header, rows, the prefix (a char
      // count has one line break fewer than the rows' sizes, which end in one each)
      const embed = this.section.prefixSize + this.#headerSize + this.#prefix[b + 1] - this.#prefix[a] - (unit === 'char' ? 1 : 0);
      return Math.max(this.measure.size(this.start(a), this.end(b)), embed);
    }
    return this.spanSize(this.start(a), this.end(b), this.#derived(a, b));
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk {
    return this.chunk(this.start(a), this.end(b), size, oversized, ['table'], this.#derived(a, b), [a + 1, b + 1]);
  }
}

/** The fallback's pieces of one block, each a chunk of its own (flagged where over the budget). */
class FallbackLevel implements PackLevel {
  readonly count: number;
  readonly #owner: BlockLevel;
  readonly #type: MarkdownBlockType;
  readonly #spans: TextSpan[];
  readonly #exact: Float64Array;

  constructor(owner: BlockLevel, part: Part) {
    this.#owner = owner;
    this.#type = part.block.type;
    const { plan, text, section } = owner;
    const budget = Math.max(1, plan.chunkSize - section.prefixSize);
    const fits = (s: number, e: number) => owner.spanSize(s, e) <= plan.chunkSize;
    const spans: TextSpan[] = [];
    let covered = part.start;
    const keep = (s: number, e: number) => {
      if (e <= s) return;
      // text a splitter skipped is kept rather than lost
      if (s > covered && !isBlank(text.slice(covered, s))) spans.push(trimSpan(text, covered, s));
      spans.push({ start: s, end: e });
      covered = Math.max(covered, e);
    };
    const slice = text.slice(part.start, part.end);
    if (!plan.custom) {
      // the built-in recursive splitter on the block's text (its own measure: its scans stay inside the block)
      const recursive = plan.recursive(budget);
      for (const c of recursive.spans(slice, 0, slice.length, measureOf(slice, plan.units.units))) keep(part.start + c.start, part.start + c.end);
      plan.ops += recursive.lastOperations;
    } else {
      for (const s of plan.custom(slice, budget)) {
        const span = trimSpanWithin(text, part.start + s.start, part.start + s.end, fits);
        keep(span.start, span.end);
      }
    }
    if (covered < part.end && !isBlank(text.slice(covered, part.end))) spans.push(trimSpan(text, covered, part.end));
    this.#spans = spans.filter((s) => s.end > s.start);
    this.count = this.#spans.length;
    this.#exact = new Float64Array(this.count).fill(-1);
  }

  start(i: number): number {
    return this.#spans[i].start;
  }

  end(i: number): number {
    return this.#spans[i].end;
  }

  size(i: number): number {
    if (this.#exact[i] < 0) this.#exact[i] = this.#owner.spanSize(this.#spans[i].start, this.#spans[i].end);
    return this.#exact[i];
  }

  estimate(a: number, b: number): number {
    return a === b ? this.size(a) : Infinity;
  }

  exact(a: number, b: number): number {
    return a === b ? this.size(a) : this.#owner.spanSize(this.#spans[a].start, this.#spans[b].end);
  }

  hardBefore(): boolean {
    return true;
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk {
    return this.#owner.chunk(this.#spans[a].start, this.#spans[b].end, size, oversized, [this.#type]);
  }
}
