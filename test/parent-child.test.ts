/**
 * ParentChildChunker: worked example, both levels' invariants on real text (a Markdown
 * chapter and a plain corpus), parentId / getParent, injectable splitters, bad options,
 * and the CLI writing both levels.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getTokenizer, InvalidOptionError, MarkdownChunker, ParentChildChunker, type Chunk } from '../src/index.js';
import { looksLikeMarkdown } from '../src/strategies/parent-child/parent-child.js';
import { trimSpanWithin } from '../src/engine/text.js';
import { expectInvariants, referenceTokens, type Unit } from './helpers/invariants.js';
import { cliBin, corporaDir, markdownDir } from './helpers/paths.js';

/** One level's chunks against the shared invariants (test/helpers/invariants.ts), budget `size` in `unit`. */
function checkLevel(text: string, chunks: Chunk[], size: number, unit: Unit): void {
  expectInvariants(text, chunks, { unit, budget: size });
}

describe('worked example (words)', () => {
  const text = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
  it('parents of 10 words, children of 4 words overlapping by 1 inside each parent', () => {
    const pc = new ParentChildChunker({ unit: 'word', parentSize: 10, childSize: 4, childOverlap: 1, markdown: false });
    const { parents, children, getParent } = pc.split(text);
    expect(parents.map((p) => p.text)).toEqual(['w0 w1 w2 w3 w4 w5 w6 w7 w8 w9', 'w10 w11 w12 w13 w14 w15 w16 w17 w18 w19']);
    // windows of 4 words moved by 3 over 10 words: starts 0, 3, 6 (the last reaches the end)
    expect(children.map((c) => c.text)).toEqual([
      'w0 w1 w2 w3',
      'w3 w4 w5 w6',
      'w6 w7 w8 w9',
      'w10 w11 w12 w13',
      'w13 w14 w15 w16',
      'w16 w17 w18 w19',
    ]);
    expect(children.map((c) => getParent(c.metadata.parentId as string)!.index)).toEqual([0, 0, 0, 1, 1, 1]);
    expect(parents.every((p) => p.metadata.level === 'parent' && p.id.endsWith(':parent'))).toBe(true);
    expect(children.every((c) => c.metadata.level === 'child' && c.id.endsWith(':child'))).toBe(true);
    // overlap never crosses a parent
    expect(children.map((c) => c.metadata.overlap)).toEqual([0, 2, 2, 0, 3, 3]);
    expect(getParent('nope')).toBeUndefined();
    // chunk(): each parent followed by its children
    expect(pc.chunk(text).map((c) => c.metadata.level)).toEqual(['parent', 'child', 'child', 'child', 'parent', 'child', 'child', 'child']);
  });

  it('a parent no larger than a child gives a child with the same span and a different id', () => {
    const { parents, children } = new ParentChildChunker({ unit: 'word', parentSize: 4, childSize: 4, childOverlap: 0 }).split('a b c');
    expect(children[0].start).toBe(parents[0].start);
    expect(children[0].id).not.toBe(parents[0].id);
  });
});

describe('real documents', () => {
  it('a Markdown chapter: Markdown-aware parents with heading paths, children inherit them; budgets in tokens', () => {
    const text = readFileSync(join(markdownDir, 'ch09-02-recoverable-errors-with-result.md'), 'utf8');
    expect(looksLikeMarkdown(text)).toBe(true);
    const { parents, children, getParent } = new ParentChildChunker({ parentSize: 1024, childSize: 128, childOverlap: 16 }).split(text);
    const tokens = referenceTokens;
    checkLevel(text, parents, 1024, 'token');
    checkLevel(text, children, 128, 'token');
    expect(parents.length).toBeGreaterThan(3);
    expect(children.length).toBeGreaterThan(parents.length * 4);
    for (const c of children) {
      const p = getParent(c.metadata.parentId as string)!;
      expect(c.start).toBeGreaterThanOrEqual(p.start);
      expect(c.end).toBeLessThanOrEqual(p.end);
      expect(c.metadata.headingPath).toEqual(p.metadata.headingPath);
      expect(c.tokenCount).toBe(tokens(c.text));
    }
    expect(parents[0].metadata.markdown).toBe(true);
    expect(parents[0].metadata.headingPath).toEqual(['Recoverable Errors with Result']);
  });

  it('a plain corpus: fixed-size parents (auto detects no Markdown)', () => {
    const text = readFileSync(join(corporaDir, 'state_of_the_union.md'), 'utf8').slice(0, 60_000);
    expect(looksLikeMarkdown(text)).toBe(false);
    const { parents, children } = new ParentChildChunker({ parentSize: 1200, childSize: 150, childOverlap: 20 }).split(text);
    checkLevel(text, parents, 1200, 'token');
    checkLevel(text, children, 150, 'token');
    expect(parents.every((p) => p.metadata.markdown === false)).toBe(true);
  });

  it('property: both levels slice back, cover everything and keep their budgets (words)', () => {
    const word = fc.constantFrom('a', 'bb', 'ccc', '# h', '```', '|', '\n', '\n\n', '\r\n', '- x', '😀');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 80 }).map((a) => a.join(' ')), fc.integer({ min: 2, max: 30 }), fc.integer({ min: 1, max: 10 }), (text, parentSize, cs) => {
        const childSize = Math.min(cs, parentSize);
        const pc = new ParentChildChunker({ unit: 'word', parentSize, childSize, childOverlap: Math.floor(childSize / 3) });
        const { parents, children, getParent } = pc.split(text);
        checkLevel(text, parents, parentSize, 'word');
        checkLevel(text, children, childSize, 'word');
        for (const c of children) expect(getParent(c.metadata.parentId as string)).toBeDefined();
      }),
      { numRuns: 60 },
    );
  });
});

describe('trimming a span never breaks its budget', () => {
  it('" tricky" is 1 cl100k token, "tricky" 2: the leading space stays when trimming would overflow', () => {
    const tok = getTokenizer('cl100k_base');
    const text = 'x tricky\n';
    const fits = (budget: number) => (s: number, e: number) => tok.count(text.slice(s, e)) <= budget;
    expect(trimSpanWithin(text, 1, 9, fits(1))).toEqual({ start: 1, end: 8 });
    expect(trimSpanWithin(text, 1, 9, fits(2))).toEqual({ start: 2, end: 8 });
    // a line break before the word is never kept for that
    expect(trimSpanWithin('x\ntricky', 1, 8, fits(1))).toEqual({ start: 1, end: 8 });
  });
});

describe('injectable splitters and options', () => {
  it('parentSplitter / childSplitter are used as given', () => {
    const lines = (t: string) => {
      const out: { start: number; end: number }[] = [];
      let s = 0;
      for (const part of t.split('\n')) {
        out.push({ start: s, end: s + part.length });
        s += part.length + 1;
      }
      return out;
    };
    const words = (t: string) => [...t.matchAll(/\S+/g)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
    const { parents, children } = new ParentChildChunker({ unit: 'word', markdown: false, parentSplitter: lines, childSplitter: words }).split('a b\nc d e');
    expect(parents.map((p) => p.text)).toEqual(['a b', 'c d e']);
    expect(children.map((c) => c.text)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('typed errors for bad options', () => {
    expect(() => new ParentChildChunker({ parentSize: 100, childSize: 200 })).toThrow(/childSize: 200/);
    expect(() => new ParentChildChunker({ childSize: 10, childOverlap: 10 })).toThrow(InvalidOptionError);
    expect(() => new ParentChildChunker({ parentSize: 1.5 })).toThrow(InvalidOptionError);
    expect(() => new ParentChildChunker({ markdown: 'yes' as unknown as boolean })).toThrow(/markdown: "yes"/);
  });
});

describe('CLI', () => {
  const file = join(markdownDir, 'ch08-02-strings.md');
  const run = (args: string[]) => spawnSync(process.execPath, [cliBin, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

  it('--strategy parent-child writes both levels with level and parentId', () => {
    const r = run(['chunk', file, '--strategy', 'parent-child', '--parent-size', '512', '--child-size', '64', '--child-overlap', '8']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const records = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const parents = records.filter((x) => x.level === 'parent');
    const children = records.filter((x) => x.level === 'child');
    expect(parents.length).toBeGreaterThan(2);
    const ids = new Set(parents.map((p) => p.id));
    for (const c of children) {
      expect(ids.has(c.parentId)).toBe(true);
      expect(c.tokenCount).toBeLessThanOrEqual(64);
    }
    for (const p of parents) expect(p.tokenCount).toBeLessThanOrEqual(512);
  });

  it('--strategy markdown --contextual-headers writes embedText and heading paths; budgets hold', () => {
    const text = readFileSync(file, 'utf8');
    const r = run(['chunk', file, '--strategy', 'markdown', '--chunk-size', '200', '--contextual-headers', '--fallback', 'sliding']);
    expect(r.status).toBe(0);
    const records = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    for (const x of records) {
      expect(text.slice(x.start, x.end)).toBe(x.text);
      expect(x.embedText).toBe(x.metadata.headingPath.join(' > ') + '\n\n' + x.text);
      expect(referenceTokens(x.embedText)).toBeLessThanOrEqual(200);
    }
  });

  it('--fallback takes recursive and sliding; an unknown name is a usage error (exit 2, one line)', () => {
    const text = readFileSync(file, 'utf8');
    for (const fallback of ['recursive', 'sliding']) {
      const ok = run(['chunk', file, '--strategy', 'markdown', '--chunk-size', '64', '--fallback', fallback]);
      expect(ok.status).toBe(0);
      const records = ok.stdout.trim().split('\n').map((l) => JSON.parse(l));
      for (const c of records) expect(c.text).toBe(text.slice(c.start, c.end));
    }
    const r = run(['chunk', file, '--strategy', 'markdown', '--fallback', 'nope']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^chunkwise: invalid option --fallback: "nope"/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('custom splitters: their spans are checked, never used as they come', () => {
  const md = '# Title\n\n' + 'word '.repeat(200) + '\n';
  const plain = 'word '.repeat(240);
  const bad: [string, (t: string) => unknown, RegExp][] = [
    ['tuples instead of spans (lost 800 of 1,000 characters)', () => [[0, 3]], /span 0 is \[0,3\]/],
    ['a string', () => 'x', /it returned "x"/],
    ['null (was an internal TypeError)', () => null, /it returned null/],
    ['an end past the text (reached chunk.end)', (t) => [{ start: 0, end: t.length + 1e9 }], /≤ \d+ \(the text's length\)/],
    ['a fractional start', () => [{ start: 0.5, end: 3 }], /integer offsets/],
    ['a negative start', () => [{ start: -5, end: 3 }], /span 0 is \{"start":-5,"end":3\}/],
    ['spans out of order', () => [{ start: 5, end: 9 }, { start: 0, end: 3 }], /in order; span 1/],
  ];
  it.each(bad)('%s: an InvalidOptionError naming the option', (_name, fn, message) => {
    const markdown = new MarkdownChunker({ unit: 'word', chunkSize: 50, fallback: fn as never });
    expect(() => markdown.chunk(md)).toThrow(InvalidOptionError);
    expect(() => markdown.chunk(md)).toThrow(message);
    expect(() => markdown.chunk(md)).toThrow(/^Invalid option fallback/);
    const parents = new ParentChildChunker({ unit: 'word', parentSize: 60, childSize: 20, markdown: false, parentSplitter: fn as never });
    expect(() => parents.chunk(plain)).toThrow(/^Invalid option parentSplitter/);
    const children = new ParentChildChunker({ unit: 'word', parentSize: 60, childSize: 20, markdown: false, childSplitter: fn as never });
    expect(() => children.chunk(plain)).toThrow(/^Invalid option childSplitter/);
  });

  it('good spans pass through unchanged (gaps allowed: the left-out text becomes pieces of its own)', () => {
    const ninetyOfEach100 = (t: string) => Array.from({ length: Math.ceil(t.length / 100) }, (_, i) => ({ start: i * 100, end: Math.min(t.length, i * 100 + 90) }));
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 50, fallback: ninetyOfEach100 }).chunk(md);
    expect(chunks.map((c) => c.text).join('').replace(/\s/g, '')).toBe(md.replace(/\s/g, ''));
  });
});
