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
  /** Options the text needs besides the strategy's defaults (the source language of a code kind). */
  options?: Readonly<Record<string, unknown>>;
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
    name: 'cr-lines',
    description: 'CR-only line breaks (`word\\r` lines, classic Mac OS): no `\\n` anywhere',
    make: (n) => copies('word\r', n),
  },
  {
    name: 'unspaced-words',
    description: 'no whitespace at all, in word units (a base64 data URI, minified code, unspaced Chinese): one word of the whole text',
    make: (n) => repeatTo('a', n),
    options: { unit: 'word' },
  },
  {
    name: 'unspaced-cjk-words',
    description: 'unspaced Chinese with sentence marks, in word units: sentences split apart that are all one word together',
    make: (n) => copies('中文也不用空格。', n),
    options: { unit: 'word' },
  },
  {
    name: 'emoji-zwj',
    description: 'emoji ZWJ sequences without spaces (👩‍👩‍👧‍👦 …)',
    make: (n) => copies('👩‍👩‍👧‍👦👨🏽‍💻🏳️‍🌈', n),
  },
];

/** `depth` nested JavaScript blocks around one statement, then a blank line. */
function nestedBlocks(depth: number): string {
  return `${'{ '.repeat(depth)}x = 1; ${'} '.repeat(depth)}\n\n`;
}

/** `depth` nested Python `if`s, one level of indentation each, then a blank line. */
function pythonIndent(depth: number): string {
  const lines: string[] = [];
  for (let d = 0; d < depth; d++) lines.push(`${'    '.repeat(d)}if x${d}:`);
  lines.push(`${'    '.repeat(depth)}pass`);
  return lines.join('\n') + '\n\n';
}

const JS = { language: 'javascript' } as const;
const PY = { language: 'python' } as const;

/**
 * Pathological source code for the code strategy (tree-sitter): the shapes that make a
 * syntax tree deep, one node huge, or the text unparsable. Each names its language in
 * `options`.
 */
export const CODE_KINDS: readonly PathologicalKind[] = [
  {
    name: 'js-long-function',
    description: 'one JavaScript function of n characters (statements `x = x + 1;`): one definition split at its child statements',
    make: (n) => `function big(x) {\n${copies('  x = x + 1;\n', n - 22)}  return x;\n}\n`,
    options: JS,
  },
  {
    name: 'js-many-functions',
    description: 'many tiny top-level JavaScript functions (`function f(a) { return a; }`)',
    make: (n) => copies('function f(a) { return a; }\n', n),
    options: JS,
  },
  {
    name: 'js-minified',
    description: 'minified JavaScript: one line of statements, no line break',
    make: (n) => copies('var a=b(c,d)+1;if(a>2){a=0}else{a++}', n),
    options: JS,
  },
  {
    name: 'js-long-chain',
    description: 'one expression `1 + 1 + … + 1` of n characters: a syntax tree n/4 deep (left-associative)',
    make: (n) => `x = ${copies('1 + ', n - 7)}1;\n`,
    options: JS,
  },
  {
    name: 'js-nested-parens',
    description: 'one valid expression in parentheses nested n/2 deep (`x = ((((1))))`): each level an item whose closing `)` comes after the whole level inside it',
    make: (n) => {
      const d = Math.max(1, Math.floor((n - 6) / 2));
      return `x = ${'('.repeat(d)}1${')'.repeat(d)};\n`;
    },
    options: JS,
  },
  {
    name: 'js-nested-blocks',
    description: 'JavaScript blocks nested 1,000 deep (`{ { … x = 1; … } }`, a 4 KB block), repeated',
    make: (n) => copies(nestedBlocks(1_000), n),
    block: nestedBlocks(1_000).length,
    options: JS,
  },
  {
    name: 'js-long-string',
    description: 'one JavaScript string literal of n characters (one token of the grammar)',
    make: (n) => `const s = "${repeatTo('abc def ', n - 14)}";\n`,
    options: JS,
  },
  {
    name: 'js-long-comment',
    description: 'one JavaScript block comment of n characters of prose',
    make: (n) => `/* ${copies(LOREM, n - 6)} */\n`,
    options: JS,
  },
  {
    name: 'js-syntax-errors',
    description: 'broken JavaScript repeated (`function (( { ] ) ;; }`): error recovery everywhere',
    make: (n) => copies('function (( { ] ) ;; } else =>\n', n),
    options: JS,
  },
  {
    name: 'py-deep-indent',
    description: 'Python `if`s nested 50 deep (a 5 KB block), repeated',
    make: (n) => copies(pythonIndent(50), n),
    block: pythonIndent(50).length,
    options: PY,
  },
  {
    name: 'py-prose',
    description: 'prose given as Python (the huge-paragraph text): no statement parses',
    make: (n) => copies(LOREM, n),
    options: PY,
  },
];

/**
 * The kinds to run `strategy` on: {@link CODE_KINDS} for the code strategy (prose is not
 * its input, and it needs a language), {@link PATHOLOGICAL_KINDS} for every other one.
 */
export function kindsFor(strategy: string): readonly PathologicalKind[] {
  return strategy === 'code' ? CODE_KINDS : PATHOLOGICAL_KINDS;
}

/** The kind called `name` (of either list). */
export function pathologicalKind(name: string): PathologicalKind {
  const k = PATHOLOGICAL_KINDS.find((x) => x.name === name) ?? CODE_KINDS.find((x) => x.name === name);
  if (!k) throw new Error(`no pathological kind ${name}`);
  return k;
}
