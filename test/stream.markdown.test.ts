/**
 * MarkdownChunker.chunkStream equals MarkdownChunker.chunk on the whole text (every
 * field: id, index, offsets, heading path, embedText, metadata), over generated Markdown
 * split anywhere (inside surrogate pairs and CRLF too) and over the shared Markdown files
 * in 4 KiB pieces.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentId, MarkdownChunker, type Chunk } from '../src/index.js';
import { corporaDir, markdownDir, sharedFiles } from './helpers/paths.js';
import { collect, splitAt, webStream, fourKiB } from './helpers/stream.js';

const line = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('# Title', '## Part 😀', '### Deep', '#### Deeper', '## Part', '# Café', '  # Indented', '#NotHeading', '## Link [x]') },
  { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z0-9 ,.]{1,40}$/) },
  { weight: 4, arbitrary: fc.constantFrom('', '', ' ') },
  {
    weight: 4,
    arbitrary: fc.constantFrom('```', '```js', '~~~', '- item one', '- item two', '1. first', '  - nested', '> quoted text', '> # quoted heading',
      '| a | b |', '|---|---|', '| 1 | 2 |', '===', '---', '<div>', '</div>', '    indented code', '[x]: /url', 'see [x] and [y]', '😀\ud83d', '***', '+++', '<!--', '-->', '[^1]', 'note[^1]: n', '\t# tab', '# [x] ref'),
  },
);
const markdownArb = fc
  .tuple(fc.array(line, { maxLength: 60 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, eol, front]) => (front ? ['---', 'title: x', '---'] : []).concat(lines).join(eol));
const cutsArb = fc.array(fc.nat({ max: 2000 }), { maxLength: 40 });

describe('MarkdownChunker.chunkStream equals chunk()', () => {
  for (const unit of ['char', 'word', 'token'] as const) {
    it(`${unit} units: generated Markdown, random budgets, random splits`, async () => {
      await fc.assert(
        fc.asyncProperty(markdownArb, cutsArb, fc.integer({ min: 2, max: 60 }), fc.boolean(), fc.boolean(), async (text, cuts, chunkSize, contextualHeaders, asWeb) => {
          const chunker = new MarkdownChunker({ unit, chunkSize, contextualHeaders });
          const whole = chunker.chunk(text);
          const pieces = splitAt(text, cuts);
          expect(await collect(chunker.chunkStream(asWeb ? webStream(pieces) : pieces))).toEqual(whole);
        }),
        { numRuns: Number(process.env.RUNS ?? (unit === 'token' ? 120 : 200)) },
      );
    });
  }

  it('one code unit per piece and every two-way split of a document with CRLF, fences and a table', async () => {
    const text = '---\r\ntitle: t\r\n---\r\n# A\r\n\r\nIntro 😀 text.\r\n\r\n## B\r\n```\r\n# not a heading\r\n```\r\n| h | i |\r\n|---|---|\r\n| 1 | 2 |\r\n### C\r\n- one\r\n- two\r\n# D\r\nEnd.';
    const chunker = new MarkdownChunker({ unit: 'char', chunkSize: 20 });
    const whole = chunker.chunk(text);
    expect(whole.map((c) => c.metadata.headingPath.join('/'))).toContain('A/B/C');
    expect(await collect(chunker.chunkStream(text.split('')))).toEqual(whole);
    for (let cut = 0; cut <= text.length; cut++) {
      expect(await collect(chunker.chunkStream([text.slice(0, cut), text.slice(cut)]))).toEqual(whole);
    }
  });

  it('shared Markdown files and corpora in 4 KiB pieces: equal, and streamed', async () => {
    const files = [...sharedFiles(markdownDir, '.md'), ...sharedFiles(corporaDir, '.md')];
    for (const file of files) {
      const text = readFileSync(file, 'utf8').slice(0, 120_000);
      for (const options of [{ chunkSize: 256 }, { unit: 'char' as const, chunkSize: 800, contextualHeaders: true }]) {
        const chunker = new MarkdownChunker(options);
        const whole = chunker.chunk(text);
        expect(await collect(chunker.chunkStream(webStream(fourKiB(text))))).toEqual(whole);
      }
    }
  });

  it('yields sections before the stream ends', async () => {
    const chunker = new MarkdownChunker({ unit: 'word', chunkSize: 50 });
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 100_000; i++) {
        pulled++;
        yield `## Section ${i}\n\nSome text of section ${i}.\n\n`;
      }
    }
    const it = chunker.chunkStream(source())[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value?.text).toBe('## Section 0\n\nSome text of section 0.');
    expect(pulled).toBeLessThan(4);
    let last: Chunk | undefined;
    for (let k = 0; k < 1000; k++) last = (await it.next()).value;
    expect(last?.metadata.headingPath).toEqual(['Section 1000']);
    expect(pulled).toBeLessThan(1004);
    await it.return?.(undefined);
  });

  it('link reference definitions before or after a heading with [label]: equal (paths "A x", not "A [x]")', async () => {
    const docs = [
      '# A [x]\n\ntext\n\n# B\n\nmore\n\n# C\n\nend\n\n[x]: /u\n',
      '[x]: /u\n\n# Z\n\ntext\n\n# B\n\nmore\n\n# A [x]\n\nend\n',
      '# A [^1]\n\ntext\n\n# B\n\nmore\n\n# C\n\n[^1]: note\n',
    ];
    for (const text of docs) {
      const chunker = new MarkdownChunker({ unit: 'word', chunkSize: 3 });
      const whole = chunker.chunk(text);
      expect(await collect(chunker.chunkStream(text.split(/(?<=\n)/)))).toEqual(whole);
      expect(await collect(chunker.chunkStream(text.split('')))).toEqual(whole);
    }
    expect(new MarkdownChunker({ unit: 'word', chunkSize: 3 }).chunk(docs[0])[0].metadata.headingPath).toEqual(['A x']);
  });

  it('an unclosed front matter fence is a thematic break (CommonMark; micromark read the rest as paragraphs): equal', async () => {
    const text = '---\n# Title\n> # quoted heading\n\n# Next\n\n- a list\n';
    const chunker = new MarkdownChunker({ unit: 'word', chunkSize: 2 });
    const whole = chunker.chunk(text);
    expect(new MarkdownChunker({ unit: 'word', chunkSize: 50 }).chunk(text).map((c) => c.metadata.blockTypes)).toEqual([
      ['thematicBreak'],
      ['heading', 'blockquote'],
      ['heading', 'list'],
    ]);
    expect(await collect(chunker.chunkStream(text.split(/(?<=\n)/)))).toEqual(whole);
    expect(await collect(chunker.chunkStream(text.split('')))).toEqual(whole);
    // closed after the stream has gone on: front matter after all, held until then
    const closed = '---\ntitle: x\n# not a heading\n---\n# A\n\ntext\n';
    const c2 = chunker.chunk(closed);
    expect(c2[0].metadata.blockTypes).toEqual(['yaml']);
    expect(await collect(chunker.chunkStream(closed.split('')))).toEqual(c2);
  });

  it('a heading with an undefined [label] is held until its definition arrives, then the stream goes on', async () => {
    const chunker = new MarkdownChunker({ unit: 'word', chunkSize: 50 });
    const head = '# Intro\n\nfirst\n\n# See [x]\n\nsecond\n\n';
    const later = (i: number) => `# Part ${i}\n\ntext ${i}\n\n`;
    let pulled = 0;
    const seen: number[] = [];
    async function* source() {
      pulled++;
      yield head;
      for (let i = 0; i < 20; i++) {
        pulled++;
        yield later(i);
      }
      pulled++;
      yield '[x]: /u\n\n';
      for (let i = 20; i < 40; i++) {
        pulled++;
        yield later(i);
      }
    }
    const out: Chunk[] = [];
    for await (const c of chunker.chunkStream(source())) {
      out.push(c);
      seen.push(pulled);
    }
    const text = head + Array.from({ length: 20 }, (_, i) => later(i)).join('') + '[x]: /u\n\n' + Array.from({ length: 20 }, (_, i) => later(20 + i)).join('');
    expect(out).toEqual(chunker.chunk(text));
    expect(out[1].metadata.headingPath).toEqual(['See x']); // the definition made [x] a link
    expect(seen[0]).toBeLessThan(4); // "Intro" before the undefined label came
    expect(seen[1]).toBeGreaterThanOrEqual(22); // "See [x]" only once its definition had arrived
    expect(seen[seen.length - 5]).toBeLessThan(42); // and the rest streamed again
  });

  it('ids are content ids of the chunk texts (worked example)', () => {
    const text = '# A\n\none\n\n# B\n\ntwo';
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 10 }).chunk(text);
    expect(chunks.map((c) => c.id)).toEqual([contentId('# A\n\none'), contentId('# B\n\ntwo')]);
  });
});
