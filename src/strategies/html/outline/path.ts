/**
 * Heading paths: a heading closes the open headings of the same or a lower rank (within
 * its scope) and opens its own; the strings of a path are built once per node. Core module.
 * @module
 */
import type { PathNode } from '../blocks.js';
import { collapse, type Walker } from './walker.js';

/** Moves the walk to heading path `node`, keeping the lowest depth the path went through. */
export function setPath(w: Walker, node: PathNode | undefined): void {
  const depth = node?.depth ?? 0;
  // the common ancestor's depth bounds how low the path went
  let a = w.path;
  let b = node;
  while (a && (a.depth > (b?.depth ?? 0))) a = a.parent;
  while (b && (b.depth > (a?.depth ?? 0))) b = b.parent;
  while (a !== b) {
    a = a?.parent;
    b = b?.parent;
    w.ops++;
  }
  w.lowDepth = Math.min(w.lowDepth, a?.depth ?? 0, depth);
  w.path = node;
}

/** A heading's text closes headings of the same or a lower rank (within the current scope) and opens its own. */
export function openHeading(w: Walker, rank: number, vStart: number, vEnd: number): PathNode {
  let p = w.path;
  while (p && p.rank >= rank && p.rank > 0) {
    p = p.parent;
    w.ops++;
  }
  const node: PathNode = { parent: p, depth: (p?.depth ?? 0) + 1, rank, vStart, vEnd, label: undefined };
  setPath(w, node);
  return node;
}

/** The most entries a heading path holds (the outermost ones). */
const MAX_PATH = 32;

/** The strings of a path (memoized per node: shared prefixes are built once). */
export function pathStrings(node: PathNode | undefined, visible: string): string[] {
  if (!node) return [];
  if (node.strings) return node.strings;
  // iterative: collect the nodes without strings, then fill them from the top
  const pending: PathNode[] = [];
  let p: PathNode | undefined = node;
  while (p && !p.strings) {
    pending.push(p);
    p = p.parent;
  }
  let above = p?.strings ?? [];
  for (let i = pending.length - 1; i >= 0; i--) {
    const n = pending[i];
    const label = n.rank > 0 ? collapse(visible.slice(n.vStart, n.vEnd)) : n.label;
    // at most MAX_PATH entries: sections nested thousands deep would make the paths quadratic in size
    n.strings = label && above.length < MAX_PATH ? [...above, label] : above;
    above = n.strings;
  }
  return node.strings!;
}
