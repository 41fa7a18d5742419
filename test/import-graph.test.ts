/**
 * The layering of docs/architecture.md ("Layers"), checked over the real import graph
 * of src/ and bindings/ (test/helpers/import-graph.ts): a module imports only modules of
 * its own layer or of a lower one, type-only imports included.
 */
import { existsSync } from 'node:fs';
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

/**
 * Upward imports that the layers above do not allow yet, each named with what would
 * remove it. TODO: empty this list.
 */
const KNOWN_EXCEPTIONS: readonly string[] = [
  // TODO: the Node-only LanceDB sink imports the folder lock of the Node helpers
  // statically; load it through importNodeHelper as the PGlite sink does.
  'src/sinks/lancedb.ts -> src/apps/node/lock-file.ts',
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

/**
 * Node-only helpers that runtime-neutral modules load by name at run time through
 * `importNodeHelper` (src/engine/runtime.ts), so that no bundle follows them: the
 * `typeof import()` that types the loaded module is the only reference.
 */
function isNodeHelperType(e: ImportEdge): boolean {
  return e.kind === 'type' && e.to.startsWith('src/apps/node/');
}

const key = (e: ImportEdge): string => `${e.from} -> ${e.to}`;

/** The imports of `edges` that go up a layer, other than a Node helper's type. */
function upward(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((e) => layerOf(e.to) > layerOf(e.from) && !isNodeHelperType(e) && !KNOWN_EXCEPTIONS.includes(key(e)))
    .map((e) => `${key(e)} (line ${e.line})`);
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
    expect(graph.filter(isNodeHelperType).length).toBeGreaterThan(0);
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

  it('holds each known exception (a removed one leaves the list)', () => {
    const edges = new Set(graph.map(key));
    for (const k of KNOWN_EXCEPTIONS) expect(edges.has(k), k).toBe(true);
  });

  it('has nothing outside src/apps/ and the entries import src/apps/, Node helper types aside', () => {
    const apps = LAYERS.findIndex((l) => l.includes('src/apps/'));
    const into = graph.filter((e) => e.to.startsWith('src/apps/') && layerOf(e.from) < apps && !isNodeHelperType(e) && !KNOWN_EXCEPTIONS.includes(key(e)));
    expect(into.map(key)).toEqual([]);
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
      'src/pipeline/pipeline.ts -> src/apps/cli/io.ts (line 16)',
      'src/sinks/pglite.ts -> src/apps/node/lock-file.ts (line 24)',
    ]);
  });
});
