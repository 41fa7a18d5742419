/**
 * The syntax tree the code boundaries read: the part of a tree-sitter node they use, and
 * `MemoNode`, which reads each node's children once (web-tree-sitter builds a new object
 * per access). Core module: types only, no parser import.
 * @module
 */
import type { SyntaxDefinition } from './definitions.js';

/** The part of a tree-sitter node (web-tree-sitter `Node`) the boundaries read. */
export interface SyntaxNode {
  readonly type: string;
  /** UTF-16 offset of the node's first code unit. */
  readonly startIndex: number;
  /** UTF-16 offset after the node's last code unit. */
  readonly endIndex: number;
  readonly childCount: number;
  /** False for anonymous nodes: keywords and punctuation (`class`, `{`, `;`). */
  readonly isNamed: boolean;
  readonly isError: boolean;
  readonly isMissing: boolean;
  readonly hasError: boolean;
  /** One by index: tree-sitter walks the children before it (O(index)); read them all with {@link childrenOf}. */
  child(index: number): SyntaxNode | null;
  /** All children, in one pass (O(childCount)). */
  readonly children: ArrayLike<SyntaxNode | null>;
  /** Children that are named nodes (O(1): tree-sitter stores the count). */
  readonly namedChildCount: number;
  /** The named child by index (tree-sitter walks the children up to it). */
  namedChild(index: number): SyntaxNode | null;
  childForFieldName(name: string): SyntaxNode | null;
}

/**
 * The children of `node`, read in one pass. tree-sitter's `child(k)` walks the k
 * children before the one asked for, so reading a node's k children by index costs
 * k²/2 steps: quadratic where one node holds thousands (the ERROR node of a broken
 * file: 200 KB of it took 1.2 s more to chunk than 100 KB, 400 KB over 30 s).
 */
export function childrenOf(node: SyntaxNode): ArrayLike<SyntaxNode> {
  return node.children as ArrayLike<SyntaxNode>;
}

/** The part of web-tree-sitter's `Language` the memo nodes read: type names by type id, and whether a type is named. */
interface GrammarLanguage {
  readonly types: readonly (string | undefined)[];
  nodeTypeIsNamed(typeId: number): boolean;
}

/**
 * A grammar's type names and, read once per type id, whether each is a named type: what
 * the memo nodes of its trees share, so that a node's `isNamed` follows from its type id
 * (one call across for both instead of two; tree-sitter's `ts_node_is_named` is the named
 * flag of the symbol `ts_node_symbol` returns, alias included).
 */
class GrammarTypes {
  /** By type id: 0 unread, 1 named, 2 anonymous. */
  readonly #named: Int8Array;

  constructor(readonly language: GrammarLanguage) {
    this.#named = new Int8Array(language.types.length);
  }

  /** The type name of `typeId`, as web-tree-sitter's `Node.type` gives it. */
  name(typeId: number): string {
    return this.language.types[typeId] || 'ERROR';
  }

  isNamed(typeId: number): boolean {
    // ERROR's id (65535) lies past the table: asked each time (rare)
    if (typeId >= this.#named.length) return this.language.nodeTypeIsNamed(typeId);
    let v = this.#named[typeId];
    if (v === 0) this.#named[typeId] = v = this.language.nodeTypeIsNamed(typeId) ? 1 : 2;
    return v === 1;
  }
}

const grammarTypes = new WeakMap<GrammarLanguage, GrammarTypes>();

/** The grammar tables of a web-tree-sitter node's language, or null for another node (the tests' stand-ins). */
function grammarTypesOf(node: SyntaxNode): GrammarTypes | null {
  const language = (node as { tree?: { language?: GrammarLanguage } }).tree?.language;
  if (!language || !Array.isArray(language.types) || typeof language.nodeTypeIsNamed !== 'function' || !('typeId' in node)) return null;
  let t = grammarTypes.get(language);
  if (!t) grammarTypes.set(language, (t = new GrammarTypes(language)));
  return t;
}

/**
 * A syntax node that reads each of its fields from tree-sitter once: web-tree-sitter's
 * getters (`type`, `endIndex`, `isNamed`, `childForFieldName`) each copy the node into
 * the WebAssembly memory and call across, and the boundaries read the same fields of a
 * node several times (an item's span, whether it is a comment, a definition, named).
 * Its children and field children are memo nodes too, read once per node.
 */
export class MemoNode implements SyntaxNode {
  readonly startIndex: number;
  readonly #node: SyntaxNode;
  /** The grammar's tables (web-tree-sitter nodes), shared by the tree's memo nodes; null: read `type` and `isNamed` from the node. */
  readonly #types: GrammarTypes | null;
  #type: string | undefined;
  #typeId = -1;
  #end = -1;
  /** 0 unread, 1 named, 2 anonymous. */
  #named = 0;
  #namedCount = -1;
  #children: (MemoNode | null)[] | undefined;
  /** Field names read so far and their children (a node is asked for one to three). */
  #fieldNames: string[] | undefined;
  #fieldNodes: (MemoNode | null)[] | undefined;
  /** The kind of the enclosing definition {@link definition} was read for (undefined: not read yet; {@link definitionOf}'s memo). */
  definitionOuter: string | undefined;
  /** The definition this node is in a definition of kind {@link definitionOuter}. */
  definition: SyntaxDefinition | undefined;

  /** @param types the grammar's tables of the tree (its parent's); found from the node when not given. */
  constructor(node: SyntaxNode, types?: GrammarTypes | null) {
    this.#node = node;
    this.startIndex = node.startIndex;
    this.#types = types === undefined ? grammarTypesOf(node) : types;
  }

  get type(): string {
    if (this.#type === undefined) {
      const types = this.#types;
      if (types) {
        this.#typeId = (this.#node as unknown as { typeId: number }).typeId;
        this.#type = types.name(this.#typeId);
      } else this.#type = this.#node.type;
    }
    return this.#type;
  }
  get endIndex(): number {
    if (this.#end < 0) this.#end = this.#node.endIndex;
    return this.#end;
  }
  get isNamed(): boolean {
    if (this.#named === 0) {
      const types = this.#types;
      if (types) {
        if (this.#type === undefined) void this.type;
        this.#named = types.isNamed(this.#typeId) ? 1 : 2;
      } else this.#named = this.#node.isNamed ? 1 : 2;
    }
    return this.#named === 1;
  }
  get isError(): boolean {
    return this.#node.isError;
  }
  get isMissing(): boolean {
    return this.#node.isMissing;
  }
  get hasError(): boolean {
    return this.#node.hasError;
  }
  get childCount(): number {
    return this.#children ? this.#children.length : this.#node.childCount;
  }
  get children(): (MemoNode | null)[] {
    if (this.#children) return this.#children;
    const kids = this.#node.children;
    const out = new Array<MemoNode | null>(kids.length);
    for (let k = 0; k < kids.length; k++) {
      const c = kids[k];
      out[k] = c ? new MemoNode(c, this.#types) : null;
    }
    return (this.#children = out);
  }
  child(index: number): MemoNode | null {
    return this.children[index] ?? null;
  }
  get namedChildCount(): number {
    if (this.#namedCount < 0) this.#namedCount = this.#node.namedChildCount;
    return this.#namedCount;
  }
  namedChild(index: number): MemoNode | null {
    const kids = this.#children;
    if (kids) {
      // listed already: no call across
      for (let k = 0, i = 0; k < kids.length; k++) if (kids[k]?.isNamed && i++ === index) return kids[k];
      return null;
    }
    const n = this.#node.namedChild(index);
    return n ? new MemoNode(n, this.#types) : null;
  }
  childForFieldName(name: string): MemoNode | null {
    const names = (this.#fieldNames ??= []);
    const nodes = (this.#fieldNodes ??= []);
    const k = names.indexOf(name);
    if (k >= 0) return nodes[k];
    const n = this.#node.childForFieldName(name);
    const c = n ? new MemoNode(n, this.#types) : null;
    names.push(name);
    nodes.push(c);
    return c;
  }
}

/**
 * Spans of the tree's syntax errors (ERROR nodes, and MISSING nodes as empty spans at
 * their position), sorted and disjoint, as flat `[start, end, …]` pairs. Only subtrees
 * that hold an error are visited.
 */
export function syntaxErrorSpans(root: SyntaxNode): number[] {
  const out: number[] = [];
  if (!root.hasError) return out;
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) {
      out.push(node.startIndex, node.endIndex);
      continue;
    }
    const kids = childrenOf(node);
    for (let k = kids.length - 1; k >= 0; k--) {
      const c = kids[k];
      if (c.hasError || c.isMissing) stack.push(c);
    }
  }
  return out;
}
