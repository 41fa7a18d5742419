/**
 * Content-addressed chunk ids: an id hashes the document id, the chunk's text (and
 * embedText) and its ordinal among identical chunks, not the text before the chunk.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChunker, QueryAdaptiveChunker, FixedSizeChunker, HtmlChunker, InvalidOptionError, MarkdownChunker, ParentChildChunker, RecursiveChunker, SentenceChunker, type Chunk } from '../src/index.js';
import { contentId } from '../src/engine.js';
import { ContentIds } from '../src/engine/ids.js';
import { chunkStream } from '../src/engine/stream/index.js';
import { QascIndex } from '../src/evaluation/index.js';
import { collect, splitAt } from './helpers/stream.js';

/** The key that makes two chunks "the same chunk": text, embedText and ordinal among equal pairs. */
function keyed(chunks: Chunk[]): Map<string, string> {
  const seen = new Map<string, number>();
  const out = new Map<string, string>();
  for (const c of chunks) {
    const k = JSON.stringify([c.text, c.embedText ?? null, c.metadata.level ?? null]);
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    out.set(`${k}#${n}`, c.id);
  }
  return out;
}

const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'é', '😀', 'Tabelle'];
const paragraphArb = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 40 }).map((w) => w.join(' ') + '.');
const sectionArb = fc.tuple(fc.constantFrom('# ', '## ', ''), fc.constantFrom(...words), fc.array(paragraphArb, { minLength: 1, maxLength: 4 }));
const docArb = fc.array(sectionArb, { minLength: 2, maxLength: 8 }).map((sections) =>
  sections.map(([h, title, paras]) => (h ? `${h}${title}\n\n` : '') + paras.join('\n\n')).join('\n\n'),
);

const chunkers: [string, (text: string, documentId?: string) => Chunk[]][] = [
  ['recursive', (t, d) => new RecursiveChunker({ unit: 'word', chunkSize: 30, chunkOverlap: 0 }).chunk(t, { documentId: d })],
  ['markdown', (t, d) => new MarkdownChunker({ unit: 'word', chunkSize: 30 }).chunk(t, { documentId: d })],
  ['markdown, contextual headers', (t, d) => new MarkdownChunker({ unit: 'word', chunkSize: 30, contextualHeaders: true }).chunk(t, { documentId: d })],
  ['sentence', (t, d) => new SentenceChunker({ unit: 'word', chunkSize: 20 }).chunk(t, { documentId: d })],
  ['fixed', (t, d) => new FixedSizeChunker({ unit: 'word', chunkSize: 16, chunkOverlap: 4 }).chunk(t, { documentId: d })],
  ['parent-child', (t, d) => new ParentChildChunker({ unit: 'word', parentSize: 40, childSize: 10, childOverlap: 2 }).chunk(t, { documentId: d })],
];

describe('content ids', () => {
  it('worked example: 16 hex digits, pinned (the same in every runtime), by document, text, embedText and ordinal', () => {
    expect(contentId('hello')).toBe(PINNED.hello);
    expect(contentId('hello', { documentId: 'a.md' })).toBe(PINNED.helloA);
    expect(contentId('hello', { ordinal: 1 })).toBe(PINNED.hello1);
    expect(contentId('hello', { embedText: 'Greeting > hello' })).toBe(PINNED.helloEmbed);
    // embedText equal to text is no embedText
    expect(contentId('hello', { embedText: 'hello' })).toBe(PINNED.hello);
    const all = Object.values(PINNED);
    expect(new Set(all).size).toBe(all.length);
    for (const id of all) expect(id).toMatch(/^[0-9a-f]{16}$/);
    // the document id and the text are delimited: ("ab", "c") is not ("a", "bc")
    expect(contentId('c', { documentId: 'ab' })).not.toBe(contentId('bc', { documentId: 'a' }));
  });

  it('ContentIds numbers identical chunks 0, 1, 2, … and contentId computes each alone', () => {
    const ids = new ContentIds('doc');
    const got = ['x', 'y', 'x', 'x', 'y'].map((t) => ids.id(t));
    expect(got).toEqual([
      contentId('x', { documentId: 'doc' }),
      contentId('y', { documentId: 'doc' }),
      contentId('x', { documentId: 'doc', ordinal: 1 }),
      contentId('x', { documentId: 'doc', ordinal: 2 }),
      contentId('y', { documentId: 'doc', ordinal: 1 }),
    ]);
    expect(new Set(got).size).toBe(5);
  });

  it('ordinals stay exact past thousands of distinct chunks (the count table grows) and through ranges of a longer text', () => {
    // 3000 distinct texts, each seen up to 3 times in a shuffled order, read as ranges of one string
    const texts = Array.from({ length: 9000 }, (_, i) => `t${(i * 7919) % 3000}`);
    const joined = texts.join('|');
    const ids = new ContentIds('doc');
    const seen = new Map<string, number>();
    let at = 0;
    for (const t of texts) {
      const ordinal = seen.get(t) ?? 0;
      seen.set(t, ordinal + 1);
      expect(ids.idOf(joined, at, at + t.length)).toBe(contentId(t, { documentId: 'doc', ordinal }));
      at += t.length + 1;
    }
    expect(Math.max(...seen.values())).toBe(3);
    // embedText equal to the range's text is the chunk's own text
    expect(new ContentIds().idOf('ab|cd', 3, 5, 'cd')).toBe(contentId('cd'));
    expect(new ContentIds().idOf('ab|cd', 3, 5, 'ce')).toBe(contentId('cd', { embedText: 'ce' }));
  });

  it('identical chunks of one document get distinct ids, in every strategy', () => {
    // a section of 29 words: one chunk of each structure-aware strategy, and a period the fixed windows (stride 12) meet again
    const section = '# Same\n\nThe same paragraph comes here again, word for word, in every section of it. It has two sentences of about fourteen words each, no more.';
    const text = Array.from({ length: 6 }, () => section).join('\n\n');
    for (const [name, chunk] of chunkers) {
      const chunks = chunk(text);
      expect(new Set(chunks.map((c) => c.text)).size, name).toBeLessThan(chunks.length);
      expect(new Set(chunks.map((c) => c.id)).size, name).toBe(chunks.length);
    }
    const html = Array.from({ length: 4 }, () => '<p>Hello World</p>').join('');
    const h = new HtmlChunker({ unit: 'word', chunkSize: 2 }).chunk(html);
    expect(h.map((c) => c.embedText)).toEqual(['Hello World', 'Hello World', 'Hello World', 'Hello World']);
    expect(new Set(h.map((c) => c.id)).size).toBe(4);
  });

  it('the document id enters every id; a non-string one is an InvalidOptionError', () => {
    const c = new RecursiveChunker({ unit: 'word', chunkSize: 5, chunkOverlap: 0 });
    const text = 'one two three four five six seven eight nine ten';
    const a = c.chunk(text, { documentId: 'a.md' });
    const b = c.chunk(text, { documentId: 'b.md' });
    expect(a.map((x) => x.text)).toEqual(b.map((x) => x.text));
    for (let i = 0; i < a.length; i++) expect(a[i].id).not.toBe(b[i].id);
    expect(c.chunk(text).map((x) => x.id)).toEqual(c.chunk(text, { documentId: '' }).map((x) => x.id));
    expect(() => c.chunk(text, { documentId: 7 as never })).toThrow(InvalidOptionError);
    expect(() => c.chunk(text, { documentId: 7 as never })).toThrow(/documentId/);
  });

  it('parent–child: a child\'s parentId is its parent\'s id, with the document id', () => {
    const text = 'First part of the text here. More words follow now.\n\nSecond part with other words in it.';
    const chunks = new ParentChildChunker({ unit: 'word', parentSize: 12, childSize: 4, childOverlap: 0 }).chunk(text, { documentId: 'pc' });
    const parents = new Map(chunks.filter((c) => c.metadata.level === 'parent').map((c) => [c.id, c]));
    const children = chunks.filter((c) => c.metadata.level === 'child');
    expect(parents.size).toBeGreaterThan(1);
    for (const child of children) {
      const parent = parents.get(child.metadata.parentId as string)!;
      expect(parent.start <= child.start && child.end <= parent.end).toBe(true);
    }
    expect([...parents.keys()][0]).toBe(contentId(chunks[0].text, { documentId: 'pc' }) + ':parent');
  });

  for (const [name, chunk] of chunkers) {
    it(`${name}: an edit in front keeps the id of every chunk whose text did not change, and ids stay unique`, () => {
      let kept = 0;
      fc.assert(
        fc.property(docArb, paragraphArb, fc.constantFrom('replace', 'insert', 'delete'), (doc, para, how) => {
          const first = doc.indexOf('.') + 1; // the end of the first paragraph
          const edited = how === 'replace' ? para + doc.slice(first) : how === 'insert' ? para + '\n\n' + doc : doc.slice(first).trimStart();
          const before = chunk(doc, 'doc.md');
          const after = chunk(edited, 'doc.md');
          expect(new Set(after.map((c) => c.id)).size).toBe(after.length);
          const a = keyed(before);
          const oldIds = new Set(a.values());
          for (const [k, id] of keyed(after)) {
            if (a.has(k)) {
              expect(id).toBe(a.get(k));
              kept++;
            } else expect(oldIds.has(id)).toBe(false);
          }
        }),
        // a fixed seed: the count below is of these 60 documents, not of whichever a run draws
        { numRuns: 60, seed: 20261201 },
      );
      // not vacuous: chunks of the later sections survive an edit of the first paragraph
      // (fixed-size windows all move when the text in front changes length: none need survive)
      if (name !== 'fixed') expect(kept).toBeGreaterThan(40);
    });
  }

  it('the registry\'s code chunker, QASC and QascIndex put the document id into their ids', async () => {
    const source = 'export function a(x: number) {\n  return x + 1;\n}\n\nexport function b(y: number) {\n  return y * 2;\n}\n';
    const code = createChunker('code', { language: 'typescript', chunkSize: 16 });
    const chunks = await code.chunk(source, { documentId: 'a.ts' });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.id)).toEqual(keyedIds(chunks, 'a.ts'));
    const text = 'Cats purr when they are happy. Dogs bark at strangers. Cats also sleep a lot during the day.';
    const qasc = new QueryAdaptiveChunker();
    const ranked = await qasc.query(text, 'cats', { documentId: 'pets.txt' });
    expect(ranked.map((c) => c.id)).toEqual(keyedIds(ranked, 'pets.txt'));
    expect(ranked[0].id).not.toBe((await qasc.query(text, 'cats'))[0].id);
    const index = new QascIndex();
    await index.addDocument('pets.txt', text);
    const [hit] = await index.query('cats', { topK: 1 });
    expect(hit.documentId).toBe('pets.txt');
    expect(hit.id).toBe(contentId(hit.text, { documentId: 'pets.txt' }));
  });

  it('a stream gives the whole-string ids, with a document id too', async () => {
    await fc.assert(
      fc.asyncProperty(docArb, fc.array(fc.nat({ max: 400 }), { maxLength: 12 }), async (doc, cuts) => {
        for (const c of [new MarkdownChunker({ unit: 'word', chunkSize: 30 }), new SentenceChunker({ unit: 'word', chunkSize: 12 }), new FixedSizeChunker({ unit: 'word', chunkSize: 8, chunkOverlap: 2 })]) {
          const whole = c.chunk(doc, { documentId: 'stream.md' });
          const streamed = await collect(chunkStream(c, splitAt(doc, cuts), { documentId: 'stream.md' }));
          expect(streamed.map((x) => x.id)).toEqual(whole.map((x) => x.id));
          expect(whole.map((x) => x.id)).toEqual(keyedIds(whole, 'stream.md'));
        }
      }),
      { numRuns: 40 },
    );
  });
});

/** The ids ContentIds gives `chunks` in order (what the assembler must have written). */
function keyedIds(chunks: Chunk[], documentId: string): string[] {
  const ids = new ContentIds(documentId);
  return chunks.map((c) => ids.id(c.text, c.embedText));
}

/** Ids pinned when the scheme was written (any runtime, any platform must give these). */
const PINNED = {
  hello: '4085c7b6581e52d6',
  helloA: '0a34d232772ba3fa',
  hello1: 'ce5daf0b9d0c3f21',
  helloEmbed: 'a9e9b84195cfba03',
};
