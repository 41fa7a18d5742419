// Times the web page on a 500 KB document in Chromium: pubmed (502 KB) with three columns
// (fixed 256/32, recursive 256/32, semantic maxChunkSize 256) and pubmed's questions from
// eval/questions.csv; prints, per run, the time from loading to the evaluated
// page, each column's chunking time, the view's rows and elements, the time to apply one
// changed option (rechunk, render, rescore that column) and to scroll the view through
// 20 frames. Figures in docs/web.md. Needs `npm run build` and /usr/bin/chromium.
// Run: node scripts/web-timing.mjs [runs]
import { chromium } from 'playwright-core';
import { createWebServer } from '../web/serve.mjs';

const runs = Number(process.argv[2] ?? 3);
const server = createWebServer();
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const settled = () => document.body.dataset.state === 'ready' && document.body.dataset.evaluation === 'ready';
try {
  for (let run = 0; run < runs; run++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const t0 = Date.now();
    await page.goto(`${origin}/?doc=/eval/corpora/pubmed.md&s=fixed:256:32&s=recursive:256:32&s=semantic:maxChunkSize=256&questions=/eval/questions.csv`);
    await page.waitForFunction(settled, undefined, { timeout: 120_000 });
    const loaded = Date.now() - t0;
    const info = await page.evaluate(() => ({
      status: document.getElementById('status').textContent,
      columns: window.chunkwisePage.columns.map((c) => `${c.strategy}: ${c.chunks.length} chunks in ${c.ms.toFixed(0)} ms`),
      evaluationMs: window.chunkwisePage.evaluation.results.map((r) => Math.round(r.ms)),
      rows: window.chunkwisePage.bands.length,
      elements: document.querySelectorAll('#view *').length,
    }));
    const t1 = Date.now();
    await page.fill('.column:nth-child(1) [data-option="chunkSize"]', '200');
    await page.dispatchEvent('.column:nth-child(1) [data-option="chunkSize"]', 'change');
    await page.waitForFunction(settled, undefined, { timeout: 120_000 });
    const changed = Date.now() - t1;
    const t2 = Date.now();
    await page.evaluate(async () => {
      const view = document.getElementById('view');
      for (let i = 0; i < 20; i++) {
        view.scrollTop = (view.scrollHeight * i) / 20;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
    });
    const scrolled = Date.now() - t2;
    console.log(JSON.stringify({ loadedAndEvaluatedMs: loaded, ...info, oneOptionChangedMs: changed, scroll20FramesMs: scrolled }));
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
