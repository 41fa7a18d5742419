/**
 * What the frameworks embed through the adapters: the chunk's `embedText` (visible HTML
 * text, labelled table rows), checked with the frameworks' own machinery — LangChain's
 * in-memory vector store over a recording Embeddings class, LlamaIndex's
 * `node.getContent(MetadataMode.EMBED)` and its `VectorStoreIndex` over a recording
 * embed model — not only with our functions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document as LcDocument } from '@langchain/core/documents';
import { Embeddings } from '@langchain/core/embeddings';
import { FakeVectorStore } from '@langchain/core/utils/testing';
import { BaseEmbedding } from '@llamaindex/core/embeddings';
import { Document, MetadataMode, TextNode } from '@llamaindex/core/schema';
import { Settings, VectorStoreIndex } from 'llamaindex';
import { describe, expect, it } from 'vitest';
import { HtmlChunker, InvalidOptionError, MarkdownChunker } from '../src/index.js';
import { ChunkwiseTextSplitter } from '../src/adapters/langchain.js';
import { ChunkwiseNodeParser } from '../src/adapters/llamaindex.js';
import { repoRoot } from './helpers/paths.js';

/** A deterministic vector from a text's character bigrams (no model, no network): equal texts, cosine 1. */
function vectorOf(text: string): number[] {
  const v = new Array<number>(256).fill(0);
  v[0] = 1e-3;
  for (let i = 1; i < text.length; i++) v[(text.charCodeAt(i - 1) * 31 + text.charCodeAt(i)) % 256] += 1;
  return v;
}

/** LangChain Embeddings that records every text it is asked to embed. */
class RecordingEmbeddings extends Embeddings {
  texts: string[] = [];
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.texts.push(...texts);
    return texts.map(vectorOf);
  }
  async embedQuery(text: string): Promise<number[]> {
    return vectorOf(text);
  }
}

/** A LlamaIndex embed model that records every text it is asked to embed. */
class RecordingEmbedModel extends BaseEmbedding {
  texts: string[] = [];
  constructor() {
    super();
  }
  async getTextEmbedding(text: string): Promise<number[]> {
    this.texts.push(text);
    return vectorOf(text);
  }
}

const TAG = /<\/?[a-z][a-z0-9]*[\s>/]/i;
const page = readFileSync(join(repoRoot, 'test', 'golden', 'html', 'docs-page.html'), 'utf8');
const rows = Array.from({ length: 80 }, (_, i) => `| fruit${i} | ${i * 3} | shelf ${i % 7} |`).join('\n');
const table = `# Stock\n\nThe stock list.\n\n| name | count | where |\n|---|---|---|\n${rows}\n`;
/** A row's labelled form in embedText. */
const labelled = (i: number) => `name: fruit${i} | count: ${i * 3} | where: shelf ${i % 7}`;

/** Every fruit row appears labelled in some text, and no text has a bare row. */
function expectLabelledRows(texts: string[]): void {
  const rowTexts = texts.filter((t) => t.includes('fruit'));
  expect(rowTexts.length).toBeGreaterThan(3); // the table is cut into parts
  for (let i = 0; i < 80; i++) expect(rowTexts.some((t) => t.includes(labelled(i))), `row ${i}`).toBe(true);
  for (const t of rowTexts) expect(t).not.toMatch(/^\| fruit/m);
}

describe('LangChain: what a vector store embeds is embedText', () => {
  it('an HTML page: no tags reach the embeddings; <p>Hello World</p> embeds "Hello World"', async () => {
    const embeddings = new RecordingEmbeddings();
    const store = new FakeVectorStore(embeddings);
    const splitter = new ChunkwiseTextSplitter(new HtmlChunker({ chunkSize: 128 }));
    const docs = await splitter.splitDocuments([new LcDocument({ pageContent: page, metadata: { source: 'docs-page.html' } })]);
    await store.addDocuments(docs);
    const chunks = new HtmlChunker({ chunkSize: 128 }).chunk(page, { documentId: 'docs-page.html' });
    expect(embeddings.texts).toEqual(chunks.map((c) => c.embedText));
    expect(embeddings.texts.length).toBeGreaterThan(3);
    for (const t of embeddings.texts) expect(t).not.toMatch(TAG);
    expect(page).toMatch(TAG);
    // the raw slice stays reachable through the offsets in the metadata
    for (const [i, d] of docs.entries()) {
      expect(page.slice(d.metadata.start, d.metadata.end)).toBe(chunks[i].text);
      expect(d.metadata.chunkId).toBe(chunks[i].id);
    }
    const hello = new RecordingEmbeddings();
    await new FakeVectorStore(hello).addDocuments(await new ChunkwiseTextSplitter(new HtmlChunker()).createDocuments(['<p>Hello World</p>']));
    expect(hello.texts).toEqual(['Hello World']);
  });

  it('a long Markdown table: every row reaches the embeddings with its header labels', async () => {
    const embeddings = new RecordingEmbeddings();
    const docs = await new ChunkwiseTextSplitter('markdown', { chunkSize: 96 }).createDocuments([table]);
    await new FakeVectorStore(embeddings).addDocuments(docs);
    expectLabelledRows(embeddings.texts);
  });

  it("content: 'text' hands over the exact slice; a bad content value is an InvalidOptionError", async () => {
    const embeddings = new RecordingEmbeddings();
    const splitter = new ChunkwiseTextSplitter(new HtmlChunker(), undefined, { content: 'text' });
    await new FakeVectorStore(embeddings).addDocuments(await splitter.createDocuments(['<p>Hello World</p>']));
    expect(embeddings.texts).toEqual(['<p>Hello World</p>']);
    expect(await splitter.splitText('<p>Hello World</p>')).toEqual(['<p>Hello World</p>']);
    expect(() => new ChunkwiseTextSplitter(new HtmlChunker(), undefined, { content: 'raw' as never })).toThrow(InvalidOptionError);
    expect(() => new ChunkwiseTextSplitter(new HtmlChunker(), undefined, { contents: 'text' } as never)).toThrow(/content/);
  });
});

describe('LlamaIndex: what a node embeds is embedText', () => {
  it('<p>Hello World</p>: the embed content is "Hello World", no tags and no empty headingPath label', async () => {
    const [node] = await new ChunkwiseNodeParser(new HtmlChunker()).getNodesFromDocuments([new Document({ text: '<p>Hello World</p>', id_: 'hello.html' })]);
    expect(node.getContent(MetadataMode.EMBED)).toBe('Hello World');
    expect(node.getContent(MetadataMode.LLM)).toBe('Hello World');
    expect([node.startCharIdx, node.endCharIdx]).toEqual([0, 18]);
    const [raw] = await new ChunkwiseNodeParser(new HtmlChunker(), { content: 'text' }).getNodesFromDocuments([new Document({ text: '<p>Hello World</p>', id_: 'hello.html' })]);
    expect(raw.getContent(MetadataMode.EMBED)).toBe('<p>Hello World</p>');
    expect(() => new ChunkwiseNodeParser(new HtmlChunker(), { content: 1 as never })).toThrow(InvalidOptionError);
  });

  it('an HTML page and a long table: getContent(EMBED) holds no tags and labelled rows; node ids are the chunk ids', async () => {
    const parser = new ChunkwiseNodeParser(new HtmlChunker({ chunkSize: 128 }));
    const nodes = await parser.getNodesFromDocuments([new Document({ text: page, id_: 'docs-page.html' })]);
    const chunks = new HtmlChunker({ chunkSize: 128 }).chunk(page, { documentId: 'docs-page.html' });
    expect(nodes.map((n) => n.id_)).toEqual(chunks.map((c) => c.id));
    for (const n of nodes) {
      const embed = n.getContent(MetadataMode.EMBED);
      expect(embed).not.toMatch(TAG);
      expect(embed).not.toMatch(/^headingPath: *$/m);
    }
    const md = await new ChunkwiseNodeParser(new MarkdownChunker({ chunkSize: 96 })).getNodesFromDocuments([new Document({ text: table, id_: 'stock.md' })]);
    expectLabelledRows(md.map((n) => n.getContent(MetadataMode.EMBED)));
  });

  it('contextual headers: the heading path is embedded once', async () => {
    const text = '# Guide\n\n## Install\n\nRun npm install.';
    const [node] = await new ChunkwiseNodeParser(new MarkdownChunker({ chunkSize: 64, contextualHeaders: true })).getNodesFromDocuments([new Document({ text, id_: 'g.md' })]);
    expect(node.getContent(MetadataMode.EMBED)).toBe('Guide > Install\n\n' + text);
    const [plain] = await new ChunkwiseNodeParser(new MarkdownChunker({ chunkSize: 64 })).getNodesFromDocuments([new Document({ text, id_: 'g.md' })]);
    expect(plain.getContent(MetadataMode.EMBED)).toBe('headingPath: Guide,Install\n\n' + text);
  });

  it('an edited document keeps the node ids of the chunks whose text did not change', async () => {
    const sections = Array.from({ length: 6 }, (_, i) => `# Part ${i}\n\nParagraph ${i} says something of its own.`);
    const parser = new ChunkwiseNodeParser(new MarkdownChunker({ chunkSize: 16 }));
    const before = await parser.getNodesFromDocuments([new Document({ text: sections.join('\n\n'), id_: 'parts.md' })]);
    const edited = ['# Part 0\n\nParagraph zero, now rewritten.', ...sections.slice(1)].join('\n\n');
    const after = await parser.getNodesFromDocuments([new Document({ text: edited, id_: 'parts.md' })]);
    expect(before.length).toBe(6);
    expect(after.slice(1).map((n) => n.id_)).toEqual(before.slice(1).map((n) => n.id_));
    expect(after[0].id_).not.toBe(before[0].id_);
  });

  it('VectorStoreIndex over the parser\'s nodes (the documented route): embeds embedText, stores the chunk ids', async () => {
    const embedModel = new RecordingEmbedModel();
    await Settings.withEmbedModel(embedModel, async () => {
      const parser = new ChunkwiseNodeParser(new HtmlChunker({ chunkSize: 128 }));
      const docs = [new Document({ text: page, id_: 'docs-page.html' })];
      const nodes = await parser.getNodesFromDocuments(docs);
      const index = await VectorStoreIndex.init({ nodes });
      const chunks = new HtmlChunker({ chunkSize: 128 }).chunk(page, { documentId: 'docs-page.html' });
      expect(embedModel.texts).toEqual(nodes.map((n) => n.getContent(MetadataMode.EMBED)));
      for (const t of embedModel.texts) expect(t).not.toMatch(TAG);
      const stored = await index.docStore.getAllRefDocInfo();
      expect(Object.keys(stored ?? {})).toEqual(['docs-page.html']);
      expect([...(stored!['docs-page.html'].nodeIds)].sort()).toEqual(chunks.map((c) => c.id).sort());
      const hits = await index.asRetriever({ similarityTopK: 1 }).retrieve({ query: embedModel.texts[2] });
      expect(hits[0].node).toBeInstanceOf(TextNode);
      expect(hits[0].node.id_).toBe(chunks[2].id);
    });
  });
});
