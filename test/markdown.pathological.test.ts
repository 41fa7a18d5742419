/**
 * Issue 16's Markdown defects, each with an input of its own: a leading byte-order mark
 * (every block lost its last character), chunkOverlap close to chunkSize (a RangeError),
 * and the inputs that took superlinear time or gigabytes in mdast — one huge paragraph,
 * `a\n` lines, nested lists, deep block quotes, long lines, a 10 MB single line —
 * checked by counting work (scanner steps, packer steps and measures, the fallback's
 * operations: `chunk(text, { work })`'s `operations`) at n and 2n, never by timing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MarkdownChunker, ParentChildChunker, type Chunk } from '../src/index.js';
import { markdownDir } from './helpers/paths.js';

/** Offsets slice back, every non-whitespace character lies in a chunk, budgets hold unless flagged. */
function check(text: string, chunks: Chunk[], size: number): void {
  const covered = new Uint8Array(text.length);
  for (const c of chunks) {
    if (text.slice(c.start, c.end) !== c.text) throw new Error(`chunk ${c.index} does not slice back`);
    if (!c.metadata.oversized && c.metadata.unitCount > size) throw new Error(`chunk ${c.index} over the budget`);
    covered.fill(1, c.start, c.end);
  }
  for (let i = 0; i < text.length; i++) if (!covered[i] && /\S/.test(text[i])) throw new Error(`lost ${JSON.stringify(text[i])} at ${i}`);
}

describe('a leading U+FEFF (byte-order mark)', () => {
  const doc = '\ufeff# Title\n\nSome text here.\n\n- a\n- b\n\n| h | i |\n|---|---|\n| 1 | 2 |';
  it('no block loses its last character; spans start after the mark (MarkdownChunker and ParentChildChunker)', () => {
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 3 }).chunk(doc);
    // before: '# Titl', 'Some text here', '- a\n-', …
    expect(chunks.map((c) => c.text)).toEqual(['# Title', 'Some text here.', '- a', '- b', '| h | i |\n|---|---|\n| 1 | 2 |']);
    expect(chunks[0].start).toBe(1);
    expect(chunks[0].metadata.headingPath).toEqual(['Title']);
    check(doc, chunks, 3);
    const pc = new ParentChildChunker({ unit: 'word', parentSize: 6, childSize: 3, childOverlap: 0, markdown: true }).split(doc);
    expect(pc.parents.map((p) => p.text)).toEqual(['# Title\n\nSome text here.', '- a\n- b', '| h | i |\n|---|---|\n| 1 | 2 |']);
    check(doc, pc.children, 3);
  });
  it('front matter after a byte-order mark is front matter', () => {
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 50 }).chunk('\ufeff---\ntitle: x\n---\n# A\n\nbody');
    expect(chunks.map((c) => [c.text, c.metadata.blockTypes])).toEqual([
      ['---\ntitle: x\n---', ['yaml']],
      ['# A\n\nbody', ['heading', 'paragraph']],
    ]);
  });
});

describe('chunkOverlap close to chunkSize', () => {
  const text = readFileSync(join(markdownDir, 'ch08-02-strings.md'), 'utf8');
  for (const [size, overlap] of [
    [16, 15],
    [32, 31],
    [64, 63],
  ]) {
    for (const unit of ['char', 'word', 'token'] as const) {
      it(`${unit} ${overlap}/${size}: no RangeError, nothing lost, no duplicate ids, budgets hold`, () => {
        const chunks = new MarkdownChunker({ unit, chunkSize: size, chunkOverlap: overlap }).chunk(text);
        expect(chunks.length).toBeGreaterThan(50);
        check(text, chunks, size);
        expect(new Set(chunks.map((c) => c.id)).size).toBe(chunks.length);
        // pieces of one paragraph overlap, whole blocks never do
        expect(chunks.some((c) => c.metadata.overlap > 0)).toBe(true);
      });
    }
  }
});

/** The pathological kinds, each as a function of its size in code units. */
const KINDS: Record<string, (n: number) => string> = {
  'one paragraph on one line': (n) => 'word '.repeat(n / 5),
  'one paragraph of a\\n lines': (n) => 'a\n'.repeat(n / 2),
  'nested lists (depth √n)': (n) => Array.from({ length: Math.round(Math.sqrt(n)) }, (_, i) => '  '.repeat(i) + '- item').join('\n'),
  'block quotes n deep on one line': (n) => '>'.repeat(n) + ' a',
  'lines of 1000-deep block quotes': (n) => ('>'.repeat(1000) + ' a\n').repeat(Math.round(n / 1003)),
  'lazy lines under a deep quote': (n) => '>'.repeat(200) + ' a\n' + 'b\n'.repeat(n / 2),
  'a long heading of unclosed links': (n) => '# ' + '[a](b'.repeat(n / 5) + '\n\ntext',
  'a long heading of emphasis markers': (n) => '# ' + '*a _b '.repeat(n / 6) + '\n\ntext',
  'a long heading of backtick runs': (n) => '# ' + '`a ``b '.repeat(n / 7) + '\n',
  'long table rows': (n) => '| a | b |\n|---|---|\n' + ('| ' + 'x '.repeat(50) + '| y |\n').repeat(Math.round(n / 110)),
  'unclosed fences': (n) => '```\n'.repeat(n / 4),
  'definitions and a heading that uses them': (n) => '[a]: /u\n'.repeat(n / 8) + '# [a]\n',
  'headings with unresolved labels': (n) => '# h [x]\n\ntext\n\n'.repeat(n / 16),
};

describe('linear work on pathological inputs (operations counted at n and 2n)', () => {
  for (const [name, make] of Object.entries(KINDS)) {
    it(name, () => {
      const chunker = new MarkdownChunker({ unit: 'char', chunkSize: 256, countTokens: false });
      const perUnit = (n: number) => {
        const text = make(n);
        const work = { operations: 0 };
        const chunks = chunker.chunk(text, { work });
        check(text, chunks, 256);
        return work.operations / text.length;
      };
      const a = perUnit(100_000);
      const b = perUnit(200_000);
      // operations per code unit stay the same when the input doubles (≤ 10 % more; nested lists add a few levels)
      expect(b / a).toBeLessThan(1.1);
      expect(a).toBeLessThan(64);
    });
  }
});

describe('large inputs finish with every character kept', () => {
  it('a 10 MB single line (word units)', () => {
    const text = 'lorem ipsum '.repeat(10_000_000 / 12);
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 512, countTokens: false }).chunk(text);
    expect(chunks.length).toBeGreaterThan(10_000_000 / 12 / 512);
    expect(chunks[0].start).toBe(0);
    expect(chunks[chunks.length - 1].end).toBe(text.length - 1);
    check(text, chunks, 512);
  });
  it('block quotes 10,000 deep, on one line and on 10,000 lines', () => {
    const chunker = new MarkdownChunker({ unit: 'char', chunkSize: 64, countTokens: false });
    const one = '>'.repeat(10_000) + ' deep';
    const chunks = chunker.chunk(one);
    check(one, chunks, 64);
    expect(chunks[0].metadata.blockTypes).toEqual(['blockquote']);
    const lines = Array.from({ length: 10_000 }, () => '> line').join('\n');
    check(lines, chunker.chunk(lines), 64);
  });
  it('nested lists 500 deep (255 KB) in tokens', () => {
    const text = Array.from({ length: 500 }, (_, i) => '  '.repeat(i) + '- item ' + i).join('\n');
    expect(text.length).toBeGreaterThan(250_000);
    const chunks = new MarkdownChunker({ chunkSize: 256 }).chunk(text);
    check(text, chunks, 256);
    expect(chunks.every((c) => c.metadata.headingPath.length === 0)).toBe(true);
  });
});
