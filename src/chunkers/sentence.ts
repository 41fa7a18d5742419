/**
 * Sentence chunking: whole sentences packed up to a budget, with an optional overlap of
 * whole sentences.
 *
 * Source: SPEC section 1 ("sentence"), the seeds' survey of chunking strategies
 * (`shared/seeds/001`, `003`); sentences from {@link splitSentences} (UAX #29 via
 * `Intl.Segmenter`, with false-break guards).
 * @module
 */
import { chunkId, hashText, type Chunk } from '../chunk.js';
import { InvalidOptionError } from '../errors.js';
import { requireInteger } from '../options.js';
import { splitSentences } from '../segment/sentences.js';
import { isBlank } from '../units/index.js';
import { requireText, resolveUnits, trimBlankUnits, type ResolvedUnits, type UnitOptions } from './sliding-window.js';

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
    this.chunkSize = requireInteger('chunkSize', options.chunkSize ?? 512);
    this.overlapSentences = requireInteger('overlapSentences', options.overlapSentences ?? 0, 0);
    const locale: unknown = options.locale ?? 'en';
    if (typeof locale !== 'string') throw new InvalidOptionError('locale', locale, 'must be a BCP 47 language tag');
    try {
      new Intl.Segmenter(locale, { granularity: 'sentence' });
    } catch {
      throw new InvalidOptionError('locale', locale, 'must be a BCP 47 language tag such as en, nl or fr');
    }
    this.locale = locale;
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
    const { units, tokenizer, countTokens, unit } = this.#resolved;
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
    const sourceHash = hashText(text);
    const chunks: Chunk[] = [];
    let prevEnd = 0;
    let prevLast = -1;
    for (const o of out) {
      const chunkText = text.slice(o.start, o.end);
      const index = chunks.length;
      chunks.push({
        id: chunkId(sourceHash, o.start, o.end),
        index,
        text: chunkText,
        start: o.start,
        end: o.end,
        tokenCount: unit === 'token' ? o.count : countTokens && tokenizer ? tokenizer.count(chunkText) : -1,
        metadata: {
          strategy: 'sentence',
          unit: units.name,
          unitCount: o.count,
          overlap: index === 0 ? 0 : Math.max(0, prevEnd - o.start),
          sentenceStart: o.first,
          sentenceEnd: o.last + 1,
          overlapSentences: o.window ? 0 : Math.max(0, prevLast - o.first + 1),
          ...(o.window ? { sentenceSplit: true } : {}),
          ...(o.oversized ? { oversized: true } : {}),
        },
      });
      prevEnd = Math.max(prevEnd, o.end);
      prevLast = o.last;
    }
    return chunks;
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

/** [s, e) without whitespace at either end. */
function trim(text: string, s: number, e: number): [number, number] {
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return [s, e];
}
