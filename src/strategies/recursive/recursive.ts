/**
 * Recursive chunking: split on an ordered separator list only where a piece is still
 * too large, then merge small pieces back up to the budget.
 *
 * Source: the algorithm of LangChain's
 * `RecursiveCharacterTextSplitter` (@langchain/textsplitters 1.0.2, `_splitText` and
 * `mergeSplits`), which this chunker reproduces piece for piece while tracking exact
 * offsets. Deliberate differences are listed in `docs/recursive.md`.
 *
 * The strategy is its boundaries (`src/engine/boundaries/separators.ts`) and its options schema;
 * the piece tree and its packing by the shared packer's `langchain` policy are the
 * fallback level (`src/engine/pack/fallback.ts`), chunks come
 * from the shared assembler (`src/engine/assemble.ts`).
 * @module
 */
import { InvalidOptionError } from '../../engine/errors.js';
import { isBlank } from '../../engine/text.js';
import { typed, type OptionsOf, type StrategySchema } from '../../engine/options/schema.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { splitRange } from '../../engine/pack/fallback.js';
import { rangeMeasure, type RangeMeasure } from '../../engine/size/measure.js';
import { capacitySchema, defineStrategy } from '../../engine/define.js';
import type { Work } from '../../engine/work.js';
import { DEFAULT_SEPARATORS, LANGCHAIN_SEPARATORS, SEPARATOR_KINDS, type Separator, type SeparatorKind, type SeparatorPlacement } from '../../engine/boundaries/separators.js';

export { DEFAULT_SEPARATORS, LANGCHAIN_SEPARATORS, type Separator, type SeparatorKind };

/**
 * Where a separator goes when text is split on it: `true` or `'start'` (default, as
 * LangChain JS): at the start of the piece after it; `'end'`: at the end of the piece
 * before it (LangChain Python's `keep_separator="end"`); `false`: in no piece, so a chunk
 * never starts or ends with it (it stays inside a chunk, which is an exact source slice).
 */
export type KeepSeparator = boolean | 'start' | 'end';

/** Why `value` is not a separator list, or undefined. */
function separatorsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty array of strings and { kind } objects';
  for (const s of value) {
    const ok = typeof s === 'string' || (typeof s === 'object' && s !== null && SEPARATOR_KINDS.includes((s as { kind: SeparatorKind }).kind));
    if (!ok) return `each must be a string or { kind: ${SEPARATOR_KINDS.join(' | ')} }, got ${JSON.stringify(s)}`;
  }
  return undefined;
}

/** The options schema of the recursive strategy. */
export const RECURSIVE_SCHEMA = capacitySchema(
  'recursive',
  {
    separators: typed<readonly Separator[]>()({
      type: 'json',
      default: DEFAULT_SEPARATORS,
      defaultDoc: 'paragraph, line, sentence, `" "`, `""`',
      doc: 'ordered separators, coarsest first: strings or `{"kind": "paragraph"|"line"|"sentence"|"grapheme"}`',
      check: separatorsProblem,
    }),
    keepSeparator: {
      type: 'enum',
      values: [true, false, 'start', 'end'],
      default: true,
      doc: 'where a separator goes: `true`/`start` begins the next piece (LangChain JS), `end` ends the previous one, `false` in no piece',
    },
  },
  { size: 'budget per chunk, in units', overlap: 'units consecutive merged chunks may share; less than chunkSize' },
  (r) => {
    if (r.keepSeparator === false) {
      for (const s of r.separators as Separator[]) {
        if (typeof s === 'string' && !isBlank(s)) {
          throw new InvalidOptionError('keepSeparator', false, `separator ${JSON.stringify(s)} holds non-whitespace text, which would be lost; use true, 'start' or 'end'`);
        }
      }
    }
  },
) satisfies StrategySchema;

/** Options of {@link RecursiveChunker}: read from {@link RECURSIVE_SCHEMA} (see {@link KeepSeparator}, {@link DEFAULT_SEPARATORS}). */
export type RecursiveOptions = OptionsOf<typeof RECURSIVE_SCHEMA>;

/**
 * Splits text on an ordered list of separators, coarsest first, only where a piece is
 * still over `chunkSize` units, and merges consecutive small pieces back into chunks
 * of at most `chunkSize` units that share up to `chunkOverlap` units: LangChain's
 * `RecursiveCharacterTextSplitter` algorithm, with budgets in characters (code points),
 * words or tokens and exact offsets.
 *
 * Each chunk is `source.slice(start, end)` with whitespace trimmed at both ends (what
 * LangChain's `.trim()` removes), so with `keepSeparator: true` and LangChain's
 * separators its text equals LangChain's chunk text, on LF and CRLF text alike. The
 * budget is checked on the exact emitted text (for tokens: the text re-encoded on its
 * own); a chunk is over budget only when one grapheme cluster alone is, and then it
 * carries `metadata.oversized`. Runs in time linear in the text for a fixed separator
 * list (plus the overlap's repeats).
 *
 * @example
 * ```ts
 * const chunker = new RecursiveChunker({ unit: 'char', chunkSize: 1000, chunkOverlap: 200 });
 * for (const c of chunker.chunk(text)) console.log(c.start, c.end, c.text === text.slice(c.start, c.end));
 * ```
 * @throws {InvalidOptionError} at construction for an unknown option (with the closest
 *   valid name), chunkSize not an integer ≥ 1, chunkOverlap not an integer in
 *   [0, chunkSize), separators not a non-empty array of strings and `{ kind }` objects,
 *   keepSeparator not a boolean, `'start'` or `'end'`, or keepSeparator false with a
 *   separator that holds non-whitespace (it would be lost).
 */
export class RecursiveChunker extends defineStrategy({
  name: 'recursive',
  description: 'split on separators (paragraph, line, sentence end, space, grapheme) where still too large, merged up to chunkSize units',
  schema: RECURSIVE_SCHEMA,
  extensions: ['.txt'],
}) {
  readonly chunkSize: number = this.options.chunkSize;
  readonly chunkOverlap: number = this.options.chunkOverlap;
  readonly separators: readonly Separator[] = this.options.separators;
  readonly keepSeparator: SeparatorPlacement = this.options.keepSeparator === true ? 'start' : this.options.keepSeparator;

  protected override plannedSpans(text: string, work: Work | undefined): PlannedChunk[] {
    return this.spans(text, 0, text.length, undefined, work);
  }

  /**
   * The planned spans of `text` (what {@link chunk} assembles): for strategies that use
   * the recursive splitter inside their own structure.
   * @param work counters the work is added to: `operations` (pieces measured, occurrences visited, packer steps), `packSteps`.
   */
  override spans(text: string, start = 0, end = text.length, measure: RangeMeasure = rangeMeasure(text, this.resolved.units), work?: Work): PlannedChunk[] {
    return splitRange(measure, start, end, { max: this.chunkSize, overlap: this.chunkOverlap, separators: this.separators, keep: this.keepSeparator }, work);
  }
}
