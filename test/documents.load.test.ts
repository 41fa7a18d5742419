/**
 * The document loader (src/documents/load.ts): each kind by its name and, with the name
 * giving nothing away, by its magic bytes; a PDF keeps its pages and boxes; text decoding
 * by byte order mark, named encoding, or strict UTF-8.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocumentError } from '../src/documents/document-error.js';
import { documentKindOf, loadDocument } from '../src/documents/load.js';
import { PdfChunker } from '../src/documents/pdf.js';
import { createChunker } from '../src/strategies/index.js';
import { repoRoot } from './helpers/paths.js';

const dir = join(repoRoot, 'test', 'fixtures', 'documents');
const bytes = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

describe('loadDocument', () => {
  it('knows each fixture by its extension and, named "upload", by its magic bytes', () => {
    const expected: Record<string, string> = { 'report.pdf': 'pdf', 'handbook.docx': 'docx', 'handbook.md': 'markdown', 'tool.1': 'text' };
    for (const [file, kind] of Object.entries(expected)) {
      expect(documentKindOf(file, bytes(file)), file).toBe(kind);
      expect(documentKindOf('upload', bytes(file)), file).toBe(kind === 'markdown' ? 'text' : kind);
    }
    const page = new TextEncoder().encode('\ufeff  <!DOCTYPE html><p>x</p>');
    expect(documentKindOf('https://example.com/page?x=1', page)).toBe('html');
    expect(documentKindOf('notes.html', new TextEncoder().encode('plain'))).toBe('html');
    // PDF and Word bytes are what they are, whatever the name says
    expect(documentKindOf('notes.md', bytes('report.pdf'))).toBe('pdf');
    expect(documentKindOf('saved-as.txt', bytes('handbook.docx'))).toBe('docx');
    expect(documentKindOf('report.pdf', new TextEncoder().encode('plain'))).toBe('pdf');
  });

  it('a PDF: its text with pages and boxes, which PdfChunker carries to every chunk', async () => {
    const doc = await loadDocument({ source: 'upload', bytes: bytes('report.pdf') });
    expect(doc.kind).toBe('pdf');
    expect(doc.pdf!.pages.length).toBeGreaterThanOrEqual(2);
    expect(doc.text).toBe(doc.pdf!.text);
    const chunks = await new PdfChunker(createChunker('recursive', { chunkSize: 200 })).chunk(doc.pdf!);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.metadata.pages.first).toBeGreaterThanOrEqual(1);
      expect(c.metadata.boxes.length).toBeGreaterThan(0);
    }
    const locked = await loadDocument({ source: 'enc.pdf', bytes: bytes('encrypted.pdf') }).catch((e) => e);
    expect(locked).toBeInstanceOf(DocumentError);
    expect((await loadDocument({ source: 'enc.pdf', bytes: bytes('encrypted.pdf') }, { password: 'secret' })).text).toContain('read and summarise river gauge logs');
  });

  it('a Word file: mammoth\'s HTML, headings as h1/h2', async () => {
    const doc = await loadDocument({ source: 'handbook.docx', bytes: bytes('handbook.docx') });
    expect(doc.kind).toBe('docx');
    expect(doc.text).toContain('<h1>Visiting a station</h1>');
  });

  it('text: UTF-16 by its BOM, a named encoding, else strict UTF-8 (a DocumentError, never U+FFFD)', async () => {
    const text = 'Café crème, déjà vu.';
    const le = new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);
    expect((await loadDocument({ source: 'a.txt', bytes: le })).text).toBe(`\ufeff${text}`);
    const latin1 = new Uint8Array(Buffer.from(text, 'latin1'));
    const error = await loadDocument({ source: 'a.txt', bytes: latin1 }).catch((e) => e);
    expect(error).toBeInstanceOf(DocumentError);
    expect(error.message).toBe('Cannot read "a.txt": not valid UTF-8; give its encoding (encoding: "latin1", or --input-encoding on the command line)');
    expect((await loadDocument({ source: 'a.txt', bytes: latin1 }, { encoding: 'latin1' })).text).toBe(text);
  });
});
