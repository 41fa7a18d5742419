/**
 * The import graph of the library's source (src/ and bindings/): every static
 * `import`/`export … from`, type-only ones included, every `import('…')` call with a
 * literal specifier and every `typeof import('…')` type, resolved to repository paths.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './paths.js';

/** One import: `from` imports `to` (repository-relative paths, `/`-separated), on `line`. */
export interface ImportEdge {
  from: string;
  to: string;
  line: number;
  /** How: a static import/export, `import()` at run time, or a type (`import type`, `typeof import()`). */
  kind: 'static' | 'dynamic' | 'type';
}

const toPosix = (p: string): string => p.split(sep).join('/');

/** The .ts files under `dir` (repository-relative), generated and declaration files left out. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(join(repoRoot, d), { withFileTypes: true })) {
      const p = posix.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'generated') walk(p);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** The repository-relative .ts file a relative specifier of `from` names, or undefined for a package or a non-source file. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const target = toPosix(relative(repoRoot, join(repoRoot, dirname(from), spec)));
  if (target.endsWith('.js')) return target.slice(0, -3) + '.ts';
  return undefined;
}

/** The imports of one source file. */
export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: ImportEdge[] = [];
  const add = (spec: ts.Node, kind: ImportEdge['kind']): void => {
    if (!ts.isStringLiteralLike(spec)) return;
    const to = resolveSpecifier(file, spec.text);
    if (to) out.push({ from: file, to, line: sf.getLineAndCharacterOfPosition(spec.getStart()).line + 1, kind });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const c = node.importClause;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, typeOnly ? 'type' : 'static');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, node.isTypeOnly ? 'type' : 'static');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments.length > 0) {
      add(node.arguments[0], 'dynamic');
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, 'type');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every import of every source file under src/ and bindings/. */
export function importGraph(): ImportEdge[] {
  return [...sourceFiles('src'), ...sourceFiles('bindings')].flatMap(importsOf);
}
