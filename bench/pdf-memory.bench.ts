/**
 * Peak memory of `extractPdf` against the page count: generated PDFs of 200 to 2,000 pages
 * of prose (about 460 words a page) with a running header of 40 characters and a page
 * number (test/helpers/hostile-documents.ts `longPdf`), each extracted in a fresh `node`
 * process from the build (dist/src/pdf.js); peak RSS from `process.resourceUsage()`.
 * Memory that grew with the square of the page count (furniture kept slices of the whole
 * text) shows as a ratio far above the page ratio.
 *
 *   npm run bench -- pdf-memory   (needs a build: npm run build)
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { longPdf } from '../test/helpers/hostile-documents.js';
import { repoRoot } from './util.js';

const PAGES = [200, 600, 1000, 2000];

/** One extraction in a fresh process: milliseconds and peak RSS in MB. */
function measure(file: string): { ms: number; rss: number } {
  const entry = pathToFileURL(join(repoRoot, 'dist', 'src', 'pdf.js')).href;
  const code = `const { readFileSync } = await import('node:fs');
const { extractPdf } = await import(${JSON.stringify(entry)});
const t = performance.now();
await extractPdf(new Uint8Array(readFileSync(${JSON.stringify(file)})));
console.log(JSON.stringify({ ms: performance.now() - t, rss: process.resourceUsage().maxRSS / 1024 }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').pop()!);
}

export async function runPdfMemoryBench(): Promise<string> {
  const dir = mkdtempSync(join(os.tmpdir(), 'chunkwise-pdf-memory-'));
  const rows: string[] = ['| pages | extract (s) | peak RSS (MB) | RSS / RSS at 200 pages |', '| --- | --- | --- | --- |'];
  let base = 0;
  for (const pages of PAGES) {
    const file = join(dir, `long-${pages}.pdf`);
    writeFileSync(file, longPdf(pages));
    const { ms, rss } = measure(file);
    base ||= rss;
    rows.push(`| ${pages} | ${(ms / 1000).toFixed(1)} | ${rss.toFixed(0)} | ${(rss / base).toFixed(2)} |`);
  }
  return `### extractPdf peak memory by page count\n\n${rows.join('\n')}\n`;
}
