/**
 * Every example in README.md, docs/*.md and src/embedders/README.md runs from a fresh
 * clone (issue 16: they named notes.txt, doc.md and models/… that do not exist).
 *
 * The ```ts / ```js blocks run through tsx with `chunkwise` resolved to src/index.ts
 * (`chunkwise/node` to src/apps/node/index.ts); the ```sh blocks run in bash with
 * `npx chunkwise` as the built CLI (dist/src/cli/bin.js; a bare `chunkwise` fails, as on a fresh clone). Both run in a scratch
 * folder that looks like the repository (its files linked in, nothing beside it), so
 * the files an example writes stay out of the checkout. A module that exports a Worker's
 * `default.fetch` or a route's `POST` is called with a request. Where an example shows
 * what it prints (comment lines right after a `console.log(…)` line, or after the `}`
 * closing a loop around one), the output must contain it, whitespace aside.
 *
 * A block that cannot run here says so on the line before its fence, with the reason:
 * `<!-- example: not run (reason) -->`. Blocks of other languages (html, text) are not run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBin, gloveDir, repoRoot } from './helpers/paths.js';

interface Example {
  file: string;
  line: number;
  lang: 'ts' | 'sh';
  code: string;
  skip?: string;
}

const FENCE = /^```(\w*)[^\n]*\n([\s\S]*?)^```/gm;
const SKIP = /<!--\s*example:\s*not run\s*\(([^)]+)\)\s*-->\s*$/;

/** The runnable blocks of a Markdown file, with their line numbers and skip reasons. */
export function examples(file: string, markdown: string): Example[] {
  const out: Example[] = [];
  for (const m of markdown.matchAll(FENCE)) {
    const lang = m[1] === 'ts' || m[1] === 'js' ? 'ts' : m[1] === 'sh' || m[1] === 'bash' ? 'sh' : undefined;
    if (!lang) continue;
    const before = markdown.slice(0, m.index).trimEnd();
    const lastLine = before.slice(before.lastIndexOf('\n') + 1);
    const skip = SKIP.exec(lastLine)?.[1];
    out.push({ file, line: before.split('\n').length + 1, lang, code: m[2], ...(skip ? { skip } : {}) });
  }
  return out;
}

/**
 * What an example says it prints: each run of `//` comment lines that follows a line
 * with `console.log(` (or the `}` closing a loop around one), comment marks removed.
 */
export function shownOutputs(code: string): string[] {
  const lines = code.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const prev = lines[i - 1]?.trim() ?? '';
    if (!lines[i].trim().startsWith('//') || lines[i - 1]?.trim().startsWith('//')) continue;
    const closesLog = prev === '}' && lines.slice(Math.max(0, i - 4), i).some((l) => l.includes('console.log('));
    if (!prev.includes('console.log(') && !closesLog) continue;
    const block: string[] = [];
    for (let j = i; j < lines.length && lines[j].trim().startsWith('//'); j++) block.push(lines[j].trim().replace(/^\/\/\s*/, ''));
    out.push(block.join(' '));
  }
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whether `outputs` occur in `stdout` in order (whitespace runs count as one space). */
export function showsInOrder(stdout: string, outputs: string[]): string | undefined {
  const text = squash(stdout);
  let from = 0;
  for (const o of outputs) {
    const at = text.indexOf(squash(o), from);
    if (at < 0) return o;
    from = at + squash(o).length;
  }
  return undefined;
}

/** Docs whose examples another test runs (with their optional packages resolved there). */
const OWN_RUNNER: Readonly<Record<string, string>> = { 'docs/integrations.md': 'test/integrations-docs.test.ts' };
const files = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`), 'src/embedders/README.md'].filter(
  (f) => !OWN_RUNNER[f],
);
const all = files.flatMap((f) => examples(f, readFileSync(join(repoRoot, f), 'utf8')));

/** A folder that looks like the repository (entries linked, the GloVe model built), alone in a temporary folder. */
function scratch(): string {
  gloveDir();
  const root = mkdtempSync(join(tmpdir(), 'chunkwise-docs-'));
  const work = join(root, 'chunkwise');
  mkdirSync(work);
  for (const entry of readdirSync(repoRoot)) {
    // node_modules stays out: an example must never reinstall or delete the checkout's packages
    if (entry === '.git' || entry === 'out' || entry === 'models' || entry === 'node_modules') continue;
    symlinkSync(join(repoRoot, entry), join(work, entry));
  }
  return work;
}

const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const tsxCli = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const srcIndex = join(repoRoot, 'src', 'index.ts');
const nodeIndex = join(repoRoot, 'src', 'node', 'index.ts');

const exportsMap = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).exports as Record<string, string | { default?: string }>;

/** The source file of a `chunkwise/<subpath>` entry (its `exports` target, dist/….js → ….ts), if it has one. */
function subpathSource(subpath: string): string | undefined {
  const entry = exportsMap[`./${subpath}`];
  const target = typeof entry === 'string' ? entry : entry?.default;
  if (!target?.startsWith('./dist/') || !target.endsWith('.js')) return undefined;
  return join(repoRoot, target.slice('./dist/'.length).replace(/\.js$/, '.ts'));
}

/** The TypeScript of an example with `chunkwise` imports pointing at the sources, and a call of an exported handler. */
function moduleSource(code: string): string {
  const rewritten = code
    .replace(/from\s+(['"])chunkwise\/node\1/g, `from ${JSON.stringify(nodeIndex)}`)
    .replace(/\b(from|import)\s+(['"])chunkwise\/([\w./-]+)\2/g, (m, kw: string, _q: string, sub: string) => {
      const source = subpathSource(sub);
      return source ? `${kw} ${JSON.stringify(source)}` : m;
    })
    .replace(/from\s+(['"])chunkwise\1/g, `from ${JSON.stringify(srcIndex)}`);
  return `${rewritten}\n`;
}

/** Calls a Worker's `default.fetch` or a route's `POST` exported by the example module. */
const CALLER = `
const mod = await import(process.argv[2]);
const handler = typeof mod.default?.fetch === 'function' ? (r) => mod.default.fetch(r) : typeof mod.POST === 'function' ? mod.POST : undefined;
if (handler) {
  const response = await handler(new Request('http://127.0.0.1/', { method: 'POST', body: 'RAG enhances LLMs by retrieving external data. This process reduces hallucinations.' }));
  const body = await response.json();
  if (!response.ok || !Array.isArray(body) || body.length === 0) throw new Error('the handler did not answer with chunks');
  console.log('handler answered', body.length, 'chunks');
}
`;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function runExample(example: Example, work: string) {
  const name = `${example.file.replace(/\W+/g, '-')}-${example.line}`;
  if (example.lang === 'ts') {
    const file = join(work, `example-${name}.ts`);
    writeFileSync(file, moduleSource(example.code));
    const caller = join(work, `call-${name}.mjs`);
    writeFileSync(caller, CALLER);
    return run(process.execPath, ['--import', tsxLoader, caller, file], work);
  }
  const script = join(work, `example-${name}.sh`);
  writeFileSync(
    script,
    [
      'set -euo pipefail',
      // a bare `chunkwise` is not on a fresh clone's PATH: it fails here as it would there
      `chunkwise() { echo "docs example: bare chunkwise is not on a fresh clone's PATH; write npx chunkwise" >&2; return 127; }`,
      // npx runs the CLI or tsx from the checkout, nothing else (never a download)
      `npx() { case "$1" in chunkwise) shift; node ${JSON.stringify(cliBin)} "$@";; tsx) shift; node ${JSON.stringify(tsxCli)} "$@";; *) echo "docs example: npx $1 is not allowed here" >&2; return 1;; esac; }`,
      // npm runs the package's scripts that read or chunk (never install, build or test)
      `npm() { if [ "$1" = run ] && [ "$2" = chunkwise ]; then shift 2; [ "\${1:-}" = -- ] && shift; node ${JSON.stringify(cliBin)} "$@"; else echo "docs example: npm $* is not allowed here" >&2; return 1; fi; }`,
      example.code,
    ].join('\n'),
  );
  return run('bash', [script], work);
}

describe('documented examples', () => {
  it('docs run by another test have that test', () => {
    for (const [doc, runner] of Object.entries(OWN_RUNNER)) {
      expect(readFileSync(join(repoRoot, runner), 'utf8'), `${runner} runs ${doc}`).toContain(doc.replace('docs/', ''));
    }
  });

  it('finds the examples of every doc, and every skipped one says why', () => {
    expect(all.length).toBeGreaterThan(35);
    for (const f of ['README.md', 'docs/qasc.md', 'docs/late-chunking.md', 'src/embedders/README.md']) expect(all.some((e) => e.file === f && !e.skip), f).toBe(true);
    for (const e of all.filter((x) => x.skip)) expect(e.skip!.length, `${e.file}:${e.line}`).toBeGreaterThan(10);
  });

  it('reads the shown output of console.log lines and loops', () => {
    expect(shownOutputs("console.log(a);\n// [ 'x',\n//   'y' ]\nfoo();\n// not output")).toEqual(["[ 'x', 'y' ]"]);
    expect(shownOutputs("for (const c of x) {\n  console.log(c);\n}\n// 0 a\n// 1 b")).toEqual(['0 a 1 b']);
    expect(showsInOrder("[ 'x',\n  'y' ]\nmore", ["[ 'x', 'y' ]"])).toBeUndefined();
    expect(showsInOrder('a b', ['b', 'a'])).toBe('a');
  });

  const work = scratch();
  afterAll(() => rmSync(dirname(work), { recursive: true, force: true }));
  // in order: a later example may use what an earlier one wrote (a model folder, a file)
  for (const file of files.filter((f) => all.some((e) => e.file === f))) {
    describe(file, () => {
      for (const example of all.filter((e) => e.file === file)) {
        // a block marked not to run is reported as skipped, with its reason, instead of passing without running
        it.skipIf(example.skip)(
          `${example.file}:${example.line} (${example.lang})${example.skip ? ` not run: ${example.skip}` : ''}`,
          async () => {
            const r = await runExample(example, work);
            const where = `${relative(repoRoot, join(repoRoot, example.file))}:${example.line}\n${r.stderr.slice(-3000)}`;
            expect(r.code, where).toBe(0);
            const missing = showsInOrder(r.stdout, shownOutputs(example.code));
            expect(missing, `${where}\nprinted:\n${r.stdout.slice(0, 3000)}`).toBeUndefined();
          },
          300_000,
        );
      }
    });
  }
});
