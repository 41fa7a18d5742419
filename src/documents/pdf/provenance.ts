/**
 * Provenance of `chunkwise/pdf`'s chunks: {@link PdfChunker} runs any chunker on a PDF's
 * document text section by section and gives each chunk its pages, glyph boxes, heading
 * path and the furniture left out of its `embedText`.
 * @module
 */
import type { Chunk } from '../../engine/chunk.js';
import type { Chunker } from '../../engine/chunker.js';
import { ContentIds, documentIdOf, type ChunkCallOptions } from '../../engine/ids.js';
import { headingPathAt } from './headings.js';
import type { PdfBox, PdfDocumentText } from './types.js';

/** The metadata {@link PdfChunker} adds to each chunk. */
export interface PdfChunkMetadata {
  /** The pages the chunk's text lies on, 1-based, inclusive. */
  pages: { first: number; last: number };
  /** Boxes of the chunk's glyphs: per page, one per run of lines of one column. */
  boxes: PdfBox[];
  /** The inferred headings above the chunk, outermost first. */
  headingPath: string[];
  /** Headers and footers inside the chunk (a paragraph running over a page), left out of `embedText`. */
  furniture?: { page: number; kind: 'header' | 'footer'; text: string }[];
}

/** A chunk made by {@link PdfChunker}. */
export type PdfChunk = Chunk & { metadata: Chunk['metadata'] & PdfChunkMetadata };

/**
 * Binary search: the first index in `items` (sorted by `end`) whose `end` is > `offset`.
 */
function firstEndingAfter(items: readonly { end: number }[], offset: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The boxes of the glyphs in `[start, end)` of the document text: the glyphs' extent per
 * line (glyph positions within a run by even division of its advance), merged down a
 * column while lines follow each other on one page in one column and band.
 */
export function pdfBoxes(doc: PdfDocumentText, start: number, end: number): PdfBox[] {
  const boxes: (PdfBox & { key: string })[] = [];
  let li = firstEndingAfter(doc.lines, start);
  let ri = firstEndingAfter(doc.runs, start);
  for (; li < doc.lines.length && doc.lines[li].start < end; li++) {
    const line = doc.lines[li];
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (; ri < doc.runs.length && doc.runs[ri].start < Math.min(end, line.end); ri++) {
      const r = doc.runs[ri];
      const a = Math.max(start, r.start);
      const b = Math.min(end, r.end);
      if (b <= a) continue;
      const per = (r.box.x1 - r.box.x0) / Math.max(1, r.end - r.start);
      x0 = Math.min(x0, r.box.x0 + (a - r.start) * per);
      x1 = Math.max(x1, r.box.x0 + (b - r.start) * per);
      y0 = Math.min(y0, r.box.y0);
      y1 = Math.max(y1, r.box.y1);
    }
    if (ri > 0 && doc.runs[ri - 1].end > Math.min(end, line.end)) ri--;
    if (x0 > x1) continue;
    const key = `${line.box.page}|${line.column}|${line.band}`;
    const last = boxes[boxes.length - 1];
    if (last && last.key === key && y0 - last.y1 < 2 * (y1 - y0)) {
      last.x0 = Math.min(last.x0, x0);
      last.x1 = Math.max(last.x1, x1);
      last.y0 = Math.min(last.y0, y0);
      last.y1 = Math.max(last.y1, y1);
    } else boxes.push({ page: line.box.page, x0, y0, x1, y1, key });
  }
  return boxes.map(({ page, x0, y0, x1, y1 }) => ({ page, x0, y0, x1, y1 }));
}

/**
 * `text` with the ranges in `drop` (offsets relative to `text`) left out and hyphenated
 * line ends re-joined (`gov-\nerns` → `governs`: a letter, `-`, a line break, a lower-case
 * letter).
 */
function embedTextOf(text: string, drop: { start: number; end: number }[]): string {
  let out = '';
  let at = 0;
  for (const d of drop) {
    out += text.slice(at, Math.max(at, d.start));
    at = Math.max(at, d.end);
  }
  out += text.slice(at);
  return out
    .replace(/(\p{L})-\n+(?=\p{Ll})/gu, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Chunks a PDF's document text with any chunker (a strategy from `createChunker`, a
 * `RecursiveChunker` …), section by section ({@link PdfDocumentText.sections}), so that no
 * chunk crosses a page break unless a paragraph runs over it, and adds provenance:
 * - `start`/`end` are offsets into `doc.text` (`text === doc.text.slice(start, end)`);
 *   `id` and `index` are recomputed over the whole document (ids as every strategy's:
 *   `<hash of doc.text up to end>:<start>-<end>`);
 * - `metadata.pages` `{ first, last }`, `metadata.boxes` (see {@link pdfBoxes}),
 *   `metadata.headingPath` (headings inferred from font size and weight);
 * - `embedText`: the text without page headers and footers, hyphenated line ends joined
 *   (set where it differs from `text`). The chunker's own `embedText` is replaced.
 */
export class PdfChunker {
  constructor(readonly chunker: Chunker) {}

  /**
   * @param doc what {@link extractPdf} returned
   * @throws whatever the chunker throws
   */
  async chunk(doc: PdfDocumentText, options?: ChunkCallOptions): Promise<PdfChunk[]> {
    const out: PdfChunk[] = [];
    const ids = new ContentIds(documentIdOf(options));
    for (const section of doc.sections) {
      const slice = doc.text.slice(section.start, section.end);
      for (const c of await this.chunker.chunk(slice)) {
        const start = c.start + section.start;
        const end = c.end + section.start;
        out.push(this.#provenance(doc, c, start, end, out.length, ids));
      }
    }
    return out;
  }

  #provenance(doc: PdfDocumentText, c: Chunk, start: number, end: number, index: number, ids: ContentIds): PdfChunk {
    const text = doc.text.slice(start, end);
    const boxes = pdfBoxes(doc, start, end);
    const pageNumbers = boxes.map((b) => b.page);
    const inside = doc.furniture.filter((f) => f.start < end && f.end > start);
    const embedText = embedTextOf(
      text,
      inside.map((f) => ({ start: Math.max(0, f.start - start), end: Math.min(text.length, f.end - start) })),
    );
    const chunk: PdfChunk = {
      ...c,
      id: ids.id(text, embedText),
      index,
      text,
      start,
      end,
      metadata: {
        ...c.metadata,
        pages: { first: Math.min(...pageNumbers), last: Math.max(...pageNumbers) },
        boxes,
        headingPath: headingPathAt(doc.headings, start + (text.length - text.trimStart().length)),
        ...(inside.length ? { furniture: inside.map((f) => ({ page: f.page, kind: f.kind, text: f.text })) } : {}),
      },
    };
    delete chunk.embedText;
    if (embedText !== text) chunk.embedText = embedText;
    return chunk;
  }
}
