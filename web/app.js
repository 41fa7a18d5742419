// chunkwise's web page: chunks laid over the text, all in the browser through the
// browser bundle (dist/bundle/inline) and its WebAssembly kernels. Served by
// web/serve.mjs (`npm run web`), which maps /bundle/ to dist/bundle/.
import * as cw from '/bundle/inline/index.js';

/** Parameter fields per strategy (the field's names, SPEC section 1). */
const UNIT = { name: 'unit', label: 'unit', type: 'select', options: ['token', 'word', 'char'], value: 'token' };
const ENCODING = { name: 'encoding', label: 'encoding', type: 'select', options: ['cl100k_base', 'o200k_base'], value: 'cl100k_base' };
const num = (name, value, label = name) => ({ name, label, type: 'number', value });
const PARAMS = {
  sliding: [UNIT, ENCODING, num('windowSize', 128), num('stride', 96)],
  fixed: [UNIT, ENCODING, num('chunkSize', 256), num('chunkOverlap', 32)],
  sentence: [num('chunkSize', 256), num('overlapSentences', 1)],
  recursive: [num('chunkSize', 256), num('chunkOverlap', 32)],
  markdown: [num('chunkSize', 256)],
  'parent-child': [num('parentSize', 1200), num('childSize', 150), num('childOverlap', 20)],
  semantic: [
    { name: 'breakpoint', label: 'breakpoint', type: 'select', options: ['percentile', 'standardDeviation', 'interquartile', 'gradient'], value: 'percentile' },
    num('threshold', 95),
    num('bufferSize', 1),
  ],
};
/** Strategies whose chunker takes an embedder (HashingEmbedder here: no model download). */
const EMBEDDING = /semantic|qasc|late/;

const $ = (id) => document.getElementById(id);
const els = {
  status: $('status'), strategy: $('strategy'), params: $('params'), extra: $('extra'), run: $('run'),
  text: $('text'), file: $('file'), drop: $('drop'), docinfo: $('docinfo'), query: $('query'), qasc: $('qasc'),
  stats: $('stats'), view: $('view'), list: $('list'), chart: $('chart'), chartHint: $('chart-hint'),
};
let embedder;
let lastChunks = [];

function setStatus(message, error = false) {
  els.status.textContent = message;
  els.status.classList.toggle('error', error);
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function renderParams() {
  const fields = PARAMS[els.strategy.value] ?? [num('chunkSize', 256)];
  els.params.replaceChildren(
    ...fields.map((f) => {
      const label = document.createElement('label');
      label.textContent = f.label;
      let input;
      if (f.type === 'select') {
        input = document.createElement('select');
        for (const o of f.options) input.append(new Option(o, o, false, o === f.value));
      } else {
        input = document.createElement('input');
        input.type = 'number';
        input.value = String(f.value);
      }
      input.dataset.param = f.name;
      input.dataset.kind = f.type;
      input.addEventListener('change', run);
      label.append(input);
      return label;
    }),
  );
}

function options() {
  const o = {};
  for (const input of els.params.querySelectorAll('[data-param]')) {
    o[input.dataset.param] = input.dataset.kind === 'number' ? Number(input.value) : input.value;
  }
  const extra = els.extra.value.trim();
  if (extra) Object.assign(o, JSON.parse(extra));
  if (EMBEDDING.test(els.strategy.value)) o.embedder = embedder;
  return o;
}

/** Splits [0, n) at every chunk boundary; each piece knows which chunks cover it. */
function segments(text, chunks) {
  const cuts = new Set([0, text.length]);
  for (const c of chunks) cuts.add(c.start).add(c.end);
  const points = [...cuts].sort((a, b) => a - b);
  const startsAt = new Map();
  chunks.forEach((c, i) => (startsAt.get(c.start) ?? startsAt.set(c.start, []).get(c.start)).push(i));
  const active = new Set();
  const pieces = [];
  for (let p = 0; p < points.length - 1; p++) {
    const from = points[p];
    const to = points[p + 1];
    for (const i of [...active]) if (chunks[i].end <= from) active.delete(i);
    for (const i of startsAt.get(from) ?? []) active.add(i);
    pieces.push({ from, to, chunks: [...active], starts: startsAt.get(from) ?? [] });
  }
  return pieces;
}

function renderView(text, chunks) {
  const html = [];
  for (const piece of segments(text, chunks)) {
    for (const i of piece.starts) html.push(`<span class="mark ${i % 2 ? 'b' : 'a'}" data-chunk="${i}" title="chunk ${i} starts">#${i}</span>`);
    const slice = escapeHtml(text.slice(piece.from, piece.to));
    const n = piece.chunks.length;
    const cls = n === 0 ? (/\S/.test(text.slice(piece.from, piece.to)) ? 'u' : '') : n === 1 ? (piece.chunks[0] % 2 ? 'b' : 'a') : 'o';
    html.push(cls ? `<span class="seg ${cls}" data-chunks="${piece.chunks.join(' ')}">${slice}</span>` : slice);
  }
  els.view.innerHTML = html.join('');
}

function renderList(chunks) {
  els.list.replaceChildren(
    ...chunks.map((c, i) => {
      const li = document.createElement('li');
      li.className = `chunk ${i % 2 ? 'b' : 'a'}`;
      li.dataset.chunk = String(i);
      const m = c.metadata ?? {};
      const path = Array.isArray(m.headingPath) && m.headingPath.length ? `<div class="path">${m.headingPath.map(escapeHtml).join(' › ')}</div>` : '';
      const parent = m.parentId ? `<span>parent <b>${escapeHtml(String(m.parentId)).slice(0, 24)}</b></span>` : '';
      const score = typeof m.score === 'number' ? `<span>score <b>${m.score.toFixed(3)}</b></span>` : '';
      li.innerHTML =
        `<div class="meta"><span><b>#${i}</b></span><span>[${c.start}, ${c.end})</span>` +
        `<span><b>${c.tokenCount}</b> tokens</span><span>${m.unitCount ?? '–'} ${escapeHtml(String(m.unit ?? ''))}</span>` +
        `<span>overlap <b>${m.overlap ?? 0}</b></span>${parent}${score}${m.oversized ? '<span class="flag">oversized</span>' : ''}</div>` +
        path +
        `<div class="text">${escapeHtml(c.text.trimStart().slice(0, 400))}</div>`;
      return li;
    }),
  );
}

function renderStats(text, chunks, ms) {
  const tokens = chunks.map((c) => c.tokenCount).filter((t) => t >= 0);
  const mean = tokens.length ? tokens.reduce((a, b) => a + b, 0) / tokens.length : 0;
  const covered = new Uint8Array(text.length);
  for (const c of chunks) covered.fill(1, c.start, c.end);
  let visible = 0;
  let kept = 0;
  for (let i = 0; i < text.length; i++) {
    if (/\S/.test(text[i])) {
      visible++;
      kept += covered[i];
    }
  }
  const overlap = chunks.reduce((a, c) => a + (c.metadata?.overlap ?? 0), 0);
  els.stats.innerHTML =
    `<span><b>${chunks.length}</b> chunks</span>` +
    `<span>tokens mean <b>${mean.toFixed(1)}</b> · max <b>${tokens.length ? Math.max(...tokens) : 0}</b></span>` +
    `<span>overlap <b>${overlap}</b> code units in total</span>` +
    `<span>non-whitespace characters in a chunk <b>${visible ? ((100 * kept) / visible).toFixed(1) : '100.0'} %</b></span>` +
    `<span>chunked in <b>${ms.toFixed(1)} ms</b></span>`;
}

/** Sentences with UTF-16 offsets (Intl.Segmenter), whitespace trimmed. */
function sentences(text) {
  const out = [];
  for (const s of new Intl.Segmenter(undefined, { granularity: 'sentence' }).segment(text)) {
    const lead = s.segment.length - s.segment.trimStart().length;
    const body = s.segment.trim();
    if (body) out.push({ start: s.index + lead, end: s.index + lead + body.length, text: body });
  }
  return out;
}

/**
 * Cosine distances between neighbouring sentences (HashingEmbedder, WASM kernels) and the
 * breakpoints above the percentile threshold, as a plain SVG line chart.
 */
async function renderChart(text) {
  const sents = sentences(text).slice(0, 4000);
  if (sents.length < 3) {
    els.chart.innerHTML = '<p class="hint">Fewer than three sentences.</p>';
    return;
  }
  const d = embedder.dimension;
  const vectors = await embedder.embed(sents.map((s) => s.text));
  const sims = cw.cosineNeighbours(vectors, d);
  const dist = Float32Array.from(sims, (s) => 1 - s);
  const p = els.strategy.value === 'semantic' ? Number(options().threshold ?? 95) : 95;
  const threshold = cw.percentile(dist, p);
  const W = 1000;
  const H = 190;
  const L = 38;
  const B = 22;
  const max = Math.max(...dist, threshold) || 1;
  const x = (i) => L + (i * (W - L - 8)) / Math.max(dist.length - 1, 1);
  const y = (v) => H - B - (v / max) * (H - B - 10);
  const pts = Array.from(dist, (v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const bps = [];
  dist.forEach((v, i) => v > threshold && bps.push(i));
  els.chart.innerHTML =
    `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="neighbour distances">` +
    `<line class="axis" x1="${L}" y1="${H - B}" x2="${W - 4}" y2="${H - B}"/><line class="axis" x1="${L}" y1="6" x2="${L}" y2="${H - B}"/>` +
    `<text x="2" y="${y(max) + 4}">${max.toFixed(2)}</text><text x="2" y="${H - B}">0</text>` +
    `<text x="${L}" y="${H - 6}">sentence 1</text><text x="${W - 90}" y="${H - 6}">sentence ${sents.length}</text>` +
    `<polyline class="line" points="${pts}"/>` +
    `<line class="thr" x1="${L}" y1="${y(threshold)}" x2="${W - 4}" y2="${y(threshold)}"/>` +
    `<text x="${W - 190}" y="${y(threshold) - 5}" fill="#dc2626">${p}th percentile = ${threshold.toFixed(3)}</text>` +
    bps.map((i) => `<circle class="bp" cx="${x(i)}" cy="${y(dist[i])}" r="3.5"><title>break after sentence ${i + 1}: ${dist[i].toFixed(3)}</title></circle>`).join('') +
    `</svg>`;
  els.chart.dataset.breakpoints = String(bps.length);
  els.chartHint.textContent = `${sents.length} sentences · HashingEmbedder · ${bps.length} breakpoints above the ${p}th percentile (red)`;
}

/** QASC: the registered strategy when there is one; otherwise its seeds (SPEC section 2, steps 1–2). */
async function renderQasc(text) {
  const query = els.query.value.trim();
  if (!query) {
    els.qasc.innerHTML = '<span class="note">Seeds are the sentences whose similarity to the query reaches the 75th percentile (QASC, steps 1–2).</span>';
    return;
  }
  if (cw.QueryAdaptiveChunker) {
    // QASC, all steps (SPEC section 2): seeds, windows, scores, merging, alignment.
    const chunks = await new cw.QueryAdaptiveChunker({ embedder, explain: true }).query(text, query);
    const e = chunks[0]?.metadata.explain;
    els.qasc.innerHTML =
      (e
        ? `<span class="note">QASC: τ = ${e.tau.toFixed(3)} (75th percentile of sim), keep S ≥ κ·τ = ${e.keepThreshold.toFixed(3)} · ${chunks.length} chunks, best first.</span>`
        : '<span class="note">No window reaches κ·τ.</span>') +
      chunks
        .slice(0, 8)
        .map((c, i) => {
          const m = c.metadata;
          const windows = m.explain ? m.explain.windows.length : 0;
          return `<div><span class="sim">${i + 1}. S ${m.score.toFixed(3)} · sentences [${m.sentenceStart}, ${m.sentenceEnd}) · seeds ${escapeHtml(m.seeds.map((x) => '#' + (x + 1)).join(' '))} · ${windows} window${windows === 1 ? '' : 's'}</span> ${escapeHtml(c.text.slice(0, 140))}…</div>`;
        })
        .join('');
    return;
  }
  const sents = sentences(text);
  if (!sents.length) return;
  const matrix = await embedder.embed(sents.map((s) => s.text));
  const q = await embedder.embed([query]);
  const sims = cw.cosineMatVec(matrix, embedder.dimension, q);
  const tau = cw.percentile(sims, 75);
  const seeds = [...sims.keys()].filter((i) => sims[i] >= tau).sort((a, b) => sims[b] - sims[a]);
  els.qasc.innerHTML =
    `<span class="note">Seeds (QASC steps 1–2): τ = 75th percentile of sim = ${tau.toFixed(3)} · ${seeds.length} of ${sents.length} sentences. Windows and scores appear once the qasc strategy is registered.</span>` +
    seeds.slice(0, 12).map((i) => `<div title="${escapeHtml(sents[i].text)}"><span class="sim">#${i + 1} · sim ${sims[i].toFixed(3)}</span> ${escapeHtml(sents[i].text.slice(0, 140))}</div>`).join('');
}

let timer;
async function run() {
  const text = els.text.value;
  els.docinfo.textContent = `${text.length.toLocaleString('en')} UTF-16 code units`;
  try {
    const opts = options();
    // Each encoding's rank table is a lazy chunk of the bundle, fetched the first time it is used.
    const encoding = opts.encoding ?? 'cl100k_base';
    if (cw.isEncodingName(encoding)) await cw.loadTokenizer(encoding);
    const t0 = performance.now();
    const chunks = await cw.createChunker(els.strategy.value, opts).chunk(text);
    const ms = performance.now() - t0;
    lastChunks = chunks;
    renderView(text, chunks);
    renderList(chunks);
    renderStats(text, chunks, ms);
    setStatus(`${els.strategy.value}: ${chunks.length} chunks`);
    await renderChart(text);
    await renderQasc(text);
    document.body.dataset.chunks = String(chunks.length);
  } catch (error) {
    els.stats.innerHTML = `<span class="err">${escapeHtml(`${error?.name ?? 'Error'}: ${error?.message ?? error}`)}</span>`;
    setStatus('error', true);
    document.body.dataset.chunks = 'error';
  }
}
function runSoon() {
  clearTimeout(timer);
  timer = setTimeout(run, 300);
}

function highlight(i) {
  for (const el of document.querySelectorAll('.hl')) el.classList.remove('hl');
  for (const el of els.view.querySelectorAll('.seg')) if (el.dataset.chunks.split(' ').includes(String(i))) el.classList.add('hl');
  els.list.querySelector(`[data-chunk="${i}"]`)?.classList.add('hl');
}

async function loadFile(file) {
  els.text.value = await file.text();
  run();
}

async function main() {
  await cw.initKernels();
  await cw.loadTokenizer('cl100k_base');
  embedder = new cw.HashingEmbedder();
  for (const s of cw.strategies()) els.strategy.append(new Option(`${s.name} — ${s.description}`, s.name));
  renderParams();
  els.strategy.addEventListener('change', () => {
    renderParams();
    run();
  });
  els.run.addEventListener('click', run);
  els.extra.addEventListener('change', run);
  els.text.addEventListener('input', runSoon);
  els.query.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => renderQasc(els.text.value), 300);
  });
  els.file.addEventListener('change', () => els.file.files[0] && loadFile(els.file.files[0]));
  els.drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    els.drop.classList.add('over');
  });
  els.drop.addEventListener('dragleave', () => els.drop.classList.remove('over'));
  els.drop.addEventListener('drop', (e) => {
    e.preventDefault();
    els.drop.classList.remove('over');
    const file = e.dataTransfer?.files?.[0];
    if (file) loadFile(file);
  });
  els.list.addEventListener('click', (e) => {
    const li = e.target.closest('[data-chunk]');
    if (!li) return;
    highlight(li.dataset.chunk);
    els.view.querySelector(`.mark[data-chunk="${li.dataset.chunk}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  });
  els.view.addEventListener('click', (e) => {
    const mark = e.target.closest('.mark');
    if (!mark) return;
    highlight(mark.dataset.chunk);
    els.list.querySelector(`[data-chunk="${mark.dataset.chunk}"]`)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  });
  // ?doc=<url> loads a document (web/serve.mjs serves ../shared at /shared/ in a checkout).
  const doc = new URLSearchParams(location.search).get('doc');
  els.text.value = doc
    ? await (await fetch(doc)).text()
    : 'RAG enhances LLMs by retrieving external data. This process reduces hallucinations.\n\nPaste your own document here, or drop a file on this box.';
  setStatus('ready');
  await run();
}

main().catch((error) => {
  setStatus(`could not start: ${error?.message ?? error}`, true);
  document.body.dataset.chunks = 'error';
});
