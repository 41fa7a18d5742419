/**
 * How QASC hybrid's ranking and candidates-per-result were chosen (dev-only; docs/qasc.md,
 * "Hybrid mode choices"): fixed 200/0 against QASC hybrid (adaptive windows) over fixed
 * 200/0 pre-chunks on eval/, k = 5, for rank ∈ {seed, fused} × candidates ∈
 * {1k … 6k}, once per embedder (hashing, GloVe). Prints per variant the IoU ratio and the
 * recall difference to fixed 200/0 (points, paired bootstrap 95 % interval, 10,000
 * resamples, seed 1), overall and per corpus (the choice is made on wikitexts).
 *
 *   npx tsx scripts/qasc-variants.ts [--embedder hashing|glove] [--candidates 1,2,3,4,5,6]
 * @module
 */
import { pathToFileURL } from 'node:url';
import { EMBEDDERS, arg, evaluationData } from './eval-all.js';
import { QascRetriever, chunkerFromSpec, evaluateChunker, evaluateRetriever, pairedBootstrap, type EvaluationResult, type Retriever } from '../src/evaluation/index.js';
import { loadEmbedder } from '../src/node/index.js';

const points = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;

/** One line: overall IoU × and recall Δ [CI] against `base`, then the same per corpus. */
function line(label: string, r: EvaluationResult, base: EvaluationResult): string {
  const ci = pairedBootstrap(
    r.perQuestion.map((q) => q.recall),
    base.perQuestion.map((q) => q.recall),
  );
  const perCorpus = Object.entries(r.perCorpus).map(([c, s]) => {
    const b = base.perCorpus[c];
    return `${c} IoU × ${(s.iou.mean / b.iou.mean).toFixed(2)} recall ${points(s.recall.mean - b.recall.mean)}`;
  });
  return `${label}: IoU ${(r.overall.iou.mean * 100).toFixed(2)} % (× ${(r.overall.iou.mean / base.overall.iou.mean).toFixed(2)}), recall ${(r.overall.recall.mean * 100).toFixed(1)} % (${points(ci.mean)} [${points(ci.low)}, ${points(ci.high)}]); ${perCorpus.join('; ')}`;
}

async function main(): Promise<void> {
  const only = arg('embedder');
  const multiples = (arg('candidates') ?? '1,2,3,4,5,6').split(',').map(Number);
  const { corpora, questions } = await evaluationData();
  const k = 5;
  for (const e of EMBEDDERS) {
    if (only && e.label !== only) continue;
    const embedder = await loadEmbedder(e.spec);
    const base = await evaluateChunker(chunkerFromSpec('fixed:200:0'), corpora, questions, embedder, { name: 'fixed 200/0', k });
    console.log(`${e.label} ${line('fixed 200/0', base, base)}`);
    for (const rank of ['seed', 'fused'] as const) {
      const { index } = await QascRetriever.build(corpora, { embedder, rank, chunker: chunkerFromSpec('fixed:200:0'), qasc: { window: 'adaptive' } });
      for (const c of multiples) {
        const retriever: Retriever = {
          name: `qasc ${rank} ${c}k`,
          retrieve: async (q, n) => (await index.query(q, { topK: c * n, maxResults: n })).map((x) => ({ corpusId: x.documentId, start: x.start, end: x.end })),
        };
        console.log(`${e.label} ${line(retriever.name, await evaluateRetriever(retriever, questions, { k }), base)}`);
      }
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
