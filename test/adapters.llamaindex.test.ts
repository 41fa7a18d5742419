/**
 * ChunkwiseNodeParser against LlamaIndex.TS's own expectations: a NodeParser (as the
 * `llamaindex` package exports it), `TextNode`s of the classes `llamaindex` users
 * import, exact `startCharIdx`/`endCharIdx`, SOURCE / PREVIOUS / NEXT relationships
 * within a document, PARENT / CHILD for parent–child, metadata kept and bookkeeping
 * keys out of the embed text, and a run through LlamaIndex's own IngestionPipeline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeParser as CoreNodeParser } from '@llamaindex/core/node-parser';
import { Document, IngestionPipeline, MetadataMode, NodeParser, NodeRelationship, SentenceSplitter, TextNode } from 'llamaindex';
import { describe, expect, it } from 'vitest';
import { ChunkwiseNodeParser } from '../src/adapters/llamaindex.js';
import { HashingEmbedder, InvalidInputError, InvalidOptionError, MarkdownChunker, ParentChildChunker, RecursiveChunker } from '../src/index.js';
import { markdownDir, texts } from './helpers/paths.js';

const english = readFileSync(texts.enSliding, 'utf8');
const french = readFileSync(texts.frSliding, 'utf8');
const chapter = readFileSync(join(markdownDir, 'ch09-02-recoverable-errors-with-result.md'), 'utf8');

describe('a LlamaIndex NodeParser', () => {
  const chunker = new RecursiveChunker({ chunkSize: 64, chunkOverlap: 0 });
  const parser = new ChunkwiseNodeParser(chunker);
  const docs = [
    new Document({ text: english, id_: 'en', metadata: { file: 'sliding.txt' }, excludedLlmMetadataKeys: ['file'] }),
    new Document({ text: french, id_: 'fr', metadata: { file: 'glissante.txt', lang: 'fr' } }),
  ];

  it('is the NodeParser of llamaindex and @llamaindex/core, and a callable transformation', () => {
    expect(NodeParser).toBe(CoreNodeParser);
    expect(parser).toBeInstanceOf(NodeParser);
    expect(typeof parser).toBe('function'); // LlamaIndex transformations are callable
    expect(typeof parser.getNodesFromDocuments).toBe('function');
  });

  it('TextNodes with exact offsets, the document metadata, and previous/next within each document', async () => {
    const nodes = await parser.getNodesFromDocuments(docs);
    const en = chunker.chunk(english, { documentId: 'en' });
    const fr = chunker.chunk(french, { documentId: 'fr' });
    expect(nodes.length).toBe(en.length + fr.length);
    for (const [d, chunks] of [[docs[0], en], [docs[1], fr]] as const) {
      const mine = nodes.filter((n) => n.sourceNode?.nodeId === d.id_);
      expect(mine.length).toBe(chunks.length);
      for (const [i, n] of mine.entries()) {
        expect(n).toBeInstanceOf(TextNode);
        expect(n.text).toBe(d.text.slice(n.startCharIdx, n.endCharIdx));
        expect([n.startCharIdx, n.endCharIdx]).toEqual([chunks[i].start, chunks[i].end]);
        expect(n.id_).toBe(chunks[i].id);
        expect(n.metadata).toEqual({ ...d.metadata, chunkId: chunks[i].id, tokenCount: chunks[i].tokenCount });
        expect(n.prevNode?.nodeId).toBe(i > 0 ? mine[i - 1].id_ : undefined);
        expect(n.nextNode?.nodeId).toBe(i < mine.length - 1 ? mine[i + 1].id_ : undefined);
        expect(n.getNodeInfo()).toEqual({ start: chunks[i].start, end: chunks[i].end });
        // bookkeeping stays out of what LlamaIndex embeds; the document's exclusions are kept
        expect(n.getContent(MetadataMode.EMBED)).not.toContain('chunkId');
        expect(n.getContent(MetadataMode.EMBED)).toContain(`file: ${d.metadata.file}`);
        if (d.id_ === 'en') expect(n.getContent(MetadataMode.LLM)).not.toContain('file:');
        expect(n.getContent(MetadataMode.NONE)).toBe(chunks[i].text);
      }
    }
  });

  it('runs in an IngestionPipeline as a transformation', async () => {
    const pipeline = new IngestionPipeline({ transformations: [parser] });
    const nodes = await pipeline.run({ documents: docs });
    expect(nodes.map((n) => (n as TextNode).text)).toEqual((await parser.getNodesFromDocuments(docs)).map((n) => n.text));
    for (const n of nodes as TextNode[]) {
      const d = docs.find((x) => x.id_ === n.sourceNode!.nodeId)!;
      expect(n.text).toBe(d.text.slice(n.startCharIdx, n.endCharIdx));
    }
  });

  it('repeated text keeps each copy at its own offset (LlamaIndex re-finds splits with indexOf)', async () => {
    const p = 'The sliding window moves by a fixed stride over the tokens of the text, and every window it visits becomes one chunk of the document that the retriever can later return to the model.';
    const text = [p, p, p].join('\n\n');
    const doc = new Document({ text, id_: 'r' });
    const nodes = await new ChunkwiseNodeParser('recursive', { strategy: { chunkSize: 60, chunkOverlap: 0 } }).getNodesFromDocuments([doc]);
    const at = (k: number) => [k * (p.length + 2), k * (p.length + 2) + p.length];
    expect(nodes.map((n) => [n.startCharIdx, n.endCharIdx])).toEqual([at(0), at(1), at(2)]);
    expect(new Set(nodes.map((n) => n.id_)).size).toBe(3);
    // LlamaIndex's own SentenceSplitter cuts the same three paragraphs but places all at the first copy
    const theirs = await new SentenceSplitter({ chunkSize: 60, chunkOverlap: 0 }).getNodesFromDocuments([doc]);
    expect(theirs.map((n) => n.text)).toEqual(nodes.map((n) => n.text));
    expect(theirs.map((n) => [n.startCharIdx, n.endCharIdx])).toEqual([at(0), at(0), at(0)]);
  });

  it('includeMetadata and includePrevNextRel switch off as on other LlamaIndex parsers', async () => {
    const p = new ChunkwiseNodeParser(chunker);
    p.includeMetadata = false;
    p.includePrevNextRel = false;
    const [n] = await p.getNodesFromDocuments([docs[1]]);
    expect(n.metadata.file).toBeUndefined();
    expect(n.relationships[NodeRelationship.NEXT]).toBeUndefined();
    expect(n.sourceNode?.nodeId).toBe('fr');
  });
});

describe('strategies with structure', () => {
  it('markdown: heading paths in metadata (and in the embed text)', async () => {
    const parser = new ChunkwiseNodeParser('markdown', { strategy: { chunkSize: 150 } });
    const nodes = await parser.getNodesFromDocuments([new Document({ text: chapter, id_: 'ch9' })]);
    const chunks = new MarkdownChunker({ chunkSize: 150 }).chunk(chapter);
    expect(nodes.map((n) => n.metadata.headingPath)).toEqual(chunks.map((c) => c.metadata.headingPath));
    for (const n of nodes) expect(n.text).toBe(chapter.slice(n.startCharIdx, n.endCharIdx));
    expect(nodes[3].getContent(MetadataMode.EMBED)).toContain('headingPath');
  });

  it('parent-child: PARENT on children, CHILD lists on parents, previous/next per level', async () => {
    const pc = new ParentChildChunker({ parentSize: 400, childSize: 80, childOverlap: 10 });
    const nodes = await new ChunkwiseNodeParser(pc).getNodesFromDocuments([new Document({ text: chapter, id_: 'ch9' })]);
    const { parents, children } = pc.split(chapter);
    const byId = new Map(nodes.map((n) => [n.id_, n]));
    const parentNodes = nodes.filter((n) => n.metadata.level === 'parent');
    const childNodes = nodes.filter((n) => n.metadata.level === 'child');
    expect(parentNodes.length).toBe(parents.length);
    expect(childNodes.length).toBe(children.length);
    for (const c of childNodes) {
      const p = byId.get(c.parentNode!.nodeId)!;
      expect(p.metadata.level).toBe('parent');
      expect(p.metadata.chunkId).toBe(c.metadata.parentId);
      expect(p.startCharIdx!).toBeLessThanOrEqual(c.startCharIdx!);
      expect(c.endCharIdx!).toBeLessThanOrEqual(p.endCharIdx!);
      expect(p.childNodes!.map((r) => r.nodeId)).toContain(c.id_);
      if (c.prevNode) expect(byId.get(c.prevNode.nodeId)!.metadata.level).toBe('child');
    }
    for (const [i, p] of parentNodes.entries()) {
      expect(p.childNodes!.length).toBe(children.filter((c) => c.metadata.parentId === parents[i].id).length);
      expect(p.prevNode?.nodeId).toBe(i > 0 ? parentNodes[i - 1].id_ : undefined);
    }
  });

  it('an async chunker (semantic) gives the same offsets', async () => {
    const embedder = new HashingEmbedder();
    const parser = new ChunkwiseNodeParser('semantic', { strategy: { embedder, maxChunkSize: 200 } });
    const nodes = await parser.getNodesFromDocuments([new Document({ text: english, id_: 's' })]);
    expect(nodes.length).toBeGreaterThan(3);
    for (const n of nodes) expect(n.text).toBe(english.slice(n.startCharIdx, n.endCharIdx));
  });
});

describe('bad input', () => {
  it('typed errors', async () => {
    expect(() => new ChunkwiseNodeParser({} as never)).toThrow(InvalidOptionError);
    expect(() => new ChunkwiseNodeParser('nope')).toThrow(/Invalid option strategy: "nope"/);
    const parser = new ChunkwiseNodeParser('fixed', { strategy: { chunkSize: 20, chunkOverlap: 0 } });
    await expect(parser.getNodesFromDocuments([{ text: 'not a Document', id_: 'b' } as never])).rejects.toThrow(InvalidInputError);
    expect(await parser.getNodesFromDocuments([new Document({ text: '  ', id_: 'e' })])).toEqual([]);
  });
});
