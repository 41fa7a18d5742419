/**
 * ChunkwiseTextSplitter against LangChain's own expectations: it is a TextSplitter and a
 * BaseDocumentTransformer (so `invoke` works), its Documents are @langchain/core
 * Documents, `loc.lines` equals what LangChain's own `TextSplitter.createDocuments`
 * computes for the same splits, and every Document carries exact offsets
 * (`pageContent === text.slice(start, end)`), the chunk id, token count, and heading
 * path / parent ids where the strategy has them. Real documents from eval/ and texts/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BaseDocumentTransformer, Document } from '@langchain/core/documents';
import { RecursiveCharacterTextSplitter, TextSplitter } from '@langchain/textsplitters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkwiseTextSplitter, lineIndex, locLines } from '../src/adapters/langchain.js';
import {
  FixedSizeChunker,
  HashingEmbedder,
  InvalidInputError,
  InvalidOptionError,
  MarkdownChunker,
  ParentChildChunker,
  RecursiveChunker,
  SemanticChunker,
  SlidingWindowChunker,
} from '../src/index.js';
import { markdownDir, texts } from './helpers/paths.js';

const english = readFileSync(texts.enSliding, 'utf8');
const dutch = readFileSync(texts.nlStrategies, 'utf8');
const chapter = readFileSync(join(markdownDir, 'ch08-02-strings.md'), 'utf8');

/** LangChain's line numbers the naive way: 1 + newlines before, + newlines inside. */
function naiveLines(text: string, start: number, end: number) {
  const from = 1 + (text.slice(0, start).match(/\n/g) ?? []).length;
  return { from, to: from + (text.slice(start, end).match(/\n/g) ?? []).length };
}

describe('a real LangChain TextSplitter', () => {
  const splitter = new ChunkwiseTextSplitter(new RecursiveChunker({ chunkSize: 64, chunkOverlap: 0 }));
  it('is a TextSplitter and a BaseDocumentTransformer with the methods LangChain calls', () => {
    expect(splitter).toBeInstanceOf(TextSplitter);
    expect(splitter).toBeInstanceOf(BaseDocumentTransformer);
    for (const m of ['splitText', 'createDocuments', 'splitDocuments', 'transformDocuments', 'invoke']) {
      expect(typeof (splitter as unknown as Record<string, unknown>)[m], m).toBe('function');
    }
    expect(ChunkwiseTextSplitter.lc_name()).toBe('ChunkwiseTextSplitter');
    expect(splitter.chunkSize).toBe(64);
    expect(splitter.chunkOverlap).toBe(0);
  });

  it('splitText gives the chunker texts; createDocuments exact offsets and LangChain loc.lines', async () => {
    const chunks = new RecursiveChunker({ chunkSize: 64, chunkOverlap: 0 }).chunk(english, { documentId: 'sliding.txt' });
    expect(await splitter.splitText(english)).toEqual(chunks.map((c) => c.text));
    const docs = await splitter.createDocuments([english], [{ source: 'sliding.txt', loc: { pageNumber: 3 } }]);
    // LangChain's own createDocuments over the same splits (it re-finds them with indexOf)
    const theirs = await TextSplitter.prototype.createDocuments.call(splitter, [english], [{ source: 'sliding.txt', loc: { pageNumber: 3 } }]);
    expect(docs.length).toBe(chunks.length);
    expect(theirs.map((d) => d.pageContent)).toEqual(docs.map((d) => d.pageContent));
    for (const [i, d] of docs.entries()) {
      expect(d).toBeInstanceOf(Document);
      const m = d.metadata;
      expect(d.pageContent).toBe(english.slice(m.start, m.end));
      expect(m).toEqual({
        source: 'sliding.txt',
        loc: { pageNumber: 3, lines: theirs[i].metadata.loc.lines },
        start: chunks[i].start,
        end: chunks[i].end,
        chunkId: chunks[i].id,
        tokenCount: chunks[i].tokenCount,
      });
      expect(m.loc.lines).toEqual(naiveLines(english, m.start, m.end));
    }
    expect(docs.at(-1)!.metadata.loc.lines.to).toBeGreaterThan(30);
  });

  it('overlapping windows (fixed, sliding): the same loc.lines as LangChain, exact offsets', async () => {
    for (const chunker of [new FixedSizeChunker({ chunkSize: 50, chunkOverlap: 10 }), new SlidingWindowChunker({ unit: 'word', windowSize: 40, stride: 25 })]) {
      const s = new ChunkwiseTextSplitter(chunker);
      const docs = await s.createDocuments([dutch]);
      const theirs = await TextSplitter.prototype.createDocuments.call(s, [dutch]);
      expect(docs.map((d) => d.metadata.loc)).toEqual(theirs.map((d) => d.metadata.loc));
      for (const d of docs) expect(d.pageContent).toBe(dutch.slice(d.metadata.start, d.metadata.end));
      expect(docs.some((d, i) => i > 0 && d.metadata.start < docs[i - 1].metadata.end)).toBe(true);
    }
  });

  it('repeated text: each copy gets its own offsets and lines', async () => {
    const text = 'Same line.\n\nSame line.\n\nSame line.\n\nSame line.';
    const s = new ChunkwiseTextSplitter(new RecursiveChunker({ unit: 'word', chunkSize: 2, chunkOverlap: 0 }));
    const docs = await s.createDocuments([text]);
    expect(docs.map((d) => [d.metadata.start, d.metadata.end, d.metadata.loc.lines.from, d.metadata.loc.lines.to])).toEqual([
      [0, 10, 1, 1],
      [12, 22, 3, 3],
      [24, 34, 5, 5],
      [36, 46, 7, 7],
    ]);
  });

  it('splitDocuments, transformDocuments and invoke keep each input document apart and its metadata', async () => {
    const inputs = [
      new Document({ pageContent: english, metadata: { source: 'en.txt', loc: { pageNumber: 1 } } }),
      new Document({ pageContent: dutch, metadata: { source: 'nl.txt', lang: 'nl' } }),
    ];
    const split = await splitter.splitDocuments(inputs);
    expect(await splitter.transformDocuments(inputs)).toEqual(split);
    expect(await splitter.invoke(inputs)).toEqual(split);
    expect(split).toEqual(await splitter.createDocuments([english, dutch], [inputs[0].metadata, inputs[1].metadata]));
    const nl = split.filter((d) => d.metadata.source === 'nl.txt');
    expect(nl.length).toBe(new RecursiveChunker({ chunkSize: 64, chunkOverlap: 0 }).chunk(dutch).length);
    for (const d of nl) {
      expect(d.metadata.lang).toBe('nl');
      expect(d.pageContent).toBe(dutch.slice(d.metadata.start, d.metadata.end));
    }
    expect(inputs[0].metadata).toEqual({ source: 'en.txt', loc: { pageNumber: 1 } }); // inputs untouched
  });

  it('chunk headers as in LangChain', async () => {
    const docs = await splitter.createDocuments([english], [], { chunkHeader: 'DOC: ', appendChunkOverlapHeader: true });
    const theirs = await TextSplitter.prototype.createDocuments.call(splitter, [english], [], { chunkHeader: 'DOC: ', appendChunkOverlapHeader: true });
    expect(docs.map((d) => d.pageContent)).toEqual(theirs.map((d) => d.pageContent));
    expect(docs[1].pageContent.startsWith("DOC: (cont'd) ")).toBe(true);
  });

  it('loc.lines equals the naive count for any text (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b c', '\n', '\n\n', '\r\n', '😀', ' '), { maxLength: 60 }), fc.nat(), fc.nat(), (parts, x, y) => {
        const text = parts.join('');
        const a = text.length ? x % (text.length + 1) : 0;
        const b = text.length ? y % (text.length + 1) : 0;
        const [start, end] = a <= b ? [a, b] : [b, a];
        expect(locLines(lineIndex(text), start, end)).toEqual(naiveLines(text, start, end));
      }),
    );
  });
});

describe('built from a strategy name and options', () => {
  it('markdown: heading paths in the metadata, exact offsets', async () => {
    const s = new ChunkwiseTextSplitter('markdown', { chunkSize: 120 });
    const chunks = new MarkdownChunker({ chunkSize: 120 }).chunk(chapter);
    const docs = await s.createDocuments([chapter], [{ source: 'ch08-02-strings.md' }]);
    expect(docs.length).toBe(chunks.length);
    for (const [i, d] of docs.entries()) {
      expect(d.pageContent).toBe(chapter.slice(d.metadata.start, d.metadata.end));
      expect(d.metadata.headingPath).toEqual(chunks[i].metadata.headingPath);
      expect(d.metadata.loc.lines).toEqual(naiveLines(chapter, d.metadata.start, d.metadata.end));
    }
    expect(docs.find((d) => d.pageContent.startsWith('#### Appending with'))!.metadata.headingPath).toEqual([
      'Storing UTF-8 Encoded Text with Strings',
      'Updating a String',
      'Appending with push_str or push',
    ]);
  });

  it('parent-child: parents and children with level and parentId', async () => {
    const s = new ChunkwiseTextSplitter(new ParentChildChunker({ parentSize: 400, childSize: 80, childOverlap: 10 }));
    const docs = await s.createDocuments([chapter]);
    const parents = docs.filter((d) => d.metadata.level === 'parent');
    const children = docs.filter((d) => d.metadata.level === 'child');
    expect(parents.length).toBeGreaterThan(2);
    expect(children.length).toBeGreaterThan(parents.length);
    const byId = new Map(parents.map((p) => [p.metadata.chunkId, p]));
    for (const c of children) {
      const p = byId.get(c.metadata.parentId)!;
      expect(p.metadata.start).toBeLessThanOrEqual(c.metadata.start);
      expect(c.metadata.end).toBeLessThanOrEqual(p.metadata.end);
      expect(c.pageContent).toBe(chapter.slice(c.metadata.start, c.metadata.end));
    }
    for (const d of docs) expect(d.metadata.loc.lines).toEqual(naiveLines(chapter, d.metadata.start, d.metadata.end));
    // LangChain's own createDocuments re-finds each text after the previous one's start, so a
    // first child (which starts where its parent does) is looked for too late: its lines drift.
    const theirs = await TextSplitter.prototype.createDocuments.call(s, [chapter]);
    const drifted = theirs.filter((d, i) => d.metadata.loc.lines.from !== docs[i].metadata.loc.lines.from);
    expect(drifted.length).toBeGreaterThan(0);
  });

  it('an async chunker (semantic) works through splitText and createDocuments', async () => {
    const embedder = new HashingEmbedder();
    const s = new ChunkwiseTextSplitter('semantic', { embedder, maxChunkSize: 200 });
    const expected = await new SemanticChunker({ embedder, maxChunkSize: 200 }).chunk(english);
    expect(expected.length).toBeGreaterThan(3);
    expect(await s.splitText(english)).toEqual(expected.map((c) => c.text));
    const docs = await s.createDocuments([english]);
    expect(docs.map((d) => [d.metadata.start, d.metadata.end])).toEqual(expected.map((c) => [c.start, c.end]));
  });

  it('matches LangChain RecursiveCharacterTextSplitter texts where chunkwise claims to (LangChain separators, char budget)', async () => {
    const ours = new ChunkwiseTextSplitter('recursive', { unit: 'char', chunkSize: 200, chunkOverlap: 0, separators: ['\n\n', '\n', ' ', ''] });
    const theirs = new RecursiveCharacterTextSplitter({ chunkSize: 200, chunkOverlap: 0 });
    expect(await ours.splitText(english)).toEqual(await theirs.splitText(english));
  });
});

describe('bad input', () => {
  it('typed errors naming the value', async () => {
    expect(() => new ChunkwiseTextSplitter(42 as never)).toThrow(InvalidOptionError);
    expect(() => new ChunkwiseTextSplitter('nope')).toThrow(/Invalid option strategy: "nope"/);
    expect(() => new ChunkwiseTextSplitter('fixed', { chunkSize: 0 })).toThrow(InvalidOptionError);
    expect(() => new ChunkwiseTextSplitter(new RecursiveChunker(), { chunkSize: 5 })).toThrow(/strategy options go with a strategy name/);
    const s = new ChunkwiseTextSplitter('fixed', { chunkSize: 50, chunkOverlap: 0 });
    await expect(s.splitText(123 as never)).rejects.toThrow(InvalidInputError);
    await expect(s.createDocuments(['ok', null as never])).rejects.toThrow(/texts\[1\] must be a string, got null/);
    expect(await s.createDocuments([''])).toEqual([]);
  });
});
