/**
 * The Markdown block scanner (`markdownBlocks`, src/strategies/markdown/blocks.ts) and heading
 * text (`inlineText`): worked examples of every block kind; the same blocks, spans,
 * heading texts and table rows as micromark / mdast (the parser it replaced) on every
 * real Markdown file in eval/, texts/ and the repository's docs; heading text equal to
 * mdast-util-to-string over generated inline Markdown; structural invariants over
 * generated documents; and the places where it follows CommonMark where micromark does
 * not, pinned.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRONT_MATTER_MAX_LINES, inlineText, markdownBlocks, MAX_NESTING, type MarkdownBlock } from '../src/strategies/markdown/blocks.js';
import { mdastShapes, ourShapes } from './helpers/mdast.js';
import { corporaDir, markdownDir, repoRoot, sharedFiles, textsDir } from './helpers/paths.js';

const show = (b: MarkdownBlock): unknown[] => [
  b.type,
  b.start,
  b.end,
  ...(b.text !== undefined ? [b.text] : []),
  ...(b.children ? [b.children.map(show)] : []),
  ...(b.rows ? [b.rows.map((r) => [r.start, r.end])] : []),
];
const blocks = (text: string) => markdownBlocks(text).map(show);

describe('worked examples', () => {
  it('headings (ATX, setext, closing #s), front matter, a leading U+FEFF', () => {
    expect(blocks('\ufeff# Title ##\n\nbody')).toEqual([
      ['heading', 1, 11, 'Title'],
      ['paragraph', 13, 17],
    ]);
    expect(blocks('Title\n===\n\npara\nlazy\n---')).toEqual([
      ['heading', 0, 9, 'Title'],
      ['heading', 11, 24, 'para lazy'],
    ]);
    expect(blocks('---\ntitle: x\n---\n# A')).toEqual([
      ['yaml', 0, 16],
      ['heading', 17, 20, 'A'],
    ]);
    expect(blocks('+++\na = 1\n+++\ntext')).toEqual([
      ['toml', 0, 13],
      ['paragraph', 14, 18],
    ]);
    // not closed: a thematic break and a paragraph
    expect(blocks('---\ntitle: x')).toEqual([
      ['thematicBreak', 0, 3],
      ['paragraph', 4, 12],
    ]);
  });

  it('containers with CRLF: block quotes, nested lists, ordered lists', () => {
    expect(blocks('# A\r\n\r\n> q\r\n> > r\r\n\r\n- a\r\n  - b\r\n1) c')).toEqual([
      ['heading', 0, 3, 'A'],
      ['blockquote', 7, 17, [['paragraph', 9, 10], ['blockquote', 14, 17, [['paragraph', 16, 17]]]]],
      ['list', 21, 31, [['listItem', 21, 31, [['paragraph', 23, 24], ['list', 28, 31, [['listItem', 28, 31, [['paragraph', 30, 31]]]]]]]]],
      ['list', 33, 37, [['listItem', 33, 37, [['paragraph', 36, 37]]]]],
    ]);
    expect(blocks('a\rb\r\rc')).toEqual([
      ['paragraph', 0, 3],
      ['paragraph', 5, 6],
    ]);
    // a tab after the marker; a blank line after an empty item ends it
    expect(blocks('- \tx\n-\n\n  y')).toEqual([
      ['list', 0, 6, [['listItem', 0, 4, [['paragraph', 3, 4]]], ['listItem', 5, 6, []]]],
      ['paragraph', 10, 11],
    ]);
    // lazy continuation lines belong to the paragraph inside the container
    expect(blocks('> a\nlazy\n- b\nlazy2')).toEqual([
      ['blockquote', 0, 8, [['paragraph', 2, 8]]],
      ['list', 9, 18, [['listItem', 9, 18, [['paragraph', 11, 18]]]]],
    ]);
  });

  it('GFM tables: may interrupt a paragraph (its last line is the header), rows to a blank line', () => {
    expect(blocks('intro\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\nafter')).toEqual([
      ['paragraph', 0, 5],
      ['table', 6, 35, [[6, 15], [26, 35]]],
      ['paragraph', 37, 42],
    ]);
    // cell counts must match; no pipe or colon: a setext heading
    expect(blocks('| a | b |\n|---|\n')[0][0]).toBe('paragraph');
    expect(blocks('| a |\n---')[0]).toEqual(['heading', 0, 9, '| a |']);
  });

  it('code: fences (longer fences, tildes, unclosed), indented code; HTML blocks of the seven kinds', () => {
    expect(blocks('```js\n# not\n```\n~~~~\n~~~\n~~~~\n    indented\n\ttab code')).toEqual([
      ['code', 0, 15],
      ['code', 16, 29],
      ['code', 34, 52],
    ]);
    expect(blocks('- ```\n  # inside\n- next')).toEqual([
      ['list', 0, 23, [['listItem', 0, 16, [['code', 2, 16]]], ['listItem', 17, 23, [['paragraph', 19, 23]]]]],
    ]);
    expect(blocks('<div>\nx\n\ny\n<!-- c\n\n-->\n<script>\n\n</script>\n<?p ?>\n<!X>\n<![CDATA[ ]]>\n<custom a="1">\nz')).toEqual([
      ['html', 0, 7],
      ['paragraph', 9, 10],
      ['html', 11, 22],
      ['html', 23, 42],
      ['html', 43, 49],
      ['html', 50, 54],
      ['html', 55, 68],
      ['html', 69, 85],
    ]);
  });

  it('link reference and footnote definitions: blocks of their own; headings see them wherever they are', () => {
    expect(blocks('[x]: /u "t"\n[y]:\n  /v\ntext\n\n# [x] [y] [z]')).toEqual([
      ['definition', 0, 11],
      ['definition', 12, 21],
      ['paragraph', 22, 26],
      ['heading', 28, 41, 'x y [z]'],
    ]);
    expect(blocks('# A [^1]\n\n***\n\n[^1]: note\n    more')).toEqual([
      ['heading', 0, 8, 'A'],
      ['thematicBreak', 10, 13],
      ['footnoteDefinition', 15, 34, [['paragraph', 21, 34]]],
    ]);
  });

  it('heading text: code without backticks, emphasis without markers, links by their text, entities and escapes decoded', () => {
    const ctx = { definitions: new Set(['REF']), footnotes: new Set<string>() };
    expect(inlineText('Errors with `Result<T, E>`', ctx).text).toBe('Errors with Result<T, E>');
    expect(inlineText('*very* __strong__ ~~gone~~ ~one~ 2 * 3 a_b_c', ctx).text).toBe('very strong gone one 2 * 3 a_b_c');
    expect(inlineText('[text](http://x "t") ![alt *x*](i.png) [ref] [nope] [t][ref]', ctx)).toEqual({ text: 'text alt x ref [nope] t', unresolved: true, steps: expect.any(Number) });
    expect(inlineText('Q&amp;A &copy; &#35; &#x41; &bogus; \\*not\\*', ctx).text).toBe('Q&A © # A &bogus; *not*');
    expect(inlineText('<kbd>x</kbd> <http://a.b/_c_> http://a.b/_c_ <me@x.org>', ctx).text).toBe('<kbd>x</kbd> http://a.b/_c_ http://a.b/_c_ me@x.org');
    expect(inlineText('[ref]', ctx).unresolved).toBe(false);
  });
});

describe('the same blocks as micromark / mdast on real documents', () => {
  const files = [
    ...sharedFiles(markdownDir, '.md'),
    ...sharedFiles(corporaDir, '.md'),
    ...readdirSync(textsDir).map((f) => join(textsDir, f)),
    join(repoRoot, 'README.md'),
    ...sharedFiles(join(repoRoot, 'docs'), '.md'),
  ];
  it('finds the files', () => expect(files.length).toBeGreaterThan(20));
  for (const file of files) {
    it(file.slice(file.lastIndexOf('/') + 1), () => {
      const text = readFileSync(file, 'utf8');
      const ours = ourShapes(text);
      expect(ours.length).toBeGreaterThan(0);
      expect(ours).toEqual(mdastShapes(text));
    });
  }
});

describe('heading text equals mdast-util-to-string over generated inline Markdown', () => {
  const piece = fc.constantFrom(
    'a', 'b c', ' ', '*', '**', '***', '_', '__', '~', '~~', '~~~', '`', '``', '\\', '\\*', '\\[', '&amp;', '&copy;', '&#35;', '&#0;', '&nope;',
    '[', ']', '[x]', '[y]', '[x][]', '[t][x]', '](u)', '](<u v>)', '](u "t")', '(', ')', '![', '[^1]', '[^2]', '<', '>', '<b>', '</b>',
    '<!-- c -->', '<http://x.y/_a_>', '<a@b.c>', 'www.x.org', 'é', '😀', '.', '!', '"', '-', '|', '\t', 'x_y_z', '*a*', '_a_', '`c`', '``c ` d``', '\u00a0',
  );
  it('ATX and setext headings, with [x] and [^1] defined', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), fc.boolean(), fc.boolean(), (parts, spaced, setext) => {
        const h = parts.join(spaced ? ' ' : '');
        // setext lines start with a letter (never a block start) and hold no pipe (no table)
        const line = 'a' + h.replace(/\|/g, '');
        const head = setext ? `${line}\n${line}  \nz\n===` : `# ${h}`;
        const text = `${head}\n\ntext\n\n[x]: /u\n[^1]: note\n`;
        const ours = ourShapes(text);
        const theirs = mdastShapes(text);
        expect(theirs[0].type).toBe('heading');
        expect(ours[0]).toEqual(theirs[0]);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('front matter: YAML closed by `...` too, and never longer than FRONT_MATTER_MAX_LINES (256) lines', () => {
  // the opening of CommonMark's own spec.txt (0.31.2): its YAML closes with `...`, and a `---` comes 880 lines on
  const specHead = "---\ntitle: CommonMark Spec\nauthor: John MacFarlane\nversion: '0.31.2'\ndate: '2024-01-28'\nlicense: '[CC-BY-SA 4.0](https://creativecommons.org/licenses/by-sa/4.0/)'\n...\n\n# Introduction\n\n## What is Markdown?\n\nMarkdown is a plain text format.\n";
  it('`...` closes YAML front matter (pulldown-cmark, Pandoc); `+++` TOML does not close with it', () => {
    const text = specHead + '\n---\n\nmore\n';
    const out = blocks(text);
    expect(out[0]).toEqual(['yaml', 0, specHead.indexOf('...') + 3]);
    expect(out.slice(1, 3)).toEqual([
      ['heading', specHead.indexOf('# Intro'), specHead.indexOf('# Intro') + 14, 'Introduction'],
      ['heading', specHead.indexOf('## What'), specHead.indexOf('## What') + 20, 'What is Markdown?'],
    ]);
    expect(blocks('---\r\na: 1\r\n...  \r\ntext')).toEqual([
      ['yaml', 0, 14],
      ['paragraph', 18, 22],
    ]);
    expect(blocks('+++\na = 1\n...\n+++\ntext')).toEqual([
      ['toml', 0, 17],
      ['paragraph', 18, 22],
    ]);
    // `....` and `... x` are no closing line
    expect(blocks('---\na: 1\n....\n... x\n---\n')[0]).toEqual(['yaml', 0, 23]);
  });
  it('an opening fence with no closing line within the bound is a thematic break', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n');
    // the closing line as line FRONT_MATTER_MAX_LINES after the opening: front matter; one line later: not
    const inside = `---\n${body(FRONT_MATTER_MAX_LINES - 1)}\n---\n# After\n`;
    expect(blocks(inside)[0]).toEqual(['yaml', 0, inside.indexOf('\n---\n') + 4]);
    const past = `---\n${body(FRONT_MATTER_MAX_LINES)}\n---\n# After\n`;
    expect(blocks(past).map((b) => b[0])).toEqual(['thematicBreak', 'heading', 'heading']);
    // the spec's case without its `...`: 880 lines on to a `---`
    const long = specHead.replace('...\n', '') + body(880) + '\n\n---\n';
    expect(blocks(long).map((b) => b[0]).slice(0, 3)).toEqual(['thematicBreak', 'paragraph', 'heading']);
  });
});

describe("Markdown's white space is spaces, tabs and line endings: other white space is text", () => {
  it('a link label of U+00A0 or U+3000 is a definition, and a reference to it a link (as micromark); of spaces and tabs neither', () => {
    for (const text of ['[\u00a0]: /u\n', '[\u00a0]: /u\n\n# See [\u00a0] and [\u3000]\n', '[\u3000\n]: /u\n', '[ \t]: /u\n', '[\u2028]: /u\n', '# Guide\n\u00a0\n=\n']) {
      expect(ourShapes(text), JSON.stringify(text)).toEqual(mdastShapes(text));
    }
    expect(blocks('[\u00a0]: /u\n\n# See [\u00a0] and [\u3000]\n')).toEqual([
      ['definition', 0, 7],
      ['heading', 9, 26, 'See and [ ]'], // heading text collapses every white space run to one space
    ]);
    expect(blocks('[ \t]: /u\n')).toEqual([['paragraph', 0, 8]]);
  });
});

describe('a table row of only other white space (U+FEFF) is no row', () => {
  it("fast-check's counterexample: the table ended past its last newline (not trimmed)", () => {
    for (const text of ['|---|---|\n|---|---|\n\ufeff', '| a | b |\n|---|---|\n\ufeff', '| a | b |\n|---|---|\n\u00a0\n| 1 | 2 |']) {
      const [table] = markdownBlocks(text);
      expect(table.type, JSON.stringify(text)).toBe('table');
      expect(/\s/.test(text[table.end - 1]), JSON.stringify(text)).toBe(false);
    }
    expect(markdownBlocks('| a | b |\n|---|---|\n\ufeff')[0]).toMatchObject({ start: 0, end: 19 });
  });
});

describe('invariants over generated documents', () => {
  const line = fc.constantFrom(
    '# Title', '## A [x]', 'plain text', '- item', '  - nested', '1. one', '> quote', '> > deep', '```', '~~~', '    code', '| a | b |', '|---|---|',
    '===', '---', '***', '<div>', '<!--', '-->', '[x]: /u', '[^1]: n', '', '', ' ', '\t# tab', '\ufeff', '+++', 'more words',
  );
  const doc = fc.tuple(fc.array(line, { maxLength: 40 }), fc.constantFrom('\n', '\r\n', '\r')).map(([ls, eol]) => ls.join(eol));
  it('blocks are in order, disjoint, trimmed, inside their parents, and hold every non-whitespace character', () => {
    fc.assert(
      fc.property(doc, (text) => {
        const covered = new Uint8Array(text.length);
        const check = (list: readonly MarkdownBlock[], lo: number, hi: number) => {
          let prev = lo;
          for (const b of list) {
            expect(b.start).toBeGreaterThanOrEqual(prev);
            expect(b.end).toBeGreaterThan(b.start);
            expect(b.end).toBeLessThanOrEqual(hi);
            expect(/\s/.test(text[b.start]) || /\s/.test(text[b.end - 1])).toBe(false);
            prev = b.end;
            if (b.children) check(b.children, b.start, b.end);
          }
        };
        const top = markdownBlocks(text);
        check(top, 0, text.length);
        for (const b of top) covered.fill(1, b.start, b.end);
        for (let i = 0; i < text.length; i++) if (!covered[i] && /\S/.test(text[i])) throw new Error(`lost ${JSON.stringify(text[i])} at ${i}`);
      }),
      { numRuns: 500 },
    );
  });
});

describe('nesting limit', () => {
  it('containers deeper than MAX_NESTING (1000) are not opened: their markers are text of the innermost block', () => {
    const text = '>'.repeat(1200) + ' deep';
    let b = markdownBlocks(text)[0];
    let depth = 0;
    while (b.children) {
      depth++;
      expect([b.start, b.end]).toEqual([depth - 1, text.length]);
      if (!b.children[0]) break;
      b = b.children[0];
    }
    expect(depth).toBe(MAX_NESTING);
    expect([b.type, b.start]).toEqual(['paragraph', MAX_NESTING]);
  });
});

describe('where chunkwise follows CommonMark and micromark does not (pinned)', () => {
  it('a list item inside a new block quote after a paragraph is a list item (micromark: paragraph text)', () => {
    expect(blocks('para\n> 2) second')[1]).toEqual(['blockquote', 5, 16, [['list', 7, 16, [['listItem', 7, 16, [['paragraph', 10, 16]]]]]]]);
  });
  it('a complete HTML tag on a lazy line continues the paragraph (micromark: an HTML block)', () => {
    expect(blocks('- a\n<span>')).toEqual([['list', 0, 10, [['listItem', 0, 10, [['paragraph', 2, 10]]]]]]);
  });
  it('an email autolink at the end of a paragraph keeps its ">" (micromark ends the paragraph one short)', () => {
    expect(blocks('mail <a@b.co>')).toEqual([['paragraph', 0, 13]]);
  });
  it('after indented code, "2)" starts a list (micromark: interrupt rules as if a paragraph were open)', () => {
    expect(blocks('    code\n2) x')[1]).toEqual(['list', 9, 13, [['listItem', 9, 13, [['paragraph', 12, 13]]]]]);
  });
});
