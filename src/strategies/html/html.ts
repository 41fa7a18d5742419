/**
 * Structure-aware HTML chunking: chunks follow the document's blocks, carry the heading
 * path they lie under, keep lists, `pre` blocks and tables whole where they fit, and cut
 * a table too large for the budget between rows with every row labelled by its header
 * cells in `embedText`.
 *
 * Tables keep their labels (a cell such as "€ 45.000" says nothing without its row and
 * column). Parsing:
 * htmlparser2's tokenizer and a linear tree builder (`src/strategies/html/tree.ts`; why not
 * htmlparser2's `Parser` or parse5 is said there and in docs/html.md). The strategy is
 * its boundaries (`src/strategies/html/blocks.ts`: blocks, visible text, heading paths, dropped
 * landmarks; `src/engine/boundaries/tables.ts`: labelled rows) and its options schema; packing is
 * the shared packer's greedy policy over the blocks' visible text, long text runs are
 * split by the recursive splitter, chunks come from the shared assembler.
 *
 * The only module that imports the HTML parser: the root entry's other strategies do
 * not load it.
 * @module
 */
import type { Chunk, ChunkMetadata } from '../../engine/chunk.js';
import { typed, type OptionsOf, type StrategySchema } from '../../engine/options/schema.js';
import { requireText } from '../../engine/text.js';
import type { ChunkCallOptions } from '../../engine/ids.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { RangeSplitter } from '../../engine/pack/fallback.js';
import { SpanLevel, spanArrays, TableRowsLevel } from '../../engine/pack/levels.js';
import { pack, type PackLevel, type PackStats } from '../../engine/pack/pack.js';
import { LANDMARKS, outlineHtml, type DroppedRegion, type HtmlBlock, type HtmlOutline, type Landmark } from './blocks.js';
import { columnLabels, labelledRow } from '../../engine/boundaries/tables.js';
import { rangeMeasure, type RangeMeasure } from '../../engine/size/measure.js';
import { UNIT_OPTIONS, type ResolvedUnits, type UnitOptions } from '../../engine/size/resolve.js';
import { capacitySchema, defineStrategy } from '../../engine/define.js';
import { addWork, type Work } from '../../engine/work.js';

export { LANDMARKS, type DroppedRegion, type Landmark };

function dropProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.some((v) => !(LANDMARKS as readonly unknown[]).includes(v))) {
    return `must be an array of landmark names (${LANDMARKS.join(', ')}); [] keeps every landmark`;
  }
  return undefined;
}

/** The options schema of the HTML strategy. */
export const HTML_SCHEMA = capacitySchema(
  'html',
  {
    drop: typed<readonly Landmark[]>()({
      type: 'json',
      default: LANDMARKS,
      defaultDoc: '`["nav","aside","header","footer"]`',
      doc: 'page landmarks left out of the content (reported in `metadata.dropped`); `[]` keeps them; a `header`/`footer` inside `article`, `section`, `aside`, `nav` or `main` is content and always kept',
      check: dropProblem,
    }),
  },
  {
    size: 'budget per chunk, in units, measured on `embedText` (the visible text the chunk embeds)',
    overlap: 'overlap between the pieces of one block too long for the budget (split as text); whole blocks never overlap',
  },
) satisfies StrategySchema;

/** Options of {@link HtmlChunker}: read from {@link HTML_SCHEMA}. */
export type HtmlOptions = OptionsOf<typeof HTML_SCHEMA>;

/** Metadata of an HTML chunk (on top of the common fields). */
export interface HtmlChunkMetadata {
  /** Headings (and labelled sections) the chunk lies under, outermost first; a chunk starting with headings ends with the last of them. */
  headingPath: string[];
  /** Tag names of the blocks in the chunk, in order, each once (`#text`: inline content between blocks). */
  elementTypes: string[];
  /** Size of `embedText` in the chunk's unit: what the budget holds for. */
  embedUnitCount: number;
  /** For a part of a table cut by rows: its body rows [first, last], 1-based. */
  tableRows?: [number, number];
  /** Dropped landmarks after the previous chunk's end up to this chunk's end (after the last chunk: on the last one). */
  dropped?: DroppedRegion[];
}

/** A chunk made by {@link HtmlChunker}: `embedText` is always set. */
export type HtmlChunk = Chunk & { embedText: string; metadata: ChunkMetadata & HtmlChunkMetadata };

/**
 * Chunks HTML along its blocks, with budgets of `chunkSize` units (tokens by default,
 * or characters / words) on the visible text.
 *
 * - `text` is the exact source slice (`html.slice(start, end)`, markup included);
 *   `embedText` is its visible text: entities decoded, whitespace collapsed, no tags,
 *   nothing of `script`, `style`, `template`, `noscript`, `head` or hidden elements, nor
 *   of dropped landmarks inside the span. **The budget holds for `embedText`** (the text
 *   that gets embedded), measured exactly; `metadata.embedUnitCount` is its size and
 *   `tokenCount` its tokens (as for every chunk with `embedText`), while `unitCount`
 *   measures `text` as for every strategy.
 * - Blocks (paragraphs, headings, lists, `pre`, tables, block quotes, figures, inline
 *   content between blocks) are packed whole, in order; containers (`div`, `section`,
 *   `main` …) are flattened. A chunk never crosses a change of heading path, except that
 *   headings directly followed by what lies under them start its first chunk.
 * - A block too large for the budget is split: a list into its items (an item into its
 *   blocks), a block quote or figure into its blocks, a table between rows (each part's
 *   `embedText` is the caption and header lines, then each row as `Header: value |
 *   Header: value`; `metadata.tableRows`), anything else (a paragraph, a `pre`, an
 *   irregular table) as text by the recursive splitter, with `chunkOverlap`. One table
 *   row over the budget is a chunk of its own flagged `oversized`.
 * - Nothing visible in the kept content is lost: every non-whitespace character of the
 *   visible text lies in some chunk's `embedText` and its source in that chunk's span.
 *   Dropped landmarks are listed in `metadata.dropped`.
 *
 * Invalid HTML (unclosed and stray tags, text only, a 10 MB line) chunks without error,
 * in time linear in its length and nesting. Chunks are not streamed (`chunkStream` is
 * absent): the heading path of a block depends on all the markup before it.
 *
 * @example
 * ```ts
 * const chunker = new HtmlChunker({ chunkSize: 256 });
 * for (const c of chunker.chunk(html)) console.log(c.metadata.headingPath, c.embedText);
 * ```
 * @throws {InvalidOptionError} at construction for an unknown option (with the closest
 *   valid name), a chunkSize that is not an integer ≥ 1, a chunkOverlap outside
 *   [0, chunkSize), a `drop` that is not an array of landmark names, a bad unit or encoding.
 */
export class HtmlChunker extends defineStrategy({
  name: 'html',
  description: 'HTML by blocks: heading paths, whole lists, pre blocks and tables (over-long tables by labelled rows), landmarks (nav, aside, page header/footer) dropped; chunkSize units of visible text',
  schema: HTML_SCHEMA,
  extensions: ['.html', '.htm', '.xhtml'],
}) {
  readonly chunkSize: number = this.options.chunkSize;
  readonly chunkOverlap: number = this.options.chunkOverlap;
  readonly drop: readonly Landmark[] = [...this.options.drop];
  readonly #drop: ReadonlySet<string> = new Set(this.drop);

  /**
   * The outline of `html` the chunks are planned on: blocks, visible text, dropped
   * regions (see `src/strategies/html/blocks.ts`).
   */
  outline(html: string): HtmlOutline {
    requireText(html);
    return outlineHtml(html, { drop: this.#drop });
  }

  /**
   * Where the visible text of the kept content lies in `html`: source spans `[start, end)`
   * in order (markup, hidden elements and dropped landmarks lie between them). Every
   * non-whitespace character in them lies in a chunk ("nothing visible lost"); the web
   * page counts lost text within them.
   */
  visibleSpans(html: string): { start: number; end: number }[] {
    return this.outline(html).map.sourceSpans();
  }

  /**
   * Chunks `html`. Empty, whitespace-only or invisible content gives no chunks.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `html` is not a string.
   */
  override chunk(html: string, options?: ChunkCallOptions): HtmlChunk[] {
    return super.chunk(html, options) as HtmlChunk[];
  }

  protected override plannedSpans(html: string, work: Work | undefined): PlannedChunk[] {
    return this.spans(html, work);
  }

  /**
   * The planned chunks of `html` (what {@link chunk} assembles), with the dropped regions attached.
   * @param work counters the work is added to: `operations` (tokenizer events, tree and walk steps, packer steps, measures; the recursive splitter adds its own), `packSteps`.
   */
  spans(html: string, work?: Work): PlannedChunk[] {
    const outline = outlineHtml(html, { drop: this.#drop });
    const measure = rangeMeasure(outline.visible, this.resolved.units);
    const plan = new Plan(this, outline, measure, this.resolved, work);
    const stats: PackStats = { steps: 0, exact: 0 };
    const planned = outline.blocks.length ? pack(plan.level(outline.blocks, true), { max: this.chunkSize }, [], stats) : [];
    attachDropped(planned, outline.dropped);
    if (work) {
      addWork(work, 'operations', outline.operations + stats.steps + stats.exact + measure.calls + plan.operations);
      addWork(work, 'packSteps', stats.steps + stats.exact);
    }
    return planned;
  }
}

/** Nested groups (lists in lists …) the packer descends into before splitting the rest as text. */
const MAX_NESTING = 64;

/** The packer levels of one document. */
class Plan {
  operations = 0;
  /** The last emitted source span (pieces that map to the same span are dropped). */
  #lastStart = -1;
  #lastEnd = -1;
  #splitter: RangeSplitter | undefined;

  constructor(
    readonly chunker: HtmlChunker,
    readonly outline: HtmlOutline,
    readonly measure: RangeMeasure,
    readonly units: ResolvedUnits,
    readonly work: Work | undefined,
  ) {}

  /** Sibling blocks as a level: their visible spans, measured exactly; hard breaks at the top level. */
  level(blocks: HtmlBlock[], top: boolean, depth = 0): PackLevel {
    const { starts, ends } = spanArrays(blocks.length, (i) => blocks[i].vStart, (i) => blocks[i].vEnd);
    return new SpanLevel(this.measure, starts, ends, {
      hardBefore: top ? (i) => blocks[i].hardBefore : undefined,
      descend: (i) => this.#descend(blocks[i], depth),
      emit: (a, b, size, oversized) => {
        const types: string[] = [];
        for (let i = a; i <= b; i++) if (!types.includes(blocks[i].tag)) types.push(blocks[i].tag);
        // the path of the last block: leading headings are above it
        return this.#chunk(blocks[a].start, blocks[b].end, this.outline.visible.slice(blocks[a].vStart, blocks[b].vEnd), blocks[b], types, size, oversized);
      },
    });
  }

  #chunk(start: number, end: number, embedText: string, block: HtmlBlock, types: string[], size: number, oversized: boolean, extra?: Partial<HtmlChunkMetadata>): PlannedChunk | undefined {
    this.operations++;
    if (start < 0 || end <= start || (start === this.#lastStart && end === this.#lastEnd)) return undefined;
    this.#lastStart = start;
    this.#lastEnd = end;
    const chunk: PlannedChunk = {
      start,
      end,
      embedText,
      embedUnitCount: size,
      metadata: { headingPath: this.outline.headingPath(block.path), elementTypes: types, embedUnitCount: size, ...extra },
    };
    if (oversized) chunk.oversized = true;
    return chunk;
  }

  /**
   * The finer level of a block over the budget. Below {@link MAX_NESTING} nested groups
   * (a list 50,000 deep) a group is split as text: the packer descends by recursion.
   */
  #descend(block: HtmlBlock, depth = 0): PackLevel | undefined {
    if (block.kind === 'group' && depth < MAX_NESTING) {
      if (block.children!.length > 1) return this.level(block.children!, false, depth + 1);
      return this.#descend(block.children![0], depth + 1);
    }
    if (block.kind === 'table' && block.table!.regular && block.table!.body.length > 0) return this.#rows(block);
    return this.#text(block);
  }

  /** A table's body rows, labelled by its header cells. */
  #rows(block: HtmlBlock): PackLevel {
    const t = block.table!;
    const v = this.outline.visible;
    const cellText = (c: { vStart: number; vEnd: number }) => (c.vStart < 0 ? '' : v.slice(c.vStart, c.vEnd));
    const cells = (row: (typeof t.body)[number]) => row.cells.map((c) => ({ text: cellText(c), span: c.span }));
    const labels = columnLabels(t.head.map(cells));
    const rows = t.body.map((row) => labelledRow(labels, cells(row)));
    const header = [t.caption && t.caption.vStart >= 0 ? cellText(t.caption) : '', ...t.head.map((r) => v.slice(r.vStart, r.vEnd))].filter(Boolean).join('\n');
    const last = t.body.length - 1;
    this.operations += rows.length;
    return new TableRowsLevel({
      header,
      rows,
      sizer: this.units.units,
      estimate: 'apart',
      emit: (a, b, text, size, oversized) =>
        this.#chunk(a === 0 ? block.start : t.body[a].start, b === last ? block.end : t.body[b].end, text, block, ['table'], size, oversized, { tableRows: [a + 1, b + 1] }),
    });
  }

  /** A block's visible text split by the piece tree (the fallback level); each piece is a chunk (flagged oversized when one grapheme is over the budget). */
  #text(block: HtmlBlock): PackLevel | undefined {
    const { visible, map } = this.outline;
    // the blocks of a document share one splitter over the visible text (one separator index)
    this.#splitter ??= new RangeSplitter(this.measure);
    const spans = this.#splitter.split(block.vStart, block.vEnd, { max: this.chunker.chunkSize, overlap: this.chunker.chunkOverlap }, this.work);
    if (spans.length === 0) return undefined;
    const { starts, ends } = spanArrays(spans.length, (k) => spans[k].start, (k) => spans[k].end);
    return new SpanLevel(this.measure, starts, ends, {
      gaps: 'none',
      hardBefore: () => true,
      emit: (a, _b, size, oversized) => {
        const vs = starts[a];
        const ve = ends[a];
        const start = vs === block.vStart ? block.start : map.sourceStart(vs);
        const end = ve === block.vEnd ? block.end : map.sourceEnd(ve);
        return this.#chunk(start, end, visible.slice(vs, ve), block, [block.tag], size, oversized);
      },
    });
  }
}

/** Lists each dropped region on the first chunk that ends after it (those after the last chunk: on the last chunk). */
function attachDropped(planned: PlannedChunk[], dropped: readonly DroppedRegion[]): void {
  if (planned.length === 0 || dropped.length === 0) return;
  let k = 0;
  for (let c = 0; c < planned.length && k < dropped.length; c++) {
    const here: DroppedRegion[] = [];
    const isLast = c === planned.length - 1;
    while (k < dropped.length && (isLast || dropped[k].start < planned[c].end)) here.push(dropped[k++]);
    if (here.length) planned[c].metadata = { ...planned[c].metadata, dropped: here };
  }
}
