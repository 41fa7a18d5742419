import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FixedSizeChunker } from '../src/index.js';
import { expandInputs, parseExtensions } from '../src/apps/cli/inputs.js';
import { chunkFileRecords, filePieces } from '../src/apps/node/chunk-file.js';
import { cliBin, corporaDir, sharedFiles } from './helpers/paths.js';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [cliBin, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder of 1,000 files cut from the real corpora, in nested folders, plus files a walk must skip. */
function makeFolder(): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-batch-'));
  const corpus = sharedFiles(corporaDir, '.md').map((f) => readFileSync(f, 'utf8')).join('\n\n');
  const files: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const sub = join(dir, `group-${i % 7}`, i % 3 === 0 ? 'deep' : '');
    mkdirSync(sub, { recursive: true });
    const ext = i % 4 === 0 ? '.txt' : '.md';
    const file = join(sub, `doc-${(i * 7919) % 1000}${ext}`);
    const start = (i * 104729) % (corpus.length - 5000);
    const len = 200 + ((i * 31) % 3000);
    // some files get CRLF, an emoji at the edge, or are blank
    let text = corpus.slice(start, start + len);
    if (i % 5 === 0) text = text.replace(/\n/g, '\r\n');
    if (i % 11 === 0) text = '😀' + text;
    if (i % 97 === 0) text = '  \n ';
    writeFileSync(file, text);
    files.push(file);
  }
  mkdirSync(join(dir, '.hidden'), { recursive: true });
  writeFileSync(join(dir, '.hidden', 'skip.md'), 'hidden');
  writeFileSync(join(dir, 'group-0', 'data.json'), '{"skip": true}');
  return { dir, files };
}

describe('chunkwise chunk <dir> --workers N', () => {
  let folder: { dir: string; files: string[] };
  let single: string;
  beforeAll(() => {
    folder = makeFolder();
    const r = run(['chunk', folder.dir, '--strategy', 'fixed', '--unit', 'token', '--chunk-size', '64', '--chunk-overlap', '8', '--workers', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    single = r.stdout;
  });

  it('single process: every .md/.txt file, sorted by path, hidden and other files skipped', () => {
    const records = single.trimEnd().split('\n').map((l) => JSON.parse(l) as { source: string; index: number; text: string; start: number; end: number });
    const sources = [...new Set(records.map((r) => r.source))];
    const expected = [...folder.files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).filter((f) => !/^\s*$/.test(readFileSync(f, 'utf8')));
    expect(sources).toEqual(expected);
    expect(sources).toHaveLength(1000 - 11); // the blank files give no chunks
    // each file's records are the API's chunks of that file
    const chunker = new FixedSizeChunker({ unit: 'token', chunkSize: 64, chunkOverlap: 8 });
    for (const source of sources.slice(0, 25)) {
      const text = readFileSync(source, 'utf8');
      const mine = records.filter((r) => r.source === source);
      expect(mine.map((r) => [r.start, r.end, r.text])).toEqual(chunker.chunk(text).map((c) => [c.start, c.end, c.text]));
    }
  });

  for (const workers of [2]) {
    it(`--workers ${workers}: byte-identical JSONL`, () => {
      const r = run(['chunk', folder.dir, '--strategy', 'fixed', '--unit', 'token', '--chunk-size', '64', '--chunk-overlap', '8', '--workers', String(workers)]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout.length).toBe(single.length);
      expect(r.stdout === single).toBe(true);
    });
  }

  it('JSON array format and a glob: identical with and without workers', () => {
    const glob = join(folder.dir, 'group-[12]', '**', '*.md');
    const a = run(['chunk', glob, '--unit', 'word', '--chunk-size', '50', '--chunk-overlap', '10', '--format', 'json']);
    const b = run(['chunk', glob, '--unit', 'word', '--chunk-size', '50', '--chunk-overlap', '10', '--format', 'json', '--workers', '2']);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const parsed = JSON.parse(a.stdout) as { source: string }[];
    expect(new Set(parsed.map((r) => relative(folder.dir, r.source).split('/')[0]))).toEqual(new Set(['group-1', 'group-2']));
    expect(b.stdout === a.stdout).toBe(true);
  });

  it('an unreadable file among many: exit 1 naming it, with workers too', () => {
    const r = run(['chunk', folder.dir, join(folder.dir, 'missing.md'), '--workers', '2', '--unit', 'word']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`chunkwise: cannot read ${join(folder.dir, 'missing.md')}: no such file or directory`);
  });
});

describe('inputs and file streaming', () => {
  it('parseExtensions normalises the list', () => {
    expect(parseExtensions('md, .TXT,,rst')).toEqual(['.md', '.txt', '.rst']);
  });

  it('expandInputs: a directory with --ext, a file named twice, argument order kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-inputs-'));
    for (const f of ['b.rst', 'a.rst', 'z.md', 'sub/c.rst']) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), 'x');
    }
    expect(await expandInputs([join(dir, 'z.md'), dir, join(dir, 'z.md')], ['.rst'])).toEqual([
      join(dir, 'z.md'),
      join(dir, 'a.rst'),
      join(dir, 'b.rst'),
      join(dir, 'sub/c.rst'),
    ]);
  });

  it('filePieces joins to readFile(utf8) at every block size: BOM, CRLF, invalid bytes (only when the encoding is named), 4-byte characters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-pieces-'));
    const file = join(dir, 'mixed.txt');
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('caf\u00e9 😀 line\r\nnext\r\n', 'utf8'),
      Buffer.from([0xf0, 0x9f, 0x98, 0x20, 0xc3, 0x28, 0xff, 0xe2, 0x82]),
      Buffer.from(' end 𝔘', 'utf8'),
    ]);
    writeFileSync(file, bytes);
    const expected = readFileSync(file, 'utf8');
    for (let block = 1; block <= 9; block++) {
      let text = '';
      // invalid UTF-8 is an error unless an encoding is named (utf-8 named: U+FFFD, as readFile gives)
      for await (const piece of filePieces(file, block, undefined, 'utf-8')) text += piece;
      expect(text).toBe(expected);
      await expect((async () => { for await (const _ of filePieces(file, block)); })()).rejects.toThrow(/not valid UTF-8; give its encoding with --input-encoding/);
      const valid = join(dir, 'valid.txt');
      writeFileSync(valid, bytes.subarray(0, bytes.indexOf(0xf0, 10)));
      let clean = '';
      for await (const piece of filePieces(valid, block)) clean += piece;
      expect(clean).toBe(readFileSync(valid, 'utf8'));
    }
  });

  it('chunkFileRecords streams a file to the same records as the whole text, with content ids (no document id, as chunk(text) gives them)', async () => {
    const file = sharedFiles(corporaDir, '.md')[1];
    const chunker = new FixedSizeChunker({ unit: 'word', chunkSize: 200, chunkOverlap: 20 });
    const lines: string[] = [];
    const n = await chunkFileRecords(chunker, file, (r) => void lines.push(...r), 10_000);
    const whole = chunker.chunk(readFileSync(file, 'utf8'));
    expect(n).toBe(whole.length);
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(whole.map((c) => c.id));
  });
});
