/**
 * chunkwise/pdf and chunkwise/docx on documents made with real tools
 * (scripts/make-document-fixtures.sh: groff, ghostscript, qpdf, pandoc). Ground truth for
 * the text of each page is poppler's `pdftotext -f N -l N`, an independent extractor;
 * glyph positions for the box checks are pdf.js's own text items, read here directly.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DocumentError } from '../src/documents/document-error.js';
import { chunkDocx } from '../src/documents/docx.js';
import { extractPdf, loadPdfJs, PdfChunker, type PdfChunk, type PdfDocumentText } from '../src/documents/pdf.js';
import { createChunker } from '../src/strategies/index.js';
import { cliBin, repoRoot } from './helpers/paths.js';
import { hostilePdfs, zipBomb } from './helpers/hostile-documents.js';
import { makePdf, proseLines } from './helpers/make-pdf.js';
import { pdftotext, readingOrderScore, scoreWords } from './helpers/reading-order.js';

const dir = join(repoRoot, 'test', 'fixtures', 'documents');
const bytes = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const words = (s: string) => s.normalize('NFKC').split(/\s+/).filter(Boolean);

/** Text without white space and hyphens (pdftotext joins items and hyphenated line ends its own way). */
const squeeze = (s: string) => s.normalize('NFKC').replace(/[\s\-\u2010\u2011\u00ad]+/g, '');

/** pdftotext's text of page `n`, squeezed. */
function popplerPage(name: string, n: number, password?: string): string {
  const args = [...(password ? ['-upw', password] : []), '-f', String(n), '-l', String(n), join(dir, name), '-'];
  return squeeze(execFileSync('pdftotext', args, { encoding: 'utf8' }));
}

/** pdf.js's text items of every page, with the viewport, read without chunkwise. */
async function pdfjsItems(data: Uint8Array, password?: string) {
  const pdfjs = (await loadPdfJs()) as unknown as {
    getDocument(o: object): { promise: Promise<{ numPages: number; getPage(n: number): Promise<any>; destroy(): Promise<void> }> };
  };
  const doc = await pdfjs.getDocument({ data: data.slice(), password, isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  const pages: { items: { str: string; transform: number[]; width: number }[]; height: number }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const vp = page.getViewport({ scale: 1 });
    pages.push({ items: (await page.getTextContent()).items, height: vp.height });
  }
  await doc.destroy();
  return pages;
}

const STRATEGIES: [string, Record<string, unknown>][] = [
  ['recursive', { chunkSize: 60, chunkOverlap: 0 }],
  ['fixed', { chunkSize: 50, chunkOverlap: 10 }],
];

const FIXTURES: [string, string?][] = [['report.pdf'], ['manual.pdf'], ['encrypted.pdf', 'secret']];

/** The chunk's text on each page: the runs inside the chunk, by page. */
function textByPage(doc: PdfDocumentText, c: PdfChunk): Map<number, string> {
  const out = new Map<number, string>();
  for (const r of doc.runs) {
    const a = Math.max(c.start, r.start);
    const b = Math.min(c.end, r.end);
    if (b > a) out.set(r.box.page, (out.get(r.box.page) ?? '') + ' ' + doc.text.slice(a, b));
  }
  return out;
}

describe.each(FIXTURES)('%s', (name, password) => {
  it.each(STRATEGIES)('%s chunks: words on exactly the named pages (pdftotext), boxes inside the page covering pdf.js\'s glyphs', async (strategy, options) => {
    const data = bytes(name);
    const doc = await extractPdf(data, { password });
    const chunks = await new PdfChunker(createChunker(strategy, options)).chunk(doc);
    expect(chunks.length).toBeGreaterThan(5);
    const truth = doc.pages.map((p) => popplerPage(name, p.number, password));
    const raw = await pdfjsItems(data, password);
    chunks.forEach((c, i) => {
      expect(c.index).toBe(i);
      expect(c.text).toBe(doc.text.slice(c.start, c.end));
      const byPage = textByPage(doc, c);
      const pages = [...byPage.keys()];
      expect(c.metadata.pages).toEqual({ first: Math.min(...pages), last: Math.max(...pages) });
      for (const [page, text] of byPage) {
        for (const w of words(text)) if (squeeze(w)) expect(truth[page - 1].includes(squeeze(w)), `${w} on page ${page} (chunk ${i})`).toBe(true);
      }
      // every character of the chunk but white space lies in the runs (nothing outside the provenance map;
      // pieces that abut, one word set in two items, are joined without a space)
      expect(squeeze([...byPage.values()].join(' '))).toBe(squeeze(c.text));
      for (const b of c.metadata.boxes) {
        const page = doc.pages[b.page - 1];
        expect(b.x0).toBeGreaterThanOrEqual(0);
        expect(b.y0).toBeGreaterThanOrEqual(0);
        expect(b.x1).toBeLessThanOrEqual(page.width);
        expect(b.y1).toBeLessThanOrEqual(page.height);
        expect(b.x0).toBeLessThan(b.x1);
        expect(b.y0).toBeLessThan(b.y1);
      }
      // point-in-box on pdf.js's own positions: each glyph of the chunk, from its raw item
      for (const r of doc.runs) {
        if (r.end <= c.start || r.start >= c.end) continue;
        const { items, height } = raw[r.box.page - 1];
        const item = items[r.item];
        expect(item.str.slice(r.itemOffset, r.itemOffset + r.end - r.start)).toBe(doc.text.slice(r.start, r.end));
        const advance = item.width / item.str.length;
        const size = Math.hypot(item.transform[2], item.transform[3]);
        for (let k = Math.max(c.start, r.start); k < Math.min(c.end, r.end); k++) {
          const x = item.transform[4] + (r.itemOffset + (k - r.start) + 0.5) * advance;
          const y = height - item.transform[5] - 0.3 * size; // viewport y: down from the top
          const inside = c.metadata.boxes.some((b) => b.page === r.box.page && b.x0 <= x && x <= b.x1 && b.y0 <= y && y <= b.y1);
          expect(inside, `glyph ${JSON.stringify(doc.text[k])} at ${k} of chunk ${i}`).toBe(true);
        }
      }
    });
    // no chunk crosses a page break unless the paragraph runs over it
    for (const c of chunks) {
      for (let p = c.metadata.pages.first; p < c.metadata.pages.last; p++) {
        const between = doc.text.slice(doc.pages[p - 1].end, doc.pages[p].start);
        expect(between, `chunk ${c.index} crosses the break after page ${p}`).toBe('\n');
      }
    }
  });

  it('repeated page headers and footers are detected and appear in no embedText', async () => {
    const doc = await extractPdf(bytes(name), { password });
    const chunks = await new PdfChunker(createChunker('recursive', { chunkSize: 60, chunkOverlap: 0 })).chunk(doc);
    expect(doc.furniture.length).toBeGreaterThanOrEqual(doc.pages.length);
    const repeated = name === 'report.pdf' ? ['Printed by groff', 'Chunkwise Field Report'] : ['User Commands', 'March 2026'];
    for (const r of repeated) expect(doc.furniture.some((f) => f.text.includes(r)), r).toBe(true);
    for (const c of chunks) for (const r of repeated) expect(c.embedText ?? c.text).not.toContain(r);
  });
});

describe('report.pdf: two columns, headings, hyphenation', async () => {
  const data = bytes('report.pdf');
  const doc = await extractPdf(data);
  const raw = await pdfjsItems(data);
  const chunks = await new PdfChunker(createChunker('recursive', { chunkSize: 100, chunkOverlap: 0 })).chunk(doc);

  it('no chunk interleaves lines of the two columns (pdf.js x positions: left half, then right half, per page)', () => {
    let crossings = 0;
    for (const c of chunks) {
      const sides = new Map<number, string>();
      for (const r of doc.runs) {
        if (r.end <= c.start || r.start >= c.end || doc.furniture.some((f) => f.start <= r.start && r.end <= f.end)) continue;
        const item = raw[r.box.page - 1].items[r.item];
        const x0 = item.transform[4];
        const x1 = x0 + item.width;
        if (x0 < 306 && x1 > 306) continue; // spans the middle: the title
        const side = x1 <= 306 ? 'L' : 'R';
        const seq = sides.get(r.box.page) ?? '';
        if (seq.at(-1) !== side) sides.set(r.box.page, seq + side);
      }
      for (const seq of sides.values()) {
        expect(seq, `chunk ${c.index}`).toMatch(/^L?R?$/);
        if (seq === 'LR') crossings++;
      }
    }
    // the document text reads column 1 then column 2: a chunk may run from the foot of one into the head of the next
    expect(crossings).toBeLessThanOrEqual(doc.pages.length);
    expect(doc.text.indexOf('each month.')).toBeLessThan(doc.text.indexOf('Station Area km2'));
  });

  it('headings from font size and weight reach metadata.headingPath', () => {
    expect(doc.headings.slice(0, 5).map((h) => [h.level, h.text])).toEqual([
      [1, 'Notes on River Sediment Monitoring'],
      [2, '1. Introduction'],
      [2, '2. Stations and Methods'],
      [3, '2.1. Instrument calibration'],
      [2, '3. Results'],
    ]);
    const reservoir = chunks.find((c) => c.text.includes('At the observed rates'))!;
    expect(reservoir.metadata.headingPath).toEqual(['Notes on River Sediment Monitoring', '3. Results', '3.1. Reservoir implications']);
  });

  it('hyphenated line ends are re-joined in embedText, text stays exact', () => {
    const hyphenated = [...doc.text.matchAll(/(\p{L}+)-\n(\p{Ll}+)/gu)];
    expect(hyphenated.length).toBeGreaterThan(10);
    let checked = 0;
    for (const m of hyphenated) {
      const c = chunks.find((x) => x.start <= m.index! && m.index! + m[0].length <= x.end);
      if (!c || c.metadata.furniture) continue;
      expect(c.text).toContain(m[0]);
      expect(c.embedText).toContain(m[1] + m[2]);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('the table reads row by row', () => {
    expect(doc.text).toContain('Station Area km2 Mean load t/d\nUpper Gorge 412 38\nMill Bridge 655 71');
  });
});

/** Chunks of a fixture (a path in test/fixtures/documents/) with recursive 200 and their reading-order scores. */
async function layoutFixture(name: string) {
  const file = join(dir, name);
  const doc = await extractPdf(bytes(name));
  const chunks = await new PdfChunker(createChunker('recursive', { chunkSize: 200, chunkOverlap: 0 })).chunk(doc);
  const texts = chunks.map((c) => c.embedText ?? c.text);
  return { doc, chunks, poppler: readingOrderScore(texts, pdftotext(file)).share, raw: readingOrderScore(texts, pdftotext(file, { raw: true })).share };
}

describe('two-column papers with a full-width title and abstract on page 1: reading order against pdftotext', () => {
  // share of word pairs inside chunks that are word pairs of pdftotext (default; -raw: content-stream order, which
  // for TeX and groff output is the order the author wrote). Before bands: 93.3, 89.7, 90.3, 94.3, 90.4 % (default)
  // and 94.0, 89.8, 91.7, 93.0, 92.0 % (-raw). The rest of the default misses are table rows (pdftotext reads these
  // tables column by column) and places where pdftotext itself splits a numbered heading or interleaves columns.
  it.each([
    ['layout/ice-ieee.pdf', 0.97],
    ['layout/ice-revtex.pdf', 0.99],
    ['layout/orchard-elsarticle.pdf', 0.975],
    ['layout/orchard-article.pdf', 0.965],
    ['layout/ferry.pdf', 0.965],
    ['report.pdf', 0.975],
  ])('%s: %f of the pairs are pdftotext\'s, 0.99 of its -raw order\'s', async (name, share) => {
    const { poppler, raw } = await layoutFixture(name);
    expect(poppler).toBeGreaterThanOrEqual(share);
    expect(raw).toBeGreaterThanOrEqual(0.99);
  });

  it('one-column documents stay at 0.98 or more', async () => {
    const { poppler } = await layoutFixture('layout/manuals.pdf');
    expect(poppler).toBeGreaterThanOrEqual(0.98);
    for (const name of ['manual.pdf', 'encrypted.pdf']) {
      const doc = await extractPdf(bytes(name), { password: 'secret' });
      const chunks = await new PdfChunker(createChunker('recursive', { chunkSize: 200, chunkOverlap: 0 })).chunk(doc);
      expect(readingOrderScore(chunks.map((c) => c.embedText ?? c.text), pdftotext(join(dir, name), { password: 'secret' })).share, name).toBeGreaterThanOrEqual(0.98);
    }
  });

  it('page 1 reads title, abstract, then the left column, then the right; a table keeps its rows; headings in order', async () => {
    const { doc, chunks } = await layoutFixture('layout/ice-ieee.pdf');
    const at = (s: string) => {
      const i = doc.text.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    const order = ['Eleven Lakes Watched', 'Abstract', 'Index Terms', '1 INTRODUCTION', 'Lake ice is one of', 'historical series without introducing a step', '2 THE OBSERVATION NETWORK', '2.1 Recruiting observers'];
    expect(order.map(at)).toEqual([...order.map(at)].sort((a, b) => a - b));
    expect(doc.text).toContain('Source Lakes Years Offset (days)\nFerry logs 3 212 −4\nFishing cooperatives 4 167 +6');
    expect(chunks[0].text).toContain('Abstract');
    expect(chunks[0].text).not.toContain('2.1 Recruiting');
    expect(doc.headings.filter((h) => /^\d/.test(h.text)).slice(0, 4).map((h) => h.text)).toEqual(['1 INTRODUCTION', '2 THE OBSERVATION NETWORK', '2.1 Recruiting observers', '2.2 One definition for every lake']);
    const wide = await layoutFixture('layout/orchard-elsarticle.pdf');
    expect(wide.doc.text).toContain('Crop Farms Water (usual) Water (scheduled) Yield (usual) Yield (scheduled)\nApple 4 412 318 41.2 40.8\nPear 3 388 301 33.5 34.1');
  });

  it.each(['layout/ice-ieee.pdf', 'layout/ice-revtex.pdf', 'layout/orchard-article.pdf', 'layout/orchard-elsarticle.pdf', 'layout/ferry.pdf'])('%s: boxes are one per run of lines of one column, none across the gutter below the title', async (name) => {
    const { doc, chunks } = await layoutFixture(name);
    let columnBoxes = 0;
    for (const c of chunks) {
      for (const b of c.metadata.boxes) {
        const page = doc.pages[b.page - 1];
        const mid = page.width / 2;
        // lines inside the box: all of one block (column) of one band
        const inside = doc.lines.filter((l) => l.box.page === b.page && l.start < c.end && l.end > c.start && l.box.y0 >= b.y0 - 0.01 && l.box.y1 <= b.y1 + 0.01 && l.box.x0 >= b.x0 - 0.01 && l.box.x1 <= b.x1 + 0.01);
        expect(inside.length).toBeGreaterThan(0);
        expect(new Set(inside.map((l) => `${l.column}|${l.band}`)).size, `${name} chunk ${c.index}`).toBe(1);
        const pageHasColumns = doc.lines.some((l) => l.box.page === b.page && l.column >= 1);
        if (pageHasColumns && inside[0].column >= 0) {
          columnBoxes++;
          expect(b.x1 <= mid + 20 || b.x0 >= mid - 20, `${name} chunk ${c.index} box ${JSON.stringify(b)}`).toBe(true);
        }
      }
    }
    expect(columnBoxes).toBeGreaterThan(chunks.length / 2);
  });
});

describe('furniture per run of pages', () => {
  it('four manuals in one PDF, each header and footer on 3 of 12 pages: all found, none in any chunk\'s embedText', async () => {
    const doc = await extractPdf(bytes('layout/manuals.pdf'));
    const chunks = await new PdfChunker(createChunker('recursive', { chunkSize: 100, chunkOverlap: 0 })).chunk(doc);
    expect(chunks.length).toBeGreaterThan(20);
    const running = ['Operator Manual', 'Field Handbook', 'User Guide', 'Reference Manual', 'Harbour Instruments, edition 3', 'Coastal Met Services', 'River Survey Equipment', 'Field Electronics Workshop'];
    for (const r of running) expect(doc.furniture.filter((f) => f.text.includes(r)).length, r).toBe(3);
    expect(doc.furniture.filter((f) => /^Page \d$|Page \d$/.test(f.text))).toHaveLength(12);
    // before: running headers or footers in 21 of 28 chunks' embedText (only "Page N" was furniture)
    const leaking = chunks.filter((c) => running.some((r) => (c.embedText ?? c.text).includes(r)) || /Page \d/.test(c.embedText ?? c.text));
    expect(leaking.map((c) => c.index)).toEqual([]);
    for (const f of doc.furniture) expect(doc.text.slice(f.start, f.end)).toBe(f.text);
  });

  it('a line in the header zone that differs from page to page only in digits that are not the page number is body text', async () => {
    const pages = Array.from({ length: 8 }, (_, i) => [
      { x: 72, y: 750, text: 'Survey Log of the Upper Gorge' },
      { x: 72, y: 725, text: `Reading ${((i * 37) % 91) + 3} at ${(i * 5) % 24}:${(i * 13) % 60} hours` },
      ...proseLines(i, 30),
      { x: 290, y: 40, text: `Page ${i + 3}` },
    ]);
    const doc = await extractPdf(makePdf(pages));
    const kinds = new Map<string, number>();
    for (const f of doc.furniture) kinds.set(f.text.replace(/\d+/g, '#'), (kinds.get(f.text.replace(/\d+/g, '#')) ?? 0) + 1);
    // before: "Reading # at #:# hours" was furniture on all 8 pages
    expect(Object.fromEntries(kinds)).toEqual({ 'Survey Log of the Upper Gorge': 8, 'Page #': 8 });
    expect(doc.text).toContain('Reading 40 at 5:13 hours');
  });
});

describe('headings from weight and size relative to the body', () => {
  it('four manuals: bold indented subsections are headings one level under their section', async () => {
    const doc = await extractPdf(bytes('layout/manuals.pdf'));
    const chunks = await new PdfChunker(createChunker('recursive', { chunkSize: 100, chunkOverlap: 0 })).chunk(doc);
    const path = (s: string) => chunks.find((c) => c.text.includes(s))!.metadata.headingPath;
    expect(path('Choose a quay wall')).toEqual(['Tide Gauge TG-4', '1 Installing the gauge', 'Choosing a site']);
    expect(path('Spin the cups by hand')).toEqual(['Weather Mast WM-2', '2 Looking after the mast', 'Checking the anemometer']);
    expect(path('Clear the memory only after')).toEqual(['Data Logger DL-16', '2 Storing and copying readings', 'Clearing the memory']);
    // 24 subsections, 8 sections, 4 titles (before: the 24 subsections were body text, every path one level short)
    expect(doc.headings.map((h) => h.level).sort()).toEqual([...Array(4).fill(1), ...Array(8).fill(2), ...Array(24).fill(3)]);
    expect(chunks.filter((c) => c.metadata.headingPath.length === 3).length).toBeGreaterThan(chunks.length / 2);
  });

  it('a title on two lines is one heading; TeX bold (CMBX) and numbered italic (elsarticle) subsections; IEEE/APS numbering I., A.', async () => {
    const article = await extractPdf(bytes('layout/orchard-article.pdf'));
    expect(article.headings.map((h) => [h.level, h.text]).slice(0, 5)).toEqual([
      [1, 'Two Probes per Block: Irrigation Schedules that Hillside Growers Keep Using'],
      [4, 'Abstract'],
      [2, '1 Introduction'],
      [2, '2 Farms and Methods'],
      [4, '2.1 Measurements'],
    ]);
    const els = await extractPdf(bytes('layout/orchard-elsarticle.pdf'));
    expect(els.headings.filter((h) => h.text.startsWith('2')).map((h) => [h.level, h.text])).toEqual([
      [2, '2. Farms and Methods'],
      [4, '2.1. Measurements'],
      [4, '2.2. The schedule'],
    ]);
    const revtex = await extractPdf(bytes('layout/ice-revtex.pdf'));
    expect(revtex.headings.slice(2, 5).map((h) => [h.level, h.text])).toEqual([
      [2, 'II. THE OBSERVATION NETWORK'],
      [3, 'A. Recruiting observers'],
      [3, 'B. One definition for every lake'],
    ]);
  });
});

describe('the reading-order score (word pairs of pdftotext)', () => {
  it('pdftotext\'s own text scores 1; its left and right columns read line by line score less', () => {
    const truth = pdftotext(join(dir, 'report.pdf'));
    expect(readingOrderScore([truth], truth)).toMatchObject({ share: 1, misses: [] });
    expect(scoreWords('The ﬁrst gov-\nerns, (all)')).toEqual(['the', 'first', 'governs', 'all']);
    // two paragraphs' lines interleaved, as a reader without columns would take them
    const [a, b] = ['Sediment transport in lowland rivers governs the shape of the channel', 'Suspended sediment concentration was sampled with depth-integrating bottles'];
    const lines = (p: string) => p.match(/(?:\S+\s*){1,4}/g)!;
    const mixed = lines(a).flatMap((l, i) => [l, lines(b)[i] ?? '']).join('\n');
    const score = readingOrderScore([mixed], truth);
    // every line break is a pair pdftotext never has; the pairs inside lines are its own
    expect(score.misses).toEqual(['lowland suspended', 'was rivers', 'shape sampled', 'bottles of']);
    expect(score.share).toBeCloseTo(14 / 18, 10);
  });
});

describe('documents that cannot be read', () => {
  it('a scanned PDF (no text layer) is a one-line DocumentError naming OCR', async () => {
    const error = await extractPdf(bytes('scanned.pdf'), { source: 'scanned.pdf' }).catch((e) => e);
    expect(error).toBeInstanceOf(DocumentError);
    expect(error.reason).toBe('no-text');
    expect(error.message).toMatch(/scanned\.pdf.*OCR/);
    expect(error.message).not.toContain('\n');
  });

  it('an encrypted PDF without its password is a one-line DocumentError naming the password; with it, it reads', async () => {
    const error = await extractPdf(bytes('encrypted.pdf')).catch((e) => e);
    expect(error).toBeInstanceOf(DocumentError);
    expect(error.reason).toBe('password');
    expect(error.message).toMatch(/password/);
    expect((await extractPdf(bytes('encrypted.pdf'), { password: 'wrong' }).catch((e) => e)).message).toMatch(/password given is wrong/);
    expect((await extractPdf(bytes('encrypted.pdf'), { password: 'secret' })).text).toContain('read and summarise river gauge logs');
  });

  it('bytes that are not a PDF, and not bytes at all', async () => {
    expect((await extractPdf(new TextEncoder().encode('hello')).catch((e) => e)).reason).toBe('invalid');
    await expect(extractPdf('x' as unknown as Uint8Array)).rejects.toThrow(/Invalid input: a PDF as a Uint8Array/);
  });
});

describe('hostile documents fail cleanly', () => {
  const hostile = hostilePdfs();

  // the 150,000 items (11 s of pdf.js) are read once, in the next test
  it.each(Object.keys(hostile).filter((n) => !n.startsWith('150,000')))('%s: text or a one-line DocumentError naming the file, never another error', async (name) => {
    const source = `${name}.pdf`;
    const result = await extractPdf(hostile[name], { source }).then(
      (doc) => ({ pages: doc.pages.length }),
      (error) => error,
    );
    if (result instanceof Error) {
      expect(result).toBeInstanceOf(DocumentError);
      expect(result.message).toContain(JSON.stringify(source));
      expect(result.message).not.toContain('\n');
    } else expect(result.pages).toBeGreaterThanOrEqual(1);
  });

  it('what each gives: loops and truncation are invalid (naming the page), 150,000 items on one row read (main overflowed the stack)', async () => {
    const outcome = async (name: string, options = {}) =>
      extractPdf(hostile[name], { source: 'x.pdf', ...options }).then(
        (doc) => `${doc.pages.length} pages, ${doc.text.length} characters`,
        (e: DocumentError) => `${e.reason}: ${e.message}`,
      );
    expect(await outcome('page tree that loops')).toBe('invalid: Cannot read "x.pdf": page 1: the PDF is malformed (Pages tree contains circular reference.)');
    expect(await outcome('count that lies (negative)')).toBe('invalid: Cannot read "x.pdf": the PDF\'s page tree holds no pages (page count -5)');
    expect(await outcome('truncated at 60 %')).toMatch(/^invalid: .*not a PDF pdf\.js can read/);
    expect(await outcome('150,000 items on one row')).toBe('1 pages, 150000 characters');
    expect(await outcome('count that lies (a million pages, two kids)', { maxItemsPerPage: 2 })).toMatch(/^too-large: Cannot read "x\.pdf": page 1 has \d+ text items, more than maxItemsPerPage \(2\)$/);
    expect(await outcome('count that lies (a million pages, two kids)', { maxPages: 1 })).toBe('too-large: Cannot read "x.pdf": the PDF has 2 pages, more than maxPages (1)');
    await expect(extractPdf(hostile['empty file'], { maxPages: 0 })).rejects.toThrow(/Invalid option maxPages: 0/);
  });

  it('a DOCX zip bomb fails in well under a second, declared or lying about its size; the cap is an option', async () => {
    for (const [bomb, reason, detail] of [
      [zipBomb(1 << 30), 'too-large', /inflates to 1073741824 bytes by its own account, more than maxInflatedBytes \(268435456\)/],
      [zipBomb(1 << 30, true), 'invalid', /entry "word\/document\.xml" inflates past the 100 bytes it declares/],
    ] as const) {
      const started = performance.now();
      const error = await chunkDocx(bomb, { source: 'bomb.docx' }).catch((e) => e);
      expect(error).toBeInstanceOf(DocumentError);
      expect(error.reason).toBe(reason);
      expect(error.message).toMatch(detail);
      expect(error.message).toContain('"bomb.docx"');
      expect(performance.now() - started).toBeLessThan(5000); // mammoth alone ran out of memory on the 1 GiB bomb
    }
    expect((await chunkDocx(bytes('handbook.docx'), { maxInflatedBytes: 1000 }).catch((e) => e)).reason).toBe('too-large');
    await expect(chunkDocx(bytes('handbook.docx'), { maxInflatedBytes: -1 })).rejects.toThrow(/Invalid option maxInflatedBytes: -1/);
  });

  it('CLI: a folder of hostile PDFs beside good files writes every good file\'s chunks, one line per bad file, exit 1, no stack; --workers 2 the same', () => {
    const work = mkdtempSync(join(tmpdir(), 'chunkwise-hostile-'));
    copyFileSync(join(dir, 'manual.pdf'), join(work, 'a-good.pdf'));
    copyFileSync(join(dir, 'handbook.md'), join(work, 'z-good.md'));
    const names = ['page tree that loops', 'truncated at 60 %', 'count that lies (negative)', 'empty file'];
    names.forEach((n, i) => writeFileSync(join(work, `bad-${i}.pdf`), hostile[n]));
    writeFileSync(join(work, 'bomb.docx'), zipBomb(1 << 30));
    const chunk = (workers: string) => spawnSync(process.execPath, [cliBin, 'chunk', work, '--strategy', 'auto', '--chunk-size', '200', '--format', 'jsonl', '--workers', workers], { encoding: 'utf8' });
    const run = chunk('1');
    expect(run.status).toBe(1);
    // main: exit 70, "internal error" with pdf.js's stack, 5 records (the files after the page-tree loop never read)
    const errors = run.stderr.trim().split('\n');
    expect(errors).toHaveLength(names.length + 1);
    for (const line of errors) expect(line).toMatch(/^chunkwise: cannot read ".*(bad-\d\.pdf|bomb\.docx)": /);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    const sources = new Set(run.stdout.trim().split('\n').map((l) => JSON.parse(l).source.split('/').pop()));
    expect([...sources].sort()).toEqual(['a-good.pdf', 'z-good.md']);
    const two = chunk('2');
    expect([two.status, two.stdout, two.stderr]).toEqual([1, run.stdout, run.stderr]);
  });
});

describe('chunkwise/docx', () => {
  it('chunks carry the heading paths; a table split by rows labels each row with its header cells', async () => {
    const { html, chunks } = await chunkDocx(bytes('handbook.docx'), { chunkSize: 20, chunkOverlap: 0 });
    for (const c of chunks) expect(c.text).toBe(html.slice(c.start, c.end));
    expect(chunks.find((c) => c.embedText.includes('Charge the field laptop'))!.metadata.headingPath).toEqual(['Visiting a station', 'Before the visit']);
    const rows = chunks.filter((c) => c.metadata.tableRows);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.map((c) => c.embedText).join('\n')).toContain('Sensor: Turbidity sensor | Interval: 2 years | Spare kept: yes');
    for (const c of rows) expect(c.metadata.headingPath).toEqual(['Sensors', 'Replacement intervals']);
    expect(chunks.every((c) => c.metadata.documentFormat === 'docx-html')).toBe(true);
  });

  it('bytes that are not a Word file are a DocumentError', async () => {
    const error = await chunkDocx(new TextEncoder().encode('not a zip'), { source: 'x.docx' }).catch((e) => e);
    expect(error).toBeInstanceOf(DocumentError);
    expect(error.message).toMatch(/x\.docx/);
  });
});

describe('CLI', () => {
  it('chunk --strategy auto over the folder: PDF and DOCX chunks with pages and boxes; the scanned and encrypted PDFs are one line each, exit 1, the rest comes out', () => {
    const run = spawnSync(process.execPath, [cliBin, 'chunk', dir, '--strategy', 'auto', '--chunk-size', '200', '--format', 'jsonl'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    const errors = run.stderr.trim().split('\n');
    expect(errors).toHaveLength(2);
    expect(errors.find((l) => l.includes('scanned.pdf'))).toMatch(/^chunkwise: .*OCR/);
    expect(errors.find((l) => l.includes('encrypted.pdf'))).toMatch(/^chunkwise: .*password/);
    const records = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const sources = new Set(records.map((r) => r.source.split('/').pop()));
    expect([...sources].sort()).toEqual(['README.md', 'ferry.pdf', 'handbook.docx', 'handbook.md', 'ice-ieee.pdf', 'ice-revtex.pdf', 'manual.pdf', 'manuals.pdf', 'orchard-article.pdf', 'orchard-elsarticle.pdf', 'report.pdf']);
    const pdf = records.filter((r) => r.source.endsWith('report.pdf'));
    expect(pdf.every((r) => r.metadata.pages.first >= 1 && r.metadata.boxes.length > 0 && r.metadata.strategy === 'recursive')).toBe(true);
    const docx = records.filter((r) => r.source.endsWith('handbook.docx'));
    expect(docx.every((r) => r.metadata.strategy === 'html' && Array.isArray(r.metadata.headingPath))).toBe(true);
  });

  it('chunk --workers 2 over the folder gives the same records and the same two error lines as one process', () => {
    const run = (workers: string) => spawnSync(process.execPath, [cliBin, 'chunk', dir, '--strategy', 'auto', '--chunk-size', '200', '--format', 'jsonl', '--workers', workers], { encoding: 'utf8' });
    const one = run('1');
    const two = run('2');
    expect(two.status).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stdout.trim().split('\n').length).toBeGreaterThan(4);
    expect(two.stderr).toBe(one.stderr);
    expect(two.stderr.trim().split('\n')).toHaveLength(2);
  });

  it('without pdfjs-dist or mammoth installed, the CLI fails up front with one line naming the package', () => {
    const hooks = join(mkdtempSync(join(tmpdir(), 'chunkwise-nopeer-')), 'hide.mjs');
    writeFileSync(
      hooks,
      `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`export async function resolve(s, c, next) {
  if (s.startsWith('pdfjs-dist') || s === 'mammoth') { const e = new Error("Cannot find package '" + s + "'"); e.code = 'ERR_MODULE_NOT_FOUND'; throw e; }
  return next(s, c);
}\`));
`,
    );
    for (const [file, pkg] of [['manual.pdf', 'pdfjs-dist'], ['handbook.docx', 'mammoth']]) {
      const run = spawnSync(process.execPath, ['--import', pathToFileURL(hooks).href, cliBin, 'chunk', join(dir, 'handbook.md'), join(dir, file)], { encoding: 'utf8' });
      expect(run.status).not.toBe(0);
      expect(run.stdout).toBe(''); // nothing written before the error
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`npm install ${pkg}`);
    }
  });

  it('embed --sink: a PDF that turns unreadable (now a scanned one) keeps its rows, exit 1 with one line, even with --prune', () => {
    const work = mkdtempSync(join(tmpdir(), 'chunkwise-pdf-sink-'));
    const file = join(work, 'doc.pdf');
    const sink = `lancedb:${join(work, 'db')}`;
    const embed = () => spawnSync(process.execPath, [cliBin, 'embed', file, '--sink', sink, '--prune', '--summary', 'json', '--chunk-size', '200', '--chunk-overlap', '0'], { encoding: 'utf8' });
    copyFileSync(join(dir, 'manual.pdf'), file);
    const first = embed();
    expect(first.status).toBe(0);
    const rows = JSON.parse(first.stderr).rows;
    expect(rows).toBeGreaterThan(1);
    copyFileSync(join(dir, 'scanned.pdf'), file);
    const second = embed();
    expect(second.status).toBe(1);
    const [summary, error, ...rest] = second.stderr.trim().split('\n');
    expect(rest).toEqual([]);
    expect(JSON.parse(summary)).toMatchObject({ documents: 0, failed: 1, removed: 0, pruned: 0, rows });
    expect(error).toMatch(/^chunkwise: .*doc\.pdf.*OCR/);
  });

  it('embed takes a PDF', () => {
    const run = spawnSync(process.execPath, [cliBin, 'embed', join(dir, 'manual.pdf'), '--chunk-size', '200', '--chunk-overlap', '0'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const records = run.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(1);
    expect(records[0].metadata.pages).toEqual({ first: 1, last: 1 });
    expect(records.some((r) => r.embedText !== undefined)).toBe(true);
  });
});
