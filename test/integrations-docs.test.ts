/**
 * Runs the examples of docs/integrations.md: every ```ts block through tsx and every ```sh
 * block through bash, in a scratch folder that is a copy of the package as a user has it
 * (`package.json`, `dist/`, `node_modules/` linked in), so `chunkwise/langchain`,
 * `chunkwise/sinks/lancedb` … resolve through the package's own `exports`. Where an
 * example shows what it prints (`//` lines after a `console.log(` line or after the `}`
 * of a loop around one), the output must contain it. A block preceded by
 * `<!-- example: not run (reason) -->` is skipped, and the reason must be given.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliBin, repoRoot } from './helpers/paths.js';

const doc = readFileSync(join(repoRoot, 'docs', 'integrations.md'), 'utf8');
const FENCE = /^```(ts|sh)\n([\s\S]*?)^```/gm;
const SKIP = /<!--\s*example:\s*not run\s*\(([^)]+)\)\s*-->\s*$/;

interface Block {
  line: number;
  lang: 'ts' | 'sh';
  code: string;
  skip?: string;
}

const blocks: Block[] = [...doc.matchAll(FENCE)].map((m) => {
  const before = doc.slice(0, m.index).trimEnd();
  const skip = SKIP.exec(before.slice(before.lastIndexOf('\n') + 1))?.[1];
  return { line: before.split('\n').length + 1, lang: m[1] as 'ts' | 'sh', code: m[2], ...(skip ? { skip } : {}) };
});

/** What a block says it prints: runs of `//` lines right after a console.log line or a loop's closing `}`. */
function shown(code: string): string[] {
  const lines = code.split('\n');
  const out: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1].trim();
    if (!lines[i].trim().startsWith('//') || prev.startsWith('//')) continue;
    if (!(prev.includes('console.log(') || (prev === '}' && lines.slice(Math.max(0, i - 5), i).some((l) => l.includes('console.log('))))) continue;
    const run: string[] = [];
    for (let j = i; j < lines.length && lines[j].trim().startsWith('//'); j++) run.push(lines[j].trim().replace(/^\/\/ ?/, ''));
    out.push(run.join('\n'));
  }
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A folder laid out like an installed package with the repository's build. */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-integrations-'));
  copyFileSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
  for (const name of ['dist', 'build', 'node_modules', 'README.md', 'docs']) symlinkSync(join(repoRoot, name), join(dir, name));
  return dir;
}

const run = promisify(execFile);

describe('docs/integrations.md examples', () => {
  it('has runnable blocks for each adapter and sink, and says why the others do not run', () => {
    const code = blocks.filter((b) => !b.skip).map((b) => b.code).join('\n');
    for (const entry of ['chunkwise/langchain', 'chunkwise/llamaindex', 'chunkwise/sinks/lancedb', 'chunkwise/sinks/pglite', '--sink lancedb:', '--sink pglite:']) {
      expect(code, entry).toContain(entry);
    }
    for (const b of blocks.filter((x) => x.skip)) expect(b.skip!.length, `line ${b.line}`).toBeGreaterThan(10);
  });

  it.each(blocks.filter((b) => !b.skip).map((b) => [`line ${b.line} (${b.lang})`, b] as const))('%s runs and prints what it shows', async (_name, block) => {
    const dir = scratch();
    let stdout: string;
    if (block.lang === 'ts') {
      writeFileSync(join(dir, 'example.ts'), block.code);
      ({ stdout } = await run(process.execPath, [join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'example.ts'], { cwd: dir, env: { ...process.env, LANCEDB_LOG: 'error' } }));
    } else {
      // as on a fresh clone: `npx chunkwise` is the checkout's CLI, a bare `chunkwise` is not on the PATH
      const script = `set -euo pipefail\nnpx() { if [ "$1" = chunkwise ]; then shift; node ${JSON.stringify(cliBin)} "$@"; else echo "npx $1 is not allowed here" >&2; return 1; fi; }\n${block.code}`;
      ({ stdout } = await run('bash', ['-c', script], { cwd: dir, env: { ...process.env, CI: 'true' }, maxBuffer: 1 << 26 }));
    }
    for (const expected of shown(block.code)) expect(squash(stdout)).toContain(squash(expected));
  });
});
