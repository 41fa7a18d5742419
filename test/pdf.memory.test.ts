/**
 * A long PDF is read page by page (#38): what extractPdf holds is a window of pages (their
 * furniture undecided) plus the document text it returns, not every page's text items and
 * layout at once. Generated PDFs of 200 and 2,000 pages of prose with a 40-character running
 * header and a page number (test/helpers/hostile-documents.ts `longPdf`) are extracted in
 * fresh `node` processes from the build (dist/src/pdf.js) with the old space capped at
 * 128 MB, so that the measure is what the extraction keeps alive rather than how far V8 lets
 * its heap grow over a longer run; peak RSS from `process.resourceUsage()`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { longPdf } from './helpers/hostile-documents.js';
import { repoRoot } from './helpers/paths.js';

const dir = mkdtempSync(join(os.tmpdir(), 'chunkwise-pdf-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Extracts `pages` pages in a fresh process: its exit status, peak RSS (MB), pages and furniture lines found. */
function extract(pages: number): { status: number | null; rss: number; pages: number; furniture: number; stderr: string } {
  const file = join(dir, `long-${pages}.pdf`);
  writeFileSync(file, longPdf(pages));
  const entry = pathToFileURL(join(repoRoot, 'dist', 'src', 'pdf.js')).href;
  const code = `const { readFileSync } = await import('node:fs');
const { extractPdf } = await import(${JSON.stringify(entry)});
const doc = await extractPdf(new Uint8Array(readFileSync(${JSON.stringify(file)})));
console.log(JSON.stringify({ rss: process.resourceUsage().maxRSS / 1024, pages: doc.pages.length, furniture: doc.furniture.length }));`;
  const run = spawnSync(process.execPath, ['--max-old-space-size=128', '--input-type=module', '-e', code], { encoding: 'utf8' });
  const out = run.status === 0 ? JSON.parse(run.stdout.trim().split('\n').pop()!) : { rss: NaN, pages: 0, furniture: 0 };
  return { status: run.status, stderr: run.stderr.slice(-300), ...out };
}

describe('extractPdf memory against the page count', () => {
  it('2,000 pages extract in a 128 MB old space at no more than 1.5 times the peak RSS of 200 pages; every page keeps its header and footer', { timeout: 300_000 }, () => {
    const small = extract(200);
    const large = extract(2000);
    console.log(`peak RSS: 200 pages ${small.rss.toFixed(0)} MB, 2,000 pages ${large.rss.toFixed(0)} MB (${(large.rss / small.rss).toFixed(2)}x)`);
    expect(small.status).toBe(0);
    // main held every page's items and lines until the end: out of memory here
    expect(large.status, large.stderr).toBe(0);
    expect(large.pages).toBe(2000);
    // furniture decided in a window of pages still finds the running header and the page number on every page
    expect(small.furniture).toBe(400);
    expect(large.furniture).toBe(4000);
    expect(large.rss / small.rss).toBeLessThanOrEqual(1.5);
  });
});
