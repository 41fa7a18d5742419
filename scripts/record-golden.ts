/**
 * Records the golden outputs of every registered strategy (and QASC) into
 * `test/golden/<strategy>.json`: `npm run golden:record`. `test/golden.test.ts` recomputes
 * them and reports any difference; re-record only for a change you mean, and list it in
 * the commit. What is kept and how: `test/helpers/golden.ts`.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { strategies } from '../src/index.js';
import {
  computeQasc,
  computeStrategy,
  goldenFileName,
  goldenInputs,
  loadLateEmbedder,
  missingSettings,
  serializeGolden,
  type GoldenFile,
} from '../test/helpers/golden.js';

const missing = missingSettings();
if (missing.length) throw new Error(`no golden settings for ${missing.join(', ')}: add them to GOLDEN_SETTINGS in test/helpers/golden.ts`);

const inputs = goldenInputs();
const late = await loadLateEmbedder();
let total = 0;
const write = (file: GoldenFile, ms: number) => {
  const path = goldenFileName(file.strategy);
  const json = serializeGolden(file);
  writeFileSync(path, json);
  total += json.length;
  const chunks = file.runs.reduce((n, r) => n + (r.chunks?.length ?? 0), 0);
  const errors = file.runs.filter((r) => r.error).length;
  console.log(`${relative(process.cwd(), path)}: ${file.runs.length} runs, ${chunks} chunks${errors ? `, ${errors} errors` : ''}, ${(json.length / 1024).toFixed(0)} KiB, ${ms.toFixed(0)} ms`);
};
try {
  for (const s of strategies()) {
    const t0 = performance.now();
    write(await computeStrategy(s.name, inputs, { lateEmbedder: late.embedder }), performance.now() - t0);
  }
  const t0 = performance.now();
  write(await computeQasc(inputs), performance.now() - t0);
} finally {
  await late.release();
}
console.log(`total ${(total / 1024 / 1024).toFixed(2)} MiB`);
