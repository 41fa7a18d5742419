/**
 * Token counts of many spans of one text from one pass of the tokenizer over the text,
 * exact at every span's edges. Core module: no Node built-ins.
 *
 * Algorithm: a tokenizer that pre-tokenizes (tiktoken's encodings) gives, for the text
 * the spans lie in, the end of every pre-token and the running token count
 * ({@link Tokenizer.pieceCounts}); prefix sums of the counts over the pieces then give the
 * tokens between any two pre-token boundaries. A span `[s, e)` is cut at its first and
 * last {@link CutAt} offsets `c1 ≤ c2` inside it: by the cut rule, the span's tokens are
 * those of `[s, c1)`, `[c1, c2)` and `[c2, e)` taken apart, and `c1`, `c2` are pre-token
 * boundaries of the whole text too, whose pieces between them are exactly the pieces of
 * `[c1, c2)`. So the span counts `count([s, c1)) + prefix(c2) − prefix(c1) + count([c2, e))`,
 * the two edges counted exactly on their own text (a word or two each). The pattern reads
 * nothing before a pre-token boundary, so where `s` is one of the whole text's, the
 * pieces of `[s, c1)` are the whole text's and `count([s, c1)) = prefix(c1) − prefix(s)`;
 * likewise `count([c2, e)) = prefix(e) − prefix(c2)` where `e` is a cut or the table's
 * end. (An `e` that is merely a pre-token boundary is not enough: in `a   1` the whole
 * text's pieces `a`, two spaces, one space, `1` end at 4, yet `a   ` alone is `a` and three
 * spaces.) A span without a cut inside is counted whole.
 * @module
 */
import type { CutAt, Tokenizer } from './types.js';

/** A span of a text, `[start, end)` in UTF-16 code units; one with a `tokenCount` already is skipped. */
export interface CountedSpan {
  readonly start: number;
  readonly end: number;
  readonly tokenCount?: number;
}

/** Code units one table covers at most: the spans of a longer text are counted window by window, so the table stays within a few megabytes. */
const TABLE_UNITS = 1 << 20;

/**
 * Whether one table over `range` code units beats counting `spans` spans of `covered` code
 * units in all one by one, for a tokenizer without {@link Tokenizer.countSpans}. Measured
 * with cl100k_base on the four eval corpora joined (1.41 M code units), medians of 15 warm
 * calls: a whole count takes 4–6 ms; counting the spans one by one costs about 3.3 ns per
 * code unit covered plus 0.45 µs per span, the table about 5.7 ns per code unit of the
 * range plus 0.9 µs per span. With a margin for the noise, it pays from `covered > 2.5 ·
 * range + 150 · spans`: sliding windows at a third of a window's stride or less. A
 * tokenizer with `countSpans` counts overlapping spans in one pass itself, for less than
 * the table in every case measured (same corpus, CPU-time minima of 15 interleaved rounds,
 * load 6, whole count 6.1 ms; countSpans vs table): windows of 2048 at 1024 7.2 vs 11.4 ms,
 * at 680 7.5 vs 11.5, at 256 10.0 vs 14.0; 512 at 128 13.6 vs 18.8; 128 at 32 35.4 vs 37.2.
 */
function tablePays(covered: number, range: number, spans: number): boolean {
  return spans >= 2 && 2 * covered > 5 * range + 300 * spans;
}

/** Options of {@link spanTokenCounts}, for tests and benchmarks. */
export interface SpanCountOptions {
  /** Build the table even where counting the spans one by one costs less. */
  always?: boolean;
  /** Code units one table covers at most (default 2^20). */
  window?: number;
}

/**
 * Tokens of `text.slice(s.start, s.end)` for every span `s` (−1 for a span that has a
 * `tokenCount` already), equal to `tokenizer.count` of each span's text. Through
 * {@link Tokenizer.countSpans} where the tokenizer declares it (one copy of the text; the
 * built-in BPE counts what overlapping spans share once); else from one table where that
 * pays (spans that overlap much, see {@link tablePays}) and the tokenizer declares
 * {@link Tokenizer.pieceCounts} and {@link Tokenizer.cutAt}, or with `always`; undefined
 * where neither applies (the caller counts each chunk's text).
 *
 * The table covers `[min start, max end)` of consecutive spans once, up to 2^20 code units
 * at a time (a piece end and a running count, two `Int32Array`s with one entry per
 * pre-token, and an index of one entry per 16 code units, all dropped when the window is
 * done); the edges it does not give are counted together ({@link Tokenizer.countEach}
 * where declared).
 * @param tokenizer the tokenizer of `tokenCount`.
 * @param text the text the spans' offsets refer to.
 * @param spans spans in any order, `0 ≤ start ≤ end ≤ text.length`.
 * @param options `always`: build the table whatever it costs; `window`: the code units a
 *   table covers at most (default 2^20) — both for tests and benchmarks.
 * @returns one count per span, in the order given.
 */
export function spanTokenCounts(tokenizer: Tokenizer, text: string, spans: readonly CountedSpan[], options: SpanCountOptions = {}): Int32Array | undefined {
  const window = options.window ?? TABLE_UNITS;
  let lo = text.length;
  let hi = 0;
  let covered = 0;
  let todo = 0;
  for (const s of spans) {
    if (s.tokenCount !== undefined) continue;
    todo++;
    covered += s.end - s.start;
    if (s.start < lo) lo = s.start;
    if (s.end > hi) hi = s.end;
  }
  const cutAt = tokenizer.cutAt;
  const pieces = tokenizer.pieceCounts?.bind(tokenizer);
  if (todo === 0) return undefined;
  if (!cutAt || !pieces || !(options.always || (!tokenizer.countSpans && tablePays(covered, hi - lo, todo)))) {
    if (!tokenizer.countSpans) return undefined;
    // one by one, from one copy of the text
    const counts = Int32Array.from(tokenizer.countSpans(text, spans));
    for (let k = 0; k < spans.length; k++) if (spans[k].tokenCount !== undefined) counts[k] = -1;
    return counts;
  }
  const out = new Int32Array(spans.length).fill(-1);
  // windows of consecutive spans whose range stays within `window` (a longer span is a window alone)
  for (let from = 0; from < spans.length; ) {
    let wlo = Infinity;
    let whi = -Infinity;
    let to = from;
    for (; to < spans.length; to++) {
      const s = spans[to];
      if (s.tokenCount !== undefined) continue;
      const nlo = Math.min(wlo, s.start);
      const nhi = Math.max(whi, s.end);
      if (nhi - nlo > window && whi >= wlo) break;
      wlo = nlo;
      whi = nhi;
    }
    if (whi >= wlo) countWindow(tokenizer, cutAt, pieces(text.slice(wlo, whi)), text, spans, from, to, wlo, whi, out);
    from = to;
  }
  return out;
}

/** Writes `out[k]` for the spans `from ≤ k < to` without a `tokenCount`, which lie in `[lo, hi)`, from `table`, the pieces of `text.slice(lo, hi)`. */
function countWindow(
  tokenizer: Tokenizer,
  cutAt: CutAt,
  table: { ends: Int32Array; counts: Int32Array; count: number },
  text: string,
  spans: readonly CountedSpan[],
  from: number,
  to: number,
  lo: number,
  hi: number,
  out: Int32Array,
): void {
  const { ends, counts, count: pieces } = table;
  // first[j]: the first piece ending at or after offset j·16 of the table's text, so a
  // boundary is found in a step or two (spans come in text order, but need not)
  const first = new Int32Array(((hi - lo) >> 4) + 2);
  for (let i = 0, j = 0; j < first.length; j++) {
    while (i < pieces && ends[i] < j << 4) i++;
    first[j] = i;
  }
  /** Tokens of the pieces before the pre-token boundary at `p` (text offsets), or −1 if `p` is none. */
  const before = (p: number): number => {
    const x = p - lo;
    if (x === 0) return 0;
    let i = first[x >> 4];
    while (i < pieces && ends[i] < x) i++;
    return i < pieces && ends[i] === x ? counts[i] : -1;
  };
  // the edges no table boundary gives, counted together afterwards: edge i adds to out[owner[i]]
  const edges: string[] = [];
  const owner: number[] = [];
  const exact = (k: number, s: number, e: number): void => {
    if (s === e) return;
    edges.push(text.slice(s, e));
    owner.push(k);
  };
  for (let k = from; k < to; k++) {
    const { start, end, tokenCount } = spans[k];
    if (tokenCount !== undefined) continue;
    let c1 = start + 1;
    while (c1 < end && !cutAt(text, c1)) c1++;
    let c2 = end - 1;
    while (c2 > c1 && !cutAt(text, c2)) c2--;
    const a = c1 < end ? before(c1) : -1;
    const b = a < 0 ? -1 : c2 === c1 ? a : before(c2);
    if (b < 0) {
      // no cut inside the span (or, defensively, a cut the table does not know): count it whole
      out[k] = 0;
      exact(k, start, end);
      continue;
    }
    // an edge on a pre-token boundary of the table's text (its ends, a cut) is read from the table
    const s0 = start === lo ? 0 : before(start);
    const e0 = end === hi || (end < text.length && cutAt(text, end)) ? before(end) : -1;
    out[k] = b - a + (s0 < 0 ? 0 : a - s0) + (e0 < 0 ? 0 : e0 - b);
    if (s0 < 0) exact(k, start, c1);
    if (e0 < 0) exact(k, c2, end);
  }
  const edgeCounts = tokenizer.countEach ? tokenizer.countEach(edges) : edges.map((t) => tokenizer.count(t));
  for (let i = 0; i < edges.length; i++) out[owner[i]] += edgeCounts[i];
}
