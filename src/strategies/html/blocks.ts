/**
 * HTML boundaries: the blocks of a document's kept content, its visible text, and a map
 * from visible text back to the source.
 *
 * From the element tree of `./tree.ts` one linear walk makes:
 * - the **visible text**: the text a reader sees, entities decoded, whitespace collapsed
 *   as a browser renders it (runs of whitespace → one space, outside `pre`); blocks on
 *   lines of their own, `<br>` a line break, table cells joined by ` | `, rows by lines;
 *   `script`, `style`, `template`, `noscript`, `head` and every hidden element
 *   (`hidden`, `display: none`, a closed `dialog`) contribute nothing;
 * - **dropped regions**: page landmarks left out of the content — by default `nav`,
 *   `aside`, and `header` / `footer` of the page (not those of an `article`, `section`,
 *   `aside`, `nav` or `main`, which belong to that content), and elements with the
 *   landmark roles `navigation`, `complementary`, `banner`, `contentinfo`;
 * - **blocks**, in document order: paragraphs and other leaf blocks (an element with no
 *   block inside, or a run of inline content between blocks), headings, `pre`, lists
 *   (`ul`, `ol`, `menu`, `dl`) with their items, `blockquote` and `figure` with their
 *   blocks, tables with their rows and cells; containers (`div`, `section`, `main` …) are
 *   flattened into the blocks they hold. Each block has its source span, its span in
 *   the visible text, and its heading path (`h1`–`h6` ranks, scoped by `section` /
 *   `article`; a sectioning element without a heading of its own contributes its
 *   `aria-label` or `title`); `hardBefore` marks where the heading path changes.
 *
 * Headings inside lists, tables, block quotes and figures are content, not structure.
 * Core module: no Node built-ins.
 * @module
 */
import { parseHtmlTree } from './tree.js';
import { pathStrings } from './outline/path.js';
import type { VisibleMap } from './outline/visible-map.js';
import { Walker, type Frame } from './outline/walker.js';

export { VisibleMap } from './outline/visible-map.js';

/** Landmark element names the chunker may drop (option `drop`). */
export const LANDMARKS = ['nav', 'aside', 'header', 'footer'] as const;
export type Landmark = (typeof LANDMARKS)[number];

/** What a block is. */
export type HtmlBlockKind = 'text' | 'heading' | 'pre' | 'group' | 'table';

/** A node of a heading path: a heading, or a sectioning element (a scope). */
export interface PathNode {
  readonly parent: PathNode | undefined;
  readonly depth: number;
  /** Heading rank 1–6; 0 for a sectioning element. */
  readonly rank: number;
  /** The heading's span in the visible text; -1 for a sectioning element. */
  readonly vStart: number;
  readonly vEnd: number;
  /** A sectioning element's label (`aria-label`, `title`), when it has no heading of its own. */
  readonly label: string | undefined;
  /** The path as strings, once asked for. */
  strings?: string[];
}

/** A span of the visible text. */
export interface VisibleSpan {
  vStart: number;
  vEnd: number;
}

/** A table row: its source span (the `tr`), its visible span, and its cells. */
export interface HtmlTableRow extends VisibleSpan {
  start: number;
  end: number;
  /** Cells with their visible span (vStart −1: empty) and `colspan`. */
  cells: (VisibleSpan & { span: number })[];
}

/** The rows of a table block. */
export interface HtmlTableInfo {
  caption: VisibleSpan | undefined;
  /** Header rows: those in `thead`, else the first row when all its cells are `th`. */
  head: HtmlTableRow[];
  body: HtmlTableRow[];
  /** False when the table holds visible text outside its cells and caption (it is then split as text). */
  regular: boolean;
}

/** A block of kept content. */
export interface HtmlBlock extends VisibleSpan {
  /** Tag name (`p`, `h2`, `ul`, `li`, `table`, `pre` …), `#text` for inline content between blocks. */
  readonly tag: string;
  readonly kind: HtmlBlockKind;
  /** Source span: the element's start tag through its end tag; for inline content, its first to its last node. */
  start: number;
  end: number;
  /** The heading path the block lies under (a heading's own path ends with itself). */
  readonly path: PathNode | undefined;
  /** A chunk must not hold this block together with the one before it (the heading path changes). */
  hardBefore: boolean;
  /** The blocks of a group (list items, a block quote's blocks, an item's blocks). */
  children?: HtmlBlock[];
  table?: HtmlTableInfo;
}

/** A landmark left out of the content. */
export interface DroppedRegion {
  /** Its tag name (`nav`, `header`, `div` for `role="navigation"` …). */
  element: string;
  start: number;
  end: number;
}

/** What {@link outlineHtml} returns. */
export interface HtmlOutline {
  readonly source: string;
  /** The visible text of the kept content. */
  readonly visible: string;
  /** Top-level blocks, in document order. */
  readonly blocks: HtmlBlock[];
  readonly dropped: DroppedRegion[];
  readonly map: VisibleMap;
  /** Tokenizer events, tree operations and walk steps: work counting for linear-time tests. */
  readonly operations: number;
  /** A block's heading path as strings (headings' visible text, sectioning labels). */
  headingPath(node: PathNode | undefined): string[];
}

/** Options of {@link outlineHtml}. */
export interface HtmlOutlineOptions {
  /** Landmarks to drop (default all of {@link LANDMARKS}). */
  drop?: ReadonlySet<string>;
}

/**
 * The outline of an HTML document: its kept blocks, visible text and dropped regions,
 * in time linear in the source (the walk keeps its own stack: nesting depth costs no
 * recursion). Any string is accepted.
 * @param source the HTML; offsets are UTF-16 code units of it.
 */
export function outlineHtml(source: string, options: HtmlOutlineOptions = {}): HtmlOutline {
  const tree = parseHtmlTree(source);
  const walker = new Walker(source, tree.pieces, options.drop ?? new Set(LANDMARKS));
  const frames: Frame[] = [{ el: tree.root, next: 0, role: 'root', vAt: 0 }];
  while (frames.length > 0) {
    const f = frames[frames.length - 1];
    const children = f.el.children;
    if (f.next < children.length) {
      const c = children[f.next++];
      if (typeof c === 'number') walker.text(c);
      else {
        const frame = walker.enter(c);
        if (frame) frames.push(frame);
      }
      continue;
    }
    frames.pop();
    walker.exit(f);
  }
  walker.flushRun();
  const visible = walker.parts.join('');
  const headingPath = (node: PathNode | undefined): string[] => pathStrings(node, visible);
  return { source, visible, blocks: walker.blocks, dropped: walker.dropped, map: walker.map, operations: tree.operations + walker.ops, headingPath };
}
