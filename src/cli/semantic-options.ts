/**
 * CLI options of the semantic strategies (`--strategy semantic|late`, `chunkwise qasc`):
 * the embedder spec and the semantic chunker's parameters, mapped to API options.
 * @module
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { BREAKPOINT_TYPES } from '../strategies/semantic.js';
import { loadEmbedder } from '../node/embedders.js';
import type { StrategyOptions } from '../strategies/registry.js';

/** Parses a CLI number (finite decimal). */
export function parseNumberArg(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`expected a number, got ${JSON.stringify(value)}`);
  return n;
}

/** Parses a CLI integer (an optionally signed run of digits). */
export function parseIntegerArg(value: string): number {
  if (!/^[+-]?\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Adds the semantic options to `chunkwise chunk`. */
export function addSemanticOptions(command: Command): Command {
  return command
    .option('--embedder <spec>', 'embedder for semantic / late: hashing[:dim], onnx:<folder>, static:<folder> (semantic default hashing; late needs onnx)')
    .addOption(new Option('--breakpoint <type>', 'semantic: how the break threshold is chosen').choices([...BREAKPOINT_TYPES]))
    .option('--threshold <amount>', 'semantic: percentile (0-100), std devs or IQR multiplier for --breakpoint', parseNumberArg)
    .option('--buffer-size <n>', 'semantic: neighbouring sentences joined to each sentence before embedding (default 1)', parseIntegerArg)
    .option('--min-chunk-size <n>', 'semantic: skip breaks while the chunk is smaller (units)', parseIntegerArg)
    .option('--max-chunk-size <n>', 'semantic: no chunk larger than this (units; default --chunk-size or 512)', parseIntegerArg)
    .option('--spans <strategy>', 'late: strategy that supplies the spans (default fixed, 256 tokens)');
}

/** The semantic options given on the command line, with the embedder loaded. */
export async function semanticOptionsFromCli(o: Record<string, unknown>): Promise<StrategyOptions> {
  const out: StrategyOptions = {};
  if (typeof o.embedder === 'string') out.embedder = await loadEmbedder(o.embedder);
  for (const key of ['breakpoint', 'threshold', 'bufferSize', 'minChunkSize', 'maxChunkSize', 'spans']) {
    if (o[key] !== undefined) out[key] = o[key];
  }
  return out;
}
