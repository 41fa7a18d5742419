/**
 * The web page (web/, `npm run web`) in Debian's Chromium: a seed article chunked with
 * the sliding window; the DOM must hold one card and one start mark per chunk (as many
 * as Node gives for the same options), overlap regions, the distance chart's
 * breakpoints, QASC seeds for a query and a typed error for a bad option; the
 * screenshot must be a real, non-trivial PNG. Without /usr/bin/chromium: fails when
 * CI=true, skips locally.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, seedsDir } from './helpers/paths.js';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable } from './runtimes/support.js';

const run = chromiumAvailable();
const SEED = '003_22955fd41de422b7.txt';

describe.skipIf(!run)('web page', () => {
  let server: Server;
  let origin: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let page: any;

  beforeAll(async () => {
    const { createWebServer } = await import(join(repoRoot, 'web', 'serve.mjs'));
    server = createWebServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${origin}/?doc=/shared/seeds/${SEED}`);
    await page.waitForFunction(() => document.body.dataset.chunks, undefined, { timeout: 50_000 });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('renders one card and one start mark per chunk, as many chunks as Node gives', async () => {
    const api = await import(join(repoRoot, 'dist', 'src', 'index.js'));
    const text = readFileSync(join(seedsDir, SEED), 'utf8');
    const expected = api.createChunker('sliding', { unit: 'token', encoding: 'cl100k_base', windowSize: 128, stride: 96 }).chunk(text);
    const dom = await page.evaluate(() => ({
      chunks: document.body.dataset.chunks,
      cards: document.querySelectorAll('#list .chunk').length,
      marks: document.querySelectorAll('#view .mark').length,
      overlaps: document.querySelectorAll('#view .seg.o').length,
      lost: document.querySelectorAll('#view .seg.u').length,
      viewText: Array.from(document.querySelector('#view')!.childNodes)
        .filter((n) => !(n as Element).classList?.contains('mark'))
        .map((n) => n.textContent)
        .join(''),
      firstCard: document.querySelector('#list .chunk .meta')?.textContent,
      circles: document.querySelectorAll('#chart svg circle').length,
      breakpoints: Number((document.querySelector('#chart') as HTMLElement).dataset.breakpoints),
    }));
    expect(expected.length).toBeGreaterThan(5);
    expect(dom.chunks).toBe(String(expected.length));
    expect(dom.cards).toBe(expected.length);
    expect(dom.marks).toBe(expected.length);
    expect(dom.overlaps).toBeGreaterThanOrEqual(expected.length - 1); // stride < windowSize: every seam overlaps
    expect(dom.lost).toBe(0);
    expect(dom.viewText).toBe(text); // the view is the document itself, nothing dropped or added
    expect(dom.firstCard).toContain(`[${expected[0].start}, ${expected[0].end})`);
    expect(dom.firstCard).toContain(`${expected[0].tokenCount} tokens`);
    expect(dom.breakpoints).toBeGreaterThan(0);
    expect(dom.circles).toBe(dom.breakpoints);
  });

  it('shows QASC chunks with their scores, seeds and windows for a query', async () => {
    await page.fill('#query', 'How does the stride relate to the overlap between windows?');
    await page.waitForFunction(() => document.querySelectorAll('#qasc div').length > 0, undefined, { timeout: 20_000 });
    const note = await page.textContent('#qasc .note');
    expect(note).toMatch(/QASC: τ = -?\d\.\d{3} \(75th percentile of sim\), keep S ≥ κ·τ = -?\d\.\d{3} · \d+ chunks/);
    const first = await page.textContent('#qasc div');
    expect(first).toMatch(/^1\. S -?\d\.\d{3} · sentences \[\d+, \d+\) · seeds #\d+/);
  });

  it('screenshot shows the rendered chunks (a non-trivial PNG)', async () => {
    const png: Buffer = await page.screenshot({ fullPage: false });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1280); // IHDR width
    expect(png.readUInt32BE(20)).toBe(1000); // IHDR height
    const blank: Buffer = await (async () => {
      const p = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      await p.setContent('<body style="background:#f8fafc"></body>');
      const b = await p.screenshot();
      await p.close();
      return b;
    })();
    // Text, colours and the chart compress far worse than an empty page.
    expect(png.length).toBeGreaterThan(20 * blank.length);
    expect(png.length).toBeGreaterThan(100_000);
  });

  it('a bad option shows the typed error with its value', async () => {
    await page.fill('[data-param="stride"]', '200');
    await page.dispatchEvent('[data-param="stride"]', 'change');
    await page.waitForFunction(() => document.body.dataset.chunks === 'error', undefined, { timeout: 20_000 });
    expect(await page.textContent('#stats')).toMatch(/InvalidOptionError: .*stride: 200/);
  });
});
