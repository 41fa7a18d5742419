/**
 * The child process of bench/scaling.bench.ts: measures one strategy × pathological
 * kind × size per message (`measureWork`, test/helpers/work.ts) and sends the counts
 * back, so the parent can stop a run that takes too long (a synchronous chunker cannot
 * be interrupted in its own thread).
 *
 * Message in: `{ strategy, kind, n }`; out: `{ ok: true, run }` or `{ ok: false, error }`.
 * @module
 */
import { strategyDefinition } from '../src/strategies/registry.js';
import type { TokenEmbedder } from '../src/embedders/types.js';
import { loadLateEmbedder } from '../test/helpers/golden.js';
import { pathologicalKind } from '../test/helpers/pathological.js';
import { measureWork, type WorkEnvironment } from '../test/helpers/work.js';

/** A request of the parent. */
export interface ScalingRequest {
  strategy: string;
  kind: string;
  n: number;
}

let env: WorkEnvironment | undefined;

/** A strategy whose `embedder` option rejects a plain embedder needs the token-level fixture model (late chunking). */
function needsTokenEmbedder(strategy: string): boolean {
  const spec = strategyDefinition(strategy)?.schema.options.embedder;
  return !!spec?.check && spec.check({ dimension: 1, embed: async () => new Float32Array(1) }, {}) !== undefined;
}

async function environment(strategy: string): Promise<WorkEnvironment> {
  if (env) return env;
  if (!needsTokenEmbedder(strategy)) return {};
  const late = await loadLateEmbedder();
  process.once('exit', () => void late.release());
  return (env = { tokenEmbedder: late.embedder as TokenEmbedder });
}

process.on('message', (msg: ScalingRequest) => {
  void (async () => {
    try {
      const def = strategyDefinition(msg.strategy);
      if (!def) throw new Error(`no strategy ${msg.strategy}`);
      const text = pathologicalKind(msg.kind).make(msg.n);
      const run = await measureWork(def, text, await environment(msg.strategy));
      process.send!({ ok: true, run });
    } catch (error) {
      process.send!({ ok: false, error: `${(error as Error).name}: ${(error as Error).message}`.slice(0, 160) });
    }
  })();
});
process.send!({ ready: true });
