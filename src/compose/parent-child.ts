/**
 * Parent–child (small-to-big) chunking: large parents for the context handed to the
 * model, small children cut from each parent for retrieval; each child names its parent.
 *
 * Source: SPEC section 1 ("parent–child (small-to-big)": parents of ~1000–1500 tokens,
 * children of ~100–200 tokens, only children embedded), the seeds' survey of chunking
 * strategies (`shared/seeds/001`).
 * @module
 */
import { chunkId, hashText, type Chunk } from '../core/chunk.js';
import { InvalidOptionError } from '../core/errors.js';
import { integerOption } from '../core/options.js';
import { isBlank, requireText, trimSpanWithin } from '../core/text.js';
import { MarkdownChunker } from '../strategies/markdown.js';
import { resolveUnits, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';
import { recursiveSpanSplitter, slidingSpanSplitter, type SpanSplitter } from './span-splitters.js';

/** Options of {@link ParentChildChunker}. */
export interface ParentChildOptions extends UnitOptions {
  /** Budget of a parent in units (tokens by default), an integer ≥ 1. Default 1024. */
  parentSize?: number;
  /** Budget of a child in units, an integer in [1, parentSize]. Default 128. */
  childSize?: number;
  /** Units shared by consecutive children of one parent, in [0, childSize). Default ⌊childSize / 8⌋. */
  childOverlap?: number;
  /**
   * Cut parents along Markdown structure ({@link MarkdownChunker}: heading paths, whole
   * code blocks and tables): `true`, `false`, or `'auto'` (default: when
   * {@link looksLikeMarkdown} says the text is Markdown).
   */
  markdown?: boolean | 'auto';
  /** The Markdown chunker's `fallback` for blocks over parentSize (default `'recursive'`). */
  fallback?: string | SpanSplitter;
  /** Splits plain text into parents (default: the RecursiveChunker at parentSize, no overlap). */
  parentSplitter?: SpanSplitter;
  /** Splits a parent into children (default: fixed-size windows of childSize with childOverlap). */
  childSplitter?: SpanSplitter;
}

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
 * Invariants (SPEC section 4) hold on both levels: `text === source.slice(start, end)`,
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
export class ParentChildChunker {
  readonly parentSize: number;
  readonly childSize: number;
  readonly childOverlap: number;
  readonly markdown: boolean | 'auto';
  readonly #resolved: ResolvedUnits;
  readonly #markdownChunker: MarkdownChunker;
  readonly #parentSplitter: SpanSplitter;
  readonly #childSplitter: SpanSplitter;

  constructor(options: ParentChildOptions = {}) {
    this.parentSize = integerOption('parentSize', options.parentSize, 1024);
    this.childSize = integerOption('childSize', options.childSize, Math.min(128, this.parentSize));
    if (this.childSize > this.parentSize) {
      throw new InvalidOptionError('childSize', this.childSize, `must be ≤ parentSize (${this.parentSize})`);
    }
    this.childOverlap = integerOption('childOverlap', options.childOverlap, Math.floor(this.childSize / 8), 0);
    if (this.childOverlap >= this.childSize) {
      throw new InvalidOptionError('childOverlap', this.childOverlap, `must be < childSize (${this.childSize})`);
    }
    const markdown: unknown = options.markdown ?? 'auto';
    if (markdown !== true && markdown !== false && markdown !== 'auto') {
      throw new InvalidOptionError('markdown', markdown, "true, false or 'auto'");
    }
    this.markdown = markdown;
    this.#resolved = resolveUnits(options);
    const unitOptions = { unit: this.#resolved.unit, encoding: this.#resolved.encoding, tokenizer: options.tokenizer };
    this.#markdownChunker = new MarkdownChunker({ ...unitOptions, chunkSize: this.parentSize, chunkOverlap: 0, fallback: options.fallback, countTokens: false });
    this.#parentSplitter = options.parentSplitter ?? recursiveSpanSplitter({ ...unitOptions, chunkOverlap: 0 });
    this.#childSplitter = options.childSplitter ?? slidingSpanSplitter({ ...unitOptions, chunkOverlap: this.childOverlap });
  }

  /**
   * Parents and children of `text`, each level in source order.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  split(text: string): ParentChildResult {
    requireText(text);
    const parents: Chunk[] = [];
    const children: Chunk[] = [];
    const byId = new Map<string, Chunk>();
    const result = { parents, children, getParent: (id: string) => byId.get(id) };
    if (isBlank(text)) return result;
    const sourceHash = hashText(text);
    const useMarkdown = this.markdown === 'auto' ? looksLikeMarkdown(text) : this.markdown;
    const parentSpans: { start: number; end: number; extra: Record<string, unknown>; embedText?: string }[] = useMarkdown
      ? this.#markdownChunker.chunk(text).map((c) => ({
          start: c.start,
          end: c.end,
          embedText: c.embedText,
          extra: { headingPath: c.metadata.headingPath, blockTypes: c.metadata.blockTypes, ...(c.metadata.tableRows ? { tableRows: c.metadata.tableRows } : {}) },
        }))
      : this.#spans(text, 0, text.length, this.#parentSplitter, this.parentSize).map((s) => ({ ...s, extra: {} }));

    for (const p of parentSpans) {
      const parent = this.#make(text, sourceHash, p.start, p.end, 'parent', parents, this.parentSize, { ...p.extra, markdown: useMarkdown });
      if (p.embedText !== undefined) parent.embedText = p.embedText;
      parents.push(parent);
      byId.set(parent.id, parent);
      const inherited = p.extra.headingPath ? { headingPath: p.extra.headingPath } : {};
      for (const s of this.#spans(text, p.start, p.end, this.#childSplitter, this.childSize)) {
        children.push(this.#make(text, sourceHash, s.start, s.end, 'child', children, this.childSize, { parentId: parent.id, ...inherited }));
      }
    }
    return result;
  }

  /**
   * Both levels in one list, each parent followed by its children; `metadata.level`
   * tells them apart and `index` counts within a level.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string): Chunk[] {
    const { parents, children } = this.split(text);
    const out: Chunk[] = [];
    let c = 0;
    for (const p of parents) {
      out.push(p);
      while (c < children.length && children[c].metadata.parentId === p.id) out.push(children[c++]);
    }
    return out;
  }

  /** Spans of `text[from, to)` by `splitter`, trimmed of edge whitespace, in source offsets; text a splitter skipped is kept. */
  #spans(text: string, from: number, to: number, splitter: SpanSplitter, size: number): { start: number; end: number }[] {
    const out: { start: number; end: number }[] = [];
    let covered = from;
    const fits = (s: number, e: number) => this.#resolved.units.count(text.slice(s, e)) <= size;
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

  #make(text: string, sourceHash: string, start: number, end: number, level: 'parent' | 'child', level_: Chunk[], size: number, extra: Record<string, unknown>): Chunk {
    const { units, unit, tokenizer, countTokens } = this.#resolved;
    const chunkText = text.slice(start, end);
    const unitCount = units.count(chunkText);
    const prev = level_[level_.length - 1];
    const sameParent = level === 'parent' || (prev && prev.metadata.parentId === extra.parentId);
    return {
      id: `${chunkId(sourceHash, start, end)}:${level}`,
      index: level_.length,
      text: chunkText,
      start,
      end,
      tokenCount: unit === 'token' ? unitCount : countTokens && tokenizer ? tokenizer.count(chunkText) : -1,
      metadata: {
        strategy: 'parent-child',
        unit: units.name,
        unitCount,
        overlap: prev && sameParent ? Math.max(0, prev.end - start) : 0,
        level,
        ...extra,
        ...(unitCount > size ? { oversized: true } : {}),
      },
    };
  }
}
