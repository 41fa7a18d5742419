/**
 * Structure-aware Markdown chunking: the heading tree gives every chunk its heading
 * path; fenced code and tables are indivisible; a table too large for the budget is cut
 * by rows and each part's `embedText` repeats the header lines and labels every value;
 * a block too large for the budget is split inside (lists by items, block quotes by
 * children, anything else by the fallback splitter).
 *
 * The strategy is its boundaries — Markdown blocks from
 * chunkwise's own line scanner (`src/strategies/markdown/blocks.ts`), grouped into heading
 * sections — and its options schema; packing is the shared packer (`src/engine/pack/pack.ts`,
 * greedy policy), chunks come from the shared assembler (`src/engine/assemble.ts`), and
 * `chunk` / `chunkStream` are one {@link StreamPlan} driven by `src/engine/stream/driver.ts`.
 * @module
 */
import type { Chunk, ChunkMetadata } from '../../engine/chunk.js';
import { typed, type OptionsOf, type StrategySchema } from '../../engine/options/schema.js';
import { isBlank, requireText, trimSpan, trimSpanWithin, type TextSpan } from '../../engine/text.js';
import { workOf, type ChunkCallOptions } from '../../engine/ids.js';
import { addWork } from '../../engine/work.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { JoinSums, TableRowsLevel } from '../../engine/pack/levels.js';
import { pack, type PackLevel } from '../../engine/pack/pack.js';
import { columnLabels, labelledRow } from '../../engine/boundaries/tables.js';
import { upperBound } from '../../engine/search.js';
import { inlineText, rowCellTexts, scanMarkdown, tableCells, type MarkdownBlock, type MarkdownBlockType } from './blocks.js';
import { rangeMeasure, type RangeMeasure } from '../../engine/size/measure.js';
import { innerUnitOptions, type ResolvedUnits } from '../../engine/size/resolve.js';
import { planSpans, type StepResult, type StreamPlan } from '../../engine/stream/driver.js';
import type { TextSource } from '../../engine/stream/source.js';
import { coverSpans, PiecesLevel, RangeSplitter, resolveFallback } from '../../engine/pack/fallback.js';
import type { SpanSplitter } from '../../engine/splitter.js';
import { capacitySchema, defineStrategy } from '../../engine/define.js';

export { markdownBlocks, type MarkdownBlock, type MarkdownBlockType } from './blocks.js';

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
export const MARKDOWN_SCHEMA = capacitySchema(
  'markdown',
  {
    fallback: typed<string | SpanSplitter>()({
      type: 'string',
      default: 'recursive',
      doc: 'how a block over the budget with no finer structure is split: a registered splitter name (`recursive`, `sliding`) or, in the API, a function (text, chunkSize) => spans',
      alsoAccepts: ['function'],
    }),
    contextualHeaders: { type: 'boolean', default: false, doc: 'prefix `embedText` with the heading path (`A > B`); the budget then holds for embedText too' },
  },
  {
    size: 'budget per chunk, in units, measured on the exact chunk text',
    overlap: 'overlap between the pieces of one block split by the fallback; whole blocks never overlap',
  },
) satisfies StrategySchema;

/** Options of {@link MarkdownChunker}: read from {@link MARKDOWN_SCHEMA}. */
export type MarkdownOptions = OptionsOf<typeof MARKDOWN_SCHEMA>;

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
export class MarkdownChunker extends defineStrategy({
  name: 'markdown',
  description: 'Markdown by heading sections: heading paths, whole code blocks and tables, chunkSize units',
  schema: MARKDOWN_SCHEMA,
  extensions: ['.md', '.markdown', '.mdx'],
  stream: true,
}) {
  readonly chunkSize: number = this.options.chunkSize;
  readonly chunkOverlap: number = this.options.chunkOverlap;
  readonly contextualHeaders: boolean = this.options.contextualHeaders;
  protected readonly plan: MarkdownPlan;

  constructor(options: MarkdownOptions = {}) {
    super(options);
    // a named fallback measures as this chunker does (unit or custom sizer, encoding, tokenizer)
    const fallback = this.options.fallback;
    const custom = fallback === 'recursive' ? undefined : resolveFallback(fallback, { ...innerUnitOptions(this.resolved, this.options.tokenizer), chunkOverlap: this.chunkOverlap });
    this.plan = new MarkdownPlan(this.chunkSize, this.chunkOverlap, this.contextualHeaders, this.resolved, custom);
  }

  /**
   * Chunks Markdown `text`. Empty or whitespace-only text gives no chunks.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  override chunk(text: string, options?: ChunkCallOptions): MarkdownChunk[] {
    this.plan.ops = 0;
    const chunks = super.chunk(text, options) as MarkdownChunk[];
    // scanner steps (lines per open container, blocks, inline steps of heading text), packer
    // steps and exact measures, range measures, table rows and the fallback's own operations
    addWork(workOf(options), 'operations', this.plan.ops);
    return chunks;
  }

  /**
   * Chunks a Markdown stream (`ReadableStream<string>` or (async) iterable of string
   * pieces, split anywhere, even inside a surrogate pair or a CRLF), yielding exactly the
   * chunks `chunk(wholeText)` returns (ids, indices, offsets into the whole stream,
   * heading paths, metadata): both are the same plan (`src/engine/stream/driver.ts`).
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
  override chunkStream(source: TextSource, options?: ChunkCallOptions): AsyncGenerator<MarkdownChunk> {
    this.plan.ops = 0;
    return super.chunkStream(source, options) as AsyncGenerator<MarkdownChunk>;
  }

  /** Units of `text` in this chunker's unit. @internal */
  count(text: string): number {
    return this.resolved.units.size(text);
  }

  /**
   * The spans {@link chunk} assembles (offsets into `text`, metadata `headingPath`,
   * `blockTypes`, `tableRows`), for a chunker that assembles them itself (parent–child's parents). @internal
   */
  planned(text: string): PlannedChunk[] {
    requireText(text);
    this.plan.ops = 0;
    return isBlank(text) ? [] : planSpans(text, this.plan);
  }
}

/** Short texts whose sizes a plan remembers (a bounded memo: repeated gaps and joins). */
const SHORT_MEMO = 4096;

/** The Markdown strategy as a stream plan: scan, group into sections, pack, emit. */
class MarkdownPlan implements StreamPlan<MarkdownState> {
  /** Work counted since the last reset (`chunk(text, { work })` reports it as `operations`). */
  ops = 0;

  constructor(
    readonly chunkSize: number,
    readonly chunkOverlap: number,
    readonly contextual: boolean,
    readonly units: ResolvedUnits,
    /** A fallback other than the built-in piece tree. */
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
    // blocks and pieces are measured about once each: a memo of every range would only grow
    const measure = rangeMeasure(text, this.units.units, { memo: 'recent' });
    const chunks: PlannedChunk[] = [];
    const stats = { steps: 0, exact: 0 };
    for (let i = 0; i < k; i++) pack(new BlockLevel(this, text, measure, sections[i], sections[i].blocks, 0), { max: this.chunkSize }, chunks, stats);
    this.#splitter = this.#splitterOf = undefined; // (they hold the text)
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

  #splitter: RangeSplitter | undefined;
  #splitterOf: RangeMeasure | undefined;

  /**
   * The fallback's splitter over the text `measure` measures (one per step: the blocks of a
   * text share its separator index). A measure that slices and remembers (tokens, custom
   * sizers) is not shared: the splitter gets one of its own, as a block's own piece tree
   * had, since sharing the block level's two-entry memo made the two evict each other's
   * answers, and a block of one long grapheme cluster was measured again at every level
   * (work n·log n). A cheap one (characters, words: prefix counts, no memo) is shared, so
   * its one pass over the text is not made twice.
   */
  splitter(measure: RangeMeasure): RangeSplitter {
    if (this.#splitterOf !== measure || !this.#splitter) {
      this.#splitter = new RangeSplitter(measure.cheap ? measure : rangeMeasure(measure.text, this.units.units, { memo: 'recent' }));
      this.#splitterOf = measure;
    }
    return this.#splitter;
  }

  /**
   * Sizes of spans of `text`, one per span in order: one tokenizer call for all of them
   * where the units are its tokens and it counts spans of one text
   * (the tokenizer's `countSpans`: the text is copied once, not each span), else
   * {@link sizeOf} each.
   */
  sizeSpans(text: string, spans: readonly TextSpan[]): ArrayLike<number> {
    const tokenizer = this.units.unit === 'token' ? this.units.tokenizer : undefined;
    if (tokenizer?.countSpans) return tokenizer.countSpans(text, spans);
    return spans.map((s) => (s.end > s.start ? this.sizeOf(text.slice(s.start, s.end)) : 0));
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
    // additive sizes (characters, words) add up across the prefix's closing blank line
    const embed = derived === undefined && this.plan.units.units.additive ? prefixSize + size : this.plan.units.units.size(prefix + (derived ?? this.text.slice(s, e)));
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
  /** The covered spans: the blocks themselves at the top, else the parts of a split container. */
  readonly #parts: readonly TextSpan[];
  /** The source block of each part. */
  readonly #blocks: readonly MarkdownBlock[];
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
    const parts: readonly TextSpan[] = blocks;
    const n = parts.length;
    this.count = n;
    this.#parts = parts;
    this.#blocks = n > 0 && 'block' in blocks[0] ? (blocks as Part[]).map((p) => p.block) : (blocks as readonly MarkdownBlock[]);
    this.#sizes = new Float64Array(n);
    this.#prefix = new Float64Array(n + 1);
    this.#gaps = new Float64Array(n);
    // each block and gap is measured once: straight from the sizer where a measure is
    // not O(1) (tokens), all in one call, so thousands of blocks do not fill the range memo
    // and a tokenizer copies the text once
    const sizer = plan.units.units;
    const gaps = this.#gaps;
    if (measure.cheap) {
      for (let i = 0; i < n; i++) this.#sizes[i] = measure.size(parts[i].start, parts[i].end);
      for (let i = 1; i < n; i++) gaps[i] = measure.size(parts[i - 1].end, parts[i].start);
    } else {
      const spans: TextSpan[] = [];
      for (let i = 0; i < n; i++) {
        if (i > 0) spans.push({ start: parts[i - 1].end, end: parts[i].start });
        spans.push(parts[i]);
      }
      const measured = plan.sizeSpans(text, spans);
      for (let i = 0; i < n; i++) {
        this.#sizes[i] = measured[2 * i];
        if (i > 0) gaps[i] = measured[2 * i - 1];
      }
      const cutAt = sizer.cutAt;
      if (cutAt && n > 1) this.#joins = new JoinSums(text, parts, this.#sizes, cutAt, (s, e) => (e > s ? plan.sizeOf(text.slice(s, e)) : 0), (edges) => plan.sizeSpans(text, edges));
    }
    // a gap between blocks counts its own size (a blank line is a token of its own for
    // BPE), so a run's estimate stays at or above its exact size and one exact measure
    // usually settles it (the sizer's gapSize, 0 for tokens, would grow runs past the
    // budget and make the packer search back)
    for (let i = 0; i < n; i++) this.#prefix[i + 1] = this.#prefix[i] + gaps[i] + this.#sizes[i];
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
    let part: Part = { start: this.#parts[i].start, end: this.#parts[i].end, block: this.#blocks[i] };
    if (INDIVISIBLE.has(part.block.type)) return undefined;
    if (part.block.type === 'table') {
      const rows = part.block.rows!;
      return rows.length >= 2 ? tableLevel(this, part, rows) : undefined;
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
    return fallbackLevel(this, part);
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    const types: MarkdownBlockType[] = [];
    for (let i = a; i <= b; i++) if (!types.includes(this.#blocks[i].type)) types.push(this.#blocks[i].type);
    return this.chunk(this.#parts[a].start, this.#parts[b].end, size, oversized, types);
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
 * A table's body rows as a pack level ({@link TableRowsLevel}): a part's text is whole
 * source rows (the first part from the table's start, so with the header lines), its
 * embedText the section's prefix, the header lines and its rows as `Header: value |
 * Header: value`; the budget holds for both.
 */
function tableLevel(owner: BlockLevel, part: Part, rows: readonly TextSpan[]): PackLevel {
  const { plan, text, measure, section } = owner;
  const context = { definitions: new Set<string>(), footnotes: new Set<string>() };
  const labels = columnLabels([tableCells(text, rows[0]).map((c) => ({ text: inlineText(text.slice(c.content.start, c.content.end), context).text, span: 1 }))]);
  const labelled: string[] = [];
  for (let r = 1; r < rows.length; r++) labelled.push(labelledRow(labels, rowCellTexts(text, rows[r])));
  plan.ops += rows.length;
  const last = rows.length - 2;
  const start = (i: number) => (i === 0 ? part.start : rows[i + 1].start);
  const end = (i: number) => (i === last ? part.end : rows[i + 1].end);
  return new TableRowsLevel({
    header: text.slice(part.start, rows[1].start).trimEnd(),
    rows: labelled,
    sizer: plan.units.units,
    prefix: section.prefix,
    prefixSize: section.prefixSize,
    textSize: (a, b) => measure.size(start(a), end(b)),
    emit: (a, b, embedText, size, oversized) => owner.chunk(start(a), end(b), size, oversized, ['table'], embedText.slice(section.prefix.length), [a + 1, b + 1]),
  });
}

/**
 * The fallback's pieces of one block, each a chunk of its own (flagged where over the
 * budget): the piece tree of the block's text, or the user's splitter's pieces with the
 * text it skipped kept.
 */
function fallbackLevel(owner: BlockLevel, part: Part): PackLevel {
  const { plan, text, section } = owner;
  const type = part.block.type;
  const budget = Math.max(1, plan.chunkSize - section.prefixSize);
  let spans: TextSpan[];
  let size = (s: number, e: number): number => owner.spanSize(s, e);
  if (!plan.custom) {
    // the piece tree of the block's range, on the step's measure and separator index (the
    // blocks of a text share one index: no setup and no scans per block)
    const work = { operations: 0 };
    const pieces = plan.splitter(owner.measure).split(part.start, part.end, { max: budget, overlap: Math.max(0, Math.min(plan.chunkOverlap, budget - 1)) }, work);
    plan.ops += work.operations;
    spans = coverSpans(
      text,
      part.start,
      part.end,
      pieces.map((p) => ({ start: p.start - part.start, end: p.end - part.start })),
    );
    if (!section.prefix) {
      // a piece's size is the one the splitter measured it at (its unitCount, on the same
      // unit and text): without a prefix that is its span's size, not measured again
      const known = new Map<number, PlannedChunk>();
      for (const p of pieces) if (p.unitCount !== undefined) known.set(p.start, p);
      size = (s, e) => {
        const p = known.get(s);
        return p !== undefined && p.end === e ? p.unitCount! : owner.spanSize(s, e);
      };
    }
  } else {
    const fits = (s: number, e: number) => owner.spanSize(s, e) <= plan.chunkSize;
    spans = coverSpans(text, part.start, part.end, plan.custom(text.slice(part.start, part.end), budget), (s, e) => trimSpanWithin(text, s, e, fits));
  }
  return new PiecesLevel(
    spans,
    size,
    (s, e, size, oversized) => owner.chunk(s, e, size, oversized, [type]),
  );
}
