// The rank table of one encoding, resident in linear memory for the life of the instance.
//
// Input: js-tiktoken's compact rank text (`bpe_ranks`): lines of
//   <label> <first rank> <base64 token> <base64 token> ...
// where the k-th token of a line has rank <first rank> + k (the format js-tiktoken's own
// Tiktoken constructor parses). Decoded token bytes go to one arena; `tokOff[rank]`,
// `tokLen[rank]` locate them. An open-addressing hash table maps byte strings to ranks:
// entries are 16 bytes (see lookupHashed), linear probing. Two extra direct
// tables give the rank of every single byte and of every two-byte string.
import { bump, bumpTop, ensureMemory } from './memory';

export const NO_RANK: u32 = 0xffffffff;

let b64: usize = 0; // 256-byte base64 decode table (0xff = not base64)
export let tokBytes: usize = 0;
export let tokOff: usize = 0;
export let tokLen: usize = 0;
export let rankCount: u32 = 0; // max rank + 1
let table: usize = 0;
let tmask: u32 = 0;
export let byteRank: usize = 0; // u32[256]
export let pairRank: usize = 0; // u32[65536]

function initBase64(): void {
  b64 = bump(256);
  memory.fill(b64, 0xff, 256);
  for (let i: u32 = 0; i < 26; i++) {
    store<u8>(b64 + 65 + i, <u8>i);
    store<u8>(b64 + 97 + i, <u8>(26 + i));
  }
  for (let i: u32 = 0; i < 10; i++) store<u8>(b64 + 48 + i, <u8>(52 + i));
  store<u8>(b64 + 43, 62); // +
  store<u8>(b64 + 47, 63); // /
}

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

// @ts-ignore: decorator
@inline
function skipSpaces(p: usize, end: usize): usize {
  while (p < end && load<u8>(p) == 0x20) p++;
  return p;
}

// @ts-ignore: decorator
@inline
function tokenEnd(p: usize, end: usize): usize {
  while (p < end) {
    const c = load<u8>(p);
    if (c == 0x20 || c == 0x0a) break;
    p++;
  }
  return p;
}

/** Decoded length of the base64 text [p, e). */
// @ts-ignore: decorator
@inline
function b64Len(p: usize, e: usize): usize {
  let n = e - p;
  let pad: usize = 0;
  if (n > 0 && load<u8>(e - 1) == 0x3d) pad++;
  if (n > 1 && load<u8>(e - 2) == 0x3d) pad++;
  return ((n - pad) * 3) >> 2;
}

/** Decodes base64 [p, e) to out; returns the number of bytes written. */
function b64Decode(p: usize, e: usize, out: usize): usize {
  let acc: u32 = 0;
  let bits: u32 = 0;
  let o = out;
  for (let q = p; q < e; q++) {
    const v = <u32>load<u8>(b64 + load<u8>(q));
    if (v == 0xff) continue; // '=' padding
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      store<u8>(o++, <u8>(acc >> bits));
    }
  }
  return o - out;
}

/**
 * Parses the rank text (ASCII, `len` bytes at `text`) and builds the tables. Returns the
 * number of ranks (max rank + 1), or -1 when the text is malformed.
 */
export function loadRanks(text: usize, len: i32): i32 {
  let end = text + <usize>len;
  // Pass 1: sizes.
  let maxRank: i64 = -1;
  let totalBytes: usize = 0;
  let tokens: u32 = 0;
  let p = text;
  while (p < end) {
    let lineEnd = p;
    while (lineEnd < end && load<u8>(lineEnd) != 0x0a) lineEnd++;
    if (lineEnd > p) {
      let q = tokenEnd(p, lineEnd); // label
      q = skipSpaces(q, lineEnd);
      let offset: i64 = 0;
      let digits = 0;
      while (q < lineEnd) {
        const c = <i32>load<u8>(q);
        if (c < 48 || c > 57) break;
        offset = offset * 10 + (c - 48);
        digits++;
        q++;
      }
      if (digits == 0) return -1;
      let k: i64 = 0;
      while (true) {
        q = skipSpaces(q, lineEnd);
        if (q >= lineEnd) break;
        const e = tokenEnd(q, lineEnd);
        totalBytes += b64Len(q, e);
        k++;
        tokens++;
        q = e;
      }
      if (k > 0 && offset + k - 1 > maxRank) maxRank = offset + k - 1;
    }
    p = lineEnd + 1;
  }
  if (maxRank < 0 || maxRank > 0x3fffffff) return -1;
  rankCount = <u32>(maxRank + 1);
  let cap: u32 = 1024;
  while (cap < tokens * 2 + tokens / 2) cap <<= 1;
  // The text lies at or above the free region (the caller put it there): move it up past
  // what the tables need, so they can be laid below it and it is free space afterwards.
  const need = totalBytes + (<usize>rankCount << 3) + (<usize>cap << 4) + (65536 << 2) + 8192;
  const dest = bumpTop() + need;
  if (dest > text) {
    ensureMemory(dest + <usize>len + 16);
    memory.copy(dest, text, <usize>len);
    text = dest;
    end = text + <usize>len;
  }
  initBase64();
  tokBytes = bump(totalBytes + 16);
  tokOff = bump(<usize>rankCount << 2);
  tokLen = bump(<usize>rankCount << 2);
  memory.fill(tokLen, 0, <usize>rankCount << 2);
  tmask = cap - 1;
  table = bump(<usize>cap << 4);
  memory.fill(table, 0, <usize>cap << 4);
  // Pass 2: decode and insert in text order (later duplicates win).
  let arena: usize = 0;
  p = text;
  while (p < end) {
    let lineEnd = p;
    while (lineEnd < end && load<u8>(lineEnd) != 0x0a) lineEnd++;
    if (lineEnd > p) {
      let q = tokenEnd(p, lineEnd);
      q = skipSpaces(q, lineEnd);
      let offset: u32 = 0;
      while (q < lineEnd) {
        const c = <u32>load<u8>(q);
        if (c < 48 || c > 57) break;
        offset = offset * 10 + (c - 48);
        q++;
      }
      let rank = offset;
      while (true) {
        q = skipSpaces(q, lineEnd);
        if (q >= lineEnd) break;
        const e = tokenEnd(q, lineEnd);
        const n = b64Decode(q, e, tokBytes + arena);
        store<u32>(tokOff + (<usize>rank << 2), <u32>arena);
        store<u32>(tokLen + (<usize>rank << 2), <u32>n);
        insert(rank);
        arena += n;
        rank++;
        q = e;
      }
    }
    p = lineEnd + 1;
  }
  // Direct tables for one and two bytes.
  byteRank = bump(256 << 2);
  const tmp = bump(16);
  for (let b: u32 = 0; b < 256; b++) {
    store<u8>(tmp, <u8>b);
    store<u32>(byteRank + (<usize>b << 2), lookup(tmp, 1));
  }
  pairRank = bump(65536 << 2);
  memory.fill(pairRank, 0xff, 65536 << 2);
  for (let r: u32 = 0; r < rankCount; r++) {
    if (load<u32>(tokLen + (<usize>r << 2)) == 2) {
      const q = tokBytes + load<u32>(tokOff + (<usize>r << 2));
      // only if this rank is the one the hash table holds (duplicates: the later one)
      if (lookup(q, 2) == r) store<u32>(pairRank + ((<usize>load<u8>(q) << 8 | load<u8>(q + 1)) << 2), r);
    }
  }
  return <i32>rankCount;
}

/** 1 when every single byte has a rank (required by the merge loop), else 0. */
export function allBytesRanked(): i32 {
  for (let b: u32 = 0; b < 256; b++) if (load<u32>(byteRank + (<usize>b << 2)) == NO_RANK) return 0;
  return 1;
}
