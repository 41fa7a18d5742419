/**
 * Golden outputs: what every registered strategy returns today on a fixed set of inputs,
 * recorded by `scripts/record-golden.ts` (`npm run golden:record`) into `test/golden/*.json`
 * and compared by `test/golden.test.ts`. Shared by both, so they cannot drift apart.
 *
 * What a golden file keeps per chunk: start, end, index, tokenCount, metadata and
 * embedText, never the text (it is `source.slice(start, end)`). Ids are kept per run as
 * one digest (`ids`: `hashText` of the run's chunk ids joined by newlines), so a change
 * of any id shows without 16 hex digits per chunk; ids inside metadata (parent–child's
 * `parentId`) are kept as the parent's position.
 *
 * Compact form of one run (one strategy × options × input):
 * - `common`: metadata fields with the same value in every chunk, stored once;
 * - `keys`: the other metadata fields; each chunk row holds their values in that order,
 *   `null` where a chunk lacks the field (a real `null` value is refused when recording);
 * - a chunk row is `[start, end, index, tokenCount, values]`, then, where present, the
 *   embedText: `{ "prefix": p }` when it is `p + text`, else the string itself; late
 *   chunks add their vector (rounded to 6 decimals, compared with a tolerance).
 * @module
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createChunker, QueryAdaptiveChunker, strategies, type Chunk } from '../../src/index.js';
import { hashText } from '../../src/engine/chunk.js';
import { OnnxEmbedder } from '../../src/onnx.js';
import { makeEncoderOnnx, writeOnnxFolder } from './embedder-fixtures.js';
import { corporaDir, markdownDir, repoRoot, sharedFiles, textsDir } from './paths.js';

export const goldenDir = join(repoRoot, 'test', 'golden');
export const fixturesDir = join(goldenDir, 'fixtures');
/** HTML pages (made by test/helpers/html-pages.ts from eval/markdown, and one broken by hand): inputs of the html strategy only. */
export const htmlPagesDir = join(goldenDir, 'html');
/** Source files of the 12 languages of the code strategy (its golden inputs, and only its). */
export const codeFixturesDir = join(goldenDir, '..', 'fixtures', 'code');

/** An input of the golden runs. */
export interface GoldenInput {
  /** `corpora/…`, `markdown/…`, `texts/…`, `fixtures/…`, `html/…` or `code/…`. */
  name: string;
  text: string;
}

/** Known defects that show in today's output, by input and strategy: recorded as they are, named in a diff. */
const KNOWN_DEFECTS: Record<string, Record<string, string>> = {
  'fixtures/emoji.txt': {
    late: 'text the fixture tokenizer keeps as one token (a long URL) stops late chunking with "keeps fewer than 2 tokens" (issue 16)',
  },
};

/** Every golden input: the 4 corpora, the 4 Markdown chapters, the 8 texts (texts/README.md), the fixtures, the HTML pages and the code fixtures. */
export function goldenInputs(): GoldenInput[] {
  const groups: Array<[string, string, string]> = [
    ['corpora', corporaDir, '.md'],
    ['markdown', markdownDir, '.md'],
    ['texts', textsDir, '.txt'],
    ['fixtures', fixturesDir, ''],
    ['html', htmlPagesDir, '.html'],
    ['code', codeFixturesDir, ''],
  ];
  return groups.flatMap(([group, dir, ext]) =>
    sharedFiles(dir, ext)
      .filter((f) => basename(f) !== 'README.md')
      .map((f) => {
        const name = `${group}/${basename(f)}`;
        return { name, text: readFileSync(f, 'utf8') };
      }),
  );
}

/** Which inputs a setting runs on. */
type InputSet = 'all' | 'no-large' | 'small' | 'fixtures' | 'pages' | 'code';
const LARGE = new Set(['corpora/finance.md', 'corpora/pubmed.md']);
function inSet(set: InputSet, name: string): boolean {
  // the source files are the code strategy's inputs, and the code strategy takes only them
  if (name.startsWith('code/') || set === 'code') return set === 'code' && name.startsWith('code/');
  // the HTML pages are the html strategy's ('pages': the pages and the fixtures); the other strategies' runs stay as recorded
  if (name.startsWith('html/')) return set === 'pages';
  if (set === 'pages') return name.startsWith('fixtures/');
  if (set === 'all') return true;
  if (set === 'no-large') return !LARGE.has(name);
  if (set === 'fixtures') return name.startsWith('fixtures/');
  // small: the texts and the fixtures
  return name.startsWith('texts/') || name.startsWith('fixtures/');
}

interface Setting {
  name: string;
  options: Record<string, unknown>;
  inputs: InputSet;
}

/**
 * The settings per registered strategy: its defaults, one smaller setting, and a tiny one
 * on the fixtures (where they are small enough to show every rule). Units char, word
 * and token for each (every registered strategy takes a unit). Late chunking runs a
 * fixture ONNX encoder, one model pass per document: texts and fixtures only.
 */
/** Defaults on every input, `small` on all but the two large corpora, `tiny` on the fixtures. */
const standard = (small: Record<string, unknown>, tiny: Record<string, unknown>): Setting[] => [
  { name: 'default', options: {}, inputs: 'all' },
  { name: 'small', options: small, inputs: 'no-large' },
  { name: 'tiny', options: tiny, inputs: 'fixtures' },
];

export const GOLDEN_SETTINGS: Record<string, Setting[]> = {
  sliding: standard({ windowSize: 128, stride: 96 }, { windowSize: 16, stride: 12 }),
  fixed: standard({ chunkSize: 128, chunkOverlap: 16 }, { chunkSize: 16, chunkOverlap: 4 }),
  sentence: standard({ chunkSize: 128, overlapSentences: 1 }, { chunkSize: 16, overlapSentences: 1 }),
  recursive: standard({ chunkSize: 128, chunkOverlap: 16 }, { chunkSize: 16, chunkOverlap: 4 }),
  markdown: standard({ chunkSize: 128, chunkOverlap: 16, contextualHeaders: true }, { chunkSize: 24, chunkOverlap: 4 }),
  'parent-child': standard({ parentSize: 512, childSize: 64, childOverlap: 8 }, { parentSize: 64, childSize: 16, childOverlap: 4 }),
  semantic: standard({ maxChunkSize: 128 }, { maxChunkSize: 16, bufferSize: 0, breakpoint: 'gradient' }),
  html: [
    // plain text too (the texts and fixtures: text with no markup is one run of inline content)
    { name: 'default', options: {}, inputs: 'small' },
    { name: 'pages', options: {}, inputs: 'pages' },
    { name: 'small', options: { chunkSize: 128, chunkOverlap: 16 }, inputs: 'pages' },
    { name: 'tiny', options: { chunkSize: 24, chunkOverlap: 4 }, inputs: 'pages' },
    { name: 'keep landmarks', options: { chunkSize: 128, chunkOverlap: 16, drop: [] }, inputs: 'pages' },
  ],
  code: [
    { name: 'default', options: {}, inputs: 'code' },
    { name: 'small', options: { chunkSize: 64, contextHeaders: true }, inputs: 'code' },
    { name: 'tiny', options: { chunkSize: 16 }, inputs: 'code' },
  ],
  'cluster-semantic': standard({ maxChunkSize: 128, pieceSize: 32 }, { maxChunkSize: 24, pieceSize: 8 }),
  late: [
    { name: 'default', options: {}, inputs: 'small' },
    { name: 'small', options: { chunkSize: 128, chunkOverlap: 16 }, inputs: 'small' },
  ],
};

export const UNITS = ['char', 'word', 'token'] as const;

/** QASC (query-time, not in the registry): its defaults, fixed queries per input. */
export const QASC_QUERIES: Record<string, string[]> = {
  'texts/nl-qasc.txt': [
    'wat is de latentie van QASC?',
    'hoe worden de zaadzinnen gekozen?',
    'welke parameters heeft het contextvenster?',
    'wat zijn de nadelen van chunking met vaste grootte?',
  ],
  'corpora/state_of_the_union.md': [
    'What did the president say about inflation and prices?',
    'support for Ukraine against Russia',
    'infrastructure, roads and bridges',
    'COVID-19 vaccines and testing',
  ],
};

// ---------------------------------------------------------------- the late-chunking model

/** A token-level model for late chunking: the one-layer attention fixture of the embedder tests (d = 16, 32 tokens, seed 7). */
export async function loadLateEmbedder(): Promise<{ embedder: OnnxEmbedder; release(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'chunkwise-golden-'));
  writeOnnxFolder(join(dir, 'encoder'), makeEncoderOnnx({ d: 16, seed: 7 }).bytes, { pooling: 'mean' });
  const embedder = await OnnxEmbedder.load(join(dir, 'encoder'), { backend: 'web' });
  return {
    embedder,
    async release() {
      await embedder.release();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- runs and their compact form

/** One chunk row: [start, end, index, tokenCount, values, embedText?, vector?]. */
export type GoldenRow = [number, number, number, number, unknown[], ...unknown[]];

/** One recorded run. */
export interface GoldenRun {
  input: string;
  setting: string;
  options: Record<string, unknown>;
  /** `hashText` of the input, so a changed input file is reported as such. */
  sourceHash: string;
  length: number;
  /** `hashText` of the chunk ids in order, joined by newlines (content-addressed ids). */
  ids?: string;
  knownDefects?: string;
  /** What the chunker threw, instead of chunks. */
  error?: string;
  common?: Record<string, unknown>;
  keys?: string[];
  /** Whether rows carry an embedText column / a vector column. */
  embedText?: boolean;
  vector?: boolean;
  chunks?: GoldenRow[];
}

/** A golden file: the runs of one strategy. */
export interface GoldenFile {
  strategy: string;
  runs: GoldenRun[];
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The metadata of `chunk` without ids: a `parentId` becomes `parent`, the index of that
 * parent among the chunks (`parentIndex` maps ids to indices).
 */
function plainMetadata(chunk: Chunk, parentIndex: Map<string, number>): Record<string, unknown> {
  const { parentId, ...rest } = chunk.metadata as Record<string, unknown>;
  if (parentId === undefined) return rest;
  const parent = parentIndex.get(parentId as string);
  if (parent === undefined) throw new Error(`chunk ${chunk.index}: parentId ${String(parentId)} names no parent`);
  return { ...rest, parent };
}

/** The compact run of `chunks` (see the module doc). */
export function encodeRun(head: Omit<GoldenRun, 'common' | 'keys' | 'chunks' | 'ids'>, source: string, chunks: Chunk[]): GoldenRun {
  const parentIndex = new Map<string, number>();
  for (const c of chunks) if (c.metadata.level === 'parent') parentIndex.set(c.id, c.index);
  const metas = chunks.map((c) => plainMetadata(c, parentIndex));
  const allKeys = [...new Set(metas.flatMap((m) => Object.keys(m)))];
  const common: Record<string, unknown> = {};
  const keys: string[] = [];
  for (const k of allKeys) {
    const first = metas[0][k];
    if (first !== undefined && metas.every((m) => k in m && isDeepStrictEqual(m[k], first))) common[k] = first;
    else keys.push(k);
  }
  const hasEmbed = chunks.some((c) => c.embedText !== undefined);
  const hasVector = chunks.some((c) => (c as { vector?: unknown }).vector !== undefined);
  const rows = chunks.map((c, i): GoldenRow => {
    const values = keys.map((k) => {
      const v = metas[i][k];
      if (v === null) throw new Error(`chunk ${i}: metadata.${k} is null, which the golden format keeps for "absent"`);
      return v === undefined ? null : v;
    });
    const row: GoldenRow = [c.start, c.end, c.index, c.tokenCount, values];
    if (hasEmbed) {
      const text = source.slice(c.start, c.end);
      const e = c.embedText;
      row.push(e === undefined ? null : e.endsWith(text) ? { prefix: e.slice(0, e.length - text.length) } : e);
    }
    if (hasVector) row.push(Array.from((c as unknown as { vector: Float32Array }).vector, round6));
    return row;
  });
  return {
    ...head,
    ids: hashText(chunks.map((c) => c.id).join('\n')),
    common,
    keys,
    ...(hasEmbed ? { embedText: true } : {}),
    ...(hasVector ? { vector: true } : {}),
    chunks: rows,
  };
}

/** What one chunking gave: its chunks or what it threw. */
async function attempt(run: () => Chunk[] | Promise<Chunk[]>): Promise<{ chunks?: Chunk[]; error?: string }> {
  try {
    return { chunks: await run() };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

/** Options for {@link computeGolden}. */
export interface ComputeOptions {
  /** The token-level model late chunking needs (see {@link loadLateEmbedder}). */
  lateEmbedder?: OnnxEmbedder;
}

/** A strategy registered without golden settings: a loud error, so a new strategy gets them. */
export function missingSettings(): string[] {
  return strategies()
    .map((s) => s.name)
    .filter((n) => !GOLDEN_SETTINGS[n]);
}

/** The golden file of one strategy, computed now from `inputs`. */
export async function computeStrategy(strategy: string, inputs: GoldenInput[], options: ComputeOptions = {}): Promise<GoldenFile> {
  const settings = GOLDEN_SETTINGS[strategy];
  if (!settings) throw new Error(`strategy ${strategy} is registered but has no golden settings in test/helpers/golden.ts`);
  const runs: GoldenRun[] = [];
  for (const setting of settings) {
    for (const unit of UNITS) {
      const recorded = { unit, ...setting.options };
      const chunkerOptions = strategy === 'late' ? { ...recorded, embedder: options.lateEmbedder } : recorded;
      if (strategy === 'late' && !options.lateEmbedder) throw new Error('late chunking needs options.lateEmbedder');
      for (const input of inputs) {
        if (!inSet(setting.inputs, input.name)) continue;
        // the code strategy takes the language from the file name, as the CLI gives it
        const own = strategy === 'code' ? { ...recorded, filename: input.name.slice('code/'.length) } : recorded;
        const head = {
          input: input.name,
          setting: setting.name,
          options: own,
          sourceHash: hashText(input.text),
          length: input.text.length,
          ...(KNOWN_DEFECTS[input.name]?.[strategy] ? { knownDefects: KNOWN_DEFECTS[input.name][strategy] } : {}),
        };
        const result = await attempt(() => createChunker(strategy, strategy === 'code' ? own : chunkerOptions).chunk(input.text));
        runs.push(result.error !== undefined ? { ...head, error: result.error } : encodeRun(head, input.text, result.chunks!));
      }
    }
  }
  return { strategy, runs };
}

/** The QASC golden file: every query of {@link QASC_QUERIES} with QASC's defaults. */
export async function computeQasc(inputs: GoldenInput[]): Promise<GoldenFile> {
  const runs: GoldenRun[] = [];
  const qasc = new QueryAdaptiveChunker();
  for (const [name, queries] of Object.entries(QASC_QUERIES)) {
    const input = inputs.find((i) => i.name === name);
    if (!input) throw new Error(`QASC golden input ${name} is missing`);
    for (const query of queries) {
      const head = { input: name, setting: 'default', options: { query }, sourceHash: hashText(input.text), length: input.text.length };
      const result = await attempt(() => qasc.query(input.text, query));
      runs.push(result.error !== undefined ? { ...head, error: result.error } : encodeRun(head, input.text, result.chunks!));
    }
  }
  return { strategy: 'qasc', runs };
}

/** File name of a strategy's golden file. */
export const goldenFileName = (strategy: string) => join(goldenDir, `${strategy}.json`);

/**
 * JSON with one run header per line and one chunk row per line: small diffs in git, and
 * still plain JSON.
 */
export function serializeGolden(file: GoldenFile): string {
  const lines = [`{"strategy":${JSON.stringify(file.strategy)},"runs":[`];
  file.runs.forEach((run, r) => {
    const { chunks, ...head } = run;
    const headJson = JSON.stringify(head);
    const sep = r + 1 < file.runs.length ? ',' : '';
    if (!chunks) {
      lines.push(headJson + sep);
      return;
    }
    lines.push(headJson.slice(0, -1) + ',"chunks":[');
    chunks.forEach((row, i) => lines.push(JSON.stringify(row) + (i + 1 < chunks.length ? ',' : '')));
    lines.push(']}' + sep);
  });
  lines.push(']}');
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------- comparison

/** Tolerance for non-integer numbers (scores, thresholds) and for late vectors. */
const REL_TOL = 1e-9;
const VECTOR_TOL = 1e-4;

function numbersClose(a: number, b: number, tol: number): boolean {
  if (Object.is(a, b)) return true;
  if (Number.isInteger(a) && Number.isInteger(b)) return false;
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Deep equality with numbers compared by {@link numbersClose}. */
function close(a: unknown, b: unknown, tol = REL_TOL): boolean {
  if (typeof a === 'number' && typeof b === 'number') return numbersClose(a, b, tol);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i], tol));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return close(ka, kb) && ka.every((k) => close((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], tol));
  }
  return Object.is(a, b);
}

/** One chunk decoded from a row: the fields a golden file keeps. */
interface Decoded {
  start: number;
  end: number;
  index: number;
  tokenCount: number;
  metadata: Record<string, unknown>;
  embedText?: unknown;
  vector?: number[];
}

function decodeRows(run: GoldenRun): Decoded[] {
  return (run.chunks ?? []).map((row) => {
    const [start, end, index, tokenCount, values, ...rest] = row;
    const metadata: Record<string, unknown> = { ...run.common };
    run.keys!.forEach((k, i) => {
      if (values[i] !== null) metadata[k] = values[i];
    });
    const out: Decoded = { start, end, index, tokenCount, metadata };
    let col = 0;
    if (run.embedText) {
      const e = rest[col++];
      if (e !== null) out.embedText = e;
    }
    if (run.vector) out.vector = rest[col++] as number[];
    return out;
  });
}

const snippet = (source: string, start: number, end: number) => {
  const t = source.slice(start, end);
  return JSON.stringify(t.length > 60 ? `${t.slice(0, 28)}…${t.slice(-28)}` : t);
};

/** Readable lines for one decoded chunk that differs. */
function describeChunk(label: string, c: Decoded | undefined, source: string): string {
  if (!c) return `    ${label}: (none)`;
  return `    ${label}: #${c.index} [${c.start}, ${c.end}) tokens ${c.tokenCount} ${snippet(source, c.start, c.end)}`;
}

function fieldDiffs(e: Decoded, a: Decoded): string[] {
  const out: string[] = [];
  for (const f of ['start', 'end', 'index', 'tokenCount'] as const) if (e[f] !== a[f]) out.push(`${f} ${e[f]} → ${a[f]}`);
  const keys = new Set([...Object.keys(e.metadata), ...Object.keys(a.metadata)]);
  for (const k of keys) {
    if (!close(e.metadata[k], a.metadata[k])) out.push(`metadata.${k} ${JSON.stringify(e.metadata[k])} → ${JSON.stringify(a.metadata[k])}`);
  }
  if (!close(e.embedText, a.embedText)) out.push(`embedText ${JSON.stringify(e.embedText)?.slice(0, 80)} → ${JSON.stringify(a.embedText)?.slice(0, 80)}`);
  if ((e.vector || a.vector) && !close(e.vector, a.vector, VECTOR_TOL)) out.push(`vector differs by more than ${VECTOR_TOL}`);
  return out;
}

/**
 * How run `actual` differs from `expected` (same input and options), in a few readable
 * lines: the first differing chunk with both spans and text snippets, and how many more
 * differ. Empty when they agree.
 */
export function diffRun(expected: GoldenRun, actual: GoldenRun, source: string, maxChunks = 3): string[] {
  const where = `${expected.input} · ${expected.setting} ${JSON.stringify(expected.options)}`;
  const note = expected.knownDefects ? `  (known defects recorded on this input: ${expected.knownDefects})` : '';
  if (expected.sourceHash !== actual.sourceHash) return [`${where}: the input changed (hash ${expected.sourceHash} → ${actual.sourceHash}); re-record`];
  if (expected.error !== undefined || actual.error !== undefined) {
    return expected.error === actual.error ? [] : [`${where}: threw ${JSON.stringify(expected.error ?? null)} → ${JSON.stringify(actual.error ?? null)}${note}`];
  }
  const e = decodeRows(expected);
  const a = decodeRows(actual);
  const lines: string[] = [];
  let differing = 0;
  for (let i = 0; i < Math.max(e.length, a.length); i++) {
    const diffs = e[i] && a[i] ? fieldDiffs(e[i], a[i]) : ['missing'];
    if (diffs.length === 0) continue;
    differing++;
    if (differing > maxChunks) continue;
    lines.push(`  chunk ${i}: ${e[i] && a[i] ? diffs.join('; ') : e[i] ? 'no longer emitted' : 'new'}`);
    lines.push(describeChunk('expected', e[i], source), describeChunk('actual  ', a[i], source));
  }
  if (differing === 0) {
    if (expected.ids === actual.ids) return [];
    return [`${where}: the chunks are the same but their ids are not (digest ${expected.ids ?? 'not recorded'} → ${actual.ids}); re-record if the id scheme changed on purpose${note}`];
  }
  const more = differing > maxChunks ? `, ${differing - maxChunks} more not shown` : '';
  return [`${where}: ${e.length} → ${a.length} chunks, ${differing} differ${more}${note}`, ...lines];
}
