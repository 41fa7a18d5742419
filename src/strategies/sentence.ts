/**
 * Sentence chunking: whole sentences packed up to a budget, with an optional overlap of
 * whole sentences.
 *
 * Source: SPEC section 1 ("sentence"), the seeds' survey of chunking strategies
 * (`shared/seeds/001`, `003`); sentences from {@link splitSentences} (UAX #29 via
 * `Intl.Segmenter`, with false-break guards).
 * @module
 */
import type { Chunk } from '../core/chunk.js';
import { PrefixIds } from '../core/ids.js';
import { integerOption, localeOption } from '../core/options.js';
import { splitSentences } from '../segment/sentences.js';
import { textPieces, type TextSource } from '../stream/source.js';
import { isBlank, requireText } from '../core/text.js';
import { resolveUnits, trimBlankUnits, type ResolvedUnits, type UnitOptions } from '../size/resolve.js';

/** Options of {@link SentenceChunker}. */
export interface SentenceChunkerOptions extends UnitOptions {
  /** Budget per chunk in `unit`s (tokens by default), an integer ≥ 1. Default 512. */
  chunkSize?: number;
  /** Whole sentences a chunk repeats from the end of the previous one, an integer ≥ 0. Default 0. */
  overlapSentences?: number;
  /** BCP 47 locale for sentence segmentation (`en`, `nl`, `fr`, …). Default `en`. */
  locale?: string;
}

interface Out {
  start: number;
  end: number;
  count: number;
  first: number;
  last: number;
  window?: boolean;
  oversized?: boolean;
}

/**
 * Packs whole sentences, in order, into chunks of at most `chunkSize` units (characters,
 * words or tokens), measured on the exact emitted text (the sentences' source slice with
 * whitespace trimmed at both ends). Each chunk after the first starts with the last
 * `overlapSentences` sentences of the previous chunk, fewer where needed so that every
 * chunk holds at least one new sentence and fits the budget.
 *
 * A sentence that alone exceeds the budget becomes its own run of chunks, cut by the
 * sliding window inside it (windows of up to chunkSize units with stride = window, SPEC
 * section 1; each shortened by whole units until its trimmed text fits) and flagged
 * `metadata.sentenceSplit: true`; sentence overlap does not reach
 * across it. Metadata gives `sentenceStart` and `sentenceEnd` (sentence indices,
 * `[start, end)`) and `overlapSentences` (sentences shared with the previous chunk).
 *
 * @example
 * ```ts
 * const chunker = new SentenceChunker({ unit: 'word', chunkSize: 8, locale: 'en' });
 * chunker.chunk('Dr. Smith arrived. He was late. The meeting had started.').map((c) => c.text);
 * // ['Dr. Smith arrived. He was late.', 'The meeting had started.']
 * ```
 * @throws {InvalidOptionError} at construction when chunkSize is not an integer ≥ 1,
 *   overlapSentences is not an integer ≥ 0, or locale is not a valid BCP 47 tag.
 */
export class SentenceChunker {
  readonly chunkSize: number;
  readonly overlapSentences: number;
  readonly locale: string;
  readonly unit: ResolvedUnits['unit'];
  readonly encoding: string;
  readonly #resolved: ResolvedUnits;

  constructor(options: SentenceChunkerOptions = {}) {
    this.chunkSize = integerOption('chunkSize', options.chunkSize, 512);
    this.overlapSentences = integerOption('overlapSentences', options.overlapSentences, 0, 0);
    this.locale = localeOption('locale', options.locale);
    this.#resolved = resolveUnits(options);
    this.unit = this.#resolved.unit;
    this.encoding = this.#resolved.encoding;
  }

  /**
   * Chunks `text`. Empty or whitespace-only text gives no chunks.
   * @throws {InvalidInputError} when `text` is not a string.
   */
  chunk(text: string): Chunk[] {
    requireText(text);
    if (isBlank(text)) return [];
    const chunks: Chunk[] = [];
    this.#build(text, this.#plan(text), 0, 0, new PrefixIds(), { index: 0, prevEnd: 0, prevLast: -1 }, chunks);
    return chunks;
  }

  /**
   * Chunks a text stream (`ReadableStream<string>` or (async) iterable of string pieces,
   * split anywhere, even inside a surrogate pair or a CRLF), yielding exactly the chunks
   * `chunk(wholeText)` returns (same ids, indices, offsets into the whole stream, sentence
   * indices and metadata), each as soon as it is decided.
   *
   * Hard breaks: a position `p` just after a `\n`, followed by spaces or tabs (no line
   * break) and then the first character of a chunk. UAX #29 always breaks after a line feed and its rules never look
   * across one, and {@link splitSentences} keeps a break followed by a line break and
   * joins whitespace-only segments to the sentence before (hence "then the first
   * character of a chunk"), so the sentences before and after `p` are those of the
   * whole text. The packing loop's state at a chunk start is (first sentence, last
   * sentence already emitted), and the second only decides whether a chunk made of
   * overlap alone is skipped, which a chunk that was emitted was not; so packing from
   * `p` with the sentences after it gives the same chunks, and the carried index,
   * previous end and previous last sentence give the same metadata. Chunks before `p`
   * are emitted only once the plan of the text up to the last line start holds `p`'s
   * chunk, i.e. every sentence they were decided on is complete. Memory: one section
   * (from the last break on) plus one piece; a text without line breaks is held whole.
   * Each new line start re-plans the held section.
   * Ids: prefix hashes (as {@link PrefixIds}), the same in {@link chunk}.
   * @throws {InvalidInputError} for a source that is not a stream/iterable or a piece that
   *   is not a string.
   */
  async *chunkStream(source: TextSource): AsyncGenerator<Chunk> {
    const ids = new PrefixIds();
    const state = { index: 0, prevEnd: 0, prevLast: -1 };
    let buf = '';
    let bufStart = 0; // stream offset of buf[0]
    let sentenceBase = 0; // sentences of the stream before buf
    let planned = 0; // buf length up to which the last plan ran
    for await (const piece of textPieces(source)) {
      if (piece.length === 0) continue;
      buf += piece;
      const settled = lastLineStart(buf, planned);
      if (settled <= planned) continue;
      planned = settled;
      const text = buf.slice(0, settled);
      const plan = this.#plan(text);
      const out = plan.out;
      // the last chunk whose first line starts a sentence: [line start, chunk start) is
      // spaces and tabs only
      let j = out.length - 1;
      let p = -1;
      for (; j >= 1; j--) {
        let q = out[j].start;
        while (q > 0 && isInlineSpace(text.charCodeAt(q - 1))) q--;
        if (q > 0 && text.charCodeAt(q - 1) === 10) {
          p = q;
          break;
        }
      }
      if (j < 1) continue;
      const chunks: Chunk[] = [];
      this.#build(text, { out: out.slice(0, j) }, bufStart, sentenceBase, ids, state, chunks);
      yield* chunks;
      ids.advance(buf, bufStart + p, bufStart);
      sentenceBase += out[j].first;
      buf = buf.slice(p);
      bufStart += p;
      planned = 0;
    }
    if (buf.length === 0 || isBlank(buf)) return;
    const chunks: Chunk[] = [];
    this.#build(buf, this.#plan(buf), bufStart, sentenceBase, ids, state, chunks);
    yield* chunks;
  }

  /**
   * Pushes the chunks of `plan` (spans of `text`) to `chunks`: offsets shifted by
   * `offset` (the stream offset of `text[0]`), sentence indices by `sentenceBase`, ids
   * from `ids` (prefix hashes of the stream), `state` carried from earlier chunks.
   */
  #build(
    text: string,
    plan: { out: Out[] },
    offset: number,
    sentenceBase: number,
    ids: PrefixIds,
    state: { index: number; prevEnd: number; prevLast: number },
    chunks: Chunk[],
  ): void {
    const { units, tokenizer, countTokens, unit } = this.#resolved;
    for (const o of plan.out) {
      const chunkText = text.slice(o.start, o.end);
      const index = state.index++;
      const start = o.start + offset;
      const end = o.end + offset;
      const first = o.first + sentenceBase;
      const last = o.last + sentenceBase;
      chunks.push({
        id: ids.id(text, start, end, offset),
        index,
        text: chunkText,
        start,
        end,
        tokenCount: unit === 'token' ? o.count : countTokens && tokenizer ? tokenizer.count(chunkText) : -1,
        metadata: {
          strategy: 'sentence',
          unit: units.name,
          unitCount: o.count,
          overlap: index === 0 ? 0 : Math.max(0, state.prevEnd - start),
          sentenceStart: first,
          sentenceEnd: last + 1,
          overlapSentences: o.window ? 0 : Math.max(0, state.prevLast - first + 1),
          ...(o.window ? { sentenceSplit: true } : {}),
          ...(o.oversized ? { oversized: true } : {}),
        },
      });
      state.prevEnd = Math.max(state.prevEnd, end);
      state.prevLast = last;
    }
  }

  /** The chunk spans of `text` (sentence indices relative to `text`). */
  #plan(text: string): { out: Out[] } {
    const { units, unit } = this.#resolved;
    const sentences = splitSentences(text, { locale: this.locale });
    // trimmed span of each sentence with text, its index among all sentences, its size
    const ts: number[] = [];
    const te: number[] = [];
    const index: number[] = [];
    const size: number[] = [];
    for (let i = 0; i < sentences.count; i++) {
      const [s, e] = trim(text, sentences.starts[i], sentences.ends[i]);
      if (s >= e) continue; // only leading whitespace can form a blank sentence
      ts.push(s);
      te.push(e);
      index.push(i);
      size.push(units.count(text.slice(s, e)));
    }
    const n = ts.length;
    const budget = this.chunkSize;
    const measure = (a: number, b: number): number => units.count(text.slice(ts[a], te[b]));
    const gapSize = (i: number): number => (unit === 'char' ? units.count(text.slice(te[i - 1], ts[i])) : 0);
    const out: Out[] = [];
    let a = 0; // first sentence of the chunk being built
    let lastEmitted = -1; // last sentence already in a chunk
    while (a < n) {
      if (size[a] > budget) {
        this.#window(text, ts[a], te[a], index[a], out);
        lastEmitted = a;
        a++;
        continue;
      }
      // grow while the estimate fits (sentence sizes, plus the whitespace between them
      // for characters, where the sum is then exact), then check the exact emitted text
      // once and, if BPE or word joins made it larger, keep the longest prefix that fits
      let b = a;
      let estimate = size[a];
      while (b + 1 < n && size[b + 1] <= budget) {
        const grown = estimate + gapSize(b + 1) + size[b + 1];
        if (grown > budget) break;
        b++;
        estimate = grown;
      }
      let count = b === a ? size[a] : measure(a, b);
      if (count > budget) {
        let lo = a;
        let hi = b - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (measure(a, mid) <= budget) lo = mid;
          else hi = mid - 1;
        }
        b = lo;
        count = measure(a, b);
      }
      if (b <= lastEmitted) {
        // the overlap sentences alone fill the budget: start after them instead
        a = lastEmitted + 1;
        continue;
      }
      out.push({ start: ts[a], end: te[b], count, first: index[a], last: index[b] });
      lastEmitted = b;
      if (b + 1 >= n) break;
      // next chunk: the last overlapSentences sentences, fewer if the next new one would not fit
      let next = Math.max(a + 1, b + 1 - this.overlapSentences);
      if (next <= b && size[b + 1] > budget) next = b + 1;
      else if (next <= b && measure(next, b + 1) > budget) {
        // fewest sentences dropped from the front so the next new sentence fits (binary search)
        let lo = next + 1;
        let hi = b + 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (measure(mid, b + 1) <= budget) hi = mid;
          else lo = mid + 1;
        }
        next = lo;
      }
      a = next;
    }
    return { out };
  }

  /**
   * Cuts one over-budget sentence [s, e) by consecutive windows of units (stride = window):
   * each window is the longest run of whole units from where the last ended whose
   * trimmed text measures ≤ chunkSize (at most chunkSize units, shortened by binary search
   * where BPE re-encodes the trimmed text into more tokens). A single unit over the
   * budget is a window of its own, flagged `oversized`.
   */
  #window(text: string, s: number, e: number, sentence: number, out: Out[]): void {
    const { units } = this.#resolved;
    const piece = text.slice(s, e);
    const spans = trimBlankUnits(piece, units.segment(piece));
    const n = spans.count;
    const budget = this.chunkSize;
    const span = (i: number, j: number): [number, number] => trim(text, s + spans.starts[i], s + spans.ends[j]);
    const measure = (i: number, j: number): number => {
      const [a, b] = span(i, j);
      return a < b ? units.count(text.slice(a, b)) : 0;
    };
    let i = 0;
    while (i < n) {
      let j = Math.min(n - 1, i + budget - 1);
      if (measure(i, j) > budget) {
        let lo = i;
        let hi = j - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (measure(i, mid) <= budget) lo = mid;
          else hi = mid - 1;
        }
        j = lo;
      }
      const [ws, we] = span(i, j);
      if (ws < we) {
        const count = units.count(text.slice(ws, we));
        out.push({ start: ws, end: we, count, first: sentence, last: sentence, window: true, ...(count > budget ? { oversized: true } : {}) });
      }
      i = j + 1;
    }
  }
}

const LINE_BREAKS = /[\n\r\u2028\u2029\u0085]/;

/** Whitespace that is not a line break. */
function isInlineSpace(c: number): boolean {
  const ch = String.fromCharCode(c);
  return /\s/.test(ch) && !LINE_BREAKS.test(ch);
}

/**
 * The last offset in `text(from, text.length)` just after a `\n` whose line has a
 * non-whitespace character (so the sentence starting there is not whitespace only,
 * which {@link splitSentences} would join to the one before), or `from`.
 */
function lastLineStart(text: string, from: number): number {
  let firstText = -1; // the first non-whitespace character of the line being scanned back over
  for (let p = text.length - 1; p > from; p--) {
    const c = text.charCodeAt(p);
    if (!isInlineSpace(c)) firstText = LINE_BREAKS.test(text[p]) ? -1 : p;
    if (text.charCodeAt(p - 1) === 10 && firstText >= 0) return p;
  }
  return from;
}

/** [s, e) without whitespace at either end. */
function trim(text: string, s: number, e: number): [number, number] {
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return [s, e];
}
