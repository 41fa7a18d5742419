/**
 * Markdown block boundaries: a line-based scanner of CommonMark blocks (plus GFM tables
 * and footnote definitions, YAML/TOML front matter) that reports each block with its
 * exact source span, its type and its children, and nothing else — no inline tree. The
 * boundary source of the Markdown strategy.
 *
 * Source: the CommonMark spec 0.31.2 (§4 "Leaf blocks", §5 "Container blocks", and its
 * appendix "A parsing strategy": for each line, match the open containers, open new
 * blocks, add the rest to the tip or as a lazy continuation), as commonmark.js
 * implements it (`blocks.js`); GFM tables as `micromark-extension-gfm-table` 2.1 parses
 * them (a table may interrupt a paragraph: its last line is the header row; the
 * delimiter row's cell count must equal the header's; rows run to a blank line or the
 * start of another block; no lazy rows); footnote definitions as
 * `micromark-extension-gfm-footnote`; front matter as `micromark-extension-frontmatter`
 * (`---` YAML or `+++` TOML on the first line, closed by the same fence), where YAML may
 * also close with `...` as pulldown-cmark and Pandoc accept, within
 * {@link FRONT_MATTER_MAX_LINES} lines.
 *
 * Offsets are UTF-16 code units into the text (CRLF counts as two; a leading U+FEFF is
 * skipped for structure, not removed). A block's span runs from its first non-whitespace
 * character (a container's marker: `>`, `-`, `1.`, `[^x]:`) to after its last one,
 * markers of its last line included. Lines end at `\n`, `\r\n` or `\r`; tabs advance to
 * the next multiple of four columns. Time and memory are linear in the text: each line
 * is visited once per open container it continues (at most its length in markers) or
 * once for a lazy continuation; every block is closed once; nothing recurses.
 * Core module: no Node built-ins.
 * @module
 */
import type { TextSpan } from '../../engine/text.js';
import { Scanner } from './scan/scanner.js';

export { inlineText, normalizeLabel, type InlineContext, type InlineText } from './inline.js';
export { FRONT_MATTER_MAX_LINES } from './scan/frontmatter.js';
export { cellText, rowCellTexts, tableCells, type TableCell } from './scan/gfm-table.js';
export { MAX_NESTING } from './scan/node.js';

/** Block types, named as mdast names its nodes (front matter: `yaml`, `toml`). */
export type MarkdownBlockType =
  | 'heading'
  | 'paragraph'
  | 'code'
  | 'table'
  | 'list'
  | 'listItem'
  | 'blockquote'
  | 'html'
  | 'thematicBreak'
  | 'yaml'
  | 'toml'
  | 'definition'
  | 'footnoteDefinition';

/** One block with its source span. */
export interface MarkdownBlock {
  readonly type: MarkdownBlockType;
  /** First non-whitespace code unit of the block (a container's marker included). */
  readonly start: number;
  /** After its last non-whitespace code unit. */
  readonly end: number;
  /** Containers (`list`, `listItem`, `blockquote`, `footnoteDefinition`): the blocks inside, in order. */
  readonly children?: readonly MarkdownBlock[];
  /** Headings: level 1–6. */
  readonly depth?: number;
  /** Headings: ATX (`#`) rather than setext (underlined). */
  readonly atx?: boolean;
  /** Headings: plain text (see {@link inlineText}). */
  readonly text?: string;
  /** Headings: the text looked up a link or footnote label that is not defined (a later definition would change it). */
  readonly unresolved?: boolean;
  /** Fenced and indented code: fenced. */
  readonly fenced?: boolean;
  /** Tables: the header row, then the body rows (the delimiter row is not a row), trimmed spans. */
  readonly rows?: readonly TextSpan[];
}

/** What {@link scanMarkdown} found. */
export interface MarkdownScan {
  /** Top-level blocks in order. */
  blocks: MarkdownBlock[];
  /** Link reference definitions (normalized labels), the given ones included. */
  definitions: Set<string>;
  /** GFM footnote definitions (normalized labels), the given ones included. */
  footnotes: Set<string>;
  /** The text starts with a front matter fence that is not closed before `end`. */
  openFrontMatter: boolean;
  /**
   * With `partial`: the line starts, ascending, at which the scan's state holds nothing a
   * later line can change — every block open before the line is closed while reading it
   * (the line is not theirs: a closing fence is its code block's), and no block it opens
   * starts on an earlier line (a setext heading or a table takes the paragraph above). A
   * scan of the text from such a point (`documentStart: false`, the definitions found so
   * far given) gives exactly this scan's blocks from there on. Empty without `partial`.
   */
  resumePoints: number[];
  /** Lines visited per open container, blocks opened and closed: work done, for linear-time tests. */
  steps: number;
}

/** Options of {@link scanMarkdown}. */
export interface ScanOptions {
  /** Scan `text[0, end)` only (default: all of it). */
  end?: number;
  /** More text may follow the scanned part (a stream): an unclosed front matter fence is then undecided. */
  partial?: boolean;
  /** Recognise front matter and a leading U+FEFF at offset 0 (default true). */
  documentStart?: boolean;
  /** Definitions known from text before `text` (a stream's earlier sections). */
  definitions?: Iterable<string>;
  footnotes?: Iterable<string>;
  /** Compute heading text for top-level headings only (default false: every heading). */
  topLevelHeadingText?: boolean;
}

/**
 * The blocks of Markdown `text`: CommonMark block structure, GFM tables and footnote
 * definitions, YAML/TOML front matter, with exact UTF-16 spans. Headings carry their
 * plain text. Never throws for any string.
 * @example
 * ```ts
 * markdownBlocks('# Title\n\n- a\n- b\n').map((b) => [b.type, b.start, b.end]);
 * // [ [ 'heading', 0, 7 ], [ 'list', 9, 16 ] ]
 * ```
 */
export function markdownBlocks(text: string): MarkdownBlock[] {
  return scanMarkdown(text).blocks;
}

/** {@link markdownBlocks} with the definitions found and options for streams. */
export function scanMarkdown(text: string, options: ScanOptions = {}): MarkdownScan {
  return new Scanner(text, options).run();
}
