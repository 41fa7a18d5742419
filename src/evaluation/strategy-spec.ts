/**
 * Strategy specs of the evaluation CLI: `name[:size[:overlap]][:key=value…]`, e.g.
 * `fixed:800:400`, `sliding:512:256`, `recursive:400:0`, `sentence:400:0:locale=nl`.
 * The chunker itself comes from the registry (`createChunker`), so strategies
 * registered by other modules work without changes here. Core module.
 * @module
 */
import { InvalidOptionError } from '../engine/errors.js';
import { createChunker, strategyDefinition, type StrategyOptions } from '../strategies/index.js';
import type { Chunker } from '../engine/chunker.js';

/** A parsed strategy spec. */
export interface StrategySpec {
  /** The spec as written. */
  spec: string;
  /** Registered strategy name. */
  name: string;
  /** Budget per chunk (in `unit`, tokens by default), if given. */
  size?: number;
  /** Overlap between consecutive chunks (same unit), if given. */
  overlap?: number;
  /** Options handed to `createChunker`. */
  options: StrategyOptions;
}

const FORMAT = 'name[:size[:overlap]][:key=value…], e.g. fixed:800:400 or recursive:400:0';

function parseValue(v: string): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^[+-]?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

/**
 * Parses `name[:size[:overlap]][:key=value…]`. Size and overlap are integers in the
 * strategy's unit (tokens unless `unit=char` or `unit=word` is given). They are passed
 * under the strategy's budget options, so `sliding:512:256` is 512-token windows
 * overlapping by 256 (stride 256). `key=value`
 * pairs are passed as options (numbers and booleans converted), e.g. `breakpoint=percentile`.
 * @throws {InvalidOptionError} for an empty name, a size or overlap that is not an
 *   integer, or a malformed pair. (The strategy validates ranges when it is created.)
 */
export function parseStrategySpec(spec: string): StrategySpec {
  if (typeof spec !== 'string' || !spec.trim()) throw new InvalidOptionError('strategy', spec, FORMAT);
  const parts = spec.trim().split(':');
  const name = parts[0];
  if (!/^[\w-]+$/.test(name)) throw new InvalidOptionError('strategy', spec, FORMAT);
  const options: StrategyOptions = { unit: 'token' };
  const positional: number[] = [];
  for (const part of parts.slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (positional.length >= 2 || !/^\d+$/.test(part)) throw new InvalidOptionError('strategy', spec, FORMAT);
      positional.push(Number(part));
    } else {
      const key = part.slice(0, eq);
      if (!/^[A-Za-z]\w*$/.test(key)) throw new InvalidOptionError('strategy', spec, FORMAT);
      (options as Record<string, unknown>)[key] = parseValue(part.slice(eq + 1));
    }
  }
  const [size, overlap] = positional;
  if (size !== undefined) {
    const definition = strategyDefinition(name);
    const budget = definition?.passThrough
      ? strategyDefinition(String((options as Record<string, unknown>).spans ?? 'fixed'))?.budget
      : definition?.budget;
    const o = overlap ?? 0;
    const target = options as Record<string, unknown>;
    target[budget?.size ?? 'chunkSize'] = size;
    if (budget?.overlap) target[budget.overlap] = budget.overlapAsStride ? size - o : o;
    else if (!budget) target.chunkOverlap = o;
    else if (o !== 0) throw new InvalidOptionError('strategy', spec, `${name} takes no overlap; write ${name}:${size}`);
  }
  return { spec, name, size, overlap: size !== undefined ? (overlap ?? 0) : undefined, options };
}

/**
 * Builds the chunker of a spec through the strategy registry.
 * @throws {InvalidOptionError} for a bad spec, an unknown strategy or options the strategy rejects.
 */
export function chunkerFromSpec(spec: string | StrategySpec): Chunker {
  const s = typeof spec === 'string' ? parseStrategySpec(spec) : spec;
  return createChunker(s.name, s.options);
}
