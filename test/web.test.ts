/**
 * The web page (web/, `npm run web`) in Debian's Chromium, checked against the library in
 * Node: strategies side by side give the chunks `createChunker` gives for the same
 * options, aligned at every boundary, with the lost text counted; the histograms count
 * what Node's chunks give; the evaluation on pasted questions equals `evaluateSpans` in
 * Node; the JSONL download equals `chunkwise chunk`'s output, and the TypeScript and CLI
 * snippets print it when run as shown; the QASC panel does not overflow at 360 and
 * 1440 px; late chunking is offered disabled with the library's reason; a bad option
 * shows its typed error. Without /usr/bin/chromium: fails when CI=true, skips locally.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBin, corporaDir, gloveDir, questionsCsv, repoRoot, textsDir } from './helpers/paths.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from './runtimes/support.js';

const run = chromiumAvailable();
const DOC = 'en-sliding-window.txt';
const GLOVE = gloveDir();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** What the page holds per column (window.chunkwisePage). */
interface PageColumn {
  strategy: string;
  options: Record<string, unknown>;
  error: string | null;
  chunks: Any[];
  level: string;
  shown: number;
}

const plain = (x: unknown) => JSON.parse(JSON.stringify(x));

describe('web page helpers (Node)', () => {
  it('a strategy the registry describes with its schema gets the schema\'s fields', async () => {
    const { describeStrategy } = await import(join(repoRoot, 'web', 'options.js'));
    const { RECURSIVE_SCHEMA } = await import(join(repoRoot, 'dist', 'src', 'strategies', 'recursive', 'recursive.js'));
    const d = describeStrategy({ name: 'recursive', description: 'd', schema: RECURSIVE_SCHEMA });
    expect(d.options.map((f: Any) => f.name)).toEqual(['unit', 'encoding', 'chunkSize', 'chunkOverlap', 'separators', 'keepSeparator', 'countTokens']); // tokenizer: API only
    const byName = Object.fromEntries(d.options.map((f: Any) => [f.name, f]));
    expect(byName.chunkSize).toEqual({ name: 'chunkSize', type: 'integer', default: 512, defaultDoc: undefined, min: 1, max: undefined, choices: undefined, doc: 'budget per chunk, in units', cli: '--chunk-size' });
    expect(byName.chunkOverlap).toMatchObject({ default: undefined, defaultDoc: 'min(64, ⌊chunkSize/8⌋)' }); // a computed default
    expect(byName.keepSeparator).toMatchObject({ type: 'enum', choices: [true, false, 'start', 'end'], default: true });
    expect(byName.countTokens).toMatchObject({ type: 'boolean', default: true, cli: { off: '--no-token-count' } });
    expect(byName.unit.cli).toBe('--unit');
    expect(d.page).toEqual({ chunkSize: 256, chunkOverlap: 32 });
    // every registered strategy is described by its schema (the page has no table of its own)
    const { strategies } = await import(join(repoRoot, 'dist', 'src', 'strategies', 'index.js'));
    for (const def of strategies()) expect(describeStrategy(def).described, def.name).toBe(true);
    const late = describeStrategy(strategies().find((s: Any) => s.name === 'late'));
    expect([late.embedder, late.options.map((f: Any) => f.name)]).toEqual(['optional', ['spans', 'macroOverlap']]);
    // a schema with an embedder option: the page passes its embedder
    expect(describeStrategy({ name: 'cluster', description: 'd', options: { embedder: { type: 'object', doc: 'e' } } }).embedder).toBe('optional');
    // a strategy registered later without a description: the generic unit and chunkSize fields
    expect(describeStrategy({ name: 'code', description: 'd' }).options.map((f: Any) => f.name)).toEqual(['unit', 'encoding', 'chunkSize']);
  });

  it('bands cut at every boundary of every column; pasted excerpts are found by exact match', async () => {
    const { alignBands, parsePastedQuestions, histogram } = await import(join(repoRoot, 'web', 'compare.js'));
    const bands = alignBands(10, [[{ start: 0, end: 6 }, { start: 4, end: 10 }], [{ start: 0, end: 3 }, { start: 3, end: 8 }]]);
    expect(bands.map((b: Any) => [b.from, b.to, b.cells.map((c: Any) => c.cover)])).toEqual([
      [0, 3, [[0], [0]]],
      [3, 4, [[0], [1]]],
      [4, 6, [[0, 1], [1]]],
      [6, 8, [[1], [1]]],
      [8, 10, [[1], []]],
    ]);
    const { questions, problems } = parsePastedQuestions('Q1\tbeta\nno tab here\nQ2\tgam\\nma\tzeta\n# comment\nQ3\tbeta', 'alpha beta gam\nma beta');
    expect(questions).toEqual([
      { question: 'Q1', corpusId: 'doc', references: [{ content: 'beta', start: 6, end: 10 }] },
      { question: 'Q3', corpusId: 'doc', references: [{ content: 'beta', start: 6, end: 10 }] },
    ]);
    expect(problems.map((p: Any) => p.line)).toEqual([1, 2, 3, 5]); // twice, no tab, zeta missing, twice
    expect(histogram([0, 19, 20, 256], 256)).toEqual({ edges: Array.from({ length: 14 }, (_, i) => i * 20), counts: [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] });
  });
});

describe.skipIf(!run)('web page', () => {
  let server: Server;
  let origin: string;
  let browser: Any;
  let api: Any;
  let evaluation: Any;
  let work: string;

  beforeAll(async () => {
    const { createWebServer } = await import(join(repoRoot, 'web', 'serve.mjs'));
    server = createWebServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    api = await import(join(repoRoot, 'dist', 'src', 'index.js'));
    evaluation = await import(join(repoRoot, 'dist', 'src', 'evaluation', 'index.js'));
    // a user's folder: the document, and chunkwise installed (linked) with its bin
    work = mkdtempSync(join(tmpdir(), 'chunkwise-web-'));
    mkdirSync(join(work, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(repoRoot, join(work, 'node_modules', 'chunkwise'));
    // what npm's bin link does (tsc's bin.js has no execute bit in a checkout)
    writeFileSync(join(work, 'node_modules', '.bin', 'chunkwise'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(cliBin)} "$@"\n`, { mode: 0o755 });
    copyFileSync(join(textsDir, DOC), join(work, DOC));
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function open(query: string, viewport = { width: 1280, height: 1000 }) {
    const page = await browser.newPage({ viewport, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`${origin}/${query}`);
    await settle(page);
    expect(errors).toEqual([]);
    return page;
  }
  const settle = (page: Any) => page.waitForFunction(() => document.body.dataset.state === 'ready', undefined, { timeout: 60_000 });
  const columns = (page: Any): Promise<PageColumn[]> =>
    page.evaluate(() =>
      (window as Any).chunkwisePage.columns.map((c: Any) => ({
        strategy: c.strategy,
        options: c.settings?.options,
        error: c.error ? `${c.error.name}: ${c.error.message}` : null,
        chunks: c.chunks,
        level: c.level,
        shown: c.shown.length,
      })),
    );
  /** The column's JSONL download, as a string. */
  async function downloaded(page: Any, k: number): Promise<string> {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`.column:nth-child(${k + 1}) .download`)]);
    return readFileSync(await download.path(), 'utf8');
  }
  const docText = () => readFileSync(join(textsDir, DOC), 'utf8');

  describe('two strategies side by side', () => {
    let page: Any;
    beforeAll(async () => {
      page = await open(`?doc=/texts/${DOC}&s=sliding:128:32&s=recursive:256:32`);
    });
    afterAll(() => page?.close());

    it('give the chunks the library gives in Node for the same options', async () => {
      const text = docText();
      const cols = await columns(page);
      expect(cols.map((c) => [c.strategy, c.options])).toEqual([
        ['sliding', { unit: 'token', windowSize: 128, stride: 96 }],
        ['recursive', { unit: 'token', chunkSize: 256, chunkOverlap: 32 }],
      ]);
      for (const c of cols) {
        const expected = api.createChunker(c.strategy, c.options).chunk(text);
        expect(expected.length).toBeGreaterThan(5);
        expect(c.chunks).toEqual(plain(expected));
      }
      expect(await page.evaluate(() => document.body.dataset.chunks)).toBe(cols.map((c) => String(c.chunks.length)).join(','));
    });

    it('align: every column is the whole text, cut at every boundary of both, rows at one height; labels, overlap, no lost text', async () => {
      const text = docText();
      const cols = await columns(page);
      const dom = await page.evaluate(() => {
        const bands = Array.from(document.querySelectorAll('#view .band:not(.head)')) as HTMLElement[];
        return {
          edges: bands.map((b) => Number(b.dataset.from)),
          texts: [0, 1].map((k) => bands.map((b) => b.children[k].querySelector('.t')!.textContent).join('')),
          labels: [0, 1].map((k) => Array.from(document.querySelectorAll(`#view .lab[data-k="${k}"]`)).map((l) => Number((l as HTMLElement).dataset.i))),
          firstLabel: document.querySelector('#view .lab[data-k="0"]')!.textContent,
          overlaps: [0, 1].map((k) => bands.filter((b) => b.children[k].classList.contains('o')).length),
          lost: document.querySelectorAll('#view .cell.u').length,
          lostStats: Array.from(document.querySelectorAll('.stats')).map((s) => (s as HTMLElement).dataset.lost),
          tops: bands.slice(0, 40).map((b) => Array.from(b.children).map((c) => Math.round(c.getBoundingClientRect().top))),
        };
      });
      expect(dom.texts).toEqual([text, text]); // nothing dropped or added in either column
      const edges = new Set(dom.edges);
      for (const c of cols) for (const ch of c.chunks) expect(edges.has(ch.start) && (ch.end === text.length || edges.has(ch.end))).toBe(true);
      expect(dom.edges.length).toBeLessThanOrEqual(cols[0].chunks.length * 2 + cols[1].chunks.length * 2);
      expect(dom.labels).toEqual(cols.map((c) => c.chunks.map((_, i) => i)));
      const first = cols[0].chunks[0];
      expect(dom.firstLabel).toBe(`#0 · ${first.metadata.unitCount} tok`);
      expect(dom.overlaps[0]).toBeGreaterThanOrEqual(cols[0].chunks.length - 1); // stride < windowSize: every seam overlaps
      expect(dom.lost).toBe(0);
      expect(dom.lostStats).toEqual(['0', '0']);
      for (const row of dom.tops) expect(new Set(row).size).toBe(1);
    });

    it('histograms count the chunk sizes Node gives', async () => {
      const text = docText();
      const cols = await columns(page);
      const hists: { edges: number[]; counts: number[] }[] = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.hist svg')).map((s) => ({ edges: (s as HTMLElement).dataset.edges!.split(',').map(Number), counts: (s as HTMLElement).dataset.counts!.split(',').map(Number) })),
      );
      expect(hists).toHaveLength(2);
      cols.forEach((c, k) => {
        const sizes: number[] = api.createChunker(c.strategy, c.options).chunk(text).map((ch: Any) => ch.metadata.unitCount);
        const { edges, counts } = hists[k];
        expect(edges[edges.length - 1]).toBeGreaterThan(Math.max(...sizes));
        expect(counts).toEqual(counts.map((_, i) => sizes.filter((s) => s >= edges[i] && s < edges[i + 1]).length));
        expect(counts.reduce((a, b) => a + b, 0)).toBe(sizes.length);
      });
      expect(hists[0].counts.filter((n: number) => n > 0).length).toBeGreaterThan(1);
    });

    it('the JSONL download equals `chunkwise chunk` for the same settings', async () => {
      const cli = (args: string[]) => spawnSync(process.execPath, [cliBin, 'chunk', DOC, ...args], { cwd: textsDir, encoding: 'utf8' });
      const sliding = cli(['--strategy', 'sliding', '--unit', 'token', '--window-size', '128', '--stride', '96']);
      const recursive = cli(['--strategy', 'recursive', '--unit', 'token', '--chunk-size', '256', '--chunk-overlap', '32']);
      expect(sliding.status).toBe(0);
      expect(recursive.status).toBe(0);
      expect(sliding.stdout.split('\n').length).toBeGreaterThan(6);
      expect(await downloaded(page, 0)).toBe(sliding.stdout);
      expect(await downloaded(page, 1)).toBe(recursive.stdout);
    });

    it('a selected chunk is outlined in every column over its text', async () => {
      const cols = await columns(page);
      await page.click('#view .lab[data-k="1"][data-i="2"]');
      const c = cols[1].chunks[2];
      const sel = await page.evaluate(() => Array.from(document.querySelectorAll('#view .band.sel')).map((b) => [Number((b as HTMLElement).dataset.from), Number((b as HTMLElement).dataset.to)]));
      expect(sel[0][0]).toBe(c.start);
      expect(sel[sel.length - 1][1]).toBe(c.end);
      expect(await page.textContent('#selection')).toContain(`B #2 [${c.start}, ${c.end})`);
      // by keyboard: one tab stop per column, arrows between chunks and columns, Enter selects
      expect(await page.$$eval('#view .lab[tabindex="0"]', (ls: Any[]) => ls.map((l) => `${l.dataset.k}:${l.dataset.i}`))).toEqual(['0:0', '1:0']);
      await page.focus('#view .lab[data-k="0"][data-i="0"]');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      const focused = await page.evaluate(() => `${(document.activeElement as HTMLElement).dataset.k}:${(document.activeElement as HTMLElement).dataset.i}`);
      const a2 = cols[0].chunks[2].start;
      const expectedB = cols[1].chunks.reduce((best: number, ch: Any, j: number) => (ch.start <= a2 ? j : best), 0);
      expect(focused).toBe(`1:${expectedB}`);
      await page.keyboard.press('Enter');
      expect(await page.textContent('#selection')).toContain(`B #${expectedB} [${cols[1].chunks[expectedB].start}, `);
    });

    it('a bad option shows the typed error with its value', async () => {
      await page.fill('.column:nth-child(1) [data-option="stride"]', '200');
      await page.dispatchEvent('.column:nth-child(1) [data-option="stride"]', 'change');
      await settle(page);
      expect(await page.evaluate(() => document.body.dataset.chunks)).toMatch(/^error,\d+$/);
      expect(await page.textContent('.column:nth-child(1) .err')).toMatch(/InvalidOptionError: .*stride: 200/);
    });
  });

  it('lost text (stride past the window) is highlighted and counted as Node counts it', async () => {
    const page = await open(`?doc=/texts/${DOC}&s=sliding:unit=word:windowSize=20:stride=30:allowGaps=true&s=fixed:unit=word:chunkSize=20:chunkOverlap=0`);
    const text = docText();
    const cols = await columns(page);
    expect(cols[0].options).toEqual({ unit: 'word', windowSize: 20, stride: 30, allowGaps: true });
    const chunks = api.createChunker('sliding', cols[0].options).chunk(text);
    const covered = new Uint8Array(text.length);
    for (const c of chunks) covered.fill(1, c.start, c.end);
    let lost = '';
    for (const ch of Array.from(text.matchAll(/\S/gu))) if (!covered[ch.index!]) lost += ch[0];
    expect(lost.length).toBeGreaterThan(100);
    const dom = await page.evaluate(() => ({
      stats: Array.from(document.querySelectorAll('.stats')).map((s) => (s as HTMLElement).dataset.lost),
      lostText: Array.from(document.querySelectorAll('#view .band:not(.head)')).map((b) => (b.children[0].classList.contains('u') ? b.children[0].querySelector('.t')!.textContent : '')).join(''),
      lostInB: document.querySelectorAll('#view .band:not(.head) .cell:nth-child(2).u').length,
    }));
    expect(dom.stats).toEqual([String([...lost].length), '0']);
    expect(dom.lostText.replace(/\s+/g, '')).toBe(lost);
    expect(dom.lostInB).toBe(0);
    await page.close();
  });

  it('an HTML file opened in the page: html chunks as in Node; markup, scripts and dropped landmarks are not lost text', async () => {
    const file = join(repoRoot, 'test', 'golden', 'html', 'docs-page.html');
    const html = readFileSync(file, 'utf8');
    const page = await open('?s=html:unit=word:chunkSize=80&s=recursive:unit=word:chunkSize=80:chunkOverlap=0');
    expect(await page.getAttribute('#file', 'accept')).toContain('.html');
    await page.setInputFiles('#file', file);
    await page.waitForFunction((n: number) => (document.querySelector('#text') as HTMLTextAreaElement).value.length === n, html.length);
    await settle(page);
    const [h, r] = await columns(page);
    expect(h.error).toBeNull();
    expect(h.chunks).toEqual(plain(api.createChunker('html', h.options).chunk(html)));
    expect(h.chunks.some((c: Any) => c.metadata.headingPath.length === 2)).toBe(true);
    // lost text counts the visible text of the kept content only (the chunker's visibleSpans)
    const lost = await page.$$eval('.stats', (ss: Any[]) => ss.map((s) => s.dataset.lost));
    expect(lost).toEqual(['0', '0']);
    expect(r.chunks.length).toBeGreaterThan(0);
    await page.close();
  });

  it('a tune.json of chunkwise tune opens: the front as a table, the columns set to the recommended and front configurations', async () => {
    const out = join(work, 'tune-out');
    // the speech's questions only (tune, like eval, refuses questions of corpora it is not given)
    const all = evaluation.parseQuestionsCsv(readFileSync(questionsCsv, 'utf8'));
    writeFileSync(join(work, 'speech.csv'), evaluation.questionsCsv(all.filter((q: Any) => q.corpusId === 'state_of_the_union')));
    const ok = spawnSync(process.execPath, [cliBin, 'tune', join(corporaDir, 'state_of_the_union.md'), '--questions', join(work, 'speech.csv'), '--strategies', 'fixed,recursive,qasc', '--sizes', '100,200', '--overlaps', '0', '--qasc-windows', 'adaptive', '--out', out], { encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'tune.json'), 'utf8'));
    const page = await open('');
    await page.setInputFiles('#tune-file', join(out, 'tune.json'));
    await page.waitForSelector('#tune-results table.tune');
    await settle(page);
    const specs = await page.$$eval('#tune-results tr[data-spec]', (trs: Any[]) => trs.map((tr) => tr.dataset.spec));
    expect(specs).toEqual(json.front.map((p: Any) => p.spec));
    expect(await page.textContent('#tune-results')).toContain(`Recommended: ${json.recommendation.spec}`);
    const wanted = [...new Set([json.recommendation.spec, ...json.front.map((p: Any) => p.spec).reverse()])].filter((s: string) => !s.startsWith('qasc:')).slice(0, 3);
    const cols = await columns(page);
    expect(cols.map((c) => c.strategy)).toEqual(wanted.map((s: string) => s.split(':')[0]));
    for (const [i, c] of cols.entries()) expect(c.chunks).toEqual(plain(await evaluation.chunkerFromSpec(wanted[i]).chunk(await page.$eval('#text', (t: Any) => t.value))));
    await page.close();
  });

  it('the evaluation on a 500 KB document with pasted questions equals evaluateSpans in Node', async () => {
    const text = readFileSync(join(corporaDir, 'pubmed.md'), 'utf8');
    expect(text.length).toBeGreaterThan(490_000);
    const all = evaluation.parseQuestionsCsv(readFileSync(questionsCsv, 'utf8'));
    // questions whose excerpts can be pasted on one line and are found where the CSV says
    const usable = all.filter(
      (q: Any) => q.corpusId === 'pubmed' && q.references.every((r: Any) => !/[\t\\]/.test(r.content) && text.indexOf(r.content) === r.start),
    );
    expect(usable.length).toBeGreaterThan(40);
    const pasted = usable.map((q: Any) => [q.question, ...q.references.map((r: Any) => r.content.replace(/\r/g, '\\r').replace(/\n/g, '\\n'))].join('\t')).join('\n');
    const page = await open('?doc=/eval/corpora/pubmed.md&s=fixed:256:32&s=recursive:256:32');
    await page.fill('#questions', pasted + '\nnot a question line\nWhere?\tan excerpt that is not in the document');
    await page.click('#evaluate');
    await page.waitForFunction(() => document.body.dataset.evaluation === 'ready', undefined, { timeout: 60_000 });
    const got = await page.evaluate(() => {
      const e = (window as Any).chunkwisePage.evaluation;
      return { k: e.k, questions: e.questions, results: e.results.map((r: Any) => ({ name: r.name, chunks: r.chunks, overall: r.overall, perQuestion: r.perQuestion })) };
    });
    const questions = usable.map((q: Any) => ({ ...q, corpusId: 'doc' }));
    expect(got.k).toBe(5);
    expect(got.questions).toEqual(plain(questions));
    expect(await page.$$eval('#eval-problems li', (lis: Any[]) => lis.map((li) => li.textContent))).toEqual([
      `line ${usable.length + 1}: needs a question, a tab, then the excerpt`,
      `line ${usable.length + 2}: excerpt not found in the document: "an excerpt that is not in the document"`,
    ]);
    const cols = await columns(page);
    const embedder = new api.HashingEmbedder();
    for (const [k, c] of cols.entries()) {
      const spans = await evaluation.chunkCorpora(api.createChunker(c.strategy, c.options), [{ id: 'doc', text }]);
      const expected = await evaluation.evaluateSpans(spans, questions, embedder, { name: c.strategy, k: 5 });
      expect(got.results[k].chunks).toBe(expected.chunks);
      expect(got.results[k].overall).toEqual(expected.overall);
      expect(got.results[k].perQuestion).toEqual(expected.perQuestion);
      expect(expected.overall.recall.mean).toBeGreaterThan(0.2);
    }
    expect(got.results[0].overall.iou.mean).not.toBe(got.results[1].overall.iou.mean);
    const shown = await page.$$eval('#eval-results table.results td[data-metric="recall"]', (tds: Any[]) => tds.map((td) => Number(td.dataset.value)));
    expect(shown).toEqual(got.results.map((r: Any) => r.overall.recall.mean));
    await page.close();
  });

  it('the TypeScript and CLI snippets, run as shown, print what the page downloads', async () => {
    const page = await open(`?doc=/texts/${DOC}&s=parent-child:parentSize=400:childSize=100&s=semantic:maxChunkSize=200&s=recursive:256:32`);
    await page.fill('.column:nth-child(3) [data-option="separators"]', '["\\n\\n", "it\'s", {"kind": "sentence"}, " ", ""]');
    await page.dispatchEvent('.column:nth-child(3) [data-option="separators"]', 'change');
    await settle(page);
    const cols = await columns(page);
    expect(cols.map((c) => c.error)).toEqual([null, null, null]);
    expect(cols[0].level).toBe('child'); // the view shows children; the export has every chunk
    const snippets: { ts: string; cli: string }[] = await page.$$eval('.column', (els: Any[]) => els.map((el) => ({ ts: el.querySelector('code.ts').textContent, cli: el.querySelector('code.cli').textContent })));
    expect(snippets[1].ts).toContain('embedder: new HashingEmbedder()');
    expect(snippets[1].cli).toContain('--embedder hashing');
    expect(snippets[2].cli).toContain(`--separators '["\\n\\n","it'\\''s",{"kind":"sentence"}," ",""]'`);
    const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');
    for (const [k, c] of cols.entries()) {
      const expected = await downloaded(page, k);
      expect(expected.split('\n').length).toBeGreaterThan(4);
      writeFileSync(join(work, 'chunk.mts'), snippets[k].ts);
      const ts = spawnSync(tsx, ['chunk.mts'], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(ts.stderr).toBe('');
      expect(ts.stdout).toBe(expected);
      const out = join(work, `${c.strategy}.jsonl`);
      rmSync(out, { force: true });
      const sh = spawnSync('sh', ['-c', snippets[k].cli], {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${join(work, 'node_modules', '.bin')}:${process.env.PATH}`, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
      });
      expect(sh.status, sh.stderr).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(expected);
    }
    await page.close();
  });

  it('the GloVe static model served by the page gives the semantic chunks StaticEmbedder gives in Node', async () => {
    const page = await open(`?doc=/texts/${DOC}&s=semantic:maxChunkSize=200&embedder=static:glove-6b-100d`);
    const [c] = await columns(page);
    const embedder = await api.StaticEmbedder.load(GLOVE);
    const expected = await api.createChunker('semantic', { ...c.options, embedder }).chunk(docText());
    const hashing = await api.createChunker('semantic', { ...c.options, embedder: new api.HashingEmbedder() }).chunk(docText());
    expect(c.chunks).toEqual(plain(expected));
    expect(c.chunks).not.toEqual(plain(hashing));
    expect(await page.textContent('.column code.ts')).toContain(`embedder: await StaticEmbedder.load('${realpathSync(GLOVE)}')`);
    expect(await page.textContent('.column code.cli')).toContain(`--embedder static:${realpathSync(GLOVE)}`);
    await page.close();
  });

  it('controls come from the registry: every strategy offered, late disabled with the library\'s reason', async () => {
    const page = await open(`?doc=/texts/${DOC}`);
    const offered = await page.$$eval('.column:nth-child(1) .strategy option', (os: Any[]) => os.map((o) => ({ value: o.value, disabled: o.disabled, text: o.textContent })));
    expect(offered.map((o: Any) => o.value)).toEqual(api.strategyNames());
    let reason = '';
    try {
      api.createChunker('late', { embedder: new api.HashingEmbedder() });
    } catch (error) {
      reason = (error as Error).message.replace(/^Invalid option embedder: [^(]*\(/, '').replace(/\)$/, '');
    }
    expect(reason).toMatch(/token-level model/);
    expect(offered.filter((o: Any) => o.disabled)).toEqual([{ value: 'late', disabled: true, text: `late (unavailable: ${reason})` }]);
    expect(await page.textContent('#unavailable')).toContain(`late (${reason})`);
    // fields of the default columns, named as the API names them, each with a label
    const fields = await page.$$eval('.column:nth-child(1) [data-option]', (is: Any[]) => is.map((i) => [i.dataset.option, Boolean(i.closest('label'))]));
    expect(fields).toEqual([['unit', true], ['encoding', true], ['chunkSize', true], ['chunkOverlap', true], ['countTokens', true]]); // the fixed strategy's schema (tokenizer: API only)
    await page.close();
  });

  it('the code strategy works in the page: grammars loaded in the browser, the chunks Node gives', async () => {
    // web-tree-sitter's own tree-sitter.js (served at /wts/) as the document
    const page = await open('?s=code:200:0:language=javascript&doc=/wts/tree-sitter.js');
    const [c] = await columns(page);
    expect(c.error).toBeNull();
    expect(c.options).toMatchObject({ language: 'javascript', chunkSize: 200 });
    const text = readFileSync(join(repoRoot, 'node_modules', 'web-tree-sitter', 'tree-sitter.js'), 'utf8');
    const expected = await api.createChunker('code', c.options).chunk(text);
    expect(expected.length).toBeGreaterThan(100);
    expect(c.chunks).toEqual(plain(expected));
    expect(c.chunks.some((k: Any) => k.metadata.symbolPath.length > 0)).toBe(true);
    await page.close();
  });

  for (const width of [360, 1440]) {
    it(`the QASC panel shows scored chunks without horizontal overflow at ${width} px`, async () => {
      const q = encodeURIComponent('How does the stride relate to the overlap between windows?');
      const page = await open(`?doc=/texts/${DOC}&s=sliding:128:32&s=recursive:256:32&q=${q}`, { width, height: 900 });
      await page.waitForFunction(() => document.querySelectorAll('#qasc li').length > 0, undefined, { timeout: 30_000 });
      expect(await page.textContent('#qasc .note')).toMatch(/τ = -?\d\.\d{3} \(75th percentile of sim\) · keep S ≥ κ·τ = -?\d\.\d{3} · \d+ chunks/);
      expect(await page.textContent('#qasc li .qmeta')).toMatch(/^S -?\d\.\d{3}sentences \[\d+, \d+\)seeds #\d+/);
      const overflow = await page.evaluate(() => {
        const panel = document.querySelector('#qasc-panel') as HTMLElement;
        const right = panel.getBoundingClientRect().right;
        return {
          panel: panel.scrollWidth - panel.clientWidth,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          sticking: Array.from(panel.querySelectorAll('*')).filter((e) => e.getBoundingClientRect().right > right + 0.5).map((e) => e.outerHTML.slice(0, 80)),
        };
      });
      expect(overflow).toEqual({ panel: 0, page: 0, sticking: [] });
      await page.close();
    });
  }

  it('pdf.html renders a PDF\'s pages and draws each chunk\'s boxes, the chunks chunkwise/pdf gives in Node, at the page\'s scale', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`${origin}/pdf.html?pdf=/documents/report.pdf`);
    await page.waitForFunction(() => /chunks on/.test(document.getElementById('status')!.textContent!), undefined, { timeout: 60_000 });
    expect(errors).toEqual([]);
    const pdf = await import(join(repoRoot, 'dist', 'src', 'pdf.js'));
    const doc = await pdf.extractPdf(new Uint8Array(readFileSync(join(repoRoot, 'test', 'fixtures', 'documents', 'report.pdf'))));
    const expected = await new pdf.PdfChunker(new api.RecursiveChunker({ chunkSize: 200, chunkOverlap: 0 })).chunk(doc);
    expect(await page.evaluate(() => (window as Any).chunks)).toEqual(plain(expected));
    const drawn = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.box')).map((b) => {
        const r = b.getBoundingClientRect();
        const p = b.parentElement!.querySelector('canvas')!.getBoundingClientRect();
        return { chunk: Number((b as HTMLElement).dataset.chunk), page: Number(b.parentElement!.dataset.page), x: r.left - p.left, y: r.top - p.top, w: r.width, canvas: p.width };
      }),
    );
    const boxes = expected.flatMap((c: Any) => c.metadata.boxes.map((b: Any) => ({ chunk: c.index, page: b.page, x: b.x0, y: b.y0, w: b.x1 - b.x0 })));
    expect(drawn).toHaveLength(boxes.length);
    const scale = drawn[0].canvas / doc.pages[0].width;
    expect(scale).toBeCloseTo(1.25, 2);
    for (const b of boxes) {
      expect(drawn.some((d: Any) => d.chunk === b.chunk && d.page === b.page && Math.abs(d.x - b.x * scale) < 1 && Math.abs(d.y - b.y * scale) < 1 && Math.abs(d.w - b.w * scale) < 1)).toBe(true);
    }
    // the page was rendered: the canvas holds dark pixels (text)
    const ink = await page.evaluate(() => {
      const c = document.querySelector('.page canvas') as HTMLCanvasElement;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && d[i] < 100) n++;
      return n;
    });
    expect(ink).toBeGreaterThan(1000);
    await page.close();
  });

  for (const width of [420, 1400]) {
    it(`at ${width} px no control cuts its text or placeholder, and the chunk view is in a monospace font`, async () => {
      const page = await open(`?doc=/texts/${DOC}&s=sliding:128:32&s=recursive:256:32`, { width, height: 900 });
      const cut = await page.evaluate(() => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        const out: string[] = [];
        for (const el of Array.from(document.querySelectorAll('select, input[type=text], input:not([type])')) as Array<HTMLSelectElement | HTMLInputElement>) {
          if (!el.offsetParent) continue; // hidden
          const cs = getComputedStyle(el);
          ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
          const text = el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.text ?? '') : el.value || el.placeholder;
          // a select draws its arrow in the right padding area: about 1.5em
          const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - (el instanceof HTMLSelectElement ? 1.5 * parseFloat(cs.fontSize) : 0);
          if (!el.value && el instanceof HTMLInputElement && !el.placeholder) continue;
          if (el instanceof HTMLInputElement && el.value) continue; // a typed value scrolls, as in any input
          if (ctx.measureText(text).width > room + 0.5) out.push(`#${el.id || el.className}: ${JSON.stringify(text)}`);
        }
        return out;
      });
      expect(cut).toEqual([]);
      const font = await page.evaluate(() => getComputedStyle(document.querySelector('#view .cell:not(.head *)') ?? document.getElementById('view')!).fontFamily);
      expect(font).toMatch(/monospace$/);
      expect(font).not.toMatch(/Georgia|serif/);
      await page.close();
    });
  }

  it('screenshot shows the rendered page (a non-trivial PNG)', async () => {
    const page = await open(`?doc=/texts/${DOC}&s=sliding:128:32&s=recursive:256:32`);
    const png: Buffer = await page.screenshot({ fullPage: false });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1280); // IHDR width
    expect(png.readUInt32BE(20)).toBe(1000); // IHDR height
    await page.setContent('<body style="background:#f8fafc"></body>');
    const blank: Buffer = await page.screenshot();
    // text, colours and the histograms compress far worse than an empty page
    expect(png.length).toBeGreaterThan(20 * blank.length);
    expect(png.length).toBeGreaterThan(100_000);
    await page.close();
  });
});
