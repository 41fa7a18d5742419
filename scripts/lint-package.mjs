// `npm run lint:package` first rewrites etc/chunkwise.api.md (scripts/api-surface.ts), then:
// `npm run lint:package`: the published package as consumers see it, offline —
// publint (package.json fields, exports targets, file formats) and
// @arethetypeswrong/cli (types resolve for every entry under node16 and bundler
// resolution). The profile is esm-only: chunkwise is an ES module package; CommonJS
// callers use require(esm) (Node ^20.19 || >=22.12, the `engines` range) and get the
// same types under TypeScript's nodenext resolution (test/types.test.ts).
// The tarball is packed with --ignore-scripts (no rebuild: run `npm run build` first).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

const dir = mkdtempSync(join(tmpdir(), 'chunkwise-lint-'));
try {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const tarball = join(dir, JSON.parse(out)[0].filename);
  run(bin('publint'), ['run', tarball, '--strict']);
  // Non-JavaScript exports (the wasm modules, the rank tables) have no types to check.
  run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--exclude-entrypoints', 'chunkwise.wasm', 'bpe.wasm', 'ranks/cl100k_base.bpe', 'ranks/o200k_base.bpe']);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
