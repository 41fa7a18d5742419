// Takes the screenshot of the web page committed as docs/web-screenshot.png: seed article
// 003 (English, sliding-window chunking) with the sliding strategy, 128-token windows
// moved by 96 tokens, and a query. Needs `npm run build` and /usr/bin/chromium.
// Run: node scripts/web-screenshot.mjs [out.png]
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createWebServer } from '../web/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2] ?? join(root, 'docs', 'web-screenshot.png');
const server = createWebServer();
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1180 }, deviceScaleFactor: 1 });
  await page.goto(`${origin}/?doc=/shared/seeds/003_22955fd41de422b7.txt`);
  await page.waitForFunction(() => document.body.dataset.chunks, undefined, { timeout: 60_000 });
  await page.fill('#query', 'How does the stride relate to the overlap between windows?');
  await page.waitForFunction(() => document.querySelectorAll('#qasc div').length > 0, undefined, { timeout: 30_000 });
  await page.click('#list [data-chunk="2"]');
  await page.waitForTimeout(600);
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out} (${await page.evaluate(() => document.body.dataset.chunks)} chunks)`);
} finally {
  await browser.close();
  server.close();
}
