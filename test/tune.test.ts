import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { HashingEmbedder, InvalidInputError, InvalidOptionError } from '../src/index.js';
import { capacitySchema, defineStrategy, packLevels, registerStrategy } from '../src/engine.js';
import {
  configurationForms,
  evaluateSpec,
  generateQuestions,
  locateExcerpt,
  paretoFront,
  parseQuestionsCsv,
  questionsCsv,
  recommendIndex,
  tune,
  tuneGrid,
  tuneMarkdown,
  TUNE_JSON_FORMAT,
  type Corpus,
  type EvalQuestion,
} from '../src/evaluation/index.js';
import { main } from '../src/apps/cli/main.js';
import { parseTabbedQuestions } from '../src/evaluation/questions.js';
import { parseDuration, runTune } from '../src/apps/cli/tune-command.js';
import { readQuestions } from '../src/apps/node/index.js';
import { localServer } from './helpers/local-server.js';
import { corporaDir, questionsCsv as sharedQuestions } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'chunkwise-tune-'));
/** One corpus of the evaluation (the speech, 49 kB) and its 65 questions. */
const speech: Corpus = { id: 'state_of_the_union', text: readFileSync(join(corporaDir, 'state_of_the_union.md'), 'utf8') };
let questions: EvalQuestion[];
const corpusFile = join(dir, 'state_of_the_union.md');
const questionsFile = join(dir, 'questions.csv');
writeFileSync(corpusFile, speech.text);
const embedder = new HashingEmbedder();
/** A small grid: 6 configurations, about a second on the speech. */
const grid = { strategies: ['fixed', 'recursive', 'qasc'], sizes: [100, 200], overlaps: [0], qascWindows: ['adaptive' as const] };

beforeAll(async () => {
  questions = (await readQuestions(sharedQuestions)).filter((q) => q.corpusId === speech.id);
  writeFileSync(questionsFile, questionsCsv(questions));
});

/** Runs the CLI in-process; returns the exit code and what went to stdout and stderr. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  // a write's callback (the last function argument) is called, as the stream would
  const done = (args: unknown[]) => (args.filter((a) => typeof a === 'function').pop() as (() => void) | undefined)?.();
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s, ...rest: unknown[]) => ((out += String(s)), done(rest), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s, ...rest: unknown[]) => ((err += String(s)), done(rest), true));
  try {
    return { code: await main(['node', 'chunkwise', ...args]), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('questions CSV written and read back', () => {
  it('round-trips the shared questions and any text (quotes, commas, newlines)', () => {
    expect(parseQuestionsCsv(questionsCsv(questions))).toEqual(questions);
    fc.assert(
      fc.property(fc.string({ minLength: 1 }).filter((s) => s.trim().length > 0), fc.string(), fc.nat(1000), (question, content, start) => {
        const q: EvalQuestion = { question, corpusId: 'c,"x"', references: [{ content, start, end: start + 1 + content.length }] };
        expect(parseQuestionsCsv(questionsCsv([q]))).toEqual([q]);
      }),
    );
  });
});

describe('Pareto front and the recommendation rule', () => {
  const point = fc.record({ recall: fc.double({ min: 0, max: 1, noNaN: true }), iou: fc.double({ min: 0, max: 1, noNaN: true }) });
  const dominates = (b: { recall: number; iou: number }, a: { recall: number; iou: number }) => b.recall >= a.recall && b.iou >= a.iou && (b.recall > a.recall || b.iou > a.iou);

  it('no front point is dominated; every other point is dominated by a front point', () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 30 }), (points) => {
        const front = paretoFront(points);
        expect(front.length).toBeGreaterThan(0);
        for (const i of front) expect(points.some((b) => dominates(b, points[i]))).toBe(false);
        points.forEach((a, i) => {
          if (!front.includes(i)) expect(front.some((j) => dominates(points[j], a))).toBe(true);
        });
        // sorted by IoU ascending
        for (let j = 1; j < front.length; j++) expect(points[front[j]].iou).toBeGreaterThanOrEqual(points[front[j - 1]].iou);
      }),
    );
  });

  it('recommends the best IoU within the recall tolerance: a worked example', () => {
    const points = [
      { recall: 0.8, iou: 0.02 }, // best recall
      { recall: 0.795, iou: 0.03 }, // within 1 point: better IoU → chosen
      { recall: 0.78, iou: 0.09 }, // 2 points below: out
      { recall: 0.5, iou: 0.2 },
    ];
    expect(recommendIndex(points)).toBe(1);
    expect(recommendIndex(points, 0.03)).toBe(2);
    expect(recommendIndex(points, 0)).toBe(0);
    expect(paretoFront(points)).toEqual([0, 1, 2, 3]);
  });

  it('the recommended point is on the front and within the tolerance of the best recall', () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 30 }), fc.double({ min: 0, max: 0.2, noNaN: true }), (points, tolerance) => {
        const i = recommendIndex(points, tolerance);
        expect(paretoFront(points)).toContain(i);
        expect(points[i].recall).toBeGreaterThanOrEqual(Math.max(...points.map((p) => p.recall)) - tolerance);
      }),
    );
  });
});

describe('the grid', () => {
  it('overlaps in percent of the size; combinations a strategy refuses are set apart', () => {
    const { specs, notApplicable } = tuneGrid({ strategies: ['fixed', 'sentence', 'qasc'], sizes: [200], overlaps: [0, 25], qascWindows: ['adaptive', 'fixed'] });
    expect(specs.map((s) => s.spec)).toEqual([
      'fixed:200:0',
      'sentence:200:0',
      'qasc:200:0:window=adaptive',
      'qasc:200:0:window=fixed',
      'fixed:200:50',
      'qasc:200:50:window=adaptive',
      'qasc:200:50:window=fixed',
    ]);
    expect(notApplicable.map((s) => s.spec)).toEqual(['sentence:200:50']);
    expect(() => tuneGrid({ sizes: [] })).toThrow(InvalidOptionError);
    expect(() => tuneGrid({ overlaps: [100] })).toThrow(InvalidOptionError);
    expect(() => tuneGrid({ strategies: ['nope'] }).specs).not.toThrow();
    expect(tuneGrid({ strategies: ['nope'], sizes: [100], overlaps: [0] }).notApplicable[0].reason).toMatch(/one of/);
  });
});

describe('tune()', () => {
  it('recommends a configuration whose figures equal a separate evaluation of its spec', async () => {
    const result = await tune([speech], questions, { embedder, ...grid, bootstrap: { resamples: 500 } });
    expect(result.rows.map((r) => r.spec)).toEqual(['fixed:100:0', 'recursive:100:0', 'qasc:100:0:window=adaptive', 'fixed:200:0', 'recursive:200:0', 'qasc:200:0:window=adaptive']);
    expect(result.skipped).toEqual([]);
    const chosen = result.rows.find((r) => r.spec === result.recommendation.spec)!;
    const again = await evaluateSpec(chosen.spec, [speech], questions, embedder);
    expect(again.overall).toEqual(chosen.result.overall);
    expect(again.perQuestion).toEqual(chosen.result.perQuestion);
    // front points carry intervals around their means
    for (const p of result.front) {
      expect(p.recall.low).toBeLessThanOrEqual(p.recall.mean);
      expect(p.recall.high).toBeGreaterThanOrEqual(p.recall.mean);
      expect(p.iou.low).toBeLessThanOrEqual(p.iou.mean);
    }
    expect(result.front.map((p) => p.spec)).toContain(result.recommendation.spec);
    expect(result.recommendation.reason).toContain(result.recommendation.spec);
  });

  it('recommends an index-time configuration unless queryTime: QASC is measured, not recommended; by default not searched', async () => {
    expect(tuneGrid({ sizes: [200], overlaps: [0] }).specs.map((x) => x.spec)).toEqual(['fixed:200:0', 'recursive:200:0', 'sentence:200:0', 'semantic:200:0', 'cluster-semantic:200:0']);
    expect(tuneGrid({ sizes: [200], overlaps: [0], qascWindows: ['fixed'], queryTime: true }).specs.map((x) => x.spec)).toContain('qasc:200:0:window=fixed');
    const indexed = await tune([speech], questions, { embedder, ...grid, bootstrap: { resamples: 200 } });
    expect(indexed.rows.map((r) => r.spec)).toContain('qasc:100:0:window=adaptive');
    expect(indexed.recommendation.spec).toMatch(/^(fixed|recursive):/);
    expect(indexed.recommendation.rule).toContain('index-time configurations');
    const any = await tune([speech], questions, { embedder, ...grid, queryTime: true, bootstrap: { resamples: 200 } });
    expect(any.recommendation.rule).not.toContain('index-time');
  });

  it('starts no configuration that would end past the budget and reports the skipped', async () => {
    // a clock on which every configuration takes 10 s
    let t = 0;
    const result = await tune([speech], questions, {
      embedder,
      ...grid,
      strategies: ['fixed'],
      sizes: [100, 200, 300, 400],
      budgetMs: 25_000,
      now: () => t,
      onConfiguration: (e) => {
        if (e.phase === 'start') t += 10_000;
      },
      bootstrap: { resamples: 100 },
    });
    expect(result.rows.map((r) => r.spec)).toEqual(['fixed:100:0', 'fixed:200:0']);
    expect(result.skipped.map((s) => s.spec)).toEqual(['fixed:300:0', 'fixed:400:0']);
    expect(result.skipped[0].reason).toBe('estimated 10.0 s, 5.0 s of the budget left');
    expect(result.elapsedMs).toBeLessThanOrEqual(25_000);
  });

  it('a configuration that throws is reported as failed and the search goes on', async () => {
    const schema = capacitySchema('tune-probe', {}, { overlap: false });
    const spans = packLevels(() => {
      throw new Error('no boundaries for this text');
    });
    registerStrategy(defineStrategy({ name: 'tune-probe', description: 'throws on every text', schema, spans }).definition);
    const result = await tune([speech], questions, { embedder, strategies: ['tune-probe', 'fixed'], sizes: [100], overlaps: [0] });
    expect(result.rows.map((r) => r.spec)).toEqual(['fixed:100:0']);
    expect(result.failed.map((f) => f.spec)).toEqual(['tune-probe:100:0']);
    expect(result.failed[0].reason).toMatch(/spans/);
    expect(tuneMarkdown(result, 'hashing')).toMatch(/Failed \(1, left out of the front\):\n  tune-probe:100:0: /);
    await expect(tune([speech], questions, { embedder, strategies: ['tune-probe'], sizes: [100], overlaps: [0] })).rejects.toThrow(InvalidInputError);
  });

  it('rejects a bad budget and tolerance', async () => {
    await expect(tune([speech], questions, { embedder, budgetMs: 0 })).rejects.toThrow(InvalidOptionError);
    await expect(tune([speech], questions, { embedder, recallTolerance: 2 })).rejects.toThrow(InvalidOptionError);
  });
});

describe('the three forms of a configuration', () => {
  it('CLI line, createChunker call and spec of a chunk strategy; the CLI line runs', async () => {
    const forms = configurationForms('recursive:200:20', 'hashing');
    expect(forms).toEqual({
      cli: 'chunkwise chunk FILE… --strategy recursive --unit token --chunk-size 200 --chunk-overlap 20',
      code: "createChunker('recursive', { unit: 'token', chunkSize: 200, chunkOverlap: 20 })",
      spec: 'recursive:200:20',
    });
    expect(configurationForms('semantic:300', 'static:m').cli).toBe('chunkwise chunk FILE… --strategy semantic --unit token --max-chunk-size 300 --embedder static:m');
    expect(configurationForms('sliding:128:32', 'hashing').code).toBe("createChunker('sliding', { unit: 'token', windowSize: 128, stride: 96 })");
    const out = join(dir, 'chunks.jsonl');
    const args = forms.cli.replace('chunkwise chunk FILE…', '').trim().split(' ');
    const r = await cli('chunk', corpusFile, ...args, '--out', out);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const { chunkerFromSpec } = await import('../src/evaluation/index.js');
    const expected = await chunkerFromSpec('recursive:200:20').chunk(speech.text);
    expect(lines.map((c) => [c.start, c.end])).toEqual(expected.map((c) => [c.start, c.end]));
  });

  it('QASC as a qasc command line and a QascIndex', () => {
    const forms = configurationForms('qasc:200:0:window=adaptive', 'hashing');
    expect(forms.cli).toBe("chunkwise qasc FILE… --query '…' --pre-chunk-size 200 --pre-chunk-overlap 0 --window adaptive --embedder hashing");
    expect(forms.code).toBe("new QascIndex({ embedder: embedder, chunker: createChunker('fixed', { unit: 'token', chunkSize: 200, chunkOverlap: 0 }), qasc: { window: 'adaptive' } })");
  });
});

describe('chunkwise tune', () => {
  it('takes question<TAB>excerpt lines and finds each excerpt\'s corpus and offsets; an excerpt not found or found twice names its line', async () => {
    // the shared questions' own excerpts, written as a user would paste them (newlines as \\n)
    const chosen = questions.filter((q) => q.references.length === 1 && speech.text.indexOf(q.references[0].content) === speech.text.lastIndexOf(q.references[0].content)).slice(0, 8);
    expect(chosen.length).toBe(8);
    const tsv = ['# question, tab, excerpt', ...chosen.map((q) => `${q.question}\t${q.references[0].content.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`), ''].join('\n');
    const parsed = parseTabbedQuestions(tsv, [{ id: 'other', text: 'nothing of the speech' }, speech], 'q.tsv');
    expect(parsed).toEqual(chosen.map((q) => ({ question: q.question, corpusId: speech.id, references: [{ content: q.references[0].content, start: q.references[0].start, end: q.references[0].end }] })));
    expect(() => parseTabbedQuestions('What?\tno such words in the speech at all\n', [speech], 'q.tsv')).toThrow('Invalid evaluation data (q.tsv line 1): excerpt not found in the corpora: "no such words in the speech at all"');
    expect(() => parseTabbedQuestions('# c\nWho?\tthe\n', [speech], 'q.tsv')).toThrow(/^Invalid evaluation data \(q\.tsv line 2\): excerpt found more than once \(state_of_the_union at \d+ and state_of_the_union at \d+\)/);
    expect(() => parseTabbedQuestions('Who?\n', [speech], 'q.tsv')).toThrow('Invalid evaluation data (q.tsv line 1): needs a question, a tab, then an excerpt of a corpus');
    const file = join(dir, 'pasted.tsv');
    writeFileSync(file, tsv);
    const r = await cli('tune', corpusFile, '--questions', file, '--strategies', 'fixed', '--sizes', '100', '--overlaps', '0', '--quiet');
    expect([r.code, r.err]).toEqual([0, '']);
    expect(r.out).toContain('8 questions over 1 corpora');
  });

  it('prints the front and the recommendation; --out writes tune.json, front.svg and report.md; chunkwise eval agrees', async () => {
    const out = join(dir, 'out');
    const r = await cli('tune', corpusFile, '--questions', questionsFile, '--strategies', 'fixed,recursive,qasc', '--sizes', '100,200', '--overlaps', '0', '--qasc-windows', 'adaptive', '--budget', '2m', '--out', out);
    // stderr is not a terminal here: a line per configuration instead of a bar (b75b80f: nothing for the whole run)
    expect(r.err).toMatch(/^(chunkwise: tune [1-6]\/6 (fixed|recursive|qasc):\S+ done, \d+ s\n){6}$/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Pareto front of mean recall against mean IoU/);
    const json = JSON.parse(readFileSync(join(out, 'tune.json'), 'utf8'));
    expect(json.format).toBe(TUNE_JSON_FORMAT);
    expect(json.rows).toHaveLength(6);
    const spec: string = json.recommendation.spec;
    expect(r.out).toContain(`Recommended: ${spec}`);
    expect(r.out).toContain(`--strategy: ${spec}`);
    expect(r.out).toContain(`  code:       ${json.recommendation.code}`);
    expect(json.rows.filter((x: { front: boolean }) => x.front).map((x: { spec: string }) => x.spec).sort()).toEqual(json.front.map((p: { spec: string }) => p.spec).sort());
    const svg = readFileSync(join(out, 'front.svg'), 'utf8');
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('<polyline');
    expect(svg).toContain('r="13"');
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toBe(r.out);
    // the separate evaluation of the recommended spec
    const evalJson = join(dir, 'eval.json');
    const e = await cli('eval', '--corpora', corpusFile, '--questions', questionsFile, '--strategy', spec, '--json', evalJson, '--quiet');
    expect(e.code).toBe(0);
    const row = json.rows.find((x: { spec: string }) => x.spec === spec);
    expect(JSON.parse(readFileSync(evalJson, 'utf8'))[0].overall).toEqual(row.overall);
  });

  it('bad flags are usage errors (exit 2, one line)', async () => {
    const cases: [string[], RegExp][] = [
      [['--questions', questionsFile, '--budget', '5x'], /--budget: expected a duration/],
      [['--questions', questionsFile, '--sizes', '100,abc'], /--sizes: expected integers/],
      [['--questions', questionsFile, '--overlaps', '100'], /--overlaps: expected percentages/],
      [['--questions', questionsFile, '--qasc-windows', 'wide'], /--qasc-windows: expected adaptive or fixed/],
      [[], /give --questions FILE.csv, or --generate N/],
      [['--questions', questionsFile, '--generate', '2'], /--questions or --generate, not both/],
      [['--questions', questionsFile, '--chat-model', 'm'], /go with --generate/],
      [['--questions', questionsFile, '--strategies', 'nope', '--sizes', '100', '--overlaps', '0'], /--strategies: unknown strategy "nope" \(strategies: sliding, .*qasc\)/],
      [['--questions', questionsFile, '--strategies', 'fixed,nope'], /--strategies: unknown strategy "nope"/],
      [['--questions', questionsFile, '--out', questionsFile], /--out takes a directory .*questions\.csv is a file/],
    ];
    for (const [args, message] of cases) {
      const r = await cli('tune', corpusFile, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('30')).toBe(30_000);
  });
});

describe('question generation through an OpenAI-compatible chat endpoint', () => {
  const requests: { model: string; messages: { role: string; content: string }[] }[] = [];
  let replies: ((window: string) => string | { status: number })[] = [];

  /** Answers with a question about the first sentence of the window it is sent (whitespace changed in one excerpt). */
  const good = (window: string) => {
    const sentences = window.split(/(?<=[.!?])\s+/).filter((s) => s.length > 30 && s.length < 300);
    const first = sentences[1];
    return JSON.stringify({ question: `What does the speech say about "${first.slice(0, 30)}"?`, references: [first.replace(/ /, '  \n')] });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const part of req) raw += part;
    const body = JSON.parse(raw);
    requests.push(body);
    const window = /"""\n([\s\S]*)\n"""/.exec(body.messages[1].content)![1];
    const reply = (replies.shift() ?? good)(window);
    if (typeof reply !== 'string') {
      res.writeHead(reply.status, { 'content-type': 'application/json', 'retry-after-ms': '1' });
      res.end(JSON.stringify({ error: { message: 'busy' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: reply } }] }));
  }

  const endpoint = localServer(handle);

  it('locates excerpts exactly or across changed whitespace', () => {
    const text = 'One two.  Three\nfour five. One two.';
    expect(locateExcerpt(text, 'One two.', 5)).toEqual({ start: 27, end: 35, content: 'One two.' });
    expect(locateExcerpt(text, 'Three four   five.')).toEqual({ start: 10, end: 26, content: 'Three\nfour five.' });
    expect(locateExcerpt(text, 'six')).toBeUndefined();
  });

  it('asks for questions, retries unusable answers and busy servers, and keeps exact references', async () => {
    requests.length = 0;
    replies = [() => 'not json', () => ({ status: 503 }), good, (w) => JSON.stringify({ question: 'Q?', references: ['not in the text at all'] })];
    const got = await generateQuestions([speech], { model: 'local-chat', baseURL: endpoint.baseURL, perCorpus: 2, initialDelayMs: 1 });
    expect(got).toHaveLength(2);
    // question 1: not JSON, then 503 (retried in the same attempt), then good; question 2: an excerpt not in the text, then good
    expect(requests.length).toBe(5);
    expect(requests[0].model).toBe('local-chat');
    expect(requests[0].messages[0].role).toBe('system');
    expect(requests[4].messages[1].content).toContain(got[0].question); // asked questions are sent along
    for (const q of got) {
      expect(q.corpusId).toBe(speech.id);
      for (const ref of q.references) expect(speech.text.slice(ref.start, ref.end)).toBe(ref.content);
    }
    await expect(generateQuestions([speech], { model: 'm', baseURL: 'ftp://x' })).rejects.toThrow(InvalidOptionError);
  });

  it('chunkwise tune --generate writes the questions and tunes on them', async () => {
    replies = [];
    const out = join(dir, 'generated');
    const r = await cli('tune', corpusFile, '--generate', '3', '--chat-model', 'local-chat', '--chat-url', endpoint.baseURL, '--strategies', 'fixed', '--sizes', '100', '--overlaps', '0', '--out', out);
    expect(r.err).toMatch(/^chunkwise: tune 1\/1 fixed:100:0 done, \d+ s\n$/);
    expect(r.code).toBe(0);
    const generated = parseQuestionsCsv(readFileSync(join(out, 'questions.csv'), 'utf8'));
    expect(generated).toHaveLength(3);
    expect(r.out).toContain('3 questions over 1 corpora');
    expect(r.out).toContain('Recommended: fixed:100:0');
    // a refused request is exit 1
    replies = [() => ({ status: 401 })];
    const refused = await cli('tune', corpusFile, '--generate', '1', '--chat-model', 'm', '--chat-url', endpoint.baseURL, '--strategies', 'fixed', '--sizes', '100', '--overlaps', '0');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/refused the request: HTTP 401: busy/);
  });

  it('runTune is the same with --questions read from the written CSV', async () => {
    const result = await runTune([corpusFile], { questions: join(dir, 'generated', 'questions.csv'), budget: 60_000, embedder: 'hashing', topK: 5, recallTolerance: 1, strategies: ['fixed'], sizes: [100], overlaps: [0], quiet: true });
    expect(result.questions).toBe(3);
  });
});
