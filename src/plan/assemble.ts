/**
 * The one assembler: planned spans → {@link Chunk}s. Every strategy's chunks are built
 * here — text slice, id, index, `tokenCount` in the chunker's encoding, the common
 * metadata — so the Chunk literal exists in exactly one place. Core module.
 *
 * Ids: one scheme for every strategy, content-addressed (`src/core/ids.ts`): a hash of the
 * document id, the chunk's text and embedText and its ordinal among identical chunks,
 * which a stream computes too, so `chunkStream` and `chunk` agree.
 * @module
 */
import type { Chunk, ChunkMetadata } from '../core/chunk.js';
import { ContentIds } from '../core/ids.js';
import type { ResolvedUnits } from '../size/resolve.js';

/** A span a planner decided: `[start, end)` in UTF-16 code units of the text it was planned on. */
export interface PlannedChunk {
  start: number;
  end: number;
  /** Size of the span's text in the chunker's unit, when the planner measured it already. */
  unitCount?: number;
  /** Tokens of the span's text in the chunker's encoding, when the planner counted them already. */
  tokenCount?: number;
  /** The span exceeds the budget because an indivisible unit does. */
  oversized?: boolean;
  /** Text to embed instead of `text` (a table part rewritten by rows, a contextual header). */
  embedText?: string;
  /** Strategy fields of `metadata`, written after the common ones (strategy, unit, unitCount, overlap). */
  metadata?: Record<string, unknown>;
  /** Appended to the id (`:parent`, `:child`) where two levels of one strategy may share a text. */
  idSuffix?: string;
}

/** What the assembler needs from a chunker. */
export interface AssemblerConfig {
  /** Strategy name for `metadata.strategy`. */
  strategy: string;
  units: ResolvedUnits;
  /** `metadata.unit` when the planner counts another unit than its sizer's (QASC counts sentences). */
  unitName?: string;
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
  readonly #units: ResolvedUnits;
  readonly #unitName: string;
  readonly #measureOverlap: boolean;
  readonly #ids: ContentIds;
  /** Chunks made so far (the next chunk's index). */
  index = 0;
  /** Largest chunk end so far (stream offsets): the next chunk's overlap is measured against it. */
  prevEnd = 0;

  constructor(config: AssemblerConfig) {
    this.#strategy = config.strategy;
    this.#units = config.units;
    this.#unitName = config.unitName ?? config.units.units.name;
    this.#measureOverlap = config.overlap !== 'none';
    this.#ids = new ContentIds(config.documentId ?? '');
  }

  /**
   * Assembles `spans` (relative to `text`, which starts at stream offset `offset`),
   * appending the chunks to `out`.
   */
  add(text: string, spans: readonly PlannedChunk[], offset = 0, out: Chunk[] = []): Chunk[] {
    if (spans.length === 0) return out;
    const { units, tokenizer, countTokens, unit } = this.#units;
    for (let k = 0; k < spans.length; k++) {
      const s = spans[k];
      const chunkText = text.slice(s.start, s.end);
      const unitCount = s.unitCount ?? units.size(chunkText);
      const start = s.start + offset;
      const end = s.end + offset;
      const index = this.index++;
      const metadata: ChunkMetadata = {
        strategy: this.#strategy,
        unit: this.#unitName,
        unitCount,
        overlap: index === 0 || !this.#measureOverlap ? 0 : Math.max(0, this.prevEnd - start),
        ...s.metadata,
      };
      if (s.oversized) metadata.oversized = true;
      const chunk: Chunk = {
        id: this.#ids.id(chunkText, s.embedText) + (s.idSuffix ?? ''),
        index,
        text: chunkText,
        start,
        end,
        tokenCount: s.tokenCount ?? (unit === 'token' ? unitCount : countTokens && tokenizer ? tokenizer.count(chunkText) : -1),
        metadata,
      };
      if (s.embedText !== undefined) chunk.embedText = s.embedText;
      out.push(chunk);
      if (end > this.prevEnd) this.prevEnd = end;
    }
    return out;
  }
}
