/**
 * Named definitions in a syntax tree (functions, methods, classes, …, across the
 * supported grammars): their kind, name, signature and enclosing scope, what symbol paths
 * and context headers are made of. Core module.
 * @module
 */
import { trimSpan } from '../../../engine/text.js';
import { childrenOf, MemoNode, type SyntaxNode } from './node.js';

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

/** Comment nodes, by type name, across the grammars. */
export const isComment = (type: string): boolean => type.includes('comment');
/** Decorators and attributes, by type name. */
export const ATTACHED = new Set(['decorator', 'attribute_item', 'attribute_list', 'annotation', 'marker_annotation']);
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
