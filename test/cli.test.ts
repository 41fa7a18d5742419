import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../src/index.js';
import { expectInvariants } from './helpers/invariants.js';
import { cliBin, corporaDir, sharedFiles } from './helpers/paths.js';

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [cliBin, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Record_ {
  id: string;
  index: number;
  source: string;
  text: string;
  start: number;
  end: number;
  tokenCount: number;
  metadata: { strategy: string; unit: string; overlap: number; oversized?: boolean };
}

describe('chunkwise chunk on every corpus at 512/256 tokens', () => {
  const corpora = sharedFiles(corporaDir, '.md');
  it('finds the four corpora', () => expect(corpora.map((f) => basename(f))).toHaveLength(4));
  for (const file of corpora) {
    it(`${basename(file)}: slices, coverage, budgets`, () => {
      const r = run(['chunk', file, '--strategy', 'sliding', '--unit', 'token', '--window-size', '512', '--stride', '256']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const text = readFileSync(file, 'utf8');
      const records = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record_);
      expect(records.length).toBeGreaterThan(1);
      // indices, slices, nothing lost, tokenCount and the 512-token budget (js-tiktoken), shared checker
      expectInvariants(text, records as unknown as Chunk[], { unit: 'token', budget: 512 });
      let prev: Record_ | undefined;
      for (const c of records) {
        expect(c.source).toBe(file);
        expect(c.metadata.unit).toBe('token:cl100k_base');
        if (prev) {
          expect(c.start).toBeGreaterThan(prev.start);
          expect(c.end).toBeGreaterThan(prev.end);
          expect(c.metadata.overlap).toBe(Math.max(0, prev.end - c.start));
        }
        prev = c;
      }
      expect(prev!.end).toBeGreaterThanOrEqual(text.trimEnd().length); // the last token with text may carry whitespace
    });
  }
});

describe('CLI behaviour', () => {
  it('reads stdin for -', () => {
    const r = run(['chunk', '-', '--unit', 'word', '--chunk-size', '2', '--chunk-overlap', '1'], 'one two three');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).text)).toEqual(['one two', 'two three']);
  });

  it('binary bytes on stdin are refused as a named binary file is: exit 1, one line, nothing written', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    for (const command of ['chunk', 'embed']) {
      const r = spawnSync(process.execPath, [cliBin, command, '-'], { input: png, encoding: 'utf8' });
      expect(r.status, command).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('chunkwise: cannot read -: a binary file, not text (a NUL byte at offset 8)\n');
    }
  });

  it('writes a JSON array to --out', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'chunkwise-')), 'chunks.json');
    const r = run(['chunk', '-', '--unit', 'char', '--strategy', 'sliding', '--window-size', '4', '--stride', '2', '--format', 'json', '--out', out], 'abcdefg');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const chunks = JSON.parse(readFileSync(out, 'utf8')) as Record_[];
    expect(chunks.map((c) => c.text)).toEqual(['abcd', 'cdef', 'efg']);
    expect(chunks[0].source).toBe('-');
  });

  it('empty input gives no chunks (and a valid empty JSON array)', () => {
    expect(run(['chunk', '-'], '').stdout).toBe('');
    expect(JSON.parse(run(['chunk', '-', '--format', 'json'], '   \n').stdout)).toEqual([]);
  });

  const usage: [string, string[], RegExp][] = [
    ['a non-integer size', ['chunk', '-', '--chunk-size', 'abc'], /chunk-size.*abc/],
    ['a zero window', ['chunk', '-', '--strategy', 'sliding', '--window-size', '0'], /--window-size: 0 \(must be an integer ≥ 1\)/],
    ['stride > windowSize', ['chunk', '-', '--strategy', 'sliding', '--window-size', '4', '--stride', '5'], /stride: 5/],
    ['overlap ≥ size', ['chunk', '-', '--chunk-size', '10', '--chunk-overlap', '10'], /^chunkwise: invalid option --chunk-overlap: 10 \(must be < --chunk-size \(10\)\)\n$/],
    ['an unknown strategy', ['chunk', '-', '--strategy', 'nope'], /nope/],
    ['an unknown unit', ['chunk', '-', '--unit', 'sentence'], /sentence/],
    ['an unknown option', ['chunk', '-', '--bogus'], /bogus/],
    ['no files', ['chunk'], /files/],
  ];
  for (const [what, args, message] of usage) {
    it(`${what}: exit 2, one line on stderr, no stack trace`, () => {
      const r = run(args, 'some text');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      const lines = r.stderr.trim().split('\n').filter((l) => !/^\(Did you mean/.test(l));
      expect(lines).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('an unreadable file: exit 1 naming the file', () => {
    const r = run(['chunk', '/nonexistent/file.txt']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('chunkwise: cannot read /nonexistent/file.txt: no such file or directory');
  });

  it('a directory without .md/.txt files: exit 1 naming it (directories with such files are walked, issue 7)', () => {
    const empty = mkdtempSync(join(tmpdir(), 'chunkwise-empty-'));
    const r = run(['chunk', empty, '--strategy', 'fixed']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`chunkwise: cannot read ${empty}: no .md/.txt files in directory`);
    // the default, auto, walks every registered kind of file
    expect(run(['chunk', empty]).stderr.trim()).toBe(`chunkwise: cannot read ${empty}: no .md/.txt/.markdown/.mdx/.html/.htm/… (35 extensions; --ext chooses) files in directory`);
  });
});

describe('CLI directory walks', () => {
  it('skip node_modules and take a file reached twice through symbolic links once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-walk-'));
    mkdirSync(join(dir, 'docs'));
    mkdirSync(join(dir, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(dir, 'docs', 'guide.md'), '# Guide\n\nRead me.\n');
    writeFileSync(join(dir, 'node_modules', 'pkg', 'README.md'), '# A dependency\n');
    symlinkSync(dir, join(dir, 'loop')); // was: every file twice, node_modules included
    symlinkSync(join(dir, 'docs', 'guide.md'), join(dir, 'same.md'));
    writeFileSync(join(dir, 'notes.txt'), 'Plain notes.\n');
    const r = run(['chunk', dir, '--strategy', 'markdown', '--unit', 'word']);
    expect(r.code).toBe(0);
    const sources = [...new Set(r.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { source: string }).source))];
    expect(sources).toEqual([join(dir, 'docs', 'guide.md'), join(dir, 'notes.txt')]);
  });
});

describe('CLI: what the chunkers load on first use is loaded before anything is written', () => {
  it('--strategy auto with a grammar that cannot be loaded writes no chunk of the other files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-peers-'));
    writeFileSync(join(dir, 'a.md'), '# Notes\n\nSome text.\n');
    writeFileSync(join(dir, 'z.ts'), 'export const x = 1;\n');
    const r = run(['chunk', dir, '--strategy', 'auto', '--grammar-base', '/nonexistent']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(''); // was: a.md's chunks, then the error
    expect(r.stderr).toMatch(/^chunkwise: could not load the typescript grammar from "\/nonexistent\/tree-sitter-typescript.wasm"/);
  });
});

describe('CLI: binary input and progress by bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-binary-'));
  const png = join(dir, 'img.png');
  writeFileSync(png, Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));

  it('a binary file named by itself: exit 1, one line, no output (it was chunked as text: \uFFFDPNG)', () => {
    const r = run(['chunk', png]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`chunkwise: cannot read ${png}: a binary file, not text (a NUL byte at offset 8)\n`);
  });

  it('a directory walk skips a binary file and says so on stderr (not with --quiet)', () => {
    const walk = join(dir, 'walk');
    mkdirSync(walk);
    writeFileSync(join(walk, 'a.txt'), 'plain words here\n');
    writeFileSync(join(walk, 'b.txt'), readFileSync(png));
    const r = run(['chunk', walk, '--unit', 'char']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as Record_).source)).toEqual([join(walk, 'a.txt')]);
    expect(r.stderr).toBe(`chunkwise: skipping ${join(walk, 'b.txt')}: a binary file, not text (a NUL byte at offset 8)\n`);
    expect(run(['chunk', walk, '--quiet']).stderr).toBe('');
  });

  it('on a terminal the bar moves while one large file or stdin is read (script gives the terminal)', () => {
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'Some words of a line that repeats.\n'.repeat(125_000)); // 4.4 MB: past the 4 MiB a single file needs for a bar
    const tty = (command: string) => {
      const r = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, CI: '' }, maxBuffer: 1 << 26 });
      return r.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, '');
    };
    // fixed streams the file (auto's recursive, for .txt, reads it whole first)
    const file = tty(`${process.execPath} ${cliBin} chunk ${big} --strategy fixed --unit char --chunk-size 4000 --out /dev/null`);
    // one file used to show 0 % until it was done; now percentages between
    const percents = [...file.matchAll(/chunking \[[^\]]*\] (\d+)%/g)].map((m) => Number(m[1]));
    expect(percents.some((p) => p > 0 && p < 100), file.slice(0, 400)).toBe(true);
    const stdin = tty(`head -c 2500000 ${big} | ${process.execPath} ${cliBin} chunk - --unit char --chunk-size 4000 --out /dev/null`);
    // stdin had no bar at all; now MB read and the rate (a fast machine may read it all before the first frame)
    expect(stdin, stdin.slice(0, 400)).toMatch(/chunking [1-9][\d.]* MB read \| [\d.]+ MB\/s \| [01]\/1 files/);
  });
});

describe('CLI output to a closed pipe', () => {
  it('exits quietly when the reader stops early (| head)', () => {
    const r = spawnSync('bash', ['-c', `node ${cliBin} chunk ${join(corporaDir, 'finance.md')} --unit word --chunk-size 20 --chunk-overlap 0 | head -1 > /dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('0');
  });
});
