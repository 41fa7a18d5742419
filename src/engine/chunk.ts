/**
 * The chunk: what every chunker emits.
 * @module
 */

/** Metadata every chunk carries; strategies add their own fields. */
export interface ChunkMetadata {
  /** The strategy that made the chunk, e.g. `sliding`, `fixed`. */
  strategy: string;
  /** The unit budgets were measured in: `char`, `word` or `token:<encoding>`. */
  unit: string;
  /** Size of the chunk in that unit, counted on `text` alone (`tokenCount` counts `embedText` where set). */
  unitCount: number;
  /** UTF-16 code units this chunk shares with the previous one (0 for the first). */
  overlap: number;
  /** Set when the chunk exceeds its budget because an indivisible unit does. */
  oversized?: boolean;
  [key: string]: unknown;
}

/**
 * A chunk of a source text.
 * - `text === source.slice(start, end)`; offsets are UTF-16 code units (JavaScript
 *   string indices), `start` inclusive, `end` exclusive.
 * - `id` is content-addressed (`src/engine/ids.ts`, docs/architecture.md "Determinism"):
 *   16 hex digits hashing the document id (`chunk(text, { documentId })`), `text`,
 *   `embedText` and the chunk's ordinal among identical chunks of the document, so it
 *   stays the same when text elsewhere in the document changes, and a stream computes
 *   it too. Parent–child appends `:parent` / `:child`.
 * - `tokenCount` is the number of tokens of what the chunk embeds — `embedText` where
 *   it is set, else `text` — in the chunker's encoding (`cl100k_base` unless set),
 *   whatever unit the budget was measured in; −1 with `countTokens: false` (char and
 *   word units). The budget bounds that same text, so in token units
 *   `tokenCount ≤ chunkSize` unless `metadata.oversized` (test/conformance.test.ts checks
 *   it for every strategy). `metadata.unitCount` stays the size of `text` alone.
 */
export interface Chunk {
  id: string;
  index: number;
  text: string;
  start: number;
  end: number;
  tokenCount: number;
  /**
   * Derived text to embed in place of `text`, where the two differ: the visible text of
   * an HTML chunk, a table part rewritten row by row with its header lines repeated, or
   * `text` prefixed with its
   * heading path (contextual header). Absent when the text to embed is `text` itself.
   * `text` always stays the exact source slice; whatever embeds chunks must use
   * `embedText ?? text` explicitly (see `embedChunks`). Budgets hold for both, except
   * for HTML, whose budget is on `embedText` (the visible text; `text` keeps the markup).
   * `tokenCount` counts it.
   */
  embedText?: string;
  metadata: ChunkMetadata;
}

/**
 * A 64-bit FNV-1a hash of the UTF-16 code units of `text`, as 16 hex digits; the
 * same in every runtime.
 */
export function hashText(text: string): string {
  // two 32-bit FNV-1a lanes with different offsets stand in for one 64-bit hash
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h2 >>> 15);
  }
  return hex64(h1, h2);
}

/** Char codes of the 16 lower-case hex digits. */
const HEX_DIGIT = Array.from('0123456789abcdef', (d) => d.charCodeAt(0));

/**
 * Two 32-bit values as 16 lower-case hex digits, `hi` first: one string built from its
 * 16 char codes (ids are made per chunk; concatenating parts allocates one string each).
 */
export function hex64(hi: number, lo: number): string {
  const d = HEX_DIGIT;
  return String.fromCharCode(
    d[(hi >>> 28) & 15], d[(hi >>> 24) & 15], d[(hi >>> 20) & 15], d[(hi >>> 16) & 15],
    d[(hi >>> 12) & 15], d[(hi >>> 8) & 15], d[(hi >>> 4) & 15], d[hi & 15],
    d[(lo >>> 28) & 15], d[(lo >>> 24) & 15], d[(lo >>> 20) & 15], d[(lo >>> 16) & 15],
    d[(lo >>> 12) & 15], d[(lo >>> 8) & 15], d[(lo >>> 4) & 15], d[lo & 15],
  );
}

/**
 * A chunk as `chunkwise chunk` writes it (one JSON object per JSONL line): the chunk's
 * fields plus `source` (the input's name), with `level`, `parentId` and `embedText`
 * lifted to the top level when present, and a late chunk's `vector` as a plain array.
 * Core (no Node built-ins), so a page or a worker writes the CLI's records too:
 * `chunks.map((c) => JSON.stringify(chunkRecord(c, name))).join('\n') + '\n'` is the
 * CLI's JSONL for that input.
 */
export function chunkRecord(chunk: Chunk, source: string): Record<string, unknown> {
  return {
    id: chunk.id,
    index: chunk.index,
    source,
    text: chunk.text,
    start: chunk.start,
    end: chunk.end,
    tokenCount: chunk.tokenCount,
    ...(chunk.metadata.level !== undefined ? { level: chunk.metadata.level } : {}),
    ...(chunk.metadata.parentId !== undefined ? { parentId: chunk.metadata.parentId } : {}),
    ...(chunk.embedText !== undefined ? { embedText: chunk.embedText } : {}),
    metadata: chunk.metadata,
    ...('vector' in chunk && chunk.vector instanceof Float32Array ? { vector: Array.from(chunk.vector) } : {}),
  };
}
