/**
 * Structure-aware Markdown chunking: the heading tree gives every chunk its heading
 * path; fenced code and tables are indivisible; a table too large for the budget is cut
 * by rows and each part's `embedText` repeats the header lines and labels every value;
 * a block too large for the budget is split inside (lists by items, block quotes by
 * children, anything else by the fallback splitter).
 *
 * Source: SPEC section 1 ("structure-aware (Markdown)"), the seeds' survey of chunking
 * strategies (`shared/seeds/001`). Parsing: micromark / mdast (`mdast-util-from-markdown`
 * with GFM tables and YAML/TOML front matter); mdast `position.offset`s are indices into
 * the JavaScript string, i.e. UTF-16 code units, counting CRLF as two.
 * @module
 */
import type { Nodes, Parent, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { chunkId, hashText, type Chunk, type ChunkMetadata } from '../chunk.js';
import { InvalidOptionError } from '../errors.js';
import { requireInteger } from '../options.js';
import { isBlank } from '../units/index.js';
import { requireText, resolveUnits, type ResolvedUnits, type UnitOptions } from './sliding-window.js';
import { resolveFallback, trimSpan, trimSpanWithin, type SpanSplitter } from './spans.js';

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
   * block) is split: a registered name
   * (`'recursive'`, the default, or `'sliding'`; more with `registerFallback`),
   * or a function `(text, chunkSize) => spans`.
   */
  fallback?: string | SpanSplitter;
  /**
   * Prefix each chunk's `embedText` with its heading path (`A > B > C`, a blank line, then
   * the text). The budget then holds for `embedText` too. Default false.
   */
  contextualHeaders?: boolean;
}

/** Kinds of block a Markdown chunk may hold (mdast node types, front matter as `yaml`/`toml`). */
export type MarkdownBlockType = RootContent['type'];

/** A block: a top-level (or, where split, nested) mdast node with its source span. */
interface Block {
  start: number;
  end: number;
  node: Nodes;
  /** Units of `source.slice(start, end)`, measured alone. */
  count: number;
}

interface Section {
  path: string[];
  blocks: Block[];
  /** The section holds only its heading. */
  headingOnly: boolean;
}

/** Metadata of a Markdown chunk (on top of the common fields). */
export interface MarkdownChunkMetadata {
  headingPath: string[];
  blockTypes: string[];
  /** For a part of a table cut by rows: body rows [first, last], 1-based. */
  tableRows?: [number, number];
}

/** A chunk made by {@link MarkdownChunker}. */
export type MarkdownChunk = Chunk & { metadata: ChunkMetadata & MarkdownChunkMetadata };

interface Piece {
  start: number;
  end: number;
  types: string[];
  oversized?: boolean;
  /** Derived text to embed instead of the slice (table parts). */
  derived?: string;
  tableRows?: [number, number];
}

const PARSE_OPTIONS = {
  extensions: [gfm(), frontmatter(['yaml', 'toml'])],
  mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])],
};

/** Node types kept whole whatever their size (flagged `oversized` when over the budget). */
const INDIVISIBLE = new Set(['code', 'math']);
/** Container types split into their children when over the budget. */
const CONTAINERS = new Set(['list', 'listItem', 'blockquote', 'footnoteDefinition']);

/**
 * Parses Markdown into mdast (CommonMark + GFM + YAML/TOML front matter).
 * Positions' `offset`s are UTF-16 indices into `text`.
 */
export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, PARSE_OPTIONS);
}

/**
 * Chunks Markdown along its structure, with budgets of `chunkSize` units (tokens by
 * default, or characters / words).
 *
 * - Sections: each heading starts a section; the section's chunks carry
 *   `metadata.headingPath`, the texts of the headings above (e.g. `["Guide", "Install"]`;
 *   levels may skip). A heading directly followed by a deeper heading joins that
 *   section's first chunk. Text before the first heading has the path `[]`; front
 *   matter is a chunk of its own.
 * - Blocks (paragraphs, lists, tables, code, HTML, block quotes…) are packed whole, in
 *   order, into chunks of at most `chunkSize` units measured on the exact chunk text;
 *   chunks never cross a heading.
 * - Fenced and indented code are never cut; one larger than the budget is a chunk of its
 *   own with `metadata.oversized = true`.
 * - A table larger than the budget is cut between rows; every part's `embedText` is the
 *   header lines (through the delimiter row) followed by its rows, one per line, as
 *   `Header: value | Header: value`. A single row over the budget is flagged `oversized`.
 * - A list or block quote larger than the budget is split into its items / children
 *   (recursively); any other block larger than the budget goes to the `fallback` splitter.
 *
 * Every chunk keeps `text === source.slice(start, end)` (UTF-16), never starts or ends
 * with whitespace, and every non-whitespace character of the source lies in a chunk.
 *
 * @example
 * ```ts
 * const chunker = new MarkdownChunker({ chunkSize: 256 });
 * for (const c of chunker.chunk(markdown)) console.log(c.metadata.headingPath, c.text.length);
 * ```
 * @throws {InvalidOptionError} at construction for a chunkSize that is not an integer ≥ 1,
 *   a chunkOverlap outside [0, chunkSize), an unknown fallback or unit.
 */
export class MarkdownChunker {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly contextualHeaders: boolean;
  readonly unit: string;
  readonly encoding: string;
  readonly #resolved: ResolvedUnits;
  readonly #fallback: SpanSplitter;

  constructor(options: MarkdownOptions = {}) {
    this.chunkSize = requireInteger('chunkSize', options.chunkSize ?? 512);
    const defaultOverlap = Math.min(64, Math.floor(this.chunkSize / 8));
    this.chunkOverlap = requireInteger('chunkOverlap', options.chunkOverlap ?? defaultOverlap, 0);
    if (this.chunkOverlap >= this.chunkSize) {
      throw new InvalidOptionError('chunkOverlap', this.chunkOverlap, `must be < chunkSize (${this.chunkSize})`);
    }
    const contextual: unknown = options.contextualHeaders ?? false;
    if (typeof contextual !== 'boolean') throw new InvalidOptionError('contextualHeaders', contextual, 'must be a boolean');
    this.contextualHeaders = contextual;
    this.#resolved = resolveUnits(options);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
    this.#fallback = resolveFallback(options.fallback ?? 'recursive', {
      unit: this.#resolved.unit,
      encoding: this.#resolved.encoding,
      tokenizer: options.tokenizer,
      chunkOverlap: this.chunkOverlap,
    });
  }

  /**
   * Chunks Markdown `text`. Empty or whitespace-only text gives no chunks.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string): MarkdownChunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    const sections = this.#sections(text);
    const out: MarkdownChunk[] = [];
    const sourceHash = hashText(text);
    let prevEnd = 0;
    for (const section of sections) {
      const prefix = this.contextualHeaders && section.path.length ? section.path.join(' > ') + '\n\n' : '';
      for (const piece of new SectionPacker(this, text, section, prefix).pack()) {
        const chunkText = text.slice(piece.start, piece.end);
        const unitCount = this.count(chunkText);
        const index = out.length;
        const derived = prefix || piece.derived !== undefined ? prefix + (piece.derived ?? chunkText) : undefined;
        const { tokenizer, countTokens, unit, units } = this.#resolved;
        out.push({
          id: chunkId(sourceHash, piece.start, piece.end),
          index,
          text: chunkText,
          start: piece.start,
          end: piece.end,
          tokenCount: unit === 'token' ? unitCount : countTokens && tokenizer ? tokenizer.count(chunkText) : -1,
          ...(derived !== undefined ? { embedText: derived } : {}),
          metadata: {
            strategy: 'markdown',
            unit: units.name,
            unitCount,
            overlap: index === 0 ? 0 : Math.max(0, prevEnd - piece.start),
            headingPath: section.path,
            blockTypes: piece.types,
            ...(piece.tableRows ? { tableRows: piece.tableRows } : {}),
            ...(piece.oversized ? { oversized: true } : {}),
          },
        });
        prevEnd = piece.end;
      }
    }
    return out;
  }

  /** Units of `text` in this chunker's unit. @internal */
  count(text: string): number {
    return this.#resolved.units.count(text);
  }

  /** The fallback splitter. @internal */
  get fallback(): SpanSplitter {
    return this.#fallback;
  }

  /** Top-level blocks grouped into sections by heading. */
  #sections(text: string): Section[] {
    const root = parseMarkdown(text);
    const sections: Section[] = [];
    const stack: { depth: number; text: string }[] = [];
    let current: Section | undefined;
    for (const node of root.children) {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start === undefined || end === undefined || end <= start) continue;
      // indented code starts at its indentation; a paragraph may end in trailing spaces
      const span = trimSpan(text, start, end);
      if (span.end <= span.start) continue;
      const block: Block = { start: span.start, end: span.end, node, count: -1 };
      if (node.type === 'heading') {
        while (stack.length && stack[stack.length - 1].depth >= node.depth) stack.pop();
        stack.push({ depth: node.depth, text: plainText(node) });
        current = { path: stack.map((h) => h.text), blocks: [block], headingOnly: true };
        sections.push(current);
      } else if (node.type === 'yaml' || (node.type as string) === 'toml') {
        sections.push({ path: [], blocks: [block], headingOnly: false });
        current = undefined;
      } else {
        if (!current) {
          current = { path: stack.map((h) => h.text), blocks: [], headingOnly: false };
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
      if (s.headingOnly && next && next.path.length > s.path.length && s.path.every((h, k) => next.path[k] === h)) {
        next.blocks.unshift(...s.blocks);
        continue;
      }
      merged.push(s);
    }
    return merged;
  }
}

/** Packs one section's blocks into pieces within the budget. */
class SectionPacker {
  readonly #c: MarkdownChunker;
  readonly #text: string;
  readonly #section: Section;
  readonly #prefix: string;
  readonly #budget: number;
  readonly #out: Piece[] = [];

  constructor(chunker: MarkdownChunker, text: string, section: Section, prefix: string) {
    this.#c = chunker;
    this.#text = text;
    this.#section = section;
    this.#prefix = prefix;
    // with a contextual header, the text's budget leaves room for the prefix
    this.#budget = Math.max(1, chunker.chunkSize - (prefix ? chunker.count(prefix) : 0));
  }

  pack(): Piece[] {
    this.#packBlocks(this.#section.blocks);
    return this.#out;
  }

  #count(start: number, end: number): number {
    return this.#c.count(this.#text.slice(start, end));
  }

  /** Whether a piece (its text, and its embedText where it has one) fits chunkSize. */
  #fits(start: number, end: number, derived?: string): boolean {
    const size = this.#c.chunkSize;
    const slice = this.#text.slice(start, end);
    if (this.#c.count(slice) > size) return false;
    if (this.#prefix || derived !== undefined) return this.#c.count(this.#prefix + (derived ?? slice)) <= size;
    return true;
  }

  #packBlocks(blocks: Block[]): void {
    let pending: Block[] = [];
    let estimate = 0;
    for (const block of blocks) {
      if (block.count < 0) block.count = this.#count(block.start, block.end);
      if (block.count > this.#budget) {
        this.#flush(pending);
        pending = [];
        estimate = 0;
        this.#split(block);
        continue;
      }
      const gap = pending.length ? this.#count(pending[pending.length - 1].end, block.start) : 0;
      if (pending.length && estimate + gap + block.count > this.#budget) {
        this.#flush(pending);
        pending = [];
        estimate = 0;
        pending.push(block);
        estimate = block.count;
      } else {
        pending.push(block);
        estimate += gap + block.count;
      }
    }
    this.#flush(pending);
  }

  /** Emits pending blocks as pieces, measured on the exact text; splits where the estimate was low. */
  #flush(blocks: Block[]): void {
    let from = 0;
    while (from < blocks.length) {
      let to = blocks.length;
      while (to - from > 1 && !this.#fits(blocks[from].start, blocks[to - 1].end)) to--;
      if (to - from === 1 && !this.#fits(blocks[from].start, blocks[from].end)) {
        this.#split(blocks[from]); // fits alone by its count but not with the prefix
      } else {
        const group = blocks.slice(from, to);
        this.#out.push({ start: group[0].start, end: group[group.length - 1].end, types: typesOf(group) });
      }
      from = to;
    }
  }

  /** A block over the budget: kept whole (code), cut by rows (table), by children (containers) or by the fallback. */
  #split(block: Block): void {
    const type = block.node.type;
    if (INDIVISIBLE.has(type) || type === 'yaml' || (type as string) === 'toml') {
      this.#out.push({ start: block.start, end: block.end, types: [type], oversized: !this.#fits(block.start, block.end) });
      return;
    }
    if (type === 'table') {
      this.#splitTable(block, block.node as Table);
      return;
    }
    if (CONTAINERS.has(type) && 'children' in block.node && (block.node as Parent).children.length > 0) {
      const children = coverChildren(this.#text, block, (block.node as Parent).children as Nodes[]);
      if (children.length > 1 || (children.length === 1 && CONTAINERS.has(children[0].node.type))) {
        this.#packBlocks(children);
        return;
      }
    }
    this.#splitFallback(block);
  }

  #splitFallback(block: Block): void {
    const slice = this.#text.slice(block.start, block.end);
    const spans = this.#c.fallback(slice, this.#budget);
    let covered = block.start;
    for (const s of spans) {
      const span = trimSpanWithin(this.#text, block.start + s.start, block.start + s.end, (a, b) => this.#fits(a, b));
      if (span.end <= span.start) continue;
      // a splitter that skipped text: keep it rather than lose it
      if (span.start > covered && !isBlank(this.#text.slice(covered, span.start))) {
        const gap = trimSpan(this.#text, covered, span.start);
        this.#out.push({ ...gap, types: [block.node.type], oversized: !this.#fits(gap.start, gap.end) });
      }
      this.#out.push({ ...span, types: [block.node.type], oversized: !this.#fits(span.start, span.end) });
      covered = Math.max(covered, span.end);
    }
    if (covered < block.end && !isBlank(this.#text.slice(covered, block.end))) {
      const gap = trimSpan(this.#text, covered, block.end);
      this.#out.push({ ...gap, types: [block.node.type], oversized: !this.#fits(gap.start, gap.end) });
    }
  }

  /** Cuts a table between rows; each part's derived text repeats the header lines and labels every value. */
  #splitTable(block: Block, table: Table): void {
    const text = this.#text;
    const rows = table.children;
    if (rows.length < 2 || rows[1].position?.start.offset === undefined) {
      this.#out.push({ start: block.start, end: block.end, types: ['table'], oversized: true });
      return;
    }
    const headerText = text.slice(block.start, rows[1].position.start.offset).trimEnd();
    const labels = rows[0].children.map((cell) => plainText(cell));
    const labelled = rows.map((row) =>
      row.children
        .map((cell, k) => `${labels[k] ?? `Column ${k + 1}`}: ${cellText(text, cell)}`)
        .join(' | '),
    );
    const size = this.#c.chunkSize;
    const prefixCount = this.#prefix ? this.#c.count(this.#prefix) : 0;
    const headerCount = this.#c.count(headerText + '\n');
    let first = 1;
    while (first < rows.length) {
      // grow the part row by row by estimate, then check the exact texts
      let last = first;
      let estimate = prefixCount + headerCount + this.#c.count(labelled[first] + '\n');
      while (last + 1 < rows.length) {
        const add = this.#c.count(labelled[last + 1] + '\n');
        if (estimate + add > size) break;
        estimate += add;
        last++;
      }
      const part = (a: number, b: number) => {
        const start = a === 1 ? block.start : rows[a].position!.start.offset!;
        const end = b === rows.length - 1 ? block.end : rows[b].position!.end.offset!;
        const derived = headerText + '\n' + labelled.slice(a, b + 1).join('\n');
        return { start, end, derived };
      };
      let p = part(first, last);
      while (last > first && !this.#fits(p.start, p.end, p.derived)) p = part(first, --last);
      this.#out.push({
        ...p,
        types: ['table'],
        tableRows: [first, last],
        ...(this.#fits(p.start, p.end, p.derived) ? {} : { oversized: true }),
      });
      first = last + 1;
    }
  }
}

/** A node's plain text (mdast-util-to-string) with whitespace runs, line endings included, as one space. */
function plainText(node: Nodes): string {
  return toString(node).replace(/\s+/g, ' ').trim();
}

/** A table cell's source text, trimmed of spaces and its pipes. */
function cellText(text: string, cell: Nodes): string {
  const s = cell.position?.start.offset;
  const e = cell.position?.end.offset;
  if (s === undefined || e === undefined) return toString(cell).trim();
  return text
    .slice(s, e)
    .replace(/^\s*\|?/, '')
    .replace(/\|?\s*$/, '')
    .trim();
}

/**
 * A container's children as blocks that together cover the container's text: the first
 * starts at the container's start (so list markers and `>` are kept), each later one at
 * the first non-whitespace after the previous, the last ends at the container's end.
 */
function coverChildren(text: string, parent: Block, children: Nodes[]): Block[] {
  const blocks: Block[] = [];
  let prev = parent.start;
  for (const child of children) {
    const e = child.position?.end.offset;
    if (e === undefined || e <= prev) continue;
    const span = trimSpan(text, prev, e);
    if (span.end > span.start) blocks.push({ start: span.start, end: span.end, node: child, count: -1 });
    prev = e;
  }
  if (blocks.length && prev < parent.end && !isBlank(text.slice(prev, parent.end))) {
    blocks[blocks.length - 1].end = trimSpan(text, prev, parent.end).end;
  }
  return blocks;
}

function typesOf(blocks: Block[]): string[] {
  const types: string[] = [];
  for (const b of blocks) if (!types.includes(b.node.type)) types.push(b.node.type);
  return types;
}
