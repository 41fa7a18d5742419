/**
 * Grammar files for the code strategy in Node: read from the `tree-sitter-wasms`
 * package (its `out/tree-sitter-<grammar>.wasm`), or from a path or `file:` URL the
 * caller gives. Loaded by the core through a computed import. Node only.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GrammarLoadError, MissingDependencyError } from '../../engine/errors.js';

/**
 * The bytes of `tree-sitter-<grammar>.wasm` from the installed `tree-sitter-wasms`.
 * @throws {MissingDependencyError} when tree-sitter-wasms is not installed;
 *   {@link GrammarLoadError} when it has no such grammar file.
 */
export async function readPackagedGrammar(grammar: string, language: string): Promise<Uint8Array> {
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve('tree-sitter-wasms/package.json'));
  } catch (cause) {
    throw new MissingDependencyError('tree-sitter-wasms', `The code strategy's ${language} grammar`, cause);
  }
  return readGrammarFile(join(dir, 'out', `tree-sitter-${grammar}.wasm`), language);
}

/**
 * The bytes of a grammar file: a path or a `file:` URL.
 * @throws {GrammarLoadError} when it cannot be read.
 */
export async function readGrammarFile(path: string | URL, language: string): Promise<Uint8Array> {
  const file = path instanceof URL || path.startsWith('file:') ? fileURLToPath(path) : path;
  try {
    return new Uint8Array(await readFile(file));
  } catch (cause) {
    throw new GrammarLoadError(language, file, (cause as Error).message);
  }
}

/**
 * A fresh instance of web-tree-sitter's ES module (its URL with `?instance=<n>`): the
 * module keeps its Emscripten instance in a module-level singleton, so after that
 * instance aborted (its memory and tables may be corrupt) only a second copy of the
 * module parses again.
 * @throws when web-tree-sitter cannot be resolved or imported.
 */
export async function importFreshTreeSitter(instance: number): Promise<unknown> {
  const url = import.meta.resolve('web-tree-sitter');
  return import(`${url}${url.includes('?') ? '&' : '?'}instance=${instance}`);
}

/**
 * The packages the code strategy needs in Node that cannot be resolved, in the order they
 * load: web-tree-sitter, and tree-sitter-wasms when the grammars are the packaged ones
 * (no `grammar` or `grammarBase` given). Resolving only: nothing is loaded.
 */
export function missingCodePackages(packagedGrammars: boolean): string[] {
  // as they are loaded: web-tree-sitter imported, tree-sitter-wasms' files found by require.resolve
  const checks: Array<[string, () => unknown]> = [['web-tree-sitter', () => import.meta.resolve('web-tree-sitter')]];
  if (packagedGrammars) checks.push(['tree-sitter-wasms', () => createRequire(import.meta.url).resolve('tree-sitter-wasms/package.json')]);
  const out: string[] = [];
  for (const [name, check] of checks) {
    try {
      check();
    } catch {
      out.push(name);
    }
  }
  return out;
}
