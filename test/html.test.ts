/**
 * The HTML chunker (issue 13, "HTML"): worked examples of heading paths, atomic blocks,
 * the row-by-row table rewrite, visible text, dropped landmarks and the embedText
 * budget; invalid HTML; linear work on documents of 50,000 elements; and the checker of
 * "nothing visible lost" (test/helpers/html-visible.ts) rejecting broken chunk lists.
 * The conformance suite runs the same invariants on generated HTML and real pages.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createChunker, HtmlChunker, InvalidOptionError, type Chunk, type HtmlChunk } from '../src/index.js';
import { UnknownOptionError } from '../src/engine/options/schema.js';
import { strategyForFile } from '../src/strategies/index.js';
import { columnLabels, labelledRow } from '../src/engine/boundaries/tables.js';
import { parseHtmlTree } from '../src/strategies/html/tree.js';
import { docsSitePage, LINEAR_SHAPES, navHeavyPage, salaryTablePage } from './helpers/html-pages.js';
import { visibleChars } from './helpers/html-visible.js';
import { expectInvariants, findViolations, referenceTokens } from './helpers/invariants.js';
import { markdownDir, repoRoot } from './helpers/paths.js';

const check = (html: string, chunks: readonly Chunk[], unit: 'char' | 'word' | 'token', budget: number, drop?: string[]) =>
  expectInvariants(html, chunks, { unit, budget, budgetOn: 'embedText', visible: visibleChars(html, drop) });

const SALARIES = `<h1>Werken bij</h1>
<h2>Salarissen</h2>
<table>
  <caption>Schalen 2025</caption>
  <thead><tr><th>Functie</th><th>Maximum salaris</th><th>Schaal</th></tr></thead>
  <tbody>
    <tr><td>Junior Developer</td><td>&euro;&nbsp;32.000</td><td>8</td></tr>
    <tr><td>Senior Developer</td><td>&euro;&nbsp;45.000</td><td>11</td></tr>
    <tr><td>Lead Developer</td><td>€ 56.000</td><td>12</td></tr>
  </tbody>
</table>`;

describe('HtmlChunker: worked examples', () => {
  it('a table too large for the budget is cut between rows, each row labelled by its header cells in embedText', () => {
    const chunks = new HtmlChunker({ unit: 'char', chunkSize: 120 }).chunk(SALARIES);
    const parts = chunks.filter((c) => c.metadata.tableRows);
    expect(parts.map((c) => c.metadata.tableRows)).toEqual([[1, 1], [2, 2], [3, 3]]);
    expect(parts[1].embedText).toBe(
      'Schalen 2025\nFunctie | Maximum salaris | Schaal\nFunctie: Senior Developer | Maximum salaris: € 45.000 | Schaal: 11',
    );
    // text stays the exact slice: the first part from <table>, the last to </table>, the middle one its row
    expect(parts[0].text.startsWith('<table>')).toBe(true);
    expect(parts[1].text).toBe('<tr><td>Senior Developer</td><td>&euro;&nbsp;45.000</td><td>11</td></tr>');
    expect(parts[2].text.endsWith('</table>')).toBe(true);
    for (const c of parts) expect(c.metadata.headingPath).toEqual(['Werken bij', 'Salarissen']);
    check(SALARIES, chunks, 'char', 120);
  });

  it('a table that fits is one chunk with its rows as lines, cells joined by " | "', () => {
    const chunks = new HtmlChunker({ unit: 'char', chunkSize: 400 }).chunk(SALARIES);
    expect(chunks).toHaveLength(1);
    expect(chunks[0].embedText).toBe(
      'Werken bij\nSalarissen\nSchalen 2025\nFunctie | Maximum salaris | Schaal\nJunior Developer | € 32.000 | 8\nSenior Developer | € 45.000 | 11\nLead Developer | € 56.000 | 12',
    );
    expect(chunks[0].metadata.elementTypes).toEqual(['h1', 'h2', 'table']);
    expect(chunks[0].metadata.tableRows).toBeUndefined();
  });

  it('labels: colspan spans columns, several header rows join, empty cells are left out', () => {
    const labels = columnLabels([[{ text: '2024', span: 2 }, { text: 'Totaal', span: 1 }], [{ text: 'Q1', span: 1 }, { text: 'Q2', span: 1 }]]);
    expect(labels).toEqual(['2024 Q1', '2024 Q2', 'Totaal']);
    expect(labelledRow(labels, [{ text: '10', span: 1 }, { text: '', span: 1 }, { text: '30', span: 1 }])).toBe('2024 Q1: 10 | Totaal: 30');
    expect(labelledRow([], [{ text: 'a', span: 1 }, { text: 'b', span: 1 }])).toBe('a | b');
  });

  it('heading paths: ranks nest, an article scopes its headings, a section without a heading gives its aria-label', () => {
    const html = `<h1>Blog</h1><p>Intro.</p>
      <article><h1>First post</h1><p>Body one.</p><h2>Details</h2><p>More.</p></article>
      <article><h1>Second post</h1><p>Body two.</p></article>
      <section aria-label="Comments"><p>Nice post!</p></section>
      <h2>Archive</h2><p>Older posts.</p>`;
    const chunks = new HtmlChunker({ unit: 'char', chunkSize: 1000 }).chunk(html);
    expect(chunks.map((c) => [c.metadata.headingPath, c.embedText])).toEqual([
      [['Blog'], 'Blog\nIntro.'],
      [['Blog', 'First post'], 'First post\nBody one.'],
      [['Blog', 'First post', 'Details'], 'Details\nMore.'],
      [['Blog', 'Second post'], 'Second post\nBody two.'],
      [['Blog', 'Comments'], 'Nice post!'],
      [['Blog', 'Archive'], 'Archive\nOlder posts.'],
    ]);
  });

  it('heading paths: h1–h6 nest by rank, a skipped rank nests under the nearest higher one, a higher rank closes the deeper ones', () => {
    const html =
      '<h1>A</h1><p>a</p><h2>B</h2><p>b</p><h3>C</h3><p>c</p><h4>D</h4><p>d</p><h5>E</h5><p>e</p><h6>F</h6><p>f</p>' +
      '<h3>G</h3><p>g</p><h2>H</h2><p>h</p><h4>I</h4><p>i</p><h1>J</h1><p>j</p>';
    const chunks = new HtmlChunker({ unit: 'char', chunkSize: 1000 }).chunk(html);
    expect(chunks.map((c) => [c.metadata.headingPath.join(' > '), c.embedText])).toEqual([
      ['A', 'A\na'],
      ['A > B', 'B\nb'],
      ['A > B > C', 'C\nc'],
      ['A > B > C > D', 'D\nd'],
      ['A > B > C > D > E', 'E\ne'],
      ['A > B > C > D > E > F', 'F\nf'],
      ['A > B > G', 'G\ng'],
      ['A > H', 'H\nh'],
      ['A > H > I', 'I\ni'],
      ['J', 'J\nj'],
    ]);
  });

  it('heading paths by section nesting: an h1 in a nested section nests by depth, not rank; a section without heading or label keeps the outer path and ends with it', () => {
    const nested = '<h1>Doc</h1><section><h1>A</h1><p>a</p><section><h1>B</h1><p>b</p></section><p>a2</p></section><section><h2>C</h2><p>c</p></section><p>end</p>';
    expect(new HtmlChunker({ unit: 'char', chunkSize: 1000 }).chunk(nested).map((c) => [c.metadata.headingPath, c.embedText])).toEqual([
      [['Doc', 'A'], 'Doc\nA\na'],
      [['Doc', 'A', 'B'], 'B\nb'],
      [['Doc', 'A'], 'a2'],
      [['Doc', 'C'], 'C\nc'],
      [['Doc'], 'end'],
    ]);
    const unnamed = '<h1>Doc</h1><h2>Part</h2><section><p>unnamed</p><h3>Inside</h3><p>i</p></section><p>after</p><article title="Note"><p>n</p></article>';
    expect(new HtmlChunker({ unit: 'char', chunkSize: 1000 }).chunk(unnamed).map((c) => [c.metadata.headingPath, c.embedText])).toEqual([
      [['Doc', 'Part'], 'Doc\nPart\nunnamed'],
      [['Doc', 'Part', 'Inside'], 'Inside\ni'],
      [['Doc', 'Part'], 'after'],
      [['Doc', 'Part', 'Note'], 'n'],
    ]);
  });

  it('a chunk never crosses a change of heading path; headings directly followed by deeper ones start its first chunk', () => {
    const html = '<h1>Guide</h1><h2>Install</h2><p>Run npm ci.</p><h2>Use</h2><p>Import it.</p><h2>Empty</h2><h2>Last</h2><p>End.</p>';
    const chunks = new HtmlChunker({ unit: 'char', chunkSize: 1000 }).chunk(html);
    expect(chunks.map((c) => c.embedText)).toEqual(['Guide\nInstall\nRun npm ci.', 'Use\nImport it.', 'Empty', 'Last\nEnd.']);
    expect(chunks[0].metadata.headingPath).toEqual(['Guide', 'Install']);
  });

  it('lists, pre blocks and tables are kept whole where they fit; a list too large is cut between items', () => {
    const list = '<ul>' + Array.from({ length: 6 }, (_, i) => `<li>item number ${i + 1}</li>`).join('') + '</ul>';
    const pre = '<pre><code>fn main() {\n    println!("hi");\n}</code></pre>';
    const html = `<p>Before.</p>${list}${pre}`;
    const whole = new HtmlChunker({ unit: 'char', chunkSize: 100 }).chunk(html);
    expect(whole.map((c) => c.metadata.elementTypes)).toEqual([['p', 'ul'], ['pre']]);
    expect(whole[1].embedText).toBe('fn main() {\n    println!("hi");\n}');
    const cut = new HtmlChunker({ unit: 'char', chunkSize: 40 }).chunk(html);
    const items = cut.filter((c) => c.metadata.elementTypes[0] === 'li');
    expect(items.map((c) => c.embedText)).toEqual(['item number 1\nitem number 2', 'item number 3\nitem number 4', 'item number 5\nitem number 6']);
    check(html, cut, 'char', 40);
  });

  it('embedText is the visible text: entities decoded, whitespace collapsed, no tags, nothing of script, style, template, noscript or hidden elements', () => {
    const html = `<p>Caf&eacute;   &amp;\n   <b>bar</b>&nbsp;&#x1F600;</p>
      <script>document.write("<p>SECRET</p>")</script><style>p::after { content: "SECRET" }</style>
      <template><p>SECRET</p></template><noscript>SECRET</noscript><div hidden>SECRET</div>
      <p style="display:none">SECRET</p><p>Line<br>break</p>`;
    const [chunk] = new HtmlChunker({ unit: 'char', chunkSize: 500 }).chunk(html);
    expect(chunk.embedText).toBe('Café & bar 😀\nLine\nbreak');
    expect(chunk.text).toBe(html.slice(chunk.start, chunk.end));
    expect(chunk.text).toContain('SECRET');
    check(html, [chunk], 'char', 500);
  });

  it('nav, aside and the page header/footer are dropped and reported; drop: [] keeps them; an article header is content', () => {
    const html = `<header><a href="/">Site</a></header><nav><a href="/a">A</a></nav>
      <main><article><header><h1>Title</h1></header><p>Text.</p><footer>By me</footer></article>
      <aside>Related</aside><div role="navigation">Pages</div></main><footer>© 2025</footer>`;
    const chunks = new HtmlChunker({ unit: 'char', chunkSize: 500 }).chunk(html);
    expect(chunks.map((c) => c.embedText)).toEqual(['Title\nText.\nBy me']);
    expect(chunks[0].metadata.dropped!.map((d) => [d.element, html.slice(d.start, d.end).slice(0, 12)])).toEqual([
      ['header', '<header><a h'],
      ['nav', '<nav><a href'],
      ['aside', '<aside>Relat'],
      ['div', '<div role="n'],
      ['footer', '<footer>© 20'],
    ]);
    const kept = new HtmlChunker({ unit: 'char', chunkSize: 500, drop: [] }).chunk(html);
    expect(kept.map((c) => c.embedText).join('\n')).toBe('Site\nA\nTitle\nText.\nBy me\nRelated\nPages\n© 2025');
    check(html, kept, 'char', 500, []);
  });

  it('visibleSpans: where the visible text of the kept content lies; every character of it is in a chunk', () => {
    const html = '<nav>Menu</nav><p>Caf&eacute; <b>bar</b></p><script>x()</script><p>End.</p>';
    const chunker = new HtmlChunker({ unit: 'char', chunkSize: 6 });
    const spans = chunker.visibleSpans(html);
    expect(spans.map((s) => html.slice(s.start, s.end))).toEqual(['Caf&eacute;', 'bar', 'End.']);
    const chunks = chunker.chunk(html);
    for (const s of spans) for (let i = s.start; i < s.end; i++) if (/\S/.test(html[i])) expect(chunks.some((c) => c.start <= i && i < c.end)).toBe(true);
  });

  it('the budget holds for embedText (the visible text), not for the markup around it', () => {
    const html = '<div class="a-very-long-class-name another-class"><p data-x="1234567890">short text here</p></div>'.repeat(20);
    const chunks = new HtmlChunker({ unit: 'token', chunkSize: 16 }).chunk(html);
    for (const c of chunks) {
      expect(referenceTokens(c.embedText)).toBeLessThanOrEqual(16);
      expect(c.metadata.embedUnitCount).toBe(referenceTokens(c.embedText));
      expect(c.tokenCount).toBe(referenceTokens(c.embedText)); // tokenCount counts what is embedded, as the budget does
    }
    expect(Math.max(...chunks.map((c) => c.tokenCount))).toBeLessThanOrEqual(16);
    expect(Math.max(...chunks.map((c) => referenceTokens(c.text)))).toBeGreaterThan(16); // the slices, markup included, are larger
    check(html, chunks, 'token', 16);
  });

  it('one row over the budget is a part of its own, flagged oversized', () => {
    const html = '<table><tr><th>Name</th><th>Note</th></tr><tr><td>a</td><td>short</td></tr><tr><td>b</td><td>' + 'long '.repeat(40) + '</td></tr></table>';
    const chunks = new HtmlChunker({ unit: 'word', chunkSize: 12 }).chunk(html);
    expect(chunks.map((c) => [c.metadata.tableRows, c.metadata.oversized ?? false])).toEqual([
      [[1, 1], false],
      [[2, 2], true],
    ]);
  });

  it('a paragraph longer than the budget is split as text with chunkOverlap; its pieces map back to exact slices', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const html = `<p>${words.replace('w30', '<b>w30</b>').replace('w31', 'w&#51;1')}</p>`;
    const chunks = new HtmlChunker({ unit: 'word', chunkSize: 20, chunkOverlap: 4 }).chunk(html);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[0].text.startsWith('<p>')).toBe(true);
    expect(chunks[chunks.length - 1].text.endsWith('</p>')).toBe(true);
    expect(chunks.some((c) => c.metadata.overlap > 0)).toBe(true);
    check(html, chunks, 'word', 20);
  });

  it('options are validated by the schema', () => {
    expect(() => new HtmlChunker({ chunkSize: 0 })).toThrow(InvalidOptionError);
    expect(() => new HtmlChunker({ chunkSize: 10, chunkOverlap: 10 })).toThrow(/chunkOverlap/);
    expect(() => new HtmlChunker({ drop: ['menu' as never] })).toThrow(/landmark names/);
    expect(() => createChunker('html', { chunk_size: 5 })).toThrow(UnknownOptionError);
    expect(() => createChunker('html', { chunk_size: 5 })).toThrow(/did you mean chunkSize/);
  });

  it('--strategy auto picks by extension', () => {
    expect(strategyForFile('page.html')).toBe('html');
    expect(strategyForFile('dir/Page.HTM')).toBe('html');
    expect(strategyForFile('a.xhtml')).toBe('html');
    expect(strategyForFile('README.md')).toBe('markdown');
    expect(strategyForFile('guide.markdown')).toBe('markdown');
    expect(strategyForFile('src\\cli\\main.ts')).toBe('code');
    expect(strategyForFile('lib/stats.PY')).toBe('code');
    expect(strategyForFile('notes.txt')).toBe('recursive');
    expect(strategyForFile('.html')).toBe('fixed');
    expect(strategyForFile('Makefile')).toBe('fixed');
    expect(strategyForFile('data.csv')).toBe('fixed');
    expect(strategyForFile('data.csv', 'sentence')).toBe('sentence');
  });
});

describe('HtmlChunker: real pages', () => {
  const pages: Array<[string, string]> = [
    ['docs page (eval/markdown/ch08-02-strings.md)', docsSitePage('Strings', readFileSync(join(markdownDir, 'ch08-02-strings.md'), 'utf8'), ['Strings'])],
    ['salary table, 600 rows', salaryTablePage(600)],
    ['navigation-heavy page', navHeavyPage()],
    ['broken page (test/golden/html/broken.html)', readFileSync(join(repoRoot, 'test', 'golden', 'html', 'broken.html'), 'utf8')],
  ];
  for (const [name, html] of pages) {
    it(`${name}: every invariant, every unit`, () => {
      const visible = visibleChars(html);
      for (const [unit, size] of [['char', 800], ['word', 120], ['token', 200]] as const) {
        const chunks = new HtmlChunker({ unit, chunkSize: size }).chunk(html);
        expect(chunks.length).toBeGreaterThan(0);
        expectInvariants(html, chunks, { unit, budget: size, budgetOn: 'embedText', visible });
      }
    });
  }

  it('docs page: headings become paths, code blocks stay whole, no chunk holds the site navigation or scripts', () => {
    const [, html] = pages[0];
    const chunks = new HtmlChunker({ unit: 'token', chunkSize: 256 }).chunk(html);
    expect(chunks[0].metadata.headingPath).toEqual(['Storing UTF-8 Encoded Text with Strings']);
    expect(chunks.some((c) => c.metadata.headingPath.join(' > ') === 'Storing UTF-8 Encoded Text with Strings > Creating a New String')).toBe(true);
    for (const c of chunks) {
      expect(c.embedText).not.toMatch(/dataLayer|On this page|Previous|MIT licence/);
      if (c.metadata.elementTypes.includes('pre') && !c.metadata.oversized) expect(c.text).toMatch(/<pre><code[^>]*>[\s\S]*<\/code><\/pre>/);
    }
    expect(chunks[0].metadata.dropped!.map((d) => d.element)).toEqual(['header', 'aside']);
  });

  it('salary table: every part of a 2000-row table carries the header labels on every row', () => {
    const html = salaryTablePage(2000);
    const chunks = new HtmlChunker({ unit: 'token', chunkSize: 256 }).chunk(html);
    const parts = chunks.filter((c) => c.metadata.tableRows);
    expect(parts.length).toBeGreaterThan(50);
    expect(parts[parts.length - 1].metadata.tableRows![1]).toBe(2000);
    for (const c of parts) {
      const rows = c.embedText.split('\n').slice(2);
      expect(rows).toHaveLength(c.metadata.tableRows![1] - c.metadata.tableRows![0] + 1);
      for (const row of rows) expect(row).toMatch(/^Functie: .+ \| Schaal: \d+ \| Minimum salaris: € [\d.]+ \| Maximum salaris: € [\d.]+ \| Afdeling: /);
    }
  });
});

describe('HtmlChunker: invalid HTML', () => {
  const cases: Array<[string, string]> = [
    ['unclosed tags', '<div><p>one<p>two<ul><li>a<li>b<table><tr><td>x<td>y<h2>Heading<p>after'],
    ['stray end tags', '</div></p></span></table></li>text</b> more </html></body> end'],
    ['misnested formatting', '<p><b>bold <i>both</b> italic</i> plain</p><b><p>block in inline</b></p>'],
    ['unterminated comment, script and tag', '<p>before</p><!-- never closed <p>hidden'],
    ['unterminated script', '<p>before</p><script>var x = "<p>not text</p>'],
    ['a tag that never ends', '<p>before</p><div class="x'],
    ['text only, with < and &', 'a < b && c > d; x&y; <|endoftext|> &#xD800; &#0;'],
    ['empty and blank', '   \n\t  '],
    ['only invisible content', '<script>x</script><style>y</style><nav>menu</nav>'],
  ];
  for (const [name, html] of cases) {
    it(`${name}: chunks without error, invariants hold`, () => {
      for (const unit of ['char', 'word', 'token'] as const) {
        const chunks = new HtmlChunker({ unit, chunkSize: 8 }).chunk(html);
        check(html, chunks, unit, 8);
      }
    });
  }

  it('a 10 MB single line chunks without error, in pieces within the budget', () => {
    const line = '<p>' + 'lorem ipsum dolor sit amet, <b>consectetur</b> adipiscing &amp; elit '.repeat(150_000) + '</p>';
    expect(line.length).toBeGreaterThan(10_000_000);
    expect(line.includes('\n')).toBe(false);
    const chunker = new HtmlChunker({ unit: 'char', chunkSize: 2000, chunkOverlap: 0, countTokens: false });
    const chunks = chunker.chunk(line);
    expect(chunks.length).toBeGreaterThan(3000);
    expect(chunks.every((c) => c.metadata.embedUnitCount <= 2000 && !c.metadata.oversized)).toBe(true);
    const violations = findViolations(line, chunks, {
      unit: 'char',
      budget: 2000,
      budgetOn: 'embedText',
      tokenCounts: false,
      skip: { lost: 'checked on the visible text by the count below' },
    });
    expect(violations).toEqual([]);
    // every word of the visible text is in an embedText, in order
    expect(chunks.map((c) => c.embedText).join(' ').split(' ').filter((w) => w === 'consectetur')).toHaveLength(150_000);
  }, 120_000);
});

describe('HtmlChunker: linear work on documents of 50,000 elements', () => {
  // work counted by the chunker (tokenizer events, tree and walk steps, packer steps and measures): deterministic, not timed
  for (const [name, make] of Object.entries(LINEAR_SHAPES)) {
    it(`${name}: 10× the elements, 10× the work (±5 %)`, () => {
      const work = (n: number) => {
        const chunker = new HtmlChunker({ unit: 'char', chunkSize: 64 });
        const html = make(n);
        const counted = { operations: 0 };
        chunker.chunk(html, { work: counted });
        return counted.operations;
      };
      const small = work(5_000);
      const large = work(50_000);
      expect(parseHtmlTree(make(50_000)).operations).toBeGreaterThanOrEqual(50_000);
      expect(large / small).toBeGreaterThan(9.5);
      expect(large / small).toBeLessThan(10.5);
    }, 60_000);
  }
});

describe('the HTML checker rejects broken chunk lists', () => {
  const html = '<h1>Title</h1><p>Visible text.</p><script>var hidden = 1;</script><p>More text.</p>';
  const good = () => new HtmlChunker({ unit: 'char', chunkSize: 20 }).chunk(html);
  const checks = (chunks: HtmlChunk[]) => findViolations(html, chunks, { unit: 'char', budget: 20, budgetOn: 'embedText', visible: visibleChars(html) }).map((v) => v.check);
  it('a correct list passes', () => expect(checks(good())).toEqual([]));
  it('a lost paragraph', () => expect(checks(good().slice(0, -1))).toContain('lost'));
  it('script text in embedText', () => {
    const chunks = good();
    chunks[1] = { ...chunks[1], embedText: chunks[1].embedText + ' var hidden' };
    expect(checks(chunks)).toContain('visible');
  });
  it('embedText missing a word of its span', () => {
    const chunks = good();
    chunks[0] = { ...chunks[0], embedText: 'Title' };
    expect(checks(chunks)).toContain('visible');
  });
  it('embedText over the budget, not flagged', () => {
    const chunks = good();
    chunks[1] = { ...chunks[1], embedText: chunks[1].embedText + ' padding padding padding' };
    expect(checks(chunks)).toContain('embedBudget');
  });
});
