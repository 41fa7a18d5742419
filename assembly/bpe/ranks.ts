// The rank table of one encoding, resident in linear memory for the life of the instance.
//
// Input: chunkwise's binary rank table (bindings/bpe-table.ts writes it; the TypeScript
// side copies it into memory allocated with alloc() and calls loadRankTable):
//   0   4  magic "CWBP"            8   4  rank count N (u32, little-endian)
//   4   1  format version (1)      12  4  token bytes B (u32)
//   5   1  split pattern           16  N  token length of each rank (u8; 0: no token)
//   6   2  reserved                16+N B token bytes, in rank order
// (followed by the special tokens, which only the TypeScript side reads). The token
// bytes stay where they are and are the arena: `tokOff[rank]`, `tokLen[rank]` locate
// them. An open-addressing hash table maps byte strings to ranks: entries are 16 bytes
// (see lookupHashed), linear probing. Two extra direct tables give the rank of every
// single byte and of every two-byte string.
import { bump } from './memory';

export const NO_RANK: u32 = 0xffffffff;

export let tokBytes: usize = 0;
export let tokOff: usize = 0;
export let tokLen: usize = 0;
export let rankCount: u32 = 0; // max rank + 1
let table: usize = 0;
let tmask: u32 = 0;
export let byteRank: usize = 0; // u32[256]
export let pairRank: usize = 0; // u32[65536]

/** 32-bit hash of n bytes at p (reads whole words; bytes past the end are masked off). */
// @ts-ignore: decorator
@inline
export function hashBytes(p: usize, n: usize): u32 {
  let h: u64 = <u64>n * 0x9e3779b97f4a7c15;
  let i: usize = 0;
  while (i + 8 <= n) {
    h = (h ^ load<u64>(p + i)) * 0xbf58476d1ce4e5b9;
    h ^= h >> 31;
    i += 8;
  }
  if (i < n) {
    const v = load<u64>(p + i) & (<u64>-1 >> (<u64>(8 - (n - i)) << 3));
    h = (h ^ v) * 0x94d049bb133111eb;
    h ^= h >> 29;
  }
  h *= 0xbf58476d1ce4e5b9;
  h ^= h >> 32;
  return <u32>h;
}

// @ts-ignore: decorator
@inline
function eqBytes(a: usize, b: usize, n: usize): bool {
  let i: usize = 0;
  while (i + 8 <= n) {
    if (load<u64>(a + i) != load<u64>(b + i)) return false;
    i += 8;
  }
  if (i < n) {
    const mask = <u64>-1 >> (<u64>(8 - (n - i)) << 3);
    return ((load<u64>(a + i) ^ load<u64>(b + i)) & mask) == 0;
  }
  return true;
}

/** The first min(n, 8) bytes at p as a u64 (the rest zero). */
// @ts-ignore: decorator
@inline
function head8(p: usize, n: usize): u64 {
  const v = load<u64>(p);
  return n >= 8 ? v : v & (<u64>-1 >> (<u64>(8 - n) << 3));
}

// Hash table entries are 16 bytes: the token's first 8 bytes (zero padded), then
// (rank + 1) << 32 | length. Tokens of up to 8 bytes (most) compare without leaving the
// entry; longer ones compare their tail in the arena.

/** Rank of the n bytes at p, or NO_RANK. */
export function lookup(p: usize, n: usize): u32 {
  return lookupHashed(p, n, hashBytes(p, n));
}

/** {@link lookup} with the bytes' hash already computed. */
export function lookupHashed(p: usize, n: usize, h: u32): u32 {
  const k0 = head8(p, n);
  let idx = h & tmask;
  while (true) {
    const slot = table + (<usize>idx << 4);
    const e1 = load<u64>(slot + 8);
    if (e1 == 0) return NO_RANK;
    if (<u32>e1 == <u32>n && load<u64>(slot) == k0) {
      const r = <u32>(e1 >> 32) - 1;
      if (n <= 8 || eqBytes(p + 8, tokBytes + load<u32>(tokOff + (<usize>r << 2)) + 8, n - 8)) return r;
    }
    idx = (idx + 1) & tmask;
  }
}

function insert(rank: u32): void {
  const p = tokBytes + load<u32>(tokOff + (<usize>rank << 2));
  const n = <usize>load<u32>(tokLen + (<usize>rank << 2));
  const k0 = head8(p, n);
  let idx = hashBytes(p, n) & tmask;
  while (true) {
    const slot = table + (<usize>idx << 4);
    const e1 = load<u64>(slot + 8);
    const mine = ((<u64>rank + 1) << 32) | <u64>n;
    if (e1 == 0) {
      store<u64>(slot, k0);
      store<u64>(slot + 8, mine);
      return;
    }
    if (<u32>e1 == <u32>n && load<u64>(slot) == k0) {
      const r = <u32>(e1 >> 32) - 1;
      if (n <= 8 || eqBytes(p + 8, tokBytes + load<u32>(tokOff + (<usize>r << 2)) + 8, n - 8)) {
        store<u64>(slot + 8, mine); // a later duplicate wins, as in js-tiktoken
        return;
      }
    }
    idx = (idx + 1) & tmask;
  }
}

const MAGIC: u32 = 0x50425743; // "CWBP" read as a little-endian u32
const VERSION: u8 = 1;

/**
 * Builds the tables from the binary rank table of `len` bytes at `p`, which must stay
 * allocated (alloc) for the life of the instance: its token bytes become the arena.
 * Returns the number of ranks N, or -1 when the header or the sizes are malformed.
 */
export function loadRankTable(p: usize, len: i32): i32 {
  if (len < 16 || load<u32>(p) != MAGIC || load<u8>(p + 4) != VERSION) return -1;
  const n = load<u32>(p + 8);
  const total = load<u32>(p + 12);
  if (n == 0 || n > 0x3fffffff || <u64>16 + <u64>n + <u64>total > <u64>len) return -1;
  rankCount = n;
  const lengths = p + 16;
  tokBytes = lengths + <usize>n;
  tokOff = bump(<usize>n << 2);
  tokLen = bump(<usize>n << 2);
  let arena: u32 = 0;
  let tokens: u32 = 0;
  for (let r: u32 = 0; r < n; r++) {
    const k = <u32>load<u8>(lengths + <usize>r);
    store<u32>(tokOff + (<usize>r << 2), arena);
    store<u32>(tokLen + (<usize>r << 2), k);
    arena += k;
    if (k != 0) tokens++;
  }
  if (arena != total) return -1;
  let cap: u32 = 1024;
  while (cap < tokens * 2 + tokens / 2) cap <<= 1;
  tmask = cap - 1;
  table = bump(<usize>cap << 4);
  memory.fill(table, 0, <usize>cap << 4);
  // In rank order: a later duplicate wins, as in js-tiktoken (whose data is in rank order).
  for (let r: u32 = 0; r < n; r++) if (load<u32>(tokLen + (<usize>r << 2)) != 0) insert(r);
  // Direct tables for one and two bytes.
  byteRank = bump(256 << 2);
  const tmp = bump(16);
  for (let b: u32 = 0; b < 256; b++) {
    store<u8>(tmp, <u8>b);
    store<u32>(byteRank + (<usize>b << 2), lookup(tmp, 1));
  }
  pairRank = bump(65536 << 2);
  memory.fill(pairRank, 0xff, 65536 << 2);
  for (let r: u32 = 0; r < n; r++) {
    if (load<u32>(tokLen + (<usize>r << 2)) == 2) {
      const q = tokBytes + load<u32>(tokOff + (<usize>r << 2));
      // only if this rank is the one the hash table holds (duplicates: the later one)
      if (lookup(q, 2) == r) store<u32>(pairRank + ((<usize>load<u8>(q) << 8 | load<u8>(q + 1)) << 2), r);
    }
  }
  return <i32>n;
}

/** 1 when every single byte has a rank (required by the merge loop), else 0. */
export function allBytesRanked(): i32 {
  for (let b: u32 = 0; b < 256; b++) if (load<u32>(byteRank + (<usize>b << 2)) == NO_RANK) return 0;
  return 1;
}
