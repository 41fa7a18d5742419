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
 * The layers from the bottom up, in the order the data flows (docs/architecture.md):
 * a text is measured (size), cut into boundary sources (segment), embedded where a
 * strategy needs vectors, packed into planned spans (plan), streamed through the one
 * driver (stream); a strategy is boundaries plus a definition over them (strategies);
 * compositions and retrieval build on strategies; the applications (pipeline, sinks,
 * queue, CLI, Node helpers, adapters, evaluation, the package entries) are on top.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['src/core/'],
  ['src/size/', 'bindings/', 'src/kernels/'],
  ['src/segment/'],
  ['src/embedders/'],
  ['src/plan/'],
  ['src/stream/'],
  ['src/strategies/'],
  ['src/compose/', 'src/retrieval/'],
  ['src/pipeline/', 'src/sinks/', 'src/queue/', 'src/cli/', 'src/node/', 'src/adapters/', 'src/evaluation/', 'src/encodings/', 'src/'],
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
 * `importNodeHelper` (src/core/runtime.ts), so that no bundle follows them: the
 * `typeof import()` that types the loaded module is the only reference.
 */
function isNodeHelperType(e: ImportEdge): boolean {
  return e.kind === 'type' && e.to.startsWith('src/node/');
}

const key = (e: ImportEdge): string => `${e.from} -> ${e.to}`;

/** The imports of `edges` that go up a layer, other than a Node helper's type. */
function upward(edges: readonly ImportEdge[]): string[] {
  return edges.filter((e) => layerOf(e.to) > layerOf(e.from) && !isNodeHelperType(e)).map((e) => `${key(e)} (line ${e.line})`);
}

describe('the import graph', () => {
  const graph = importGraph();

  it('is read from the real files (worked example: src/stream/driver.ts)', () => {
    const driver = importsOf('src/stream/driver.ts').map((e) => `${e.to} ${e.kind}`);
    expect(driver).toContain('src/plan/assemble.ts type');
    expect(driver).toContain('src/plan/stream-plan.ts type');
    expect(driver).toContain('src/stream/source.ts static');
    // dynamic imports and typeof import() are edges too
    expect(graph.some((e) => e.kind === 'dynamic')).toBe(true);
    expect(graph.filter(isNodeHelperType).length).toBeGreaterThan(0);
    expect(graph.length).toBeGreaterThan(500);
    for (const e of graph) expect(existsSync(join(repoRoot, e.to)), key(e)).toBe(true);
  });

  it('maps every module to a layer (worked examples)', () => {
    expect(layerOf('src/core/errors.ts')).toBe(0);
    expect(layerOf('bindings/index.ts')).toBe(1);
    expect(layerOf('src/plan/pack.ts')).toBe(4);
    expect(layerOf('src/stream/driver.ts')).toBe(5);
    expect(layerOf('src/strategies/recursive.ts')).toBe(6);
    expect(layerOf('src/index.ts')).toBe(LAYERS.length - 1);
    expect(() => layerOf('test/x.ts')).toThrow();
  });

  it('has no import from a lower layer up', () => {
    expect(upward(graph)).toEqual([]);
  });

  it('would catch an upward import (the check is not vacuous)', () => {
    const edges: ImportEdge[] = [
      { from: 'src/core/text.ts', to: 'src/compose/registry.ts', line: 3, kind: 'type' },
      { from: 'src/plan/windows.ts', to: 'src/stream/driver.ts', line: 18, kind: 'type' },
      { from: 'src/strategies/recursive.ts', to: 'src/plan/pack.ts', line: 1, kind: 'static' },
      { from: 'src/strategies/code.ts', to: 'src/node/code-grammars.ts', line: 159, kind: 'type' },
      { from: 'src/segment/tables.ts', to: 'src/plan/pack.ts', line: 16, kind: 'type' },
    ];
    expect(upward(edges)).toEqual([
      'src/core/text.ts -> src/compose/registry.ts (line 3)',
      'src/plan/windows.ts -> src/stream/driver.ts (line 18)',
      'src/segment/tables.ts -> src/plan/pack.ts (line 16)',
    ]);
  });
});
