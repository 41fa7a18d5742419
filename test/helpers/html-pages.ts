/**
 * Realistic HTML pages for the HTML chunker's tests and benchmark, made here (no page
 * is downloaded): Markdown rendered by micromark with GFM (a well-kept CommonMark
 * renderer: tables, code, lists, entities) inside the template of a documentation site
 * (site header, navigation, sidebar, table of contents, footer, scripts, styles,
 * `noscript`, `template`); a page with one large salary table; and a navigation-heavy
 * page (mega menu, breadcrumbs, link-farm footer, cookie banner) around a short article.
 * Deterministic: the same page for the same arguments.
 * @module
 */
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { rng } from './random.js';

/** Markdown → HTML (CommonMark + GFM), raw HTML in the Markdown passed through as a browser would see it. */
export function renderMarkdown(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE = `
  :root { --fg: #1d1d1f; --accent: #0b57d0; }
  body { font: 16px/1.5 system-ui, sans-serif; color: var(--fg); margin: 0; }
  .layout { display: grid; grid-template-columns: 16rem 1fr 14rem; gap: 2rem; }
  pre { background: #f6f8fa; padding: 1rem; overflow: auto; }
  table { border-collapse: collapse; } td, th { border: 1px solid #ddd; padding: .25rem .5rem; }
  .site-header a[aria-current="page"] { font-weight: 600; }`;

const ANALYTICS = `
  window.dataLayer = window.dataLayer || [];
  function gtag(){ dataLayer.push(arguments); }
  gtag('js', new Date()); gtag('config', 'G-XXXXXXX', { anonymize_ip: true });
  document.documentElement.classList.add(localStorage.theme === 'dark' ? 'dark' : 'light');
  if (1 < 2 && "</div>".length) { /* a closing tag inside a script string */ }`;

/** Headings of a rendered page (`<h2 …>text</h2>`), for its table of contents. */
function headingsOf(html: string): string[] {
  return [...html.matchAll(/<h[23][^>]*>([\s\S]*?)<\/h[23]>/g)].map((m) => m[1].replace(/<[^>]+>/g, ''));
}

/**
 * A page of a documentation site: `<header>` with the site navigation, a sidebar
 * `<aside><nav>` listing `siblings`, the rendered Markdown in `<main><article>`, an
 * "On this page" `<aside>`, a `<footer>`, inline styles and scripts, a `noscript` and a
 * `template` element.
 */
export function docsSitePage(title: string, markdown: string, siblings: readonly string[] = []): string {
  const body = renderMarkdown(markdown);
  const toc = headingsOf(body)
    .map((h, i) => `<li><a href="#s${i}">${h}</a></li>`)
    .join('\n          ');
  const side = siblings.map((s) => `<li><a href="/docs/${escape(s)}.html"${s === title ? ' aria-current="page"' : ''}>${escape(s)}</a></li>`).join('\n          ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escape(title)} · chunkwise docs</title>
  <link rel="stylesheet" href="/assets/site.css">
  <style>${STYLE}
  </style>
  <script async src="/assets/gtag.js"></script>
  <script>${ANALYTICS}
  </script>
</head>
<body class="docs">
  <header class="site-header">
    <a class="logo" href="/">chunkwise</a>
    <nav aria-label="Main">
      <ul>
        <li><a href="/docs/">Docs</a></li><li><a href="/api/">API</a></li><li><a href="/blog/">Blog</a></li>
        <li><a href="https://example.com/chunkwise">Source</a></li>
      </ul>
    </nav>
    <form role="search" action="/search"><input type="search" name="q" placeholder="Search the docs&hellip;"></form>
  </header>
  <div class="layout">
    <aside class="sidebar">
      <nav aria-label="Documentation">
        <ul>
          ${side}
        </ul>
      </nav>
    </aside>
    <main id="content">
      <article class="markdown-body">
${body}
      </article>
      <nav class="page-nav" aria-label="Pages"><a href="#prev" rel="prev">&larr; Previous</a> <a href="#next" rel="next">Next &rarr;</a></nav>
    </main>
    <aside class="toc" aria-label="On this page">
      <p class="toc-title">On this page</p>
      <ul>
          ${toc}
      </ul>
    </aside>
  </div>
  <footer class="site-footer">
    <p>&copy; 2025 The chunkwise authors &middot; MIT licence &middot; <a href="/privacy">Privacy</a></p>
  </footer>
  <noscript><img src="/pixel.gif?noscript=1" alt=""> Enable JavaScript for search.</noscript>
  <template id="copy-button"><button class="copy">Copy</button></template>
  <script>document.querySelectorAll('pre').forEach((p) => p.append(document.getElementById('copy-button').content.cloneNode(true)));</script>
</body>
</html>
`;
}

const FUNCTIES = [
  'Junior Developer', 'Medior Developer', 'Senior Developer', 'Lead Developer', 'Data Engineer', 'Data Scientist',
  'Product Owner', 'Scrum Master', 'UX Designer', 'Security Officer', 'Beleidsmedewerker', 'Jurist',
  'Projectleider', 'Teamleider', 'Adviseur Inkoop', 'Financieel Controller', 'Communicatieadviseur', 'Servicedesk Medewerker',
];
const AFDELINGEN = ['ICT & Data', 'Financiën', 'Juridische Zaken', 'Communicatie', 'Bedrijfsvoering', 'Dienstverlening'];

/** `45000` → `€&nbsp;45.000` (Dutch notation, the euro sign literal or as an entity). */
function euro(n: number, entity: boolean): string {
  const digits = String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${entity ? '&euro;' : '€'}&nbsp;${digits}`;
}

/**
 * A salary scale page: a short introduction and one table of `rows` rows with a
 * `<caption>`, a `<thead>` (Functie, Schaal, Minimum salaris, Maximum salaris, Afdeling,
 * Toelichting) and a `<tbody>`; euro amounts as `€&nbsp;45.000` or `&euro;&nbsp;45.000`.
 */
export function salaryTablePage(rows = 2000, seed = 45_000): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const body: string[] = [];
  for (let i = 0; i < rows; i++) {
    const schaal = 6 + Math.floor(r() * 9);
    const min = 2500 + schaal * 180 + Math.floor(r() * 10) * 10;
    const max = Math.round((min * 12 * (1.25 + r() * 0.2)) / 100) * 100;
    const note = r() < 0.15 ? `Inclusief <abbr title="individueel keuzebudget">IKB</abbr> van 16,37&nbsp;%` : r() < 0.1 ? 'Toelage voor <em>onregelmatige</em> diensten' : '';
    body.push(
      `      <tr><td>${pick(FUNCTIES)}</td><td>${schaal}</td><td>${euro(min, r() < 0.5)}</td><td>${euro(max, r() < 0.5)}</td><td>${escape(pick(AFDELINGEN))}</td><td>${note}</td></tr>`,
    );
  }
  return `<!DOCTYPE html>
<html lang="nl">
<head><meta charset="utf-8"><title>Salarisschalen 2025</title><style>td:nth-child(n+3) { text-align: right; }</style></head>
<body>
<header><nav><a href="/">Home</a> &rsaquo; <a href="/werken-bij">Werken bij</a></nav></header>
<main>
  <h1>Salarisschalen 2025</h1>
  <p>De onderstaande tabel geeft per functie de schaal en het minimum- en maximumsalaris per maand (minimum) en per jaar (maximum), bij een volledige werkweek van 36 uur.</p>
  <table class="salaris">
    <caption>Functies en salarissen per 1 januari 2025</caption>
    <thead>
      <tr><th>Functie</th><th>Schaal</th><th>Minimum salaris</th><th>Maximum salaris</th><th>Afdeling</th><th>Toelichting</th></tr>
    </thead>
    <tbody>
${body.join('\n')}
    </tbody>
  </table>
  <h2>Toelichting</h2>
  <p>Bedragen zijn bruto en exclusief vakantiegeld (8&nbsp;%) en eindejaarsuitkering (8,3&nbsp;%).</p>
</main>
<footer><p>&copy; Gemeente Voorbeeld</p></footer>
</body>
</html>
`;
}

const WORDS = 'alpha beta gamma delta chunk window stride token sentence paragraph section heading table retrieval embedding vector index query answer'.split(' ');

/**
 * A navigation-heavy page: a mega menu of `links` links in nested lists, breadcrumbs,
 * a cookie banner, a "related" sidebar, a link-farm footer, and a short article (three
 * sections with a heading each) in the middle.
 */
export function navHeavyPage(links = 600, seed = 7): string {
  const r = rng(seed);
  const word = () => WORDS[Math.floor(r() * WORDS.length)];
  const label = () => `${word()} ${word()}`.replace(/^./, (c) => c.toUpperCase());
  const groups: string[] = [];
  for (let g = 0; g < Math.ceil(links / 20); g++) {
    const items = Array.from({ length: 20 }, (_, i) => `<li><a href="/c/${g}/${i}" class="menu-link" data-track="nav:${g}:${i}">${label()}</a></li>`).join('');
    groups.push(`<li class="menu-group"><button aria-expanded="false">${label()}</button><ul class="submenu">${items}</ul></li>`);
  }
  const footerCols = Array.from({ length: 8 }, (_, c) => `<div class="col"><h4>${label()}</h4><ul>${Array.from({ length: 25 }, (_, i) => `<li><a href="/f/${c}/${i}">${label()}</a></li>`).join('')}</ul></div>`).join('\n');
  const para = (n: number) => Array.from({ length: n }, () => word()).join(' ').replace(/^./, (c) => c.toUpperCase()) + '.';
  const sections = Array.from(
    { length: 3 },
    (_, s) => `<section id="part-${s}"><h2>Part ${s + 1}: ${label()}</h2>
      <p>${para(40)} ${para(30)}</p>
      <p>${para(25)} <a href="#x">${label()}</a> ${para(20)}</p>
      <ul><li>${para(8)}</li><li>${para(10)}</li><li>${para(6)}</li></ul>
    </section>`,
  ).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>News — ${label()}</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"${label()}"}</script>
<style>.submenu{display:none}.menu-group:hover .submenu{display:block}</style></head>
<body>
<div id="cookie-banner" role="dialog" aria-label="Cookies" hidden><p>We use cookies. <button>Accept</button></p></div>
<header class="masthead">
  <a href="/" class="brand">The Daily ${label()}</a>
  <nav class="mega-menu" aria-label="Sections"><ul>${groups.join('\n')}</ul></nav>
</header>
<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li aria-current="page">${label()}</li></ol></nav>
<div class="page">
  <main>
    <article>
    <header><h1>${label()}: ${label()}</h1><p class="byline">By <a href="/a/1">${label()}</a>, <time datetime="2025-01-31">31 January 2025</time></p></header>
    <p class="lede">${para(35)}</p>
    ${sections}
    <footer class="article-footer"><p>Filed under <a href="/t/1">${label()}</a>.</p></footer>
    </article>
  </main>
  <aside class="related"><h3>Related</h3><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/r/${i}">${label()}</a></li>`).join('')}</ul></aside>
</div>
<footer class="site-footer">
${footerCols}
<p>&copy; 2025 The Daily &middot; All rights reserved</p>
</footer>
<script src="/assets/app.js" defer></script>
<script>window.__STATE__ = {"user":null,"ads":["<div class=\\"ad\\">"]};</script>
</body>
</html>
`;
}

/**
 * Documents of `n` elements in shapes that make a naive HTML pipeline quadratic (deep
 * nesting, unclosed and stray tags, long tables, nested scopes): the HTML chunker's
 * linear-work test (the `operations` of `chunk(html, { work })` for 5,000 and 50,000 elements) and its bench.
 * (Repeat counts of `n / k` are floored.)
 */
export const LINEAR_SHAPES: Readonly<Record<string, (n: number) => string>> = {
  'flat paragraphs': (n) => '<p>alpha beta gamma</p>'.repeat(n),
  'divs nested n deep': (n) => '<div>'.repeat(n) + 'x' + '</div>'.repeat(n),
  'unclosed divs': (n) => '<div>x '.repeat(n),
  'spans then as many stray </div>': (n) => '<span>a '.repeat(n / 2) + '</div>'.repeat(n / 2),
  'unclosed list items': (n) => '<ul>' + '<li>item '.repeat(n),
  'lists nested n/2 deep': (n) => '<ul><li>x '.repeat(n / 2),
  'a table of n/3 rows': (n) => '<table><tr><th>A<th>B' + '<tr><td>a<td>b'.repeat(n / 3) + '</table>',
  'unclosed <b>': (n) => '<b>x '.repeat(n) + '</p>',
  'labelled sections nested n deep': (n) => '<section aria-label="s">x '.repeat(n),
  'articles nested n/3 deep, a heading in each': (n) => '<article><h2>t</h2><p>x</p>'.repeat(n / 3),
  'headings and paragraphs': (n) => '<h1>a</h1><h2>b</h2><h3>c</h3><p>d</p>'.repeat(n / 4),
  'tables nested in cells': (n) => '<table><tr><td>x '.repeat(n / 3),
  'formatting in the cells of one row': (n) => '<table><tr>' + '<td><b><i>x</i></b></td>'.repeat(n / 3) + '</tr></table>',
};
