/**
 * MarkdownChunker on the four real Markdown chapters in eval/markdown (The Rust
 * Programming Language): no fenced code block cut, no table row split, heading paths
 * equal to the headings above each chunk (found by an independent line scanner), token
 * budgets checked with js-tiktoken, offsets and coverage.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MarkdownChunker, type Chunk, type MarkdownBlock } from '../src/index.js';
import { markdownBlocks } from '../src/engine.js';
import { expectInvariants } from './helpers/invariants.js';
import { markdownDir, sharedFiles } from './helpers/paths.js';

const FENCE = /^(?:[ \t]*>)*[ \t]{0,3}(`{3,}|~{3,})/;

/** ATX headings outside fenced code, by line, with their offsets (the chapters use ATX only). */
function scanHeadings(text: string): { offset: number; depth: number; title: string }[] {
  const out: { offset: number; depth: number; title: string }[] = [];
  let fence: string | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim().replace(/^(>\s*)*/, '') === f[1]) fence = undefined;
    } else if (f) fence = f[1];
    else {
      const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
      if (h) out.push({ offset, depth: h[1].length, title: h[2].replace(/`/g, '') });
    }
    offset += line.length + 1;
  }
  return out;
}

/** The heading path in force at `offset` (headings starting before it). */
function pathAt(headings: ReturnType<typeof scanHeadings>, offset: number): string[] {
  const stack: { depth: number; title: string }[] = [];
  for (const h of headings) {
    if (h.offset >= offset) break;
    while (stack.length && stack[stack.length - 1].depth >= h.depth) stack.pop();
    stack.push(h);
  }
  return stack.map((h) => h.title);
}

function chunksPaths(headings: ReturnType<typeof scanHeadings>): string[] {
  return headings.map((h) => pathAt(headings, h.offset + 1).join('/'));
}

interface Span {
  type: string;
  start: number;
  end: number;
}
/** Blocks of `types` at any depth, and table rows as `tableRow` spans. */
function nodesOf(text: string, types: string[]): Span[] {
  const out: Span[] = [];
  const stack: MarkdownBlock[] = [...markdownBlocks(text)];
  while (stack.length) {
    const b = stack.pop()!;
    if (b.children) stack.push(...b.children);
    if (types.includes(b.type)) out.push({ type: b.type, start: b.start, end: b.end });
    if (types.includes('tableRow') && b.rows) for (const r of b.rows) out.push({ type: 'tableRow', ...r });
  }
  return out.sort((a, b) => a.start - b.start);
}

describe('the four Markdown chapters', () => {
  const files = sharedFiles(markdownDir, '.md');
  it('finds them', () => expect(files).toHaveLength(4));

  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const headings = scanHeadings(text);
    const codes = nodesOf(text, ['code']).filter((c) => FENCE.test(text.slice(text.lastIndexOf('\n', c.start) + 1, c.end)));
    const rows = nodesOf(text, ['tableRow']);

    for (const chunkSize of [128, 512]) {
      it(`${basename(file)} at ${chunkSize} tokens`, () => {
        expect(codes.length + rows.length).toBeGreaterThan(10); // the checks below have something to check
        expect(new Set(chunksPaths(headings)).size).toBeGreaterThan(2);
        const chunks: Chunk[] = new MarkdownChunker({ chunkSize }).chunk(text);
        expect(chunks.length).toBeGreaterThan(chunkSize === 128 ? 10 : 5);
        // slices, nothing lost, tokenCount, budgets on the exact text and embedText unless flagged
        expectInvariants(text, chunks, { unit: 'token', budget: chunkSize });
        for (const c of chunks) {
          // even number of fence lines, unless the chunk is one oversized block
          const fenceLines = c.text.split('\n').filter((l) => FENCE.test(l)).length;
          if (!c.metadata.oversized) expect(fenceLines % 2, c.text).toBe(0);
          // heading path = the headings above the chunk's end (a chunk never crosses a heading)
          expect(c.metadata.headingPath).toEqual(pathAt(headings, c.end));
        }
        // no fenced code block cut, no table row split
        for (const code of codes) expect(chunks.some((c) => c.start <= code.start && c.end >= code.end)).toBe(true);
        for (const row of rows) expect(chunks.some((c) => c.start <= row.start && c.end >= row.end)).toBe(true);
      });
    }
  }

  it('the operators appendix: its tables are cut by rows with labelled embedText at 128 tokens', () => {
    const file = files.find((f) => f.includes('operators'))!;
    const text = readFileSync(file, 'utf8');
    const parts = new MarkdownChunker({ chunkSize: 128 }).chunk(text).filter((c) => c.metadata.tableRows);
    expect(parts.length).toBeGreaterThan(10);
    const header =
      '| Operator                  | Example                                                 | Explanation                                                           | Overloadable?  |\n' +
      '| ------------------------- | ------------------------------------------------------- | --------------------------------------------------------------------- | -------------- |\n';
    // the row's empty `Overloadable?` cell is left out, as HTML's rows leave empty cells out
    expect(parts[0].embedText!.slice(header.length).split('\n')[0]).toBe('Operator: `!` | Example: `ident!(...)`, `ident!{...}`, `ident![...]` | Explanation: Macro expansion');
    expect(parts.every((p) => p.metadata.headingPath.length === 2)).toBe(true);
  });
});
