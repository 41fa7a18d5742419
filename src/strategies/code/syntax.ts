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
export { childrenOf, MemoNode, syntaxErrorSpans, type SyntaxNode } from './syntax/node.js';
export { definitionOf, isAttachable, syntaxDefinitions, topLevelTexts, type SyntaxDefinition, type SyntaxScope } from './syntax/definitions.js';
export { childItems, expandItem, lineBreaks, type SyntaxItem, type SyntaxStats } from './syntax/items.js';
export { syntaxSections, type FitsBudget, type SyntaxSections } from './syntax/sections.js';
