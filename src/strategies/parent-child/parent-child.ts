/**
 * Parent–child (small-to-big) chunking: large parents for the context handed to the
 * model, small children cut from each parent for retrieval; each child names its parent.
 *
 * Source: the small-to-big retrieval pattern (LlamaIndex's parent–child nodes): parents
 * of ~1000–1500 tokens, children of ~100–200 tokens, only children embedded.
 * @module
 */
import type { Chunk } from '../../engine/chunk.js';
import { cappedDefault, notAbove, typed, type OptionsOf, type StrategySchema } from '../../engine/options/schema.js';
import { defineStrategy, overlapBelow, type LevelSpan } from '../../engine/define.js';
import type { ChunkCallOptions } from '../../engine/ids.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { isBlank, trimSpanWithin } from '../../engine/text.js';
import { MarkdownChunker } from '../markdown/markdown.js';
import { innerUnitOptions, UNIT_OPTIONS } from '../../engine/size/resolve.js';
import { checkedSplitter, type SpanSplitter } from '../../engine/splitter.js';
import { recursiveSpanSplitter, slidingSpanSplitter } from '../../engine/pack/fallback.js';

const childWithinParent = notAbove('childSize', 'parentSize');
const childOverlapRule = overlapBelow('childSize', 'childOverlap');

/** The options schema of the parent–child strategy. */
export const PARENT_CHILD_SCHEMA = {
  name: 'parent-child',
  options: {
    parentSize: { type: 'integer', min: 1, default: 1024, doc: 'budget of a parent, in units' },
    childSize: {
      type: 'integer',
      min: 1,
      ...cappedDefault(128, 'parentSize'),
      doc: 'budget of a child, in units; at most parentSize',
    },
    childOverlap: {
      type: 'integer',
      min: 0,
      default: (r: Readonly<Record<string, unknown>>) => Math.floor((r.childSize as number) / 8),
      defaultDoc: '⌊childSize/8⌋',
      doc: 'units shared by consecutive children of one parent; less than childSize',
    },
    markdown: {
      type: 'enum',
      values: ['auto', true, false],
      default: 'auto',
      doc: 'cut parents along Markdown structure (heading paths, whole code blocks and tables); `auto`: when the text looks like Markdown',
    },
    fallback: typed<string | SpanSplitter>()({
      type: 'string',
      default: 'recursive',
      alsoAccepts: ['function'],
      doc: "the Markdown parents' splitter for blocks over parentSize: a registered name (`recursive`, `sliding`) or, in the API, a function",
    }),
    parentSplitter: typed<SpanSplitter>()({ type: 'function', doc: 'splits plain text into parents (default: the recursive splitter at parentSize, no overlap)' }),
    childSplitter: typed<SpanSplitter>()({ type: 'function', doc: 'splits a parent into children (default: fixed-size windows of childSize with childOverlap)' }),
    ...UNIT_OPTIONS,
  },
  check(r) {
    childWithinParent(r);
    childOverlapRule(r);
  },
} as const satisfies StrategySchema;

/** Options of {@link ParentChildChunker}: read from {@link PARENT_CHILD_SCHEMA}. */
export type ParentChildOptions = OptionsOf<typeof PARENT_CHILD_SCHEMA>;

/** What {@link ParentChildChunker.split} returns. */
export interface ParentChildResult {
  /** Parents in source order; `metadata.level === 'parent'`. */
  parents: Chunk[];
  /** Children in source order; `metadata.level === 'child'`, `metadata.parentId` set. */
  children: Chunk[];
  /** The parent with this id (a child's `metadata.parentId`), or undefined. */
  getParent(id: string): Chunk | undefined;
}

/**
 * Whether `text` looks like Markdown: an ATX heading (`# Title`), a code fence (```` ``` ````
 * or `~~~`) or a table delimiter row (`|---|---|`) at the start of a line.
 */
export function looksLikeMarkdown(text: string): boolean {
  return /^ {0,3}(#{1,6}[ \t]+\S|```|~~~)/m.test(text) || /^ {0,3}\|?[ \t]*:?-{3,}:?[ \t]*\|/m.test(text);
}

/**
 * Parents of at most `parentSize` units, and children of at most `childSize` units cut
 * from each parent (overlapping by `childOverlap` units within a parent, never across
 * parents). Every child has `metadata.parentId`, the `id` of its parent; ids end in
 * `:parent` / `:child` so the two levels never share one. Parents of Markdown come from
 * {@link MarkdownChunker} and carry `headingPath`, which their children inherit.
 *
 * The chunk invariants hold on both levels: `text === source.slice(start, end)`,
 * every non-whitespace character in some parent and in some child, budgets hold on the
 * exact text (a single unit larger than the budget is flagged `oversized`).
 *
 * @example
 * ```ts
 * const pc = new ParentChildChunker({ parentSize: 1024, childSize: 128, childOverlap: 16 });
 * const { children, getParent } = pc.split(text);
 * const context = getParent(children[0].metadata.parentId as string)!.text;
 * ```
 * @throws {InvalidOptionError} at construction for sizes that are not integers ≥ 1,
 *   childSize > parentSize, childOverlap outside [0, childSize), or a bad markdown value.
 */
export class ParentChildChunker extends defineStrategy({
  name: 'parent-child',
  description: 'parents of parentSize units (Markdown-aware) and children of childSize units with parentId',
  schema: PARENT_CHILD_SCHEMA,
  budget: { size: 'childSize', overlap: 'childOverlap' },
}) {
  readonly parentSize: number = this.options.parentSize;
  readonly childSize: number = this.options.childSize;
  readonly childOverlap: number = this.options.childOverlap;
  readonly markdown: boolean | 'auto' = this.options.markdown;
  readonly #unitOptions = innerUnitOptions(this.resolved, this.options.tokenizer);
  readonly #markdownChunker = new MarkdownChunker({ ...this.#unitOptions, chunkSize: this.parentSize, chunkOverlap: 0, fallback: this.options.fallback });
  readonly #parentSplitter: SpanSplitter = this.options.parentSplitter
    ? checkedSplitter('parentSplitter', this.options.parentSplitter)
    : recursiveSpanSplitter({ ...this.#unitOptions, chunkOverlap: 0 });
  readonly #childSplitter: SpanSplitter = this.options.childSplitter
    ? checkedSplitter('childSplitter', this.options.childSplitter)
    : slidingSpanSplitter({ ...this.#unitOptions, chunkOverlap: this.childOverlap });

  /**
   * Parents and children of `text`, each level in source order.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  split(text: string, options?: ChunkCallOptions): ParentChildResult {
    const byId = new Map<string, Chunk>();
    const result: ParentChildResult = { parents: [], children: [], getParent: (id: string) => byId.get(id) };
    for (const c of this.chunk(text, options)) {
      if (c.metadata.level === 'parent') {
        result.parents.push(c);
        byId.set(c.id, c);
      } else result.children.push(c);
    }
    return result;
  }

  /**
   * The planned spans of both levels ({@link LevelSpan}s), each parent followed by its
   * children (`parent` names the child's parent span): `chunk` returns both levels in
   * this order, `metadata.level` tells them apart and `index` counts within a level.
   */
  spans(text: string): LevelSpan[] {
    const useMarkdown = this.markdown === 'auto' ? looksLikeMarkdown(text) : this.markdown;
    const parentSpans: PlannedChunk[] = useMarkdown
      ? this.#markdownChunker.planned(text).map((c) => ({
          start: c.start,
          end: c.end,
          ...(c.embedText !== undefined ? { embedText: c.embedText } : {}),
          metadata: { headingPath: c.metadata?.headingPath, blockTypes: c.metadata?.blockTypes, ...(c.metadata?.tableRows ? { tableRows: c.metadata.tableRows } : {}) },
          ...(c.oversized ? { oversized: true } : {}),
        }))
      : this.#spans(text, 0, text.length, this.#parentSplitter, this.parentSize).map((s) => ({ ...s, metadata: {} }));
    const out: LevelSpan[] = [];
    for (const p of parentSpans) {
      const unitCount = this.resolved.units.size(text.slice(p.start, p.end));
      const parent = out.length;
      out.push({ ...p, level: 'parent', unitCount, metadata: { level: 'parent', ...p.metadata, markdown: useMarkdown }, idSuffix: ':parent', ...(p.oversized || unitCount > this.parentSize ? { oversized: true } : {}) });
      const inherited = p.metadata?.headingPath ? { headingPath: p.metadata.headingPath } : {};
      let prev: LevelSpan | undefined;
      for (const s of this.#spans(text, p.start, p.end, this.#childSplitter, this.childSize)) {
        // a child that lies inside the previous one adds nothing (trimmed windows of a large overlap)
        if (prev && s.start >= prev.start && s.end <= prev.end) continue;
        const unitCount = this.resolved.units.size(text.slice(s.start, s.end));
        // parentId: the parent chunk's id, filled in by the assembly of the levels
        prev = { ...s, level: 'child', parent, unitCount, metadata: { level: 'child', parentId: '', ...inherited }, idSuffix: ':child', ...(unitCount > this.childSize ? { oversized: true } : {}) };
        out.push(prev);
      }
    }
    return out;
  }

  /** Spans of `text[from, to)` by `splitter`, trimmed of edge whitespace, in source offsets; text a splitter skipped is kept. */
  #spans(text: string, from: number, to: number, splitter: SpanSplitter, size: number): { start: number; end: number }[] {
    const out: { start: number; end: number }[] = [];
    let covered = from;
    const fits = (s: number, e: number) => this.resolved.units.size(text.slice(s, e)) <= size;
    const keep = (s: number, e: number) => {
      const span = trimSpanWithin(text, s, e, fits);
      if (span.end > span.start) out.push(span);
    };
    for (const s of splitter(text.slice(from, to), size)) {
      if (from + s.start > covered && !isBlank(text.slice(covered, from + s.start))) keep(covered, from + s.start);
      keep(from + s.start, from + s.end);
      covered = Math.max(covered, from + s.end);
    }
    if (covered < to && !isBlank(text.slice(covered, to))) keep(covered, to);
    return out;
  }
}
