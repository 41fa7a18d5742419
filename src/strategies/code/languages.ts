/**
 * The languages of the code strategy: names, file extensions, grammar files and the
 * few per-language facts the syntax boundaries need (comment prefix for context
 * headers, the node types of import statements). Data only, no parser: the root entry
 * imports this (for the schema and `--strategy auto`) without loading tree-sitter.
 * Core module.
 * @module
 */
import { extensionOf } from '../../engine/document-kinds.js';

/** A language the code strategy parses. */
export interface CodeLanguageSpec {
  /** The `language` option's value. */
  readonly name: string;
  /** Lower-case file extensions (with the dot) that choose it. */
  readonly extensions: readonly string[];
  /**
   * The grammar file: `tree-sitter-<grammar>.wasm` as the `tree-sitter-wasms` package
   * ships it (`out/`).
   */
  readonly grammar: string;
  /** How a line comment starts (context headers are written as comments). */
  readonly comment: string;
  /** Node types of top-level imports (`import …`, `use …`, `#include …`) for context headers. */
  readonly imports: readonly string[];
}

const JS_IMPORTS = ['import_statement'];

/** Every language, in the order docs and `--help` list them. */
export const CODE_LANGUAGES: readonly CodeLanguageSpec[] = [
  { name: 'typescript', extensions: ['.ts', '.mts', '.cts'], grammar: 'typescript', comment: '//', imports: JS_IMPORTS },
  { name: 'tsx', extensions: ['.tsx'], grammar: 'tsx', comment: '//', imports: JS_IMPORTS },
  { name: 'javascript', extensions: ['.js', '.mjs', '.cjs', '.jsx'], grammar: 'javascript', comment: '//', imports: JS_IMPORTS },
  { name: 'python', extensions: ['.py', '.pyi'], grammar: 'python', comment: '#', imports: ['import_statement', 'import_from_statement', 'future_import_statement'] },
  { name: 'rust', extensions: ['.rs'], grammar: 'rust', comment: '//', imports: ['use_declaration', 'extern_crate_declaration'] },
  { name: 'go', extensions: ['.go'], grammar: 'go', comment: '//', imports: ['package_clause', 'import_declaration'] },
  { name: 'java', extensions: ['.java'], grammar: 'java', comment: '//', imports: ['package_declaration', 'import_declaration'] },
  { name: 'c', extensions: ['.c', '.h'], grammar: 'c', comment: '//', imports: ['preproc_include'] },
  { name: 'cpp', extensions: ['.cc', '.cpp', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++'], grammar: 'cpp', comment: '//', imports: ['preproc_include', 'using_declaration'] },
  { name: 'csharp', extensions: ['.cs'], grammar: 'c_sharp', comment: '//', imports: ['using_directive'] },
  { name: 'ruby', extensions: ['.rb'], grammar: 'ruby', comment: '#', imports: [] },
  { name: 'php', extensions: ['.php'], grammar: 'php', comment: '//', imports: ['namespace_use_declaration'] },
];

/** The `language` option's values. */
export const CODE_LANGUAGE_NAMES: readonly string[] = CODE_LANGUAGES.map((l) => l.name);

/** Every extension of {@link CODE_LANGUAGES} (what `--strategy auto` sends to the code strategy). */
export const CODE_EXTENSIONS: readonly string[] = CODE_LANGUAGES.flatMap((l) => l.extensions);

/** The language named `name`, or undefined. */
export function codeLanguage(name: string): CodeLanguageSpec | undefined {
  return CODE_LANGUAGES.find((l) => l.name === name);
}

export { extensionOf } from '../../engine/document-kinds.js';

/** The language a file name's extension chooses, or undefined. */
export function languageForPath(path: string): CodeLanguageSpec | undefined {
  const ext = extensionOf(path);
  return ext ? CODE_LANGUAGES.find((l) => l.extensions.includes(ext)) : undefined;
}
