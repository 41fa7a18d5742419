// chunkwise's web page: two or three strategies side by side over one text, their chunk
// sizes, an evaluation on pasted questions, exports (JSONL, TypeScript, CLI) and QASC;
// all in the browser through the browser bundle (dist/bundle/inline) and its
// WebAssembly kernels. Served by web/serve.mjs (`npm run web`).
import * as cw from '/bundle/inline/index.js';
import * as engine from '/bundle/inline/engine.js';
import * as ev from '/bundle/inline/evaluation.js';
import { cosineNeighbours } from '/bundle/inline/kernels.js';
import { describeStrategy } from './options.js';
import { alignBands, histogram, lostText, parsePastedQuestions } from './compare.js';
import { cliSnippet, typescriptSnippet } from './snippet.js';

const MAX_COLUMNS = 3;
const LETTERS = 'ABC';
const CORPUS = 'doc';

const $ = (id) => document.getElementById(id);
const els = {
  status: $('status'), text: $('text'), file: $('file'), drop: $('drop'), source: $('source'), docinfo: $('docinfo'),
  embedder: $('embedder'), addColumn: $('add-column'), unavailable: $('unavailable'), columns: $('columns'),
  view: $('view'), selection: $('selection'), questions: $('questions'), questionsFile: $('questions-file'), tuneFile: $('tune-file'), tuneResults: $('tune-results'), k: $('k'),
  evaluate: $('evaluate'), evalInfo: $('eval-info'), evalProblems: $('eval-problems'), evalResults: $('eval-results'),
  query: $('query'), qasc: $('qasc'), chart: $('chart'), chartHint: $('chart-hint'),
};

/** What the page knows; `window.chunkwisePage` exposes it to tests. */
const state = {
  /** name → description from describeStrategy, plus `unavailable` (a reason) and `usesEmbedder`. */
  strategies: new Map(),
  /** Static models the server offers (/models.json). */
  models: [],
  /** The embedder choice: `hashing` or `static:<name>`, and the loaded instances. */
  embedderKey: 'hashing',
  embedders: new Map(),
  columns: [],
  bands: [],
  selection: null,
  evaluation: null,
  qasc: new Map(),
};
window.chunkwisePage = state;

let nextColumnId = 0;
let generation = 0;
let timer;

function setStatus(message, error = false) {
  els.status.textContent = message;
  els.status.classList.toggle('error', error);
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function errorText(error) {
  return `${error?.name ?? 'Error'}: ${error?.message ?? error}`;
}

function embedder() {
  return state.embedders.get(state.embedderKey);
}

/** The embedder as the snippets name it. */
function embedderSpec() {
  if (state.embedderKey === 'hashing') return { kind: 'hashing' };
  const model = state.models.find((m) => `static:${m.name}` === state.embedderKey);
  return { kind: 'static', path: model.path };
}

/** `token:cl100k_base` → `tokens`, `word` → `words`, `char` → `chars`. */
function unitLabel(unit) {
  if (!unit) return 'units';
  if (unit.startsWith('token')) return 'tokens';
  return unit + 's';
}

// ---------------------------------------------------------------------------------------
// Strategies and their controls

/**
 * Reads the registry: every strategy with its fields; a strategy whose creation with the
 * page's initial values fails on its `embedder` option (late: a token-level model) is
 * listed as unavailable with the library's own reason.
 */
function loadStrategies() {
  const dynamic = { fallbacks: engine.fallbackNames(), breakpoints: [...engine.BREAKPOINT_TYPES] };
  for (const definition of cw.strategies()) {
    const d = describeStrategy(definition, dynamic);
    const initial = initialOptions(d);
    d.usesEmbedder = d.embedder === 'optional' || d.embedder === 'required';
    const attempt = (withEmbedder) => cw.createChunker(d.name, withEmbedder ? { ...initial, embedder: embedder() } : initial);
    try {
      attempt(d.usesEmbedder);
    } catch (error) {
      if (error?.option !== 'embedder') d.initialError = errorText(error);
      else if (d.usesEmbedder) d.unavailable = error.message.replace(/^Invalid option embedder: [^(]*\(/, '').replace(/\)$/, '');
      else {
        // undescribed strategy that wants an embedder: try the page's
        try {
          attempt(true);
          d.usesEmbedder = true;
        } catch (again) {
          d.unavailable = again.message;
        }
      }
    }
    state.strategies.set(d.name, d);
  }
  const off = [...state.strategies.values()].filter((d) => d.unavailable);
  els.unavailable.textContent = off.length
    ? `Not available in this page: ${off.map((d) => `${d.name} (${d.unavailable})`).join('; ')}.`
    : '';
}

/** The page's initial option values of a strategy (page presets over the library's defaults). */
function initialOptions(d) {
  const o = {};
  for (const f of d.options) {
    const v = d.page[f.name] ?? f.default;
    if (v !== undefined) o[f.name] = v;
  }
  return o;
}

let fieldIds = 0;

/** One control for a field; `value` is the initial value (undefined: empty, the library's default). */
function fieldControl(col, f, value) {
  const label = document.createElement('label');
  label.className = `field ${f.type}`;
  const id = `f${++fieldIds}`;
  const name = document.createElement('span');
  name.textContent = f.name;
  label.append(name);
  let input;
  if (f.type === 'enum') {
    input = document.createElement('select');
    f.choices.forEach((c, i) => input.append(new Option(String(c), String(i), false, c === value)));
  } else if (f.type === 'boolean') {
    input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = value === true;
  } else {
    input = document.createElement('input');
    input.type = f.type === 'integer' || f.type === 'number' ? 'number' : 'text';
    if (f.type === 'integer') input.step = '1';
    if (f.type === 'number') input.step = 'any';
    if (f.min !== undefined) input.min = String(f.min);
    if (f.max !== undefined) input.max = String(f.max);
    input.spellcheck = false;
    input.value = value === undefined ? '' : f.type === 'json' ? JSON.stringify(value) : String(value);
    input.placeholder = f.default !== undefined ? `${f.type === 'json' ? JSON.stringify(f.default) : f.default}` : (f.defaultDoc ?? 'default');
  }
  input.id = id;
  input.dataset.option = f.name;
  input.addEventListener('change', () => markDirty(col));
  const doc = [f.doc, f.default !== undefined ? `default ${JSON.stringify(f.default)}` : f.defaultDoc ? `default ${f.defaultDoc}` : ''].filter(Boolean).join('; ');
  label.title = doc;
  if (doc) {
    const hint = document.createElement('span');
    hint.className = 'visually-hidden';
    hint.textContent = ` (${doc})`;
    name.append(hint);
  }
  label.append(input);
  return label;
}

/** The value of a field's control; undefined when empty (the library's default applies). */
function fieldValue(f, input) {
  if (f.type === 'enum') return f.choices[Number(input.value)];
  if (f.type === 'boolean') return input.checked;
  const raw = input.value.trim();
  if (raw === '') return undefined;
  if (f.type === 'integer' || f.type === 'number') return Number(raw);
  if (f.type === 'json') {
    try {
      return JSON.parse(raw);
    } catch {
      throw new cw.InvalidOptionError(f.name, raw, 'JSON');
    }
  }
  return raw;
}

/**
 * The column's options as the snippets write them: every field whose value differs from
 * the library's default (the unit always), then the JSON of "more options".
 * @returns `{ options, extraKeys }`
 */
function columnSettings(col) {
  const d = state.strategies.get(col.strategy);
  const options = {};
  for (const f of d.options) {
    const input = col.el.querySelector(`[data-option="${f.name}"]`);
    if (!input) continue;
    const v = fieldValue(f, input);
    if (v === undefined || (f.name !== 'unit' && JSON.stringify(v) === JSON.stringify(f.default))) continue;
    options[f.name] = v;
  }
  const extraRaw = col.el.querySelector('.extra input').value.trim();
  let extra = {};
  if (extraRaw) {
    try {
      extra = JSON.parse(extraRaw);
    } catch {
      throw new cw.InvalidOptionError('more options', extraRaw, 'a JSON object such as {"countTokens": false}');
    }
    if (!extra || typeof extra !== 'object' || Array.isArray(extra)) throw new cw.InvalidOptionError('more options', extraRaw, 'a JSON object');
  }
  return { options: { ...options, ...extra }, extraKeys: Object.keys(extra) };
}

function columnLabel(col) {
  return `${LETTERS[state.columns.indexOf(col)]} · ${col.strategy}`;
}

/** Builds (or rebuilds) a column's panel for its strategy; `values` override the initial values. */
function buildPanel(col, values = {}) {
  const d = state.strategies.get(col.strategy);
  const initial = { ...initialOptions(d), ...values };
  col.el.replaceChildren();
  const legend = document.createElement('h3');
  legend.className = 'column-title';
  legend.id = `column-title-${col.id}`;
  col.el.setAttribute('role', 'group');
  col.el.setAttribute('aria-labelledby', legend.id);
  const head = document.createElement('div');
  head.className = 'head';
  const pick = document.createElement('label');
  pick.className = 'strategy';
  pick.append('Strategy');
  const select = document.createElement('select');
  for (const s of state.strategies.values()) {
    const option = new Option(s.unavailable ? `${s.name} (unavailable: ${s.unavailable})` : s.name, s.name, false, s.name === col.strategy);
    option.disabled = Boolean(s.unavailable);
    option.title = s.description;
    select.append(option);
  }
  select.addEventListener('change', () => {
    col.strategy = select.value;
    buildPanel(col);
    markDirty(col);
  });
  pick.append(select);
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'remove secondary';
  remove.textContent = 'Remove';
  remove.disabled = state.columns.length <= 1;
  remove.addEventListener('click', () => removeColumn(col));
  head.append(pick, remove);
  const description = document.createElement('p');
  description.className = 'hint description';
  description.textContent = d.description;
  const fields = document.createElement('div');
  fields.className = 'fields';
  for (const f of d.options) fields.append(fieldControl(col, f, initial[f.name]));
  const extra = document.createElement('label');
  extra.className = 'field extra';
  extra.append('more options (JSON)');
  const extraInput = document.createElement('input');
  extraInput.type = 'text';
  extraInput.spellcheck = false;
  extraInput.placeholder = '{"countTokens": false}';
  const known = new Set(d.options.map((f) => f.name));
  const extraValues = Object.fromEntries(Object.entries(values).filter(([k]) => !known.has(k)));
  if (Object.keys(extraValues).length) extraInput.value = JSON.stringify(extraValues);
  extraInput.addEventListener('change', () => markDirty(col));
  extra.append(extraInput);
  fields.append(extra);
  const level = document.createElement('label');
  level.className = 'field level';
  level.hidden = true;
  level.append('show level');
  const levelSelect = document.createElement('select');
  levelSelect.addEventListener('change', () => {
    col.level = levelSelect.value;
    applyLevel(col);
    render();
  });
  level.append(levelSelect);
  fields.append(level);
  const error = document.createElement('p');
  error.className = 'err';
  error.setAttribute('role', 'alert');
  const stats = document.createElement('dl');
  stats.className = 'stats';
  const hist = document.createElement('figure');
  hist.className = 'hist';
  const exports = document.createElement('div');
  exports.className = 'export';
  exports.innerHTML =
    `<button type="button" class="download">Download JSONL</button>` +
    `<details><summary>Code for these settings</summary>` +
    `<p class="hint">Prints the same JSONL as the download (one <code>chunkRecord</code> per line).</p>` +
    `<div class="code"><div class="code-head"><span>TypeScript</span><button type="button" class="copy secondary" data-what="ts">Copy</button></div><pre><code class="ts"></code></pre></div>` +
    `<div class="code"><div class="code-head"><span>CLI</span><button type="button" class="copy secondary" data-what="cli">Copy</button></div><pre><code class="cli"></code></pre></div>` +
    `</details>`;
  exports.querySelector('.download').addEventListener('click', () => download(col));
  for (const b of exports.querySelectorAll('.copy')) {
    b.addEventListener('click', () => copy(b, exports.querySelector(b.dataset.what === 'ts' ? 'code.ts' : 'code.cli').textContent));
  }
  const controls = document.createElement('div');
  controls.className = 'controls';
  controls.append(legend, head, description, fields, error);
  col.el.append(controls, stats, hist, exports);
  col.level = '';
  relabel();
}

function relabel() {
  state.columns.forEach((col) => {
    col.el.querySelector('.column-title').textContent = `Column ${LETTERS[state.columns.indexOf(col)]}`;
    col.el.querySelector('.remove').disabled = state.columns.length <= 1;
  });
  els.addColumn.disabled = state.columns.length >= MAX_COLUMNS;
  els.columns.style.setProperty('--n', String(state.columns.length));
}

function addColumn(strategy, values) {
  if (state.columns.length >= MAX_COLUMNS) return;
  const available = [...state.strategies.values()].filter((s) => !s.unavailable);
  const d = state.strategies.get(strategy) && !state.strategies.get(strategy).unavailable
    ? state.strategies.get(strategy)
    : available.find((s) => !state.columns.some((c) => c.strategy === s.name)) ?? available[0];
  const el = document.createElement('div');
  el.className = 'column';
  const col = { id: nextColumnId++, strategy: d.name, el, chunks: [], shown: [], levels: [], level: '', error: null, ms: 0, dirty: true };
  el.dataset.column = String(col.id);
  state.columns.push(col);
  els.columns.append(el);
  buildPanel(col, values);
  schedule(0);
}

function removeColumn(col) {
  if (state.columns.length <= 1) return;
  state.columns.splice(state.columns.indexOf(col), 1);
  col.el.remove();
  relabel();
  state.selection = null;
  render();
  if (state.evaluation) evaluate();
}

function markDirty(col) {
  col.dirty = true;
  schedule(0);
}

/** Updates run one after the other (a change during an update waits for it). */
let running = Promise.resolve();
function schedule(ms = 300) {
  document.body.dataset.state = 'busy';
  clearTimeout(timer);
  timer = setTimeout(() => {
    running = running.then(update, update);
  }, ms);
}

// ---------------------------------------------------------------------------------------
// Chunking and rendering

/**
 * The code strategy in the page: chunkwise/code (dist/bundle/inline/code.js; web-tree-sitter in a chunk of its own)
 * imported on first use, grammars from the served tree-sitter-wasms folder (web/serve.mjs).
 */
async function codeLoading() {
  await import('/bundle/inline/code.js');
  return { grammarBase: `${location.origin}/grammars/`, treeSitterWasm: `${location.origin}/wts/tree-sitter.wasm` };
}

async function chunkColumn(col, text) {
  const t0 = performance.now();
  col.dirty = false;
  try {
    const { options, extraKeys } = columnSettings(col);
    col.settings = { options, extraKeys };
    const d = state.strategies.get(col.strategy);
    // Each encoding's rank table is a lazy chunk of the bundle, fetched the first time it is used.
    const encoding = options.encoding ?? 'cl100k_base';
    if (engine.isEncodingName(encoding)) await cw.loadTokenizer(encoding);
    let chosen = d.usesEmbedder ? { ...options, embedder: embedder() } : options;
    if (col.strategy === 'code') chosen = { ...(await codeLoading()), ...chosen };
    const chunker = cw.createChunker(col.strategy, chosen);
    col.chunks = await chunker.chunk(text);
    // a chunker that keeps only part of its input (HTML: the visible text of the kept content) says which
    col.kept = typeof chunker.visibleSpans === 'function' ? chunker.visibleSpans(text) : undefined;
    col.error = null;
  } catch (error) {
    col.chunks = [];
    col.kept = undefined;
    col.error = error;
  }
  col.ms = performance.now() - t0;
  col.levels = [...new Set(col.chunks.map((c) => c.metadata.level).filter((l) => l !== undefined))];
  if (!col.levels.includes(col.level)) {
    // parents and children: show what gets embedded (chunks that carry a parentId)
    col.level = col.levels.length > 1 ? (col.chunks.find((c) => c.metadata.parentId !== undefined)?.metadata.level ?? col.levels[0]) : '';
  }
  col.lost = lostText(text, col.chunks, col.kept);
  applyLevel(col);
}

function applyLevel(col) {
  col.shown = col.level ? col.chunks.filter((c) => c.metadata.level === col.level) : col.chunks;
  const box = col.el.querySelector('.level');
  box.hidden = col.levels.length < 2;
  const select = box.querySelector('select');
  select.replaceChildren(...col.levels.map((l) => new Option(`${l} (${col.chunks.filter((c) => c.metadata.level === l).length})`, l, false, l === col.level)));
}

async function update() {
  const gen = ++generation;
  const text = els.text.value;
  document.body.dataset.state = 'busy';
  els.docinfo.textContent = `${text.length.toLocaleString('en')} UTF-16 code units`;
  const t0 = performance.now();
  for (const col of state.columns) if (col.dirty || col.text !== text) {
    await chunkColumn(col, text);
    col.text = text;
  }
  if (gen !== generation) return;
  render();
  const ms = performance.now() - t0;
  const counts = state.columns.map((c) => (c.error ? 'error' : String(c.shown.length)));
  setStatus(`${state.columns.map((c) => `${columnLabel(c)}: ${c.error ? 'error' : `${c.shown.length} chunks`}`).join(' · ')} (${ms.toFixed(0)} ms)`, state.columns.some((c) => c.error));
  document.body.dataset.chunks = counts.join(',');
  if (state.evaluation && els.questions.value.trim()) await evaluate();
  if (gen !== generation) return;
  document.body.dataset.state = 'ready';
  await renderChart(text);
  await renderQasc();
}

/** Stats, histograms, snippets of every column, and the side-by-side view. */
function render() {
  const text = els.text.value;
  const sizes = state.columns.map((col) => col.shown.map((c) => c.metadata.unitCount ?? c.tokenCount));
  // one x scale per unit and one y scale for all, so the histograms compare at a glance
  const unitMax = new Map();
  state.columns.forEach((col, k) => {
    const unit = col.shown[0]?.metadata.unit;
    unitMax.set(unit, Math.max(unitMax.get(unit) ?? 0, ...sizes[k]));
  });
  const hists = state.columns.map((col, k) => histogram(sizes[k], unitMax.get(col.shown[0]?.metadata.unit)));
  const yMax = Math.max(1, ...hists.flatMap((h) => h.counts));
  state.columns.forEach((col, k) => {
    col.el.querySelector('.err').textContent = col.error ? errorText(col.error) : '';
    renderStats(col, sizes[k]);
    renderHistogram(col, hists[k], yMax);
    renderSnippets(col);
  });
  renderView(text);
}

function renderStats(col, sizes) {
  const dl = col.el.querySelector('.stats');
  if (col.error) {
    dl.replaceChildren();
    return;
  }
  const unit = unitLabel(col.shown[0]?.metadata.unit);
  const sorted = Float64Array.from(sizes).sort();
  const mean = sizes.length ? sizes.reduce((a, b) => a + b, 0) / sizes.length : 0;
  const median = sorted.length ? sorted[sorted.length >> 1] : 0;
  const chars = col.shown.reduce((a, c) => a + (c.end - c.start), 0);
  const overlap = col.shown.reduce((a, c) => a + (c.metadata.overlap ?? 0), 0);
  const oversized = col.shown.filter((c) => c.metadata.oversized).length;
  const rows = [
    ['chunks', `${col.shown.length}${col.level ? ` ${col.level}` : ''}${col.chunks.length !== col.shown.length ? ` of ${col.chunks.length}` : ''}`],
    [`size (${unit})`, `mean ${mean.toFixed(1)} · median ${median} · max ${sorted.length ? sorted[sorted.length - 1] : 0}`],
    ['overlap', `${chars ? ((100 * overlap) / chars).toFixed(1) : '0.0'} % of chunk text`],
    ['lost text', `${col.lost.chars} characters`, col.lost.chars ? 'bad' : ''],
    ['oversized', String(oversized), oversized ? 'warn' : ''],
    ['time', `${col.ms.toFixed(1)} ms`],
  ];
  dl.innerHTML = rows.map(([k, v, cls]) => `<div${cls ? ` class="${cls}"` : ''} data-stat="${escapeHtml(k.split(' ')[0])}"><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('');
  dl.dataset.lost = String(col.lost.chars);
}

function renderHistogram(col, h, yMax) {
  const fig = col.el.querySelector('.hist');
  if (col.error || col.shown.length === 0) {
    fig.replaceChildren();
    return;
  }
  const unit = unitLabel(col.shown[0].metadata.unit);
  const W = 320;
  const H = 120;
  const L = 28;
  const B = 18;
  const bw = (W - L - 4) / h.counts.length;
  const y = (v) => H - B - (v / yMax) * (H - B - 8);
  const bars = h.counts
    .map((n, i) => `<rect x="${(L + i * bw + 0.5).toFixed(1)}" y="${y(n).toFixed(1)}" width="${Math.max(1, bw - 1).toFixed(1)}" height="${(H - B - y(n)).toFixed(1)}"><title>${n} chunks of ${h.edges[i]}–${h.edges[i + 1] - 1} ${unit}</title></rect>`)
    .join('');
  const summary = h.counts.map((n, i) => (n ? `${n} of ${h.edges[i]}–${h.edges[i + 1] - 1}` : '')).filter(Boolean).join(', ');
  fig.innerHTML =
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Histogram of chunk sizes in ${unit}: ${escapeHtml(summary)}" data-edges="${h.edges.join(',')}" data-counts="${h.counts.join(',')}">` +
    `<line class="axis" x1="${L}" y1="${H - B}" x2="${W - 2}" y2="${H - B}"/><line class="axis" x1="${L}" y1="6" x2="${L}" y2="${H - B}"/>` +
    `<text x="2" y="${y(yMax) + 8}">${yMax}</text><text x="2" y="${H - B}">0</text>` +
    `<text x="${L}" y="${H - 4}">0</text><text x="${W - 4}" y="${H - 4}" text-anchor="end">${h.edges[h.edges.length - 1]} ${unit}</text>` +
    bars +
    `</svg><figcaption>Chunk sizes in ${unit}, bins of ${h.edges[1] - h.edges[0]}</figcaption>`;
}

function renderSnippets(col) {
  const ts = col.el.querySelector('code.ts');
  const cli = col.el.querySelector('code.cli');
  const download = col.el.querySelector('.download');
  download.disabled = Boolean(col.error);
  if (col.error || !col.settings) {
    ts.textContent = cli.textContent = '(fix the options first)';
    return;
  }
  const d = state.strategies.get(col.strategy);
  const args = { strategy: col.strategy, options: col.settings.options, source: sourceName(), embedder: d.usesEmbedder ? embedderSpec() : undefined };
  ts.textContent = typescriptSnippet(args);
  const fields = [...d.options, ...col.settings.extraKeys.map((name) => ({ name, cli: false }))];
  cli.textContent = cliSnippet({ ...args, fields }).command;
}

function sourceName() {
  return els.source.value.trim() || 'document.txt';
}

/** The records of `chunkwise chunk` for this column: every chunk, all levels. */
function jsonl(col) {
  const source = sourceName();
  return col.chunks.map((c) => JSON.stringify(cw.chunkRecord(c, source))).join('\n') + (col.chunks.length ? '\n' : '');
}

function download(col) {
  const blob = new Blob([jsonl(col)], { type: 'application/x-ndjson' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${sourceName().replace(/\.[^.]*$/, '')}.${col.strategy}.jsonl`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

async function copy(button, text) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select and copy';
  }
  setTimeout(() => (button.textContent = 'Copy'), 1500);
}

function chunkLabel(col, c, i) {
  const m = c.metadata;
  const unit = unitLabel(m.unit);
  const over = m.overlapUnits ?? m.overlap ?? 0;
  const overUnit = m.overlapUnits !== undefined ? unit : 'code units';
  const abbrev = (u) => ({ tokens: 'tok', words: 'w', chars: 'ch', 'code units': 'ch' })[u] ?? u;
  const short = `#${i} · ${m.unitCount ?? c.tokenCount} ${abbrev(unit)}${over ? ` · ↩${over} ${abbrev(overUnit)}` : ''}${m.oversized ? ' · oversized' : ''}`;
  const long = `chunk ${i} of column ${LETTERS[state.columns.indexOf(col)]}: ${m.unitCount ?? c.tokenCount} ${unit}, overlap ${over} ${overUnit} with the previous chunk${m.oversized ? ', oversized (an indivisible unit over the budget)' : ''}, offsets ${c.start} to ${c.end}`;
  // one tab stop per column (its first label); arrow keys move between labels (see moveFocus)
  return `<button type="button" class="lab${m.oversized ? ' big' : ''}" tabindex="${i === 0 ? 0 : -1}" data-k="${state.columns.indexOf(col)}" data-i="${i}" aria-label="${escapeHtml(long)}" title="${escapeHtml(long)}">${escapeHtml(short)}</button>`;
}

/**
 * The side-by-side view: the text cut into bands at every column's chunk boundaries; each
 * band a row with one cell per column, coloured by the chunks of that column covering it.
 */
function renderView(text) {
  const cols = state.columns;
  const shown = cols.map((c) => (c.error ? [] : c.shown));
  const bands = alignBands(text.length, shown);
  state.bands = bands;
  const html = [`<div class="band head" role="presentation">${cols.map((c) => `<div class="cell">${escapeHtml(columnLabel(c))}${c.error ? ' — error' : ''}</div>`).join('')}</div>`];
  for (let b = 0; b < bands.length; b++) {
    const band = bands[b];
    const slice = text.slice(band.from, band.to);
    const body = escapeHtml(slice);
    const visible = /\S/.test(slice);
    html.push(`<div class="band" data-from="${band.from}" data-to="${band.to}">`);
    band.cells.forEach((cell, k) => {
      const chunks = shown[k];
      const n = cell.cover.length;
      let cls = n === 0 ? (visible && !cols[k].error ? 'u' : 'n') : n === 1 ? (cell.cover[0] % 2 ? 'b' : 'a') : 'o';
      if (cell.starts.length) cls += ' start';
      if (cell.cover.some((i) => chunks[i].end === band.to)) cls += ' end';
      html.push(`<div class="cell ${cls}" data-cover="${cell.cover.join(' ')}">${cell.starts.map((i) => chunkLabel(cols[k], chunks[i], i)).join('')}<span class="t">${body}</span></div>`);
    });
    html.push('</div>');
  }
  els.view.style.setProperty('--n', String(cols.length));
  els.view.innerHTML = html.join('');
  if (state.selection) select(state.selection.k, state.selection.i);
}

/** Outlines chunk i of column k in its column and its text range in every column. */
function select(k, i) {
  for (const el of els.view.querySelectorAll('.sel, .hl')) el.classList.remove('sel', 'hl');
  const col = state.columns[k];
  const c = col?.shown[i];
  if (!c) {
    state.selection = null;
    els.selection.textContent = '';
    return;
  }
  state.selection = { k, i };
  const rows = els.view.children;
  // bands are in text order after the header row: binary search the first band of the chunk
  let lo = 0;
  let hi = state.bands.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (state.bands[mid].to <= c.start) lo = mid + 1;
    else hi = mid;
  }
  for (let b = lo; b < state.bands.length && state.bands[b].from < c.end; b++) {
    const row = rows[b + 1];
    row.classList.add('sel');
    if (state.bands[b].cells[k].cover.includes(i)) row.children[k].classList.add('hl');
  }
  const others = state.columns
    .map((other, j) => {
      if (j === k) return '';
      const touching = other.shown.filter((o) => o.start < c.end && o.end > c.start).length;
      return `${LETTERS[j]}: ${touching} chunk${touching === 1 ? '' : 's'} touch this text`;
    })
    .filter(Boolean);
  els.selection.textContent = `Selected ${LETTERS[k]} #${i} [${c.start}, ${c.end}), ${c.metadata.unitCount ?? c.tokenCount} ${unitLabel(c.metadata.unit)}. ${others.join('; ')}`;
}

/**
 * Keyboard moves between chunk labels: ↓/↑ the next/previous chunk of the column, ←/→ the
 * chunk of the neighbouring column that covers the same text, Home/End the first/last.
 */
function moveFocus(event) {
  const lab = event.target.closest?.('.lab');
  if (!lab) return;
  const k = Number(lab.dataset.k);
  const i = Number(lab.dataset.i);
  let target;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp' || event.key === 'Home' || event.key === 'End') {
    const n = state.columns[k].shown.length;
    const j = event.key === 'Home' ? 0 : event.key === 'End' ? n - 1 : i + (event.key === 'ArrowDown' ? 1 : -1);
    if (j >= 0 && j < n) target = [k, j];
  } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
    const other = k + (event.key === 'ArrowRight' ? 1 : -1);
    const chunks = state.columns[other]?.shown;
    if (chunks?.length) {
      const at = state.columns[k].shown[i].start;
      let j = 0;
      for (let x = 0; x < chunks.length; x++) if (chunks[x].start <= at && chunks[x].start >= chunks[j].start) j = x;
      target = [other, j];
    }
  }
  if (!target) return;
  event.preventDefault();
  const next = els.view.querySelector(`.lab[data-k="${target[0]}"][data-i="${target[1]}"]`);
  if (!next) return;
  for (const l of els.view.querySelectorAll(`.lab[data-k="${target[0]}"][tabindex="0"]`)) l.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}

// ---------------------------------------------------------------------------------------
// Evaluation

/** The pasted questions (or a questions CSV), checked against the document. */
function readQuestions(text) {
  const pasted = els.questions.value;
  if (/^\uFEFF?question,/.test(pasted) && /^[^\n]*references/.test(pasted)) {
    const all = ev.parseQuestionsCsv(pasted, 'pasted CSV');
    const id = ev.corpusIdFromPath(sourceName());
    const ids = [...new Set(all.map((q) => q.corpusId))];
    const mine = ids.length === 1 ? all : all.filter((q) => q.corpusId === id);
    const problems = mine.length === all.length ? [] : [{ line: 0, message: `${all.length - mine.length} questions of other corpora (${ids.filter((x) => x !== id).join(', ')}) left out; this document is ${JSON.stringify(id)}` }];
    const questions = mine.map((q) => ({ ...q, corpusId: CORPUS }));
    ev.checkQuestions(questions, [{ id: CORPUS, text }]);
    return { questions, problems };
  }
  return parsePastedQuestions(pasted, text, CORPUS);
}

async function evaluate() {
  const text = els.text.value;
  els.evalProblems.replaceChildren();
  let questions;
  try {
    const read = readQuestions(text);
    questions = read.questions;
    els.evalProblems.replaceChildren(
      ...read.problems.map((p) => {
        const li = document.createElement('li');
        li.textContent = p.line ? `line ${p.line}: ${p.message}` : p.message;
        return li;
      }),
    );
  } catch (error) {
    els.evalResults.innerHTML = `<p class="err">${escapeHtml(errorText(error))}</p>`;
    state.evaluation = null;
    return;
  }
  const k = Number(els.k.value);
  if (!questions.length) {
    els.evalResults.innerHTML = '<p class="hint">No question with an excerpt found in the document yet.</p>';
    state.evaluation = null;
    document.body.dataset.evaluation = 'empty';
    return;
  }
  document.body.dataset.evaluation = 'busy';
  els.evalInfo.textContent = `${questions.length} questions · k = ${k} · ${state.embedderKey}`;
  const results = [];
  const asked = JSON.stringify(questions);
  for (const col of state.columns) {
    if (col.error) continue;
    const t0 = performance.now();
    try {
      // a column whose chunks, questions, k and embedder did not change keeps its scores
      const key = [col.shown, asked, k, state.embedderKey];
      const cached = col.evaluated;
      if (cached && cached.key.every((x, i) => x === key[i])) {
        results.push({ ...cached.result, column: state.columns.indexOf(col), name: columnLabel(col) });
        continue;
      }
      // the library's own path: chunkCorpora (spans from the chunks) and evaluateSpans
      const spans = await ev.chunkCorpora({ chunk: () => col.shown }, [{ id: CORPUS, text }]);
      const result = await ev.evaluateSpans(spans, questions, embedder(), { name: columnLabel(col), k });
      const scored = { column: state.columns.indexOf(col), ...result, ms: performance.now() - t0 };
      col.evaluated = { key, result: scored };
      results.push(scored);
    } catch (error) {
      els.evalResults.innerHTML = `<p class="err">${escapeHtml(errorText(error))}</p>`;
      state.evaluation = null;
      document.body.dataset.evaluation = 'error';
      return;
    }
  }
  state.evaluation = { k, questions, results, embedder: state.embedderKey };
  renderEvaluation();
  document.body.dataset.evaluation = 'ready';
}

function renderEvaluation() {
  const { results, questions, k } = state.evaluation;
  const pct = (m) => `${(100 * m.mean).toFixed(1)} <small>± ${(100 * m.std).toFixed(1)}</small>`;
  const best = {};
  for (const key of ['recall', 'precision', 'iou']) best[key] = Math.max(...results.map((r) => r.overall[key].mean));
  const cell = (r, key) => `<td class="num${r.overall[key].mean === best[key] && results.length > 1 ? ' best' : ''}" data-metric="${key}" data-value="${r.overall[key].mean}">${pct(r.overall[key])}</td>`;
  const rows = results
    .map((r) => `<tr data-column="${r.column}"><th scope="row">${escapeHtml(r.name)}</th><td class="num">${r.chunks}</td><td class="num">${Number.isNaN(r.meanChunkTokens) ? '–' : r.meanChunkTokens.toFixed(0)}</td>${cell(r, 'recall')}${cell(r, 'precision')}${cell(r, 'iou')}<td class="num">${r.ms.toFixed(0)}</td></tr>`)
    .join('');
  const perQuestion = questions
    .map((q, i) => `<tr><th scope="row">${escapeHtml(q.question)}</th>${results.map((r) => `<td class="num">${(100 * r.perQuestion[i].recall).toFixed(0)} / ${(100 * r.perQuestion[i].iou).toFixed(1)}</td>`).join('')}</tr>`)
    .join('');
  els.evalResults.innerHTML =
    `<div class="table-wrap"><table class="results"><caption>Mean ± standard deviation over ${questions.length} questions, top ${k} chunks each, in % (best in bold)</caption>` +
    `<thead><tr><th scope="col">column</th><th scope="col">chunks</th><th scope="col">mean tokens</th><th scope="col">recall</th><th scope="col">precision</th><th scope="col">IoU</th><th scope="col">ms</th></tr></thead><tbody>${rows}</tbody></table></div>` +
    `<details><summary>Per question (recall / IoU, %)</summary><div class="table-wrap"><table class="per-question"><thead><tr><th scope="col">question</th>${results.map((r) => `<th scope="col">${escapeHtml(r.name)}</th>`).join('')}</tr></thead><tbody>${perQuestion}</tbody></table></div></details>`;
}

// ---------------------------------------------------------------------------------------
// QASC and the distance chart

/** QASC over the document for the query: chunks with score S, sentence range, seeds and windows. */
let qascShown = '';
async function renderQasc() {
  const text = els.text.value;
  const query = els.query.value.trim();
  const key = `${state.embedderKey}\u0000${query}\u0000${text}`;
  if (key === qascShown) return;
  qascShown = key;
  if (!query) {
    els.qasc.innerHTML = '<p class="note">QASC builds chunks per query: seeds are the sentences whose similarity to the query reaches the 75th percentile, grown into windows, scored and merged (docs/qasc.md).</p>';
    return;
  }
  let chunker = state.qasc.get(state.embedderKey);
  if (!chunker) state.qasc.set(state.embedderKey, (chunker = new cw.QueryAdaptiveChunker({ embedder: embedder(), explain: true })));
  try {
    const chunks = await chunker.query(text, query);
    if (els.query.value.trim() !== query) return;
    const e = chunks[0]?.metadata.explain;
    els.qasc.innerHTML =
      (e
        ? `<p class="note">τ = ${e.tau.toFixed(3)} (75th percentile of sim) · keep S ≥ κ·τ = ${e.keepThreshold.toFixed(3)} · ${chunks.length} chunks, best first.</p>`
        : '<p class="note">No window reaches κ·τ.</p>') +
      `<ol class="qasc-list">${chunks
        .slice(0, 8)
        .map((c) => {
          const m = c.metadata;
          const windows = m.explain ? m.explain.windows.length : 0;
          return `<li><div class="qmeta"><span>S ${m.score.toFixed(3)}</span><span>sentences [${m.sentenceStart}, ${m.sentenceEnd})</span><span>seeds ${escapeHtml(m.seeds.map((x) => '#' + (x + 1)).join(' '))}</span><span>${windows} window${windows === 1 ? '' : 's'}</span></div><div class="qtext">${escapeHtml(c.text.slice(0, 400))}</div></li>`;
        })
        .join('')}</ol>`;
  } catch (error) {
    els.qasc.innerHTML = `<p class="err">${escapeHtml(errorText(error))}</p>`;
  }
}

/**
 * Cosine distances between neighbouring sentences (the page's embedder, WASM kernels) and
 * the breakpoints above the threshold of the first semantic column (the percentile breakpoint's default
 * otherwise, 98), as an SVG line chart. Sentences from the library's `sentenceSpans`.
 */
let distances = { key: '', dist: null, n: 0 };
async function renderChart(text) {
  const key = `${state.embedderKey}\u0000${text}`;
  if (distances.key !== key) {
    const spans = engine.sentenceSpans(text);
    const n = Math.min(spans.count, 4000);
    let dist = null;
    if (n >= 3) {
      const sents = Array.from({ length: n }, (_, i) => text.slice(spans.starts[i], spans.ends[i]));
      const e = embedder();
      const vectors = await e.embed(sents);
      dist = Float32Array.from(cosineNeighbours(vectors, e.dimension), (s) => 1 - s);
    }
    distances = { key, dist, n };
  }
  const { dist, n } = distances;
  if (!dist) {
    els.chart.innerHTML = '<p class="hint">Fewer than three sentences.</p>';
    els.chart.dataset.breakpoints = '0';
    return;
  }
  const semantic = state.columns.find((c) => c.strategy === 'semantic' && c.settings);
  const breakpoint = semantic?.settings.options.breakpoint ?? 'percentile';
  const amount = semantic?.settings.options.threshold ?? engine.BREAKPOINT_DEFAULTS[breakpoint];
  const { threshold, values } = engine.breakpointThreshold(dist, breakpoint, amount);
  const W = 1000;
  const H = 190;
  const L = 38;
  const B = 22;
  const max = Math.max(...values, Number.isFinite(threshold) ? threshold : 0) || 1;
  const min = Math.min(0, ...values);
  const x = (i) => L + (i * (W - L - 8)) / Math.max(values.length - 1, 1);
  const y = (v) => H - B - ((v - min) / (max - min || 1)) * (H - B - 10);
  const pts = Array.from(values, (v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const bps = [];
  values.forEach((v, i) => v > threshold && bps.push(i));
  els.chart.innerHTML =
    `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="Distances between neighbouring sentences, ${bps.length} above the threshold">` +
    `<line class="axis" x1="${L}" y1="${H - B}" x2="${W - 4}" y2="${H - B}"/><line class="axis" x1="${L}" y1="6" x2="${L}" y2="${H - B}"/>` +
    `<text x="2" y="${y(max) + 4}">${max.toFixed(2)}</text><text x="2" y="${H - B}">${min.toFixed(0)}</text>` +
    `<text x="${L}" y="${H - 6}">sentence 1</text><text x="${W - 90}" y="${H - 6}">sentence ${n}</text>` +
    `<polyline class="line" points="${pts}"/>` +
    (Number.isFinite(threshold) ? `<line class="thr" x1="${L}" y1="${y(threshold)}" x2="${W - 4}" y2="${y(threshold)}"/>` : '') +
    bps.map((i) => `<circle class="bp" cx="${x(i)}" cy="${y(values[i])}" r="3.5"><title>break after sentence ${i + 1}: ${values[i].toFixed(3)}</title></circle>`).join('') +
    `</svg>`;
  els.chart.dataset.breakpoints = String(bps.length);
  els.chartHint.textContent = `${n} sentences · ${state.embedderKey} · ${breakpoint} ${amount}: threshold ${threshold.toFixed(3)}, ${bps.length} breakpoints (red)${semantic ? ` (column ${LETTERS[state.columns.indexOf(semantic)]})` : ''}`;
}

// ---------------------------------------------------------------------------------------
// Documents, embedders, start

/** Decodes UTF-8 keeping a byte-order mark, as the CLI reads files (so offsets agree). */
function decode(bytes) {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

async function loadFile(file) {
  els.text.value = decode(await file.arrayBuffer());
  els.source.value = file.name;
  state.selection = null;
  schedule(0);
}

async function chooseEmbedder(key) {
  if (!state.embedders.has(key)) {
    const model = state.models.find((m) => `static:${m.name}` === key);
    setStatus(`loading ${model.name}…`);
    els.embedder.disabled = true;
    try {
      state.embedders.set(key, await cw.StaticEmbedder.load(new URL(model.url, location.origin)));
    } catch (error) {
      setStatus(`could not load ${model.name}: ${errorText(error)}`, true);
      els.embedder.value = state.embedderKey;
      return;
    } finally {
      els.embedder.disabled = false;
    }
  }
  state.embedderKey = key;
  els.embedder.value = key;
  if (state.evaluation) state.evaluation = { pending: true }; // scores of the other embedder are stale
  for (const col of state.columns) if (state.strategies.get(col.strategy).usesEmbedder) col.dirty = true;
  schedule(0);
}

async function loadModels() {
  try {
    const r = await fetch('/models.json');
    state.models = r.ok ? await r.json() : [];
  } catch {
    state.models = [];
  }
  els.embedder.replaceChildren(new Option('hashing (HashingEmbedder, 384 d, no model)', 'hashing'));
  for (const m of state.models) els.embedder.append(new Option(`static: ${m.name} (StaticEmbedder, served by the page's server)`, `static:${m.name}`));
}

/** Columns from `?s=<spec>` (repeatable; the evaluation's `name:size:overlap:key=value` form). */
function columnsFromUrl(params) {
  const specs = params.getAll('s');
  if (!specs.length) return [{ strategy: 'fixed' }, { strategy: 'recursive' }];
  return specs.slice(0, MAX_COLUMNS).map((spec) => {
    const s = ev.parseStrategySpec(spec);
    const d = state.strategies.get(s.name);
    if (!d) return { strategy: s.name };
    const fields = new Set(d.options.map((f) => f.name));
    const standard = new Set(['unit', 'chunkSize', 'chunkOverlap', 'windowSize', 'stride']);
    const values = {};
    for (const [key, value] of Object.entries(s.options)) if (fields.has(key) || !standard.has(key)) values[key] = value;
    return { strategy: s.name, values };
  });
}

/** The `format` of `chunkwise tune --out DIR`'s tune.json. */
const TUNE_FORMAT = 'chunkwise-tune/1';

/**
 * Opens a tune.json: the Pareto front as a table (the recommended row marked) and the
 * columns set to the recommended configuration and the front's best-IoU chunk strategies
 * (QASC rows are query-time: they stay in the table).
 */
function openTune(json) {
  if (json?.format !== TUNE_FORMAT || !Array.isArray(json.front) || !json.recommendation) throw new Error(`not a tune.json of chunkwise tune (format ${TUNE_FORMAT})`);
  const pct = (x) => (x * 100).toFixed(1);
  const rows = json.front.map((p) => {
    const mark = p.spec === json.recommendation.spec ? ' <strong>(recommended)</strong>' : '';
    return `<tr data-spec="${escapeHtml(p.spec)}"><td><code>${escapeHtml(p.spec)}</code>${mark}</td><td>${pct(p.recall.mean)} [${pct(p.recall.low)}, ${pct(p.recall.high)}]</td><td>${pct(p.iou.mean)} [${pct(p.iou.low)}, ${pct(p.iou.high)}]</td></tr>`;
  });
  els.tuneResults.innerHTML =
    `<h3>chunkwise tune: Pareto front (${escapeHtml(String(json.embedder))}, k = ${Number(json.k)}, ${Number(json.questions)} questions, ${json.rows?.length ?? 0} configurations)</h3>` +
    `<table class="tune"><thead><tr><th>configuration</th><th>recall % [95 % CI]</th><th>IoU % [95 % CI]</th></tr></thead><tbody>${rows.join('')}</tbody></table>` +
    `<p class="hint">Recommended: <code>${escapeHtml(json.recommendation.spec)}</code>. ${escapeHtml(json.recommendation.reason ?? '')}</p>`;
  const specs = [json.recommendation.spec, ...json.front.map((p) => p.spec).reverse()];
  const chunkSpecs = [...new Set(specs)].filter((spec) => !spec.startsWith('qasc:') && state.strategies.has(ev.parseStrategySpec(spec).name)).slice(0, MAX_COLUMNS);
  if (!chunkSpecs.length) return;
  const params = new URLSearchParams();
  for (const spec of chunkSpecs) params.append('s', spec);
  for (const col of state.columns) col.el.remove();
  state.columns.length = 0;
  state.selection = null;
  for (const c of columnsFromUrl(params)) addColumn(c.strategy, c.values);
  relabel();
  if (state.evaluation) evaluate();
}

async function main() {
  await cw.initKernels();
  await cw.loadTokenizer('cl100k_base'); // the default encoding (token units, tokenCount) before the first chunker
  state.embedders.set('hashing', new cw.HashingEmbedder());
  const params = new URLSearchParams(location.search);
  await loadModels();
  loadStrategies();
  const doc = params.get('doc');
  if (doc) {
    const r = await fetch(doc);
    if (!r.ok) throw new Error(`cannot load ${doc}: HTTP ${r.status}`);
    els.text.value = decode(await r.arrayBuffer());
    els.source.value = doc.split('/').pop() || 'document.txt';
  } else {
    els.text.value = 'RAG enhances LLMs by retrieving external data. This process reduces hallucinations.\n\nPaste your own document here, or drop a file on this box.';
  }
  const questions = params.get('questions');
  if (questions) els.questions.value = await (await fetch(questions)).text();
  if (params.get('q')) els.query.value = params.get('q');
  if (els.questions.value.trim()) state.evaluation = { pending: true }; // evaluate once the chunks are there
  const embedderKey = params.get('embedder');
  if (embedderKey && embedderKey !== 'hashing' && state.models.some((m) => `static:${m.name}` === embedderKey)) await chooseEmbedder(embedderKey);
  for (const c of columnsFromUrl(params)) addColumn(c.strategy, c.values);

  els.addColumn.addEventListener('click', () => addColumn());
  els.embedder.addEventListener('change', () => chooseEmbedder(els.embedder.value));
  els.text.addEventListener('input', () => schedule(400));
  els.source.addEventListener('change', () => render());
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
  els.view.addEventListener('click', (e) => {
    const lab = e.target.closest('.lab');
    if (lab) select(Number(lab.dataset.k), Number(lab.dataset.i));
  });
  els.view.addEventListener('keydown', moveFocus);
  els.evaluate.addEventListener('click', () => evaluate());
  els.k.addEventListener('change', () => state.evaluation && evaluate());
  els.questionsFile.addEventListener('change', async () => {
    const f = els.questionsFile.files[0];
    if (!f) return;
    els.questions.value = await f.text();
    evaluate();
  });
  els.tuneFile.addEventListener('change', async () => {
    const f = els.tuneFile.files[0];
    if (!f) return;
    try {
      openTune(JSON.parse(await f.text()));
    } catch (error) {
      setStatus(`cannot open ${f.name}: ${errorText(error)}`, true);
    }
  });
  let queryTimer;
  els.query.addEventListener('input', () => {
    clearTimeout(queryTimer);
    queryTimer = setTimeout(renderQasc, 300);
  });
}

main().catch((error) => {
  setStatus(`could not start: ${error?.message ?? error}`, true);
  document.body.dataset.chunks = 'error';
  document.body.dataset.state = 'error';
});
