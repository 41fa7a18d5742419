/**
 * chunkwise against its peers on the defaults, every row in one process, each row's
 * tasks interleaved (`runInterleaved`: shuffled order, median CPU time per call), so the
 * ratios of a row share one load. Each row names its target and says PASS or FAIL; the
 * load average is printed beside every row (the machine is shared: compare ratios, not
 * absolute figures).
 *
 * Rows:
 * - tokenize the four corpora of eval/corpora (1.4 MB): chunkwise's WASM BPE vs
 *   gpt-tokenizer, tiktoken (Rust → WASM) and js-tiktoken, cl100k_base and o200k_base;
 * - recursive char 1000/200 vs LangChain `RecursiveCharacterTextSplitter` and
 *   @chonkiejs/core `RecursiveChunker` (chunkSize 1000, its defaults), with the defaults and
 *   with `countTokens: false`; the token count's cost over `countTokens: false`;
 * - Markdown char 1000 vs LangChain `MarkdownTextSplitter` (the Rust-book chapters);
 * - HTML char 1000 vs LangChain `fromLanguage('html')` (the chapters rendered as docs pages);
 * - code char 1000 vs LangChain `fromLanguage` and `CodeChunker.chunk` vs tree-sitter's own
 *   parse of the same file (a Python stdlib module, lodash);
 * - fixed char 4096 vs @chonkiejs/chunk's string API, and fixed vs recursive char 1000/200;
 * - cost per byte: fixed, sliding, recursive and Markdown in every unit at chunk sizes 128,
 *   512, 2048 and 8192 (MB/s and max/min).
 *
 * Run: `npm run bench -- peers` (`--quick` halves the rounds). `PEERS_ONLY=markdown,perByte`
 * runs only the named parts; `PEERS_STRATEGIES=markdown` and `PEERS_UNITS=char` only those strategies
 * and units of the cost-per-byte rows.
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
// @ts-expect-error @chonkiejs/chunk ships no types: chunk(text, { size }) yields strings
import { chunk as memchunk, init as memchunkInit } from '@chonkiejs/chunk';
import { RecursiveChunker as ChonkieRecursive } from '@chonkiejs/core';
import { MarkdownTextSplitter, RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { encode as gptCl } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as gptO2 } from 'gpt-tokenizer/encoding/o200k_base';
import { FixedSizeChunker, HtmlChunker, MarkdownChunker, RecursiveChunker, SlidingWindowChunker } from '../src/index.js';
import { CodeChunker } from '../src/code.js';
import { docsSitePage } from '../test/helpers/html-pages.js';
import { markdownChapters } from './markdown.bench.js';
import { tokenizerSet } from './tokenizers.bench.js';
import { corpusText, repoRoot, runInterleaved, table, utf8Bytes, type BenchRow, type BenchTask } from './util.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 5 : 9;
/**
 * Every task runs warm: at least 300 ms (and twice) before the timed rounds, peers alike.
 * The optimizing compiler takes tens of calls on some paths (a Markdown chapter's first
 * calls cost 2–3× its later ones), and a batch job runs warm.
 */
const WARM = { warmup: 2, warmupMs: quick ? 150 : 300 } as const;

/** One line of the summary: what was compared, the ratio, the target, and whether it holds. */
interface Verdict {
  work: string;
  figure: string;
  target: string;
  pass: boolean | undefined;
  load: number;
}

const load = () => os.loadavg()[0];
const ms = (rows: BenchRow[], name: string) => {
  const r = rows.find((x) => x.name === name);
  if (!r) throw new Error(`no row ${name}`);
  return r.meanMs;
};
/** How many times faster `a` runs than `b` (median CPU time of b over a). */
const faster = (rows: BenchRow[], a: string, b: string) => ms(rows, b) / ms(rows, a);
const x = (v: number) => `${v.toFixed(2)}×`;

/** Tokenizers on the 1.4 MB of eval/corpora. */
async function tokenizerRows(out: string[], verdicts: Verdict[]): Promise<void> {
  const text = corpusText(['finance', 'pubmed', 'state_of_the_union', 'wikitexts']);
  const bytes = utf8Bytes(text);
  const { jsCl, jsO2, rsCl, rsO2, cwCl, cwO2 } = tokenizerSet();
  const none = { disallowedSpecial: new Set<string>() };
  // ids identical before anything is timed
  const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => v === b[i]);
  const wantCl = jsCl.encode(text, [], []);
  const wantO2 = jsO2.encode(text, [], []);
  if (!same(cwCl.encode(text), wantCl) || cwCl.count(text) !== wantCl.length) throw new Error('chunkwise cl100k_base ids differ from js-tiktoken');
  if (!same(cwO2.encode(text), wantO2) || cwO2.count(text) !== wantO2.length) throw new Error('chunkwise o200k_base ids differ from js-tiktoken');
  if (!same(gptCl(text, none), wantCl) || !same(gptO2(text, none), wantO2)) throw new Error('gpt-tokenizer ids differ from js-tiktoken');
  const tasks: BenchTask[] = [
    { name: 'chunkwise cl100k ids', fn: () => cwCl.encode(text), bytes },
    { name: 'chunkwise cl100k count', fn: () => cwCl.count(text), bytes },
    { name: 'gpt-tokenizer cl100k ids', fn: () => gptCl(text, none), bytes },
    { name: 'tiktoken (WASM) cl100k ids', fn: () => rsCl.encode(text, [], []), bytes },
    { name: 'js-tiktoken cl100k ids', fn: () => jsCl.encode(text, [], []), bytes },
    { name: 'chunkwise o200k ids', fn: () => cwO2.encode(text), bytes },
    { name: 'chunkwise o200k count', fn: () => cwO2.count(text), bytes },
    { name: 'gpt-tokenizer o200k ids', fn: () => gptO2(text, none), bytes },
    { name: 'tiktoken (WASM) o200k ids', fn: () => rsO2.encode(text, [], []), bytes },
  ];
  // js-tiktoken takes ~0.5 s a call: fewer rounds keep the row short
  const rows = await runInterleaved(tasks, { rounds: Math.max(3, ROUNDS - 4), reps: 1, warmup: 1, warmupMs: WARM.warmupMs });
  rsCl.free();
  rsO2.free();
  const l = load();
  for (const enc of ['cl100k', 'o200k'] as const) {
    const vsGpt = faster(rows, `chunkwise ${enc} ids`, `gpt-tokenizer ${enc} ids`);
    const peers = [`gpt-tokenizer`, `tiktoken (WASM)`, ...(enc === 'cl100k' ? ['js-tiktoken'] : [])]
      .map((p) => `${x(faster(rows, `chunkwise ${enc} ids`, `${p} ${enc} ids`))} ${p}`)
      .join(', ');
    const mbs = rows.find((r) => r.name === `chunkwise ${enc} ids`)!.mbPerSec!;
    verdicts.push({ work: `tokenize ${enc}_base, 1.4 MB (ids)`, figure: `${peers}; ${mbs.toFixed(0)} MB/s`, target: '≥ 18× gpt-tokenizer', pass: vsGpt >= 18, load: l });
  }
  verdicts.push({
    work: 'tokenize cl100k_base, absolute',
    figure: `${rows.find((r) => r.name === 'chunkwise cl100k ids')!.mbPerSec!.toFixed(0)} MB/s ids, ${rows.find((r) => r.name === 'chunkwise cl100k count')!.mbPerSec!.toFixed(0)} MB/s count (CPU time, shared core)`,
    target: '≥ 100 MB/s on one quiet core',
    pass: rows.find((r) => r.name === 'chunkwise cl100k ids')!.mbPerSec! >= 100,
    load: l,
  });
  out.push('', `### Tokenizers, the four corpora joined, ${(bytes / 1e6).toFixed(2)} MB (ids identical to js-tiktoken), load ${l.toFixed(1)}`, '', table(rows, 'gpt-tokenizer cl100k ids'));
}

/** Recursive char 1000/200 vs LangChain and chonkie, with and without token counts. */
async function recursiveRows(out: string[], verdicts: Verdict[]): Promise<void> {
  const text = corpusText(['finance', 'pubmed', 'state_of_the_union', 'wikitexts']);
  const bytes = utf8Bytes(text);
  const langchain = new RecursiveCharacterTextSplitter({ chunkSize: 1000, chunkOverlap: 200 });
  const defaults = new RecursiveChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 200 });
  const uncounted = new RecursiveChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 200, countTokens: false });
  const fixed = new FixedSizeChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 200 });
  const fixedUncounted = new FixedSizeChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 200, countTokens: false });
  const chonkie = await ChonkieRecursive.create({ chunkSize: 1000 });
  defaults.chunk('warm up the tokenizer');
  const names = {
    lc: 'langchain RecursiveCharacterTextSplitter 1000/200',
    cw: 'chunkwise RecursiveChunker char 1000/200 (defaults)',
    cwNo: 'chunkwise RecursiveChunker char 1000/200, countTokens: false',
    ch: '@chonkiejs/core RecursiveChunker 1000 (its defaults, no overlap option)',
    fx: 'chunkwise FixedSizeChunker char 1000/200 (defaults)',
    fxNo: 'chunkwise FixedSizeChunker char 1000/200, countTokens: false',
  };
  const rows = await runInterleaved(
    [
      { name: names.lc, fn: () => langchain.splitText(text), bytes },
      { name: names.cw, fn: () => defaults.chunk(text), bytes },
      { name: names.cwNo, fn: () => uncounted.chunk(text), bytes },
      { name: names.ch, fn: () => chonkie.chunk(text), bytes },
      { name: names.fx, fn: () => fixed.chunk(text), bytes },
      { name: names.fxNo, fn: () => fixedUncounted.chunk(text), bytes },
    ],
    { rounds: ROUNDS, reps: 1, ...WARM },
  );
  const l = load();
  verdicts.push({ work: 'recursive char 1000/200 vs LangChain', figure: `${x(faster(rows, names.cw, names.lc))} (countTokens: false ${x(faster(rows, names.cwNo, names.lc))})`, target: 'none (reported)', pass: undefined, load: l });
  verdicts.push({ work: 'recursive char 1000/200 vs @chonkiejs/core', figure: `${x(faster(rows, names.cw, names.ch))} (countTokens: false ${x(faster(rows, names.cwNo, names.ch))})`, target: '≥ 1× with defaults', pass: faster(rows, names.cw, names.ch) >= 1, load: l });
  const over = ms(rows, names.cw) / ms(rows, names.cwNo) - 1;
  verdicts.push({ work: 'recursive char 1000/200: tokenCount over countTokens: false', figure: `+${(100 * over).toFixed(0)} %`, target: '≤ +25 %', pass: over <= 0.25, load: l });
  const fxOver = ms(rows, names.fx) / ms(rows, names.fxNo) - 1;
  verdicts.push({ work: 'fixed char 1000/200: tokenCount over countTokens: false', figure: `+${(100 * fxOver).toFixed(0)} %`, target: '≤ +25 %', pass: fxOver <= 0.25, load: l });
  verdicts.push({
    work: 'fixed char 1000/200 vs recursive char 1000/200',
    figure: `${x(faster(rows, names.fx, names.cw))} (countTokens: false ${x(faster(rows, names.fxNo, names.cwNo))})`,
    target: '≥ 1× (never slower)',
    pass: faster(rows, names.fx, names.cw) >= 1 && faster(rows, names.fxNo, names.cwNo) >= 1,
    load: l,
  });
  out.push('', `### Recursive and fixed char 1000/200, the four corpora joined, ${(bytes / 1e6).toFixed(2)} MB, load ${l.toFixed(1)}`, '', table(rows, names.lc));
}

/** A chunkwise chunker and a LangChain splitter at char 1000, both with their defaults, on the same documents. */
async function documentsRow(
  out: string[],
  verdicts: Verdict[],
  row: { work: string; input: string; docs: string[]; lc: { name: string; split(t: string): Promise<string[]> }; cw: string; make(countTokens: boolean): { chunk(t: string): unknown }; target: number },
): Promise<void> {
  const bytes = row.docs.reduce((n, t) => n + utf8Bytes(t), 0);
  const cw = row.make(true);
  const cwNo = row.make(false);
  const names = { lc: `${row.lc.name} 1000 (defaults)`, cw: `chunkwise ${row.cw} char 1000 (defaults)`, cwNo: `chunkwise ${row.cw} char 1000, countTokens: false` };
  const rows = await runInterleaved(
    [
      { name: names.lc, fn: () => Promise.all(row.docs.map((t) => row.lc.split(t))), bytes },
      { name: names.cw, fn: () => row.docs.map((t) => cw.chunk(t)), bytes },
      { name: names.cwNo, fn: () => row.docs.map((t) => cwNo.chunk(t)), bytes },
    ],
    { rounds: 2 * ROUNDS, reps: 3, ...WARM },
  );
  const l = load();
  const ratio = faster(rows, names.cw, names.lc);
  verdicts.push({ work: row.work, figure: `${x(ratio)} (countTokens: false ${x(faster(rows, names.cwNo, names.lc))})`, target: `≥ ${row.target}× with defaults`, pass: ratio >= row.target, load: l });
  out.push('', `### ${row.work}: ${row.input}, ${(bytes / 1e6).toFixed(3)} MB, load ${l.toFixed(1)}`, '', table(rows, names.lc));
}

/** Markdown char 1000 vs LangChain's MarkdownTextSplitter, both with defaults. */
async function markdownRows(out: string[], verdicts: Verdict[]): Promise<void> {
  const lc = new MarkdownTextSplitter({ chunkSize: 1000 });
  await documentsRow(out, verdicts, {
    work: 'Markdown char 1000 vs LangChain MarkdownTextSplitter',
    input: 'the four Rust-book chapters of eval/markdown',
    docs: markdownChapters(),
    lc: { name: 'langchain MarkdownTextSplitter', split: (t) => lc.splitText(t) },
    cw: 'MarkdownChunker',
    make: (countTokens) => new MarkdownChunker({ unit: 'char', chunkSize: 1000, countTokens }),
    target: 1.5,
  });
}

/** HTML char 1000 vs LangChain fromLanguage('html'), both with defaults. */
async function htmlRows(out: string[], verdicts: Verdict[]): Promise<void> {
  const dir = join(repoRoot, 'eval', 'markdown');
  const files = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();
  const lc = RecursiveCharacterTextSplitter.fromLanguage('html', { chunkSize: 1000 });
  await documentsRow(out, verdicts, {
    work: "HTML char 1000 vs LangChain fromLanguage('html')",
    input: 'the Rust-book chapters rendered as docs-site pages',
    docs: files.map((f) => docsSitePage(f, readFileSync(join(dir, f), 'utf8'), files)),
    lc: { name: "langchain fromLanguage('html')", split: (t) => lc.splitText(t) },
    cw: 'HtmlChunker',
    make: (countTokens) => new HtmlChunker({ unit: 'char', chunkSize: 1000, countTokens }),
    target: 2,
  });
}

/** A Python standard-library module (the interpreter's, else the repository's fixture) and lodash. */
function codeFiles(): { name: string; language: 'python' | 'javascript'; text: string }[] {
  const py = ['/usr/lib/python3.11/argparse.py', '/usr/lib/python3.12/argparse.py', '/usr/lib/python3.13/argparse.py'].find((p) => existsSync(p));
  const pyPath = py ?? join(repoRoot, 'test', 'fixtures', 'code', 'stats.py');
  return [
    { name: py ? `Python ${py.split('/')[3]} argparse.py` : 'test/fixtures/code/stats.py', language: 'python', text: readFileSync(pyPath, 'utf8') },
    { name: 'lodash.js', language: 'javascript', text: readFileSync(join(repoRoot, 'node_modules', 'lodash', 'lodash.js'), 'utf8') },
  ];
}

/** Code char 1000 vs LangChain fromLanguage, and CodeChunker.chunk vs tree-sitter's own parse. */
async function codeRows(out: string[], verdicts: Verdict[]): Promise<void> {
  for (const file of codeFiles()) {
    const bytes = utf8Bytes(file.text);
    const lc = RecursiveCharacterTextSplitter.fromLanguage(file.language === 'python' ? 'python' : 'js', { chunkSize: 1000 });
    const cw = await CodeChunker.create({ language: file.language, unit: 'char', chunkSize: 1000 });
    const cwNo = await CodeChunker.create({ language: file.language, unit: 'char', chunkSize: 1000, countTokens: false });
    const names = {
      lc: `langchain fromLanguage('${file.language === 'python' ? 'python' : 'js'}') 1000 (defaults)`,
      cw: 'chunkwise CodeChunker char 1000 (defaults)',
      cwNo: 'chunkwise CodeChunker char 1000, countTokens: false',
      parse: "tree-sitter's own parse (the chunker's parser, hasSyntaxErrors)",
    };
    const rows = await runInterleaved(
      [
        { name: names.lc, fn: () => lc.splitText(file.text), bytes },
        { name: names.cw, fn: () => cw.chunk(file.text), bytes },
        { name: names.cwNo, fn: () => cwNo.chunk(file.text), bytes },
        { name: names.parse, fn: () => cw.hasSyntaxErrors(file.text), bytes },
      ],
      { rounds: 2 * ROUNDS, reps: 1, ...WARM },
    );
    const l = load();
    verdicts.push({ work: `code char 1000 vs LangChain fromLanguage, ${file.name}`, figure: `${x(faster(rows, names.cw, names.lc))} (countTokens: false ${x(faster(rows, names.cwNo, names.lc))})`, target: 'none (reported)', pass: undefined, load: l });
    const overParse = ms(rows, names.cw) / ms(rows, names.parse);
    verdicts.push({
      work: `CodeChunker.chunk / tree-sitter parse, ${file.name}`,
      figure: `${x(overParse)} (countTokens: false ${x(ms(rows, names.cwNo) / ms(rows, names.parse))})`,
      target: '≤ 1.2×',
      pass: overParse <= 1.2,
      load: l,
    });
    out.push('', `### Code char 1000, ${file.name}, ${(bytes / 1e6).toFixed(3)} MB, load ${l.toFixed(1)}`, '', table(rows, names.lc));
  }
}

/** Fixed char 4096 vs @chonkiejs/chunk's string API (4096 bytes, its default delimiters). */
async function fixedRows(out: string[], verdicts: Verdict[]): Promise<void> {
  await memchunkInit();
  const text = corpusText(['finance', 'pubmed', 'state_of_the_union', 'wikitexts']);
  const bytes = utf8Bytes(text);
  const cw = new FixedSizeChunker({ unit: 'char', chunkSize: 4096 });
  const cwNo = new FixedSizeChunker({ unit: 'char', chunkSize: 4096, countTokens: false });
  const names = { mc: '@chonkiejs/chunk chunk(string, { size: 4096 })', cw: 'chunkwise FixedSizeChunker char 4096 (defaults)', cwNo: 'chunkwise FixedSizeChunker char 4096, countTokens: false' };
  cw.chunk('warm up the tokenizer');
  const rows = await runInterleaved(
    [
      { name: names.mc, fn: () => [...memchunk(text, { size: 4096 })], bytes },
      { name: names.cw, fn: () => cw.chunk(text), bytes },
      { name: names.cwNo, fn: () => cwNo.chunk(text), bytes },
    ],
    { rounds: ROUNDS, reps: 2, ...WARM },
  );
  const l = load();
  verdicts.push({ work: 'fixed char 4096 vs @chonkiejs/chunk string API', figure: `countTokens: false ${x(faster(rows, names.cwNo, names.mc))} (defaults ${x(faster(rows, names.cw, names.mc))})`, target: '≥ 1× with countTokens: false', pass: faster(rows, names.cwNo, names.mc) >= 1, load: l });
  const over = ms(rows, names.cw) / ms(rows, names.cwNo) - 1;
  verdicts.push({ work: 'fixed char 4096: tokenCount over countTokens: false', figure: `+${(100 * over).toFixed(0)} %`, target: '≤ +25 %', pass: over <= 0.25, load: l });
  out.push('', `### Fixed char 4096, the four corpora joined, ${(bytes / 1e6).toFixed(2)} MB, load ${l.toFixed(1)}`, '', table(rows, names.mc));
}

const SIZES = [128, 512, 2048, 8192] as const;
const UNITS = ['char', 'word', 'token'] as const;
/** `PEERS_ONLY=recursive,fixed,perByte` (or the full names, `recursiveRows`) runs only those parts; `PEERS_UNITS=char,word` only those units of the cost-per-byte part. */
const ONLY = process.env.PEERS_ONLY?.split(',');
const ONLY_UNITS = process.env.PEERS_UNITS?.split(',');

/** MB/s over chunk sizes 128…8192 per strategy and unit (defaults otherwise); max/min within 1.5×. */
async function perByteRows(out: string[], verdicts: Verdict[]): Promise<void> {
  const prose = corpusText(['finance']).slice(0, 200_000);
  const markdown = markdownChapters().join('\n\n');
  type Make = (unit: (typeof UNITS)[number], size: number) => { chunk(t: string): unknown };
  const strategies: [string, string, Make][] = [
    ['fixed', prose, (unit, size) => new FixedSizeChunker({ unit, chunkSize: size })],
    ['sliding', prose, (unit, size) => new SlidingWindowChunker({ unit, windowSize: size })],
    ['recursive', prose, (unit, size) => new RecursiveChunker({ unit, chunkSize: size })],
    ['markdown', markdown, (unit, size) => new MarkdownChunker({ unit, chunkSize: size })],
  ];
  const only = process.env.PEERS_STRATEGIES?.split(',');
  if (only) strategies.splice(0, strategies.length, ...strategies.filter(([name]) => only.includes(name)));
  const lines = ['| strategy | unit | ' + SIZES.map((s) => `MB/s at ${s}`).join(' | ') + ' | max/min | target ≤ 1.5× | load |', '|---|---|' + SIZES.map(() => '---:|').join('') + '---:|---|---:|'];
  let worst = 0;
  let fails = 0;
  for (const [name, text, make] of strategies) {
    const bytes = utf8Bytes(text);
    for (const unit of UNITS) {
      if (ONLY_UNITS && !ONLY_UNITS.includes(unit)) continue;
      const tasks = SIZES.map((size) => {
        const c = make(unit, size);
        return { name: `${size}`, fn: () => c.chunk(text), bytes };
      });
      const rows = await runInterleaved(tasks, { rounds: ROUNDS, reps: 1, warmup: 3, warmupMs: WARM.warmupMs / 2 });
      const mbs = rows.map((r) => r.mbPerSec!);
      const ratio = Math.max(...mbs) / Math.min(...mbs);
      worst = Math.max(worst, ratio);
      if (ratio > 1.5) fails++;
      lines.push(`| ${name} | ${unit} | ${mbs.map((m) => m.toFixed(1)).join(' | ')} | ${ratio.toFixed(2)} | ${ratio <= 1.5 ? 'PASS' : 'FAIL'} | ${load().toFixed(1)} |`);
    }
  }
  verdicts.push({ work: 'cost per byte over chunk sizes 128…8192 (fixed, sliding, recursive, Markdown × char, word, token)', figure: `worst max/min ${worst.toFixed(2)}, ${fails} of ${strategies.length * UNITS.length} over 1.5`, target: 'every max/min ≤ 1.5×', pass: fails === 0, load: load() });
  out.push(
    '',
    `### Cost per byte over chunk sizes (defaults otherwise; prose: the first 200,000 characters of finance.md, Markdown: the four chapters joined)`,
    '',
    lines.join('\n'),
  );
}

/** Runs every peer row; returns Markdown (the summary with PASS/FAIL, then each row's table). */
export async function runPeersBench(): Promise<string> {
  const verdicts: Verdict[] = [];
  const details: string[] = [];
  const loadAtStart = load();
  for (const part of [tokenizerRows, recursiveRows, markdownRows, htmlRows, codeRows, fixedRows, perByteRows]) {
    if (ONLY && !ONLY.includes(part.name) && !ONLY.includes(part.name.replace(/Rows$/, ''))) continue;
    process.stderr.write(`peers: ${part.name}…\n`);
    await part(details, verdicts);
  }
  const summary = [
    `Every row in one process; a row's tasks warmed (≥ ${WARM.warmupMs} ms each) then interleaved (${ROUNDS} rounds, twice that for Markdown, HTML and code; shuffled order), figures are ratios of median CPU time per call. Load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${load().toFixed(1)} at the end, ${os.cpus().length} cores.`,
    '',
    '| work (defaults unless said) | chunkwise vs peer | target | result | load |',
    '|---|---|---|---|---:|',
    ...verdicts.map((v) => `| ${v.work} | ${v.figure} | ${v.target} | ${v.pass === undefined ? '—' : v.pass ? 'PASS' : 'FAIL'} | ${v.load.toFixed(1)} |`),
  ];
  return [...summary, ...details].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runPeersBench().then((md) => console.log(md));
}
