/**
 * The BPE encodings chunkwise ships (their rank tables: `bindings/bpe-table.ts`).
 * @module
 */

/** The encodings chunkwise ships. */
export const ENCODINGS = ['cl100k_base', 'o200k_base'] as const;
/** An encoding name. */
export type EncodingName = (typeof ENCODINGS)[number];

/** True when `name` is one of {@link ENCODINGS}. */
export function isEncodingName(name: unknown): name is EncodingName {
  return typeof name === 'string' && (ENCODINGS as readonly string[]).includes(name);
}
