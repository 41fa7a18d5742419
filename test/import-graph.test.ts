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
 * Upward imports still owned by another helper's lane this session; the lead removes
 * each entry when that lane's branch merges (its break is gone then, and this test
 * fails on a stale entry).
 */
const OWNED_BY_LANE: Readonly<Record<string, string>> = {
  // levels (#24 steps 2–3): the table level moves into plan/levels.ts
  'src/segment/tables.ts -> src/plan/assemble.ts': 'levels',
  'src/segment/tables.ts -> src/plan/pack.ts': 'levels',
  // levels (#24 step 2): one fallback level in plan/fallback.ts, one SpanSplitter type in core
  'src/strategies/markdown.ts -> src/compose/span-splitters.ts': 'levels',
  'src/strategies/semantic.ts -> src/compose/span-splitters.ts': 'levels',
  // define (#24 step 1): each strategy registers itself from its own file
  'src/strategies/registry.ts -> src/compose/late.ts': 'define',
  'src/strategies/registry.ts -> src/compose/parent-child.ts': 'define',
};

/**
 * Node-only helpers that runtime-neutral modules load by name at run time through
 * `importNodeHelper` (src/core/runtime.ts), so that no bundle follows them: the
 * `typeof import()` that types the loaded module is the only reference.
 */
function isNodeHelperType(e: ImportEdge): boolean {
  return e.kind === 'type' && e.to.startsWith('src/node/');
}

const key = (e: ImportEdge): string => `${e.from} -> ${e.to}`;

/** The imports of `edges` that go up a layer and are neither a Node helper's type nor a break a lane owns. */
function unownedUpward(edges: readonly ImportEdge[]): string[] {
  return edges.filter((e) => layerOf(e.to) > layerOf(e.from) && !isNodeHelperType(e) && !(key(e) in OWNED_BY_LANE)).map((e) => `${key(e)} (line ${e.line})`);
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

  it('has no import from a lower layer up, beyond the breaks other lanes still own', () => {
    expect(unownedUpward(graph)).toEqual([]);
  });

  it('lists no owned break that is already gone', () => {
    const present = new Set(graph.map(key));
    expect(Object.keys(OWNED_BY_LANE).filter((k) => !present.has(k))).toEqual([]);
  });

  it('would catch an upward import (the check is not vacuous)', () => {
    const edges: ImportEdge[] = [
      { from: 'src/core/text.ts', to: 'src/strategies/registry.ts', line: 3, kind: 'type' },
      { from: 'src/plan/windows.ts', to: 'src/stream/driver.ts', line: 18, kind: 'type' },
      { from: 'src/strategies/recursive.ts', to: 'src/plan/pack.ts', line: 1, kind: 'static' },
      { from: 'src/strategies/code.ts', to: 'src/node/code-grammars.ts', line: 159, kind: 'type' },
      { from: 'src/segment/tables.ts', to: 'src/plan/pack.ts', line: 16, kind: 'type' },
    ];
    expect(unownedUpward(edges)).toEqual(['src/core/text.ts -> src/strategies/registry.ts (line 3)', 'src/plan/windows.ts -> src/stream/driver.ts (line 18)']);
  });
});
