/**
 * The CLI with the code strategy (issue 13): `--strategy code` takes each file's language
 * from its extension, `--strategy auto` chooses a strategy per file by extension, the
 * directory walk picks source files for both, workers give the same output, and a file
 * of no known language is a one-line usage error (exit 2).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectInvariants } from './helpers/invariants.js';
import { cliBin, repoRoot } from './helpers/paths.js';

const fixtures = join(repoRoot, 'test', 'fixtures', 'code');

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [cliBin, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
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
    expect(missing.stderr).toMatch(/^chunkwise: invalid option --language: undefined \(give --language \(typescript/);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const named = run(['chunk', '-', '--strategy', 'code', '--filename', 'x.py'], py);
    expect(named.records.map((c) => [c.text, c.metadata.language, c.metadata.symbolPath])).toEqual([['def f():\n    return 1', 'python', ['function f']]]);
    const md = run(['chunk', join(repoRoot, 'README.md'), '--strategy', 'code']);
    expect(md.status).toBe(2);
    expect(md.stderr).toMatch(/invalid option (--)?filename: ".*README.md" \(its extension names no supported language/i);
    expect(run(['chunk', '-', '--strategy', 'code', '--language', 'cobol'], py).status).toBe(2);
  });
});
