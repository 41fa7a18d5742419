/**
 * Property tests of MarkdownChunker (SPEC section 4) over generated Markdown: headings
 * (ATX and setext, skipped levels), nested lists, tables, fenced code (closed and not),
 * block quotes, HTML, front matter, mixed line endings. Offsets slice back, nothing is
 * lost, budgets hold on the exact text and embedText, fenced blocks that fit are never cut
 * (larger ones only between lines),
 * heading paths are prefixes-consistent, and the result is deterministic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarkdownChunker, type Chunk, type MarkdownBlock, type UnitKind } from '../src/index.js';
import { markdownBlocks } from '../src/engine.js';
import { expectInvariants } from './helpers/invariants.js';

const word = fc.constantFrom('alpha', 'beta', 'Gamma', 'δέλτα', '日本語', '😀', 'x/y', '`code`', '**bold**', 'a_b', '#', '|', '-', '1.', '>', 'end.');
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((a) => a.join(' '));

const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), words(1, 4)).map(([d, t]) => `${'#'.repeat(d)} ${t}`);
const setext = fc.tuple(words(1, 3), fc.constantFrom('===', '---')).map(([t, u]) => `${t}\n${u}`);
const paragraph = fc.array(words(1, 12), { minLength: 1, maxLength: 4 }).map((ls) => ls.join('\n'));
const listItem: fc.Arbitrary<string> = fc.letrec<{ list: string }>((tie) => ({
  list: fc
    .array(
      fc.tuple(words(1, 8), fc.option(tie('list'), { freq: 4, depthSize: 'small' })).map(([t, sub]) =>
        sub ? `- ${t}\n` + sub.split('\n').map((l) => '  ' + l).join('\n') : `- ${t}`,
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((items) => items.join('\n')),
})).list;
const cell = words(0, 3).map((s) => s.replace(/\|/g, ''));
const table = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 8 }))
  .chain(([cols, n]) =>
    fc.tuple(fc.array(cell, { minLength: cols, maxLength: cols }), fc.array(fc.array(cell, { minLength: cols, maxLength: cols }), { minLength: n, maxLength: n })),
  )
  .map(([head, body]) => {
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    return [line(head.map((h, i) => h || `H${i}`)), line(head.map(() => '---')), ...body.map(line)].join('\n');
  });
const fenced = fc
  .tuple(fc.constantFrom('```', '~~~', '````'), fc.array(fc.oneof(words(0, 6), heading), { maxLength: 6 }))
  .map(([f, lines]) => [f + 'rust', ...lines, f].join('\n'));
const quote = paragraph.map((p) => p.split('\n').map((l) => '> ' + l).join('\n'));
const html = words(1, 5).map((w) => `<div class="note">\n${w}\n</div>`);

const block = fc.oneof(
  { weight: 3, arbitrary: heading },
  { weight: 1, arbitrary: setext },
  { weight: 5, arbitrary: paragraph },
  { weight: 2, arbitrary: listItem },
  { weight: 2, arbitrary: table },
  { weight: 2, arbitrary: fenced },
  { weight: 1, arbitrary: quote },
  { weight: 1, arbitrary: html },
);
const markdown = fc
  .tuple(
    fc.option(words(1, 3).map((w) => `---\ntitle: ${w}\n---`), { freq: 5 }),
    fc.array(block, { maxLength: 14 }),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.boolean(),
  )
  .map(([front, blocks, eol, unclosed]) => {
    let text = [...(front ? [front] : []), ...blocks].join('\n\n');
    if (unclosed) text += '\n\n```\nnever closed # x';
    return text.replace(/\n/g, eol);
  });

function check(text: string, chunks: Chunk[], unit: UnitKind, chunkSize: number, contextual: boolean, size: (text: string) => number): void {
  // slices, indices, nothing lost, unitCount, budgets on text and embedText, token counts (test/helpers/invariants.ts)
  expectInvariants(text, chunks, { unit, budget: chunkSize });
  for (const c of chunks) expect(Array.isArray(c.metadata.headingPath)).toBe(true);
  // chunks are in order and never cross a CRLF
  for (let k = 1; k < chunks.length; k++) expect(chunks[k].start).toBeGreaterThanOrEqual(chunks[k - 1].start);
  for (const c of chunks) expect(text[c.start - 1] === '\r' && text[c.start] === '\n').toBe(false);
  // fenced code blocks (at any depth) lie whole in one chunk where they fit the budget alone;
  // a larger one is cut only between lines
  const stack: MarkdownBlock[] = [...markdownBlocks(text)];
  while (stack.length) {
    const b = stack.pop()!;
    if (b.children) stack.push(...b.children);
    if (b.type !== 'code' || !b.fenced) continue;
    expect(/^(```|~~~)/.test(text.slice(b.start, b.end)), 'a fence starts the block').toBe(true);
    if (!contextual && size(text.slice(b.start, b.end)) <= chunkSize) {
      expect(chunks.some((c) => c.start <= b.start && c.end >= b.end), `code block at ${b.start} cut`).toBe(true);
      continue;
    }
    for (const c of chunks) {
      if (c.start > b.start && c.start < b.end) expect(/^[ \t]*$/.test(text.slice(lineStart(text, c.start), c.start)), `code block at ${b.start} cut inside a line at ${c.start}`).toBe(true);
      if (c.end > b.start && c.end < b.end) expect(/^[ \t]*(\r|\n)/.test(text.slice(c.end)), `code block at ${b.start} cut inside a line at ${c.end}`).toBe(true);
    }
  }
}

/** Where the line holding offset `p` starts. */
function lineStart(text: string, p: number): number {
  return Math.max(text.lastIndexOf('\n', p - 1), text.lastIndexOf('\r', p - 1)) + 1;
}

describe('MarkdownChunker properties over generated Markdown', () => {
  for (const unit of ['word', 'char', 'token'] as const) {
    it(`${unit} units: slices, nothing lost, budgets, code whole, deterministic`, () => {
      fc.assert(
        fc.property(markdown, fc.integer({ min: 4, max: 60 }), fc.boolean(), (text, size, contextual) => {
          const chunkSize = unit === 'char' ? size * 4 : size;
          const chunker = new MarkdownChunker({ unit, chunkSize, chunkOverlap: 0, contextualHeaders: contextual });
          const chunks = chunker.chunk(text);
          check(text, chunks, unit, chunkSize, contextual, (t) => chunker.count(t));
          expect(chunker.chunk(text)).toEqual(chunks);
        }),
        { numRuns: unit === 'token' ? 30 : 60 },
      );
    });
  }

  it('line endings do not change the structure', () => {
    fc.assert(
      fc.property(markdown, fc.integer({ min: 4, max: 40 }), (text, chunkSize) => {
        const lf = text.replace(/\r\n?/g, '\n');
        const crlf = lf.replace(/\n/g, '\r\n');
        const a = new MarkdownChunker({ unit: 'word', chunkSize }).chunk(lf);
        const b = new MarkdownChunker({ unit: 'word', chunkSize }).chunk(crlf);
        expect(b.map((c) => c.metadata.headingPath)).toEqual(a.map((c) => c.metadata.headingPath));
        expect(b.map((c) => c.text.replace(/\r\n/g, '\n'))).toEqual(a.map((c) => c.text));
      }),
      { numRuns: 40, examples: [['alpha\nalpha\n-', 4]] },
    );
  });
});
