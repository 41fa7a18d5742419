/**
 * U+0000 in chunk text and metadata: Postgres `text` cannot hold it (`invalid byte
 * sequence for encoding "UTF8": 0x00`) nor `jsonb` (`unsupported Unicode escape sequence`),
 * so one NUL in a PDF's text would stop a whole PGlite or Postgres ingestion. Every sink
 * (LanceDB, PGlite, Postgres, memory) and the CLI's JSONL store U+FFFD (the replacement
 * character) in its place, and count the code points replaced: one UTF-16 code unit for
 * one, so `start`/`end` still delimit the stored text. Core module: no Node built-in.
 * @module
 */

/** What a NUL code point (U+0000) is stored as. */
export const NUL_REPLACEMENT = '\uFFFD';

/** The fields a NUL is replaced in: a chunk's or a row's text, embed text and metadata (keys and string values, at any depth). */
export interface NulFields {
  text: string;
  embedText?: string | null;
  metadata: Record<string, unknown>;
}

/** NUL code points in a string. */
function countIn(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\0'); i !== -1; i = s.indexOf('\0', i + 1)) n++;
  return n;
}

/** NUL code points in the strings of a JSON-like value (object keys included). */
function countDeep(value: unknown): number {
  if (typeof value === 'string') return countIn(value);
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countDeep(v), 0);
  if (value !== null && typeof value === 'object') {
    let n = 0;
    for (const [k, v] of Object.entries(value)) n += countIn(k) + countDeep(v);
    return n;
  }
  return 0;
}

/** A copy of a JSON-like value with every NUL in its strings (keys included) replaced. */
function replaceDeep(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\0', NUL_REPLACEMENT);
  if (Array.isArray(value)) return value.map(replaceDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll('\0', NUL_REPLACEMENT), replaceDeep(v)]));
  }
  return value;
}

/**
 * `item` with each U+0000 of its text, embed text and metadata replaced by
 * {@link NUL_REPLACEMENT}, and how many were replaced. Without one, `item` itself
 * (nothing copied).
 */
export function replaceNul<T extends NulFields>(item: T): { item: T; replaced: number } {
  const inText = countIn(item.text);
  const inEmbed = typeof item.embedText === 'string' ? countIn(item.embedText) : 0;
  const inMetadata = countDeep(item.metadata);
  const replaced = inText + inEmbed + inMetadata;
  if (replaced === 0) return { item, replaced };
  return {
    item: {
      ...item,
      text: item.text.replaceAll('\0', NUL_REPLACEMENT),
      ...(inEmbed > 0 ? { embedText: item.embedText!.replaceAll('\0', NUL_REPLACEMENT) } : {}),
      metadata: inMetadata > 0 ? (replaceDeep(item.metadata) as Record<string, unknown>) : item.metadata,
    },
    replaced,
  };
}

/**
 * {@link replaceNul} over rows: the rows to store (the same array when none holds a NUL)
 * and the code points replaced.
 */
export function replaceNulInRows<T extends NulFields>(rows: readonly T[]): { rows: readonly T[]; replaced: number } {
  let replaced = 0;
  let out: T[] | undefined;
  rows.forEach((r, i) => {
    const one = replaceNul(r);
    if (one.replaced === 0) return;
    out ??= rows.slice();
    out[i] = one.item;
    replaced += one.replaced;
  });
  return { rows: out ?? rows, replaced };
}
