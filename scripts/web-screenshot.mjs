// Takes the screenshots of the web page committed in docs/: texts/en-sliding-window.txt
// (English, sliding-window chunking) with three strategies side by side (sliding 128/96 tokens,
// recursive 256/32, semantic up to 200 tokens), the example questions of
// web/examples/en-sliding-window.tsv evaluated, a QASC query and one chunk selected;
//   docs/web-screenshot.png         1400 px wide, the whole page
//   docs/web-screenshot-narrow.png  420 px wide (a phone), two strategies, the whole page
// Needs `npm run build` and /usr/bin/chromium. Run: node scripts/web-screenshot.mjs [outdir]
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createWebServer } from '../web/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = process.argv[2] ?? join(root, 'docs');
const server = createWebServer();
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const query = encodeURIComponent('How does the stride relate to the overlap between windows?');
const doc = '/texts/en-sliding-window.txt';

async function shoot(file, width, height, strategies) {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  const s = strategies.map((x) => `&s=${encodeURIComponent(x)}`).join('');
  await page.goto(`${origin}/?doc=${doc}${s}&questions=/examples/en-sliding-window.tsv&q=${query}`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.evaluation === 'ready', undefined, { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelectorAll('#qasc li').length > 0, undefined, { timeout: 30_000 });
  // a full-page screenshot draws the view's rows off screen too
  await page.addStyleTag({ content: '#view .band { content-visibility: visible !important; }' });
  await page.click('.column:nth-child(1) .export summary');
  await page.click('#view .lab[data-k="1"][data-i="1"]');
  await page.evaluate(() => {
    const view = document.getElementById('view');
    const row = view.querySelector('.band.sel');
    view.scrollTop += row.getBoundingClientRect().top - view.getBoundingClientRect().top - 40;
  });
  await page.waitForTimeout(400);
  const path = join(outDir, file);
  await page.screenshot({ path, fullPage: true });
  console.log(`wrote ${path} (${await page.evaluate(() => document.body.dataset.chunks)} chunks)`);
  await page.close();
}

try {
  await shoot('web-screenshot.png', 1400, 1000, ['sliding:128:32', 'recursive:256:32', 'semantic:maxChunkSize=200']);
  await shoot('web-screenshot-narrow.png', 420, 800, ['sliding:128:32', 'recursive:256:32']);
} finally {
  await browser.close();
  server.close();
}
