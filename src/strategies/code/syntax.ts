/**
 * Syntax boundaries of source code: the sections the code strategy packs, from a
 * tree-sitter syntax tree.
 *
 * A node's children are grouped into *items* — a child node, with the comments and
 * decorators / attributes before it attached (doc comments are often followed by a
 * blank line, so blank lines do not detach them) — plus
 * any non-whitespace text between children that no child covers (tree-sitter's error
 * recovery can leave such text; it becomes a raw item, so nothing is lost). An item that
 * fits the budget is one section. One that does not is replaced by the items of its
 * children, in place, recursively (an explicit stack: no recursion depth limit on deeply
 * nested input); an item without children that does not fit (a huge string literal or
 * comment) is a *leaf*, which the strategy splits with the recursive splitter. Where a
 * definition (function, method, class, …) is expanded, its sections are fenced off by
 * hard boundaries, so no chunk mixes the inside of a large definition with its
 * neighbours, and its signature tokens start the first chunk of its body instead of
 * being a chunk of their own. Every node is visited at most once (linear in the tree).
 *
 * Sources: tree-sitter's node API (web-tree-sitter: `startIndex`/`endIndex` are UTF-16
 * offsets); the split-then-merge idea of cAST (Zhang et al., "cAST: Enhancing Code
 * Retrieval-Augmented Generation with Structural Chunking via Abstract Syntax Tree",
 * 2025) and of text-splitter's `CodeSplitter` (benbrandt/text-splitter: syntax depth as
 * the boundary level). Core module: types only, no parser import.
 * @module
 */
import { trimSpan } from '../../engine/text.js';
import { lowerBound } from '../../engine/search.js';

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

/** A named definition: what symbol paths are made of. */
export interface SyntaxDefinition {
  /** `function`, `method`, `class`, `interface`, `struct`, `enum`, `trait`, `impl`, `module`, `namespace`, `type`, … */
  readonly kind: string;
  /** The defined name as written (`formatHelp`, `Foo::bar`, `Display for Point`); `(anonymous)` when it has none. */
  readonly name: string;
  /** `kind name`, e.g. `method formatHelp`: one entry of a symbol path. */
  readonly label: string;
  /** The definition's head up to its body (`formatHelp(cmd: Command, helper: Help): string`), whitespace collapsed, at most 200 code units. */
  readonly signature: string;
  /** The definition node's span (UTF-16 offsets), without attached comments. */
  readonly start: number;
  readonly end: number;
}

/** The enclosing definitions of a section, outermost first. */
export type SyntaxScope = readonly SyntaxDefinition[];

/** Node type → definition kind, across the supported grammars. */
const DEFINITION_KINDS: Readonly<Record<string, string>> = {
  // functions (a function inside a class-like definition is reported as a method)
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_definition: 'function',
  function_item: 'function',
  method: 'function', // Ruby `def`
  singleton_method: 'method',
  method_definition: 'method',
  method_declaration: 'method',
  constructor_declaration: 'constructor',
  // types
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  class_definition: 'class',
  class_specifier: 'class',
  class: 'class',
  record_declaration: 'record',
  interface_declaration: 'interface',
  trait_item: 'trait',
  trait_declaration: 'trait',
  struct_item: 'struct',
  struct_specifier: 'struct',
  struct_declaration: 'struct',
  union_item: 'union',
  union_specifier: 'union',
  enum_declaration: 'enum',
  enum_item: 'enum',
  enum_specifier: 'enum',
  impl_item: 'impl',
  type_alias_declaration: 'type',
  type_declaration: 'type',
  // scopes
  mod_item: 'module',
  module: 'module',
  internal_module: 'namespace',
  namespace_definition: 'namespace',
  namespace_declaration: 'namespace',
  file_scoped_namespace_declaration: 'namespace',
  macro_definition: 'macro',
};

/** Definitions only with a body (`struct s { … }`, not `struct s x;`; PHP's `namespace A { … }`, not `namespace A;`). */
const NEEDS_BODY = new Set(['struct_specifier', 'union_specifier', 'enum_specifier', 'class_specifier', 'namespace_definition']);
/** Definitions whose functions are methods. */
const CLASS_LIKE = new Set(['class', 'record', 'interface', 'trait', 'struct', 'impl', 'enum', 'union']);
/** Nodes that wrap one definition (`export class …`, `@decorator def …`, `template <…> …`, `declare …`). */
const WRAPPERS = new Set(['export_statement', 'decorated_definition', 'template_declaration', 'ambient_declaration']);
/** Values that make `const f = …` (or a class field) a function or class definition. */
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function', 'generator_function_expression']);
const CLASS_VALUES = new Set(['class', 'class_expression']);

const isComment = (type: string) => type.includes('comment');
const ATTACHED = new Set(['decorator', 'attribute_item', 'attribute_list', 'annotation', 'marker_annotation']);
/** Comments and decorators / attributes: they stay with the item they precede. */
export const isAttachable = (type: string): boolean => isComment(type) || ATTACHED.has(type);

/** Collapses whitespace runs to one space and caps the length (…). */
function oneLine(s: string, max = 200): string {
  if (s.length <= max && printableAscii(s)) return s; // a name as it is written (the usual case): no regular expression
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/** True when every code unit of `s` is printable ASCII other than the space (U+0021–U+007E): no whitespace to collapse. */
function printableAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

/** The text of a name node, one line. */
function nameText(n: SyntaxNode, text: string): string {
  return oneLine(text.slice(n.startIndex, n.endIndex), 120);
}

/** The defined name of a definition node. */
function nameOf(node: SyntaxNode, text: string): string {
  const name = node.childForFieldName('name') ?? node.childForFieldName('property');
  if (name) return nameText(name, text);
  if (node.type === 'impl_item') {
    const type = node.childForFieldName('type');
    const trait = node.childForFieldName('trait');
    if (type) return trait ? `${nameText(trait, text)} for ${nameText(type, text)}` : nameText(type, text);
  }
  if (node.type === 'type_declaration') {
    const kids = childrenOf(node);
    for (let k = 0; k < kids.length; k++) {
      const spec = kids[k];
      const n = spec.childForFieldName('name');
      if (n) return nameText(n, text);
    }
  }
  // C and C++: the name is at the bottom of the declarator chain (pointer, function, reference declarators)
  let d = node.childForFieldName('declarator');
  for (let depth = 0; d && depth < 16; depth++) {
    const inner = d.childForFieldName('declarator');
    if (!inner) return nameText(d, text);
    d = inner;
  }
  return '(anonymous)';
}

/** The head of a definition up to its body, one line. */
function signatureOf(node: SyntaxNode, body: SyntaxNode | null, text: string): string {
  const end = body && body.startIndex > node.startIndex ? body.startIndex : node.endIndex;
  let head = text.slice(node.startIndex, end);
  if (!body) head = head.split('\n', 1)[0];
  return oneLine(head).replace(/\s*[{:]$/, '') || oneLine(head);
}

/** A definition read from the tree: its signature is read on first use (only context headers and definitions() read it), while the tree lives. */
class TreeDefinition implements SyntaxDefinition {
  readonly label: string;
  readonly #span: SyntaxNode;
  readonly #bodyOwner: SyntaxNode;
  readonly #text: string;
  #signature: string | undefined;

  constructor(
    readonly kind: string,
    readonly name: string,
    readonly start: number,
    readonly end: number,
    span: SyntaxNode,
    bodyOwner: SyntaxNode,
    text: string,
  ) {
    this.label = `${kind} ${name}`;
    this.#span = span;
    this.#bodyOwner = bodyOwner;
    this.#text = text;
  }

  get signature(): string {
    return (this.#signature ??= signatureOf(this.#span, this.#bodyOwner.childForFieldName('body'), this.#text));
  }
}

function definition(kind: string, nameNode: SyntaxNode, bodyOwner: SyntaxNode, span: SyntaxNode, text: string, scope: SyntaxScope): SyntaxDefinition {
  const outer = scope.length ? scope[scope.length - 1].kind : '';
  const k = kind === 'function' && CLASS_LIKE.has(outer) ? 'method' : kind;
  const { start, end } = trimSpan(text, span.startIndex, span.endIndex);
  return new TreeDefinition(k, nameOf(nameNode, text), start, end, span, bodyOwner, text);
}

/**
 * The definition `node` is (or wraps: `export …`, decorators, `template <…>`, `const f =
 * () => …`), or undefined.
 * @param scope the enclosing definitions (a function inside a class is a method).
 */
export function definitionOf(node: SyntaxNode, text: string, scope: SyntaxScope = []): SyntaxDefinition | undefined {
  if (!(node instanceof MemoNode)) return readDefinition(node, text, scope);
  // the kind depends on the enclosing definition's kind only (a function in a class is a method)
  const outer = scope.length ? scope[scope.length - 1].kind : '';
  // one entry: a node is asked in one scope (its section's), the same kind each time
  if (node.definitionOuter === outer) return node.definition;
  const def = readDefinition(node, text, scope);
  node.definitionOuter = outer;
  node.definition = def;
  return def;
}

function readDefinition(node: SyntaxNode, text: string, scope: SyntaxScope): SyntaxDefinition | undefined {
  let n: SyntaxNode | null = node;
  for (let depth = 0; n && depth < 4; depth++) {
    const type = n.type;
    const kind = DEFINITION_KINDS[type];
    // only a type that can be a definition is checked for a keyword token (`class`, `module`, `function`): one call less per node
    const candidate = kind || type === 'lexical_declaration' || type === 'variable_declaration' || type === 'public_field_definition' || type === 'field_definition' || WRAPPERS.has(type);
    if (!candidate || !n.isNamed) return undefined;
    if (kind) {
      if (NEEDS_BODY.has(type) && !n.childForFieldName('body')) return undefined;
      return definition(kind, n, n, n, text, scope);
    }
    if (type === 'lexical_declaration' || type === 'variable_declaration') {
      // `const f = () => …`: one declarator whose value is a function or a class
      const declarator = soleDeclarator(n);
      const value = declarator?.childForFieldName('value');
      if (!declarator || !value) return undefined;
      if (FUNCTION_VALUES.has(value.type)) return definition('function', declarator, value, n, text, scope);
      if (CLASS_VALUES.has(value.type)) return definition('class', declarator, value, n, text, scope);
      return undefined;
    }
    if (type === 'public_field_definition' || type === 'field_definition') {
      const value = n.childForFieldName('value');
      return value && FUNCTION_VALUES.has(value.type) ? definition('method', n, value, n, text, scope) : undefined;
    }
    if (!WRAPPERS.has(type)) return undefined;
    const inner: SyntaxNode | null = n.childForFieldName('declaration') ?? n.childForFieldName('definition');
    if (inner) {
      n = inner;
      continue;
    }
    // template_declaration, ambient_declaration: the first child that is a definition
    let found: SyntaxNode | null = null;
    const kids = childrenOf(n);
    for (let k = kids.length - 1; k >= 0; k--) {
      const c: SyntaxNode = kids[k];
      if (DEFINITION_KINDS[c.type] || c.type === 'declaration' || c.type === 'lexical_declaration') {
        found = c;
        break;
      }
    }
    n = found;
  }
  return undefined;
}

/**
 * The one `variable_declarator` child of a declaration, or null (none, or several). A
 * declaration with one named child (`var f = function …;`, the usual case) is answered
 * from that child, one whose first two named children are declarators (`var a = 1, b =
 * 2, …;`) from those two: its other children (`var`, `,`, `;`, the other declarators)
 * are not listed.
 */
function soleDeclarator(n: SyntaxNode): SyntaxNode | null {
  const named = n.namedChildCount;
  if (named === 0) return null;
  const first = n.namedChild(0);
  if (named === 1) return first && first.type === 'variable_declarator' ? first : null;
  if (first?.type === 'variable_declarator' && n.namedChild(1)?.type === 'variable_declarator') return null;
  let declarator: SyntaxNode | null = null;
  const kids = childrenOf(n);
  for (let k = 0; k < kids.length; k++) {
    const c = kids[k];
    if (c.type !== 'variable_declarator') continue;
    if (declarator) return null;
    declarator = c;
  }
  return declarator;
}

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
}

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
function hasLineBreak(text: string, s: number, e: number, stats?: SyntaxStats): boolean {
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

/** The sections of one level, ready for a packer. */
export interface SyntaxSections {
  readonly count: number;
  readonly starts: number[];
  readonly ends: number[];
  /** No chunk holds section i together with section i − 1 (the edge of an expanded definition). */
  readonly hard: boolean[];
  /** Indivisible and over the budget: to be split inside (the recursive splitter). */
  readonly leaf: boolean[];
  /** The item each section is (to go one level finer when it does not fit after all). */
  readonly items: SyntaxItem[];
  /** Enclosing definitions per section. */
  readonly scopes: SyntaxScope[];
  /** The definition a section is, or null. */
  readonly definitions: (SyntaxDefinition | null)[];
  /** True for a section that is only comments or decorators. */
  readonly attachOnly: boolean[];
}

/** Decides whether the run [start, end) fits the budget in `scope` (with its context header). */
export type FitsBudget = (start: number, end: number, scope: SyntaxScope) => boolean;

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
  if (childrenOf(node).length === 0) {
    return attached.length || trailing.length ? { items: [...attached, { start: span.start, end: span.end, node, attach: null }, ...trailing], definition: undefined } : null;
  }
  const def = definitionOf(node, text, scope);
  const opened = openBody(node, childItems(node, text, stats), text, stats);
  if (attached.length === 0 && trailing.length === 0) return { items: opened, definition: def };
  return { items: [...attached, ...opened, ...trailing], definition: def };
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

/**
 * Places `items` (in `scope`): each item that fits is a section; each that does not is
 * expanded in place ({@link expandItem}), an expanded definition fenced by hard
 * boundaries and adding itself to the scope of its sections; an indivisible one is a leaf.
 */
export function syntaxSections(items: SyntaxItem[], text: string, scope: SyntaxScope, fits: FitsBudget, stats?: SyntaxStats): SyntaxSections {
  const out = {
    count: 0,
    starts: [] as number[],
    ends: [] as number[],
    hard: [] as boolean[],
    leaf: [] as boolean[],
    items: [] as SyntaxItem[],
    scopes: [] as SyntaxScope[],
    definitions: [] as (SyntaxDefinition | null)[],
    attachOnly: [] as boolean[],
  };
  /** A list of items being placed; `head`: no named section of it has started on a later line than its first yet. */
  interface Frame {
    items: SyntaxItem[];
    i: number;
    scope: SyntaxScope;
    fenced: boolean;
    first: number;
    scanned: number;
    lineBreak: boolean;
    head: boolean;
  }
  const frame0 = (list: SyntaxItem[], sc: SyntaxScope, fenced: boolean): Frame => ({ items: list, i: 0, scope: sc, fenced, first: -1, scanned: -1, lineBreak: false, head: true });
  const stack: Frame[] = [{ ...frame0(items, scope, false), head: false }];
  // fences around an opened definition: HARD_ANY before its first section, HARD_NAMED after its last
  // (a closing `}`, `end` or `;` right after it still joins its last chunk; the next item does not)
  const NONE = 0;
  const HARD_ANY = 1;
  const HARD_NAMED = 2;
  let fence = NONE;
  let lastFrame: Frame | undefined; // the frame that placed the last section
  const push = (item: SyntaxItem, sc: SyntaxScope, leaf: boolean, frame: Frame) => {
    // a token (`}`, `;`, `end`) alone: read only where it matters (after an opened definition, in a frame's head)
    const anonymous = (fence === HARD_NAMED || frame.head) && item.node !== null && item.attach === null && !item.trail && !item.node.isNamed;
    out.starts.push(item.start);
    out.ends.push(item.end);
    out.hard.push(out.count > 0 && (fence === HARD_ANY || (fence === HARD_NAMED && !anonymous)));
    out.leaf.push(leaf);
    out.items.push(item);
    out.scopes.push(sc);
    out.definitions.push(item.node ? (definitionOf(item.node, text, sc) ?? null) : null);
    out.attachOnly.push(item.node !== null && item.attach === null && !item.trail && isAttachable(item.node.type));
    out.count++;
    if (!(fence === HARD_NAMED && anonymous)) fence = NONE;
    // the frame's head: its sections up to the first named one on a later line (scanned once, incrementally)
    const attachOnly = out.attachOnly[out.count - 1];
    if (attachOnly) {
      // comments and decorators before the head do not end it
    } else if (frame.first < 0) frame.first = frame.scanned = item.start;
    else if (frame.head) {
      if (!frame.lineBreak) frame.lineBreak = hasLineBreak(text, frame.scanned, item.start, stats);
      frame.scanned = item.end;
      if (frame.lineBreak && !anonymous) frame.head = false;
    }
    lastFrame = frame;
  };
  while (stack.length) {
    const frame = stack[stack.length - 1];
    if (frame.i >= frame.items.length) {
      stack.pop();
      if (frame.fenced && fence === NONE) fence = HARD_NAMED;
      continue;
    }
    const item = frame.items[frame.i++];
    if (stats) stats.steps++;
    if (fits(item.start, item.end, frame.scope)) {
      push(item, frame.scope, false, frame);
      continue;
    }
    const expanded = expandItem(item, text, frame.scope, fits, stats);
    if (!expanded) {
      push(item, frame.scope, true, frame);
      continue;
    }
    // a wrapper (`export …`, decorators) and the definition inside it are one definition: one fence, one scope entry
    const top = frame.scope[frame.scope.length - 1];
    const def = expanded.definition && !(top && top.start === expanded.definition.start && top.end === expanded.definition.end) ? expanded.definition : undefined;
    // the enclosing definition's head (`class A {`, `namespace N {`) may start the first chunk of this one
    if (def && !(lastFrame === frame && frame.head)) fence = HARD_ANY;
    stack.push(frame0(expanded.items, def ? [...frame.scope, def] : frame.scope, def !== undefined));
  }
  return out;
}

/**
 * Every definition in the tree (nested ones too), in document order: for measuring how
 * many functions a chunking keeps whole. Iterative; each node visited once.
 */
export function syntaxDefinitions(root: SyntaxNode, text: string): SyntaxDefinition[] {
  const out: SyntaxDefinition[] = [];
  const stack: { node: SyntaxNode; scope: SyntaxScope }[] = [{ node: root, scope: [] }];
  // a wrapper (`export class …`) and the definition it wraps are one definition: keyed by span
  const seen = new Set<string>();
  while (stack.length) {
    const { node, scope } = stack.pop()!;
    let sc = scope;
    const def = node === root ? undefined : definitionOf(node, text, scope);
    if (def && !seen.has(`${def.start}:${def.end}`)) {
      seen.add(`${def.start}:${def.end}`);
      out.push(def);
      sc = [...scope, def];
    }
    const kids = childrenOf(node);
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k], scope: sc });
  }
  // plain copies: each signature read now, while the tree it is read from lives
  return out.map((d) => ({ kind: d.kind, name: d.name, label: d.label, signature: d.signature, start: d.start, end: d.end }));
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

/** The text of `root`'s children of the given types (top-level imports), one line each. */
export function topLevelTexts(root: SyntaxNode, types: readonly string[], text: string): string[] {
  if (types.length === 0) return [];
  const out: string[] = [];
  const kids = childrenOf(root);
  for (let k = 0; k < kids.length; k++) {
    const c = kids[k];
    if (types.includes(c.type)) out.push(oneLine(text.slice(c.startIndex, c.endIndex)));
  }
  return out;
}
