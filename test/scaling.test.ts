/**
 * Linear time, counted (issue 16, "Superlinear paths"): every registered strategy ×
 * every pathological kind (test/helpers/pathological.ts) at three sizes n, 2n, 4n, and
 * the work of each call counted, not timed — tokenizer calls and characters,
 * `Intl.Segmenter` calls and their cost (characters × segments iterated), characters
 * scanned by regular expressions, the packer's steps, grapheme windows, each chunker's
 * own Work counters (`chunk(text, { work })`, test/helpers/work.ts). No counter may grow more than
 * 2.2× per doubling of the input (by the ratio of its increments and by its last plain
 * ratio: see `incrementGrowth`). Timings go to bench/scaling.bench.ts.
 *
 * A cell with a known defect in code another engineer owns runs as `it.fails` with the
 * owner and the reason (see KNOWN), so it flips to a regular test the day it is fixed.
 * The checker itself is tested against a known quadratic path (one `Intl.Segmenter` call
 * over the whole text) and synthetic counts, so this file cannot pass by measuring
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategies, strategyDefinition, type StrategyDefinition } from '../src/strategies/index.js';
import type { TokenEmbedder } from '../src/embedders/types.js';
import { loadLateEmbedder } from './helpers/golden.js';
import { kindsFor, pathologicalKind } from './helpers/pathological.js';
import { countIntl, incrementGrowth, measureWork, type WorkEnvironment, type WorkRun } from './helpers/work.js';

/** The most a counter may grow per doubling. */
const MAX_GROWTH = 2.2;

/**
 * The budget every strategy gets here (its `budget.size` option; parents of parent–child
 * four times it): small, so that the sizes below hold many chunks and the packer,
 * splitters and windows run in their steady state rather than around "it all fits".
 */
const BUDGET = 64;

/** Options for `def` in this test: the small budget on its budget option. */
function budgetOptions(def: StrategyDefinition): Record<string, unknown> {
  const o: Record<string, unknown> = { [def.budget?.size ?? 'chunkSize']: BUDGET };
  if (def.name === 'parent-child') o.parentSize = 4 * BUDGET;
  return o;
}

/**
 * The smallest of the three sizes n, 2n, 4n per strategy, in UTF-16 code units: above
 * the engine's window sizes (512-character grapheme windows, 4,096-character sentence
 * windows, 768-character late-chunking slices) so a window that grows with the text
 * shows, and small enough for the whole file to stay near a minute on a loaded machine.
 */
const BASE_SIZE: Readonly<Record<string, number>> = { markdown: 2_500, 'cluster-semantic': 2_500 };
const DEFAULT_BASE = 4_000;
/**
 * Late chunking's base for every kind: its own work is the document pass (1,250 is past
 * the 768-character slice from the second size on) and its spans come from fixed-size
 * windows, which have none of the thresholds of {@link KIND_BASE}; the 64-token fixture
 * model makes each character costly.
 */
const LATE_BASE = 1_250;

/**
 * Kinds made of a large repeated block (`kind.block`) start at whole blocks: 2 of the
 * block quotes (the first sentence of the text differs) and of the nested Python `if`s
 * (the code chunker's tokens per character still rise from 1 to 2 blocks, 4.1 → 5.1, and
 * level off at 6.6 from 8 blocks on: linear, but 1, 2, 4 blocks read ×2.21), 1 of the others.
 */
const FIRST_BLOCKS: Readonly<Record<string, number>> = { 'deep-quotes': 2, 'py-deep-indent': 2 };
/**
 * The smallest base of kinds with a threshold: a long sentence past the 4,096-character
 * sentence window at the second size, a run of whitespace longer than several chunks —
 * below these the counters measure where a threshold is crossed, not how work grows.
 */
const KIND_BASE: Readonly<Record<string, number>> = { 'long-sentence': 8_000, 'whitespace-runs': 8_000 };
/**
 * Kinds left out here: the 250 KB block, and 10 KB lines of `>` for late chunking (each `>` is a token of the 64-token fixture model: 2,600 model calls per 60 KB), measured in bench/scaling.bench.ts only;
 * and for late chunking the CR-only lines and unspaced Chinese (3–4 s each with the fixture model; its spans are fixed-size windows, which neither shape reaches).
 */
const BENCH_ONLY: Readonly<Record<string, readonly string[]>> = { 'nested-lists-500': ['*'], 'deep-quotes': ['late'], 'cr-lines': ['late'], 'unspaced-cjk-words': ['late'] };

/**
 * Cells with a known defect in code this suite does not own: `strategy/kind` → owner and
 * reason. They run as `it.fails`.
 */
const KNOWN: Readonly<Record<string, string>> = {};

let env: WorkEnvironment = {};
let release: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const late = await loadLateEmbedder();
  env = { tokenEmbedder: late.embedder as TokenEmbedder };
  release = () => late.release();
});
afterAll(async () => {
  await release?.();
});

/** The counters that grew more than MAX_GROWTH per doubling over the runs (n, 2n, 4n), as `name w₁ → w₂ → w₃ (×growth)`. */
function superlinear(runs: readonly WorkRun[]): string[] {
  const out: string[] = [];
  const chars = runs.map((r) => r.chars);
  for (const k of Object.keys(runs[runs.length - 1].counts)) {
    const w = runs.map((r) => r.counts[k] ?? 0);
    const g = incrementGrowth(w, chars);
    if (g > MAX_GROWTH) out.push(`${k} ${w.join(' → ')} (×${g.toFixed(2)} per doubling)`);
  }
  return out;
}

describe('the checker', () => {
  it('sees a quadratic path: one Intl.Segmenter call over the whole text', () => {
    const runs = [4_000, 8_000, 16_000].map((n) => {
      const text = pathologicalKind('long-word').make(n);
      const { work, restore } = countIntl();
      try {
        for (const _ of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text));
      } finally {
        restore();
      }
      return { chars: text.length, chunks: 0, ms: 0, counts: { intlCost: work.cost, intlCalls: work.calls } } satisfies WorkRun;
    });
    expect(runs[2].counts.intlCost / runs[1].counts.intlCost).toBeCloseTo(4, 1);
    expect(superlinear(runs)).toEqual([expect.stringMatching(/^intlCost .*\(×4\.00 per doubling\)/)]);
  });

  it('passes linear work with a constant part, fails quadratic work with one', () => {
    const chars = [4_000, 8_000, 16_000];
    const run = (f: (n: number) => number) => chars.map((n) => ({ chars: n, chunks: 0, ms: 0, counts: { w: f(n) } }));
    expect(superlinear(run((n) => 50_000 + 3 * n))).toEqual([]); // a constant part
    expect(superlinear(run((n) => Math.max(0, 3 * n - 10_000)))).toEqual([]); // a threshold crossed below 4,000
    expect(superlinear(run((n) => (n < 6_000 ? 2 * n : 2 * n + 9_000)))).toEqual([]); // a step between the first two sizes
    expect(superlinear(run((n) => n * Math.log2(n)))).toEqual([]);
    expect(superlinear(run((n) => 50_000 + (n * n) / 100))).toEqual([expect.stringMatching(/^w /)]);
    expect(superlinear(run((n) => (n * n) / 100 + 100 * n))).toEqual([expect.stringMatching(/^w /)]); // quadratic beside a linear part
  });

  it('counts work in every strategy: tokenizer calls, and the engine counters where they apply', async () => {
    for (const def of strategies()) {
      // the code strategy's kinds are source code in a named language
      const kind = pathologicalKind(def.name === 'code' ? 'js-many-functions' : 'huge-paragraph');
      const run = await measureWork(def, kind.make(4_000), env, { ...kind.options });
      expect(run.chunks, def.name).toBeGreaterThan(0);
      expect(run.counts.sizerCalls, def.name).toBeGreaterThan(0);
    }
    const recursive = await measureWork(strategyDefinition('recursive')!, pathologicalKind('long-word').make(4_000), env);
    expect(recursive.counts.graphemeChars).toBeGreaterThanOrEqual(4_000);
    expect(recursive.counts.graphemeChars).toBeLessThan(4_400); // windows overlap by one cluster
    // token units: the last resort packs runs of graphemes that end on a token boundary
    // ('a' × 4,000 is about 500 cl100k tokens), one step per run, not per grapheme
    expect(recursive.counts.packSteps).toBeGreaterThan(250);
    expect(recursive.counts.packSteps).toBeLessThan(1_000);
    expect(recursive.counts['work.operations']).toBeGreaterThan(250);
    const sentence = await measureWork(strategyDefinition('sentence')!, pathologicalKind('huge-paragraph').make(4_000), env);
    expect(sentence.counts.intlCalls).toBeGreaterThan(0);
    expect(sentence.counts.regexChars).toBeGreaterThan(0);
  });
});

describe('paths made linear here', () => {
  it('semantic: the short-piece merge (minChunkSize) resumes where it merged instead of searching from the first piece', async () => {
    // identical lines: no break, one group of the whole text, cut into pieces of which every
    // one is short and none can be merged (minChunkSize = maxChunkSize): the old merge
    // searched from the first piece again after each one (0.9 s, 2.7 s, 5.9 s, 32 s for
    // 50k–400k characters)
    const def = strategyDefinition('semantic')!;
    const runs: WorkRun[] = [];
    for (const n of [8_000, 16_000, 32_000]) {
      runs.push(await measureWork(def, pathologicalKind('a-lines').make(n), env, { unit: 'char', maxChunkSize: 64, minChunkSize: 64 }));
    }
    expect(runs[2].counts['work.mergeSteps']).toBeGreaterThan(runs[2].chunks - 1);
    expect(runs[2].counts['work.mergeSteps']).toBeLessThan(4 * runs[2].chunks);
    expect(superlinear(runs)).toEqual([]);
  });
});

for (const def of strategies()) {
  describe(`${def.name}: work per doubling of the input ≤ ${MAX_GROWTH}×`, () => {
    for (const kind of kindsFor(def.name)) {
      const benchOnly = BENCH_ONLY[kind.name];
      if (benchOnly && (benchOnly.includes('*') || benchOnly.includes(def.name))) continue;
      const known = KNOWN[`${def.name}/${kind.name}`];
      const test = known ? it.fails : it;
      test(`${kind.name}${known ? ` (known defect: ${known.slice(0, known.indexOf(':'))})` : ''}`, async () => {
        const base = Math.max(
          (kind.block ?? 0) * (FIRST_BLOCKS[kind.name] ?? 1),
          def.name === 'late' ? LATE_BASE : Math.max(KIND_BASE[kind.name] ?? 0, BASE_SIZE[def.name] ?? DEFAULT_BASE),
        );
        const runs: WorkRun[] = [];
        for (const n of [base, 2 * base, 4 * base]) runs.push(await measureWork(def, kind.make(n), env, { ...kind.options, ...budgetOptions(def) }));
        expect(runs[2].chars / runs[0].chars).toBeGreaterThan(3.5);
        expect(superlinear(runs)).toEqual([]);
      });
    }
  });
}
