/**
 * The child process of bench/scaling.bench.ts: one fresh process per strategy ×
 * pathological kind. It is sent the cell and its sizes, smallest first, and answers one
 * message per size: the work counters, wall and CPU time of the call (`measureWork`,
 * test/helpers/work.ts) and the process's peak RSS so far (`process.resourceUsage().maxRSS`:
 * the sizes run smallest first, so each figure is the peak up to and with that size).
 * The parent kills the process when a run takes too long (a synchronous chunker cannot
 * be interrupted in its own thread) and when the cell is done.
 *
 * Message in: `{ strategy, kind, sizes }`; out, per size: `{ ok: true, run, peakRssMb }`
 * or `{ ok: false, error }` (then nothing more). One small run first warms the process (lazy
 * loads, JIT) and is not reported. First message out: `{ ready: true, rssMb }`
 * (the process's RSS once the modules are loaded).
 * @module
 */
import { optionProblem } from '../src/engine/options/schema.js';
import { strategyDefinition } from '../src/strategies/index.js';
import type { TokenEmbedder } from '../src/embedders/types.js';
import { loadLateEmbedder } from '../test/helpers/golden.js';
import { pathologicalKind } from '../test/helpers/pathological.js';
import { measureWork, type WorkEnvironment } from '../test/helpers/work.js';

/** A request of the parent: one cell, its sizes smallest first. */
export interface ScalingRequest {
  strategy: string;
  kind: string;
  sizes: number[];
}

/** A strategy whose `embedder` option rejects a plain embedder needs the token-level fixture model (late chunking). */
function needsTokenEmbedder(strategy: string): boolean {
  const spec = strategyDefinition(strategy)?.schema.options.embedder;
  return !!spec && optionProblem(spec, { dimension: 1, embed: async () => new Float32Array(1) }) !== undefined;
}

async function environment(strategy: string): Promise<WorkEnvironment> {
  if (!needsTokenEmbedder(strategy)) return {};
  const late = await loadLateEmbedder();
  process.once('exit', () => void late.release());
  return { tokenEmbedder: late.embedder as TokenEmbedder };
}

const mb = (kb: number) => kb / 1024;

process.once('message', (msg: ScalingRequest) => {
  void (async () => {
    try {
      const def = strategyDefinition(msg.strategy);
      if (!def) throw new Error(`no strategy ${msg.strategy}`);
      const kind = pathologicalKind(msg.kind);
      const env = await environment(msg.strategy);
      // warm: the first call loads what loads lazily (WASM, the code strategy's grammar) and compiles the hot paths
      await measureWork(def, kind.make(Math.min(msg.sizes[0], 4_000)), env, { ...kind.options });
      for (const n of msg.sizes) {
        const text = kind.make(n);
        const run = await measureWork(def, text, env, { ...kind.options });
        process.send!({ ok: true, run, peakRssMb: mb(process.resourceUsage().maxRSS) });
      }
    } catch (error) {
      process.send!({ ok: false, error: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 160) });
    }
  })();
});
process.send!({ ready: true, rssMb: process.memoryUsage().rss / 2 ** 20 });
