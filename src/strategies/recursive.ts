/**
 * Recursive chunking: split on an ordered separator list only where a piece is still
 * too large, then merge small pieces back up to the budget.
 *
 * Source: SPEC section 1 ("recursive"), the seeds' survey of chunking strategies
 * (`seeds/001`, `003`), and the algorithm of LangChain's
 * `RecursiveCharacterTextSplitter` (@langchain/textsplitters 1.0.2, `_splitText` and
 * `mergeSplits`), which this chunker reproduces piece for piece while tracking exact
 * offsets. Deliberate differences are listed in `docs/recursive.md`.
 *
 * The strategy is its boundaries (`src/segment/separators.ts`) and its options schema;
 * the piece tree and its packing by the shared packer's `langchain` policy are the
 * fallback level (`src/plan/fallback.ts`), chunks come
 * from the shared assembler (`src/plan/assemble.ts`).
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { InvalidOptionError } from '../core/errors.js';
import { resolveOptions, type StrategySchema } from '../core/schema.js';
import { isBlank, requireText } from '../core/text.js';
import { documentIdOf, type ChunkCallOptions } from '../core/ids.js';
import { Assembler, type PlannedChunk } from '../plan/assemble.js';
import { splitRange } from '../plan/fallback.js';
import { rangeMeasure, type RangeMeasure } from '../size/measure.js';
import { resolveUnits, UNIT_OPTIONS, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';
import { DEFAULT_SEPARATORS, LANGCHAIN_SEPARATORS, SEPARATOR_KINDS, type Separator, type SeparatorKind, type SeparatorPlacement } from '../segment/separators.js';

export { DEFAULT_SEPARATORS, LANGCHAIN_SEPARATORS, type Separator, type SeparatorKind };

/**
 * Where a separator goes when text is split on it: `true` or `'start'` (default, as
 * LangChain JS): at the start of the piece after it; `'end'`: at the end of the piece
 * before it (LangChain Python's `keep_separator="end"`); `false`: in no piece, so a chunk
 * never starts or ends with it (it stays inside a chunk, which is an exact source slice).
 */
export type KeepSeparator = boolean | 'start' | 'end';

/** Options of {@link RecursiveChunker}. */
export interface RecursiveOptions extends UnitOptions {
  /** Budget per chunk in `unit`s, an integer ≥ 1. Default 512. */
  chunkSize?: number;
  /** Units consecutive merged chunks may share, an integer in [0, chunkSize). Default min(64, ⌊chunkSize/8⌋). */
  chunkOverlap?: number;
  /** Ordered separators, coarsest first. Default {@link DEFAULT_SEPARATORS}. */
  separators?: readonly Separator[];
  /** See {@link KeepSeparator}. Default `true`. */
  keepSeparator?: KeepSeparator;
}

/** Why `value` is not a separator list, or undefined. */
function separatorsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty array of strings and { kind } objects';
  for (const s of value) {
    const ok = typeof s === 'string' || (typeof s === 'object' && s !== null && SEPARATOR_KINDS.includes((s as { kind: SeparatorKind }).kind));
    if (!ok) return `each must be a string or { kind: ${SEPARATOR_KINDS.join(' | ')} }, got ${JSON.stringify(s)}`;
  }
  return undefined;
}

/** The default overlap of the size-and-overlap strategies: min(64, ⌊chunkSize/8⌋). */
export const defaultOverlap = (r: Readonly<Record<string, unknown>>): number => Math.min(64, Math.floor((r.chunkSize as number) / 8));

/** The options schema of the recursive strategy. */
export const RECURSIVE_SCHEMA: StrategySchema = {
  name: 'recursive',
  options: {
    chunkSize: { type: 'integer', min: 1, default: 512, doc: 'budget per chunk, in units' },
    chunkOverlap: {
      type: 'integer',
      min: 0,
      default: defaultOverlap,
      defaultDoc: 'min(64, ⌊chunkSize/8⌋)',
      doc: 'units consecutive merged chunks may share; less than chunkSize',
    },
    separators: {
      type: 'json',
      default: DEFAULT_SEPARATORS,
      defaultDoc: 'paragraph, line, sentence, `" "`, `""`',
      doc: 'ordered separators, coarsest first: strings or `{"kind": "paragraph"|"line"|"sentence"|"grapheme"}`',
      check: separatorsProblem,
    },
    keepSeparator: {
      type: 'enum',
      values: [true, false, 'start', 'end'],
      default: true,
      doc: 'where a separator goes: `true`/`start` begins the next piece (LangChain JS), `end` ends the previous one, `false` in no piece',
    },
    ...UNIT_OPTIONS,
  },
  check(r) {
    if ((r.chunkOverlap as number) >= (r.chunkSize as number)) {
      throw new InvalidOptionError('chunkOverlap', r.chunkOverlap, `must be < chunkSize (${r.chunkSize})`);
    }
    if (r.keepSeparator === false) {
      for (const s of r.separators as Separator[]) {
        if (typeof s === 'string' && !isBlank(s)) {
          throw new InvalidOptionError('keepSeparator', false, `separator ${JSON.stringify(s)} holds non-whitespace text, which would be lost; use true, 'start' or 'end'`);
        }
      }
    }
  },
};

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
export class RecursiveChunker {
  readonly chunkSize: number;
  readonly chunkOverlap: number;
  readonly separators: readonly Separator[];
  readonly keepSeparator: SeparatorPlacement;
  readonly unit: ResolvedUnits['unit'];
  readonly encoding: string;
  readonly #resolved: ResolvedUnits;
  /** Operations of the last `chunk` call (pieces measured, occurrences visited): for tests of linear time. */
  lastOperations = 0;

  constructor(options: RecursiveOptions = {}) {
    const o = resolveOptions<RecursiveOptions>(RECURSIVE_SCHEMA, options);
    this.chunkSize = o.chunkSize;
    this.chunkOverlap = o.chunkOverlap;
    this.separators = o.separators;
    this.keepSeparator = o.keepSeparator === true ? 'start' : o.keepSeparator;
    this.#resolved = resolveUnits(o);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
  }

  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks.
   * @param text the source; offsets are UTF-16 indices into it.
   * @param options per-call options: `documentId` enters every chunk id (default `''`).
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string, options?: ChunkCallOptions): Chunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    const spans = this.spans(text);
    return new Assembler({ strategy: 'recursive', units: this.#resolved, documentId: documentIdOf(options) }).add(text, spans);
  }

  /**
   * The planned spans of `text` (what {@link chunk} assembles): for strategies that use
   * the recursive splitter inside their own structure.
   */
  spans(text: string, start = 0, end = text.length, measure: RangeMeasure = rangeMeasure(text, this.#resolved.units)): PlannedChunk[] {
    const work = { operations: measure.calls };
    const out = splitRange(measure, start, end, { max: this.chunkSize, overlap: this.chunkOverlap, separators: this.separators, keep: this.keepSeparator }, work);
    this.lastOperations = work.operations;
    return out;
  }
}
