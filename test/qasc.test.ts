import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as reference from '../src/kernels/reference.js';
import { planQasc, QueryAdaptiveChunker, resolveQascParams, WASM_QASC_KERNELS, type QascKernels } from '../src/strategies/qasc/qasc.js';
import { QascIndex } from '../src/strategies/qasc/qasc-index.js';
import { paragraphBreaks, sentenceSpans } from '../src/engine/boundaries/sentence-spans.js';
import { InvalidInputError, InvalidOptionError } from '../src/engine/errors.js';
import { texts, textsDir } from './helpers/paths.js';
import { getKernels } from '../bindings/index.js';
import { WasmMatrix } from '../src/engine/wasm-matrix.js';
import { StubEmbedder } from './helpers/stub-embedders.js';
import { getTokenizer } from '../src/engine/size/tokens.js';

/**
 * Worked example. 12 sentences in 3 paragraphs (breaks before sentences 0, 4, 8 and at 12);
 * the stub gives sentence k the unit vector [sim_k, √(1 − sim_k²)] and the query [1, 0], so
 * cos = sim_k:
 *
 *   k     0     1     2     3  |  4    5    6    7  |  8    9    10   11
 *   sim −0.2  −0.3   0.7  −0.4 | −0.3  0.1  0.2  0.6 | 0.8  0.3  0.0  0.1
 *
 * Step 2: sorted −0.4 −0.3 −0.3 −0.2 0.0 0.1 0.1 0.2 0.3 0.6 0.7 0.8; p = 75:
 *   h = 11·0.75 = 8.25 → x8 + 0.25·(x9 − x8) = 0.3 + 0.25·0.3 = 0.375 = τ.
 *   Seeds (sim ≥ τ): 2 (0.7), 7 (0.6), 8 (0.8).
 * Step 3 (m = 2): windows [0, 5), [5, 10), [6, 11).
 * Step 4 (λ = 0.5): α = 1, e^−0.5 = 0.6065307, e^−1 = 0.3678794, e^−1.5 = 0.2231302 at distance 0, 1, 2, 3;
 *   Σα = 1 + 2·0.6065307 + 2·0.3678794 = 2.9488202.
 *   S(2) = (−0.2·0.36788 − 0.3·0.60653 + 0.7 − 0.4·0.60653 − 0.3·0.36788)/2.94882 = 0.0914890/2.94882 = 0.0310256
 *   S(7) = (0.1·0.36788 + 0.2·0.60653 + 0.6 + 0.8·0.60653 + 0.3·0.36788)/2.94882 = 1.3536824/2.94882 = 0.4590591
 *   S(8) = (0.2·0.36788 + 0.6·0.60653 + 0.8 + 0.3·0.60653 + 0.0·0.36788)/2.94882 = 1.4194535/2.94882 = 0.4813637
 *   keep rule S ≥ κ·τ = 0.6·0.375 = 0.225: window 2 dropped, 7 and 8 kept.
 * Step 5: [5, 10) ∪ [6, 11) = [5, 11), seeds 7, 8. Snapping (alignDistance 2): lo 5 is no break;
 *   at distance 1 the break 4 lies outward → lo 4. hi 11 is no break; at distance 1 inward 10 is
 *   no break, outward 12 is → hi 12. Chunk = sentences [4, 12).
 * Step 6: S over [4, 12), α from the nearest seed (7 or 8): distances 3 2 1 0 0 1 2 3:
 *   num = −0.3·0.22313 + 0.1·0.36788 + 0.2·0.60653 + 0.6 + 0.8 + 0.3·0.60653 + 0.0·0.36788 + 0.1·0.22313 = 1.6954272
 *   den = 2·(0.22313 + 0.36788 + 0.60653) + 2 = 4.3950805 → S = 0.3857557
 *   (the best window's S, 0.4813637, would rank this 8-sentence chunk above its own mean).
 * Without snapping the chunk is [5, 11): distances 2 1 0 0 1 2:
 *   (0.1·0.36788 + 0.2·0.60653 + 0.6 + 0.8 + 0.3·0.60653 + 0)/(2·(0.36788 + 0.60653) + 2) = 1.7400532/3.9488202 = 0.4406514.
 */
const SIMS = [-0.2, -0.3, 0.7, -0.4, -0.3, 0.1, 0.2, 0.6, 0.8, 0.3, 0.0, 0.1];
const sentence = (k: number) => `Sentence ${k} here.`;
const DOC = [0, 4, 8].map((p) => [0, 1, 2, 3].map((i) => sentence(p + i)).join(' ')).join('\n\n');
const stub = () =>
  new StubEmbedder(2, (t) => {
    const m = /^Sentence (\d+)/.exec(t);
    if (!m) return [1, 0]; // the query
    const s = SIMS[Number(m[1])];
    return [s, Math.sqrt(1 - s * s)];
  });
const flags = (n: number, on: number[]) => {
  const f = new Uint8Array(n);
  for (const i of on) f[i] = 1;
  return f;
};

describe('QASC step by step (hand-computed worked example)', () => {
  const kernels: Array<[string, QascKernels]> = [
    ['wasm', WASM_QASC_KERNELS],
    ['reference', reference as unknown as QascKernels],
  ];
  it.each(kernels)('planQasc with %s kernels: τ, seeds, windows, α-weighted S, keep rule, merge, snapping, S over the chunk', (_, k) => {
    const sims = Float32Array.from(SIMS);
    const breaks = flags(13, [0, 4, 8, 12]);
    const plan = planQasc(sims, breaks, { m: 2 }, k);
    expect(plan.tau).toBeCloseTo(0.375, 6);
    expect(plan.seeds).toEqual([2, 7, 8]);
    expect(plan.windows.map((w) => [w.seed, w.lo, w.hi, w.kept])).toEqual([
      [2, 0, 5, false],
      [7, 5, 10, true],
      [8, 6, 11, true],
    ]);
    expect(plan.windows[0].score).toBeCloseTo(0.0310256, 5);
    expect(plan.windows[1].score).toBeCloseTo(0.4590591, 5);
    expect(plan.windows[2].score).toBeCloseTo(0.4813637, 5);
    expect(plan.spans).toHaveLength(1);
    expect(plan.spans[0]).toMatchObject({ lo: 4, hi: 12, seeds: [7, 8], mergedLo: 5, mergedHi: 11 });
    expect(plan.spans[0].score).toBeCloseTo(0.3857557, 5);
    // without snapping the merged range stays [5, 11), S over it
    const unsnapped = planQasc(sims, breaks, { m: 2, alignDistance: 0 }, k).spans;
    expect(unsnapped.map((s) => [s.lo, s.hi])).toEqual([[5, 11]]);
    expect(unsnapped[0].score).toBeCloseTo(0.4406514, 5);
  });

  it('adaptive windows grow outward from the seed while the next sim ≥ τ₂ (50th percentile), up to maxRadius: narrower than ±m where the neighbours are weak', () => {
    // τ₂: h = 11·0.5 = 5.5 → x5 + 0.5·(x6 − x5) = 0.1 + 0 = 0.1.
    // seed 2: left sim1 = −0.3 < 0.1, right sim3 = −0.4 < 0.1 → [2, 3) (the fixed window is [0, 5)); S = 0.7.
    // seed 7: left 6 (0.2), 5 (0.1), stop at 4 (−0.3); right 8 (0.8), 9 (0.3), stop at 10 (0.0) → [5, 10); S as S(7) above.
    // seed 8: left 7, 6, 5, stop at 4; right 9, stop at 10 → [5, 10);
    //   S = (0.1·e^−1.5 + 0.2·e^−1 + 0.6·e^−0.5 + 0.8 + 0.3·e^−0.5)/(e^−1.5 + e^−1 + 2·e^−0.5 + 1) = 1.4417665/2.8040715 = 0.5141691.
    // All kept (≥ 0.225). Chunks: [2, 3) with S 0.7, and [5, 10) (seeds 7, 8; distances 2 1 0 0 1):
    //   (0.1·0.36788 + 0.2·0.60653 + 0.6 + 0.8 + 0.3·0.60653)/(0.36788 + 2·0.60653 + 2) = 1.7400532/3.5809408 = 0.4859207.
    // No breaks at all (not even at the ends): snapping moves nothing.
    const sims = Float32Array.from(SIMS);
    const breaks = new Uint8Array(13);
    const plan = planQasc(sims, breaks, { window: 'adaptive' });
    expect(plan.tau2).toBeCloseTo(0.1, 6);
    expect(plan.windows.map((w) => [w.seed, w.lo, w.hi, w.kept])).toEqual([
      [2, 2, 3, true],
      [7, 5, 10, true],
      [8, 5, 10, true],
    ]);
    expect(plan.windows[0].score).toBeCloseTo(0.7, 6);
    expect(plan.windows[1].score).toBeCloseTo(0.4590591, 5);
    expect(plan.windows[2].score).toBeCloseTo(0.5141691, 5);
    expect(plan.spans.map((s) => [s.lo, s.hi, s.seeds])).toEqual([
      [2, 3, [2]],
      [5, 10, [7, 8]],
    ]);
    expect(plan.spans[1].score).toBeCloseTo(0.4859207, 5);
    // maxRadius 1: seed 7 reaches 6 and 8 only → [6, 9)
    expect(planQasc(sims, breaks, { window: 'adaptive', maxRadius: 1 }).windows[1]).toMatchObject({ lo: 6, hi: 9 });
    // m plays no part in adaptive windows
    expect(planQasc(sims, breaks, { window: 'adaptive', m: 4 }).windows.map((w) => [w.lo, w.hi])).toEqual(plan.windows.map((w) => [w.lo, w.hi]));
  });

  it('snapping: never cuts off a seed; chunks that snapping makes adjacent are merged', () => {
    // sims with seeds 1 and 6: sorted 0 0 0.1 0.1 0.1 0.1 0.9 0.9, h = 7·0.75 = 5.25 → τ = 0.1 + 0.25·0.8 = 0.3
    const sims = Float32Array.from([0.1, 0.9, 0.1, 0.0, 0.0, 0.1, 0.9, 0.1]);
    // m = 1: windows [0, 3) and [5, 8). Breaks at 0, 3, 4, 8: [0, 3) is on breaks; lo 5 → 4 (outward, distance 1)
    const plan = planQasc(sims, Uint8Array.from([1, 0, 0, 1, 1, 0, 0, 0, 1]), { m: 1 });
    expect(plan.seeds).toEqual([1, 6]);
    expect(plan.spans.map((s) => [s.lo, s.hi]).sort()).toEqual([[0, 3], [4, 8]]);
    // breaks at 0, 4, 8: hi 3 → 4 (inward 2 is no break, outward 4 is), lo 5 → 4: the two chunks touch → one chunk
    const merged = planQasc(sims, Uint8Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1]), { m: 1 });
    expect(merged.spans.map((s) => [s.lo, s.hi, s.seeds])).toEqual([[0, 8, [1, 6]]]);
    // m = 0, seed 1's window [1, 2): no break at 0, and the break at 2 lies past the seed → lo stays 1
    const plan2 = planQasc(sims, Uint8Array.from([0, 0, 1, 0, 0, 0, 0, 0, 0]), { m: 0 });
    expect(plan2.spans.find((s) => s.seeds.includes(1))).toMatchObject({ lo: 1, hi: 2 });
  });

  it('a chunk never ends on a heading', () => {
    // seeds 1 and 6 as above; sentence 3 is a heading (the next section's title), sentence 4 too
    const sims = Float32Array.from([0.1, 0.9, 0.1, 0.0, 0.0, 0.1, 0.9, 0.1]);
    const breaks = Uint8Array.from([1, 0, 0, 1, 0, 0, 0, 0, 1]);
    // m = 2: windows [0, 4) and [4, 8) touch → [0, 8); no heading at its end: kept whole
    expect(planQasc(sims, { breaks, headings: flags(8, [3]) }, { m: 2 }).spans.map((s) => [s.lo, s.hi])).toEqual([[0, 8]]);
    // m = 1, alignDistance 0: [0, 3) and [5, 8); with sentence 2 a heading, [0, 3) ends before it
    const plan = planQasc(sims, { breaks, headings: flags(8, [2]) }, { m: 1, alignDistance: 0 });
    expect(plan.spans.map((s) => [s.lo, s.hi]).sort()).toEqual([[0, 2], [5, 8]]);
    // a chunk of headings only is dropped: the seed 6 itself a heading, m = 0
    const only = planQasc(sims, { breaks, headings: flags(8, [6]) }, { m: 0, alignDistance: 0 });
    expect(only.spans.map((s) => [s.lo, s.hi])).toEqual([[1, 2]]);
  });

  it('maxChunkSize: an over-long chunk is split at its weakest boundary, recursively; pieces without a seed are dropped', () => {
    // sims 0.8 0.6 0.1 0.2 0.7 0.9, 10 tokens each, breaks at the ends only.
    // τ: sorted 0.1 0.2 0.6 0.7 0.8 0.9, h = 5·0.75 = 3.75 → 0.7 + 0.75·0.1 = 0.775; seeds 0, 5.
    // m = 2: windows [0, 3) (S = (0.8 + 0.6·0.60653 + 0.1·0.36788)/1.9744101 = 0.6081338) and
    //   [3, 6) (S = (0.2·0.36788 + 0.7·0.60653 + 0.9)/1.9744101 = 0.7081338), both ≥ 0.6·0.775 = 0.465;
    //   they touch → [0, 6), 60 tokens.
    // maxChunkSize 30: nearest-seed α = 1 0.60653 0.36788 0.36788 0.60653 1,
    //   ρ = α·sim = 0.8 0.3639184 0.0367879 0.0735759 0.4245715 0.9,
    //   boundary weights (ρ_{b−1} + ρ_b)/2 for b = 1…5: 0.5819592 0.2003532 0.0551819 0.2490737 0.6622858
    //   → split at 3: [0, 3) and [3, 6), 30 tokens each.
    const sims = Float32Array.from([0.8, 0.6, 0.1, 0.2, 0.7, 0.9]);
    const st = { breaks: flags(7, [0, 6]), tokens: Int32Array.from([10, 10, 10, 10, 10, 10]) };
    expect(planQasc(sims, st, { m: 2, maxChunkSize: 60 }).spans.map((s) => [s.lo, s.hi, s.tokenCount])).toEqual([[0, 6, 60]]);
    const p30 = planQasc(sims, st, { m: 2, maxChunkSize: 30 });
    expect(p30.spans.map((s) => [s.lo, s.hi, s.seeds, s.tokenCount])).toEqual([
      [3, 6, [5], 30],
      [0, 3, [0], 30],
    ]);
    expect(p30.spans[0].score).toBeCloseTo(0.7081338, 5);
    expect(p30.spans[1].score).toBeCloseTo(0.6081338, 5);
    // maxChunkSize 25: [0, 3) splits at 2 (0.2003532 < 0.5819592) → [0, 2) and [2, 3) (no seed: dropped);
    //   [3, 6) at 4 (0.2490737 < 0.6622858) → [3, 4) (dropped) and [4, 6).
    //   S([0, 2)) = (0.8 + 0.6·0.60653)/1.60653 = 0.7244918; S([4, 6)) = (0.7·0.60653 + 0.9)/1.60653 = 0.8244918
    const p25 = planQasc(sims, st, { m: 2, maxChunkSize: 25 });
    expect(p25.spans.map((s) => [s.lo, s.hi])).toEqual([
      [4, 6],
      [0, 2],
    ]);
    expect(p25.spans[0].score).toBeCloseTo(0.8244918, 5);
    expect(p25.spans[1].score).toBeCloseTo(0.7244918, 5);
    // maxChunkSize 5: down to the seed sentences, each over the budget alone: kept, flagged
    const p5 = planQasc(sims, st, { m: 2, maxChunkSize: 5 });
    expect(p5.spans.map((s) => [s.lo, s.hi, s.oversized])).toEqual([
      [5, 6, true],
      [0, 1, true],
    ]);
    // the exact count decides when given: an estimate of 60 that really is 61 tokens is split
    const exact = planQasc(sims, { ...st, countTokens: (lo: number, hi: number) => 10 * (hi - lo) + (hi - lo > 1 ? 1 : 0) }, { m: 2, maxChunkSize: 60 });
    expect(exact.spans.map((s) => [s.lo, s.hi, s.tokenCount])).toEqual([
      [3, 6, 31],
      [0, 3, 31],
    ]);
  });

  it('minSimilarity: an absolute floor for seeds next to the percentile', () => {
    const sims = Float32Array.from(SIMS);
    const breaks = flags(13, [0, 4, 8, 12]);
    // τ = 0.375 as above; floor 0.65 leaves seeds 2 and 8 (7 has 0.6); S(2) stays < 0.225 → only seed 8's window [6, 11)
    const plan = planQasc(sims, breaks, { m: 2, minSimilarity: 0.65, alignDistance: 0 });
    expect(plan.seeds).toEqual([2, 8]);
    expect(plan.spans.map((s) => [s.lo, s.hi, s.seeds])).toEqual([[6, 11, [8]]]);
    // a floor above every sim: no seeds, no chunks
    expect(planQasc(sims, breaks, { m: 2, minSimilarity: 0.9 }).spans).toEqual([]);
    expect(() => resolveQascParams({ minSimilarity: 2 })).toThrow(/minSimilarity: 2/);
  });

  it('QueryAdaptiveChunker: chunk offsets, explain, ranking by S', async () => {
    const qasc = new QueryAdaptiveChunker({ embedder: stub(), m: 2, explain: true });
    const chunks = await qasc.query(DOC, 'the query');
    expect(chunks).toHaveLength(1);
    const [c] = chunks;
    // sentences [4, 12): the second and third paragraphs
    expect(c.text).toBe(DOC.slice(DOC.indexOf(sentence(4)), DOC.length));
    expect(c.text).toBe(DOC.slice(c.start, c.end));
    expect(c.metadata).toMatchObject({ strategy: 'qasc', seeds: [7, 8], sentenceStart: 4, sentenceEnd: 12, unitCount: 8 });
    expect(c.metadata.score).toBeCloseTo(0.3857557, 5);
    expect(c.tokenCount).toBe(getTokenizer('cl100k_base').count(c.text));
    const ex = c.metadata.explain!;
    expect(ex.tau).toBeCloseTo(0.375, 5);
    expect(ex.keepThreshold).toBeCloseTo(0.225, 5);
    expect(ex.mergedRange).toEqual([5, 11]);
    expect(ex.windows.map((w) => w.seed)).toEqual([7, 8]);
    expect(ex.seedSims[0]).toBeCloseTo(0.6, 5);
    // tokens in the configured encoding
    const o200k = await new QueryAdaptiveChunker({ embedder: stub(), m: 2, encoding: 'o200k_base' }).query(DOC, 'the query');
    expect(o200k[0].tokenCount).toBe(getTokenizer('o200k_base').count(o200k[0].text));
  });

  it('empty text, one sentence and bad parameters', async () => {
    const qasc = new QueryAdaptiveChunker({ embedder: stub(), m: 2 });
    expect(await qasc.query('', 'q')).toEqual([]);
    const one = await qasc.query(sentence(2), 'q');
    expect(one.map((c) => c.text)).toEqual([sentence(2)]);
    expect(() => resolveQascParams({ p: 101 })).toThrow(InvalidOptionError);
    expect(() => resolveQascParams({ m: 1.5 })).toThrow(/Invalid option m: 1.5/);
    expect(() => resolveQascParams({ lambda: -1 })).toThrow(/lambda/);
    expect(() => resolveQascParams({ window: 'wide' as never })).toThrow(/window/);
    expect(() => resolveQascParams({ maxChunkSize: 0 })).toThrow(/maxChunkSize: 0/);
    expect(() => resolveQascParams({ alignDistance: -1 })).toThrow(/alignDistance/);
    expect(() => new QueryAdaptiveChunker({ locale: 'not a tag' })).toThrow(/locale/);
    expect(() => new QueryAdaptiveChunker({ encoding: 'p50k' })).toThrow(/encoding/);
    await expect(qasc.query(DOC, 5 as never)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(qasc.query(null as never, 'q')).rejects.toBeInstanceOf(InvalidInputError);
  });
});

describe('QASC with HashingEmbedder on the Dutch QASC note (texts/nl-qasc.txt)', () => {
  const text = readFileSync(texts.nlQasc, 'utf8');
  const query = 'wat is de latentie van QASC?';
  const latency = '• Latentie: QASC maakt elke vraag trager';

  it('the latency question (m = 1): the latency bullet comes second, with its context; the closing section first', async () => {
    const chunks = await new QueryAdaptiveChunker({ m: 1, locale: 'nl' }).query(text, query);
    // Reported, not hidden: the closing section ("6. Praktische toepasbaarheid", which names
    // QASC and "de extra latentie") is one paragraph with a high S (0.159); the latency
    // bullet's windows merge with the bullets around it into a longer chunk of lower S (0.122)
    expect(chunks[0].text.startsWith('6. Praktische toepasbaarheid\n\nVoor wie QASC')).toBe(true);
    expect(chunks[0].text).toContain('de extra latentie');
    const best = chunks[1];
    expect(best.text).toContain(latency);
    expect(best.text).toBe(text.slice(best.start, best.end));
    // not an isolated sentence: the bullets before it (computation per query, memory) and after it (the model)
    expect(best.metadata.sentenceEnd - best.metadata.sentenceStart).toBeGreaterThanOrEqual(4);
    expect(best.text).toContain('Rekenwerk per vraag');
    expect(best.text).toContain('Geheugen');
    expect(best.text).toContain('Afhankelijkheid van het model');
    // snapped: it starts at the first bullet of its section, after the heading and the bullet's indent
    expect(text.slice(0, best.start)).toMatch(/\n4\. Kosten en beperkingen:\n\n {3}$/);
    console.log(`QASC latency chunk (m = 1): sentences [${best.metadata.sentenceStart}, ${best.metadata.sentenceEnd}), S = ${best.metadata.score.toFixed(3)}, ${best.text.length} chars`);
  });

  it('locale auto (the default) segments the Dutch text as nl does', async () => {
    const auto = new QueryAdaptiveChunker({ m: 1 });
    expect((await auto.prepare(text)).locale).toBe('nl');
    expect(await auto.query(text, query)).toEqual(await new QueryAdaptiveChunker({ m: 1, locale: 'nl' }).query(text, query));
  });

  it('over eight Dutch questions no chunk ends on a heading, and none exceeds maxChunkSize', async () => {
    const questions = [
      query,
      'hoe worden zaadzinnen geselecteerd?',
      'wat is de geaggregeerde relevantiescore?',
      'hoe worden vensters samengevoegd?',
      'hoeveel geheugen kost QASC?',
      'welke waarde heeft de vervalfactor lambda?',
      'wat is het probleem met chunking van vaste grootte?',
      'wanneer is een hybride opzet zinvol?',
    ];
    for (const maxChunkSize of [512, 120]) {
      const qasc = new QueryAdaptiveChunker({ maxChunkSize });
      const doc = await qasc.prepare(text);
      for (const q of questions) {
        const chunks = await qasc.queryPrepared(doc, q);
        expect(chunks.length).toBeGreaterThan(0);
        for (const c of chunks) {
          expect(doc.headings[c.metadata.sentenceEnd - 1]).toBe(0);
          expect(c.tokenCount).toBe(getTokenizer('cl100k_base').count(c.text));
          if (!c.metadata.oversized) expect(c.tokenCount).toBeLessThanOrEqual(maxChunkSize);
          else expect(c.metadata.unitCount).toBe(1);
        }
      }
    }
    // the headings the text has: section titles such as "4. Grenzen en samenvoegen:"
    const doc = await new QueryAdaptiveChunker().prepare(text);
    const titles = Array.from(doc.headings.keys()).filter((i) => doc.headings[i]).map((i) => text.slice(doc.sentences.starts[i], doc.sentences.ends[i]));
    expect(titles).toContain('4. Grenzen en samenvoegen:');
    expect(titles).toContain('5. Betekenis en toepassing');
    expect(titles.some((t) => t.includes(latency))).toBe(false);
  });

  it('minSimilarity: a nonsense query finds seeds by the percentile alone, none with a floor', async () => {
    const nonsense = 'zzzz qqqq xxxx';
    expect((await new QueryAdaptiveChunker().query(text, nonsense)).length).toBeGreaterThan(0);
    // measured: the hashing embedder gives this query sims of at most 0.122 against this text, the latency question 0.441
    expect(await new QueryAdaptiveChunker({ minSimilarity: 0.15 }).query(text, nonsense)).toEqual([]);
    expect((await new QueryAdaptiveChunker({ minSimilarity: 0.15 }).query(text, query)).length).toBeGreaterThan(0);
  });

  it('with the defaults (m = 1) the latency passage is in the top two', async () => {
    const chunks = await new QueryAdaptiveChunker({ locale: 'nl' }).query(text, query);
    const at = chunks.findIndex((c) => c.text.includes(latency));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThanOrEqual(1);
    expect(chunks[0].text).toContain('latentie');
  });
});

describe('QascIndex (hybrid mode)', () => {
  it('finds the passage in the right document among many, with offsets into it', async () => {
    const docs = [texts.nlSliding, texts.nlStrategies, texts.nlQasc, texts.frSliding, texts.enSliding].map((f) => basename(f));
    const read = (name: string) => readFileSync(join(textsDir, name), 'utf8');
    const index = new QascIndex({ qasc: { m: 1 }, explain: true });
    for (const s of docs) await index.addDocument(s, read(s));
    expect(index.documentCount).toBe(5);
    expect(index.chunkCount).toBeGreaterThan(10);
    const results = await index.query('wat is de latentie van QASC?', { topK: 3 });
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      expect(r.documentId).toBe('nl-qasc.txt');
      expect(r.text).toBe(read(r.documentId).slice(r.start, r.end));
      expect(r.candidates.length).toBeGreaterThan(0);
    }
    // fused (the default): the latency bullet's seed (0.440) and its pre-chunk (0.191) give
    // 0.632 against the closing section's 0.294 + 0.246 = 0.539; by S (rank: 'score') the
    // closing section comes first (0.159 against 0.135)
    expect(results.findIndex((r) => r.text.includes('380 ms'))).toBe(0);
    expect(results.map((r) => r.index)).toEqual(results.map((_, i) => i));
    // ranked by the best seed's plus the best candidate's similarity (rank: 'fused', the default); by S with rank: 'score'
    for (let i = 1; i < results.length; i++) {
      expect(results[i].seedScore + results[i].candidateScore).toBeLessThanOrEqual(results[i - 1].seedScore + results[i - 1].candidateScore);
    }
    const byScore = await new QascIndex({ qasc: { m: 1 }, rank: 'score' });
    for (const s of docs) await byScore.addDocument(s, read(s));
    const scored = await byScore.query('wat is de latentie van QASC?', { topK: 3 });
    for (let i = 1; i < scored.length; i++) expect(scored[i].metadata.score).toBeLessThanOrEqual(scored[i - 1].metadata.score);
    expect(scored.findIndex((r) => r.text.includes('380 ms'))).toBe(1);
    expect(new Set(scored.map((r) => r.id))).toEqual(new Set(results.map((r) => r.id)));
    const bySeed = new QascIndex({ qasc: { m: 1 }, rank: 'seed' });
    for (const s of docs) await bySeed.addDocument(s, read(s));
    const seeded = await bySeed.query('wat is de latentie van QASC?', { topK: 3 });
    expect(seeded[0].text).toContain('380 ms');
    for (let i = 1; i < seeded.length; i++) expect(seeded[i].seedScore).toBeLessThanOrEqual(seeded[i - 1].seedScore);
    expect((await index.query('latentie', { topK: 3, maxResults: 1 })).length).toBe(1);
  });

  it('ranks by the best seed plus the best candidate (fused), by the seed alone, or by S: hand-computed', async () => {
    /*
     * Two documents of four sentences, one pre-chunk each (the whole document); the stub
     * gives a text the unit vector [c, √(1 − c²)] and the query [1, 0], so cos = c:
     *   A: sentences 0.9 0.1 0.1 0.1, its pre-chunk 0.2;  B: sentences 0.8 0.7 0.1 0.1, its pre-chunk 0.6.
     * τ over the 8 candidate sentences (sorted 0.1 ×5, 0.7, 0.8, 0.9; p = 75): h = 7·0.75 = 5.25
     *   → 0.7 + 0.25·(0.8 − 0.7) = 0.725. Seeds: A0 (0.9), B0 (0.8); B1 (0.7) is below τ.
     * Windows (m = 2) [0, 3), S = (0.9 + 0.1·e^−0.5 + 0.1·e^−1)/(1 + e^−0.5 + e^−1) = 0.5051843 (A) and
     *   (0.8 + 0.7·0.6065307 + 0.1·0.3678794)/1.9744101 = 0.6388538 (B), both ≥ κ·τ = 0.435; each end
     *   snaps to the document's end (break 4, one boundary out): chunks [0, 4).
     * S over [0, 4), seed 0, α = 1, 0.6065307, 0.3678794, 0.2231302 (Σ 2.1975403):
     *   A (0.9 + 0.1·1.1975403)/2.1975403 = 0.4640434; B (0.8 + 0.7·0.6065307 + 0.1·0.5910096)/2.1975403 = 0.5841406.
     * fused: A 0.9 + 0.2 = 1.1, B 0.8 + 0.6 = 1.4 → B, A.  seed: A (0.9), B (0.8).  score: B, A.
     */
    const sims: Record<string, number> = {};
    const doc = (name: string, values: number[], chunk: number) => {
      const sentences = ['one', 'two', 'three', 'four'].map((w) => `${name} ${w} is here.`);
      sentences.forEach((t, i) => (sims[t] = values[i]));
      const text = sentences.join(' ');
      sims[text] = chunk;
      return text;
    };
    const a = doc('Alpha', [0.9, 0.1, 0.1, 0.1], 0.2);
    const b = doc('Beta', [0.8, 0.7, 0.1, 0.1], 0.6);
    const embedder = () => new StubEmbedder(2, (t) => (t in sims ? [sims[t], Math.sqrt(1 - sims[t] ** 2)] : [1, 0]));
    const ranked = async (rank?: 'fused' | 'seed' | 'score') => {
      const index = new QascIndex({ embedder: embedder(), locale: 'en', qasc: { m: 2 }, ...(rank ? { rank } : {}) });
      await index.addDocument('A', a, [{ start: 0, end: a.length }]);
      await index.addDocument('B', b, [{ start: 0, end: b.length }]);
      return index.query('the query', { topK: 2 });
    };
    const fused = await ranked();
    expect(fused.map((r) => [r.documentId, r.metadata.sentenceStart, r.metadata.sentenceEnd, r.metadata.seeds])).toEqual([
      ['B', 0, 4, [0]],
      ['A', 0, 4, [0]],
    ]);
    expect(fused.map((r) => r.seedScore)).toEqual([expect.closeTo(0.8, 6), expect.closeTo(0.9, 6)]);
    expect(fused.map((r) => r.candidateScore)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.2, 6)]);
    expect(fused.map((r) => r.metadata.score)).toEqual([expect.closeTo(0.5841406, 6), expect.closeTo(0.4640434, 6)]);
    expect(fused.map((r) => r.index)).toEqual([0, 1]);
    expect((await ranked('fused')).map((r) => r.id)).toEqual(fused.map((r) => r.id));
    expect((await ranked('seed')).map((r) => r.documentId)).toEqual(['A', 'B']);
    expect((await ranked('score')).map((r) => r.documentId)).toEqual(['B', 'A']);
  });

  it('takes pre-chunked spans and rejects bad input', async () => {
    const index = new QascIndex({ embedder: stub(), qasc: { m: 2 } });
    await index.addDocument('doc', DOC, [
      { start: 0, end: DOC.indexOf(sentence(4)) },
      { start: DOC.indexOf(sentence(4)), end: DOC.length },
    ]);
    expect(index.chunkCount).toBe(2);
    // both candidates: same sentences and τ as the whole-document worked example
    const r = await index.query('the query', { topK: 2 });
    expect(r.map((c) => [c.metadata.sentenceStart, c.metadata.sentenceEnd, c.metadata.seeds])).toEqual([[4, 12, [7, 8]]]);
    expect(r[0].metadata.score).toBeCloseTo(0.3857557, 5);
    expect(r[0].seedScore).toBeCloseTo(0.8, 5);
    expect(() => new QascIndex({ rank: 'best' as never })).toThrow(/rank/);
    await expect(index.addDocument('doc', 'again')).rejects.toThrow(/unique/);
    await expect(index.addDocument('x', 'abc', [{ start: 0, end: 10 }])).rejects.toBeInstanceOf(InvalidInputError);
    await expect(index.query('q', { topK: 0 })).rejects.toBeInstanceOf(InvalidOptionError);
    expect(await new QascIndex().query('anything')).toEqual([]);
  });
});

describe('WasmMatrix', () => {
  it('cosine equals the reference, and matrices leave nothing allocated in the shared kernels', async () => {
    const d = 5;
    const data = Float32Array.from({ length: 7 * d }, (_, i) => Math.sin(i * 1.3) * (i % 7 === 3 ? 0 : 1));
    const m = new WasmMatrix(data, d);
    const q = Float32Array.from([0.3, -1, 2, 0.5, 0]);
    const got = m.cosine(q);
    const want = reference.cosineMatVec(data, d, q);
    for (let i = 0; i < 7; i++) expect(got[i]).toBeCloseTo(want[i], 6);
    const before = getKernels().allocatedBytes;
    const qasc = new QueryAdaptiveChunker({ embedder: stub() });
    for (let k = 0; k < 5; k++) await qasc.query(`${DOC}\n\nSentence ${k % 12} again.`, 'q');
    expect(getKernels().allocatedBytes).toBe(before);
  });
});

describe('sentence spans and paragraph breaks', () => {
  it('trims whitespace and flags blank lines and headings', () => {
    const t = '# Title\nFirst one. Second one.\n\nThird one.\n = Wiki = \nFourth.';
    const s = sentenceSpans(t);
    const texts = Array.from({ length: s.count }, (_, i) => t.slice(s.starts[i], s.ends[i]));
    expect(texts).toEqual(['# Title', 'First one.', 'Second one.', 'Third one.', '= Wiki =', 'Fourth.']);
    expect([...paragraphBreaks(t, s)]).toEqual([1, 0, 0, 1, 1, 0, 1]);
  });
});
