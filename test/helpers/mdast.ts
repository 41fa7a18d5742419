/**
 * The reference the Markdown block scanner is checked against: micromark / mdast
 * (CommonMark + GFM + YAML/TOML front matter), which chunkwise parsed with before its
 * own scanner (dev-only). Both sides are reduced to the same shape: block type, span
 * (trimmed of whitespace, as chunks are), children of containers, heading text, table
 * rows.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { trimSpan } from '../../src/engine/text.js';
import { markdownBlocks, type MarkdownBlock } from '../../src/strategies/markdown/blocks.js';

/** A block reduced for comparison. */
export interface Shape {
  type: string;
  start: number;
  end: number;
  text?: string;
  rows?: [number, number][];
  children?: Shape[];
}

const CONTAINERS = new Set(['list', 'listItem', 'blockquote', 'footnoteDefinition']);

interface MdNode {
  type: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
  children?: MdNode[];
}

function fromMdast(n: MdNode, text: string): Shape | undefined {
  const s = trimSpan(text, n.position!.start.offset!, n.position!.end.offset!);
  if (s.end <= s.start) return undefined;
  const shape: Shape = { type: n.type, start: s.start, end: s.end };
  if (n.type === 'heading') shape.text = toString(n as never).replace(/\s+/g, ' ').trim();
  if (CONTAINERS.has(n.type)) shape.children = (n.children ?? []).map((c) => fromMdast(c, text)).filter((c): c is Shape => !!c);
  if (n.type === 'table') shape.rows = (n.children ?? []).map((r) => { const x = trimSpan(text, r.position!.start.offset!, r.position!.end.offset!); return [x.start, x.end]; });
  return shape;
}

/** mdast's top-level blocks of `text`, reduced. */
export function mdastShapes(text: string): Shape[] {
  const root = fromMarkdown(text, {
    extensions: [gfm(), frontmatter(['yaml', 'toml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])],
  }) as unknown as MdNode;
  return (root.children ?? []).map((c) => fromMdast(c, text)).filter((c): c is Shape => !!c);
}

function fromOurs(b: MarkdownBlock): Shape {
  const shape: Shape = { type: b.type, start: b.start, end: b.end };
  if (b.type === 'heading') shape.text = b.text;
  if (b.children) shape.children = b.children.map(fromOurs);
  if (b.rows) shape.rows = b.rows.map((r) => [r.start, r.end]);
  return shape;
}

/** chunkwise's top-level blocks of `text`, reduced. */
export function ourShapes(text: string): Shape[] {
  return markdownBlocks(text).map(fromOurs);
}
