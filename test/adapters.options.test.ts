/**
 * One option shape for both framework adapters (issue 38): `{ strategy, content }` is the
 * second argument of `new ChunkwiseTextSplitter(…)` and of `new ChunkwiseNodeParser(…)`,
 * the same object in both, with the same chunks out. The LangChain splitter's former
 * shape (strategy options second, `{ content }` third) still works and gives the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document } from 'llamaindex';
import { describe, expect, it } from 'vitest';
import { ChunkwiseTextSplitter, type ChunkwiseAdapterOptions } from '../src/adapters/langchain.js';
import { ChunkwiseNodeParser } from '../src/adapters/llamaindex.js';
import { HtmlChunker, InvalidOptionError } from '../src/index.js';
import { markdownDir } from './helpers/paths.js';

const markdown = readFileSync(join(markdownDir, 'ch03-02-data-types.md'), 'utf8');
const html = '<article><h1>Guide</h1><p>Tables keep their header rows.</p><table><tr><th>unit</th><th>size</th></tr><tr><td>token</td><td>256</td></tr></table></article>';

/** What each adapter makes of `text` with `options`: LangChain's page contents and LlamaIndex's node texts, with their offsets. */
async function both(chunker: string | HtmlChunker, options: ChunkwiseAdapterOptions, text: string) {
  const docs = await new ChunkwiseTextSplitter(chunker, options).createDocuments([text], [{ source: 'doc' }]);
  const nodes = await new ChunkwiseNodeParser(chunker, options).getNodesFromDocuments([new Document({ text, id_: 'doc' })]);
  return {
    langchain: docs.map((d) => [d.pageContent, d.metadata.start, d.metadata.end, d.metadata.chunkId]),
    llamaindex: nodes.map((n) => [n.text, n.startCharIdx, n.endCharIdx, n.metadata.chunkId]),
  };
}

describe('one option shape for ChunkwiseTextSplitter and ChunkwiseNodeParser', () => {
  it('the same { strategy, content } object: the same chunks, offsets and ids from both', async () => {
    const options: ChunkwiseAdapterOptions = { strategy: { chunkSize: 96 }, content: 'text' };
    const { langchain, llamaindex } = await both('markdown', options, markdown);
    expect(langchain.length).toBeGreaterThan(10);
    expect(langchain).toEqual(llamaindex);
    for (const [content, start, end] of langchain) expect(content).toBe(markdown.slice(start as number, end as number));
    // the strategy options took effect: a smaller budget, more chunks
    expect((await both('markdown', { strategy: { chunkSize: 48 } }, markdown)).langchain.length).toBeGreaterThan(langchain.length);
  });

  it('content alone, with a built chunker: embedText by default, the exact slice with content: text, in both', async () => {
    const embedded = await both(new HtmlChunker(), {}, html);
    const sliced = await both(new HtmlChunker(), { content: 'text' }, html);
    expect(embedded.langchain).toEqual(embedded.llamaindex);
    expect(sliced.langchain).toEqual(sliced.llamaindex);
    expect(sliced.langchain[0][0]).toBe(html.slice(sliced.langchain[0][1] as number, sliced.langchain[0][2] as number));
    expect(embedded.langchain[0][0]).not.toContain('<');
  });

  it('the same errors from both: strategy options with a built chunker, a bad content, an unknown key', () => {
    for (const make of [(c: never, o: never) => new ChunkwiseTextSplitter(c, o), (c: never, o: never) => new ChunkwiseNodeParser(c, o)]) {
      expect(() => make(new HtmlChunker() as never, { strategy: { chunkSize: 5 } } as never)).toThrow(/strategy options go with a strategy name/);
      expect(() => make('markdown' as never, { content: 'raw' } as never)).toThrow(InvalidOptionError);
      expect(() => make('markdown' as never, { strategy: { chunkSize: 0 } } as never)).toThrow(InvalidOptionError);
    }
    expect(() => new ChunkwiseNodeParser('markdown', { contents: 'text' } as never)).toThrow(/contents/);
    expect(() => new ChunkwiseTextSplitter(new HtmlChunker(), undefined, { contents: 'text' } as never)).toThrow(/contents/);
  });

  it("the splitter's former shape still works (deprecated): strategy options second, { content } third", async () => {
    const now = await new ChunkwiseTextSplitter('markdown', { strategy: { chunkSize: 96 }, content: 'text' }).splitText(markdown);
    expect(await new ChunkwiseTextSplitter('markdown', { chunkSize: 96 }, { content: 'text' }).splitText(markdown)).toEqual(now);
    const byDefault = await new ChunkwiseTextSplitter('markdown', { strategy: { chunkSize: 96 } }).splitText(markdown);
    expect(await new ChunkwiseTextSplitter('markdown', { chunkSize: 96 }).splitText(markdown)).toEqual(byDefault);
    expect(await new ChunkwiseTextSplitter(new HtmlChunker(), undefined, { content: 'text' }).splitText(html)).toEqual(await new ChunkwiseTextSplitter(new HtmlChunker(), { content: 'text' }).splitText(html));
  });
});
