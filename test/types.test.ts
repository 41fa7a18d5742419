/**
 * The module story as a consumer meets it:
 * - a consumer project (chunkwise linked into its node_modules) type-checks with
 *   `skipLibCheck: false` and `exactOptionalPropertyTypes` under node16, nodenext and
 *   bundler resolution, importing the root, `chunkwise/onnx`, `chunkwise/evaluation`
 *   and `chunkwise/encodings/cl100k_base`; a CommonJS file does too under nodenext
 *   (TypeScript's require(esm)); `@ts-expect-error` lines prove the types are not `any`;
 * - the same file imports every entry of package.json's `exports` that has types, so each
 *   entry's declarations are checked in full; diagnostics inside the optional peers'
 *   own declarations (LangChain's and LlamaIndex's fail exactOptionalPropertyTypes on
 *   their own) are not chunkwise's and are left out;
 * - `require('chunkwise')` works in this Node (require(esm), the `engines` range);
 * - `npm run lint:package`: publint --strict and @arethetypeswrong/cli on the packed
 *   tarball, offline.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';

const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

const CONSUMER = `import { createChunker, HashingEmbedder, loadTokenizer, SlidingWindowChunker, StaticEmbedder, type Chunk, type Embedder, type TokenEmbedder } from 'chunkwise';
import { OnnxEmbedder, MissingDependencyError, HfTokenizer } from 'chunkwise/onnx';
import { evaluateChunker, QascIndex } from 'chunkwise/evaluation';
import 'chunkwise/encodings/cl100k_base';

const embedder: Embedder = new HashingEmbedder();
const chunks: Chunk[] = new SlidingWindowChunker({ unit: 'word', windowSize: 5, stride: 3 }).chunk('a b c d e f');
// @ts-expect-error: not a unit
new SlidingWindowChunker({ unit: 'sentence', windowSize: 5, stride: 3 });
// @ts-expect-error: an Embedder's vectors are a Float32Array, not a string
const wrong: Promise<string> = embedder.embed(['x']);
export async function run(text: string): Promise<number> {
  await loadTokenizer('cl100k_base');
  // @ts-expect-error: not an encoding chunkwise ships
  await loadTokenizer('p50k_base');
  const onnx: TokenEmbedder = await OnnxEmbedder.load('https://example.invalid/model/');
  const stat: Embedder = await StaticEmbedder.load('https://example.invalid/m2v/');
  const index = new QascIndex({ embedder });
  void [onnx, stat, index, evaluateChunker, HfTokenizer, MissingDependencyError, wrong];
  return (await createChunker('fixed', { chunkSize: 64 }).chunk(text)).length + chunks.length;
}
`;

const CJS_CONSUMER = `import cw = require('chunkwise');
const chunks: import('chunkwise').Chunk[] = new cw.SlidingWindowChunker({ unit: 'word', windowSize: 5, stride: 3, countTokens: false }).chunk('a b c d e f');
export = chunks.length;
`;

/** Every `exports` subpath with a `types` condition, as a consumer imports it (`chunkwise`, `chunkwise/onnx`, …). */
const TYPED_ENTRIES = Object.entries(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).exports as Record<string, unknown>)
  .filter(([, target]) => typeof target === 'object' && target !== null && 'types' in target)
  .map(([subpath]) => (subpath === '.' ? 'chunkwise' : `chunkwise/${subpath.slice(2)}`));

/** Imports of every typed entry as a namespace, so that tsc reads each entry's declarations. */
const ENTRY_IMPORTS = `${TYPED_ENTRIES.map((e, i) => `import * as entry${i} from '${e}';`).join('\n')}
export const entries = [${TYPED_ENTRIES.map((_, i) => `entry${i}`).join(', ')}];
`;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunkwise-types-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'chunkwise'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(dir, 'consumer.ts'), `${CONSUMER}\n${ENTRY_IMPORTS}`);
  writeFileSync(join(dir, 'cjs-consumer.cts'), CJS_CONSUMER);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs tsc on one file with one resolution mode; returns its diagnostics (empty when it compiles). */
function typecheck(file: string, module: string, moduleResolution: string): string {
  const config = `tsconfig.${moduleResolution}.${file}.json`;
  writeFileSync(
    join(dir, config),
    JSON.stringify({
      compilerOptions: {
        module,
        moduleResolution,
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        noEmit: true,
      },
      files: [file],
    }),
  );
  const r = spawnSync(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
  return ownDiagnostics(r.stdout + r.stderr);
}

/**
 * The diagnostics of tsc's output (`path(line,col): error TS…` and the lines continuing
 * it) that do not lie in another package: a path, resolved from the consumer folder,
 * under a node_modules folder that is not chunkwise's own is an optional peer's.
 */
function ownDiagnostics(output: string): string {
  const kept: string[] = [];
  let peer = false;
  for (const line of output.split('\n')) {
    const m = /^(\S[^(]*)\(\d+,\d+\): error TS\d+/.exec(line);
    if (m) {
      const file = resolve(dir, m[1]);
      peer = file.includes('/node_modules/') && !file.startsWith(join(dir, 'node_modules', 'chunkwise') + '/');
    }
    if (line.trim() && !peer) kept.push(line);
  }
  return kept.join('\n').trim();
}

describe('types in a consumer project (skipLibCheck: false, exactOptionalPropertyTypes)', () => {
  it.each([
    ['node16', 'node16'],
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ])('ESM consumer, module %s / moduleResolution %s', (module, resolution) => {
    expect(typecheck('consumer.ts', module, resolution)).toBe('');
  }, 240_000); // every entry's declarations and the peers' they name: about 70 s each on a loaded machine

  it('every typed entry is imported', () => {
    expect(TYPED_ENTRIES).toEqual(expect.arrayContaining(['chunkwise', 'chunkwise/onnx', 'chunkwise/transformers', 'chunkwise/sinks/lancedb', 'chunkwise/langchain', 'chunkwise/llamaindex', 'chunkwise/node']));
    expect(TYPED_ENTRIES.length).toBeGreaterThanOrEqual(16);
  });

  it('CommonJS consumer under nodenext (require of the ES module)', () => {
    expect(typecheck('cjs-consumer.cts', 'nodenext', 'nodenext')).toBe('');
  });

  it('the expectations can fail: a real type error is reported', () => {
    writeFileSync(join(dir, 'broken.ts'), `import { HashingEmbedder } from 'chunkwise';\nconst n: string = new HashingEmbedder().dimension;\n`);
    expect(typecheck('broken.ts', 'nodenext', 'nodenext')).toMatch(/broken\.ts\(2,7\): error TS2322: Type 'number' is not assignable to type 'string'/);
  });
});

describe('CommonJS at run time', () => {
  it(`require('chunkwise') works in Node ${process.version} (require(esm)), within engines`, () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe('^20.19.0 || >=22.12.0');
    const out = execFileSync(
      process.execPath,
      ['-e', `const cw = require('chunkwise'); process.stdout.write(JSON.stringify(new cw.SlidingWindowChunker({ unit: 'word', windowSize: 3, stride: 2, countTokens: false }).chunk('a b c d e').map((c) => c.text)));`],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(JSON.parse(out)).toEqual(['a b c', 'c d e']);
  });
});

describe('npm run lint:package (publint, @arethetypeswrong/cli)', () => {
  it('passes offline on the packed tarball', () => {
    const r = spawnSync('npm', ['run', 'lint:package'], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/All good!|No issues found/);
    expect(r.stdout).toMatch(/"chunkwise\/onnx"\s+node16 \(from ESM\): 🟢 \(ESM\)\s+bundler: 🟢/);
  }, 180_000);
});
