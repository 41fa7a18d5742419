/**
 * The rule that chooses the defaults (docs/evaluation.md, "How the strategies' defaults are
 * chosen"; scripts/defaults-sweep.ts) and the peer-point dominance of `npm run eval`
 * (scripts/eval-all.ts), on hand-made scores.
 */
import { describe, expect, it } from 'vitest';
import { chooseByRule, type CellScore } from '../scripts/defaults-sweep.js';
import { dominanceTable, dominatingRows } from '../scripts/eval-all.js';
import type { EvaluationResult, ReportRow } from '../src/evaluation/index.js';

const c = (recall: number, iou: number): CellScore => ({ recall, iou });

describe('chooseByRule', () => {
  const baselines = [c(0.6, 0.05), c(0.5, 0.02)];

  it('takes the highest geometric mean of IoU ÷ baseline among settings whose recall is not below the baseline in every cell', () => {
    const choice = chooseByRule(
      [
        [c(0.61, 0.06), c(0.5, 0.03)], // ratios 1.2, 1.5 → √1.8 = 1.342
        [c(0.59, 0.1), c(0.6, 0.04)], // recall −1 point in cell 0: not eligible at d = 0
        [c(0.7, 0.07), c(0.55, 0.025)], // 1.4, 1.25 → √1.75 = 1.323
      ],
      baselines,
    );
    expect(choice.tolerance).toBe(0);
    expect(choice.chosen).toBe(0);
    expect(choice.iouRatio[0]).toBeCloseTo(Math.sqrt(1.8), 12);
    expect(choice.lowestRecallDelta.map((x) => Math.round(x * 10) / 10)).toEqual([0, -1, 5]);
  });

  it('raises the tolerance a whole point at a time until a setting is eligible', () => {
    const choice = chooseByRule(
      [
        [c(0.585, 0.1), c(0.5, 0.02)], // −1.5 points: eligible at d = 2
        [c(0.575, 0.2), c(0.5, 0.02)], // −2.5 points: needs d = 3
      ],
      baselines,
    );
    expect(choice.tolerance).toBe(2);
    expect(choice.chosen).toBe(0);
  });

  it('gives ties (to three decimals) to the current default', () => {
    const same = [c(0.6, 0.05), c(0.5, 0.02)];
    expect(chooseByRule([same, same, same], baselines).chosen).toBe(0);
    expect(chooseByRule([same, same, same], baselines, 2).chosen).toBe(2);
    expect(chooseByRule([same, [c(0.6, 0.05001), c(0.5, 0.02)]], baselines, 0).chosen).toBe(0);
  });

  it('refuses settings without a score per cell', () => {
    expect(() => chooseByRule([[c(0.6, 0.05)]], baselines)).toThrow(/1 scores for 2 cells/);
    expect(() => chooseByRule([], baselines)).toThrow(/no settings/);
  });
});

/** A row whose per-question recall and IoU are the given arrays. */
function row(strategy: string, embedder: string, recall: number[], iou: number[]): ReportRow {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const ms = (xs: number[]) => ({ mean: mean(xs), std: 0 });
  const result = {
    name: strategy,
    k: 5,
    overall: { questions: recall.length, recall: ms(recall), precision: ms(iou), iou: ms(iou) },
    perCorpus: {},
    perQuestion: recall.map((r, i) => ({ recall: r, precision: iou[i], iou: iou[i] })),
  } as unknown as EvaluationResult;
  return { result, strategy, size: 200, overlap: 0, embedder };
}

describe('dominatingRows', () => {
  const n = 40;
  const ramp = (base: number, step: number) => Array.from({ length: n }, (_, i) => base + step * (i % 4));
  const peer = 'peer P';
  const rows = [
    row(peer, 'a', ramp(0.5, 0.1), ramp(0.05, 0.01)),
    row(peer, 'b', ramp(0.4, 0.1), ramp(0.04, 0.01)),
    // dominates with both: recall equal, IoU × 1.3+ on every question
    row('chunkwise x', 'a', ramp(0.5, 0.1), ramp(0.07, 0.01)),
    row('chunkwise x', 'b', ramp(0.4, 0.1), ramp(0.06, 0.01)),
    // higher IoU but lower recall with embedder b
    row('chunkwise y', 'a', ramp(0.5, 0.1), ramp(0.1, 0.01)),
    row('chunkwise y', 'b', ramp(0.3, 0.1), ramp(0.1, 0.01)),
  ];

  it('picks the configuration that dominates with every embedder, with its ratios and intervals', () => {
    const [r] = dominatingRows(rows, [[peer, 200, 0]]);
    expect(r.config).toBe('chunkwise x 200/0');
    expect(r.dominates).toBe(true);
    expect(r.comparisons.map((x) => x.embedder)).toEqual(['a', 'b']);
    // IoU means: peer a 0.065, x a 0.085; peer b 0.055, x b 0.075
    expect(r.comparisons[0].iouRatio).toBeCloseTo(0.085 / 0.065, 12);
    expect(r.comparisons[1].iouRatio).toBeCloseTo(0.075 / 0.055, 12);
    // a constant difference of 0.02 per question: every resample's mean is 0.02
    expect(r.comparisons[0].iou.low).toBeCloseTo(0.02, 12);
    expect(r.comparisons[0].recall.mean).toBeCloseTo(0, 12);
    expect(dominanceTable([r])).toContain('| peer P 200/0 | chunkwise x 200/0 | 0.0 [0.0, 0.0] | 1.31× | +2.00 [+2.00, +2.00] | 0.0 [0.0, 0.0] | 1.36× | +2.00 [+2.00, +2.00] | yes |');
  });

  it('names the closest configuration and the embedder where it fails when none dominates', () => {
    const [r] = dominatingRows(
      rows.filter((x) => x.strategy !== 'chunkwise x'),
      [[peer, 200, 0]],
    );
    expect(r.config).toBe('chunkwise y 200/0');
    expect(r.dominates).toBe(false);
    expect(dominanceTable([r])).toMatch(/\| \*\*no\*\* \(b\) \|$/);
  });
});
