/**
 * chunkwise's binary BPE rank table: one encoding's ranks in the layout the WebAssembly
 * tokenizer (`assembly/bpe/ranks.ts`) reads in place, so loading an encoding is one copy
 * into the module's memory and one pass to hash the tokens (no text to parse).
 *
 * Layout (little-endian):
 * ```
 * 0    4  magic "CWBP"                8    4  rank count N
 * 4    1  format version (1)          12   4  token bytes B
 * 5    1  split pattern (0 cl100k_base, 1 o200k_base)
 * 6    2  reserved (0)
 * 16   N  token length of each rank, u8 (0: no token has this rank)
 * 16+N B  the tokens' bytes, in rank order
 * then    u32 number of special tokens S; S × (u32 id, u8 length, UTF-8 bytes)
 * ```
 * cl100k_base is 744 086 bytes + its specials (423 KB gzip), o200k_base 1 597 668 bytes
 * (989 KB gzip): smaller than js-tiktoken's base64 rank text, which gzips worse.
 * `scripts/build-ranks.ts` writes the tables at build time from js-tiktoken's
 * published ranks with {@link rankTableFromTiktoken}. Nothing here imports a Node built-in.
 * @module
 */
import { WasmError } from '../src/engine/errors.js';

/** js-tiktoken's rank data for one encoding (`js-tiktoken/ranks/<encoding>`'s default export). */
export interface BpeRankData {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

/** The split pattern of cl100k_base, as js-tiktoken writes it. */
export const CL100K_PATTERN =
  "('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
/** The split pattern of o200k_base, as js-tiktoken writes it. */
export const O200K_PATTERN =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

const MAGIC = 0x50425743; // "CWBP" as a little-endian u32
const VERSION = 1;
const HEADER = 16;

/** What the header and the tail of a rank table say. */
export interface RankTableInfo {
  /** Split pattern: 0 cl100k_base, 1 o200k_base. */
  pattern: 0 | 1;
  /** Number of ranks (max rank + 1). */
  rankCount: number;
  /** Special-token strings by id. */
  specials: Map<number, string>;
}

/**
 * Reads a rank table's header and special tokens, checking that the sizes add up.
 * @throws {WasmError} when `bytes` is not a rank table of this format version.
 */
export function readRankTable(bytes: Uint8Array): RankTableInfo {
  const fail = (why: string): never => {
    throw new WasmError(`Not a chunkwise BPE rank table (${why})`);
  };
  if (!(bytes instanceof Uint8Array)) fail(`got ${Object.prototype.toString.call(bytes)}`);
  if (bytes.length < HEADER + 4) fail(`${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) fail('bad magic number');
  if (bytes[4] !== VERSION) fail(`format version ${bytes[4]}, expected ${VERSION}`);
  const pattern = bytes[5];
  if (pattern !== 0 && pattern !== 1) fail(`unknown split pattern ${pattern}`);
  const n = view.getUint32(8, true);
  const total = view.getUint32(12, true);
  let at = HEADER + n + total;
  if (n === 0 || at + 4 > bytes.length) fail('sizes exceed the data');
  let sum = 0;
  for (let r = 0; r < n; r++) sum += bytes[HEADER + r];
  if (sum !== total) fail('token lengths do not add up');
  const count = view.getUint32(at, true);
  at += 4;
  const specials = new Map<number, string>();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < count; i++) {
    if (at + 5 > bytes.length) fail('truncated special tokens');
    const id = view.getUint32(at, true);
    const len = bytes[at + 4];
    at += 5;
    if (at + len > bytes.length) fail('truncated special tokens');
    specials.set(id, decoder.decode(bytes.subarray(at, at + len)));
    at += len;
  }
  return { pattern: pattern as 0 | 1, rankCount: n, specials };
}

/**
 * Writes a rank table.
 * @param tokens the bytes of each rank (`undefined` for a rank no token has).
 * @param pattern 0 for cl100k_base's split pattern, 1 for o200k_base's.
 * @param specials special-token strings and their ids.
 * @throws {WasmError} for a token longer than 255 bytes or a special token longer than 255 UTF-8 bytes.
 */
export function writeRankTable(tokens: readonly (Uint8Array | undefined)[], pattern: 0 | 1, specials: Record<string, number>): Uint8Array {
  const encoder = new TextEncoder();
  const special = Object.entries(specials).map(([text, id]) => [encoder.encode(text), id] as const);
  let total = 0;
  for (const t of tokens) {
    if (t && t.length > 255) throw new WasmError(`A token of ${t.length} bytes does not fit the rank table's u8 lengths`);
    total += t?.length ?? 0;
  }
  const size = HEADER + tokens.length + total + 4 + special.reduce((s, [b]) => s + 5 + b.length, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  out[4] = VERSION;
  out[5] = pattern;
  view.setUint32(8, tokens.length, true);
  view.setUint32(12, total, true);
  let at = HEADER + tokens.length;
  tokens.forEach((t, r) => {
    if (!t) return;
    out[HEADER + r] = t.length;
    out.set(t, at);
    at += t.length;
  });
  view.setUint32(at, special.length, true);
  at += 4;
  for (const [b, id] of special) {
    if (b.length > 255) throw new WasmError(`A special token of ${b.length} bytes does not fit the rank table`);
    view.setUint32(at, id, true);
    out[at + 4] = b.length;
    out.set(b, at + 5);
    at += 5 + b.length;
  }
  return out;
}

/** Decodes one base64 token of js-tiktoken's rank text (no Node built-ins: `atob`). */
function base64Token(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Converts js-tiktoken's rank data (`js-tiktoken/ranks/<encoding>`) to a rank table,
 * reading its compact text as js-tiktoken's own `Tiktoken` constructor does: lines of
 * `<label> <first rank> <base64 token> <base64 token> …`, the k-th token of a line
 * having rank `<first rank> + k`.
 * @throws {WasmError} when the split pattern is not cl100k_base's or o200k_base's (the
 *   module reproduces only those two) or the text is malformed.
 */
export function rankTableFromTiktoken(data: BpeRankData): Uint8Array {
  let pattern: 0 | 1;
  if (data?.pat_str === CL100K_PATTERN) pattern = 0;
  else if (data?.pat_str === O200K_PATTERN) pattern = 1;
  else throw new WasmError('The BPE module reproduces only the cl100k_base and o200k_base split patterns');
  const tokens: (Uint8Array | undefined)[] = [];
  for (const line of data.bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, first, ...rest] = line.split(' ');
    let rank = Number(first);
    if (!Number.isInteger(rank) || rank < 0) throw new WasmError(`Malformed BPE rank text: first rank ${JSON.stringify(first)}`);
    for (const b64 of rest) if (b64) tokens[rank++] = base64Token(b64);
  }
  return writeRankTable(Array.from(tokens), pattern, data.special_tokens);
}

/**
 * A rank table from its bytes carried as strings (one character per byte, U+0000–U+00FF),
 * the form the JavaScript modules of `bindings/generated/ranks/` hold it in.
 */
export function rankTableFromStrings(parts: readonly string[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) for (let i = 0; i < p.length; i++) out[o++] = p.charCodeAt(i);
  return out;
}
