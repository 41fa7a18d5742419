/**
 * The CLI never prints a stack trace for a user's mistake and never exits 0 without
 * writing what it was asked to write (issue 16). A table of bad invocations runs through
 * the built CLI (dist/src/cli/bin.js): each exits 2 (usage) or 1 (I/O) with one line on
 * stderr in one style (`chunkwise: …`), no "at …" frames, no Node "Unhandled 'error'
 * event", and, where it was asked to write a file, no exit 0.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fsReason, cliMessage, UnreadableFileError, UnwritableFileError } from '../src/apps/cli/errors.js';
import { cliBin, corporaDir, questionsCsv, repoRoot } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'chunkwise-cli-errors-'));
const readme = join(repoRoot, 'README.md');
const missingDir = join(dir, 'missing');
const questions = questionsCsv;
const empty = join(dir, 'empty.txt');
writeFileSync(empty, '');
const noFiles = join(dir, 'no-files');
mkdirSync(noFiles);
writeFileSync(join(noFiles, 'data.json'), '{}');
const hasFull = existsSync('/dev/full');

function run(args: string[], options: { input?: string; stdout?: string } = {}) {
  // stdout to a file (e.g. /dev/full) goes through a shell redirection, as a user would write it
  const r = options.stdout
    ? spawnSync('bash', ['-c', `"${process.execPath}" "${cliBin}" "$@" > ${options.stdout}`, 'bash', ...args], { input: options.input ?? '', encoding: 'utf8', timeout: 60_000 })
    : spawnSync(process.execPath, [cliBin, ...args], { input: options.input ?? 'Some text. More text.', encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

type Case = [what: string, args: string[], code: 1 | 2, message: RegExp, options?: { stdout?: string; skip?: boolean }];

const usage: Case[] = [
  ['embed --batch-size 0 (looped forever)', ['embed', readme, '--batch-size', '0'], 2, /^chunkwise: invalid option --batch-size: 0 \(must be an integer ≥ 1\)$/],
  ['qasc --candidates 0 (named --top-k)', ['qasc', readme, '-q', 'x', '--candidates', '0'], 2, /^chunkwise: invalid option --candidates: "0" \(expected an integer ≥ 1\)$/],
  ['qasc --top-k 0 (named maxResults)', ['qasc', readme, '-q', 'x', '--top-k', '0'], 2, /^chunkwise: invalid option --top-k: "0" \(expected an integer ≥ 1\)$/],
  ['qasc --pre-chunk-overlap ≥ --pre-chunk-size (named chunkOverlap)', ['qasc', readme, '-q', 'x', '--pre-chunk-size', '10', '--pre-chunk-overlap', '20'], 2, /^chunkwise: invalid option --pre-chunk-overlap: 20 \(an integer ≥ 0 and < --pre-chunk-size, 10\)$/],
  ['qasc with an empty query (printed 3 arbitrary chunks)', ['qasc', readme, '-q', ' '], 2, /^chunkwise: invalid input: the query must not be empty/],
  ['eval --top-k 0 (named k)', ['eval', '--top-k', '0'], 2, /^chunkwise: invalid option --top-k: "0" \(expected an integer ≥ 1\)$/],
  ['embed --batch-size -1 (exit 70 with a trace)', ['embed', readme, '--batch-size', '-1'], 2, /^chunkwise: invalid option --batch-size: -1 \(must be an integer ≥ 1\)$/],
  ['chunk --chunk-size abc (commander)', ['chunk', '-', '--chunk-size', 'abc'], 2, /^chunkwise: invalid option --chunk-size: "abc" \(expected an integer\)$/],
  ['chunk --chunk-size 0 (library)', ['chunk', '-', '--chunk-size', '0'], 2, /^chunkwise: invalid option --chunk-size: 0 \(must be an integer ≥ 1\)$/],
  ['an unknown strategy', ['chunk', '-', '--strategy', 'nope'], 2, /^chunkwise: invalid option --strategy: "nope" \(one of sliding, fixed, .*\)$/],
  ['an unknown option', ['chunk', '-', '--bogus'], 2, /^chunkwise: unknown option '--bogus'$/],
  ['a misspelt option', ['chunk', '-', '--chunk-sise', '3'], 2, /^chunkwise: unknown option '--chunk-sise' \(Did you mean --chunk-size\?\)$/],
  ['an unknown command', ['chunks', '-'], 2, /^chunkwise: unknown command 'chunks'/],
  ['no files', ['chunk'], 2, /^chunkwise: missing required argument 'files'$/],
  ['stride > window', ['chunk', '-', '-s', 'sliding', '--window-size', '4', '--stride', '5'], 2, /^chunkwise: invalid option --stride: 5 \(must be ≤ --window-size \(4\);/],
  ['semantic --locale (RangeError at chunk time, exit 70)', ['chunk', readme, '-s', 'semantic', '--locale', 'en_US!'], 2, /^chunkwise: invalid option --locale: "en_US!" \(must be a BCP 47 language tag/],
  ['qasc --locale (RangeError at chunk time, exit 70)', ['qasc', readme, '--query', 'late chunking', '--locale', 'en_US!'], 2, /^chunkwise: invalid option --locale: "en_US!"/],
  ['sentence --locale', ['chunk', '-', '-s', 'sentence', '--locale', 'en_US!'], 2, /^chunkwise: invalid option --locale: "en_US!"/],
  ['qasc without --query', ['qasc', readme], 2, /^chunkwise: required option '-q, --query <text>' not specified$/],
  ['qasc --p 101', ['qasc', readme, '--query', 'x', '--p', '101'], 2, /^chunkwise: invalid option --p: 101 \(must be a finite number in \[0, 100\]\)$/],
  ['eval without --questions', ['eval', '--corpora', corporaDir, '--strategy', 'fixed:400:200'], 2, /^chunkwise: required option '--questions <csv>' not specified$/],
  ['eval with a bad strategy spec', ['eval', '--corpora', corporaDir, '--questions', questions, '--strategy', 'bogus:1:2'], 2, /^chunkwise: invalid option --strategy: "bogus"/],
  ['a bad embedder spec', ['embed', readme, '--embedder', 'bogus'], 2, /^chunkwise: invalid option --embedder: "bogus"/],
  ['late without a token-level model (said "undefined")', ['chunk', readme, '-s', 'late'], 2, /^chunkwise: missing option --embedder: late chunking needs a token-level model, e\.g\. --embedder onnx:<folder>$/],
  ['npy to stdout', ['embed', readme, '--format', 'npy'], 2, /^chunkwise: --format npy writes binary data: give --out FILE\.npy$/],
  ['--workers 0', ['chunk', readme, '--workers', '0'], 2, /^chunkwise: invalid option --workers: 0 \(must be an integer ≥ 1\)$/],
];

const io: Case[] = [
  ['a missing file, in words', ['chunk', 'notes.txt'], 1, /^chunkwise: cannot read notes\.txt: no such file or directory$/],
  ['embed: a missing file', ['embed', 'notes.txt'], 1, /^chunkwise: cannot read notes\.txt: no such file or directory$/],
  ['qasc: a missing file', ['qasc', 'notes.txt', '--query', 'x'], 1, /^chunkwise: cannot read notes\.txt: no such file or directory$/],
  ['a glob that matches nothing', ['embed', join(dir, 'nothing', '*.md')], 1, /^chunkwise: cannot read .*\*\.md: no file matches the glob$/],
  ['a directory without .md/.txt files', ['qasc', noFiles, '--query', 'x'], 1, /^chunkwise: cannot read .*no-files: no \.md\/\.txt files in directory$/],
  ['chunk --out into a missing directory', ['chunk', readme, '--out', join(missingDir, 'x.jsonl')], 1, /^chunkwise: cannot write .*missing\/x\.jsonl: no such directory$/],
  ['chunk --out at a directory', ['chunk', readme, '--out', dir], 1, /^chunkwise: cannot write .*: is a directory$/],
  ['embed --out into a missing directory', ['embed', readme, '--out', join(missingDir, 'x.jsonl')], 1, /^chunkwise: cannot write .*missing\/x\.jsonl: no such directory$/],
  ['embed of an empty file --out into a missing directory (exited 0, wrote nothing)', ['embed', empty, '--out', join(missingDir, 'x.jsonl')], 1, /^chunkwise: cannot write .*: no such directory$/],
  ['embed npy --out into a missing directory', ['embed', readme, '--format', 'npy', '--out', join(missingDir, 'x.npy')], 1, /^chunkwise: cannot write .*x\.npy: no such directory$/],
  ['eval --out into a missing directory', ['eval', '--corpora', corporaDir, '--questions', questions, '--strategy', 'fixed:400:200', '--out', join(missingDir, 't.md')], 1, /^chunkwise: cannot write .*t\.md: no such directory$/],
  ['a missing model folder', ['embed', readme, '--embedder', `onnx:${join(dir, 'no-model')}`], 1, /^chunkwise: could not load model from ".*no-model": /],
  ['chunk --out /dev/full', ['chunk', readme, '--out', '/dev/full'], 1, /^chunkwise: cannot write \/dev\/full: no space left on device$/, { skip: !hasFull }],
  ['chunk --format json --out /dev/full', ['chunk', readme, '--format', 'json', '--out', '/dev/full'], 1, /^chunkwise: cannot write \/dev\/full: no space left on device$/, { skip: !hasFull }],
  ['embed --out /dev/full', ['embed', readme, '--out', '/dev/full'], 1, /^chunkwise: cannot write \/dev\/full: no space left on device$/, { skip: !hasFull }],
  ['embed npy --out /dev/full', ['embed', readme, '--format', 'npy', '--out', '/dev/full'], 1, /^chunkwise: cannot write \/dev\/full: no space left on device$/, { skip: !hasFull }],
  ['chunk > /dev/full', ['chunk', readme], 1, /^chunkwise: cannot write to stdout: no space left on device$/, { stdout: '/dev/full', skip: !hasFull }],
  ['embed > /dev/full', ['embed', readme], 1, /^chunkwise: cannot write to stdout: no space left on device$/, { stdout: '/dev/full', skip: !hasFull }],
  ['qasc > /dev/full', ['qasc', readme, '--query', 'late chunking'], 1, /^chunkwise: cannot write to stdout: no space left on device$/, { stdout: '/dev/full', skip: !hasFull }],
];

describe('bad invocations of the built CLI: exit code, one line, no stack trace', () => {
  const cases = [...usage, ...io];
  const check = (_what: string, args: string[], code: number, message: RegExp, options: Case[4] = {}) => {
    const r = run(args, { stdout: options.stdout });
    expect(r.signal).toBeNull(); // no hang (the test's timeout kills a loop)
    expect(r.code).toBe(code);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toMatch(/Unhandled 'error' event|internal error|node:|Error:/);
    if (!options.stdout) expect(r.stdout).toBe('');
  };
  it.each(cases.filter((c) => !c[4]?.skip))('%s', check);
  // shown as skipped, with the reason, instead of passing without running
  it.skip.each(cases.filter((c) => c[4]?.skip))('%s (skipped: no /dev/full on this system)', check);

  it('a missing output directory is reported before any work and no file appears', () => {
    expect(existsSync(missingDir)).toBe(false);
  });
});

describe('failures that are not usage errors', () => {
  it('an empty file is a notice on stderr for chunk and embed, exit 0; --quiet drops it', () => {
    for (const command of ['chunk', 'embed']) {
      const r = run([command, empty]);
      expect([r.code, r.stderr, r.stdout], command).toEqual([0, `chunkwise: ${empty}: empty file, no chunks\n`, '']);
      expect(run([command, empty, '--quiet']).stderr, command).toBe('');
    }
  });

  it('an embedding endpoint that cannot be reached exits 1 (2 is for usage errors), one line', () => {
    const r = spawnSync(process.execPath, [cliBin, 'embed', readme, '--embedder', 'openai:text-embedding-3-small'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^chunkwise: http:\/\/127\.0\.0\.1:9\/v1\/embeddings failed after \d+ attempt\(s\): network error: [^\n]+\n$/);
  });
});

describe('--quiet and --no-progress on every command', () => {
  it.each(['chunk', 'embed', 'qasc', 'eval'])('%s --help lists both', (command) => {
    const r = run([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--quiet\b/);
    expect(r.stdout).toMatch(/--no-progress\b/);
  });

  it('eval --quiet prints nothing on stderr (the per-strategy timings go)', () => {
    const args = ['eval', '--corpora', join(corporaDir, 'finance.md'), '--questions', questions, '--strategy', 'fixed:400:200'];
    // questions of the other corpora make the data invalid: use a CSV of finance's own rows
    const csv = readFileSync(questions, 'utf8').split('\n');
    const own = [csv[0], ...csv.slice(1).filter((l) => l.trimEnd().endsWith(',finance'))].join('\n');
    const q = join(dir, 'finance-questions.csv');
    writeFileSync(q, own);
    args[4] = q;
    const loud = run(args);
    expect(loud.code).toBe(0);
    expect(loud.stderr).toMatch(/^fixed:400:200: \d+ chunks/);
    const quiet = run([...args, '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(loud.stdout);
  });
});

describe('the same inputs for every command: files, directories, globs, -', () => {
  const docs = join(dir, 'docs');
  mkdirSync(join(docs, 'sub'), { recursive: true });
  writeFileSync(join(docs, 'a.md'), '# A\n\nLate chunking pools token vectors per chunk.\n');
  writeFileSync(join(docs, 'sub', 'b.txt'), 'Query-adaptive chunking builds chunks at query time.\n');
  writeFileSync(join(docs, 'c.json'), '{"not": "picked"}\n');
  const sources = (stdout: string) => [...new Set(stdout.trimEnd().split('\n').map((l) => JSON.parse(l).source as string))];
  const want = [join(docs, 'a.md'), join(docs, 'sub', 'b.txt')];

  it.each([
    ['a directory', [docs]],
    ['a glob', [join(docs, '**', '*.{md,txt}')]],
  ])('%s: chunk, embed and qasc read the same files', (_what, inputs) => {
    const chunk = run(['chunk', ...inputs]);
    expect(chunk.code).toBe(0);
    expect(sources(chunk.stdout)).toEqual(want);
    const embed = run(['embed', ...inputs]); // was: EISDIR / ENOENT for the glob
    expect(embed.stderr).toBe('');
    expect(embed.code).toBe(0);
    expect(sources(embed.stdout)).toEqual(want);
    const qasc = run(['qasc', ...inputs, '--query', 'query time chunks', '--format', 'jsonl', '-k', '5']);
    expect(qasc.stderr).toBe('');
    expect(qasc.code).toBe(0);
    expect(sources(qasc.stdout).every((s) => want.includes(s))).toBe(true);
    expect(sources(qasc.stdout)).toContain(join(docs, 'sub', 'b.txt'));
  });

  it('--ext picks other extensions in embed too', () => {
    const r = run(['embed', docs, '--ext', 'json']);
    expect(r.code).toBe(0);
    expect(sources(r.stdout)).toEqual([join(docs, 'c.json')]);
  });
});

describe('error messages in words', () => {
  const err = (code: string, message = `${code}: something, open 'x'`) => Object.assign(new Error(message), { code });
  it.each([
    ['ENOENT', 'no such file or directory'],
    ['EISDIR', 'is a directory'],
    ['EACCES', 'permission denied'],
    ['ENOTDIR', 'a part of the path is not a directory'],
    ['ENOSPC', 'no space left on device'],
    ['EROFS', 'read-only file system'],
  ])('%s → %s, keeping the path', (code, words) => {
    expect(fsReason(err(code))).toBe(words);
    expect(new UnreadableFileError('notes.txt', err(code)).message).toBe(`cannot read notes.txt: ${words}`);
  });
  it('writing: a missing directory, stdout, unknown codes', () => {
    expect(new UnwritableFileError('out/x.jsonl', err('ENOENT')).message).toBe('cannot write out/x.jsonl: no such directory');
    expect(new UnwritableFileError('-', err('ENOSPC')).message).toBe('cannot write to stdout: no space left on device');
    expect(fsReason(err('EWEIRD', "EWEIRD: the disk sang, open '/x'"))).toBe('the disk sang');
  });
  it('one style: commander and library messages alike', () => {
    const options = [{ long: '--chunk-size', attributeName: () => 'chunkSize' }, { long: '--window-size', attributeName: () => 'windowSize' }];
    expect(cliMessage("error: option '-s, --strategy <name>' argument 'x' is invalid. Allowed choices are a, b.\n")).toBe('invalid option --strategy: "x" (one of a, b)');
    expect(cliMessage('Invalid option chunkSize: 0 (must be an integer ≥ 1)', options)).toBe('invalid option --chunk-size: 0 (must be an integer ≥ 1)');
    expect(cliMessage('Invalid option stride: 5 (must be ≤ windowSize (4))', options)).toBe('invalid option stride: 5 (must be ≤ --window-size (4))');
    expect(cliMessage('Invalid option fallback: "x" (a function (text, chunkSize) => spans)', options)).toBe('invalid option fallback: "x" (a function (text, chunkSize) => spans)');
    expect(cliMessage("error: unknown option '--x'\n(Did you mean --y?)")).toBe("unknown option '--x' (Did you mean --y?)");
    expect(cliMessage('Could not load model from "m": no such folder')).toBe('could not load model from "m": no such folder');
  });
});
