/**
 * The layering of docs/architecture.md ("Layers"), checked over the real import graph
 * of src/ and bindings/ (test/helpers/import-graph.ts): a module imports only modules of
 * its own layer or of a lower one, type-only imports included.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, importsOf, type ImportEdge } from './helpers/import-graph.js';
import { repoRoot } from './helpers/paths.js';

/**
 * The layers from the bottom up (docs/architecture.md): the engine every strategy shares
 * (options, sizes, boundaries, the packer, the assembler, the stream driver, the registry
 * mechanism) with the WebAssembly bindings and their reference kernels; the embedders
 * (vectors, for the strategies that need them); the strategies, one folder each, and the
 * list of built-ins; the document loaders and the sinks; the pipeline over them; the
 * adapters and the evaluation; the applications (CLI, Node helpers, queue); the package
 * entries (`src/*.ts`, the encodings, and the entries kept at their published paths).
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['src/engine/', 'bindings/', 'src/kernels/'],
  ['src/embedders/'],
  ['src/strategies/'],
  ['src/documents/', 'src/sinks/'],
  ['src/pipeline/'],
  ['src/adapters/', 'src/evaluation/'],
  ['src/apps/'],
  ['src/', 'src/encodings/', 'src/cli/', 'src/node/', 'src/queue/'],
];

/** The layer index of a repository path: the longest matching prefix. */
export function layerOf(path: string): number {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach((prefixes, i) => {
    for (const p of prefixes) {
      if (path.startsWith(p) && p.length > bestLength) {
        best = i;
        bestLength = p.length;
      }
    }
  });
  if (best < 0) throw new Error(`no layer for ${path}`);
  return best;
}

const key = (e: ImportEdge): string => `${e.from} -> ${e.to}`;

/** The imports of `edges` that go up a layer (no exceptions). */
function upward(edges: readonly ImportEdge[]): string[] {
  return edges.filter((e) => layerOf(e.to) > layerOf(e.from)).map((e) => `${key(e)} (line ${e.line})`);
}

describe('the import graph', () => {
  const graph = importGraph();

  it('is read from the real files (worked example: src/engine/stream/driver.ts)', () => {
    const driver = importsOf('src/engine/stream/driver.ts').map((e) => `${e.to} ${e.kind}`);
    expect(driver).toContain('src/engine/assemble.ts type');
    expect(driver).toContain('src/engine/stream/stream-plan.ts type');
    expect(driver).toContain('src/engine/stream/source.ts static');
    // dynamic imports and typeof import() are edges too
    expect(graph.some((e) => e.kind === 'dynamic')).toBe(true);
    // a Node-only helper loaded at run time through importNodeHelper is typed by a typeof import(): an edge too
    expect(importsOf('src/sinks/pglite.ts').map((e) => `${e.to} ${e.kind}`)).toContain('src/sinks/lock-file.ts type');
    expect(graph.length).toBeGreaterThan(500);
    for (const e of graph) expect(existsSync(join(repoRoot, e.to)), key(e)).toBe(true);
  });

  it('maps every module to a layer (worked examples)', () => {
    expect(layerOf('src/engine/errors.ts')).toBe(0);
    expect(layerOf('bindings/index.ts')).toBe(0);
    expect(layerOf('src/engine/pack/pack.ts')).toBe(0);
    expect(layerOf('src/embedders/openai.ts')).toBe(1);
    expect(layerOf('src/strategies/recursive/recursive.ts')).toBe(2);
    expect(layerOf('src/documents/pdf.ts')).toBe(3);
    expect(layerOf('src/pipeline/pipeline.ts')).toBe(4);
    expect(layerOf('src/apps/cli/main.ts')).toBe(6);
    expect(layerOf('src/index.ts')).toBe(LAYERS.length - 1);
    expect(layerOf('src/node/index.ts')).toBe(LAYERS.length - 1);
    expect(() => layerOf('test/x.ts')).toThrow();
  });

  it('has no import from a lower layer up', () => {
    expect(upward(graph)).toEqual([]);
  });

  it('has nothing outside src/apps/ and the entries import src/apps/, types included', () => {
    const apps = LAYERS.findIndex((l) => l.includes('src/apps/'));
    const into = graph.filter((e) => e.to.startsWith('src/apps/') && layerOf(e.from) < apps);
    expect(into.map(key)).toEqual([]);
  });

  it('loads no Node helper from src/apps/ at run time (importNodeHelper paths lie below the apps)', () => {
    let calls = 0;
    for (const file of ['src/embedders/onnx-embedder.ts', 'src/embedders/static-embedder.ts', 'src/embedders/onnx-runtime.ts', 'src/embedders/model-source.ts', 'src/strategies/code/tree-sitter.ts', 'src/strategies/code/schema.ts', 'src/sinks/pglite.ts']) {
      for (const m of readFileSync(join(repoRoot, file), 'utf8').matchAll(/importNodeHelper<[\s\S]*?>\('([\w/-]+)'\)/g)) {
        expect(existsSync(join(repoRoot, 'src', `${m[1]}.ts`)), `${file}: ${m[1]}`).toBe(true);
        expect(m[1].startsWith('apps/'), `${file}: ${m[1]}`).toBe(false);
        calls++;
      }
    }
    expect(calls).toBeGreaterThanOrEqual(9);
  });

  it('would catch an upward import (the check is not vacuous)', () => {
    const edges: ImportEdge[] = [
      { from: 'src/engine/text.ts', to: 'src/strategies/index.ts', line: 3, kind: 'type' },
      { from: 'src/engine/pack/windows.ts', to: 'src/engine/stream/driver.ts', line: 18, kind: 'type' },
      { from: 'src/strategies/recursive/recursive.ts', to: 'src/engine/pack/pack.ts', line: 1, kind: 'static' },
      { from: 'src/strategies/code/code.ts', to: 'src/apps/node/code-grammars.ts', line: 159, kind: 'type' },
      { from: 'src/pipeline/pipeline.ts', to: 'src/apps/cli/io.ts', line: 16, kind: 'static' },
      { from: 'src/sinks/lancedb.ts', to: 'src/apps/node/lock-file.ts', line: 23, kind: 'static' },
      { from: 'src/sinks/pglite.ts', to: 'src/apps/node/lock-file.ts', line: 24, kind: 'static' },
    ];
    expect(upward(edges)).toEqual([
      'src/engine/text.ts -> src/strategies/index.ts (line 3)',
      'src/strategies/code/code.ts -> src/apps/node/code-grammars.ts (line 159)',
      'src/pipeline/pipeline.ts -> src/apps/cli/io.ts (line 16)',
      'src/sinks/lancedb.ts -> src/apps/node/lock-file.ts (line 23)',
      'src/sinks/pglite.ts -> src/apps/node/lock-file.ts (line 24)',
    ]);
  });
});
