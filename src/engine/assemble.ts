/**
 * The one assembler: planned spans → {@link Chunk}s. Every strategy's chunks are built
 * here — text slice, id, index, `tokenCount` in the chunker's encoding (of `embedText`
 * where a span has one: what is embedded, which the budget bounds), the common
 * metadata — so the Chunk literal exists in exactly one place. Core module.
 *
 * Ids: one scheme for every strategy, content-addressed (`src/engine/ids.ts`): a hash of the
 * document id, the chunk's text and embedText and its ordinal among identical chunks,
 * which a stream computes too, so `chunkStream` and `chunk` agree.
 * @module
 */
import type { Chunk, ChunkMetadata } from './chunk.js';
import { ContentIds } from './ids.js';

/** A span a planner decided: `[start, end)` in UTF-16 code units of the text it was planned on. */
export interface PlannedChunk {
  start: number;
  end: number;
  /** Size of the span's text in the chunker's unit, when the planner measured it already. */
  unitCount?: number;
  /** Tokens of what the chunk embeds (`embedText` where set, else its text) in the chunker's encoding, when the planner counted them already. */
  tokenCount?: number;
  /** The span exceeds the budget because an indivisible unit does. */
  oversized?: boolean;
  /** Text to embed instead of `text` (a table part rewritten by rows, a contextual header). */
  embedText?: string;
  /** Size of `embedText` in the chunker's unit, when the planner measured it already (spares a token count in token units). */
  embedUnitCount?: number;
  /**
   * Strategy fields of `metadata`, written after the common ones (strategy, unit, unitCount,
   * overlap); each chunk gets its own copy. Read-only: planners share one frozen object
   * between spans with the same fields (the windows of one overlap, the pieces of one
   * separator level), so copy it before changing it.
   */
  metadata?: Readonly<Record<string, unknown>>;
  /** Appended to the id (`:parent`, `:child`) where two levels of one strategy may share a text. */
  idSuffix?: string;
}

/**
 * What the assembler needs from a chunker: names and two counters, no sizer. A chunker
 * that measures with a sizer passes `chunkCounters(resolvedUnits)` (`src/engine/size/resolve.ts`);
 * a planner that counts something else (QASC's sentences) names it and gives every span
 * its `unitCount`.
 */
export interface AssemblerConfig {
  /** Strategy name for `metadata.strategy`. */
  strategy: string;
  /** `metadata.unit`: the sizer's name (`char`, `word`, `token:cl100k_base`, a custom name) or what the planner counts (`sentence`). */
  unitName: string;
  /** Size of a chunk's text in `unitName`, for spans planned without `unitCount`. Absent: every span must carry its `unitCount`. */
  size?: (text: string) => number;
  /**
   * A chunk's `tokenCount` from the text it embeds (`embedText` where set, else its text)
   * and that text's size in the unit where known, for spans planned without `tokenCount`.
   * Absent: −1.
   */
  tokenCount?: (text: string, unitCount: number | undefined) => number;
  /**
   * The `tokenCount`s of the spans of one `add` call together, −1 for a span that has its
   * own, one per span in order (one tokenizer pass over the text instead of one per
   * chunk), or undefined where {@link tokenCount} is to count each chunk instead. Spans
   * with `embedText` are counted by {@link tokenCount} on their embedText whatever this gives.
   */
  tokenCounts?: (text: string, spans: readonly PlannedChunk[]) => ArrayLike<number> | undefined;
  /**
   * `measure` (default): `metadata.overlap` is what a chunk shares with the chunks before
   * it. `none`: always 0 (ranked results, which are not in text order).
   */
  overlap?: 'measure' | 'none';
  /** The document id that enters every chunk id (`chunk(text, { documentId })`). Default `''`. */
  documentId?: string;
}

/**
 * Turns planned spans into chunks, carrying index, overlap and the id ordinals across
 * calls, so a stream assembles section by section exactly what one call over the whole
 * text gives.
 *
 * Offsets: `add(text, spans, offset)` takes spans relative to `text`, where `text` starts
 * at stream offset `offset`; chunks get stream offsets. Spans are assembled in the order
 * given (that order numbers identical chunks for their ids).
 */
export class Assembler {
  readonly #strategy: string;
  readonly #unitName: string;
  readonly #size: ((text: string) => number) | undefined;
  readonly #tokenCount: ((text: string, unitCount: number | undefined) => number) | undefined;
  readonly #tokenCounts: ((text: string, spans: readonly PlannedChunk[]) => ArrayLike<number> | undefined) | undefined;
  readonly #measureOverlap: boolean;
  readonly #ids: ContentIds;
  /** Chunks made so far (the next chunk's index). */
  index = 0;
  /** Largest chunk end so far (stream offsets): the next chunk's overlap is measured against it. */
  prevEnd = 0;

  constructor(config: AssemblerConfig) {
    this.#strategy = config.strategy;
    this.#unitName = config.unitName;
    this.#size = config.size;
    this.#tokenCount = config.tokenCount;
    this.#tokenCounts = config.tokenCounts;
    this.#measureOverlap = config.overlap !== 'none';
    this.#ids = new ContentIds(config.documentId ?? '');
  }

  /**
   * Assembles `spans` (relative to `text`, which starts at stream offset `offset`),
   * appending the chunks to `out`.
   * @throws {TypeError} for a span without `unitCount` when the assembler was given no `size` (a planner's defect).
   */
  add(text: string, spans: readonly PlannedChunk[], offset = 0, out: Chunk[] = []): Chunk[] {
    if (spans.length === 0) return out;
    const size = this.#size;
    const tokens = this.#tokenCount;
    const counted = this.#tokenCounts?.(text, spans);
    this.#ids.reserve(spans.length);
    for (let k = 0; k < spans.length; k++) {
      const s = spans[k];
      const chunkText = text.slice(s.start, s.end);
      const unitCount = s.unitCount ?? (size ? size(chunkText) : missingUnitCount(s));
      const start = s.start + offset;
      const end = s.end + offset;
      const index = this.index++;
      const metadata: ChunkMetadata = {
        strategy: this.#strategy,
        unit: this.#unitName,
        unitCount,
        overlap: index === 0 || !this.#measureOverlap ? 0 : Math.max(0, this.prevEnd - start),
      };
      // the strategy's fields after the common ones (a for-in copy: a spread here costs 4× as much per chunk)
      const extra = s.metadata;
      if (extra !== undefined) for (const key in extra) metadata[key] = extra[key];
      if (s.oversized) metadata.oversized = true;
      const chunk: Chunk = {
        id: this.#ids.idOf(text, s.start, s.end, s.embedText) + (s.idSuffix ?? ''),
        index,
        text: chunkText,
        start,
        end,
        tokenCount: s.tokenCount ?? (!tokens ? -1 : s.embedText !== undefined ? tokens(s.embedText, s.embedUnitCount) : counted ? counted[k] : tokens(chunkText, unitCount)),
        metadata,
      };
      if (s.embedText !== undefined) chunk.embedText = s.embedText;
      out.push(chunk);
      if (end > this.prevEnd) this.prevEnd = end;
    }
    return out;
  }
}

function missingUnitCount(s: PlannedChunk): never {
  throw new TypeError(`Assembler: the span [${s.start}, ${s.end}) has no unitCount and the assembler no size`);
}
