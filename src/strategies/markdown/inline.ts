/**
 * Plain text of Markdown inline content (a heading, a table header cell): what
 * mdast-util-to-string gives for the mdast of that content — code spans without their
 * backticks, emphasis and strikethrough without their markers, links and images by their
 * text, `[label]` a link only when a definition of `label` exists, escapes, entities and
 * numeric character references decoded, raw HTML and autolinks kept as written, footnote
 * calls (GFM) dropped, hard line breaks dropped — without building a tree.
 *
 * Source: the CommonMark spec 0.31.2 (§6 "Inlines": code spans, emphasis with the
 * delimiter-run algorithm of its appendix, links, autolinks, raw HTML, hard breaks) and
 * the micromark extensions chunkwise used before (`micromark-extension-gfm-strikethrough`:
 * `~` and `~~`; `micromark-extension-gfm-footnote`: `[^label]`), whose choices it follows
 * where they differ from commonmark.js (a rule-of-three check on the runs' remaining
 * lengths; `*`, `_` and `~` counting as openers before another marker). Named entities:
 * the HTML table of `character-entities` (what micromark decodes with).
 *
 * Linear time: code spans find their closing run through an index of backtick runs, the
 * delimiter stack keeps CommonMark's `openers_bottom`, searches for a comment / CDATA /
 * instruction end remember where none exists; and every parse has a budget of 48 steps
 * per code unit (plus 4096): past it the parse stops and the text is the source with
 * whitespace collapsed (only adversarial input — thousands of unclosed link
 * destinations in one heading — gets there). Core module.
 * @module
 */
import { isWhite } from './chars.js';
import { BudgetError, InlineParser, isSpecial } from './inline/parser.js';

export { normalizeLabel } from './inline/link.js';

/** Definitions known to the document: normalized labels ({@link normalizeLabel}). */
export interface InlineContext {
  readonly definitions: ReadonlySet<string>;
  readonly footnotes: ReadonlySet<string>;
}

/** What {@link inlineText} found. */
export interface InlineText {
  /** The plain text, whitespace runs as one space, trimmed. */
  text: string;
  /**
   * A `[label]` (or `[^label]`) looked up a definition that does not exist: a definition
   * added later in the document would change this text.
   */
  unresolved: boolean;
  /** Parse steps taken (work counting for linear-time tests). */
  steps: number;
}

/**
 * The plain text of Markdown inline content `src` (mdast-util-to-string of its mdast,
 * whitespace runs as one space, trimmed).
 * @param src the content, e.g. a heading without its `#` marks, lines joined by `\n`.
 * @param context the document's link and footnote definitions.
 */
export function inlineText(src: string, context: InlineContext): InlineText {
  if (isPlainInline(src)) return { text: collapseSpace(src), unresolved: false, steps: src.length };
  const p = new InlineParser(src, context);
  let raw: string;
  try {
    raw = p.parse();
  } catch (e) {
    if (!(e instanceof BudgetError)) throw e;
    raw = src;
  }
  return { text: collapseSpace(raw), unresolved: p.unresolved, steps: p.steps };
}

/**
 * True when `src` holds nothing the parser acts on: no character that opens a construct
 * ({@link isSpecial}: escapes, code, HTML and autolinks, entities, emphasis, links, line
 * endings) and no literal autolink's start (an email's `@`, `://` after `http`, `www.`).
 * The parser's text of such content is the content itself (most headings: `Data Types`,
 * `Appendix B: Operators and Symbols`).
 */
function isPlainInline(src: string): boolean {
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (isSpecial(c) || c === 64) return false;
    if (c === 58 && src.charCodeAt(i + 1) === 47 && src.charCodeAt(i + 2) === 47) return false;
    if (c === 46 && i >= 3 && (src.charCodeAt(i - 1) | 32) === 119 && (src.charCodeAt(i - 2) | 32) === 119 && (src.charCodeAt(i - 3) | 32) === 119) return false;
  }
  return true;
}

/** `text` with each whitespace run as one space, trimmed (what the parser's output gets); `text` itself where that changes nothing. */
function collapseSpace(text: string): string {
  const n = text.length;
  if (n === 0) return text;
  let clean = !isWhite(text.charCodeAt(0)) && !isWhite(text.charCodeAt(n - 1));
  for (let i = 1; clean && i < n - 1; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 ? text.charCodeAt(i + 1) === 32 : isWhite(c)) clean = false;
  }
  return clean ? text : text.replace(/\s+/g, ' ').trim();
}
