/**
 * Structure-aware Markdown chunking: the heading tree gives every chunk its heading
 * path; fenced code too large for the budget is cut between lines; a table too large for the budget is cut
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
import { isBlank, requireText, type TextSpan } from '../../engine/text.js';
import { workOf, type ChunkCallOptions } from '../../engine/ids.js';
import { addWork } from '../../engine/work.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { pack } from '../../engine/pack/pack.js';
import { upperBound } from '../../engine/search.js';
import { scanMarkdown, type MarkdownBlock, type MarkdownBlockType } from './blocks.js';
import { rangeMeasure, type RangeMeasure } from '../../engine/size/measure.js';
import { innerUnitOptions, type ResolvedUnits } from '../../engine/size/resolve.js';
import { planSpans, type StepResult, type StreamPlan } from '../../engine/stream/driver.js';
import type { TextSource } from '../../engine/stream/source.js';
import { RangeSplitter, resolveFallback } from '../../engine/pack/fallback.js';
import type { SpanSplitter } from '../../engine/splitter.js';
import { capacitySchema, defineStrategy } from '../../engine/define.js';
import { BlockLevel, joinSmall } from './levels.js';
import { charCut, type SafeCut } from '../../engine/size/safe-cuts.js';

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
    minChunkSize: {
      type: 'integer',
      min: 0,
      defaultDoc: 'min(⌊chunkSize/4⌋, 15 tokens, 60 chars, 10 words; 15 with a custom sizer)',
      doc: 'a chunk smaller than this (units; a lone heading, rule or HTML line) joins the next chunk of its section, else the one before, where the two fit the budget; 0 turns it off',
    },
  },
  {
    size: 'budget per chunk, in units, measured on the exact chunk text',
    overlap: 'overlap between the pieces of one block split by the fallback; whole blocks never overlap',
  },
) satisfies StrategySchema;

/** Options of {@link MarkdownChunker}: read from {@link MARKDOWN_SCHEMA}. */
export type MarkdownOptions = OptionsOf<typeof MARKDOWN_SCHEMA>;

/** A heading on the heading stack: its level and plain text. */
interface Heading {
  depth: number;
  text: string;
}

/** A heading section: its path, its prefix for embedText, its blocks. */
export interface Section {
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
  /** The held text starts at a long-line break: its first line is the rest of a cut line. */
  continued?: boolean;
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
 * - Front matter, and fenced and indented code that fits the budget, are never cut; front
 *   matter larger than the budget is a chunk of its own with `metadata.oversized = true`.
 *   Code larger than the budget is cut between lines; a single line larger than the
 *   budget is a chunk of its own, flagged `oversized`.
 * - A line longer than {@link LONG_LINE} code units that starts a top-level paragraph is
 *   cut at the last safe cut of the unit in its second half of those: the text before is
 *   chunked as a document that ends there, the text after as one that begins there
 *   (heading path and definitions carried).
 * - A table larger than the budget is cut between rows; every part's `embedText` is the
 *   header lines (through the delimiter row) followed by its rows, one per line, as
 *   `Header: value | Header: value`. A single row over the budget is flagged `oversized`.
 * - A list, block quote or footnote definition larger than the budget is split into its
 *   items / children (recursively, 8 levels deep); any other block larger than the
 *   budget goes to the `fallback` splitter.
 * - A chunk under `minChunkSize` units (default 15 tokens, 60 chars or 10 words, at most
 *   ⌊chunkSize/4⌋: a lone heading, a rule, an HTML comment) joins the next chunk of its
 *   section where the two fit the budget, else the one before; the chunk after a small
 *   one is packed for the budget less it, so they fit (a block is split for it where
 *   needed). A section small as a whole stays one chunk; 0 turns it off.
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
 *   not a boolean, a minChunkSize that is not an integer ≥ 0.
 */
export class MarkdownChunker extends defineStrategy({
  name: 'markdown',
  description: 'Markdown by heading sections: heading paths, code and tables whole where they fit (else cut between lines or rows), small chunks joined, chunkSize units',
  schema: MARKDOWN_SCHEMA,
  extensions: ['.md', '.markdown', '.mdx'],
  stream: true,
}) {
  readonly chunkSize: number = this.options.chunkSize;
  readonly chunkOverlap: number = this.options.chunkOverlap;
  readonly contextualHeaders: boolean = this.options.contextualHeaders;
  /** Chunks smaller than this (units) join a neighbour in their section where both fit the budget (0: off). */
  readonly minChunkSize: number = this.options.minChunkSize ?? defaultMinChunkSize(this.resolved.unit, this.options.chunkSize);
  protected readonly plan: MarkdownPlan;

  constructor(options: MarkdownOptions = {}) {
    super(options);
    // a named fallback measures as this chunker does (unit or custom sizer, encoding, tokenizer)
    const fallback = this.options.fallback;
    const custom = fallback === 'recursive' ? undefined : resolveFallback(fallback, { ...innerUnitOptions(this.resolved, this.options.tokenizer), chunkOverlap: this.chunkOverlap });
    this.plan = new MarkdownPlan(this.chunkSize, this.chunkOverlap, this.contextualHeaders, this.resolved, custom, this.minChunkSize);
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
   * until it closes or its bound of lines passes. A top-level paragraph line longer than
   * {@link LONG_LINE} code units is cut at a safe cut of the unit, in `chunk` too
   * (`longLineBreak`), so one-line text (CJK, Thai, base64) streams in windows of that
   * size. Memory otherwise: one section plus one piece; each step re-scans the held text
   * (steps are tried as the held text grows by half).
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
export class MarkdownPlan implements StreamPlan<MarkdownState> {
  /** Work counted since the last reset (`chunk(text, { work })` reports it as `operations`). */
  ops = 0;

  constructor(
    readonly chunkSize: number,
    readonly chunkOverlap: number,
    readonly contextual: boolean,
    readonly units: ResolvedUnits,
    /** A fallback other than the built-in piece tree. */
    readonly custom: SpanSplitter | undefined,
    /** Chunks smaller than this join a neighbour of their section where both fit (0: off). */
    readonly minChunkSize = 0,
  ) {}

  initial(): MarkdownState {
    return { stack: [], definitions: new Set(), footnotes: new Set() };
  }

  /**
   * Plans `text` in parts split at its long-line breaks ({@link longLineBreak}): the text
   * before a break is planned as a whole document that ends there, the text after it as
   * one that begins there (heading stack and definitions carried), in a stream and in a
   * whole string alike.
   */
  step(text: string, offset: number, state: MarkdownState, final: boolean): StepResult<MarkdownState> {
    const chunks: PlannedChunk[] = [];
    let base = 0;
    for (;;) {
      const rest = base === 0 ? text : text.slice(base);
      const b = longLineBreak(rest, offset + base === 0, state, this.units.units.safeCut ?? charCut);
      if (b < 0) {
        const r = this.#plan(rest, offset + base, state, final);
        for (const c of r.chunks) chunks.push(base === 0 ? c : { ...c, start: c.start + base, end: c.end + base });
        // the held text still starts at the break when nothing after it was decided
        return { chunks, keep: base + r.keep, state: r.keep > 0 || !state.continued ? r.state : { ...r.state, continued: true } };
      }
      const r = this.#plan(rest.slice(0, b), offset + base, state, true);
      for (const c of r.chunks) chunks.push(base === 0 ? c : { ...c, start: c.start + base, end: c.end + base });
      state = { ...r.state, continued: true };
      base += b;
    }
  }

  #plan(text: string, offset: number, state: MarkdownState, final: boolean): StepResult<MarkdownState> {
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
    for (let i = 0; i < k; i++) {
      const from = chunks.length;
      pack(new BlockLevel(this, text, measure, sections[i], sections[i].blocks, 0), { max: this.chunkSize }, chunks, stats);
      if (this.minChunkSize > 0) joinSmall(this, text, measure, sections[i], chunks, from);
    }
    this.#splitter = this.#splitterOf = undefined; // (they hold the text)
    this.ops += scan.steps + stats.steps + stats.exact + measure.calls;
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

/** Units per default minimum chunk: about 15 tokens of English prose. */
const MIN_CHUNK: Readonly<Record<string, number>> = { token: 15, char: 60, word: 10, custom: 15 };

/**
 * The default `minChunkSize` for a unit: {@link MIN_CHUNK}'s, at most a quarter of the
 * budget (a small budget keeps its small chunks).
 */
function defaultMinChunkSize(unit: string, chunkSize: number): number {
  return Math.min(MIN_CHUNK[unit] ?? MIN_CHUNK.custom, Math.floor(chunkSize / 4));
}

/**
 * Longest line (UTF-16 code units) planned as one: a top-level paragraph line longer than
 * this is cut ({@link longLineBreak}), so a stream of one-line text (Chinese, Thai,
 * base64, a minified file) emits chunks within a bounded read and memory.
 */
export const LONG_LINE = 1 << 16;

/** First characters of a line that may start a block other than a paragraph (or continue one). */
const BLOCK_START = /^(?:[\s#>\-+*=_|<\[`~:!\\$]|\d{1,9}[.)])/;

/**
 * The first long-line break of `text`, or −1: at the rest of a line cut before (`text`
 * starts at a break, `state.continued`) when it is still longer than {@link LONG_LINE}
 * code units, whatever it starts with; else at a line that starts a top-level paragraph
 * where nothing is open before it (a resume point of the block scanner), its first
 * character not one that may start another block, and that runs on past
 * {@link LONG_LINE} code units, the last safe cut of the unit in its second half of those
 * (else the last code point boundary). It reads the text up to that point only, so a
 * stream finds the same breaks as the whole string; a line still shorter than the bound
 * in the held text has none yet.
 */
function longLineBreak(text: string, documentStart: boolean, state: MarkdownState, safeCut: SafeCut): number {
  let resume: number[] | undefined;
  let all = false;
  const lineEnd = /[\r\n]/g;
  for (let ls = 0; ls < text.length; ) {
    lineEnd.lastIndex = ls;
    const m = lineEnd.exec(text);
    const le = m ? m.index : text.length;
    if (le - ls > LONG_LINE && ls === 0 && state.continued) return cutLongLine(text, 0, safeCut);
    if (le - ls > LONG_LINE && !BLOCK_START.test(text.slice(ls, ls + 12))) {
      // the scan decides at a line's first characters whether it starts a block where nothing is open
      if (!resume || (!all && resume[resume.length - 1] !== ls)) {
        all = resume !== undefined; // one scan to the candidate, then (it failed) one of the whole text
        const end = all ? text.length : ls + 16;
        resume = scanMarkdown(text, { end, partial: true, documentStart, definitions: state.definitions, footnotes: state.footnotes }).resumePoints;
      }
      if (resume[upperBound(resume, ls) - 1] === ls) return cutLongLine(text, ls, safeCut);
    }
    if (!m) break;
    ls = le + (text.charCodeAt(le) === 13 && text.charCodeAt(le + 1) === 10 ? 2 : 1);
  }
  return -1;
}

/** Where the long line at `ls` is cut: the last safe cut in its second half of {@link LONG_LINE} code units, else a code point boundary. */
function cutLongLine(text: string, ls: number, safeCut: SafeCut): number {
  const window = text.slice(ls, ls + LONG_LINE);
  let cut = safeCut(window, LONG_LINE >> 1);
  if (cut <= LONG_LINE >> 1) cut = charCut(window, 0);
  return ls + cut;
}

/** The stack after heading `h`. */
function push(stack: Heading[], h: MarkdownBlock): Heading[] {
  const out = stack.slice();
  while (out.length && out[out.length - 1].depth >= h.depth!) out.pop();
  out.push({ depth: h.depth!, text: h.text ?? '' });
  return out;
}
