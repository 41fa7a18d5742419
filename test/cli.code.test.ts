/**
 * The CLI with the code strategy (issue 13): `--strategy code` takes each file's language
 * from its extension, `--strategy auto` chooses a strategy per file by extension, the
 * directory walk picks source files for both, workers give the same output, and a file
 * of no known language is a one-line usage error (exit 2); on an install without
 * web-tree-sitter and tree-sitter-wasms (hidden by `helpers/hidden-packages.ts`) one line
 * names both, exit 1, and `--skip-unsupported` chunks the other files; a file whose parse
 * is given up is chunked by the recursive splitter, said in one stderr line.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectInvariants } from './helpers/invariants.js';
import { hidePackagesArgs } from './helpers/hidden-packages.js';
import { cliBin, repoRoot } from './helpers/paths.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'code');

function run(args: string[], input?: string, nodeArgs: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, cliBin, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  const records = r.status === 0 ? r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  return { status: r.status, stderr: r.stderr, stdout: r.stdout, records };
}

/** A folder with Python, Go, Markdown, text and CSV files. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-code-cli-'));
  for (const f of ['stats.py', 'cache.go', 'help.ts']) copyFileSync(join(fixtures, f), join(dir, f));
  copyFileSync(join(repoRoot, 'docs', 'recursive.md'), join(dir, 'guide.md'));
  writeFileSync(join(dir, 'notes.txt'), 'Plain text. Another sentence.\n');
  writeFileSync(join(dir, 'table.csv'), 'a,b\n1,2\n');
  return dir;
}

describe('chunkwise chunk with the code strategy', () => {
  it('--strategy code: the language from each file name, exact chunks with symbol paths and lines', () => {
    const file = join(fixtures, 'shapes.rs');
    const r = run(['chunk', file, '--strategy', 'code', '--chunk-size', '64']);
    expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expectInvariants(text, r.records, { unit: 'token', budget: 64 });
    expect(r.records.every((c) => c.metadata.language === 'rust' && c.source === file)).toBe(true);
    expect(r.records.find((c) => c.text.startsWith('impl fmt::Display'))!.metadata.symbols).toContain('impl fmt::Display for Point');
  });

  it('--strategy auto over a folder: markdown for .md, code for source files, recursive for .txt; an explicit .csv gets the default', () => {
    const dir = project();
    const r = run(['chunk', dir, '--strategy', 'auto', '--chunk-size', '100']);
    expect(r.status, r.stderr).toBe(0);
    const by: Record<string, string> = {};
    for (const c of r.records) by[c.source.slice(dir.length + 1)] = c.metadata.strategy;
    expect(by).toEqual({ 'cache.go': 'code', 'guide.md': 'markdown', 'help.ts': 'code', 'notes.txt': 'recursive', 'stats.py': 'code' });
    const csv = run(['chunk', join(dir, 'table.csv'), '--strategy', 'auto']);
    expect(csv.records.map((c) => c.metadata.strategy)).toEqual(['fixed']);
    // workers: the same records in the same order
    const workers = run(['chunk', dir, '--strategy', 'auto', '--chunk-size', '100', '--workers', '2']);
    expect(workers.stdout).toBe(r.stdout);
  });

  it('the walk for --strategy code picks source files only; --context-headers fills embedText', () => {
    const dir = project();
    const r = run(['chunk', dir, '--strategy', 'code', '--chunk-size', '80', '--context-headers']);
    expect(r.status, r.stderr).toBe(0);
    expect([...new Set(r.records.map((c) => c.source.slice(dir.length + 1)))]).toEqual(['cache.go', 'help.ts', 'stats.py']);
    for (const c of r.records) expect(c.embedText.startsWith(`${c.metadata.language === 'python' ? '#' : '//'} File: ${c.source}\n`)).toBe(true);
  });

  it('stdin needs --filename or --language; a file of no known language is a one-line usage error', () => {
    const py = 'def f():\n    return 1\n';
    const missing = run(['chunk', '-', '--strategy', 'code'], py);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^chunkwise: missing option --language: give --language \(typescript/);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const named = run(['chunk', '-', '--strategy', 'code', '--filename', 'x.py'], py);
    expect(named.records.map((c) => [c.text, c.metadata.language, c.metadata.symbolPath])).toEqual([['def f():\n    return 1', 'python', ['function f']]]);
    const md = run(['chunk', join(repoRoot, 'README.md'), '--strategy', 'code']);
    expect(md.status).toBe(2);
    expect(md.stderr).toMatch(/invalid option (--)?filename: ".*README.md" \(its extension names no supported language/i);
    expect(run(['chunk', '-', '--strategy', 'code', '--language', 'cobol'], py).status).toBe(2);
  });
});

describe('the code strategy on a plain install (web-tree-sitter and tree-sitter-wasms not installed)', () => {
  const plain = hidePackagesArgs(['web-tree-sitter', 'tree-sitter-wasms']);

  it('chunk --strategy auto over a folder: one line naming both packages and the files, exit 1, nothing written (was: exit 2 naming web-tree-sitter only, then tree-sitter-wasms on the next try)', () => {
    const dir = project();
    const r = run(['chunk', dir, '--strategy', 'auto', '--chunk-size', '100'], undefined, plain);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `chunkwise: 3 of 5 files (the code strategy, for ${join(dir, 'cache.go')}, ${join(dir, 'help.ts')} and ${join(dir, 'stats.py')}) needs the packages web-tree-sitter and tree-sitter-wasms, which could not be imported: install them with npm install web-tree-sitter tree-sitter-wasms, or pass --skip-unsupported to chunk the other 2 files`,
    );
    // embed checks the same way before it loads a model
    const embed = run(['embed', dir, '--strategy', 'auto'], undefined, plain);
    expect(embed.status).toBe(1);
    expect(embed.stderr).toContain('needs the packages web-tree-sitter and tree-sitter-wasms');
  });

  it('--skip-unsupported: the other files are chunked as without the flag, the skipped ones said in one line', () => {
    const dir = project();
    const full = run(['chunk', dir, '--strategy', 'auto', '--chunk-size', '100']);
    const r = run(['chunk', dir, '--strategy', 'auto', '--chunk-size', '100', '--skip-unsupported'], undefined, plain);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records).toEqual(full.records.filter((c) => c.metadata.strategy !== 'code'));
    expect([...new Set(r.records.map((c) => c.source.slice(dir.length + 1)))]).toEqual(['guide.md', 'notes.txt']);
    expect(r.stderr.trim().split('\n')).toEqual([
      `chunkwise: skipped 3 files (the code strategy, for ${join(dir, 'cache.go')}, ${join(dir, 'help.ts')} and ${join(dir, 'stats.py')}): not installed: web-tree-sitter, tree-sitter-wasms (npm install web-tree-sitter tree-sitter-wasms)`,
    ]);
    expect(run(['chunk', dir, '--strategy', 'auto', '--skip-unsupported', '--quiet'], undefined, plain).stderr).toBe('');
  });

  it('only tree-sitter-wasms missing: named alone; with --grammar-base it is not needed', () => {
    const dir = project();
    const r = run(['chunk', join(dir, 'stats.py'), '--strategy', 'auto'], undefined, hidePackagesArgs(['tree-sitter-wasms']));
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`chunkwise: chunking (the code strategy, for ${join(dir, 'stats.py')}) needs the package tree-sitter-wasms, which could not be imported: install it with npm install tree-sitter-wasms`);
    const based = run(['chunk', join(dir, 'stats.py'), '--strategy', 'auto', '--grammar-base', join(repoRoot, 'node_modules', 'tree-sitter-wasms', 'out')], undefined, hidePackagesArgs(['tree-sitter-wasms']));
    expect(based.status, based.stderr).toBe(0);
    expect(based.records[0].metadata.language).toBe('python');
  });
});

describe('a file whose parse is given up', () => {
  it(`a TypeScript file tree-sitter's error recovery explodes on: exit 0 within seconds, the recursive splitter's chunks with metadata.fallback, one line on stderr (was: past 60 s)`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-code-hang-'));
    const file = join(dir, 'hang.ts');
    writeFileSync(file, "[l=b?>'e\n\"r}{#");
    writeFileSync(join(dir, 'ok.ts'), 'export function f() {\n  return 1;\n}\n');
    const t0 = Date.now();
    const r = run(['chunk', dir, '--strategy', 'auto']);
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records.map((c) => [c.source.slice(dir.length + 1), c.text, c.metadata.symbolPath, typeof c.metadata.fallback])).toEqual([
      ['hang.ts', "[l=b?>'e\n\"r}{#", [], 'string'],
      ['ok.ts', 'export function f() {\n  return 1;\n}', ['function f'], 'undefined'],
    ]);
    expect(r.stderr.trim().split('\n')).toEqual([`chunkwise: ${file}: ${r.records[0].metadata.fallback}; chunked by the recursive splitter instead (metadata.fallback)`]);
    expect(run(['chunk', file, '--strategy', 'auto', '--quiet']).stderr).toBe('');
  }, 60_000);
});
