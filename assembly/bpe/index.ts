// chunkwise BPE tokenizer (a separate module from the kernels): tiktoken's byte-pair
// encoding for cl100k_base and o200k_base.
//
// One instance holds one encoding. The TypeScript side (bindings/bpe.ts):
//   1. copies the Unicode category tables in (alloc + setUnicodeTables),
//   2. copies the binary rank table in (alloc) and calls loadRankTable,
//   3. per call: ensureScratch(bytes), writes UTF-8 at inputPtr(), calls run(len, mode),
//      reads ids at idsPtr() and UTF-16 token ends at endsPtr().
//
// Pre-tokenisation reproduces the encodings' split patterns (as JavaScript's RegExp with
// the u flag runs them in js-tiktoken) by hand over UTF-8: an ASCII fast path over a byte
// class table decides most pieces, the general scanner (a category table per code point)
// the rest. Each piece of up to 16 bytes is then looked up in a map of recent pieces to
// their tokens (a 16-byte-entry map for pieces of up to 8 bytes, a 32-byte one for the
// others); a piece it lacks, or a longer one, is looked up whole in the rank table, else
// merged with tiktoken's algorithm (repeatedly merge the adjacent pair whose concatenation
// has the lowest rank, leftmost first; merged pieces of up to 48 bytes are cached too):
// the quadratic form for short pieces, a heap with lazy deletion for long ones. ASCII
// letter runs are scanned sixteen bytes at a time (wasm SIMD). Counts, ids and offsets
// (every run mode) first cut the text where both patterns always split, 64
// bytes at a time, and look each segment of up to 16 bytes up in a map of segments to
// their count and ids: the pre-tokenizer runs only on segments it lacks (see runSegments).
import { bump, bumpTop, bumpReset, ensureMemory } from './memory';
import { lookup, lookupHashed, hashBytes, byteRank, pairRank, NO_RANK, tokLen, tokBytes, tokOff, rankCount } from './ranks';

export { loadRankTable, allBytesRanked } from './ranks';

/** Allocates `size` bytes permanently (call before the first ensureScratch). */
export function alloc(size: usize): usize {
  return bump(size);
}

/** Token bytes arena; token r is tokenLengths[r] bytes at tokenBytes + tokenOffsets[r]. */
export function tokenBytesPtr(): usize {
  return tokBytes;
}
export function tokenOffsetsPtr(): usize {
  return tokOff;
}
export function tokenLengthsPtr(): usize {
  return tokLen;
}
/** Max rank + 1. */
export function vocabSize(): u32 {
  return rankCount;
}

// ---------------------------------------------------------------- Unicode categories

// Categories, one per code point (generated at build time from the JavaScript engine's
// own \p{…} and \s classes, see scripts/build-wasm.mjs):
const C_LU: u32 = 1; // Lu, Lt
const C_LL: u32 = 2; // Ll
const C_LO: u32 = 3; // Lm, Lo
const C_M: u32 = 4; // Mn, Mc, Me
const C_N: u32 = 5; // Nd, Nl, No
const C_NL: u32 = 7; // \r, \n
// 0: anything else; 6: other whitespace (\s)

// Sets as bit masks over 1 << category.
const S_L: u32 = (1 << C_LU) | (1 << C_LL) | (1 << C_LO); // \p{L}
const S_N: u32 = 1 << C_N; // \p{N}
const S_WS: u32 = (1 << 6) | (1 << C_NL); // \s
const S_PREFIX: u32 = 1 | (1 << C_M) | (1 << 6); // [^\r\n\p{L}\p{N}]
const S_PUNCT: u32 = 1 | (1 << C_M); // [^\s\p{L}\p{N}]
const S_UP: u32 = (1 << C_LU) | (1 << C_LO) | (1 << C_M); // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
const S_LOW: u32 = (1 << C_LL) | (1 << C_LO) | (1 << C_M); // [\p{Ll}\p{Lm}\p{Lo}\p{M}]

let stage1: usize = 0; // u8[0x1100]: block of each 256 code points
let stage2: usize = 0; // u8[blocks * 256]: category of each code point

// The category bit of each byte for the ASCII fast path: 1 << category for ASCII,
// B_HIGH for a byte of a multi-byte character.
const B_OTHER: u32 = 1;
const B_UP: u32 = 1 << C_LU;
const B_LOW: u32 = 1 << C_LL;
const B_LETTER: u32 = B_UP | B_LOW;
const B_N: u32 = 1 << C_N;
const B_SPACE: u32 = 1 << 6;
const B_NL: u32 = 1 << C_NL;
const B_HIGH: u32 = 1 << 8;
let byteClass: usize = 0; // u16[256]

export function setUnicodeTables(s1: usize, s2: usize): void {
  stage1 = s1;
  stage2 = s2;
  byteClass = bump(512);
  for (let b: usize = 0; b < 256; b++) store<u16>(byteClass + (b << 1), <u16>(b < 0x80 ? <u32>1 << <u32>load<u8>(stage2 + b) : B_HIGH));
  setTailTables();
}

/** The category bit of the byte at p (B_HIGH for any byte ≥ 0x80). */
// @ts-ignore: decorator
@inline
function classAt(p: usize): u32 {
  return <u32>load<u16>(byteClass + (<usize>load<u8>(p) << 1));
}

let clen: usize = 1; // byte length of the character catAt last read

/** Category bit (1 << category) of the character at p; sets clen. */
// @ts-ignore: decorator
@inline
function catAt(p: usize): u32 {
  const b0 = <u32>load<u8>(p);
  let cp: u32;
  if (b0 < 0x80) {
    clen = 1;
    cp = b0;
  } else if (b0 < 0xe0) {
    cp = ((b0 & 0x1f) << 6) | (<u32>load<u8>(p + 1) & 0x3f);
    clen = 2;
  } else if (b0 < 0xf0) {
    cp = ((b0 & 0x0f) << 12) | ((<u32>load<u8>(p + 1) & 0x3f) << 6) | (<u32>load<u8>(p + 2) & 0x3f);
    clen = 3;
  } else {
    cp =
      ((b0 & 0x07) << 18) |
      ((<u32>load<u8>(p + 1) & 0x3f) << 12) |
      ((<u32>load<u8>(p + 2) & 0x3f) << 6) |
      (<u32>load<u8>(p + 3) & 0x3f);
    clen = 4;
    if (cp >= 0x110000) return 1;
  }
  return 1 << <u32>load<u8>(stage2 + ((<usize>load<u8>(stage1 + (cp >> 8))) << 8) + (cp & 0xff));
}

// ---------------------------------------------------------------- pre-tokenisation

/** End of the contraction ('s 't 're 've 'm 'll 'd, any case) starting at p (a '), or p. */
// @ts-ignore: decorator
@inline
function contraction(p: usize, end: usize): usize {
  if (p + 1 >= end) return p;
  const c1 = <u32>load<u8>(p + 1) | 0x20;
  if (c1 == 0x73 || c1 == 0x74 || c1 == 0x6d || c1 == 0x64) return p + 2; // s t m d
  if (p + 2 < end) {
    const c2 = <u32>load<u8>(p + 2) | 0x20;
    if ((c1 == 0x72 || c1 == 0x76) && c2 == 0x65) return p + 3; // re ve
    if (c1 == 0x6c && c2 == 0x6c) return p + 3; // ll
  }
  return p;
}

// @ts-ignore: decorator
@inline
function optContraction(p: usize, end: usize): usize {
  if (p < end && load<u8>(p) == 0x27) return contraction(p, end);
  return p;
}

/**
 * End of the run of ASCII letters (`lowerOnly`: of a–z) starting at p, sixteen bytes at a
 * time (wasm SIMD), then eight (SWAR), reading whole vectors and words inside [p, end)
 * only: stops at the first other byte, or where fewer than eight bytes are left.
 */
// @ts-ignore: decorator
@inline
function asciiLetterRun(p: usize, end: usize, lowerOnly: bool): usize {
  while (p + 16 <= end) {
    const v = v128.load(p);
    const y = lowerOnly ? v : v128.or(v, i8x16.splat(0x20));
    // a letter: y - 'a' < 26 as unsigned bytes (bytes ≥ 0x80 give ≥ 0x1f)
    const isLetter = i8x16.lt_u(i8x16.sub(y, i8x16.splat(0x61)), i8x16.splat(26));
    const others = ~i8x16.bitmask(isLetter) & 0xffff;
    if (others != 0) return p + <usize>ctz(others);
    p += 16;
  }
  while (p + 8 <= end) {
    const x = load<u64>(p);
    const y = (lowerOnly ? x : x | 0x2020202020202020) & 0x7f7f7f7f7f7f7f7f;
    // per byte, high bit: y ≥ 0x61, and y ≥ 0x7b; a letter is the first and not the second, in an ASCII byte
    const letters = (y + 0x1f1f1f1f1f1f1f1f) & ~(y + 0x0505050505050505) & ~x & 0x8080808080808080;
    const others = ~letters & 0x8080808080808080;
    if (others != 0) return p + <usize>(ctz(others) >> 3);
    p += 8;
  }
  return p;
}

/** End of the longest run of characters in `set` starting at p. */
// @ts-ignore: decorator
@inline
function runOf(p: usize, end: usize, set: u32): usize {
  // \p{L} and the o200k lower-case class hold exactly A–Z a–z, and a–z, of ASCII
  if (set == S_L) p = asciiLetterRun(p, end, false);
  else if (set == S_LOW) p = asciiLetterRun(p, end, true);
  while (p < end) {
    const b = load<u8>(p);
    if (b < 0x80) {
      if (((1 << <u32>load<u8>(stage2 + b)) & set) == 0) break; // block 0 is first in stage2
      p++;
    } else {
      if ((catAt(p) & set) == 0) break;
      p += clen;
    }
  }
  return p;
}

/** Whitespace alternatives shared by both patterns: \s*[\r\n]+ | \s+(?!\S) | \s+ */
// @ts-ignore: decorator
@inline
function whitespaceEnd(p: usize, end: usize): usize {
  let r = p;
  let lastStart = p;
  let nlEnd: usize = 0;
  while (r < end) {
    const bit = catAt(r);
    if ((bit & S_WS) == 0) break;
    if (bit == 1 << C_NL) nlEnd = r + 1;
    lastStart = r;
    r += clen;
  }
  if (nlEnd != 0) return nlEnd; // \s*[\r\n]+
  if (r == end) return r; // \s+(?!\S) at the end of the text
  if (lastStart > p) return lastStart; // \s+(?!\S): all but the last whitespace character
  return r; // \s+
}

/**
 * End of the piece starting at p where the piece and the characters that decide its end
 * are ASCII, for cl100k_base (`o200k` false) or o200k_base: letters after an optional
 * prefix (and o200k_base's case rule and contraction suffix), cl100k_base's contractions,
 * digits, punctuation. 0 where the general scanner must decide (whitespace, line feeds,
 * any byte ≥ 0x80 met on the way).
 */
// @ts-ignore: decorator
@inline
function asciiPieceEnd(p: usize, end: usize, o200k: bool): usize {
  const b = <u32>load<u8>(p);
  const c0 = classAt(p);
  let q = p;
  if ((c0 & B_LETTER) == 0) {
    if ((c0 & (B_OTHER | B_SPACE)) == 0) {
      if ((c0 & B_N) == 0) return 0; // a line feed or a byte ≥ 0x80
      // \p{N}{1,3}
      let r = p + 1;
      for (let k = 0; k < 2 && r < end; k++) {
        const c = classAt(r);
        if (c & B_HIGH) return 0;
        if ((c & B_N) == 0) break;
        r++;
      }
      return r;
    }
    if (!o200k && b == 0x27) {
      const r = contraction(p, end);
      if (r != p) return r;
    }
    if (p + 1 >= end) return 0;
    const c1 = classAt(p + 1);
    if (c1 & B_LETTER) q = p + 1; // a prefix, then letters
    else {
      // ` ?[^\s\p{L}\p{N}]+` then `[\r\n]*` (o200k_base: `[\r\n/]*`)
      let r: usize;
      if (c0 & B_OTHER) r = p + 1;
      else if (b == 0x20 && (c1 & B_OTHER) != 0) r = p + 2;
      // whitespace before a digit (or a tab before punctuation): `\s+` of one character
      else return (c1 & (B_SPACE | B_NL | B_HIGH)) == 0 ? p + 1 : 0;
      while (r < end) {
        const c = classAt(r);
        if (c & B_HIGH) return 0;
        if ((c & B_OTHER) == 0) break;
        r++;
      }
      while (r < end) {
        const x = load<u8>(r);
        if (x != 0x0a && x != 0x0d && (!o200k || x != 0x2f)) break;
        r++;
      }
      return r;
    }
  }
  let u = q;
  if (o200k) {
    // [A-Z]* then [a-z]* (at least one letter), then a contraction
    while (u < end && classAt(u) == B_UP) u++;
    u = asciiLetterRun(u, end, true);
    while (u < end && classAt(u) == B_LOW) u++;
  } else {
    u = asciiLetterRun(q + 1, end, false);
    while (u < end && (classAt(u) & B_LETTER) != 0) u++;
  }
  if (u < end) {
    if (classAt(u) & B_HIGH) return 0;
    if (o200k && load<u8>(u) == 0x27) u = contraction(u, end);
  }
  return u;
}

/** End of the piece starting at p (before `end`), for cl100k_base or o200k_base. */
// @ts-ignore: decorator
@inline
function pieceEnd(p: usize, end: usize, o200k: bool): usize {
  const e = asciiPieceEnd(p, end, o200k);
  if (e != 0) return e;
  return o200k ? pieceEndO200k(p, end) : pieceEndCl(p, end);
}

/** cl100k_base: end of the piece starting at p. */
function pieceEndCl(p: usize, end: usize): usize {
  const b = load<u8>(p);
  // the commonest pieces first: ASCII letters, or a space and ASCII letters ([^\r\n\p{L}\p{N}]?\p{L}+)
  if (<u32>(b | 0x20) - 0x61 < 26) return runOf(p + 1, end, S_L);
  if (b == 0x20 && p + 1 < end && <u32>(load<u8>(p + 1) | 0x20) - 0x61 < 26) return runOf(p + 2, end, S_L);
  // 's|'t|'re|'ve|'m|'ll|'d (any case)
  if (b == 0x27) {
    const r = contraction(p, end);
    if (r != p) return r;
  }
  const bit = catAt(p);
  const l = clen;
  // [^\r\n\p{L}\p{N}]?\p{L}+
  if (bit & S_L) return runOf(p + l, end, S_L);
  if (bit & S_PREFIX) {
    const q = p + l;
    if (q < end && catAt(q) & S_L) return runOf(q + clen, end, S_L);
  }
  // \p{N}{1,3}
  if (bit & S_N) {
    let q = p + l;
    for (let k = 0; k < 2 && q < end; k++) {
      if ((catAt(q) & S_N) == 0) break;
      q += clen;
    }
    return q;
  }
  // ?[^\s\p{L}\p{N}]+[\r\n]*
  let q: usize = 0;
  if (b == 0x20 && p + 1 < end && catAt(p + 1) & S_PUNCT) q = p + 1 + clen;
  else if (bit & S_PUNCT) q = p + l;
  if (q != 0) {
    q = runOf(q, end, S_PUNCT);
    while (q < end) {
      const c = load<u8>(q);
      if (c != 0x0a && c != 0x0d) break;
      q++;
    }
    return q;
  }
  return whitespaceEnd(p, end);
}

/** o200k_base letters, first alternative without its prefix: [UP]*[LOW]+(contraction)? */
function lettersLowFrom(q: usize, end: usize): usize {
  if (q >= end) return 0;
  let u = q;
  let lastLowEnd: usize = 0;
  let bit: u32 = 0;
  while (u < end) {
    bit = catAt(u);
    if ((bit & S_UP) == 0) break;
    if (bit & S_LOW) lastLowEnd = u + clen;
    u += clen;
  }
  if (u < end && bit & S_LOW) return optContraction(runOf(u + clen, end, S_LOW), end);
  if (lastLowEnd != 0) return optContraction(lastLowEnd, end);
  return 0;
}

/** o200k_base letters, second alternative without its prefix: [UP]+[LOW]*(contraction)? */
function lettersUpFrom(q: usize, end: usize): usize {
  if (q >= end) return 0;
  if ((catAt(q) & S_UP) == 0) return 0;
  const u = runOf(q + clen, end, S_UP);
  return optContraction(runOf(u, end, S_LOW), end);
}

/** o200k_base: end of the piece starting at p. */
function pieceEndO200k(p: usize, end: usize): usize {
  const b = load<u8>(p);
  const bit = catAt(p);
  const l = clen;
  const pre = (bit & S_PREFIX) != 0;
  if (bit & (S_L | S_PREFIX)) {
    let r: usize = 0;
    if (pre) r = lettersLowFrom(p + l, end);
    if (r == 0) r = lettersLowFrom(p, end);
    if (r == 0 && pre) r = lettersUpFrom(p + l, end);
    if (r == 0) r = lettersUpFrom(p, end);
    if (r != 0) return r;
  }
  if (bit & S_N) {
    let q = p + l;
    for (let k = 0; k < 2 && q < end; k++) {
      if ((catAt(q) & S_N) == 0) break;
      q += clen;
    }
    return q;
  }
  // ?[^\s\p{L}\p{N}]+[\r\n/]*
  let q: usize = 0;
  if (b == 0x20 && p + 1 < end && catAt(p + 1) & S_PUNCT) q = p + 1 + clen;
  else if (bit & S_PUNCT) q = p + l;
  if (q != 0) {
    q = runOf(q, end, S_PUNCT);
    while (q < end) {
      const c = load<u8>(q);
      if (c != 0x0a && c != 0x0d && c != 0x2f) break;
      q++;
    }
    return q;
  }
  return whitespaceEnd(p, end);
}

// ---------------------------------------------------------------- scratch and output

let scratchBase: usize = 0;
let inCap: usize = 0;
let inBuf: usize = 0;
let utf16Buf: usize = 0;
let idsBuf: usize = 0;
let endsBuf: usize = 0;
let mergeBuf: usize = 0; // last region: grows in place
let mergeCap: usize = 0; // pieces up to this many bytes fit

/** Makes room for `bytes` bytes of UTF-8 input; returns the input pointer. */
export function ensureScratch(bytes: usize): usize {
  if (scratchBase == 0) {
    initCache(); // permanent, below the scratch region
    scratchBase = bumpTop();
  }
  if (bytes <= inCap && inBuf != 0) return inBuf;
  let cap: usize = 4096;
  while (cap < bytes) cap <<= 1;
  bumpReset(scratchBase);
  inCap = cap;
  inBuf = bump(cap + 16);
  utf16Buf = bump(cap); // UTF-16 input of up to cap / 3 code units, for fromUtf16
  idsBuf = bump(cap << 2);
  endsBuf = bump(cap << 2);
  mergeBuf = bumpTop();
  mergeCap = 0;
  ensureMerge(256);
  return inBuf;
}

/** Merge scratch for a piece of n bytes: S, T, R, NX, PV (u32 each) then the heap (u64 × 2n). */
function ensureMerge(n: usize): void {
  if (n <= mergeCap) return;
  let cap: usize = mergeCap < 256 ? 256 : mergeCap;
  while (cap < n) cap <<= 1;
  ensureMemory(mergeBuf + (cap + 2) * 48 + 64);
  mergeCap = cap;
}

export function inputPtr(): usize {
  return inBuf;
}

/** Where fromUtf16 reads UTF-16 (little-endian) code units from. */
export function utf16Ptr(): usize {
  return utf16Buf;
}

/**
 * Converts `units` UTF-16 code units at utf16Ptr() to UTF-8 at inputPtr(), as the WHATWG
 * TextEncoder does (a lone surrogate becomes U+FFFD); returns the bytes written. Units
 * must be at most the `bytes` of the last ensureScratch over 3. Sixteen ASCII units are
 * narrowed at once (wasm SIMD).
 */
export function fromUtf16(units: i32): i32 {
  return utf16ToUtf8(utf16Buf, units);
}

/**
 * Token count of the `units` code units from code unit `at` of the UTF-16 text at
 * utf16Ptr(), as run(fromUtf16(…), 0) on that range alone gives (a surrogate half at
 * either edge is lone there, U+FFFD). `at + units` must be at most the units the last
 * ensureScratch made room for, `units` at most its `bytes` over 3.
 */
export function countUtf16Range(at: i32, units: i32): i32 {
  return run(utf16ToUtf8(utf16Buf + (<usize>at << 1), units), 0);
}

/**
 * Token counts of `n` ranges of the UTF-16 text at utf16Ptr(), each as countUtf16Range
 * gives it: range i is the i32 pair (at, units) at `list` + 8·i, and its count replaces
 * its `at`. One call for the many short ranges of a text's spans (their edges), so each
 * costs no call across the module's boundary. `list` must not overlap the input buffer.
 */
export function countUtf16Ranges(list: usize, n: i32): void {
  for (let i: usize = 0; i < <usize>n; i++) {
    const r = list + (i << 3);
    const units = load<i32>(r + 4);
    store<i32>(r, units == 0 ? 0 : run(utf16ToUtf8(utf16Buf + (<usize>load<i32>(r) << 1), units), 0));
  }
}

/** JavaScript's \s for one UTF-16 code unit. */
// @ts-ignore: decorator
@inline
function isSpace16(c: u32): bool {
  if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff;
}

/**
 * Whether the place between the code units `prev` and `c` is a safe cut of both split
 * patterns (the rule of bindings/bpe.ts's isSafeCut): a space after a character that is
 * not whitespace; after a line feed, before a character that is neither whitespace nor
 * `/`; between an ASCII letter and an ASCII digit, either way round.
 */
// @ts-ignore: decorator
@inline
function cutBetween(prev: u32, c: u32): bool {
  if (c == 0x20) return !isSpace16(prev);
  if (prev == 0x0a) return c != 0x2f && !isSpace16(c);
  const cd = c - 0x30 < 10;
  const pd = prev - 0x30 < 10;
  return cd ? (prev | 0x20) - 0x61 < 26 : pd && (c | 0x20) - 0x61 < 26;
}

/** Tokens of the code units [from, to) of the UTF-16 text at utf16Ptr(), alone. */
// @ts-ignore: decorator
@inline
function countRange16(from: i32, to: i32): i32 {
  return to <= from ? 0 : run(utf16ToUtf8(utf16Buf + (<usize>from << 1), to - from), 0);
}

/**
 * Token counts of `n` spans of the UTF-16 text at utf16Ptr() that come in text order, the
 * text they share counted once: span i is the i32 pair (start, end) at `list` + 8·i, in
 * code units of that text. Each span is cut at its first and last safe cut (see
 * cutBetween) within `edge` code units of its edges, `a ≤ b`, and counts `count([start,
 * a)) + count([a, b)) + count([b, end))`; the middles are differences of running counts
 * over the stretches between consecutive cuts of all the spans, each stretch counted once
 * (only where some middle covers it). A span without such a cut is counted whole. Uses 16
 * bytes per span at `work`. Returns 1 with each count written over its span's start, or 0
 * (nothing written) where the cuts are not in order (the caller counts another way).
 */
export function countOrderedSpans(list: usize, n: i32, work: usize, edge: i32): i32 {
  const A = work; // a per span, −1: no cut
  const B = work + (<usize>n << 2);
  const PA = B + (<usize>n << 2); // running count at a, then at b
  const PB = PA + (<usize>n << 2);
  let lastA: i32 = -1;
  let lastB: i32 = -1;
  const u = utf16Buf;
  for (let i: usize = 0; i < <usize>n; i++) {
    const start = load<i32>(list + (i << 3));
    const end = load<i32>(list + (i << 3) + 4);
    const lim1 = min(end, start + edge);
    let c1 = start + 1;
    if (c1 < lim1) {
      let prev = <u32>load<u16>(u + (<usize>start << 1));
      for (; c1 < lim1; c1++) {
        const c = <u32>load<u16>(u + (<usize>c1 << 1));
        if (cutBetween(prev, c)) break;
        prev = c;
      }
    }
    if (c1 >= lim1) {
      store<i32>(A + (i << 2), -1);
      continue;
    }
    const lim2 = max(c1, end - edge);
    let c2 = end - 1;
    let next = <u32>load<u16>(u + (<usize>c2 << 1));
    for (; c2 > lim2; c2--) {
      const c = <u32>load<u16>(u + (<usize>(c2 - 1) << 1));
      if (cutBetween(c, next)) break;
      next = c;
    }
    if (!cutBetween(<u32>load<u16>(u + (<usize>(c2 - 1) << 1)), <u32>load<u16>(u + (<usize>c2 << 1)))) c2 = c1;
    if (c1 < lastA || c2 < lastB) return 0;
    lastA = c1;
    lastB = c2;
    store<i32>(A + (i << 2), c1);
    store<i32>(B + (i << 2), c2);
  }
  // the cuts in order, a's before b's at equal offsets: running count P from the first,
  // a stretch counted where the middles open over it (depth > 0)
  let P: i32 = 0;
  let depth: i32 = 0;
  let last: i32 = -1;
  let ia: usize = 0;
  let ib: usize = 0;
  while (true) {
    while (ia < <usize>n && load<i32>(A + (ia << 2)) < 0) ia++;
    while (ib < <usize>n && load<i32>(A + (ib << 2)) < 0) ib++;
    if (ia >= <usize>n && ib >= <usize>n) break;
    const x = ia < <usize>n ? load<i32>(A + (ia << 2)) : i32.MAX_VALUE;
    const y = ib < <usize>n ? load<i32>(B + (ib << 2)) : i32.MAX_VALUE;
    const v = x <= y ? x : y;
    if (v != last) {
      if (last >= 0 && depth > 0) P += countRange16(last, v);
      last = v;
    }
    if (x == v) {
      store<i32>(PA + (ia << 2), P);
      if (load<i32>(B + (ia << 2)) > x) depth++;
      ia++;
    } else {
      store<i32>(PB + (ib << 2), P);
      if (load<i32>(A + (ib << 2)) < y) depth--;
      ib++;
    }
  }
  for (let i: usize = 0; i < <usize>n; i++) {
    const start = load<i32>(list + (i << 3));
    const end = load<i32>(list + (i << 3) + 4);
    const a = load<i32>(A + (i << 2));
    let c: i32;
    if (a < 0) c = countRange16(start, end);
    else {
      const b = load<i32>(B + (i << 2));
      c = countRange16(start, a) + countRange16(b, end) + (b > a ? load<i32>(PB + (i << 2)) - load<i32>(PA + (i << 2)) : 0);
    }
    store<i32>(list + (i << 3), c);
  }
  return 1;
}

/** `units` UTF-16 code units at `src` to UTF-8 at inputPtr() (see fromUtf16); returns the bytes written. */
function utf16ToUtf8(src: usize, units: i32): i32 {
  let s = src;
  const se = src + (<usize>units << 1);
  let o = inBuf;
  const high = i16x8.splat(<i16>0xff80);
  while (s < se) {
    if (s + 32 <= se) {
      const a = v128.load(s);
      const b = v128.load(s + 16);
      if (!v128.any_true(v128.and(v128.or(a, b), high))) {
        v128.store(o, i8x16.narrow_i16x8_u(a, b)); // the input buffer has spare bytes past its end
        s += 32;
        o += 16;
        continue;
      }
    }
    const c = <u32>load<u16>(s);
    s += 2;
    if (c < 0x80) {
      store<u8>(o, <u8>c);
      o += 1;
    } else if (c < 0x800) {
      store<u8>(o, <u8>(0xc0 | (c >> 6)));
      store<u8>(o + 1, <u8>(0x80 | (c & 0x3f)));
      o += 2;
    } else if (c < 0xd800 || c > 0xdfff) {
      store<u8>(o, <u8>(0xe0 | (c >> 12)));
      store<u8>(o + 1, <u8>(0x80 | ((c >> 6) & 0x3f)));
      store<u8>(o + 2, <u8>(0x80 | (c & 0x3f)));
      o += 3;
    } else {
      const d = s < se ? <u32>load<u16>(s) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        store<u8>(o, <u8>(0xf0 | (cp >> 18)));
        store<u8>(o + 1, <u8>(0x80 | ((cp >> 12) & 0x3f)));
        store<u8>(o + 2, <u8>(0x80 | ((cp >> 6) & 0x3f)));
        store<u8>(o + 3, <u8>(0x80 | (cp & 0x3f)));
        s += 2;
        o += 4;
      } else {
        // a lone surrogate: U+FFFD
        store<u8>(o, 0xef);
        store<u8>(o + 1, 0xbf);
        store<u8>(o + 2, 0xbd);
        o += 3;
      }
    }
  }
  return <i32>(o - inBuf);
}
export function idsPtr(): usize {
  return idsBuf;
}
export function endsPtr(): usize {
  return endsBuf;
}
export function scratchTop(): usize {
  return mergeBuf + (mergeCap + 2) * 48 + 64;
}

let mode: i32 = 0; // 0 count, 1 ids, 2 ids + UTF-16 ends
let nOut: i32 = 0;
let curByte: usize = 0; // UTF-16 cursor over the input, always at a character start
let cur16: i32 = 0;

// @ts-ignore: decorator
@inline
function emit(rank: u32, byteEnd: usize): void {
  if (mode != 0) {
    store<u32>(idsBuf + (<usize>nOut << 2), rank);
    if (mode == 2) {
      let p = curByte;
      let u = cur16;
      // up to eight ASCII bytes at once (the input has spare bytes past its end)
      if (p < byteEnd && byteEnd - p <= 8 && (load<u64>(p) & (<u64>0x8080808080808080 >> (<u64>(8 - (byteEnd - p)) << 3))) == 0) {
        u += <i32>(byteEnd - p);
        p = byteEnd;
      }
      while (p < byteEnd) {
        const x = load<u8>(p);
        if (x < 0x80) p += 1;
        else if (x < 0xe0) p += 2;
        else if (x < 0xf0) p += 3;
        else {
          p += 4;
          u++;
        }
        u++;
      }
      curByte = p;
      cur16 = u;
      store<i32>(endsBuf + (<usize>nOut << 2), u);
    }
  }
  nOut++;
}

// ---------------------------------------------------------------- byte-pair merge

const SMALL: usize = 128;

// @ts-ignore: decorator
@inline
function rank2(p: usize): u32 {
  return load<u32>(pairRank + ((<usize>load<u8>(p) << 8 | <usize>load<u8>(p + 1)) << 2));
}

// @ts-ignore: decorator
@inline
function rankOf(p: usize, n: usize): u32 {
  return n == 2 ? rank2(p) : lookup(p, n);
}

/**
 * tiktoken's merge for short pieces: parts as parallel arrays, removal by moving. Leaves
 * the result in the merge buffer: part i (i < m - 1) has rank T[i] and ends at S[i + 1]
 * (bytes from the piece's start), with T at mergeBuf + 2 (n + 2) · 4; returns m.
 */
function mergeSmall(ps: usize, n: usize): usize {
  const S = mergeBuf; // start of part i (u32), m entries (last = n)
  const R = S + ((n + 2) << 2); // rank of part i joined with part i + 1
  const T = R + ((n + 2) << 2); // rank of part i
  for (let i: usize = 0; i < n; i++) {
    store<u32>(S + (i << 2), <u32>i);
    store<u32>(T + (i << 2), load<u32>(byteRank + (<usize>load<u8>(ps + i) << 2)));
    store<u32>(R + (i << 2), i + 1 < n ? rank2(ps + i) : NO_RANK);
  }
  store<u32>(S + (n << 2), <u32>n);
  store<u32>(R + (n << 2), NO_RANK);
  let m = n + 1; // entries including the end sentinel
  while (m > 2) {
    let minRank = NO_RANK;
    let at: usize = 0;
    for (let i: usize = 0; i + 2 < m; i++) {
      const r = load<u32>(R + (i << 2));
      if (r < minRank) {
        minRank = r;
        at = i;
      }
    }
    if (minRank == NO_RANK) break;
    store<u32>(T + (at << 2), minRank);
    const sAt = <usize>load<u32>(S + (at << 2));
    if (at > 0) {
      const sPrev = <usize>load<u32>(S + ((at - 1) << 2));
      store<u32>(R + ((at - 1) << 2), at + 2 < m ? rankOf(ps + sPrev, <usize>load<u32>(S + ((at + 2) << 2)) - sPrev) : NO_RANK);
    }
    store<u32>(R + (at << 2), at + 3 < m ? rankOf(ps + sAt, <usize>load<u32>(S + ((at + 3) << 2)) - sAt) : NO_RANK);
    // remove entry at + 1
    const tail = (m - (at + 2)) << 2;
    memory.copy(S + ((at + 1) << 2), S + ((at + 2) << 2), tail);
    memory.copy(R + ((at + 1) << 2), R + ((at + 2) << 2), tail);
    memory.copy(T + ((at + 1) << 2), T + ((at + 2) << 2), tail);
    m--;
  }
  return m;
}

// A two-way set-associative cache of merged pieces (up to CACHE_BYTES bytes, CACHE_TOKENS
// tokens): slot = hash u32 | length u8 | token count u8 | pad | bytes[48] | ranks u32[12] | ends u8[12]
const CACHE_SETS: u32 = 8192; // of two slots
const CACHE_SLOT: usize = 128;
const CACHE_BYTES: usize = 48;
const CACHE_TOKENS: usize = 12;
let cache: usize = 0;

function initCache(): void {
  if (cache == 0) {
    cache = bump(<usize>CACHE_SETS * CACHE_SLOT * 2);
    memory.fill(cache, 0, <usize>CACHE_SETS * CACHE_SLOT * 2);
    pieceCache = bump(<usize>32 << PIECE_LOG);
    memory.fill(pieceCache, 0, <usize>32 << PIECE_LOG);
    tiny = bump(<usize>16 << TINY_LOG);
    memory.fill(tiny, 0, <usize>16 << TINY_LOG);
    initSegments();
  }
}

// @ts-ignore: decorator
@inline
function bytesEqual(a: usize, b: usize, n: usize): bool {
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

/** Merges a short piece through the cache and emits its tokens. */
function mergeSmallCached(ps: usize, n: usize, h: u32): void {
  // two ways per set: a new entry goes first, the first moves second
  const first = cache + (<usize>((h >> 7) & (CACHE_SETS - 1))) * (CACHE_SLOT << 1);
  if (n <= CACHE_BYTES) {
    for (let way: usize = 0; way < 2; way++) {
      const slot = first + way * CACHE_SLOT;
      if (load<u32>(slot) == h && <usize>load<u8>(slot + 4) == n && bytesEqual(slot + 8, ps, n)) {
        const k = <usize>load<u8>(slot + 5);
        for (let i: usize = 0; i < k; i++) emit(load<u32>(slot + 56 + (i << 2)), ps + <usize>load<u8>(slot + 104 + i));
        return;
      }
    }
  }
  const m = mergeSmall(ps, n);
  const S = mergeBuf;
  const T = S + ((n + 2) << 3);
  const k = m - 1;
  for (let i: usize = 0; i < k; i++) emit(load<u32>(T + (i << 2)), ps + load<u32>(S + ((i + 1) << 2)));
  if (n <= CACHE_BYTES && k <= CACHE_TOKENS) {
    const slot = first;
    memory.copy(slot + CACHE_SLOT, slot, CACHE_SLOT);
    store<u32>(slot, h);
    store<u8>(slot + 4, <u8>n);
    store<u8>(slot + 5, <u8>k);
    memory.copy(slot + 8, ps, n);
    for (let i: usize = 0; i < k; i++) {
      store<u32>(slot + 56 + (i << 2), load<u32>(T + (i << 2)));
      store<u8>(slot + 104 + i, <u8>load<u32>(S + ((i + 1) << 2)));
    }
  }
}

/** The same merge order for long pieces: a linked list of parts and a min-heap of (rank, start). */
function mergeHeap(ps: usize, n: usize): void {
  ensureMerge(n);
  const NONE = <u32>n;
  const NX = mergeBuf;
  const PV = NX + ((n + 2) << 2);
  const T = PV + ((n + 2) << 2);
  const R = T + ((n + 2) << 2);
  const H = (R + ((n + 2) << 2) + 7) & ~(<usize>7);
  let hn: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    store<u32>(NX + (i << 2), <u32>(i + 1));
    store<u32>(PV + (i << 2), i == 0 ? NONE : <u32>(i - 1));
    store<u32>(T + (i << 2), load<u32>(byteRank + (<usize>load<u8>(ps + i) << 2)));
    const r = i + 1 < n ? rank2(ps + i) : NO_RANK;
    store<u32>(R + (i << 2), r);
    if (r != NO_RANK) hn = heapPush(H, hn, (<u64>r << 32) | <u64>i);
  }
  while (hn > 0) {
    const top = load<u64>(H);
    hn = heapPop(H, hn);
    const r = <u32>(top >> 32);
    const i = <usize>(<u32>top);
    if (load<u32>(R + (i << 2)) != r) continue; // stale
    const j = <usize>load<u32>(NX + (i << 2));
    const k = <usize>load<u32>(NX + (j << 2));
    store<u32>(T + (i << 2), r);
    store<u32>(R + (j << 2), NO_RANK);
    store<u32>(NX + (i << 2), <u32>k);
    if (k < n) store<u32>(PV + (k << 2), <u32>i);
    if (k < n) {
      const e = <usize>load<u32>(NX + (k << 2)); // NONE == n: the end
      const nr = lookup(ps + i, e - i);
      store<u32>(R + (i << 2), nr);
      if (nr != NO_RANK) hn = heapPush(H, hn, (<u64>nr << 32) | <u64>i);
    } else store<u32>(R + (i << 2), NO_RANK);
    const h = <usize>load<u32>(PV + (i << 2));
    if (h < n) {
      const pr = lookup(ps + h, k - h);
      store<u32>(R + (h << 2), pr);
      if (pr != NO_RANK) hn = heapPush(H, hn, (<u64>pr << 32) | <u64>h);
    }
  }
  let i: usize = 0;
  while (i < n) {
    const k = <usize>load<u32>(NX + (i << 2));
    emit(load<u32>(T + (i << 2)), ps + k);
    i = k;
  }
}

function heapPush(H: usize, n: usize, v: u64): usize {
  let i = n;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pv = load<u64>(H + (parent << 3));
    if (pv <= v) break;
    store<u64>(H + (i << 3), pv);
    i = parent;
  }
  store<u64>(H + (i << 3), v);
  return n + 1;
}

function heapPop(H: usize, n: usize): usize {
  const last = n - 1;
  if (last == 0) return 0;
  const v = load<u64>(H + (last << 3));
  let i: usize = 0;
  while (true) {
    let c: usize = 2 * i + 1;
    if (c >= last) break;
    let cv = load<u64>(H + (c << 3));
    if (c + 1 < last) {
      const rv = load<u64>(H + ((c + 1) << 3));
      if (rv < cv) {
        c++;
        cv = rv;
      }
    }
    if (v <= cv) break;
    store<u64>(H + (i << 3), cv);
    i = c;
  }
  store<u64>(H + (i << 3), v);
  return last;
}

// A map of whole pieces of up to PIECE_BYTES bytes (nearly every piece of ordinary text)
// to their tokens, in front of everything else (text repeats its words; the rank table
// is megabytes and a probe there mostly misses the CPU caches). Open addressing with
// linear probing over 32-byte entries; when it is PIECE_FULL full it is emptied. Entry =
// the piece's first 8 bytes | its next 8 bytes (zero past its end) | length u8 (0: a free
// entry) | token count u8 (PIECE_MANY: more than PIECE_TOKENS tokens, merged through the
// merge cache) | the end of its first two tokens u8 × 2 (bytes from the piece's start) |
// ranks u32 × 3.
const PIECE_LOG: u32 = 14;
const PIECE_MASK: usize = (<usize>1 << PIECE_LOG) - 1;
const PIECE_FULL: u32 = (3 << PIECE_LOG) >> 2;
const PIECE_BYTES: usize = 16;
const PIECE_TOKENS: u32 = 3;
const PIECE_MANY: u32 = 0xff;
let pieceCache: usize = 0;
let pieceCount: u32 = 0;

// @ts-ignore: decorator
@inline
function maskBytes(n: usize): u64 {
  // the low n bytes of a word (n ≤ 8)
  return <u64>-1 >> (<u64>(8 - n) << 3);
}

/** Emits the tokens of a cached entry (k ≤ PIECE_TOKENS) for the piece [ps, ps + n), in mode m. */
// @ts-ignore: decorator
@inline
function emitEntry(e: usize, ps: usize, n: usize, k: u32, m: i32): void {
  if (m == 0) {
    nOut += <i32>k;
  } else if (m == 1) {
    // three stores whatever k: the ids buffer has spare room past its end
    const o = idsBuf + (<usize>nOut << 2);
    store<u32>(o, load<u32>(e + 20));
    store<u32>(o + 4, load<u32>(e + 24));
    store<u32>(o + 8, load<u32>(e + 28));
    nOut += <i32>k;
  } else {
    if (k > 1) emit(load<u32>(e + 20), ps + <usize>load<u8>(e + 18));
    if (k > 2) emit(load<u32>(e + 24), ps + <usize>load<u8>(e + 19));
    emit(load<u32>(e + 20 + ((<usize>k - 1) << 2)), ps + n);
  }
}

/** Encodes a piece of 1 ≤ n ≤ PIECE_BYTES bytes through the piece map, in mode m. */
// @ts-ignore: decorator
@inline
function encodeShort(ps: usize, n: usize, m: i32): void {
  const k0 = load<u64>(ps) & (n >= 8 ? <u64>-1 : maskBytes(n));
  const k1 = n <= 8 ? 0 : load<u64>(ps + 8) & (n >= 16 ? <u64>-1 : maskBytes(n - 8));
  const h = (k0 ^ (k1 * 0x9e3779b97f4a7c15) ^ <u64>n) * 0xbf58476d1ce4e5b9;
  let i = <usize>(h >> (64 - PIECE_LOG));
  while (true) {
    const e = pieceCache + (i << 5);
    const len = <usize>load<u8>(e + 16);
    if (len == 0) break;
    if (len == n && load<u64>(e) == k0 && load<u64>(e + 8) == k1) {
      const k = <u32>load<u8>(e + 17);
      if (k != PIECE_MANY) emitEntry(e, ps, n, k, m);
      else mergeSmallCached(ps, n, hashBytes(ps, n));
      return;
    }
    i = (i + 1) & PIECE_MASK;
  }
  addPiece(ps, n, k0, k1, i, <usize>(h >> (64 - PIECE_LOG)));
}

/** Rank of the whole piece of n bytes at ps (the direct tables for one and two bytes), or NO_RANK. */
// @ts-ignore: decorator
@inline
function wholeRank(ps: usize, n: usize): u32 {
  return n == 1 ? load<u32>(byteRank + (<usize>load<u8>(ps) << 2)) : n == 2 ? rank2(ps) : lookupHashed(ps, n, hashBytes(ps, n));
}

/**
 * Encodes a piece the piece map lacks (the rank table, else the merge) and adds it at the
 * free entry `i`, or at `home` after emptying the map when it is full.
 */
function addPiece(ps: usize, n: usize, k0: u64, k1: u64, i: usize, home: usize): void {
  if (pieceCount >= PIECE_FULL) {
    memory.fill(pieceCache, 0, <usize>32 << PIECE_LOG);
    pieceCount = 0;
    i = home;
  }
  pieceCount++;
  const e = pieceCache + (i << 5);
  store<u64>(e, k0);
  store<u64>(e + 8, k1);
  store<u8>(e + 16, <u8>n);
  const r = wholeRank(ps, n);
  if (r != NO_RANK) {
    store<u8>(e + 17, 1);
    store<u32>(e + 20, r);
    emit(r, ps + n);
    return;
  }
  const m = mergeSmall(ps, n);
  const S = mergeBuf;
  const T = S + ((n + 2) << 3);
  const k = <u32>(m - 1);
  if (k > PIECE_TOKENS) {
    store<u8>(e + 17, <u8>PIECE_MANY);
    for (let j: usize = 0; j < <usize>k; j++) emit(load<u32>(T + (j << 2)), ps + load<u32>(S + ((j + 1) << 2)));
    return;
  }
  store<u8>(e + 17, <u8>k);
  for (let j: usize = 0; j < <usize>k; j++) {
    store<u32>(e + 20 + (j << 2), load<u32>(T + (j << 2)));
    if (j < 2) store<u8>(e + 18 + j, <u8>load<u32>(S + ((j + 1) << 2)));
  }
  for (let j: usize = 0; j < <usize>k; j++) emit(load<u32>(T + (j << 2)), ps + load<u32>(S + ((j + 1) << 2)));
}

// The same for pieces of up to 8 bytes (five in six pieces of ordinary text), in entries
// of 16 bytes so that the commonest pieces share few cache lines: the piece's bytes (zero
// past its end) | length (bits 0–3; 0: a free entry) | token count (bits 4–5; 0: more
// than three tokens, merged through the merge cache) | three 18-bit ranks (bits 6, 24,
// 42). Used when every rank fits in 18 bits (both encodings: under 2^18 ranks).
const TINY_LOG: u32 = 15;
const TINY_MASK: usize = (<usize>1 << TINY_LOG) - 1;
const TINY_FULL: u32 = (3 << TINY_LOG) >> 2;
const TINY_RANK_BITS: u32 = 18;
let tiny: usize = 0;
let tinyCount: u32 = 0;

/** Emits the tokens of a tiny-map entry `meta` (k of 1 to 3 tokens) for the piece [ps, ps + n), in mode m. */
// @ts-ignore: decorator
@inline
function emitTiny(meta: u64, ps: usize, n: usize, k: u32, m: i32): void {
  const r0 = <u32>(meta >> 6) & 0x3ffff;
  if (m == 0) {
    nOut += <i32>k;
  } else if (m == 1) {
    // three stores whatever k: the ids buffer has spare room past its end
    const o = idsBuf + (<usize>nOut << 2);
    store<u32>(o, r0);
    store<u32>(o + 4, <u32>(meta >> 24) & 0x3ffff);
    store<u32>(o + 8, <u32>(meta >> 42) & 0x3ffff);
    nOut += <i32>k;
  } else {
    let e = ps;
    for (let j: u32 = 0; j < k; j++) {
      const r = <u32>(meta >> (6 + 18 * j)) & 0x3ffff;
      e = j + 1 == k ? ps + n : e + <usize>load<u32>(tokLen + (<usize>r << 2));
      emit(r, e);
    }
  }
}

/** Encodes a piece of 1 ≤ n ≤ 8 bytes through the tiny map, in mode m. */
// @ts-ignore: decorator
@inline
function encodeTiny(ps: usize, n: usize, m: i32): void {
  const k0 = load<u64>(ps) & maskBytes(n);
  const h = (k0 ^ <u64>n) * 0xbf58476d1ce4e5b9;
  let i = <usize>(h >> (64 - TINY_LOG));
  while (true) {
    const e = tiny + (i << 4);
    const meta = load<u64>(e + 8);
    if (meta == 0) break;
    if (load<u64>(e) == k0 && <usize>(meta & 0xf) == n) {
      const k = <u32>(meta >> 4) & 3;
      if (k != 0) emitTiny(meta, ps, n, k, m);
      else mergeSmallCached(ps, n, hashBytes(ps, n));
      return;
    }
    i = (i + 1) & TINY_MASK;
  }
  addTiny(ps, n, k0, i, <usize>(h >> (64 - TINY_LOG)));
}

/** {@link addPiece} for the tiny map: entry `i`, or `home` after emptying the map when it is full. */
function addTiny(ps: usize, n: usize, k0: u64, i: usize, home: usize): void {
  if (tinyCount >= TINY_FULL) {
    memory.fill(tiny, 0, <usize>16 << TINY_LOG);
    tinyCount = 0;
    i = home;
  }
  tinyCount++;
  const e = tiny + (i << 4);
  store<u64>(e, k0);
  const r = wholeRank(ps, n);
  if (r != NO_RANK) {
    store<u64>(e + 8, <u64>n | (1 << 4) | (<u64>r << 6));
    emit(r, ps + n);
    return;
  }
  const mm = mergeSmall(ps, n);
  const S = mergeBuf;
  const T = S + ((n + 2) << 3);
  const k = <u32>(mm - 1);
  let meta = <u64>n;
  if (k <= 3) {
    meta |= <u64>k << 4;
    for (let j: usize = 0; j < <usize>k; j++) meta |= <u64>load<u32>(T + (j << 2)) << (6 + 18 * <u64>j);
  }
  store<u64>(e + 8, meta);
  for (let j: usize = 0; j < <usize>k; j++) emit(load<u32>(T + (j << 2)), ps + load<u32>(S + ((j + 1) << 2)));
}

/** Encodes the piece [ps, pe) in mode m. */
// @ts-ignore: decorator
@inline
function encodePiece(ps: usize, pe: usize, m: i32): void {
  const n = pe - ps;
  if (n <= 8 && rankCount <= 1 << TINY_RANK_BITS) {
    encodeTiny(ps, n, m);
    return;
  }
  if (n <= PIECE_BYTES) {
    encodeShort(ps, n, m);
    return;
  }
  encodeLong(ps, n);
}

/** Encodes a piece of more than PIECE_BYTES bytes. */
function encodeLong(ps: usize, n: usize): void {
  const h = hashBytes(ps, n);
  const r = lookupHashed(ps, n, h);
  if (r != NO_RANK) {
    emit(r, ps + n);
    return;
  }
  if (n <= SMALL) mergeSmallCached(ps, n, h);
  else mergeHeap(ps, n);
}

// ---------------------------------------------------------------- segments (counts and ids)

// Counts, ids and offsets (run modes 0, 1, 2) skip the pre-tokenizer for text seen: the text is cut
// at places where both split patterns always split and the pieces before do not depend on
// what follows (bindings/bpe.ts's isSafeCut, over UTF-8 bytes): a space after a byte that
// is not ASCII whitespace and does not end a whitespace character (see tailTables), and
// after a line feed before an ASCII byte that is neither whitespace nor `/`. A segment between two such cuts has a
// tokens of its own (its pieces are those of the segment alone), looked up in a map of
// segments of up to SEG_BYTES bytes to their count and, for up to five tokens, their ids;
// else encoded by the pre-tokenizer and the piece maps and added. The cuts are found
// sixteen bytes at a time (wasm SIMD). Map entries are 32 bytes: the segment's bytes (zero
// past its end), then two u64: the first holds the length (bits 0–7; 0: a free entry), the
// count (bits 8–15), SEG_IDS (bit 16: the ids are known; not after counting only, nor for
// more than five tokens), ids 3 and 4 (18 bits each from bit 17), SEG_ASCII (bit 53: the
// segment is ASCII) and the byte ends of tokens 0 and 1 (4 bits each from bit 54, end − 1);
// the second ids 0 to 2 (from bit 0) and the ends of tokens 2 and 3 (from bit 54). Open
// addressing, linear probing, emptied when SEG_FULL full.
const SEG_LOG: u32 = 16;
const SEG_MASK: usize = (<usize>1 << SEG_LOG) - 1;
const SEG_FULL: u32 = (3 << SEG_LOG) >> 2;
const SEG_BYTES: usize = 16;
const SEG_IDS: u64 = <u64>1 << 16;
const SEG_ASCII: u64 = <u64>1 << 53;
let segMap: usize = 0;
let segCount: u32 = 0;
let segKeyMask: usize = 0; // v128[SEG_BYTES + 1]: the low n bytes set, for n = 0…16

function initSegments(): void {
  segMap = bump(<usize>32 << SEG_LOG);
  memory.fill(segMap, 0, <usize>32 << SEG_LOG);
  segKeyMask = bump((SEG_BYTES + 1) << 4);
  for (let n: usize = 0; n <= SEG_BYTES; n++) {
    for (let i: usize = 0; i < 16; i++) store<u8>(segKeyMask + (n << 4) + i, i < n ? 0xff : 0);
  }
}

// Which bytes ≥ 0x80 may end a whitespace character (so a space after them is no cut):
// a byte b may when tailHigh[b >> 4] & tailLow[b & 15] is not zero. The continuation
// bytes that end JavaScript's \s characters of U+0080 and up (U+00A0, U+1680, U+2000–
// U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF): 0x80–0x8A, 0x9F, 0xA0, 0xA8,
// 0xA9, 0xAF, 0xBF; and every lead byte (none ends a character). If the category tables
// hold a whitespace character of U+0080 and up that ends otherwise, every byte ≥ 0x80 may.
let tailTables: usize = 0; // tailHigh u8[16], then tailLow u8[16]

function setTailTables(): void {
  tailTables = bump(32);
  const hi = tailTables;
  const lo = tailTables + 16;
  memory.fill(hi, 0, 32);
  store<u8>(hi + 8, 1);
  store<u8>(hi + 9, 2);
  store<u8>(hi + 10, 4);
  store<u8>(hi + 11, 8);
  for (let h: usize = 12; h < 16; h++) store<u8>(hi + h, 16);
  for (let l: usize = 0; l < 16; l++) {
    let v: u32 = 16;
    if (l <= 10) v |= 1;
    if (l == 15) v |= 2 | 4 | 8;
    if (l == 0 || l == 8 || l == 9) v |= 4;
    store<u8>(lo + l, <u8>v);
  }
  // check the rule against the tables: the last UTF-8 byte of each whitespace code point
  for (let cp: u32 = 0x80; cp < 0x110000; cp++) {
    const c = <u32>load<u8>(stage2 + ((<usize>load<u8>(stage1 + (cp >> 8))) << 8) + (cp & 0xff));
    if (c != 6 && c != 7) continue;
    const last = 0x80 | (cp & 0x3f);
    if ((<u32>load<u8>(hi + (last >> 4)) & <u32>load<u8>(lo + (last & 15))) == 0) {
      memory.fill(hi + 8, 0xff, 8);
      memory.fill(lo, 0xff, 16);
      return;
    }
  }
}

/**
 * The cuts among the sixteen bytes at q (bit i: a cut between bytes q + i − 1 and q + i;
 * see above). Reads whole vectors at q − 1 and q.
 */
// @ts-ignore: decorator
@inline
function cutBits16(q: usize, tailHigh: v128, tailLow: v128, ascii: bool): u64 {
  const cur = v128.load(q);
  const prev = v128.load(q - 1);
  // Bytes up to 0x20 stand for whitespace (the control characters among them too: no cut
  // beside them, which is only fewer cuts). A space after a byte above 0x20 that may not
  // end a whitespace character (`ascii`: the bytes before are ASCII)
  let spaceCut = v128.and(i8x16.eq(cur, i8x16.splat(0x20)), i8x16.gt_u(prev, i8x16.splat(0x20)));
  if (!ascii) {
    const prevTail = v128.and(i8x16.swizzle(tailHigh, i8x16.shr_u(prev, 4)), i8x16.swizzle(tailLow, v128.and(prev, i8x16.splat(15))));
    spaceCut = v128.and(spaceCut, i8x16.eq(prevTail, i8x16.splat(0)));
  }
  // after a line feed, before a byte of 0x21–0x7f other than `/`
  const lfCut = v128.and(
    v128.and(i8x16.eq(prev, i8x16.splat(0x0a)), i8x16.lt_u(i8x16.sub(cur, i8x16.splat(0x21)), i8x16.splat(0x5f))),
    i8x16.ne(cur, i8x16.splat(0x2f)),
  );
  return <u64>i8x16.bitmask(v128.or(spaceCut, lfCut));
}

/**
 * Encodes the segment [p, c) in mode m (0: count, 1: ids, 2: ids and ends): through the
 * map, or the pieces when longer than SEG_BYTES.
 */
// @ts-ignore: decorator
@inline
function encodeSegment(p: usize, c: usize, o200k: bool, m: i32): void {
  const n = c - p;
  if (n <= SEG_BYTES) {
    const key = v128.and(v128.load(p), v128.load(segKeyMask + (n << 4)));
    const k0 = i64x2.extract_lane(key, 0);
    const k1 = i64x2.extract_lane(key, 1);
    const h = (<u64>k0 ^ (<u64>k1 * 0x9e3779b97f4a7c15) ^ <u64>n) * 0xbf58476d1ce4e5b9;
    let i = <usize>(h >> (64 - SEG_LOG));
    while (true) {
      const e = segMap + (i << 5);
      const w0 = load<u64>(e + 16);
      if (<usize>(w0 & 0xff) == n && i64x2.all_true(i64x2.eq(v128.load(e), key))) {
        const k = <i32>(w0 >> 8) & 0xff;
        if (m == 0) nOut += k;
        else if ((w0 & SEG_IDS) == 0) segmentIds(p, c, o200k, e, m); // counted before: the ids now
        else if (m == 2 && (w0 & SEG_ASCII) == 0) {
          // not ASCII: tokens may end inside characters, piece by piece
          if (o200k) runPieces(p, c, true, 2);
          else runPieces(p, c, false, 2);
        } else {
          // three stores whatever the count (the ids buffer has spare room past its end), two more for four or five
          const w1 = load<u64>(e + 24);
          const o = idsBuf + (<usize>nOut << 2);
          store<u32>(o, <u32>w1 & 0x3ffff);
          store<u32>(o + 4, <u32>(w1 >> 18) & 0x3ffff);
          store<u32>(o + 8, <u32>(w1 >> 36) & 0x3ffff);
          if (k > 3) {
            store<u32>(o + 12, <u32>(w0 >> 17) & 0x3ffff);
            store<u32>(o + 16, <u32>(w0 >> 35) & 0x3ffff);
          }
          if (m == 2) {
            // ASCII: a token's UTF-16 end is the segment's start plus its byte end (the
            // cursor is at the segment's start: segments start at ASCII bytes)
            const u0 = cur16;
            const ends = <u32>((w0 >> 54) & 0xff) | (<u32>((w1 >> 54) & 0xff) << 8);
            const t = endsBuf + (<usize>nOut << 2);
            store<i32>(t, u0 + <i32>(ends & 15) + 1);
            store<i32>(t + 4, u0 + <i32>((ends >> 4) & 15) + 1);
            store<i32>(t + 8, u0 + <i32>((ends >> 8) & 15) + 1);
            if (k > 3) store<i32>(t + 12, u0 + <i32>((ends >> 12) & 15) + 1);
            store<i32>(t + ((<usize>k - 1) << 2), u0 + <i32>n); // the last token ends with the segment
            cur16 = u0 + <i32>n;
            curByte = c;
          }
          nOut += k;
        }
        return;
      }
      if (w0 == 0) {
        addSegment(p, c, key, i, <usize>(h >> (64 - SEG_LOG)), o200k, m);
        return;
      }
      i = (i + 1) & SEG_MASK;
    }
  }
  if (o200k) runPieces(p, c, true, m);
  else runPieces(p, c, false, m);
}

/**
 * Encodes [start, end) in mode m (0: count, 1: ids, 2: ids and ends), segment by segment: the cuts of 64
 * bytes at a time as one bit mask, then each segment in turn.
 */
// @ts-ignore: decorator
@inline
function runSegments(start: usize, end: usize, o200k: bool, mode: i32): void {
  const hi = v128.load(tailTables);
  const lo = v128.load(tailTables + 16);
  let seg = start;
  for (let q = start; q < end; q += 64) {
    // the bytes before each of the 64 (q − 1 to q + 62): all ASCII?
    const ascii = i8x16.bitmask(v128.or(v128.or(v128.load(q - 1), v128.load(q + 15)), v128.or(v128.load(q + 31), v128.load(q + 47)))) == 0;
    let m: u64;
    if (ascii) m = cutBits16(q, hi, lo, true) | (cutBits16(q + 16, hi, lo, true) << 16) | (cutBits16(q + 32, hi, lo, true) << 32) | (cutBits16(q + 48, hi, lo, true) << 48);
    else m = cutBits16(q, hi, lo, false) | (cutBits16(q + 16, hi, lo, false) << 16) | (cutBits16(q + 32, hi, lo, false) << 32) | (cutBits16(q + 48, hi, lo, false) << 48);
    if (q == start) m &= ~(<u64>1); // no cut at the start (the byte before is not the text's)
    if (end - q < 64) m &= (<u64>1 << <u64>(end - q)) - 1;
    while (m != 0) {
      const c = q + <usize>ctz(m);
      m &= m - 1;
      encodeSegment(seg, c, o200k, mode);
      seg = c;
    }
  }
  if (seg < end) encodeSegment(seg, end, o200k, mode);
}

/**
 * Encodes the segment [p, c) by its pieces in mode m (1 or 2) and writes its length,
 * count and (up to five of under 2^18) ids to the map entry e.
 */
function segmentIds(p: usize, c: usize, o200k: bool, e: usize, m: i32): void {
  const before = nOut;
  if (m == 1) {
    if (o200k) runPieces(p, c, true, 1);
    else runPieces(p, c, false, 1);
  } else if (o200k) runPieces(p, c, true, 2);
  else runPieces(p, c, false, 2);
  const k = nOut - before;
  let w0 = <u64>(c - p) | (<u64>k << 8);
  let w1: u64 = 0;
  if (k <= 5 && rankCount <= 1 << TINY_RANK_BITS) {
    w0 |= SEG_IDS;
    const o = idsBuf + (<usize>before << 2);
    let b: u64 = 0; // the token's byte end, from p
    for (let j = 0; j < k; j++) {
      const r = <u64>load<u32>(o + (<usize>j << 2));
      if (j < 3) w1 |= r << (18 * <u64>j);
      else w0 |= r << (17 + 18 * <u64>(j - 3));
      b += <u64>load<u32>(tokLen + (<usize>r << 2));
      // the ends of tokens 0 and 1, then 2 and 3 (four bits each, end − 1)
      if (j < 2) w0 |= (b - 1) << (54 + 4 * <u64>j);
      else if (j < 4) w1 |= (b - 1) << (54 + 4 * <u64>(j - 2));
    }
    let ascii = true;
    for (let q = p; q < c; q++) if (load<u8>(q) >= 0x80) ascii = false;
    if (ascii) w0 |= SEG_ASCII;
  }
  store<u64>(e + 16, w0);
  store<u64>(e + 24, w1);
}

/** Encodes the segment [p, c) the map lacks in mode m and adds it at the free entry `i`, or at `home` after emptying the map when it is full. */
function addSegment(p: usize, c: usize, key: v128, i: usize, home: usize, o200k: bool, m: i32): void {
  if (segCount >= SEG_FULL) {
    memory.fill(segMap, 0, <usize>32 << SEG_LOG);
    segCount = 0;
    i = home;
  }
  segCount++;
  const e = segMap + (i << 5);
  v128.store(e, key);
  if (m != 0) {
    segmentIds(p, c, o200k, e, m);
    return;
  }
  const before = nOut;
  if (o200k) runPieces(p, c, true, 0);
  else runPieces(p, c, false, 0);
  store<u64>(e + 16, <u64>(c - p) | (<u64>(nOut - before) << 8));
  store<u64>(e + 24, 0);
}

/** Splits [p, end) and encodes each piece, in mode m. */
// @ts-ignore: decorator
@inline
function runPieces(p: usize, end: usize, o200k: bool, m: i32): void {
  while (p < end) {
    const e = pieceEnd(p, end, o200k);
    encodePiece(p, e, m);
    p = e;
  }
}

// runSegments for each pattern and mode, a function each (so that each loop is compiled on its own)
function countCl100k(start: usize, end: usize): void {
  runSegments(start, end, false, 0);
}
function idsCl100k(start: usize, end: usize): void {
  runSegments(start, end, false, 1);
}
function offsetsCl100k(start: usize, end: usize): void {
  runSegments(start, end, false, 2);
}
function countO200k(start: usize, end: usize): void {
  runSegments(start, end, true, 0);
}
function idsO200k(start: usize, end: usize): void {
  runSegments(start, end, true, 1);
}
function offsetsO200k(start: usize, end: usize): void {
  runSegments(start, end, true, 2);
}

let pattern: i32 = 0; // 0 cl100k_base, 1 o200k_base

export function setPattern(kind: i32): void {
  pattern = kind;
}

/**
 * Tokenises `len` bytes of UTF-8 at inputPtr(). mode 0: count only; 1: ids at idsPtr();
 * 2: ids and, at endsPtr(), each token's end as a UTF-16 offset from the input's start
 * (moved forward to the end of a character a token ends inside). Returns the count.
 */
export function run(len: i32, runMode: i32): i32 {
  mode = runMode;
  nOut = 0;
  curByte = inBuf;
  cur16 = 0;
  const end = inBuf + <usize>len;
  // one loop per pattern and mode, so that neither is tested per piece
  if (pattern == 0) {
    if (runMode == 0) countCl100k(inBuf, end);
    else if (runMode == 1) idsCl100k(inBuf, end);
    else offsetsCl100k(inBuf, end);
  } else {
    if (runMode == 0) countO200k(inBuf, end);
    else if (runMode == 1) idsO200k(inBuf, end);
    else offsetsO200k(inBuf, end);
  }
  return nOut;
}

/** Splits only (for tests): writes each piece's end byte offset to idsPtr(); returns the count. */
export function pieces(len: i32): i32 {
  const end = inBuf + <usize>len;
  let p = inBuf;
  let n = 0;
  while (p < end) {
    const e = pattern == 0 ? pieceEnd(p, end, false) : pieceEnd(p, end, true);
    store<u32>(idsBuf + (<usize>n << 2), <u32>(e - inBuf));
    n++;
    p = e;
  }
  return n;
}

/**
 * Pre-tokens with their token counts: tokenises `len` bytes of UTF-8 at inputPtr() as
 * run(len, 0) does and writes, per pre-token (split-pattern piece) i, `base16` plus its
 * end as a UTF-16 offset from the input's start at idsPtr(), and `baseCount` plus the
 * tokens of pieces 0…i at endsPtr() (both i32). With `segments` > 0 the input is that
 * many texts one after another, each tokenised on its own (the split pattern sees each
 * one's end as the end of text), whose UTF-16 ends from the input's start follow the
 * input as i32s at inputPtr() + len rounded up to 4. Returns the number of pieces.
 */
export function pieceCounts(len: i32, base16: i32, baseCount: i32, segments: i32): i32 {
  mode = 0;
  nOut = baseCount;
  const inEnd = inBuf + <usize>len;
  const segEnds = (inEnd + 3) & ~(<usize>3);
  let p = inBuf;
  let n: usize = 0;
  let u = base16;
  const last = segments > 0 ? segments : 1;
  for (let j = 0; j < last; j++) {
    let end = inEnd;
    if (segments > 0) {
      // the segment's byte end: walk its characters up to its UTF-16 end
      const to = base16 + load<i32>(segEnds + (<usize>j << 2));
      end = p;
      let v = u;
      while (v < to && end < inEnd) {
        const x = <u32>load<u8>(end);
        end += x < 0x80 ? 1 : x < 0xe0 ? 2 : x < 0xf0 ? 3 : 4;
        v += x >= 0xf0 ? 2 : 1;
      }
    }
    while (p < end) {
      const e = pattern == 0 ? pieceEnd(p, end, false) : pieceEnd(p, end, true);
      encodePiece(p, e, 0);
      // UTF-16 units: one per byte that starts a character (not 10xxxxxx), one more per
      // four-byte lead (11110xxx), eight bytes at a time (the input has 16 spare bytes after it)
      for (; p < e; p += 8) {
        const x = load<u64>(p);
        const k = e - p;
        const m: u64 = k >= 8 ? 0x8080808080808080 : 0x8080808080808080 & (<u64>-1 >> (<u64>(8 - k) << 3));
        if ((x & m) == 0) u += k >= 8 ? 8 : <i32>k; // ASCII
        else u += <i32>popcnt((~x | (x << 1)) & m) + <i32>popcnt(x & (x << 1) & (x << 2) & (x << 3) & m);
      }
      p = e;
      store<i32>(idsBuf + (n << 2), u);
      store<i32>(endsBuf + (n << 2), nOut);
      n++;
    }
  }
  return <i32>n;
}
