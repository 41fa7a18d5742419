/**
 * The full evaluation table (dev-only; `npm run eval`): every registered chunkwise
 * strategy and every peer (bench/peers.ts) at the report's settings (800/400, 400/200,
 * 400/0, 200/0 tokens of cl100k_base), one index over the four corpora of
 * ../shared/eval per row, the same embedder and k for all.
 *
 * Writes docs/evaluation-results.json, docs/evaluation-recall-iou.svg, and the tables
 * between the `<!-- results:start -->` / `<!-- results:end -->` markers of
 * docs/evaluation.md; prints the tables too.
 *
 *   npx tsx scripts/eval-all.ts [--embedder hashing] [--k 5] [--only fixed,langchain]
 * @module
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { chonkieRecursive, langchainRecursive, langchainToken, peerSpans, type Peer } from '../bench/peers.js';
import { repoRoot, sharedDir } from '../bench/util.js';
import {
  QascRetriever,
  evaluateRetriever,
  chunkerFromSpec,
  evaluateChunker,
  evaluateSpans,
  markdownTable,
  parseStrategySpec,
  perCorpusTable,
  recallIouSvg,
  resultsJson,
  strategyNames,
  type ReportRow,
} from '../src/index.js';
import { embeddingProgress, loadEmbedder, readCorpora, readQuestions } from '../src/node/index.js';

const SETTINGS: [number, number][] = [
  [800, 400],
  [400, 200],
  [400, 0],
  [200, 0],
];
/** Query-time strategies are evaluated as retrievers (hybrid QASC), not as chunk indexes. */
const QUERY_TIME = new Set(['qasc']);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const embedderSpec = arg('embedder', 'hashing');
  const k = Number(arg('k', '5'));
  const only = arg('only', '').split(',').filter(Boolean);
  const wanted = (name: string) => only.length === 0 || only.some((o) => name.includes(o));
  const evalDir = join(sharedDir, 'eval');
  const corpora = await readCorpora(['state_of_the_union', 'wikitexts', 'pubmed', 'finance'].map((c) => join(evalDir, 'corpora', `${c}.md`)));
  const questions = await readQuestions(join(evalDir, 'questions.csv'));
  const embedder = await loadEmbedder(embedderSpec);
  const rows: ReportRow[] = [];
  const skipped: string[] = [];
  const started = Date.now();
  const log = (row: ReportRow) => {
    const r = row.result;
    const t = r.timings!;
    process.stderr.write(
      `${row.strategy} ${row.size}/${row.overlap}: ${r.chunks} chunks, recall ${(r.overall.recall.mean * 100).toFixed(1)}, IoU ${(r.overall.iou.mean * 100).toFixed(2)} ` +
        `(chunk ${((t.chunkMs ?? 0) / 1000).toFixed(1)} s, embed ${((t.embedMs ?? 0) / 1000).toFixed(1)} s, retrieve ${(t.retrieveMs / 1000).toFixed(1)} s)\n`,
    );
  };

  for (const name of strategyNames()) {
    if (QUERY_TIME.has(name) || !wanted(name)) continue;
    for (const [size, overlap] of SETTINGS) {
      const spec = parseStrategySpec(`${name}:${size}:${overlap}`);
      let chunker;
      try {
        chunker = chunkerFromSpec(spec);
      } catch (error) {
        skipped.push(`${spec.spec}: ${(error as Error).message}`);
        continue;
      }
      const bar = embeddingProgress(spec.spec);
      const result = await evaluateChunker(chunker, corpora, questions, embedder, { name: spec.spec, k, onProgress: bar.update });
      bar.stop();
      const row = { result, strategy: `chunkwise ${name}`, size, overlap };
      rows.push(row);
      log(row);
    }
  }

  // QASC hybrid (SPEC section 2): candidates = the top 2k fixed-size pre-chunks, QASC inside them,
  // best k QASC chunks (by their best seed) retrieved. Adaptive windows (chosen on wikitexts,
  // docs/qasc.md); the paper's default fixed ±2 windows as a second row.
  if (wanted('qasc')) {
    const variants = [
      { label: 'chunkwise qasc hybrid (adaptive windows)', qasc: { window: 'adaptive' as const } },
      { label: 'chunkwise qasc hybrid (fixed ±2 windows)', qasc: {} },
    ];
    for (const variant of variants) {
      for (const [size, overlap] of SETTINGS.filter(([, o]) => o === 0)) {
        const t0 = performance.now();
        const retriever = await QascRetriever.build(corpora, {
          name: `qasc hybrid ${size}/${overlap}`,
          embedder,
          chunker: chunkerFromSpec(`fixed:${size}:${overlap}`),
          qasc: variant.qasc,
        });
        const chunkMs = performance.now() - t0;
        const result = await evaluateRetriever(retriever, questions, { k });
        result.chunks = retriever.index.chunkCount;
        result.timings = { chunkMs, retrieveMs: result.timings!.retrieveMs };
        const row = { result, strategy: variant.label, size, overlap };
        rows.push(row);
        log(row);
      }
    }
  }

  const peers: Peer[] = [];
  for (const [size, overlap] of SETTINGS) peers.push(langchainRecursive(size, overlap));
  for (const [size, overlap] of SETTINGS) peers.push(langchainToken(size, overlap));
  for (const [size, overlap] of SETTINGS) if (overlap === 0) peers.push(await chonkieRecursive(size));
  for (const peer of peers) {
    if (!wanted(peer.name)) continue;
    const t0 = performance.now();
    const mapping = await peerSpans(peer, corpora);
    const chunkMs = performance.now() - t0;
    const bar = embeddingProgress(`${peer.name} ${peer.size}/${peer.overlap}`);
    const result = await evaluateSpans(mapping.spans, questions, embedder, { name: peer.name, k, onProgress: bar.update });
    bar.stop();
    result.timings = { ...result.timings!, chunkMs };
    const { spans, ...counts } = mapping;
    result.notes = { ...counts, chunksFromLibrary: spans.length + counts.notFound };
    const row = { result, strategy: peer.name, size: peer.size, overlap: peer.overlap };
    rows.push(row);
    log(row);
  }

  const seconds = (Date.now() - started) / 1000;
  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${os.platform()} ${os.release()}, Node ${process.version}`;
  const mapRows = rows.filter((r) => r.result.notes);
  const mappingTable = [
    '| peer | size | overlap | chunks | offsets from library | exact search | ambiguous | repaired (U+FFFD/space trimmed) | out of order | not found |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...mapRows.map((r) => {
      const n = r.result.notes!;
      return `| ${r.strategy} | ${r.size} | ${r.overlap} | ${n.chunksFromLibrary} | ${n.fromLibrary} | ${n.exact} | ${n.ambiguous} | ${n.repaired} | ${n.outOfOrder} | ${n.notFound} |`;
    }),
  ].join('\n');
  const timingTable = [
    '| strategy | size | overlap | chunking s | embedding s | retrieval s |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const t = r.result.timings!;
      return `| ${r.strategy} | ${r.size} | ${r.overlap} | ${((t.chunkMs ?? 0) / 1000).toFixed(1)} | ${((t.embedMs ?? 0) / 1000).toFixed(1)} | ${(t.retrieveMs / 1000).toFixed(2)} |`;
    }),
  ].join('\n');
  const md = [
    `Run: \`npm run eval\` (${new Date().toISOString().slice(0, 10)}; embedder \`${embedderSpec}\`; k = ${k}; ${questions.length} questions over ${corpora.length} corpora; ${seconds.toFixed(0)} s in total on ${machine}).`,
    '',
    'Means ± population standard deviations over all questions, in percent. Sizes and overlaps in cl100k_base tokens; "mean chunk tokens" counted with cl100k_base on the indexed text.',
    '',
    markdownTable(rows),
    '',
    '![Recall against IoU](evaluation-recall-iou.svg)',
    '',
    '#### Per corpus (means, recall / precision / IoU %)',
    '',
    perCorpusTable(rows),
    '',
    '#### Mapping peers\' chunk texts back to offsets',
    '',
    mappingTable,
    '',
    '#### Time per row (chunking all corpora, embedding the chunks, retrieving for all questions)',
    '',
    timingTable,
    ...(skipped.length ? ['', 'Skipped (the strategy refused these options):', '', ...skipped.map((s) => `- ${s}`)] : []),
  ].join('\n');
  process.stdout.write(md + '\n');

  if (only.length === 0) {
    const docs = join(repoRoot, 'docs');
    writeFileSync(join(docs, 'evaluation-results.json'), resultsJson(rows, { perQuestion: false }) + '\n');
    writeFileSync(join(docs, 'evaluation-recall-iou.svg'), recallIouSvg(rows, { title: `Recall against IoU — ${embedderSpec} embedder, k = ${k}, ${questions.length} questions` }) + '\n');
    const docPath = join(docs, 'evaluation.md');
    if (existsSync(docPath)) {
      const doc = readFileSync(docPath, 'utf8');
      const re = /(<!-- results:start -->\n)[\s\S]*?(<!-- results:end -->)/;
      if (re.test(doc)) writeFileSync(docPath, doc.replace(re, (_m, a: string, b: string) => `${a}${md}\n${b}`));
    }
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
