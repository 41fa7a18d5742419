/**
 * The CLI with HTML (issue 13): `--strategy html` with its flags, and `--strategy auto`
 * choosing by extension (.md markdown, .html/.htm html, source files code, .txt recursive,
 * else fixed) in chunk and embed,
 * the same in worker threads; flags no chosen strategy takes are usage errors (exit 2).
 * Runs the compiled CLI (dist/).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../src/index.js';
import { visibleChars } from './helpers/html-visible.js';
import { expectInvariants } from './helpers/invariants.js';
import { cliBin, repoRoot } from './helpers/paths.js';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [cliBin, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const records = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Chunk & { source: string });

const pages = join(repoRoot, 'test', 'golden', 'html');
const dir = mkdtempSync(join(tmpdir(), 'chunkwise-html-cli-'));
copyFileSync(join(pages, 'salary-table.html'), join(dir, 'salaris.html'));
copyFileSync(join(pages, 'broken.html'), join(dir, 'broken.htm'));
copyFileSync(join(repoRoot, 'docs', 'recursive.md'), join(dir, 'recursive.md'));
writeFileSync(join(dir, 'notes.txt'), 'A plain text file.\n\nWith two paragraphs.\n');
writeFileSync(join(dir, 'data.csv'), 'a,b\n1,2\n');
copyFileSync(join(repoRoot, 'test', 'fixtures', 'code', 'stats.py'), join(dir, 'stats.py'));

describe('chunkwise chunk --strategy html', () => {
  it('chunks a page with the budget on embedText; the records carry embedText, headingPath, tableRows', () => {
    const file = join(dir, 'salaris.html');
    const r = run(['chunk', file, '--strategy', 'html', '--unit', 'token', '--chunk-size', '96']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const html = readFileSync(file, 'utf8');
    const chunks = records(r.stdout);
    expectInvariants(html, chunks, { unit: 'token', budget: 96, budgetOn: 'embedText', visible: visibleChars(html) });
    const part = chunks.find((c) => c.metadata.tableRows)!;
    expect(part.metadata.headingPath).toEqual(['Salarisschalen 2025']);
    expect(part.embedText!.split('\n')[2]).toMatch(/^Functie: .* \| Schaal: \d+ \| Minimum salaris: € /);
  });

  it('--drop takes a JSON list of landmarks; a bad one is a usage error naming the option', () => {
    const file = join(dir, 'salaris.html');
    const kept = records(run(['chunk', file, '--strategy', 'html', '--drop', '[]', '--chunk-size', '4000']).stdout);
    expect(kept[0].embedText!.startsWith('Home › Werken bij')).toBe(true);
    const bad = run(['chunk', file, '--strategy', 'html', '--drop', '["menu"]']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--drop|drop: \["menu"\].*landmark names/);
  });
});

describe('chunkwise chunk --strategy auto', () => {
  const args = ['chunk', dir, '--strategy', 'auto', '--ext', 'md,html,htm,txt,csv,py', '--unit', 'word', '--chunk-size', '60'];
  it('picks each file’s strategy by its extension', () => {
    const r = run(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const by = new Map<string, Set<string>>();
    for (const c of records(r.stdout)) {
      const name = c.source.slice(dir.length + 1);
      if (!by.has(name)) by.set(name, new Set());
      by.get(name)!.add(c.metadata.strategy);
    }
    expect(Object.fromEntries([...by].map(([k, v]) => [k, [...v]]))).toEqual({
      'broken.htm': ['html'],
      'data.csv': ['fixed'],
      'notes.txt': ['recursive'],
      'recursive.md': ['markdown'],
      'salaris.html': ['html'],
      'stats.py': ['code'],
    });
  });

  it('without --ext walks every strategy’s extensions: one picker for html, markdown, code and text, in chunk and embed', () => {
    const walk = ['--strategy', 'auto', '--unit', 'word', '--chunk-size', '60'];
    const r = run(['chunk', dir, ...walk]);
    expect(r.stderr).toBe('');
    const chunked = records(r.stdout);
    const picked = Object.fromEntries(chunked.map((c) => [c.source.slice(dir.length + 1), c.metadata.strategy]));
    // data.csv has no strategy's extension, so the walk leaves it out
    expect(picked).toEqual({ 'broken.htm': 'html', 'notes.txt': 'recursive', 'recursive.md': 'markdown', 'salaris.html': 'html', 'stats.py': 'code' });
    expect(chunked.find((c) => c.source.endsWith('stats.py'))!.metadata.language).toBe('python');
    const embedded = records(run(['embed', dir, ...walk, '--embedder', 'hashing:16']).stdout);
    expect(embedded.map((c) => [c.source, c.metadata.strategy, c.start, c.end])).toEqual(chunked.map((c) => [c.source, c.metadata.strategy, c.start, c.end]));
  });

  it('a text strategy walks .md and .txt (as --help says) plus its own; html and code walk only their own kind', () => {
    const sources = (strategy: string) =>
      records(run(['chunk', dir, '--strategy', strategy, '--unit', 'word', '--chunk-size', '60']).stdout)
        .map((c) => c.source.slice(dir.length + 1))
        .filter((s, i, all) => all.indexOf(s) === i);
    // recursive walked only notes.txt and markdown only recursive.md: half the files a user expects
    expect(sources('recursive')).toEqual(['notes.txt', 'recursive.md']);
    expect(sources('markdown')).toEqual(['notes.txt', 'recursive.md']);
    expect(sources('fixed')).toEqual(['notes.txt', 'recursive.md']);
    expect(sources('html')).toEqual(['broken.htm', 'salaris.html']);
    expect(sources('code')).toEqual(['stats.py']);
  });

  it('--embedder with auto is a usage error (no strategy it picks takes one)', () => {
    const bad = run(['chunk', dir, '--strategy', 'auto', '--embedder', 'hashing']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('chunkwise: --strategy auto picks no strategy that takes an --embedder\n');
  });

  it('gives the same output in worker threads', () => {
    const single = run(args);
    const workers = run([...args, '--workers', '3']);
    expect(workers.code).toBe(0);
    expect(workers.stdout).toBe(single.stdout);
  });

  it('embed --strategy auto chunks each file as chunk does', () => {
    const embedded = records(run(['embed', dir, '--strategy', 'auto', '--ext', 'md,html', '--unit', 'word', '--chunk-size', '60', '--embedder', 'hashing:16']).stdout);
    const chunked = records(run(['chunk', dir, '--strategy', 'auto', '--ext', 'md,html', '--unit', 'word', '--chunk-size', '60']).stdout);
    expect(embedded.map((c) => [c.source, c.metadata.strategy, c.start, c.end])).toEqual(chunked.map((c) => [c.source, c.metadata.strategy, c.start, c.end]));
    expect(new Set(embedded.map((c) => c.metadata.strategy))).toEqual(new Set(['markdown', 'html']));
  });

  it('passes each flag to the strategies that take it; one that none takes is a usage error', () => {
    const r = run([...args, '--contextual-headers', '--drop', '[]']);
    expect(r.code).toBe(0);
    const md = records(r.stdout).filter((c) => c.metadata.strategy === 'markdown');
    // --contextual-headers reached markdown (its embedText starts with the heading path), --drop html
    for (const c of md) expect(c.embedText!.startsWith((c.metadata.headingPath as string[]).join(' > '))).toBe(true);
    expect(records(r.stdout).some((c) => c.metadata.strategy === 'html' && c.embedText!.includes('Home › Werken bij'))).toBe(true);
    const bad = run([...args, '--window-size', '5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('chunkwise: --window-size is not an option of any strategy --strategy auto picks (recursive, markdown, html, code, fixed)\n');
  });
});
