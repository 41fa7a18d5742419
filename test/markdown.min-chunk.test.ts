/**
 * Markdown chunks a user would embed as they are (issue 38): with `minChunkSize` a lone
 * heading, rule or HTML line joins a neighbour in its section within the budget, and code
 * over the budget is cut between lines; on worked examples and on the repository's own
 * README and docs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, MarkdownChunker, type MarkdownChunk } from '../src/index.js';
import { countWords } from '../src/engine/size/words.js';
import { expectInvariants } from './helpers/invariants.js';
import { repoRoot } from './helpers/paths.js';

const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');

describe('minChunkSize: worked examples (word units, chunkSize 40: default 10 words)', () => {
  it('a heading whose section does not fit with it takes the first piece of its text', () => {
    // the two headings (4 words) and the paragraph (60 words) do not fit 40 together
    const doc = `# Guide\n\n## Install\n\n${words(0, 60)}`;
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 40, chunkOverlap: 0 }).chunk(doc);
    expect(chunks.map((c) => c.text)).toEqual([`# Guide\n\n## Install\n\n${words(0, 36)}`, words(36, 24)]);
    for (const c of chunks) {
      expect(c.metadata.headingPath).toEqual(['Guide', 'Install']);
      expect(countWords(c.text)).toBeLessThanOrEqual(40);
    }
    expect(chunks[0].metadata.blockTypes).toEqual(['heading', 'paragraph']);
    expectInvariants(doc, chunks);
    // off: the headings are a chunk of their own
    const off = new MarkdownChunker({ unit: 'word', chunkSize: 40, chunkOverlap: 0, minChunkSize: 0 }).chunk(doc);
    expect(off.map((c) => c.text)).toEqual(['# Guide\n\n## Install', words(0, 40), words(40, 20)]);
  });

  it('a heading before a paragraph that fits alone but not with it: the paragraph is split so the heading leads it', () => {
    const doc = `## Speed\n\n${words(0, 39)}.`;
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 40, chunkOverlap: 0 }).chunk(doc);
    expect(chunks[0].text.startsWith('## Speed\n\nw0 ')).toBe(true);
    for (const c of chunks) expect(countWords(c.text)).toBeLessThanOrEqual(40);
    expectInvariants(doc, chunks);
  });

  it('a rule and a closing HTML line at the end of a section join the chunk before them', () => {
    const doc = `# A\n\n${words(0, 70)}\n\n----\n\n<!-- /end -->`;
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 40, chunkOverlap: 0 }).chunk(doc);
    expect(chunks.map((c) => c.text)).toEqual([`# A\n\n${words(0, 38)}`, `${words(38, 32)}\n\n----\n\n<!-- /end -->`]);
    expect(chunks[1].metadata.blockTypes).toEqual(['paragraph', 'thematicBreak', 'html']);
    expectInvariants(doc, chunks);
    const off = new MarkdownChunker({ unit: 'word', chunkSize: 40, chunkOverlap: 0, minChunkSize: 0 }).chunk(doc);
    expect(off.map((c) => c.text)).toEqual(['# A', words(0, 40), words(40, 30), '----\n\n<!-- /end -->']);
  });

  it('a small chunk never joins across a section start: a section small as a whole stays alone', () => {
    const doc = `# A\n\nshort.\n\n# B\n\n${words(0, 30)}`;
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 40 }).chunk(doc);
    expect(chunks.map((c) => [c.text, c.metadata.headingPath])).toEqual([
      ['# A\n\nshort.', ['A']],
      [`# B\n\n${words(0, 30)}`, ['B']],
    ]);
  });

  it('a table part after a lone heading: text from the heading, embedText the heading then the labelled rows', () => {
    const rows = Array.from({ length: 12 }, (_, i) => `| item${i} | ${i} |`);
    const doc = `# Stock\n\n| Name | Qty |\n|---|---|\n${rows.join('\n')}`;
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 40 }).chunk(doc);
    expect(chunks[0].text.startsWith('# Stock\n\n| Name | Qty |\n|---|---|\n| item0 | 0 |')).toBe(true);
    expect(chunks[0].embedText!.startsWith('# Stock\n\n| Name | Qty |\n|---|---|\nName: item0 | Qty: 0\n')).toBe(true);
    expect(chunks[0].metadata.blockTypes).toEqual(['heading', 'table']);
    expect(chunks[0].metadata.tableRows![0]).toBe(1);
    for (const c of chunks) {
      expect(countWords(c.text)).toBeLessThanOrEqual(40);
      expect(countWords(c.embedText ?? c.text)).toBeLessThanOrEqual(40);
    }
    expectInvariants(doc, chunks);
  });

  it('the default follows the unit and the budget; a bad value is an InvalidOptionError', () => {
    expect(new MarkdownChunker({ chunkSize: 256 }).minChunkSize).toBe(15);
    expect(new MarkdownChunker({ chunkSize: 256, unit: 'char' }).minChunkSize).toBe(60);
    expect(new MarkdownChunker({ chunkSize: 256, unit: 'word' }).minChunkSize).toBe(10);
    expect(new MarkdownChunker({ chunkSize: 20 }).minChunkSize).toBe(5);
    expect(new MarkdownChunker({ minChunkSize: 0 }).minChunkSize).toBe(0);
    expect(() => new MarkdownChunker({ minChunkSize: -1 })).toThrow(InvalidOptionError);
    expect(() => new MarkdownChunker({ minChunkSize: 1.5 })).toThrow(/minChunkSize/);
  });
});

describe("minChunkSize on the repository's README and docs (256 tokens)", () => {
  const files = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

  it('no chunk is under 15 tokens unless its whole section is; no code chunk over the budget but a single line; streams give the same chunks', async () => {
    const chunker = new MarkdownChunker({ chunkSize: 256 });
    const small: string[] = [];
    let total = 0;
    for (const file of files) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      const chunks: MarkdownChunk[] = chunker.chunk(text);
      total += chunks.length;
      chunks.forEach((c, i) => {
        if (chunker.count(c.text) >= 15) return;
        // its whole section: no neighbour in the same section (same heading path)
        const same = (d: MarkdownChunk | undefined) => d !== undefined && d.metadata.headingPath.join('\0') === c.metadata.headingPath.join('\0');
        if (same(chunks[i - 1]) || same(chunks[i + 1])) small.push(`${file}: ${JSON.stringify(c.text.slice(0, 50))}`);
      });
      for (const c of chunks) {
        expect(chunker.count(c.embedText ?? c.text) <= 256 || c.metadata.oversized === true, `${file}: ${c.text.slice(0, 50)}`).toBe(true);
        // code over the budget is cut between lines: only a single line may be oversized
        if (c.metadata.oversized && c.metadata.blockTypes.includes('code')) expect(c.text.includes('\n'), `${file}: oversized code ${c.text.slice(0, 50)}`).toBe(false);
      }
      expectInvariants(text, chunks);
      if (file === 'README.md') {
        const pieces = (function* () {
          for (let i = 0; i < text.length; i += 997) yield text.slice(i, i + 997);
        })();
        const streamed: MarkdownChunk[] = [];
        for await (const c of chunker.chunkStream(pieces)) streamed.push(c);
        expect(streamed).toEqual(chunks);
      }
    }
    expect(total).toBeGreaterThan(500);
    expect(small).toEqual([]);
  });
});
