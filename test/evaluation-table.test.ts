/**
 * The committed evaluation (docs/evaluation.md, docs/evaluation-results.json, written by
 * `npm run eval`) must match what the code computes now. Re-running the whole table takes
 * minutes, so this recomputes the cheap rows — chunkwise fixed, sliding and recursive and
 * their baseline, LangChain's RecursiveCharacterTextSplitter, at every setting, with the
 * hashing embedder over all four corpora — and requires their table lines, per-corpus
 * lines and JSON entries to be in the committed files exactly. A change that moves these
 * numbers fails here until `npm run eval` is run and its output committed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASELINE, SETTINGS, evaluationData, evaluationRows } from '../scripts/eval-all.js';
import { HashingEmbedder } from '../src/index.js';
import { markdownTable, perCorpusTable, resultsJson, type ReportRow } from '../src/evaluation/index.js';
import { repoRoot } from './helpers/paths.js';

const CHEAP = new Set(['fixed', 'sliding', 'recursive', BASELINE]);

let rows: ReportRow[];
beforeAll(async () => {
  const { corpora, questions } = await evaluationData();
  ({ rows } = await evaluationRows({ label: 'hashing', embedder: new HashingEmbedder(), corpora, questions, wanted: (name) => CHEAP.has(name), progress: false }));
}, 120_000);

/** The hashing section of the committed results block. */
function hashingSection(): string {
  const doc = readFileSync(join(repoRoot, 'docs', 'evaluation.md'), 'utf8');
  const block = /<!-- results:start -->\n([\s\S]*?)<!-- results:end -->/.exec(doc)?.[1] ?? '';
  const start = block.indexOf('### Embedder: hashing');
  const end = block.indexOf('### Embedder:', start + 1);
  expect(start, 'docs/evaluation.md has no hashing section between the results markers').toBeGreaterThanOrEqual(0);
  return block.slice(start, end < 0 ? undefined : end);
}

const body = (table: string) => table.split('\n').slice(2); // without the header and the rule

describe('the committed evaluation table matches the code (cheap rows, hashing embedder)', () => {
  it('computed the rows it should: 3 strategies and the baseline at 4 settings, compared with the baseline', () => {
    expect(rows.map((r) => `${r.strategy} ${r.size}/${r.overlap}`)).toEqual([
      ...['chunkwise sliding', 'chunkwise fixed', 'chunkwise recursive', BASELINE].flatMap((s) => SETTINGS.map(([a, b]) => `${s} ${a}/${b}`)),
    ]);
    for (const r of rows) expect(r.comparison === undefined).toBe(r.strategy === BASELINE);
  });

  it('every main-table and per-corpus line of these rows is in docs/evaluation.md as it is', () => {
    const section = hashingSection().split('\n');
    for (const line of [...body(markdownTable(rows)), ...body(perCorpusTable(rows))]) {
      expect(section, `docs/evaluation.md is stale (run npm run eval and commit): missing\n${line}`).toContain(line);
    }
  });

  it('their entries in docs/evaluation-results.json are equal', () => {
    const committed = JSON.parse(readFileSync(join(repoRoot, 'docs', 'evaluation-results.json'), 'utf8')) as Array<Record<string, unknown>>;
    const fresh = JSON.parse(resultsJson(rows, { perQuestion: false, timings: false })) as Array<Record<string, unknown>>;
    for (const f of fresh) {
      const c = committed.find((x) => x.embedder === 'hashing' && x.strategy === f.strategy && x.size === f.size && x.overlap === f.overlap && x.name === f.name);
      expect(c, `docs/evaluation-results.json lacks ${f.strategy} ${f.size}/${f.overlap}`).toBeDefined();
      expect(c).toEqual(f);
    }
  });
});
