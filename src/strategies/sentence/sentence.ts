/**
 * Sentence chunking: whole sentences packed up to a budget, with an optional overlap of
 * whole sentences.
 *
 * Sentences from {@link splitSentences} (UAX #29 via
 * `Intl.Segmenter`, with false-break guards). The strategy is its boundaries (sentences,
 * and the units of a sentence too long for the budget) and its options schema; packing
 * is the shared packer's greedy policy with whole-sentence overlap (`src/engine/pack/pack.ts`),
 * chunks come from the shared assembler, streams from the shared driver.
 * @module
 */
import { localeProblem } from '../../engine/options/options.js';
import type { OptionsOf, StrategySchema } from '../../engine/options/schema.js';
import { isBlank, isSpace, trimSpan } from '../../engine/text.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { SpanLevel, spanArrays } from '../../engine/pack/levels.js';
import { pack, type PackLevel } from '../../engine/pack/pack.js';
import { DETECT_SAMPLE, detectLocale } from '../../engine/boundaries/locale.js';
import { splitSentences } from '../../engine/boundaries/sentences.js';
import type { UnitSpans } from '../../engine/size/types.js';
import { rangeMeasure, type RangeMeasure } from '../../engine/size/measure.js';
import { trimBlankUnits } from '../../engine/size/resolve.js';
import { capacitySchema, defineStrategy } from '../../engine/define.js';
import type { StepResult, StreamPlan } from '../../engine/stream/driver.js';

/** The options schema of the sentence strategy. */
export const SENTENCE_SCHEMA = capacitySchema(
  'sentence',
  {
    overlapSentences: { type: 'integer', min: 0, default: 0, doc: 'whole sentences a chunk repeats from the end of the previous one' },
    locale: {
      type: 'string',
      default: 'en',
      doc: 'BCP 47 locale of the text: its abbreviation rules (`en`, `nl`, `fr`, `de` have their own) and Intl.Segmenter\'s; `auto` detects it from the first 20,000 characters',
      check: localeProblem,
      cli: { placeholder: '<tag>' },
    },
  },
  { size: 'budget per chunk, in units', overlap: false },
) satisfies StrategySchema;

/** Options of {@link SentenceChunker}: read from {@link SENTENCE_SCHEMA}. */
export type SentenceChunkerOptions = OptionsOf<typeof SENTENCE_SCHEMA>;

/** State carried across stream steps. */
interface SentenceState {
  /** The locale in use (`auto` resolved once, from the stream's first {@link DETECT_SAMPLE} characters). */
  locale?: string;
  /** Sentences of the stream before the held text. */
  sentenceBase: number;
  /** Global index of the last sentence in an emitted chunk (-1: none). */
  prevLast: number;
}

/**
 * Packs whole sentences, in order, into chunks of at most `chunkSize` units (characters,
 * words or tokens), measured on the exact emitted text (the sentences' source slice with
 * whitespace trimmed at both ends). Each chunk after the first starts with the last
 * `overlapSentences` sentences of the previous chunk, fewer where needed so that every
 * chunk holds at least one new sentence and fits the budget.
 *
 * A sentence that alone exceeds the budget becomes its own run of chunks, cut between
 * its units (consecutive windows of the longest run of whole units whose trimmed text
 * fits) and flagged `metadata.sentenceSplit: true`; sentence overlap does not reach
 * across it. Metadata gives `sentenceStart` and `sentenceEnd` (sentence indices,
 * `[start, end)`) and `overlapSentences` (sentences shared with the previous chunk).
 *
 * @example
 * ```ts
 * const chunker = new SentenceChunker({ unit: 'word', chunkSize: 8, locale: 'en' });
 * chunker.chunk('Dr. Smith arrived. He was late. The meeting had started.').map((c) => c.text);
 * // ['Dr. Smith arrived. He was late.', 'The meeting had started.']
 * ```
 * @throws {InvalidOptionError} at construction for an unknown option, chunkSize not an
 *   integer ≥ 1, overlapSentences not an integer ≥ 0, or a locale that is not a valid
 *   BCP 47 tag.
 */
export class SentenceChunker extends defineStrategy({
  name: 'sentence',
  description: 'whole sentences (Intl.Segmenter, locale) packed up to chunkSize units, overlapSentences shared',
  schema: SENTENCE_SCHEMA,
  stream: true,
}) {
  readonly chunkSize: number = this.options.chunkSize;
  readonly overlapSentences: number = this.options.overlapSentences;
  readonly locale: string = this.options.locale;
  /**
   * The stream plan of `chunk` and `chunkStream` (a stream split anywhere, even inside a
   * surrogate pair or a CRLF, gives exactly the chunks of `chunk(wholeText)`).
   *
   * Hard breaks: a position `p` just after a `\n`, followed by spaces or tabs (no line
   * break) and then the first character of a chunk. UAX #29 always breaks after a line
   * feed and its rules never look across one, and {@link splitSentences} keeps a break
   * followed by a line break and joins whitespace-only segments to the sentence before
   * (hence "then the first character of a chunk"), so the sentences before and after `p`
   * are those of the whole text. The packing state at a chunk start is (first sentence,
   * last sentence already emitted), and the second only decides whether a chunk made of
   * overlap alone is skipped, which a chunk that was emitted was not; so packing from `p`
   * with the sentences after it gives the same chunks. Chunks before `p` are emitted once
   * the plan of the text up to the last line start holds `p`'s chunk, i.e. every sentence
   * they were decided on is complete.
   *
   * Text without line breaks (one long line, CJK or Thai prose) is cut the same way at
   * settled sentence starts: a start followed in the held text by two more starts and
   * {@link SETTLE_MARGIN} code units, which no later text can move (Intl.Segmenter's
   * rules read ahead only to the next letter or terminator, the abbreviation guards
   * {@link SETTLE_MARGIN} characters; `splitSentences` itself restarts segmentation at
   * such starts), and at the piece boundaries of sentences longer than
   * {@link SENTENCE_PIECE} (decided by the sentence's first {@link SENTENCE_PIECE} code
   * units alone). Memory: a few chunks plus one piece of the stream, whatever the text.
   */
  protected readonly plan: StreamPlan<SentenceState> = {
    initial: () => ({ sentenceBase: 0, prevLast: -1 }),
    step: (text, offset, state, final) => this.#step(text, state, final),
  };

  /** One step of the stream plan (a whole text: one final step). */
  #step(text: string, state: SentenceState, final: boolean): StepResult<SentenceState> {
    if (state.locale === undefined) {
      // `auto` is decided once, on the text's first DETECT_SAMPLE characters, in both paths
      if (this.locale === 'auto' && !final && text.length < DETECT_SAMPLE) return { chunks: [], keep: 0, state };
      state = { ...state, locale: this.locale === 'auto' ? detectLocale(text) : this.locale };
    }
    if (final) {
      const { chunks } = this.#pack(text, state);
      return { chunks, keep: 0, state };
    }
    const sentences = this.#sentences(text, state.locale!);
    const settled = Math.max(lastLineStart(text, 0), settledStart(text, sentences));
    if (settled <= 0) return { chunks: [], keep: 0, state };
    const head = text.slice(0, settled);
    let count = 0;
    while (count < sentences.count && sentences.starts[count] < settled) count++;
    const spans: SentenceSpans = { starts: sentences.starts.subarray(0, count), ends: sentences.ends.subarray(0, count), count, pieceStarts: [] };
    const trial = { ...state };
    const { chunks, firsts, trimmedStarts } = this.#pack(head, trial, spans);
    const end = state.sentenceBase + count;
    if (chunks.length > 0 && chunks[chunks.length - 1].metadata!.sentenceSplit === true && chunks[chunks.length - 1].metadata!.sentenceEnd === end) {
      // the held text's last settled sentence is over budget, cut into windows: no later
      // sentence joins its last window, nor overlaps it, so every chunk so far is decided
      return { chunks, keep: settled, state: { locale: state.locale, sentenceBase: end, prevLast: end - 1 } };
    }
    // the last chunk (j ≥ 1) that starts at its first sentence (not inside an over-budget
    // one): sentences from there on are those of the whole text, packed from a fresh start
    for (let j = chunks.length - 1; j >= 1; j--) {
      if (chunks[j].start !== trimmedStarts[j]) continue;
      const done = chunks.slice(0, j);
      const last = done[done.length - 1].metadata!.sentenceEnd as number;
      return { chunks: done, keep: spans.starts[firsts[j]], state: { locale: state.locale, sentenceBase: state.sentenceBase + firsts[j], prevLast: last - 1 } };
    }
    return { chunks: [], keep: 0, state };
  }

  /**
   * The sentences of `text` ({@link splitSentences}), a sentence longer than
   * {@link SENTENCE_PIECE} code units cut into pieces: each piece ends at the last safe
   * cut of the unit (where the units of the two sides are those of the whole) within
   * the first {@link SENTENCE_PIECE} code units from the piece's start, so a piece
   * depends on those code units only. Pieces count as sentences. A unit without a safe
   * cut (a custom sizer) leaves long sentences whole.
   */
  #sentences(text: string, locale: string): SentenceSpans {
    const sentences = splitSentences(text, { locale });
    const cut = this.resolved.units.safeCut;
    let long = false;
    for (let i = 0; i < sentences.count && !long; i++) long = sentences.ends[i] - sentences.starts[i] > SENTENCE_PIECE;
    if (!long || !cut) return { ...sentences, pieceStarts: [] };
    const starts: number[] = [];
    const ends: number[] = [];
    const pieceStarts: number[] = [];
    for (let i = 0; i < sentences.count; i++) {
      let a = sentences.starts[i];
      const b = sentences.ends[i];
      while (b - a > SENTENCE_PIECE) {
        const p = a + cut(text.slice(a, a + SENTENCE_PIECE), 0);
        if (p <= a) break;
        starts.push(a);
        ends.push(p);
        pieceStarts.push(p);
        a = p;
      }
      starts.push(a);
      ends.push(b);
    }
    return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), count: starts.length, pieceStarts };
  }

  /**
   * The chunks of `text` (sentence indices global: `state.sentenceBase` added), with each
   * chunk's first sentence relative to `text`; `state.prevLast` is updated.
   */
  #pack(text: string, state: SentenceState, sentences: SentenceSpans = this.#sentences(text, state.locale ?? this.locale)): { chunks: PlannedChunk[]; firsts: number[]; trimmedStarts: number[] } {
    const measure = rangeMeasure(text, this.resolved.units);
    // the trimmed span of each sentence with text, and its index among all sentences
    const ts: number[] = [];
    const te: number[] = [];
    const index: number[] = [];
    for (let i = 0; i < sentences.count; i++) {
      const { start: s, end: e } = trimSpan(text, sentences.starts[i], sentences.ends[i]);
      if (s >= e) continue; // only leading whitespace can form a blank sentence
      ts.push(s);
      te.push(e);
      index.push(i);
    }
    const base = state.sentenceBase;
    const firsts: number[] = [];
    const trimmedStarts: number[] = [];
    const level = new SpanLevel(measure, ts, te, {
      overlap: { kind: 'sections', count: this.overlapSentences },
      descend: (i) => this.#units(text, measure, ts[i], te[i], base + index[i], state, firsts, index[i], trimmedStarts),
      emit: (a, b, size) => {
        const first = base + index[a];
        const last = base + index[b];
        firsts.push(index[a]);
        trimmedStarts.push(ts[a]);
        const chunk: PlannedChunk = {
          start: ts[a],
          end: te[b],
          unitCount: size,
          metadata: { sentenceStart: first, sentenceEnd: last + 1, overlapSentences: Math.max(0, state.prevLast - first + 1) },
        };
        state.prevLast = last;
        return chunk;
      },
    });
    const chunks = pack(level, { max: this.chunkSize });
    return { chunks, firsts, trimmedStarts };
  }

  /** The units of one over-budget sentence [s, e), as a level packed without overlap. */
  #units(text: string, measure: RangeMeasure, s: number, e: number, sentence: number, state: SentenceState, firsts: number[], local: number, trimmedStarts: number[]): PackLevel {
    const piece = text.slice(s, e);
    const spans = trimBlankUnits(piece, this.resolved.units.segment(piece));
    const { starts, ends } = spanArrays(spans.count, (i) => s + spans.starts[i], (i) => s + spans.ends[i]);
    const trimmed = (a: number, b: number): [number, number] => {
      const { start, end } = trimSpan(text, starts[a], ends[b]);
      return [start, end];
    };
    return new SpanLevel(measure, starts, ends, {
      gaps: 'none',
      exact: (a, b) => {
        const [x, y] = trimmed(a, b);
        return measure.size(x, y);
      },
      emit: (a, b, size, oversized) => {
        const [x, y] = trimmed(a, b);
        if (x >= y) return undefined;
        firsts.push(local);
        trimmedStarts.push(s);
        state.prevLast = sentence;
        const chunk: PlannedChunk = {
          start: x,
          end: y,
          unitCount: size,
          metadata: { sentenceStart: sentence, sentenceEnd: sentence + 1, overlapSentences: 0, sentenceSplit: true },
        };
        if (oversized) chunk.oversized = true;
        return chunk;
      },
    });
  }
}

/**
 * Longest sentence packed as one, in UTF-16 code units: a longer one (text with no
 * sentence terminator — Thai, a base64 blob, a list without full stops) is cut into
 * pieces of at most this length at the unit's safe cuts, each packed as a sentence, so
 * a stream holds a bounded amount of such text.
 */
export const SENTENCE_PIECE = 1 << 15;

/** Code units a settled sentence start needs after it in the held text (the guards read 40 after a break, 64 before). */
const SETTLE_MARGIN = 256;

/** Sentence spans, with the starts of the pieces of long sentences among them ({@link SENTENCE_PIECE}), in order. */
interface SentenceSpans extends UnitSpans {
  pieceStarts: readonly number[];
}

/**
 * The last start of `sentences` (of the held `text`) that later text cannot move: one
 * followed by two more starts and {@link SETTLE_MARGIN} code units, or a piece boundary
 * of a sentence longer than {@link SENTENCE_PIECE} (decided by that sentence's first
 * code units); 0 when there is none.
 */
function settledStart(text: string, sentences: SentenceSpans): number {
  let best = 0;
  for (let k = sentences.count - 3; k >= 1; k--) {
    if (text.length - sentences.starts[k] >= SETTLE_MARGIN) {
      best = sentences.starts[k];
      break;
    }
  }
  const pieces = sentences.pieceStarts;
  return pieces.length > 0 ? Math.max(best, pieces[pieces.length - 1]) : best;
}

const LINE_BREAKS = /[\n\r\u2028\u2029\u0085]/;

/** Whitespace that is not a line break. */
function isInlineSpace(c: number): boolean {
  return isSpace(c) && !LINE_BREAKS.test(String.fromCharCode(c));
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
