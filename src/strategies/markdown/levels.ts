/**
 * The Markdown strategy's pack levels: the blocks of a heading section (sizes with the
 * section's embed prefix), a container's children, a table's rows, and the fallback for
 * any other block too large alone.
 * @module
 */
import { isBlank, trimSpan, trimSpanWithin, type TextSpan } from '../../engine/text.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { JoinSums, TableRowsLevel } from '../../engine/pack/levels.js';
import type { PackLevel } from '../../engine/pack/pack.js';
import { columnLabels, labelledRow } from '../../engine/boundaries/tables.js';
import { inlineText, rowCellTexts, tableCells, type MarkdownBlock, type MarkdownBlockType } from './blocks.js';
import type { RangeMeasure } from '../../engine/size/measure.js';
import { coverSpans, PiecesLevel } from '../../engine/pack/fallback.js';
import type { MarkdownPlan, Section } from './markdown.js';

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
