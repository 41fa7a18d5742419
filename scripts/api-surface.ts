/**
 * The public surface of the package, recorded in etc/chunkwise.api.md so that a change to
 * it shows in review: for every subpath of package.json's `exports` with types, each name
 * its source module exports, marked value (class, function, const) or type (interface,
 * type). `npm run lint:package` rewrites the file (`tsx scripts/api-surface.ts --write`);
 * test/api-surface.test.ts fails when the file differs from the code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/** The recorded file, repository-relative. */
export const API_FILE = 'etc/chunkwise.api.md';

/** One exported name. */
export interface ApiName {
  name: string;
  kind: 'class' | 'function' | 'const' | 'enum' | 'namespace' | 'interface' | 'type';
  /** A run-time value (what `import * as m` has as a key), not only a type. */
  value: boolean;
}

/** One package entry: its import path, its source file (repository-relative) and what it exports. */
export interface ApiEntry {
  path: string;
  source: string;
  names: ApiName[];
}

/** The entries of package.json's `exports` that have types: import path → source file (first subpath wins for a shared file). */
export function packageEntries(): { path: string; source: string; sameAs?: string }[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const out: { path: string; source: string; sameAs?: string }[] = [];
  const seen = new Map<string, string>();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'object' && target !== null ? (target as Record<string, string>).types : undefined;
    const m = /^\.\/dist\/(.+)\.d\.ts$/.exec(types ?? '');
    if (!m) continue;
    const path = subpath === '.' ? 'chunkwise' : `chunkwise/${subpath.slice(2)}`;
    const source = `${m[1]}.ts`;
    out.push({ path, source, ...(seen.has(source) ? { sameAs: seen.get(source) } : {}) });
    if (!seen.has(source)) seen.set(source, path);
  }
  return out;
}

function kindOf(symbol: ts.Symbol): ApiName['kind'] {
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Variable) return 'const';
  if (f & ts.SymbolFlags.ValueModule) return 'namespace';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  return 'type';
}

/** True when an export reaches its symbol only through `export type` / `import type` / `type X` specifiers. */
function typeOnly(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  let s: ts.Symbol | undefined = symbol;
  for (let i = 0; s && s.flags & ts.SymbolFlags.Alias && i < 20; i++) {
    for (const d of s.declarations ?? []) {
      if (ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) return true;
      if (ts.isImportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) return true;
      if (ts.isExportDeclaration(d) && d.isTypeOnly) return true;
    }
    s = checker.getImmediateAliasedSymbol(s);
  }
  return false;
}

/** Every entry's exported names, read by the TypeScript checker from the sources. */
export function apiSurface(): ApiEntry[] {
  const entries = packageEntries();
  const files = [...new Set(entries.map((e) => join(root, e.source)))];
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  return entries.map(({ path, source }) => {
    const sf = program.getSourceFile(join(root, source));
    if (!sf) throw new Error(`api-surface: no source file ${source} for ${path}`);
    const moduleSymbol = checker.getSymbolAtLocation(sf)!;
    const names = checker.getExportsOfModule(moduleSymbol).map((exported): ApiName => {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const kind = kindOf(target);
      const value = !!(target.flags & ts.SymbolFlags.Value) && !typeOnly(checker, exported);
      return { name: exported.name, kind: value ? kind : kind === 'interface' ? 'interface' : 'type', value };
    });
    const order = (n: string): string => n.toLowerCase() + '\0' + n;
    names.sort((a, b) => Number(b.value) - Number(a.value) || (order(a.name) < order(b.name) ? -1 : 1));
    return { path, source, names };
  });
}

/** The recorded file's text for `surface`. */
export function renderApi(surface: ApiEntry[] = apiSurface()): string {
  const shared = new Map(packageEntries().map((e) => [e.path, e.sameAs]));
  const lines = [
    '# The public API of chunkwise',
    '',
    'Every name each entry of package.json `exports` gives, read from the sources by',
    'scripts/api-surface.ts: `npm run lint:package` rewrites this file, test/api-surface.test.ts',
    'fails when it differs from the code. A change here is a change of the public API.',
    '',
  ];
  for (const e of surface) {
    const same = shared.get(e.path);
    const values = e.names.filter((n) => n.value).length;
    lines.push(`## ${e.path}`, '');
    if (same) {
      lines.push(`The same module as \`${same}\` (${e.source}).`, '');
      continue;
    }
    lines.push(`${e.source}: ${values} values, ${e.names.length - values} types.`, '');
    for (const n of e.names) lines.push(`- ${n.kind} ${n.name}`);
    lines.push('');
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = renderApi();
  if (process.argv.includes('--write')) {
    writeFileSync(join(root, API_FILE), text);
    console.log(`api-surface: wrote ${API_FILE}`);
  } else process.stdout.write(text);
}
