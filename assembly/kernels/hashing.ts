// Embedding kernels: feature hashing of words, word bigrams and character n-grams
// (HashingEmbedder), and row gathering + mean pooling over an embedding table
// (StaticEmbedder). Pure integer hashing and AssemblyScript's own Math.log, so the
// vectors are bit-identical in every runtime.

const FNV_OFFSET: u32 = 0x811c9dc5;
const FNV_PRIME: u32 = 0x01000193;

// Seeds separating the feature kinds, so "ab" as a word and as an n-gram differ.
const SEED_WORD: u32 = 0x9e3779b1;
const SEED_BIGRAM: u32 = 0x85ebca77;
const SEED_CHAR: u32 = 0xc2b2ae3d;
const BOUNDARY: u32 = 0x3c; // '<' and '>' mark word boundaries for n-grams.
const BOUNDARY_END: u32 = 0x3e;

// @ts-ignore: decorator
@inline
function fnvStep(h: u32, unit: u32): u32 {
  return (h ^ unit) * FNV_PRIME;
}

// murmur3's 32-bit finaliser: spreads the bits of a hash.
// @ts-ignore: decorator
@inline
function fmix(h: u32): u32 {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

/** FNV-1a over UTF-16 code units [start, end) of `text` (one unit per step), seeded. */
function hashUnits(text: usize, start: i32, end: i32, seed: u32): u32 {
  let h: u32 = FNV_OFFSET ^ seed;
  for (let i = start; i < end; i++) h = fnvStep(h, <u32>load<u16>(text + (<usize>i << 1)));
  return fmix(h);
}

/** Hash of the padded word "<w>" restricted to padded positions [a, b). */
function hashPadded(text: usize, ws: i32, we: i32, a: i32, b: i32): u32 {
  let h: u32 = FNV_OFFSET ^ SEED_CHAR;
  const len = we - ws + 2;
  for (let p = a; p < b; p++) {
    let unit: u32;
    if (p == 0) unit = BOUNDARY;
    else if (p == len - 1) unit = BOUNDARY_END;
    else unit = <u32>load<u16>(text + (<usize>(ws + p - 1) << 1));
    h = fnvStep(h, unit);
  }
  return fmix(h ^ <u32>(b - a));
}

/** In-place heapsort of n u32 values at ptr (no allocation). */
function sortU32(ptr: usize, n: i32): void {
  for (let start = (n >> 1) - 1; start >= 0; start--) siftDown(ptr, start, n);
  for (let end = n - 1; end > 0; end--) {
    const a = load<u32>(ptr);
    store<u32>(ptr, load<u32>(ptr + (<usize>end << 2)));
    store<u32>(ptr + (<usize>end << 2), a);
    siftDown(ptr, 0, end);
  }
}

function siftDown(ptr: usize, root: i32, n: i32): void {
  while (true) {
    let child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && load<u32>(ptr + (<usize>(child + 1) << 2)) > load<u32>(ptr + (<usize>child << 2))) child++;
    const r = load<u32>(ptr + (<usize>root << 2));
    const c = load<u32>(ptr + (<usize>child << 2));
    if (r >= c) return;
    store<u32>(ptr + (<usize>root << 2), c);
    store<u32>(ptr + (<usize>child << 2), r);
    root = child;
  }
}

/**
 * Sorts the n feature hashes at `feat`, then for each distinct feature with term
 * frequency tf adds sign · weight · (1 + ln tf) to out[bucket], where bucket and sign
 * come from a second mix of the hash (signed feature hashing, Weinberger et al. 2009).
 */
function accumulate(feat: usize, n: i32, out: usize, d: i32, weight: f32): void {
  if (n == 0 || weight == 0) return;
  sortU32(feat, n);
  let i = 0;
  while (i < n) {
    const h = load<u32>(feat + (<usize>i << 2));
    let j = i + 1;
    while (j < n && load<u32>(feat + (<usize>j << 2)) == h) j++;
    const tf = j - i;
    const m = fmix(h ^ 0x5bd1e995);
    const bucket = <i32>(m % <u32>d);
    const sign: f32 = (m & 0x80000000) != 0 ? -1 : 1;
    const value: f32 = weight * (1 + <f32>Math.log(<f64>tf));
    const at = out + (<usize>bucket << 2);
    store<f32>(at, load<f32>(at) + sign * value);
    i = j;
  }
}

/**
 * Hashing embeddings for a batch of n texts.
 *
 * `text` holds UTF-16 code units of all normalised texts; words are [wordStarts[k],
 * wordEnds[k]) in code units of that buffer; text t owns words [docWords[t],
 * docWords[t + 1]). Features: word unigrams and bigrams (weight `wordWeight`),
 * character n-grams of "<word>" with minN ≤ n ≤ maxN (weight `charWeight`).
 * `scratch` must hold at least max over texts of 2·words + Σ (maxN − minN + 1)·(len + 2)
 * u32 slots. Writes n × d row-major f32 to `out`, each row L2-normalised (zero rows stay
 * zero).
 */
export function hashEmbedBatch(
  text: usize,
  wordStarts: usize,
  wordEnds: usize,
  docWords: usize,
  n: i32,
  d: i32,
  minN: i32,
  maxN: i32,
  wordWeight: f32,
  charWeight: f32,
  scratch: usize,
  out: usize,
): void {
  for (let t = 0; t < n; t++) {
    const row = out + (<usize>t * <usize>d << 2);
    memory.fill(row, 0, <usize>d << 2);
    const w0 = load<i32>(docWords + (<usize>t << 2));
    const w1 = load<i32>(docWords + (<usize>(t + 1) << 2));
    // word unigrams and bigrams
    let count = 0;
    let prev: u32 = 0;
    for (let k = w0; k < w1; k++) {
      const ws = load<i32>(wordStarts + (<usize>k << 2));
      const we = load<i32>(wordEnds + (<usize>k << 2));
      const h = hashUnits(text, ws, we, SEED_WORD);
      store<u32>(scratch + (<usize>count << 2), h);
      count++;
      if (k > w0) {
        store<u32>(scratch + (<usize>count << 2), fmix((prev * 0x01000193) ^ h ^ SEED_BIGRAM));
        count++;
      }
      prev = h;
    }
    accumulate(scratch, count, row, d, wordWeight);
    // character n-grams within "<word>"
    count = 0;
    if (maxN > 0 && charWeight != 0) {
      for (let k = w0; k < w1; k++) {
        const ws = load<i32>(wordStarts + (<usize>k << 2));
        const we = load<i32>(wordEnds + (<usize>k << 2));
        const len = we - ws + 2;
        for (let g = minN; g <= maxN; g++) {
          if (g > len) break;
          for (let p = 0; p + g <= len; p++) {
            store<u32>(scratch + (<usize>count << 2), hashPadded(text, ws, we, p, p + g));
            count++;
          }
        }
      }
    }
    accumulate(scratch, count, row, d, charWeight);
    // L2 normalisation
    let ss: f32 = 0;
    for (let j = 0; j < d; j++) {
      const v = load<f32>(row + (<usize>j << 2));
      ss += v * v;
    }
    if (ss > 0) {
      const inv: f32 = 1 / Mathf.sqrt(ss);
      for (let j = 0; j < d; j++) {
        const at = row + (<usize>j << 2);
        store<f32>(at, load<f32>(at) * inv);
      }
    }
  }
}

/**
 * Mean pooling over rows of an embedding table: for each of n sequences, out[s] =
 * Σ_k w(ids[k]) · table[ids[k]] / Σ_k w(ids[k]) over k in [offsets[s], offsets[s + 1]),
 * where w is `weights[id]` when `weights` is non-zero, else 1. Ids outside
 * [0, vocab) are skipped. With `normalize`, each output row is L2-normalised. An empty
 * sequence gives a zero row. table is vocab × d row-major f32, out n × d.
 */
export function gatherMeanRows(
  table: usize,
  vocab: i32,
  d: i32,
  weights: usize,
  ids: usize,
  offsets: usize,
  n: i32,
  normalize: i32,
  out: usize,
): void {
  const rowBytes = <usize>d << 2;
  for (let s = 0; s < n; s++) {
    const o = out + <usize>s * rowBytes;
    memory.fill(o, 0, rowBytes);
    const a = load<i32>(offsets + (<usize>s << 2));
    const b = load<i32>(offsets + (<usize>(s + 1) << 2));
    let total: f32 = 0;
    for (let k = a; k < b; k++) {
      const id = load<i32>(ids + (<usize>k << 2));
      if (id < 0 || id >= vocab) continue;
      const w: f32 = weights != 0 ? load<f32>(weights + (<usize>id << 2)) : 1;
      total += w;
      const r = table + <usize>id * rowBytes;
      let j = 0;
      const wv = f32x4.splat(w);
      for (; j + 4 <= d; j += 4) {
        const off = <usize>j << 2;
        v128.store(o + off, f32x4.add(v128.load(o + off), f32x4.mul(v128.load(r + off), wv)));
      }
      for (; j < d; j++) {
        const off = <usize>j << 2;
        store<f32>(o + off, load<f32>(o + off) + w * load<f32>(r + off));
      }
    }
    if (total != 0) {
      const inv: f32 = 1 / total;
      for (let j = 0; j < d; j++) store<f32>(o + (<usize>j << 2), load<f32>(o + (<usize>j << 2)) * inv);
    }
    if (normalize) {
      let ss: f32 = 0;
      for (let j = 0; j < d; j++) {
        const v = load<f32>(o + (<usize>j << 2));
        ss += v * v;
      }
      if (ss > 0) {
        const inv: f32 = 1 / Mathf.sqrt(ss);
        for (let j = 0; j < d; j++) store<f32>(o + (<usize>j << 2), load<f32>(o + (<usize>j << 2)) * inv);
      }
    }
  }
}
