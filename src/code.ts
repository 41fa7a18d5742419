/**
 * `chunkwise/code`: the code strategy's implementation (tree-sitter). Importing this
 * entry also makes the registry's `code` strategy (`createChunker('code', …)`) use it,
 * which browsers and edge runtimes need; in Node the registry finds it by itself.
 * Needs the optional peer dependencies web-tree-sitter and, for the default grammars,
 * tree-sitter-wasms.
 * @module
 */
export {
  CodeChunker,
  CODE_SCHEMA,
  CODE_LANGUAGES,
  CODE_EXTENSIONS,
  languageForPath,
  type CodeChunkerOptions,
  type CodeChunkMetadata,
  type CodeLanguageSpec,
  type SyntaxDefinition,
  type WasmSource,
} from './strategies/code/code.js';
