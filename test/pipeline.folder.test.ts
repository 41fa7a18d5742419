/**
 * A folder through `pipeline()`: `documentFiles(folder)` (chunkwise/node) walks it and
 * hands each file's bytes to the load stage; into a PGlite store, a PDF's rows keep the
 * pages and boxes the loader gives (JSON metadata through a real database), the other
 * files are chunked by their kind, and a rerun skips every file. In the slow project
 * (a PGlite database).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createChunker, HashingEmbedder, pipeline } from '../src/index.js';
import { documentFiles, UnreadableFileError } from '../src/apps/node/index.js';
import { chunkPdf } from '../src/documents/pdf.js';
import { openPgliteSink } from '../src/sinks/pglite.js';
import { repoRoot } from './helpers/paths.js';

const dir = join(repoRoot, 'test', 'fixtures', 'documents');
const bytes = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

describe('pipeline({ documents: documentFiles(folder) })', () => {
  it('documentFiles(folder) into PGlite: one PDF, DOCX, HTML and Markdown file each; the PDF rows keep the pages and boxes the loader gives', { timeout: 60_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'chunkwise-folder-'));
    try {
      const folder = join(root, 'corpus');
      mkdirSync(join(folder, 'papers'), { recursive: true });
      mkdirSync(join(folder, '.cache'));
      copyFileSync(join(dir, 'report.pdf'), join(folder, 'papers', 'report.pdf'));
      copyFileSync(join(dir, 'handbook.docx'), join(folder, 'handbook.docx'));
      copyFileSync(join(dir, 'handbook.md'), join(folder, 'handbook.md'));
      writeFileSync(join(folder, 'page.html'), '<!doctype html><h1>Gauges</h1><p>Each gauge is read <b>daily</b>.</p><h2>Logs</h2><p>Logs are kept a year.</p>');
      // not taken: a hidden folder, an extension the loader does not read
      copyFileSync(join(dir, 'handbook.md'), join(folder, '.cache', 'old.md'));
      writeFileSync(join(folder, 'notes.bin'), new Uint8Array([0, 1, 2]));
      const sink = await openPgliteSink(join(root, 'db'));
      const options = { recursive: { chunkSize: 200 }, html: { chunkSize: 200 }, markdown: { chunkSize: 200 } };
      try {
        const summary = await pipeline({ documents: documentFiles(folder), chunker: 'auto', chunkerOptions: options, embedder: new HashingEmbedder(), sink });
        const pdf = join(folder, 'papers', 'report.pdf');
        expect((await sink.sources()).sort()).toEqual([join(folder, 'handbook.docx'), join(folder, 'handbook.md'), join(folder, 'page.html'), pdf]);
        expect(summary).toMatchObject({ documents: 4, failed: 0 });
        // the PDF's rows in the store: the chunks the loader and PdfChunker give, pages and boxes as they are
        const { chunks } = await chunkPdf(bytes('report.pdf'), createChunker('recursive', { chunkSize: 200 }), { source: pdf });
        const want = chunks.map((c) => ({ start: c.start, end: c.end, pages: c.metadata.pages, boxes: c.metadata.boxes }));
        const rows = (await sink.rows(pdf)).sort((a, b) => a.start - b.start);
        expect(rows.length).toBeGreaterThan(1);
        expect(rows.map((r) => ({ start: r.start, end: r.end, pages: r.metadata.pages, boxes: r.metadata.boxes }))).toEqual(want);
        expect(new Set(rows.map((r) => (r.metadata.pages as { first: number }).first)).size).toBeGreaterThan(1); // more than one page
        expect(rows.every((r) => (r.metadata.boxes as { page: number }[]).length > 0)).toBe(true);
        // the others chunked by their kind
        expect((await sink.rows(join(folder, 'handbook.docx'))).every((r) => r.metadata.strategy === 'html' && !/<p>|<td>/.test(r.embedText ?? r.text))).toBe(true);
        expect((await sink.rows(join(folder, 'page.html'))).map((r) => r.metadata.headingPath)).toContainEqual(['Gauges', 'Logs']);
        expect((await sink.rows(join(folder, 'handbook.md'))).every((r) => r.metadata.strategy === 'markdown')).toBe(true);
        // a rerun reads the folder again and skips every file (the hash of its bytes is recorded)
        const again = await pipeline({ documents: documentFiles(`${folder}/`), chunker: 'auto', chunkerOptions: options, embedder: new HashingEmbedder(), sink });
        expect(again).toMatchObject({ documents: 4, added: 0, embedded: 0, kept: summary.chunks });
      } finally {
        await sink.close();
      }
      // a folder without documents, a path that is not there: the error names it
      await expect(documentFiles(join(folder, '.cache', 'none')).next()).rejects.toThrow(UnreadableFileError);
      await expect(documentFiles(join(folder, 'papers'), { extensions: ['.md'] }).next()).rejects.toThrow(/no \.md files in directory/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
