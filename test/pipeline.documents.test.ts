/**
 * Documents as a stage of `pipeline()`: `{ source, bytes }` documents (PDF, DOCX, HTML,
 * Markdown) are loaded before chunking; a PDF's pages and boxes reach the sink's rows.
 * A folder through `documentFiles` into PGlite: test/pipeline.folder.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashingEmbedder, MemorySink, pipeline } from '../src/index.js';
import { repoRoot } from './helpers/paths.js';

const dir = join(repoRoot, 'test', 'fixtures', 'documents');
const bytes = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

describe('pipeline({ documents }) with bytes', () => {
  it('a folder of PDF, DOCX, HTML and Markdown: every file chunked by its kind, pages and boxes kept to the sink', async () => {
    const html = new TextEncoder().encode('<!doctype html><h1>Gauges</h1><p>Each gauge is read <b>daily</b>.</p><h2>Logs</h2><p>Logs are kept a year.</p>');
    const documents = [
      { source: 'report.pdf', bytes: bytes('report.pdf') },
      { source: 'handbook.docx', bytes: bytes('handbook.docx') },
      { source: 'handbook.md', bytes: bytes('handbook.md') },
      { source: 'page.html', bytes: html },
      { source: 'upload-without-a-name', bytes: bytes('manual.pdf') }, // sniffed: %PDF-
      { source: 'saved-as.txt', bytes: bytes('handbook.docx') }, // a Word file whatever its name says
    ];
    const sink = new MemorySink();
    const summary = await pipeline({ documents, chunker: 'auto', chunkerOptions: { recursive: { chunkSize: 200 }, html: { chunkSize: 200 }, markdown: { chunkSize: 200 }, fixed: { chunkSize: 200 } }, embedder: new HashingEmbedder(), sink });
    expect(summary.documents).toBe(6);
    for (const source of ['report.pdf', 'upload-without-a-name']) {
      const rows = [...(await sink.stored(source)).values()];
      expect(rows.length, source).toBeGreaterThan(1);
      for (const r of rows) {
        const m = r.metadata as { pages: { first: number; last: number }; boxes: unknown[] };
        expect(m.pages.first, source).toBeGreaterThanOrEqual(1);
        expect(m.boxes.length, source).toBeGreaterThan(0);
      }
    }
    // auto picks by the sniffed kind: the nameless PDF's text by recursive, the Word file's HTML by html
    expect([...(await sink.stored('upload-without-a-name')).values()].every((r) => r.metadata.strategy === 'recursive')).toBe(true);
    const docx = [...(await sink.stored('handbook.docx')).values()];
    expect(docx.every((r) => r.metadata.strategy === 'html' && r.metadata.documentFormat === 'docx-html')).toBe(true);
    expect([...(await sink.stored('saved-as.txt')).values()].map((r) => r.metadata)).toEqual(docx.map((r) => r.metadata));
    expect(docx.some((r) => (r.metadata.headingPath as string[]).includes('Visiting a station'))).toBe(true);
    const page = [...(await sink.stored('page.html')).values()];
    expect(page.map((r) => r.metadata.headingPath)).toContainEqual(['Gauges', 'Logs']);
    expect([...(await sink.stored('handbook.md')).values()].every((r) => r.metadata.strategy === 'markdown')).toBe(true);
    // a rerun skips every document unread (their bytes' hash is recorded)
    const again = await pipeline({ documents, chunker: 'auto', chunkerOptions: { recursive: { chunkSize: 200 }, html: { chunkSize: 200 }, markdown: { chunkSize: 200 }, fixed: { chunkSize: 200 } }, embedder: new HashingEmbedder(), sink });
    expect(again.added).toBe(0);
  });

  it('load: the password opens an encrypted PDF (without it, a DocumentError for onDocumentError); a load that is not an object is refused', async () => {
    const documents = [{ source: 'encrypted.pdf', bytes: bytes('encrypted.pdf') }];
    const errors: string[] = [];
    const locked = await pipeline({ documents, chunker: 'auto', embedder: new HashingEmbedder(), sink: new MemorySink(), onDocumentError: (e) => errors.push(e.reason) });
    expect(locked).toMatchObject({ documents: 0, failed: 1 });
    expect(errors).toEqual(['password']);
    const sink = new MemorySink();
    const opened = await pipeline({ documents, chunker: 'auto', embedder: new HashingEmbedder(), sink, load: { password: 'secret' } });
    expect(opened).toMatchObject({ documents: 1, failed: 0 });
    const rows = [...(await sink.stored('encrypted.pdf')).values()];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => (r.metadata.boxes as unknown[]).length > 0)).toBe(true);
    await expect(pipeline({ documents, chunker: 'auto', embedder: new HashingEmbedder(), load: 'secret' as never })).rejects.toThrow(/Invalid option load/);
  });
});
