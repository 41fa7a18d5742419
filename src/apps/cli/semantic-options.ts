/**
 * CLI options of the semantic strategies (`--strategy semantic|late`, `chunkwise qasc`):
 * the embedder spec and the semantic chunker's parameters, mapped to API options.
 * @module
 */
import type { Command } from 'commander';
import { loadEmbedder } from '../node/embedders.js';
import type { StrategyOptions } from '../../strategies/index.js';

export { parseIntegerArg, parseNumberArg } from './strategy-flags.js';

/**
 * Adds `--embedder` to `chunkwise chunk` (the semantic and late strategies' `embedder`
 * option is an object in the API; on the command line it is a spec the CLI loads). Their
 * other options are generated from the schemas (`strategy-flags.ts`).
 */
export function addSemanticOptions(command: Command): Command {
  return command.option('--embedder <spec>', 'embedder for semantic / late: hashing[:dim], onnx:<folder>, static:<folder> (semantic default hashing; late needs onnx)');
}

/** The embedder given on the command line, loaded (as the `embedder` option). */
export async function semanticOptionsFromCli(o: Record<string, unknown>): Promise<StrategyOptions> {
  const out: StrategyOptions = {};
  if (typeof o.embedder === 'string') out.embedder = await loadEmbedder(o.embedder);
  return out;
}
