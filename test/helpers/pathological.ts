/**
 * Pathological inputs for the scaling suite (`bench/scaling.bench.ts`) and the linearity
 * test (`test/scaling.test.ts`), issue 16 "Superlinear paths": each kind is a generator
 * of a text of about `n` UTF-16 code units, built by repeating one pattern (so doubling
 * `n` doubles every structure in it, never changes its shape), deterministic.
 * @module
 */

/** One pathological kind. */
export interface PathologicalKind {
  /** Short name for tables (`long-word`, `cjk`, …). */
  name: string;
  /** What it is, one line. */
  description: string;
  /** A text of about `n` UTF-16 code units (never more than `n` + one pattern). */
  make(n: number): string;
  /** Length of the repeated block where it is large (the text is whole blocks: sizes below it do not grow the text). */
  block?: number;
}

/** `unit` repeated to at least `n` code units, cut to `n` at a code point boundary. */
function repeatTo(unit: string, n: number): string {
  let s = unit.repeat(Math.max(1, Math.ceil(n / unit.length)));
  if (s.length > n) {
    let cut = n;
    const c = s.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut--;
    s = s.slice(0, cut);
  }
  return s;
}

/** Whole copies of `unit` (never cut), about `n` code units in all. */
function copies(unit: string, n: number): string {
  return unit.repeat(Math.max(1, Math.round(n / unit.length)));
}

const LOREM =
  'Chunking splits documents into pieces that fit an embedding model, and the pieces keep ' +
  'their offsets so a retriever can point back at the source. ';

/** One line of block quotes 10,000 deep. */
const DEEP_QUOTE = '>'.repeat(10_000) + ' quoted text\n';

/** Nested Markdown list, depth 0..depth−1 then back to 0, one item per line. */
function nestedList(depth: number): string {
  const lines: string[] = [];
  for (let d = 0; d < depth; d++) lines.push(`${'  '.repeat(d)}- item ${d}`);
  return lines.join('\n') + '\n\n';
}

/** The pathological kinds of issue 16, in table order. */
export const PATHOLOGICAL_KINDS: readonly PathologicalKind[] = [
  {
    name: 'long-word',
    description: 'one word, no separator ever matches (`abcdefghij…`)',
    make: (n) => repeatTo('abcdefghijklmnopqrstuvwxyz', n),
  },
  {
    name: 'cjk',
    description: 'CJK text without spaces or sentence marks',
    make: (n) => repeatTo('日本語の文章は単語の間に空白を入れないで書かれる中文也不用空格', n),
  },
  {
    name: 'abbreviations',
    description: 'a run of abbreviations: `Dr. Dr. Dr. …`',
    make: (n) => copies('Dr. ', n),
  },
  {
    name: 'long-sentence',
    description: 'one sentence of a third of the length (> 4,096 characters from 12 KB on, no sentence end), then short sentences',
    make: (n) => {
      const third = Math.floor(n / 3);
      return repeatTo('words of one sentence that never ends ', third - 1).trimEnd() + '. ' + copies('A short one. ', n - third);
    },
  },
  {
    name: 'a-lines',
    description: '`a\\n` lines',
    make: (n) => copies('a\n', n),
  },
  {
    name: 'nested-lists',
    description: 'Markdown lists nested 100 deep (a 10 KB block), repeated',
    make: (n) => copies(nestedList(100), n),
    block: nestedList(100).length,
  },
  {
    name: 'nested-lists-500',
    description: 'Markdown lists nested 500 deep (a 250 KB block), repeated: meaningful from 250 KB on',
    make: (n) => copies(nestedList(500), n),
    block: nestedList(500).length,
  },
  {
    name: 'huge-paragraph',
    description: 'one paragraph of ordinary sentences, no line break',
    make: (n) => copies(LOREM, n).trimEnd(),
  },
  {
    name: 'deep-quotes',
    description: 'block quotes 10,000 deep (`>>>…> text` lines)',
    make: (n) => copies(DEEP_QUOTE, n),
    block: DEEP_QUOTE.length,
  },
  {
    name: 'html-line',
    description: 'one line of HTML-ish text, no line break (the 10 MB case, scaled)',
    make: (n) => copies('<div class="row"><span id="a1">cell &amp; value</span><br/></div>', n),
  },
  {
    name: 'tiny-paragraphs',
    description: 'many tiny paragraphs (`Hi.\\n\\n`)',
    make: (n) => copies('Hi.\n\n', n),
  },
  {
    name: 'combining-marks',
    description: 'one base letter and thousands of U+0301 (one grapheme cluster)',
    make: (n) => 'e' + '\u0301'.repeat(Math.max(1, n - 1)),
  },
  {
    name: 'whitespace-runs',
    description: 'a word, a run of spaces and tabs of half the length (no line break), then ordinary text',
    make: (n) => {
      const half = Math.floor(n / 2);
      return 'start' + repeatTo(' \t', Math.max(1, half - 5)) + ' ' + copies(LOREM, n - half);
    },
  },
  {
    name: 'crlf',
    description: 'CRLF line breaks only (short lines, a blank line every 4)',
    make: (n) => copies('line of text\r\nline of text\r\nline of text\r\nline of text\r\n\r\n', n),
  },
  {
    name: 'emoji-zwj',
    description: 'emoji ZWJ sequences without spaces (👩‍👩‍👧‍👦 …)',
    make: (n) => copies('👩‍👩‍👧‍👦👨🏽‍💻🏳️‍🌈', n),
  },
];

/** The kind called `name`. */
export function pathologicalKind(name: string): PathologicalKind {
  const k = PATHOLOGICAL_KINDS.find((x) => x.name === name);
  if (!k) throw new Error(`no pathological kind ${name}`);
  return k;
}
