/**
 * The public API is deliberate: etc/chunkwise.api.md records every name of every typed
 * entry of package.json `exports` (scripts/api-surface.ts; `npm run lint:package`
 * rewrites it), and this test fails when the file and the code differ — by the
 * TypeScript checker's reading of the sources, and by the run-time keys of each entry's
 * module. The root entry stays small: what a user chunks with, at most 45 values, every
 * public error among them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_FILE, apiSurface, packageEntries, renderApi, type ApiEntry } from '../scripts/api-surface.js';
import { repoRoot } from './helpers/paths.js';

describe('the recorded public API (etc/chunkwise.api.md)', () => {
  let surface: ApiEntry[];
  beforeAll(() => {
    surface = apiSurface();
  }, 120_000);

  it('is the surface the sources export (npm run lint:package rewrites it)', () => {
    expect(readFileSync(join(repoRoot, API_FILE), 'utf8')).toBe(renderApi(surface));
  });

  it('covers every typed entry of package.json exports', () => {
    expect(surface.map((e) => e.path)).toEqual(packageEntries().map((e) => e.path));
    expect(surface.map((e) => e.path)).toEqual(expect.arrayContaining(['chunkwise', 'chunkwise/kernels', 'chunkwise/node', 'chunkwise/onnx', 'chunkwise/evaluation']));
  });

  it("lists each entry's run-time values exactly as its module has them", async () => {
    for (const entry of surface) {
      const mod = (await import(pathToFileURL(join(repoRoot, entry.source)).href)) as Record<string, unknown>;
      const recorded = entry.names.filter((n) => n.value).map((n) => n.name).sort();
      expect(Object.keys(mod).sort(), entry.path).toEqual(recorded);
    }
  }, 120_000);

  it('the root entry: at most 45 values, no kernels, no internals', () => {
    const root = surface.find((e) => e.path === 'chunkwise')!;
    const values = root.names.filter((n) => n.value).map((n) => n.name);
    expect(values.length).toBeLessThanOrEqual(45);
    const gone = ['cosineMatVec', 'topK', 'planWindows', 'getKernels', 'hex32', 'charCut', 'firstLine', 'isBlank', 'trimSpan', 'safeCutFor', 'TableRowsLevel', 'resolveFallback', 'describe'];
    expect(values.filter((n) => gone.includes(n))).toEqual([]);
    expect(root.names.map((n) => n.name)).not.toContain('SpanSplitter');
    // what a user chunks with is there, with its types
    for (const n of ['RecursiveChunker', 'createChunker', 'strategies', 'getTokenizer', 'loadTokenizer', 'HashingEmbedder', 'InvalidOptionError', 'chunkStream', 'pipeline']) expect(values).toContain(n);
    for (const n of ['Chunk', 'Chunker', 'Sizer', 'Embedder', 'RecursiveOptions']) expect(root.names.find((x) => x.name === n)?.value, n).toBe(false);
  });

  it('every error a public function throws is exported: the root has each class of errors.ts, UnknownOptionError and DocumentError; the entries their own', () => {
    const valuesOf = (path: string) => surface.find((e) => e.path === path)!.names.filter((n) => n.value).map((n) => n.name);
    const errorsTs = readFileSync(join(repoRoot, 'src/engine/errors.ts'), 'utf8');
    const classes = [...errorsTs.matchAll(/^export class (\w+)/gm)].map((m) => m[1]);
    expect(classes).toContain('ChunkwiseError');
    expect(valuesOf('chunkwise')).toEqual(expect.arrayContaining([...classes, 'UnknownOptionError', 'DocumentError', 'EmbeddingRequestError']));
    expect(valuesOf('chunkwise/queue')).toEqual(expect.arrayContaining(['QueueUnavailableError', 'JobDocumentsError']));
    expect(valuesOf('chunkwise/evaluation')).toContain('QuestionGenerationError');
    for (const path of ['chunkwise/pdf', 'chunkwise/docx']) expect(valuesOf(path), path).toContain('DocumentError');
  });

  it('what a strategy is built from is on chunkwise/engine', () => {
    const engine = surface.find((e) => e.path === 'chunkwise/engine')!;
    expect(engine.names.filter((n) => n.value).map((n) => n.name)).toEqual(expect.arrayContaining(['defineStrategy', 'capacitySchema', 'packLevels', 'registerStrategy', 'getUnits', 'splitSentences', 'contentId']));
  });

  it('the kernels are on chunkwise/kernels', () => {
    const kernels = surface.find((e) => e.path === 'chunkwise/kernels')!;
    expect(kernels.names.filter((n) => n.value).map((n) => n.name)).toEqual(expect.arrayContaining(['cosineMatVec', 'topK', 'planWindows', 'percentile', 'getKernels', 'WasmArray', 'WasmMatrix']));
  });
});
