/**
 * Items: a node's children grouped for placing — a child with the comments and
 * decorators before it attached, or uncovered text as a raw item — and the expansion of an
 * item that does not fit into the items of its children. Core module.
 * @module
 */
import { trimSpan } from '../../../engine/text.js';
import { lowerBound } from '../../../engine/search.js';
import { ATTACHED, definitionOf, isComment, type SyntaxDefinition, type SyntaxScope } from './definitions.js';
import { childrenOf, type SyntaxNode } from './node.js';
import type { FitsBudget } from './sections.js';

/** A run of the source the boundaries place: a child node with its attached comments, or uncovered text. */
export interface SyntaxItem {
  start: number;
  end: number;
  /** The node; null for text no child covers (a raw leaf). */
  node: SyntaxNode | null;
  /** Comments and decorators attached before `node`, in order; null when none. */
  attach: SyntaxNode[] | null;
  /** Comments on the line where `node` ends (`} // namespace x`), after it; absent when none. */
  trail?: SyntaxNode[];
  /**
   * The head of an opened compound statement or definition (`if cond:`, `def f(x):`,
   * `} else {`, with its comments and decorators): no chunk should end right after it, so
   * it stays with the first statement of its body where the two fit.
   */
  glue?: true;
}

/**
 * Node types whose children are tokens of one literal or comment (Python's `string` has
 * `string_start`, `string_content`, `string_end`): never opened up, so a literal over the
 * budget is cut by the recursive splitter at line breaks and spaces, not between its quotes
 * and its text.
 */
const LITERAL = /string|heredoc|comment/;

/** Node types of a body (a block of statements, a class or declaration body). */
export const BODY = /block|body|compound_statement|declaration_list|statement_list|suite/;

/** Spans up to this long are scanned for a line break; longer ones are looked up. */
const LINEAR_SCAN = 64;

/** The line breaks (`\n`, `\r`) of the last text asked about, in order: one scan per text. */
let breaksOf: { text: string; at: Int32Array } | undefined;

/**
 * The offsets of `text`'s line breaks (`\n` and `\r`, each code unit), ascending; found
 * once for the last text asked about (by `indexOf`, which jumps to the next break: a third
 * of the time of reading every code unit on source code).
 */
export function lineBreaks(text: string): Int32Array {
  if (breaksOf?.text === text) return breaksOf.at;
  let at = new Int32Array(256);
  let count = 0;
  let n = text.indexOf('\n');
  let r = text.indexOf('\r');
  while (n >= 0 || r >= 0) {
    let k: number;
    if (r < 0 || (n >= 0 && n < r)) {
      k = n;
      n = text.indexOf('\n', n + 1);
    } else {
      k = r;
      r = text.indexOf('\r', r + 1);
    }
    if (count === at.length) {
      const grown = new Int32Array(2 * count);
      grown.set(at);
      at = grown;
    }
    at[count++] = k;
  }
  breaksOf = { text, at: at.subarray(0, count) };
  return breaksOf.at;
}

/**
 * True when [s, e) of `text` holds a line break: a binary search in the text's line-break
 * positions (found once per text), so a span as long as the file costs O(log n), not O(n)
 * (a frame's head scan spans every expanded item inside it: ((((…1…)))) 100,000 deep was
 * quadratic).
 */
export function hasLineBreak(text: string, s: number, e: number, stats?: SyntaxStats): boolean {
  if (e - s <= LINEAR_SCAN) {
    if (stats) stats.steps += Math.max(e - s, 0) + 1;
    for (let i = s; i < e; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) return true;
    }
    return false;
  }
  const at = lineBreaks(text);
  if (stats) stats.steps += 32 - Math.clz32(at.length) + 1;
  const k = lowerBound(at, s);
  return k < at.length && at[k] < e;
}

/** Work counters of the boundaries (for linear-time tests). */
export interface SyntaxStats {
  /** Nodes read (children listed) and items placed. */
  steps: number;
}

/**
 * The items of `node`'s children: comments and decorators attached to the next child,
 * non-whitespace text between children as raw
 * items, zero-width (missing) nodes skipped, a child overlapping the one before joined
 * to it as raw text.
 * @param from where the items may start (default the node's start): the root passes 0,
 *   since tree-sitter starts the root at its first token and leaves what its grammar
 *   skips as space (U+200B, U+2060, U+FEFF in the JavaScript grammars) before it.
 * @param to where they may end (default the node's end; the root passes the text's length).
 */
export function childItems(node: SyntaxNode, text: string, stats?: SyntaxStats, from = node.startIndex, to = node.endIndex): SyntaxItem[] {
  const items: SyntaxItem[] = [];
  let pending: SyntaxNode[] = [];
  let cursor = from;
  const kids = childrenOf(node);
  const n = kids.length;
  if (stats) stats.steps += n + 1;
  for (let k = 0; k < n; k++) {
    const c: SyntaxNode = kids[k];
    // trimmed: some grammars have whitespace tokens (Go's and Python's line-end terminators)
    const { start: s, end: e } = trimSpan(text, c.startIndex, c.endIndex);
    if (e <= s) continue;
    if (s < cursor) {
      // out of order or overlapping (error recovery, heredocs): the previous item and this one become one raw run
      if (e > cursor) {
        pending = flushItems(items, text, pending);
        const last = items[items.length - 1];
        if (last) {
          last.end = e;
          last.node = null;
          last.attach = null;
        } else items.push({ start: s, end: e, node: null, attach: null });
        cursor = e;
      }
      continue;
    }
    pending = rawItem(items, text, pending, cursor, s);
    const last = items[items.length - 1];
    const type = c.type;
    const comment = isComment(type);
    if (comment && pending.length === 0 && last?.node && last.end === cursor && !hasLineBreak(text, cursor, s, stats)) {
      (last.trail ??= []).push(c); // a comment at the end of the item's last line
      last.end = e;
    } else if (comment || ATTACHED.has(type)) pending.push(c);
    else if (pending.length) {
      items.push({ start: trimSpan(text, pending[0].startIndex, pending[0].endIndex).start, end: e, node: c, attach: pending });
      pending = [];
    } else items.push({ start: s, end: e, node: c, attach: null });
    cursor = e;
  }
  pending = flushItems(items, text, pending);
  rawItem(items, text, pending, cursor, to);
  return items;
}

/** Appends the items of the `pending` attachable nodes (comments, decorators that attached to nothing); returns the list to collect the next ones in. */
function flushItems(items: SyntaxItem[], text: string, pending: SyntaxNode[]): SyntaxNode[] {
  if (pending.length === 0) return pending;
  for (let k = 0; k < pending.length; k++) {
    const a = pending[k];
    items.push(nodeItem(text, a));
  }
  return [];
}

/** Appends [s, e) of `text` trimmed, when not blank, as a raw item (after the pending nodes' items); returns the pending list to go on with. */
function rawItem(items: SyntaxItem[], text: string, pending: SyntaxNode[], s: number, e: number): SyntaxNode[] {
  const t = trimSpan(text, s, e);
  if (t.start >= t.end) return pending;
  const rest = flushItems(items, text, pending);
  items.push({ start: t.start, end: t.end, node: null, attach: null });
  return rest;
}

/** Items of single nodes (attached comments and decorators), spans without whitespace at the ends. */
function nodeItems(text: string, nodes: SyntaxNode[] | null | undefined): SyntaxItem[] {
  if (!nodes) return [];
  const out = new Array<SyntaxItem>(nodes.length);
  for (let k = 0; k < nodes.length; k++) out[k] = nodeItem(text, nodes[k]);
  return out;
}

/** The item of one node alone: its span without whitespace at the ends. */
function nodeItem(text: string, node: SyntaxNode): SyntaxItem {
  const t = trimSpan(text, node.startIndex, node.endIndex);
  return { start: t.start, end: t.end, node, attach: null };
}

/**
 * What replaces an item that does not fit: its attachments and its node (whole when the
 * node alone fits, else its children's items, with the definition's scope), or null for
 * an indivisible item (no node, or a node without children).
 */
export function expandItem(
  item: SyntaxItem,
  text: string,
  scope: SyntaxScope,
  fits: FitsBudget,
  stats?: SyntaxStats,
): { items: SyntaxItem[]; definition: SyntaxDefinition | undefined } | null {
  const node = item.node;
  if (!node) return null;
  const attached = nodeItems(text, item.attach);
  const trailing = nodeItems(text, item.trail);
  const span = trimSpan(text, node.startIndex, node.endIndex);
  if ((attached.length || trailing.length) && fits(span.start, span.end, scope)) {
    return { items: [...attached, { start: span.start, end: span.end, node, attach: null }, ...trailing], definition: undefined };
  }
  // the children are read once: their count here, their items below
  if (childrenOf(node).length === 0 || LITERAL.test(node.type)) {
    return attached.length || trailing.length ? { items: [...attached, { start: span.start, end: span.end, node, attach: null }, ...trailing], definition: undefined } : null;
  }
  const def = definitionOf(node, text, scope);
  const opened = openBody(node, childItems(node, text, stats), text, stats);
  const items = attached.length === 0 && trailing.length === 0 ? opened : [...attached, ...opened, ...trailing];
  return { items: withHead(node, items, attached.length, scope, fits), definition: def };
}

/**
 * `items` (of opened `node`, its `attached` comments and decorators first) with the items
 * before the node's body — the head: `if cond:`, `def f(x) -> T:`, `except E as e:` —
 * joined into one item marked {@link SyntaxItem.glue}, where the node has a body and the
 * head fits the budget (a head that does not is left in pieces). The body is the node's
 * `body` or `consequence` field, else its first named child of a body type ({@link BODY}).
 */
function withHead(node: SyntaxNode, items: SyntaxItem[], attached: number, scope: SyntaxScope, fits: FitsBudget): SyntaxItem[] {
  if (BODY.test(node.type)) return items; // a body's statements have no head
  const body = node.childForFieldName('body') ?? node.childForFieldName('consequence') ?? firstBody(node);
  if (!body) return items;
  let k = attached;
  while (k < items.length && items[k].end <= body.startIndex) k++;
  if (k === attached || k >= items.length) return items;
  const start = items[0].start;
  const end = items[k - 1].end;
  if (!fits(start, end, scope)) return items;
  const head: SyntaxItem = { start, end, node: null, attach: null, glue: true };
  const out = [head];
  for (let j = k; j < items.length; j++) out.push(items[j]);
  return out;
}

/**
 * True for a node opened only between statements: a body ({@link BODY}) or a compound
 * statement or definition with one (`if c: …`, `for …`, `def f(): …`).
 */
export function opensAtStatements(node: SyntaxNode): boolean {
  return BODY.test(node.type) || (!LITERAL.test(node.type) && (node.childForFieldName('body') ?? node.childForFieldName('consequence') ?? firstBody(node)) !== null);
}

/** The first named child of a body type ({@link BODY}), if any. */
function firstBody(node: SyntaxNode): SyntaxNode | null {
  const kids = childrenOf(node);
  for (let k = 0; k < kids.length; k++) if (kids[k].isNamed && BODY.test(kids[k].type)) return kids[k];
  return null;
}

/**
 * `items` with the node's body (its `body` field: a block, class body, declaration list)
 * replaced by the body's own items, so that an opened definition's signature is packed
 * with its first statements instead of standing alone before a body that fits.
 */
function openBody(node: SyntaxNode, items: SyntaxItem[], text: string, stats?: SyntaxStats): SyntaxItem[] {
  const body = node.childForFieldName('body');
  if (!body || childrenOf(body).length === 0) return items;
  const k = items.findIndex((it) => it.node !== null && it.node.startIndex === body.startIndex && it.node.endIndex === body.endIndex && it.node.type === body.type);
  if (k < 0) return items;
  const it = items[k];
  const out = items.slice(0, k);
  if (it.attach) appendItems(out, nodeItems(text, it.attach));
  appendItems(out, childItems(body, text, stats));
  if (it.trail) appendItems(out, nodeItems(text, it.trail));
  for (let j = k + 1; j < items.length; j++) out.push(items[j]);
  return out;
}

/** Appends `list` to `out` one by one (a spread call's arguments overflow the stack on a body of 100,000 statements). */
function appendItems(out: SyntaxItem[], list: SyntaxItem[]): void {
  for (let j = 0; j < list.length; j++) out.push(list[j]);
}
