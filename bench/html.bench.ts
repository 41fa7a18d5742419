/**
 * HTML chunking against LangChain's HTML splitter (@langchain/textsplitters 1.0.2 has one:
 * `RecursiveCharacterTextSplitter.fromLanguage('html')`, separators `<body>`, `<div>`,
 * `<p>` …; its HTMLHeaderTextSplitter and HTMLSectionSplitter are Python-only) on the same
 * pages: this repository's docs/*.md rendered by micromark into a docs-site page each, a
 * 2000-row salary table page and a navigation-heavy page (test/helpers/html-pages.ts).
 *
 * Quality, per page set (visible text found by parse5, test/helpers/html-visible.ts):
 * - hidden share: of the non-whitespace characters a splitter hands to the embedder
 *   (LangChain: the chunk text; chunkwise: embedText; `|` left out), the share that is not
 *   visible page content: markup, scripts, styles, dropped navigation (chunkwise's table
 *   labels are counted apart: they are the header text repeated on purpose);
 * - cut in a tag: chunks that start or end inside a tag (`<…>`);
 * - labelled amounts: of the chunks holding a salary (a `€` amount), the share whose
 *   embedded text also names its column (`Maximum salaris`);
 * - visible chars per chunk (mean) at the same chunkSize.
 * Speed: both splitters over all pages in one tinybench run, and the parsers alone
 * (htmlparser2's Parser, chunkwise's tree on htmlparser2's Tokenizer, parse5 with source
 * locations), plus one document nested 20,000 deep.
 * Linear work (runHtmlLinearBench): the work count (`chunk(html, { work })`, `operations`) of every shape of
 * test/helpers/html-pages.ts `LINEAR_SHAPES` at 5,000 and 50,000 elements (what
 * test/html.test.ts asserts), and the time at 50,000 and 500,000 elements.
 * Run: npx tsx bench/html.bench.ts (or npm run bench -- html)
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { Parser } from 'htmlparser2';
import { parse } from 'parse5';
import { HtmlChunker } from '../src/index.js';
import { parseHtmlTree } from '../src/strategies/html/tree.js';
import { docsSitePage, LINEAR_SHAPES, navHeavyPage, salaryTablePage } from '../test/helpers/html-pages.js';
import { squeezed, visibleChars, visibleIn } from '../test/helpers/html-visible.js';
import { mapToOffsets } from './peers.js';
import { repoRoot, runTasks, table, utf8Bytes } from './util.js';

interface PageSet {
  name: string;
  pages: string[];
}

function pageSets(): PageSet[] {
  const dir = join(repoRoot, 'docs');
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  return [
    { name: `docs site (${names.length} pages)`, pages: names.map((f) => docsSitePage(f, readFileSync(join(dir, f), 'utf8'), names)) },
    { name: 'salary table (2000 rows)', pages: [salaryTablePage(2000)] },
    { name: 'navigation-heavy page', pages: [navHeavyPage()] },
  ];
}

/** Quality figures of one splitter on one page set. */
interface Quality {
  chunks: number;
  hiddenShare: number;
  labelShare: number;
  cutInTag: number;
  labelled: string;
  visiblePerChunk: number;
}

/** Whether offset `p` of `html` lies inside a tag (after a `<` that starts a tag, before its `>`). */
function insideTag(html: string, p: number): boolean {
  const lt = html.lastIndexOf('<', p - 1);
  if (lt < 0 || !/[A-Za-z/!]/.test(html[lt + 1] ?? '')) return false;
  const gt = html.lastIndexOf('>', p - 1);
  return gt < lt;
}

function measure(set: PageSet, split: (html: string) => { start: number; end: number; embedded: string; labelled?: boolean }[]): Quality {
  let chunks = 0;
  let embeddedChars = 0;
  let visibleChars_ = 0;
  let hidden = 0;
  let labels = 0;
  let cut = 0;
  let amounts = 0;
  let labelledAmounts = 0;
  for (const html of set.pages) {
    const visible = visibleChars(html);
    for (const c of split(html)) {
      chunks++;
      const seen = visibleIn(visible, c.start, c.end).length;
      const embedded = squeezed(c.embedded).length;
      visibleChars_ += seen;
      embeddedChars += embedded;
      // what the embedded text holds besides the visible text of its span
      if (c.labelled) labels += Math.max(0, embedded - seen);
      else hidden += Math.max(0, embedded - seen);
      if (insideTag(html, c.start) || insideTag(html, c.end)) cut++;
      if (/€/.test(c.embedded)) {
        amounts++;
        if (c.embedded.includes('Maximum salaris')) labelledAmounts++;
      }
    }
  }
  return {
    chunks,
    hiddenShare: hidden / Math.max(1, embeddedChars),
    labelShare: labels / Math.max(1, embeddedChars),
    cutInTag: cut,
    labelled: amounts ? `${labelledAmounts} / ${amounts}` : '—',
    visiblePerChunk: visibleChars_ / Math.max(1, chunks),
  };
}

/** Runs the HTML benchmark; returns Markdown. */
export async function runHtmlBench(): Promise<string> {
  const sets = pageSets();
  const size = 1000;
  const langchain = RecursiveCharacterTextSplitter.fromLanguage('html', { chunkSize: size, chunkOverlap: 0 });
  const chars = new HtmlChunker({ unit: 'char', chunkSize: size, chunkOverlap: 0, countTokens: false });
  const tokens = new HtmlChunker({ unit: 'token', chunkSize: 256 });
  tokens.chunk('<p>warm up the tokenizer</p>');

  const langchainSpans = async (html: string) => {
    const texts = await langchain.splitText(html);
    return mapToOffsets({ id: 'page', text: html }, texts).spans.map((s) => ({ start: s.start, end: s.end, embedded: s.text }));
  };
  const oursSpans = (c: HtmlChunker) => (html: string) =>
    c.chunk(html).map((k) => ({ start: k.start, end: k.end, embedded: k.embedText, labelled: k.metadata.tableRows !== undefined }));

  const quality: string[] = [
    `| pages | splitter | chunks | markup and hidden text in embedded text | table labels in embedded text | chunks cut in a tag | amounts with their column label | visible chars per chunk |`,
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const set of sets) {
    const lcSpans = new Map<string, { start: number; end: number; embedded: string }[]>();
    for (const html of set.pages) lcSpans.set(html, await langchainSpans(html));
    const rows: [string, Quality][] = [
      [`langchain fromLanguage('html') ${size} chars`, measure(set, (h) => lcSpans.get(h)!)],
      [`chunkwise HtmlChunker ${size} chars (of visible text)`, measure(set, oursSpans(chars))],
      ['chunkwise HtmlChunker 256 tokens (of visible text)', measure(set, oursSpans(tokens))],
    ];
    for (const [name, q] of rows) {
      quality.push(
        `| ${set.name} | ${name} | ${q.chunks} | ${(100 * q.hiddenShare).toFixed(1)} % | ${(100 * q.labelShare).toFixed(1)} % | ${q.cutInTag} | ${q.labelled} | ${q.visiblePerChunk.toFixed(0)} |`,
      );
    }
  }

  const all = sets.flatMap((s) => s.pages);
  const bytes = all.reduce((a, t) => a + utf8Bytes(t), 0);
  const speed = await runTasks(
    [
      { name: `langchain fromLanguage('html') ${size} chars`, fn: () => Promise.all(all.map((t) => langchain.splitText(t))), bytes },
      { name: `chunkwise HtmlChunker ${size} chars`, fn: () => all.map((t) => chars.chunk(t)), bytes },
      { name: 'chunkwise HtmlChunker 256 tokens', fn: () => all.map((t) => tokens.chunk(t)), bytes },
      { name: 'parse: htmlparser2 Parser (no handlers)', fn: () => all.map((t) => new Parser({}).end(t)), bytes },
      { name: 'parse: chunkwise tree (htmlparser2 Tokenizer)', fn: () => all.map((t) => parseHtmlTree(t)), bytes },
      { name: 'parse: parse5 with source locations', fn: () => all.map((t) => parse(t, { sourceCodeLocationInfo: true })), bytes },
    ],
    { time: 3000, iterations: 5 },
  );

  const deep = '<div>'.repeat(20_000) + 'x' + '</div>'.repeat(20_000) + '<span>'.repeat(20_000) + '</div>'.repeat(20_000);
  const once = (f: () => unknown) => {
    f();
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  };
  const nested = [
    ['htmlparser2 Parser', once(() => new Parser({}).end(deep))],
    ['chunkwise tree (htmlparser2 Tokenizer)', once(() => parseHtmlTree(deep))],
    ['parse5 with source locations', once(() => parse(deep, { sourceCodeLocationInfo: true }))],
  ] as const;

  return [
    `Input: ${all.length} pages, ${(bytes / 1e6).toFixed(3)} MB (${sets.map((s) => s.name).join(', ')}). Quality at chunkSize ${size} characters (LangChain counts the HTML, chunkwise the visible text) and 256 tokens:`,
    '',
    quality.join('\n'),
    '',
    'Speed (one tinybench run, interleaved):',
    '',
    table(speed, speed[0].name),
    '',
    `One document nested 20,000 deep, then 20,000 stray end tags under 20,000 open spans (${(deep.length / 1e3).toFixed(0)} k chars), parse time: ${nested.map(([n, ms]) => `${n} ${ms.toFixed(0)} ms`).join(' · ')}.`,
  ].join('\n');
}

/** Work counts and times of the HTML chunker on documents of 5,000 to 500,000 elements. */
export async function runHtmlLinearBench(): Promise<string> {
  const rows = ['| document | work at 5,000 elements | at 50,000 | × | ms at 50,000 | ms at 500,000 | × |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const [name, make] of Object.entries(LINEAR_SHAPES)) {
    const run = (n: number) => {
      const chunker = new HtmlChunker({ unit: 'char', chunkSize: 64 });
      const html = make(n);
      const counted = { operations: 0 };
      chunker.chunk(html, { work: counted }); // warm-up, counting the work
      let ms = Infinity;
      for (let k = 0; k < 3; k++) {
        const t0 = performance.now();
        chunker.chunk(html);
        ms = Math.min(ms, performance.now() - t0);
      }
      return { ops: counted.operations, ms };
    };
    const [a, b, c] = [run(5_000), run(50_000), run(500_000)];
    rows.push(`| ${name} | ${a.ops.toLocaleString('en')} | ${b.ops.toLocaleString('en')} | ${(b.ops / a.ops).toFixed(2)} | ${b.ms.toFixed(0)} | ${c.ms.toFixed(0)} | ${(c.ms / b.ms).toFixed(1)} |`);
  }
  return [
    'HtmlChunker (char units, chunkSize 64); work = the `operations` counted into `chunk(html, { work })` (tokenizer events, tree and walk steps, packer steps and measures), deterministic; times the best of 3 runs after a warm-up, noisy:',
    '',
    rows.join('\n'),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runHtmlBench()
    .then((md) => console.log(md))
    .then(runHtmlLinearBench)
    .then((md) => console.log(md));
}
