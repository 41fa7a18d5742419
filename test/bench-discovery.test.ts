import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchRunners, discoverBenchFiles } from '../bench/run.js';
import { repoRoot } from './helpers/paths.js';

describe('npm run bench discovers the suites', () => {
  const dir = join(repoRoot, 'bench');

  it('finds every bench/*.bench.ts, and each exports at least one run…Bench function', async () => {
    const files = discoverBenchFiles(dir);
    expect(files).toEqual(expect.arrayContaining(['chunkers.bench.ts', 'embedders.bench.ts', 'kernels.bench.ts']));
    expect(files).toEqual([...files].sort());
    for (const f of files) {
      const mod = (await import(join(dir, f))) as Record<string, unknown>;
      expect(benchRunners(mod).length, f).toBeGreaterThan(0);
    }
    expect(discoverBenchFiles(dir, ['kern'])).toEqual(['kernels.bench.ts']);
  }, 60_000);

  it('takes only exported functions named run…Bench', () => {
    const f = async () => '';
    const names = benchRunners({ runXBench: f, runBench: f, runKernelBench: f, runKernelBenchmark: f, helperBench: f, runYBench: 3 }).map(([n]) => n);
    expect(names).toEqual(['runXBench', 'runBench', 'runKernelBench']);
  });
});
