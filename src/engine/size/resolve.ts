/**
 * Unit options (`unit`, `encoding`, `tokenizer`, `countTokens`) shared by every chunker
 * that measures in units, resolved once at construction. Core module: no Node built-ins.
 * @module
 */
import { InvalidOptionError } from '../errors.js';
import { requireOneOf } from '../options/options.js';
import { OPTION_SHAPES, typed, type OptionsSchema, type OptionsOf } from '../options/schema.js';
import { isBlank } from '../text.js';
import { ENCODINGS, getUnits, UNIT_KINDS } from './index.js';
import { getTokenizer, tokenUnits } from './tokens.js';
import { checkedSizer, lengthFunctionSizer } from './custom.js';
import { spanTokenCounts, type CountedSpan } from './span-tokens.js';
import type { Sizer, Tokenizer, UnitKind, UnitSpans } from './types.js';

/** The unit options every unit-measuring strategy's schema ends with. */
export const UNIT_OPTIONS = {
  unit: {
    type: 'enum',
    values: UNIT_KINDS,
    default: 'token',
    doc: 'unit budgets are measured in: `char` (code points), `word` (runs between whitespace; Chinese, Japanese, Thai and other scripts without spaces split at Unicode word boundaries) or `token`',
    cli: { flag: '--unit', placeholder: '<unit>' },
  },
  encoding: typed<string>()({
    type: 'enum',
    values: ENCODINGS,
    default: 'cl100k_base',
    doc: 'token encoding of `token` units and of `tokenCount`',
    cli: { placeholder: '<name>' },
  }),
  tokenizer: typed<Tokenizer>()({
    type: 'object',
    doc: 'a `Tokenizer` to count tokens with instead of the built-in one for `encoding`',
    shape: OPTION_SHAPES.tokenizer,
  }),
  sizer: typed<Sizer>()({
    type: 'object',
    doc: 'a `Sizer` to measure budgets with instead of `unit`: `lengthFunctionSizer(fn)`, `hfTokenizerSizer(tokenizer)` (the embedding model\'s own tokens) or your own',
    shape: OPTION_SHAPES.sizer,
  }),
  lengthFunction: typed<(text: string) => number>()({
    type: 'function',
    doc: "measure budgets with `(text) => number` (LangChain's lengthFunction); windows are laid over code points",
  }),
  countTokens: {
    type: 'boolean',
    default: true,
    doc: 'fill `tokenCount` for char and word units (costs one tokenizer pass); false gives -1',
    cli: { flag: '--no-token-count', negate: true, negateDoc: 'leave tokenCount at -1 with char and word units (saves the tokenizer pass)' },
  },
} as const satisfies OptionsSchema;

/**
 * Options shared by chunkers that measure in units and count tokens: `sizer` or
 * `lengthFunction` (a custom measure), else `unit` (`char` code points, `word` or
 * `token`, the default) with `encoding` (`cl100k_base`, the default, or `o200k_base`)
 * or a `tokenizer`; `countTokens` (default true; false leaves `tokenCount` at -1 for
 * char and word units). Read from {@link UNIT_OPTIONS}.
 */
export type UnitOptions = OptionsOf<{ options: typeof UNIT_OPTIONS }>;

/** Resolved units and tokenizer of a chunker. */
export interface ResolvedUnits {
  /** The unit kind budgets are measured in (`custom` for a sizer or lengthFunction). */
  unit: UnitKind | 'custom';
  /** The sizer budgets are measured with. */
  units: Sizer;
  tokenizer: Tokenizer | undefined;
  encoding: string;
  countTokens: boolean;
}

/**
 * How a chunk's `tokenCount` is found from the text it embeds and that text's size in the
 * chunker's unit (undefined where the planner did not measure it): the size itself where
 * the units are the tokenizer's tokens and it is known, one tokenizer pass where it is not
 * or where `countTokens` asks for it, otherwise undefined (`tokenCount` −1).
 */
export function tokenCounter(r: ResolvedUnits): ((text: string, unitCount: number | undefined) => number) | undefined {
  const tokenizer = r.tokenizer;
  if (r.unit === 'token') return (text, unitCount) => unitCount ?? tokenizer!.count(text);
  return r.countTokens && tokenizer ? (text) => tokenizer.count(text) : undefined;
}

/**
 * How the `tokenCount`s of all the chunks planned on one text are found at once where the
 * units are not the tokenizer's and `countTokens` asks for them: {@link spanTokenCounts}
 * (one tokenizer pass over the text, exact at each chunk's edges, where that costs less
 * than counting the chunks one by one); undefined otherwise.
 */
export function spanTokenCounter(r: ResolvedUnits): ((text: string, spans: readonly CountedSpan[]) => Int32Array | undefined) | undefined {
  const tokenizer = r.tokenizer;
  if (r.unit === 'token' || !r.countTokens || !tokenizer) return undefined;
  return (text, spans) => spanTokenCounts(tokenizer, text, spans);
}

/**
 * What the assembler counts a chunk with (`new Assembler({ strategy, ...chunkCounters(r) })`):
 * `metadata.unit` is the sizer's name, `unitCount` its size, `tokenCount` {@link spanTokenCounter}'s
 * for a text's chunks together, else {@link tokenCounter}'s.
 */
export function chunkCounters(r: ResolvedUnits): {
  unitName: string;
  size: (text: string) => number;
  tokenCount: ((text: string, unitCount: number | undefined) => number) | undefined;
  tokenCounts: ((text: string, spans: readonly CountedSpan[]) => Int32Array | undefined) | undefined;
} {
  const sizer = r.units;
  return { unitName: sizer.name, size: (text) => sizer.size(text), tokenCount: tokenCounter(r), tokenCounts: spanTokenCounter(r) };
}

/**
 * Validates unit options and resolves the segmenter and tokenizer (the tokenizer is
 * built only when token units or token counts need it).
 * @throws {InvalidOptionError} for an unknown unit or encoding.
 */
export function resolveUnits(options: UnitOptions): ResolvedUnits {
  const unit = requireOneOf('unit', options.unit ?? 'token', UNIT_KINDS);
  const encoding = options.tokenizer?.encoding ?? options.encoding ?? 'cl100k_base';
  if (!options.tokenizer) requireOneOf('encoding', encoding, ENCODINGS);
  const countTokens = options.countTokens ?? true;
  if (typeof countTokens !== 'boolean') throw new InvalidOptionError('countTokens', countTokens, 'must be a boolean');
  if (options.sizer !== undefined && options.lengthFunction !== undefined) {
    throw new InvalidOptionError('lengthFunction', 'a function', 'give sizer or lengthFunction, not both');
  }
  const custom = options.sizer !== undefined ? checkedSizer(options.sizer) : options.lengthFunction !== undefined ? lengthFunctionSizer(options.lengthFunction) : undefined;
  if (custom) {
    const tokenizer = options.tokenizer ?? (countTokens ? getTokenizer(encoding) : undefined);
    return { unit: custom.unit, units: custom, tokenizer, encoding, countTokens };
  }
  const needTokenizer = unit === 'token' || countTokens;
  const tokenizer = options.tokenizer ?? (needTokenizer ? getTokenizer(encoding) : undefined);
  const units = unit === 'token' ? tokenUnits(tokenizer!) : getUnits(unit);
  return { unit, units, tokenizer, encoding, countTokens };
}

/**
 * The unit options to hand an inner chunker (a fallback splitter, parent–child's levels)
 * so it measures exactly as its outer chunker does: the same unit or custom sizer, the
 * same encoding and tokenizer; no token counts (the outer chunker assembles).
 */
export function innerUnitOptions(r: ResolvedUnits, tokenizer?: Tokenizer): UnitOptions {
  const t = tokenizer ?? r.tokenizer;
  // a tokenizer names its own encoding (which need not be a built-in one)
  const base = { ...(t ? { tokenizer: t } : { encoding: r.encoding }), countTokens: false };
  return r.unit === 'custom' ? { ...base, sizer: r.units } : { ...base, unit: r.unit };
}

/**
 * Drops the units at both ends whose text is whitespace or empty (char and token units
 * have them; words never do), so windows start at the first unit with non-whitespace
 * text and the last window ends at the end of the last one: no chunk is whitespace only
 * at the edges of the text. The text must not be blank.
 */
export function trimBlankUnits(text: string, spans: UnitSpans): UnitSpans {
  let first = 0;
  let last = spans.count;
  while (first < last && isBlank(text.slice(spans.starts[first], spans.ends[first]))) first++;
  while (last > first && isBlank(text.slice(spans.starts[last - 1], spans.ends[last - 1]))) last--;
  if (first === 0 && last === spans.count) return spans;
  return { starts: spans.starts.subarray(first, last), ends: spans.ends.subarray(first, last), count: last - first };
}

