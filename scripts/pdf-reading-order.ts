/**
 * Reading order of real PDFs nobody here wrote, scored as test/pdf.test.ts scores the
 * fixtures: the share of adjacent word pairs inside recursive chunks (256 tokens, their
 * embedText) that are adjacent word pairs of poppler's `pdftotext` text of the same file.
 * Default set: documentation PDFs Debian's texlive-doc packages install (one- and
 * two-column, slides, a code listing, a legal text with sentence numbers); or give files.
 *
 *   npx tsx scripts/pdf-reading-order.ts [file.pdf …]      (MISS=20 prints the first misses)
 */
import { existsSync, readFileSync } from 'node:fs';
import { PdfChunker, extractPdf } from '../src/documents/pdf.js';
import { createChunker } from '../src/index.js';
import { pdftotext, readingOrderScore } from '../test/helpers/reading-order.js';

const DOC = '/usr/share/doc/texlive-doc';
const DEFAULT = [
  'latex/koma-script/examples/scrjura-example-en.pdf',
  'latex/ifplatform/ifplatform.pdf',
  'bibtex/base/btxdoc.pdf',
  'latex/mflogo/mflogo.pdf',
  'generic/iftex/iftex.pdf',
  'dvipdfmx/tug2005.pdf',
  'support/makeindex/ind.pdf',
  'pdftex/samplepdftex/samplepdf.pdf',
  'generic/enctex/encdoc-e.pdf',
  'latex/koma-script/examples/scrlayer-notecolumn-example-en.pdf',
].map((f) => `${DOC}/${f}`);

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT.filter((f) => existsSync(f));
const misses = Number(process.env.MISS ?? 0);
console.log('| file | pages | word pairs | share of pdftotext pairs |\n| --- | --- | --- | --- |');
for (const file of files) {
  const doc = await extractPdf(new Uint8Array(readFileSync(file)), { source: file });
  const chunks = await new PdfChunker(createChunker('recursive', { chunkSize: 256 })).chunk(doc);
  const score = readingOrderScore(
    chunks.map((c) => c.embedText ?? c.text),
    pdftotext(file),
  );
  console.log(`| ${file.split('/').pop()} | ${doc.pages.length} | ${score.pairs} | ${(score.share * 100).toFixed(1)} % |`);
  if (misses > 0) console.log(`  misses: ${score.misses.slice(0, misses).join(' | ')}`);
}
