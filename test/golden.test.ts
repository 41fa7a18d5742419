/**
 * Golden outputs (issue 11, "how to keep it safe"): every registered strategy × unit ×
 * setting on the corpora, Markdown chapters, `texts/` and `test/golden/fixtures`, plus QASC
 * on fixed queries, recomputed and compared with `test/golden/*.json` (ids left out: see
 * `test/helpers/golden.ts`). A difference is reported per input and chunk with both spans
 * and text snippets. After a change you mean: `npm run golden:record`, and list the
 * change with its reason in the commit.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategies } from '../src/index.js';
import {
  computeQasc,
  computeStrategy,
  diffRun,
  goldenFileName,
  goldenInputs,
  loadLateEmbedder,
  missingSettings,
  type GoldenFile,
  type GoldenInput,
  type GoldenRun,
} from './helpers/golden.js';

/** Each strategy takes 0.3–5 s on an idle machine; the margin is for a machine shared with other jobs. */
const SLOW = 240_000;

let inputs: GoldenInput[];
let late: Awaited<ReturnType<typeof loadLateEmbedder>>;
beforeAll(async () => {
  inputs = goldenInputs();
  late = await loadLateEmbedder();
});
afterAll(async () => {
  await late?.release();
});

const runKey = (r: GoldenRun) => `${r.input} · ${r.setting} ${JSON.stringify(r.options)}`;

/** Every difference between a recorded file and a fresh computation, as readable lines. */
function compare(expected: GoldenFile, actual: GoldenFile): string[] {
  const sources = new Map(inputs.map((i) => [i.name, i.text]));
  const recorded = new Map(expected.runs.map((r) => [runKey(r), r]));
  const fresh = new Map(actual.runs.map((r) => [runKey(r), r]));
  const problems: string[][] = [];
  for (const [key, run] of fresh) {
    const before = recorded.get(key);
    if (!before) problems.push([`${key}: not recorded (re-record to add it)`]);
    else {
      const d = diffRun(before, run, sources.get(run.input) ?? '');
      if (d.length) problems.push(d);
    }
  }
  for (const key of recorded.keys()) if (!fresh.has(key)) problems.push([`${key}: recorded but no longer computed`]);
  if (problems.length === 0) return [];
  const shown = problems.slice(0, 8).flat();
  return [`${expected.strategy}: ${problems.length} of ${fresh.size} runs differ from ${goldenFileName(expected.strategy)}`, ...shown, ...(problems.length > 8 ? [`… and ${problems.length - 8} more runs`] : [])];
}

function readGolden(strategy: string): GoldenFile {
  const path = goldenFileName(strategy);
  if (!existsSync(path)) throw new Error(`no golden file for strategy ${strategy}: run npm run golden:record`);
  return JSON.parse(readFileSync(path, 'utf8')) as GoldenFile;
}

function expectSame(expected: GoldenFile, actual: GoldenFile): void {
  const lines = compare(expected, actual);
  if (lines.length) throw new Error(lines.join('\n'));
}

describe('golden outputs', () => {
  it('every registered strategy has golden settings', () => {
    expect(missingSettings(), 'add them to GOLDEN_SETTINGS in test/helpers/golden.ts, then npm run golden:record').toEqual([]);
  });

  for (const { name } of strategies()) {
    it(`${name}: every unit and setting equals the recorded output`, async () => {
      const expected = readGolden(name);
      expectSame(expected, await computeStrategy(name, inputs, { lateEmbedder: late.embedder }));
    }, SLOW);
  }

  it('qasc: fixed queries on a seed and a corpus equal the recorded output', async () => {
    expectSame(readGolden('qasc'), await computeQasc(inputs));
  });

  it('a difference is reported by input and chunk with spans and snippets, not as an object dump', () => {
    const source = 'alpha beta gamma delta';
    const run = (rows: GoldenRun['chunks']): GoldenRun => ({
      input: 'fixtures/x.txt',
      setting: 'tiny',
      options: { unit: 'word' },
      sourceHash: 'h',
      length: source.length,
      common: { strategy: 'fixed', unit: 'word' },
      keys: ['unitCount'],
      chunks: rows,
    });
    const lines = diffRun(run([[0, 10, 0, 2, [2]], [11, 22, 1, 2, [2]]]), run([[0, 10, 0, 2, [2]], [6, 22, 1, 3, [3]]]), source);
    expect(lines[0]).toBe('fixtures/x.txt · tiny {"unit":"word"}: 2 → 2 chunks, 1 differ');
    expect(lines[1]).toBe('  chunk 1: start 11 → 6; tokenCount 2 → 3; metadata.unitCount 2 → 3');
    expect(lines[2]).toBe('    expected: #1 [11, 22) tokens 2 "gamma delta"');
    expect(lines[3]).toBe('    actual  : #1 [6, 22) tokens 3 "beta gamma delta"');
    expect(diffRun(run([[0, 10, 0, 2, [2]]]), run([[0, 10, 0, 2, [2]]]), source)).toEqual([]);
    // the same chunks with other ids: reported by their digest
    const withIds = (ids: string) => ({ ...run([[0, 10, 0, 2, [2]]]), ids });
    expect(diffRun(withIds('aaaa'), withIds('aaaa'), source)).toEqual([]);
    expect(diffRun(withIds('aaaa'), withIds('bbbb'), source)).toEqual([
      'fixtures/x.txt · tiny {"unit":"word"}: the chunks are the same but their ids are not (digest aaaa → bbbb); re-record if the id scheme changed on purpose',
    ]);
  });
});
