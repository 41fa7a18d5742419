/**
 * By hand (too slow for the test suite): chunks a generated 1 GB file with the CLI's
 * stream path and prints peak RSS, time and throughput, for docs/streaming.md.
 *
 *   npm run build && npx tsx scripts/stream-1gb.ts [MB=1000] [unit=word]
 *
 * The file is /tmp/chunkwise-stream-<MB>mb.txt (kept for reruns; delete it after).
 * @module
 */
import { bigFile, runCliOnFile } from './stream-big.js';

const mb = Number(process.argv[2] ?? 1000);
const unit = process.argv[3] ?? 'word';
const file = bigFile(mb);
const args = ['--strategy', 'fixed', '--unit', unit, '--chunk-size', '512', '--chunk-overlap', '64'];
if (unit !== 'token') args.push('--no-token-count');
const run = await runCliOnFile(file, args);
console.log(`chunkwise chunk ${file} ${args.join(' ')}`);
console.log(
  `${(run.bytes / 1e6).toFixed(0)} MB: peak RSS ${run.peakRssMb.toFixed(0)} MB, ${run.seconds.toFixed(1)} s wall, ${run.cpuSeconds.toFixed(1)} s CPU, ${run.mbPerSec.toFixed(1)} MB/s, ${run.chunks} chunks, last end ${run.lastEnd}`,
);
