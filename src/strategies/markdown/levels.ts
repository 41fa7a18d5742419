/**
 * The Markdown strategy's pack levels: the blocks of a heading section (sizes with the
 * section's embed prefix), a container's children, a table's rows, and the fallback for
 * any other block too large alone.
 * @module
 */
import { isBlank, trimSpan, trimSpanWithin, type TextSpan } from '../../engine/text.js';
import { upperBound } from '../../engine/search.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { JoinSums, TableRowsLevel } from '../../engine/pack/levels.js';
import type { PackLevel } from '../../engine/pack/pack.js';
import { columnLabels, labelledRow } from '../../engine/boundaries/tables.js';
import { inlineText, rowCellTexts, tableCells, type MarkdownBlock, type MarkdownBlockType } from './blocks.js';
import type { RangeMeasure } from '../../engine/size/measure.js';
import { coverSpans, PiecesLevel } from '../../engine/pack/fallback.js';
import type { MarkdownPlan, Section } from './markdown.js';

/** Block types kept whole whatever their size (flagged `oversized` when over the budget); code larger than the budget is cut between lines. */
const INDIVISIBLE = new Set<string>(['code', 'yaml', 'toml']);
/** Container types split into their children when over the budget. */
const CONTAINERS = new Set<string>(['list', 'listItem', 'blockquote', 'footnoteDefinition']);
/**
 * Container levels an oversized block is split through before the fallback takes the
 * rest whole: bounds the work (each level measures its children) and the packer's
 * recursion for inputs nested thousands deep.
 */
const MAX_DEPTH = 8;

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
export class BlockLevel extends Sizes implements PackLevel {
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
  /** The last run emitted, `[a, b]` and its size: a small one leads the block after it (see {@link descend}). */
  #last: { a: number; b: number; size: number; heading: boolean } | undefined;

  /**
   * @param reserve units the first run leaves free for a small lead-in before these blocks
   *   (the run before a block split into them), which {@link joinSmall} then joins to it
   */
  constructor(
    plan: MarkdownPlan,
    text: string,
    measure: RangeMeasure,
    section: Section,
    blocks: readonly MarkdownBlock[] | Part[],
    readonly depth: number,
    readonly reserve = 0,
    /** The parts are the lines of one code block: each is indivisible. */
    readonly lines = false,
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

  /**
   * The reserve a run from part `a` leaves free (see {@link leadReserve}). Where part `a`
   * fits the budget alone: none for a code block (code that fits is never cut for a
   * lead-in), and after a small run of this level only where that run holds a heading (a
   * heading goes with the start of what it opens, even if that splits a paragraph; a lone
   * rule or comment does not split a block that fits).
   */
  #held(a: number): number {
    const r = this.#leadReserve(a);
    if (r === 0 || this.#sizes[a] + this.section.prefixSize > this.plan.chunkSize) return r;
    if (!this.lines && INDIVISIBLE.has(this.#blocks[a].type)) return 0;
    return a === 0 || this.#last!.heading ? r : 0;
  }

  size(i: number): number {
    return this.#sizes[i] + this.section.prefixSize + this.#held(i);
  }

  estimate(a: number, b: number): number {
    return this.#prefix[b + 1] - this.#prefix[a] - this.#gaps[a] + this.section.prefixSize + this.#held(a);
  }

  exact(a: number, b: number): number {
    return this.#exactText(a, b) + this.#held(a);
  }

  #exactText(a: number, b: number): number {
    if (a === b && !this.section.prefix) return this.#sizes[a];
    const joined = this.#joins?.run(a, b);
    if (joined !== undefined && !this.section.prefix) return joined;
    return this.spanSize(this.#parts[a].start, this.#parts[b].end);
  }

  descend(i: number): PackLevel | undefined {
    let part: Part = { start: this.#parts[i].start, end: this.#parts[i].end, block: this.#blocks[i] };
    if (this.lines) return undefined;
    const reserve = this.#leadReserve(i);
    if (part.block.type === 'code') {
      // cut between lines (a line over the budget alone is a chunk flagged oversized)
      const lines = codeLines(this.text, part);
      return lines.length > 1 ? new BlockLevel(this.plan, this.text, this.measure, this.section, lines, this.depth + 1, reserve, true) : undefined;
    }
    if (INDIVISIBLE.has(part.block.type)) return undefined;
    if (part.block.type === 'table') {
      const rows = part.block.rows!;
      return rows.length >= 2 ? reserved(tableLevel(this, part, rows), reserve, this.plan.chunkSize) : undefined;
    }
    if (CONTAINERS.has(part.block.type) && this.depth < MAX_DEPTH) {
      // a container with one child container covers the same text: go straight to it
      for (;;) {
        const children = coverChildren(this.text, part);
        if (children.length > 1) return new BlockLevel(this.plan, this.text, this.measure, this.section, children, this.depth + 1, reserve);
        if (children.length === 1 && CONTAINERS.has(children[0].block.type)) part = children[0];
        else break;
      }
    }
    return fallbackLevel(this, part, reserve);
  }

  /**
   * What a run from part `i` leaves free: the size of the small run emitted just before it
   * (under `minChunkSize`: a lone heading, an HTML comment, a lead-in line, which the
   * packer closed because part `i` did not fit with it) with the gap up to the part, so
   * that {@link joinSmall} can join the two; part `i` is split where it does not fit with
   * it (its first piece takes the lead-in). For part 0, this level's own reserve.
   */
  #leadReserve(i: number): number {
    if (i === 0) return this.reserve;
    const last = this.#last;
    if (!last || last.b !== i - 1 || last.size >= this.plan.minChunkSize) return 0;
    return this.measure.size(this.#parts[last.a].start, this.#parts[i].start);
  }

  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined {
    const types: MarkdownBlockType[] = [];
    for (let i = a; i <= b; i++) if (!types.includes(this.#blocks[i].type)) types.push(this.#blocks[i].type);
    // the packer sized the run with the reserve of its first part; the chunk is the run alone
    const own = size - this.#held(a);
    // (without a prefix the run's size is its text's)
    const textSize = this.section.prefix ? this.measure.size(this.#parts[a].start, this.#parts[b].end) : own;
    this.#last = { a, b, size: textSize, heading: types.includes('heading') };
    return this.chunk(this.#parts[a].start, this.#parts[b].end, own, oversized && own > this.plan.chunkSize, types);
  }
}

/** The lines of a code block (fences included) as parts, each trimmed of whitespace; blank lines are left to the gaps. */
function codeLines(text: string, part: Part): Part[] {
  const lines: Part[] = [];
  let from = part.start;
  while (from < part.end) {
    let to = from;
    while (to < part.end && text.charCodeAt(to) !== 10 && text.charCodeAt(to) !== 13) to++;
    const span = trimSpan(text, from, to);
    if (span.end > span.start) lines.push({ start: span.start, end: span.end, block: part.block });
    from = to + (text.charCodeAt(to) === 13 && text.charCodeAt(to + 1) === 10 ? 2 : 1);
  }
  return lines;
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
 * text it skipped kept. With a `reserve` (a small lead-in before the block) the pieces
 * are cut for the budget less it, so the first one can take the lead-in.
 */
function fallbackLevel(owner: BlockLevel, part: Part, reserve: number): PackLevel {
  const { plan, text, section } = owner;
  const type = part.block.type;
  // a block after a small lead-in is cut for budget less the lead-in (every piece: one split)
  const budget = Math.max(1, plan.chunkSize - section.prefixSize - reserve);
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

/**
 * `level` with `reserve` units left free in its first run (runs from section 0 are sized
 * that much larger), for a small lead-in that {@link joinSmall} joins to that run; the
 * chunks are the level's own. `level` itself where there is no reserve.
 */
function reserved(level: PackLevel, reserve: number, max: number): PackLevel {
  if (reserve <= 0) return level;
  const held = (a: number) => (a === 0 ? reserve : 0);
  return {
    count: level.count,
    overlap: level.overlap,
    size: (i) => level.size(i) + held(i),
    estimate: (a, b) => level.estimate(a, b) + held(a),
    exact: (a, b) => level.exact(a, b) + held(a),
    hardBefore: level.hardBefore && ((i) => level.hardBefore!(i)),
    descend: level.descend && ((i) => level.descend!(i)),
    emit: (a, b, size, oversized) => level.emit(a, b, size - held(a), oversized && size - held(a) > max),
  };
}

/** What a chunk embeds without its section's prefix: its derived text (a table part's), else its text. */
function ownEmbed(text: string, section: Section, c: PlannedChunk): string {
  return c.embedText !== undefined ? c.embedText.slice(section.prefix.length) : text.slice(c.start, c.end);
}

/**
 * Chunks `a` and `b` (in order, not overlapping) of one section as one chunk, where it
 * fits the budget (text and embedText): its span from `a`'s start to `b`'s end, its
 * embedText (where either has one) `a`'s, the source between them and `b`'s, its block
 * types both in order; undefined where it does not fit.
 */
function joined(sizes: Sizes, a: PlannedChunk, b: PlannedChunk): PlannedChunk | undefined {
  const { text, section, plan } = sizes;
  if (b.start < a.end || a.oversized || b.oversized) return undefined;
  const derived = a.embedText !== undefined || b.embedText !== undefined ? ownEmbed(text, section, a) + text.slice(a.end, b.start) + ownEmbed(text, section, b) : undefined;
  const exact = derived === text.slice(a.start, b.end) ? undefined : derived;
  const size = sizes.spanSize(a.start, b.end, exact);
  if (size > plan.chunkSize) return undefined;
  const types = [...(a.metadata!.blockTypes as MarkdownBlockType[])];
  for (const t of b.metadata!.blockTypes as MarkdownBlockType[]) if (!types.includes(t)) types.push(t);
  const ra = a.metadata!.tableRows as [number, number] | undefined;
  const rb = b.metadata!.tableRows as [number, number] | undefined;
  const rows: [number, number] | undefined = ra && rb ? [ra[0], rb[1]] : (ra ?? rb);
  return sizes.chunk(a.start, b.end, size, false, types, exact, rows);
}

/**
 * Joins the small chunks of one section (`out` from `from` on, as packed) to a neighbour:
 * a chunk whose text is under the plan's `minChunkSize` units (a lone heading, a rule, an
 * HTML comment, a short lead-in line) joins the next chunk of the section where the two
 * fit the budget (a heading belongs to what it opens), else the chunk before it; one that
 * starts inside a block (the last piece of a block split across chunks) tries the chunk
 * before it first. Chunks
 * never cross a section start, so heading paths stay as they were; a section that is
 * small as a whole stays one small chunk. Each joined chunk is the exact source span of
 * both (with what lay between them).
 */
export function joinSmall(plan: MarkdownPlan, text: string, measure: RangeMeasure, section: Section, out: PlannedChunk[], from: number): void {
  if (out.length - from < 2) return;
  const sizes = new Sizes(plan, text, measure, section);
  const small = (c: PlannedChunk) => measure.size(c.start, c.end) < plan.minChunkSize;
  // a chunk that starts inside a block (a later piece of a block split across chunks: the
  // closing lines of a code block, the last rows of a table) belongs with what precedes it
  const blocks = section.blocks;
  let starts: number[] | undefined;
  const continues = (c: PlannedChunk) => {
    starts ??= blocks.map((b) => b.start);
    const k = upperBound(starts, c.start) - 1;
    return k >= 0 && blocks[k].start < c.start && c.start < blocks[k].end;
  };
  const kept: PlannedChunk[] = [];
  for (let i = from; i < out.length; i++) {
    let c = out[i];
    const before = kept[kept.length - 1];
    if (before && small(c) && continues(c)) {
      const back = joined(sizes, before, c);
      if (back) {
        kept[kept.length - 1] = back;
        continue;
      }
    }
    while (i + 1 < out.length && small(c)) {
      const next = joined(sizes, c, out[i + 1]);
      if (!next) break;
      c = next;
      i++;
    }
    const back = before && small(c) ? joined(sizes, before, c) : undefined;
    if (back) kept[kept.length - 1] = back;
    else kept.push(c);
  }
  out.splice(from, out.length - from, ...kept);
}
