import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapToOffsets } from '../bench/peers.js';
import { FixedSizeChunker, HashingEmbedder, InvalidDatasetError, InvalidOptionError, type Embedder } from '../src/index.js';
import {
  DenseIndex,
  checkQuestions,
  chunkerFromSpec,
  corpusIdFromPath,
  evaluateChunker,
  evaluateSpans,
  markdownTable,
  parseQuestionsCsv,
  parseStrategySpec,
  recallIouSvg,
  type EvalQuestion,
  type IndexedSpan,
} from '../src/evaluation/index.js';
import { readCorpora, readQuestions } from '../src/apps/node/index.js';
import { cliBin, corporaDir, questionsCsv, sharedFiles } from './helpers/paths.js';

/** A made-up embedder: counts of three keywords, so rankings are known by hand. */
class KeywordEmbedder implements Embedder {
  readonly dimension = 3;
  async embed(texts: string[]): Promise<Float32Array> {
    const out = new Float32Array(texts.length * 3);
    texts.forEach((t, i) => ['apple', 'banana', 'cherry'].forEach((w, j) => (out[i * 3 + j] = t.split(w).length - 1)));
    return out;
  }
}

describe('questions CSV', () => {
  const csvPath = questionsCsv;

  it('parses the shared questions (quoted JSON, doubled quotes) and they match the corpora', async () => {
    const questions = await readQuestions(csvPath);
    expect(questions).toHaveLength(308);
    const counts: Record<string, number> = {};
    for (const q of questions) counts[q.corpusId] = (counts[q.corpusId] ?? 0) + 1;
    expect(counts).toEqual({ state_of_the_union: 65, wikitexts: 105, pubmed: 68, finance: 70 });
    expect(questions[1]).toEqual({
      question: 'How many people are no longer denied health insurance due to preexisting conditions according to President Biden?',
      corpusId: 'state_of_the_union',
      references: [{ content: 'Over 100 million of you can no longer be denied health insurance because of a preexisting condition.', start: 16996, end: 17096 }],
    });
    const corpora = await readCorpora(sharedFiles(corporaDir, '.md'));
    expect(corpora.map((c) => c.id).sort()).toEqual(['finance', 'pubmed', 'state_of_the_union', 'wikitexts']);
    expect(() => checkQuestions(questions, corpora)).not.toThrow();
    expect(() => checkQuestions(questions, corpora.slice(1))).toThrow(InvalidDatasetError);
  });

  it('bad CSVs are InvalidDatasetError naming the row', () => {
    expect(() => parseQuestionsCsv('question,corpus_id\nq,a\n')).toThrow(/missing column "references"/);
    expect(() => parseQuestionsCsv('question,references,corpus_id\nq,not json,a\n', 'x.csv')).toThrow(/x\.csv row 2.*not JSON/);
    expect(() => parseQuestionsCsv('question,references,corpus_id\nq,"[{""start_index"": 5, ""end_index"": 5}]",a\n')).toThrow(/start_index < end_index/);
    expect(() => parseQuestionsCsv('question,references,corpus_id\n"unterminated,x,a\n')).toThrow(InvalidDatasetError);
    const q = parseQuestionsCsv('question,references,corpus_id\nq,"[{""content"": ""xy"", ""start_index"": 1, ""end_index"": 3}]",c\n');
    expect(() => checkQuestions(q, [{ id: 'c', text: 'axyz' }])).not.toThrow();
    expect(() => checkQuestions(q, [{ id: 'c', text: 'abcd' }])).toThrow(/differs from the corpus text/);
    expect(() => checkQuestions(q, [{ id: 'c', text: 'ab' }])).toThrow(/ends past the corpus/);
  });

  it('corpus ids are base names without extension', () => {
    expect(corpusIdFromPath('/x/corpora/pubmed.md')).toBe('pubmed');
    expect(corpusIdFromPath('C:\\data\\a.b.txt')).toBe('a.b');
    expect(corpusIdFromPath('README')).toBe('README');
  });
});

describe('strategy specs', () => {
  it("name:size:overlap sets the strategy's own budget options (from its registry entry)", () => {
    expect(parseStrategySpec('fixed:800:400')).toEqual({
      spec: 'fixed:800:400',
      name: 'fixed',
      size: 800,
      overlap: 400,
      options: { unit: 'token', chunkSize: 800, chunkOverlap: 400 },
    });
    expect(parseStrategySpec('sliding:512:256').options).toEqual({ unit: 'token', windowSize: 512, stride: 256 });
    expect(parseStrategySpec('recursive:400').options).toEqual({ unit: 'token', chunkSize: 400, chunkOverlap: 0 });
    expect(parseStrategySpec('semantic:400:0:breakpoint=percentile:threshold=95:unit=char').options).toEqual({ unit: 'char', breakpoint: 'percentile', threshold: 95, maxChunkSize: 400 });
    expect(parseStrategySpec('sentence:300').options).toEqual({ unit: 'token', chunkSize: 300 });
    expect(() => parseStrategySpec('sentence:300:50')).toThrow(/sentence takes no overlap; write sentence:300/);
    expect(parseStrategySpec('sentence').size).toBeUndefined();
    // every spec builds its chunker: no option another strategy reads is passed
    for (const spec of ['fixed:64:8', 'sliding:64:32', 'recursive:64:8', 'sentence:64', 'markdown:64:8', 'parent-child:64:8', 'semantic:64:0']) expect(chunkerFromSpec(spec)).toBeDefined();
  });

  it('bad specs and unknown strategies are InvalidOptionError', () => {
    for (const bad of ['', 'fixed:abc', 'fixed:1:2:3', 'fixed:-5', ':400', 'fixed:400:=x']) expect(() => parseStrategySpec(bad)).toThrow(InvalidOptionError);
    expect(() => chunkerFromSpec('nosuch:400:0')).toThrow(/Invalid option strategy: "nosuch"/);
    expect(() => chunkerFromSpec('fixed:400:400')).toThrow(/chunkOverlap/);
    expect(chunkerFromSpec('sliding:512:256')).toMatchObject({ windowSize: 512, stride: 256 });
  });
});

describe('DenseIndex and evaluation, hand-computed', () => {
  // corpus a: "apple" at [0, 5), "banana" at [6, 12), "cherry" at [13, 19)
  const text = 'apple banana cherry';
  const spans: IndexedSpan[] = [
    { corpusId: 'a', start: 0, end: 5, text: 'apple' },
    { corpusId: 'a', start: 6, end: 12, text: 'banana' },
    { corpusId: 'a', start: 13, end: 19, text: 'cherry' },
    { corpusId: 'b', start: 0, end: 12, text: 'banana apple' },
  ];

  it('ranks by cosine similarity in WASM, ties to the lower index', async () => {
    const index = await DenseIndex.build(spans, new KeywordEmbedder(), { batchSize: 3 });
    expect(index.size).toBe(4);
    expect(await index.retrieve('banana', 2)).toEqual([
      { corpusId: 'a', start: 6, end: 12 }, // cos 1
      { corpusId: 'b', start: 0, end: 12 }, // cos 1/√2
    ]);
    // "apple banana": cos with span 3 is 1; with spans 0 and 1 it is 1/√2 each (tie → index 0 first)
    const many = await index.retrieveMany(['apple banana', 'cherry'], 3);
    expect(many[0].map((s) => `${s.corpusId}${s.start}`)).toEqual(['b0', 'a0', 'a6']);
    expect(many[1][0]).toEqual({ corpusId: 'a', start: 13, end: 19 });
    await expect(index.retrieve('x', 0)).rejects.toThrow(InvalidOptionError);
  });

  it('evaluateSpans scores each question and summarises per corpus', async () => {
    const questions: EvalQuestion[] = [
      { question: 'banana', corpusId: 'a', references: [{ content: 'banana', start: 6, end: 12 }] },
      { question: 'cherry', corpusId: 'a', references: [{ content: 'cherry', start: 13, end: 19 }] },
      { question: 'apple', corpusId: 'b', references: [{ content: 'apple', start: 7, end: 12 }] },
    ];
    const r = await evaluateSpans(spans, questions, new KeywordEmbedder(), { name: 'made-up', k: 1 });
    // q1: top 1 = a[6,12): recall 1, precision 1, IoU 1
    // q2: top 1 = a[13,19): 1, 1, 1
    // q3: top 1 = a[0,5) (cos 1, index 0 before b's 1/√2): other corpus → 0, 0, 0
    expect(r.perQuestion.map((s) => [s.recall, s.precision, s.iou])).toEqual([[1, 1, 1], [1, 1, 1], [0, 0, 0]]);
    expect(r.overall.recall.mean).toBeCloseTo(2 / 3, 12);
    expect(r.overall.recall.std).toBeCloseTo(Math.sqrt(2 / 9), 12);
    expect(r.perCorpus.a.iou).toEqual({ mean: 1, std: 0 });
    expect(r.perCorpus.b).toMatchObject({ questions: 1, recall: { mean: 0, std: 0 } });
    expect(r.chunks).toBe(4);
    expect(r.meanChunkTokens).toBe((1 + 1 + 2 + 2) / 4); // cl100k: apple 1, banana 1, cherry 2 (ch|erry), "banana apple" 2
    // k = 2 for q3: b[0,12) comes second and covers [7, 12): recall 1, precision 5 / (5 + 12)
    const r2 = await evaluateSpans(spans, questions.slice(2), new KeywordEmbedder(), { name: 'made-up', k: 2 });
    expect(r2.perQuestion[0].recall).toBe(1);
    expect(r2.perQuestion[0].precision).toBeCloseTo(5 / 17, 12);
    expect(text.slice(6, 12)).toBe('banana');
  });

  it('the Markdown table and the SVG show every row', async () => {
    const r = await evaluateSpans(spans, [{ question: 'banana', corpusId: 'a', references: [{ content: 'banana', start: 6, end: 12 }] }], new KeywordEmbedder(), { name: 'x', k: 1 });
    const rows = [
      { result: r, strategy: 'fixed', size: 400, overlap: 200 },
      { result: r, strategy: 'peer <lib>', size: 200, overlap: 0 },
    ];
    expect(markdownTable(rows).split('\n')[2]).toBe('| fixed | 400 | 200 | 4 | 1.5 | 100.0 ± 0.0 | 100.0 ± 0.0 | 100.0 ± 0.0 |');
    const svg = recallIouSvg(rows);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('peer &lt;lib&gt;');
    expect(svg).toContain('>400/200<');
    expect(svg.match(/<circle|<rect x|<path/g)!.length).toBe(2 + 2); // two points + two legend markers
  });
});

describe('on the shared corpora', () => {
  it('retrieving every chunk gives recall 1 for every question, precision = reference chars / all chunk chars', async () => {
    const corpora = await readCorpora(sharedFiles(corporaDir, '.md'));
    const questions = await readQuestions(questionsCsv);
    const chunker = new FixedSizeChunker({ unit: 'char', chunkSize: 50_000, chunkOverlap: 0, countTokens: false });
    // chunks span each corpus from its first to its last non-whitespace character
    const total = corpora.reduce((n, c) => n + c.text.trimEnd().length - (c.text.length - c.text.trimStart().length), 0);
    expect(total).toBeLessThan(corpora.reduce((n, c) => n + c.text.length, 0)); // the files end in newlines
    const r = await evaluateChunker(chunker, corpora, questions, new HashingEmbedder({ dimension: 64 }), { name: 'all', k: 1000 });
    expect(r.chunks).toBeLessThan(1000);
    // the chunks tile the corpora without overlap, so every reference is covered
    expect(r.perQuestion.every((s) => s.recall === 1)).toBe(true);
    r.perQuestion.forEach((s, i) => {
      const refChars = questions[i].references.reduce((n, x) => n + x.end - x.start, 0);
      expect(s.retrievedChars).toBe(total);
      expect(s.precision).toBeCloseTo(refChars / total, 12);
    });
    expect(r.overall.recall).toEqual({ mean: 1, std: 0 });
  }, 60_000);
});

describe('peer offsets by sequential search', () => {
  it('maps texts in order, counts ambiguity, repairs and misses', () => {
    const corpus = { id: 'c', text: 'the cat. the cat. a dog é' };
    const m = mapToOffsets(corpus, ['the cat.', 'the cat.', 'a dog \uFFFD', 'zebra', 'the']);
    // "the" is searched from 18 (the previous chunk's start), absent there, found from the start: out of order
    expect(m.spans.map((s) => [s.start, s.end])).toEqual([[0, 8], [9, 17], [18, 23], [0, 3]]);
    expect(m.spans.every((s) => corpus.text.slice(s.start, s.end) === s.text)).toBe(true);
    expect(m).toMatchObject({ exact: 2, repaired: 1, notFound: 1, outOfOrder: 1 });
    // "the cat." at 0 and "the" at 0 occur again at 9: ambiguous; the second "the cat." does not recur
    expect(m.ambiguous).toBe(2);
    const hinted = mapToOffsets(corpus, ['the cat.'], [{ start: 9, end: 17 }]);
    expect(hinted).toMatchObject({ fromLibrary: 1, exact: 0 });
    expect(hinted.spans[0].start).toBe(9);
  });
});

describe('chunkwise eval (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-eval-'));
  const corpus = join(dir, 'fruit.txt');
  writeFileSync(corpus, 'Apples are red. Apples are sweet.\n\nBananas are yellow. Bananas are long.\n\nCherries are small.');
  const csv = join(dir, 'q.csv');
  writeFileSync(
    csv,
    'question,references,corpus_id\n"What colour are bananas?","[{""content"": ""Bananas are yellow."", ""start_index"": 35, ""end_index"": 54}]",fruit\n',
  );
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, [cliBin, 'eval', ...args], { encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('prints the table and writes JSON and SVG', () => {
    const json = join(dir, 'r.json');
    const svg = join(dir, 'r.svg');
    const r = run(['--corpora', corpus, '--questions', csv, '--strategy', 'fixed:8:0', '--strategy', 'sliding:8:4', '-k', '1', '--json', json, '--svg', svg]);
    expect(r.stderr).toMatch(/fixed:8:0: \d+ chunks/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('k = 1; 1 questions over 1 corpora');
    const rows = JSON.parse(readFileSync(json, 'utf8')) as { strategy: string; size: number; overall: { recall: { mean: number } } }[];
    expect(rows.map((x) => `${x.strategy}:${x.size}`)).toEqual(['fixed:8', 'sliding:8']);
    for (const x of rows) expect(x.overall.recall.mean).toBeGreaterThan(0);
    expect(readFileSync(svg, 'utf8')).toContain('</svg>');
    expect(basename(corpus)).toBe('fruit.txt');
  });

  it('usage errors exit 2 with one line, unreadable files exit 1', () => {
    const bad = run(['--corpora', corpus, '--questions', csv, '--strategy', 'fixed:8:8']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^chunkwise: invalid option chunkOverlap: 8/);
    const none = run(['--corpora', corpus, '--questions', csv]);
    expect(none.code).toBe(2);
    const missing = run(['--corpora', join(dir, 'nope.txt'), '--questions', csv, '--strategy', 'fixed:8:0']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^chunkwise: cannot read .*nope.txt: no such file or directory\n$/);
    const wrongCorpus = run(['--corpora', csv, '--questions', csv, '--strategy', 'fixed:8:0']);
    expect(wrongCorpus.code).toBe(2);
    expect(wrongCorpus.stderr).toMatch(/corpus_id "fruit" has no corpus/);
  });
});
