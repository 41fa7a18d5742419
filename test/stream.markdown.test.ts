/**
 * MarkdownChunker.chunkStream equals MarkdownChunker.chunk on the whole text (every
 * field: id, index, offsets, heading path, embedText, metadata), over generated Markdown
 * split anywhere (inside surrogate pairs and CRLF too) and over the shared Markdown files
 * in 4 KiB pieces.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarkdownChunker, type Chunk, type MarkdownBlock } from '../src/index.js';
import { LONG_LINE } from '../src/strategies/markdown/markdown.js';
import { contentId } from '../src/engine.js';
import { scanMarkdown } from '../src/strategies/markdown/blocks.js';
import { corporaDir, markdownDir, sharedFiles } from './helpers/paths.js';
import { collect, splitAt, webStream, fourKiB, streamReading, oneLineChinese } from './helpers/stream.js';

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

  it('front matter closed by `...` is a chunk of its own; an opening fence held past 256 lines without a closing line is a thematic break, and the stream goes on', async () => {
    const chunker = new MarkdownChunker({ unit: 'word', chunkSize: 40 });
    const intro = Array.from({ length: 2000 }, (_, i) => `Line ${i} of the introduction.`).join('\n');
    const spec = "---\ntitle: CommonMark Spec\nauthor: John MacFarlane\nversion: '0.31.2'\n...\n\n# Introduction\n\n" + intro + '\n\n---\n\n# Next\n\nend\n';
    const whole = chunker.chunk(spec);
    expect([whole[0].text, whole[0].metadata.blockTypes]).toEqual(["---\ntitle: CommonMark Spec\nauthor: John MacFarlane\nversion: '0.31.2'\n...", ['yaml']]);
    expect(whole[1].metadata.headingPath).toEqual(['Introduction']);
    expect(await collect(chunker.chunkStream(spec.split(/(?<=\n)/)))).toEqual(whole);
    // without the `...`, the `---` 2,000 lines on closes nothing: the first line is a thematic break, and
    // a stream of one line per piece yields its first chunk after the bound (steps are tried as the held text grows by half), long before the end
    const open = spec.replace('...\n', '');
    const chunks = chunker.chunk(open);
    expect(chunks[0].metadata.blockTypes).toEqual(['thematicBreak', 'paragraph']);
    expect(chunks.every((c) => c.text.length < 1000)).toBe(true);
    let pulled = 0;
    async function* lines() {
      for (const l of open.split(/(?<=\n)/)) {
        pulled++;
        yield l;
      }
    }
    const streamed: Chunk[] = [];
    let firstAt = 0;
    for await (const c of chunker.chunkStream(lines())) if (streamed.push(c) === 1) firstAt = pulled;
    expect(streamed).toEqual(chunks);
    expect(firstAt).toBeGreaterThan(256);
    expect(firstAt).toBeLessThan(450);
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

  describe('a stream resumes only where nothing open can change (one piece, or cut at the worst line)', () => {
    const chunker = new MarkdownChunker({ unit: 'char', chunkSize: 100 });
    const summary = (chunks: Chunk[]) => chunks.map((c) => [c.text, c.metadata.headingPath, c.metadata.blockTypes]);

    it('a line of white space Markdown does not count as blank (U+00A0, U+3000, U+2028) under a setext underline', async () => {
      // the line is paragraph text (Markdown's blank is spaces and tabs), so `=` makes it a heading of empty text
      for (const space of ['\u00a0', '\u3000', '\u2028', '\u2003']) {
        const text = `# Guide\n${space}\n=\n`;
        const whole = chunker.chunk(text);
        expect(summary(whole)).toEqual([
          ['# Guide', ['Guide'], ['heading']],
          ['=', [''], ['heading']],
        ]);
        expect(await collect(chunker.chunkStream([text]))).toEqual(whole);
        expect(await collect(chunker.chunkStream(text.split('')))).toEqual(whole);
      }
    });

    it('a setext heading whose paragraph began with a link reference definition', async () => {
      // `1)` continues the paragraph `[x]: /url` (an ordered item other than 1. cannot interrupt one, nor an empty one)
      for (const text of ['[x]: /url\n1)\n-\n', '[x]: /url\n2)\n===\n', '# A\n\n[x]: /url\n1)\n---\ntext\n']) {
        const whole = chunker.chunk(text);
        expect(whole.some((c) => c.metadata.blockTypes.includes('heading') && c.text.startsWith(text.includes('2)') ? '2)' : '1)'))).toBe(true);
        expect(await collect(chunker.chunkStream([text]))).toEqual(whole);
        for (let cut = 0; cut <= text.length; cut++) expect(await collect(chunker.chunkStream([text.slice(0, cut), text.slice(cut)]))).toEqual(whole);
      }
      expect(summary(chunker.chunk('[x]: /url\n1)\n-\n'))).toEqual([
        ['[x]: /url', [], ['definition']],
        ['1)\n-', ['1)'], ['heading']],
      ]);
    });

    it('a piece ending between `[^1]: fn` and the next line `---`', async () => {
      for (const [a, b] of [
        ['[^1]: fn\n', '---\n[x]: /u\n1)\n===\n'],
        ['[x]: /u\n1)\n===\n[^1]: fn\n', '---\n'],
        ['# A [^1]\n\n[^1]: fn\n', '---\n\u00a0\n---\n# B\n'],
      ]) {
        const whole = chunker.chunk(a + b);
        expect(await collect(chunker.chunkStream([a, b]))).toEqual(whole);
        expect(await collect(chunker.chunkStream(webStream([a, b])))).toEqual(whole);
      }
      expect(summary(chunker.chunk('[^1]: fn\n---\n[x]: /u\n1)\n===\n'))).toEqual([
        ['[^1]: fn\n---\n[x]: /u', [], ['footnoteDefinition', 'thematicBreak', 'definition']],
        ['1)\n===', ['1)'], ['heading']],
      ]);
    });

    it("every resume point of a partial scan: scanning from it gives the whole scan's blocks from there on", () => {
      const shift = (b: MarkdownBlock, d: number): unknown => ({
        ...b,
        start: b.start + d,
        end: b.end + d,
        ...(b.children ? { children: b.children.map((c) => shift(c, d)) } : {}),
        ...(b.rows ? { rows: b.rows.map((r) => ({ start: r.start + d, end: r.end + d })) } : {}),
      });
      const mdLine = fc.constantFrom('# A', 'text', '', ' ', '\u00a0', '\u3000', '=', '---', '-', '1)', '2)', '- a', '  - b', '> q', '[x]: /u', '[^1]: fn', '    code', '```', '| a | b |', '|---|---|', '<div>', '<span>', '***', '\t', 'x [x]');
      let points = 0;
      fc.assert(
        fc.property(fc.array(mdLine, { maxLength: 14 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
          const text = lines.join(eol) + eol;
          const scan = scanMarkdown(text, { partial: true });
          const whole = scanMarkdown(text);
          expect(scan.blocks).toEqual(whole.blocks); // partial changes nothing but what it reports
          for (const p of scan.resumePoints) {
            points++;
            const rest = scanMarkdown(text.slice(p), { documentStart: false, definitions: whole.definitions, footnotes: whole.footnotes });
            expect(rest.blocks.map((b) => shift(b, p)), `from ${p} of ${JSON.stringify(text)}`).toEqual(whole.blocks.filter((b) => b.start >= p));
            expect(whole.blocks.every((b) => b.start >= p || b.end <= p)).toBe(true);
          }
        }),
        { numRuns: 400, seed: 27 },
      );
      expect(points).toBeGreaterThan(400);
      // lines 0–9: `# A`, `text`, blank, `- a`, blank, `  b`, a fence at column 0 (it ends the list), `x`, its closing fence, `end`:
      // no point inside the paragraph (5), the list (14, 15), the fence (23, closing line 25)
      expect(scanMarkdown('# A\ntext\n\n- a\n\n  b\n```\nx\n```\nend\n', { partial: true }).resumePoints).toEqual([0, 4, 9, 10, 19, 29]);
    });
  });

  it('ids are content ids of the chunk texts (worked example)', () => {
    const text = '# A\n\none\n\n# B\n\ntwo';
    const chunks = new MarkdownChunker({ unit: 'word', chunkSize: 10 }).chunk(text);
    expect(chunks.map((c) => c.id)).toEqual([contentId('# A\n\none'), contentId('# B\n\ntwo')]);
  });
});

describe('MarkdownChunker: long lines (issue 38)', () => {
  it('a one-line paragraph streams: first chunk before 2 x LONG_LINE code units are read, chunks equal chunk(), none crosses a window', async () => {
    const text = '# 标题\n\n' + oneLineChinese(3 * LONG_LINE);
    for (const unit of ['char', 'word', 'token'] as const) {
      const chunker = new MarkdownChunker({ unit, chunkSize: 128 });
      const { chunks: streamed, firstAt } = await streamReading(text, (source) => chunker.chunkStream(source));
      expect(firstAt).toBeGreaterThan(LONG_LINE);
      expect(firstAt).toBeLessThanOrEqual(2 * LONG_LINE);
      expect(streamed).toEqual(chunker.chunk(text));
      // the heading path holds past the cuts, and no chunk spans more than one window
      expect(streamed.every((c) => (c.metadata.headingPath as string[])[0] === '标题')).toBe(true);
      expect(Math.max(...streamed.map((c) => c.end - c.start))).toBeLessThanOrEqual(LONG_LINE);
    }
  });

  it('a long line inside a fenced code block or a list is not cut there', () => {
    const long = 'x'.repeat(LONG_LINE + 10);
    const fenced = '```\n' + long + '\n```\n';
    const chunker = new MarkdownChunker({ unit: 'char', chunkSize: 100_000 });
    expect(chunker.chunk(fenced).map((c) => [c.start, c.end])).toEqual([[0, fenced.length - 1]]);
    const listed = '- ' + long;
    expect(chunker.chunk(listed).map((c) => [c.start, c.end])).toEqual([[0, listed.length]]);
    // a paragraph line is cut: two chunks, the first ending in the line's second half
    const para = chunker.chunk(long);
    expect(para.length).toBe(2);
    expect(para[0].end).toBe(LONG_LINE);
  });
});
