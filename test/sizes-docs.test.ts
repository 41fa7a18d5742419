/**
 * The sizes the README and docs quote are measured, not written by hand (issue 38):
 * `scripts/measure-sizes.mjs` measures the packed tarball (`npm pack --dry-run`), the
 * production install (the package plus its dependency closure in node_modules) and
 * LanceDB beside it, and writes them between `<!-- size:NAME -->` markers. Here: the
 * script runs, every marker names a figure it measures, and each written figure is the
 * measured one (within 3 %: the package's own bytes move with every change of dist/, and
 * the figures are rewritten when they drift). Screenshots stay out of the package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.js';

type Sizes = { bytes: Record<string, number>; packages: Record<string, number>; files: number; images: string[]; text: Record<string, string> };
type Script = { measureSizes(): Sizes; writtenSizes(markdown: string): { name: string; text: string }[]; sizeDocuments(): string[] };

let script: Script;
let sizes: Sizes;
beforeAll(async () => {
  script = (await import(join(repoRoot, 'scripts', 'measure-sizes.mjs'))) as Script;
  sizes = script.measureSizes();
}, 120_000);

/** A figure as a number: `28.9 MB` → 28.9, `22` → 22. */
const value = (text: string) => Number(/^([\d.]+)( MB)?$/.exec(text)?.[1] ?? NaN);

describe('sizes in the README and docs', () => {
  it('are measured: plausible figures, the package has no screenshots', () => {
    expect(sizes.images).toEqual([]);
    expect(sizes.files).toBeGreaterThan(100);
    expect(sizes.bytes.tarball).toBeLessThan(sizes.bytes.unpacked);
    expect(sizes.bytes.install).toBeGreaterThan(sizes.bytes.unpacked);
    expect(sizes.packages.install).toBeGreaterThan(5);
    // LanceDB brings its native binary (100+ MB) and optional Transformers.js with ONNX Runtime
    expect(sizes.bytes.lancedb).toBeGreaterThan(100e6);
    expect(Object.values(sizes.text).every((t) => Number.isFinite(value(t)))).toBe(true);
  });

  it('each written figure is the measured one: README.md (install, tarball, with LanceDB) and docs/runtimes.md', () => {
    const files = script.sizeDocuments();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/runtimes.md']));
    const seen = new Set<string>();
    for (const file of files) {
      for (const { name, text } of script.writtenSizes(readFileSync(join(repoRoot, file), 'utf8'))) {
        seen.add(name);
        expect(Object.keys(sizes.text), `${file}: marker ${name}`).toContain(name);
        const measured = value(sizes.text[name]);
        expect(Math.abs(value(text) - measured) / measured, `${file}: ${name} says ${text}, measured ${sizes.text[name]} (node scripts/measure-sizes.mjs --write)`).toBeLessThanOrEqual(0.03);
      }
    }
    expect([...seen].sort()).toEqual(['install', 'install-packages', 'lancedb', 'tarball', 'unpacked', 'with-lancedb']);
  });

  it('no size in MB is written by hand beside the install and package figures', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/production install is [\d.]+ MB/);
    expect(readme).not.toContain('553 MB');
    expect(readFileSync(join(repoRoot, 'docs', 'runtimes.md'), 'utf8')).not.toMatch(/is [\d.]+ MB in \d+ packages/);
  });
});
