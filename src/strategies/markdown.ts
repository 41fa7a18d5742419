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
import type { Chunk, ChunkMetadata } from '../core/chunk.js';
import { PrefixIds } from '../core/ids.js';
import { InvalidOptionError } from '../core/errors.js';
import { resolveOptions, type StrategySchema } from '../core/schema.js';
import { defaultOverlap } from './recursive.js';
import { textPieces, type TextSource } from '../stream/source.js';
import { isBlank, requireText, trimSpan, trimSpanWithin } from '../core/text.js';
import { innerUnitOptions, resolveUnits, UNIT_OPTIONS, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';
import { resolveFallback, type SpanSplitter } from '../compose/span-splitters.js';

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
    const o = resolveOptions<MarkdownOptions>(MARKDOWN_SCHEMA, options);
    this.chunkSize = o.chunkSize;
    this.chunkOverlap = o.chunkOverlap;
    this.contextualHeaders = o.contextualHeaders;
    this.#resolved = resolveUnits(o);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
    this.#fallback = resolveFallback(o.fallback, { ...innerUnitOptions(this.#resolved, options.tokenizer), chunkOverlap: this.chunkOverlap });
  }

  /**
   * Chunks Markdown `text`. Empty or whitespace-only text gives no chunks.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string): MarkdownChunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    const out: MarkdownChunk[] = [];
    this.#emit(text, this.#sections(text, []).sections, 0, new PrefixIds(), { index: 0, prevEnd: 0 }, out);
    return out;
  }

  /**
   * Chunks a Markdown stream (`ReadableStream<string>` or (async) iterable of string
   * pieces, split anywhere, even inside a surrogate pair or a CRLF), yielding exactly the
   * chunks `chunk(wholeText)` returns (ids, indices, offsets into the whole stream,
   * heading paths, metadata), each section's chunks once the next section has begun.
   *
   * Hard breaks: the start of a section (after merging heading-only sections) that begins
   * with an ATX heading (`#` in column 0) at the top level, once the line after that
   * heading has arrived. Block structure before such a line never depends on the lines
   * after it (an ATX heading is one line and closes every open block), chunks never cross
   * a heading, and the text after it is parsed and packed alone with the heading stack
   * carried over (so its heading paths are whole). Inline parsing is not local:
   * a link reference definition anywhere makes `[label]` in an earlier or later heading a
   * link (changing the heading path text). So once the stream holds `]:` (a possible
   * definition) or a heading containing `[`, no further break is taken and the rest is
   * held to the end (still equal, memory then the rest of the document). An unclosed
   * front matter fence (`---`/`+++` at the start) changes how micromark parses the whole
   * document (block quotes and lists become paragraphs), so no break is taken before the
   * front matter has closed. Memory
   * otherwise: one section (heading to heading) plus one piece. Each new line re-parses
   * the held text.
   * Ids: prefix hashes (as {@link PrefixIds}), the same in {@link chunk}.
   * @throws {InvalidInputError} for a source that is not a stream/iterable or a piece that
   *   is not a string.
   */
  async *chunkStream(source: TextSource): AsyncGenerator<MarkdownChunk> {
    const ids = new PrefixIds();
    const state = { index: 0, prevEnd: 0 };
    let stack: Heading[] = [];
    let buf = '';
    let bufStart = 0;
    let planned = 0; // buf length up to which the last parse ran
    let blocked = false; // a possible reference definition or a heading with "[" was seen
    for await (const piece of textPieces(source)) {
      if (piece.length === 0) continue;
      buf += piece;
      if (blocked) continue;
      const settled = buf.lastIndexOf('\n') + 1; // complete lines
      if (settled <= planned) continue;
      // no heading line after the first line yet: no break possible, skip the parse
      const heading = buf.indexOf('\n#');
      if (heading < 0 || heading >= settled) continue;
      planned = settled;
      const text = buf.slice(0, settled);
      if (text.includes(']:')) {
        blocked = true;
        continue;
      }
      const { sections, headings } = this.#sections(text, stack);
      if (headings.some((h) => text.slice(h.start, h.end).includes('['))) {
        blocked = true;
        continue;
      }
      // an unclosed front matter fence at the start makes micromark parse the whole
      // document differently (no block quotes or lists), whatever comes later: wait until
      // it is closed (a yaml/toml block)
      const firstType = sections[0]?.blocks[0]?.node.type as string | undefined;
      if (bufStart === 0 && /^(?:---|\+\+\+)/.test(text) && firstType !== 'yaml' && firstType !== 'toml') continue;
      // the last section (k ≥ 1) starting with an ATX heading in column 0 whose next line is complete
      let k = sections.length - 1;
      for (; k >= 1; k--) {
        const first = sections[k].blocks[0];
        const s = first.start;
        if (first.node.type !== 'heading' || text.charCodeAt(s) !== 35 || (s > 0 && text.charCodeAt(s - 1) !== 10)) continue;
        const nl = text.indexOf('\n', first.end);
        if (nl >= 0 && text.indexOf('\n', nl + 1) >= 0) break;
      }
      if (k < 1) continue;
      const p = sections[k].blocks[0].start;
      const out: MarkdownChunk[] = [];
      this.#emit(text, sections.slice(0, k), bufStart, ids, state, out);
      yield* out;
      ids.advance(buf, bufStart + p, bufStart);
      stack = headingStack(stack, headings.filter((h) => h.start < p));
      buf = buf.slice(p);
      bufStart += p;
      planned = 0;
    }
    if (buf.length === 0 || isBlank(buf)) return;
    const out: MarkdownChunk[] = [];
    this.#emit(buf, this.#sections(buf, stack).sections, bufStart, ids, state, out);
    yield* out;
  }

  /**
   * Pushes the chunks of `sections` (spans of `text`) to `out`: offsets shifted by
   * `offset` (the stream offset of `text[0]`), ids from `ids`, `state` carried over.
   */
  #emit(text: string, sections: Section[], offset: number, ids: PrefixIds, state: { index: number; prevEnd: number }, out: MarkdownChunk[]): void {
    for (const section of sections) {
      const prefix = this.contextualHeaders && section.path.length ? section.path.join(' > ') + '\n\n' : '';
      for (const piece of new SectionPacker(this, text, section, prefix).pack()) {
        const chunkText = text.slice(piece.start, piece.end);
        const unitCount = this.count(chunkText);
        const index = state.index++;
        const start = piece.start + offset;
        const end = piece.end + offset;
        const derived = prefix || piece.derived !== undefined ? prefix + (piece.derived ?? chunkText) : undefined;
        const { tokenizer, countTokens, unit, units } = this.#resolved;
        out.push({
          id: ids.id(text, start, end, offset),
          index,
          text: chunkText,
          start,
          end,
          tokenCount: unit === 'token' ? unitCount : countTokens && tokenizer ? tokenizer.count(chunkText) : -1,
          ...(derived !== undefined ? { embedText: derived } : {}),
          metadata: {
            strategy: 'markdown',
            unit: units.name,
            unitCount,
            overlap: index === 0 ? 0 : Math.max(0, state.prevEnd - start),
            headingPath: section.path,
            blockTypes: piece.types,
            ...(piece.tableRows ? { tableRows: piece.tableRows } : {}),
            ...(piece.oversized ? { oversized: true } : {}),
          },
        });
        state.prevEnd = end;
      }
    }
  }

  /** Units of `text` in this chunker's unit. @internal */
  count(text: string): number {
    return this.#resolved.units.size(text);
  }

  /** The fallback splitter. @internal */
  get fallback(): SpanSplitter {
    return this.#fallback;
  }

  /**
   * Top-level blocks grouped into sections by heading, under the headings of `above`
   * (a stream's heading stack before `text`); also the top-level headings of `text`.
   */
  #sections(text: string, above: Heading[]): { sections: Section[]; headings: (Heading & { start: number; end: number })[] } {
    const root = parseMarkdown(text);
    const sections: Section[] = [];
    const stack: Heading[] = [...above];
    const headings: (Heading & { start: number; end: number })[] = [];
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
        headings.push({ depth: node.depth, text: plainText(node), start: span.start, end: span.end });
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
    return { sections: merged, headings };
  }
}

/** A heading on the heading stack: its level and plain text. */
interface Heading {
  depth: number;
  text: string;
}

/** The heading stack after `headings` (in order) under `stack`. */
function headingStack(stack: Heading[], headings: Heading[]): Heading[] {
  const out = [...stack];
  for (const h of headings) {
    while (out.length && out[out.length - 1].depth >= h.depth) out.pop();
    out.push({ depth: h.depth, text: h.text });
  }
  return out;
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
