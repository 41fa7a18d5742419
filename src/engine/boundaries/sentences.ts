/**
 * Sentence segmentation with UTF-16 spans, from `Intl.Segmenter` (granularity
 * `sentence`, the Unicode UAX #29 sentence rules as ICU implements them), with guards
 * against the usual false breaks.
 *
 * ICU breaks after any `.` followed by a space and an upper-case letter (the same in
 * every locale: V8's ICU applies no locale-specific suppressions), so it cuts after
 * abbreviations ("Dr. Smith", "bv. 512", "et al. (2021)", "p. ex. Le"), initials
 * ("J. K. Rowling"), list labels ("1. Inleiding") and German ordinals ("am 3. Oktober").
 * The guards here join such a break back (see {@link splitSentences}), with rules per
 * language (`./abbreviations.ts`). Decimals ("3.5", "€ 45.000") and numbered headings
 * written "3.1 Title" are not broken by ICU; CJK sentence ends (。！？) break without a
 * following space. Core module: no Node built-in.
 * @module
 */
import type { UnitSpans } from '../size/types.js';
import { isSpace } from '../text.js';
import { rulesFor, type AbbreviationRules } from './abbreviations.js';
import { detectLocale } from './locale.js';

export { ABBREVIATIONS, NEUTRAL_RULES, rulesFor, type AbbreviationRules } from './abbreviations.js';

/** Options of {@link splitSentences}. */
export interface SentenceOptions {
  /**
   * BCP 47 locale, e.g. `en`, `nl`, `fr`, `de`: selects the abbreviation rules of its base
   * language ({@link rulesFor}; others get the language-neutral rules) and is passed to
   * `Intl.Segmenter`. `auto` detects it from the text ({@link detectLocale}). Default `en`.
   */
  locale?: string;
  /**
   * The text is lower-cased throughout ({@link isCaseless}): ICU breaks after a period only
   * before a capital, so here a period followed by a space and a lower-case letter ends a
   * sentence too (unless a guard keeps it: "e.g. the", "no. 5"; titles such as "dr." and
   * single-letter initials count as abbreviations, there being no capital to tell).
   * Default false. Decide it for a whole document, not per piece of a stream.
   */
  caseless?: boolean;
}

/** True when `text` has lower-case letters and no upper-case letter: a lower-cased text (not a caseless script such as Chinese). */
export function isCaseless(text: string): boolean {
  return /\p{Ll}/u.test(text) && !/\p{Lu}/u.test(text);
}

/**
 * Work one split did, for tests of linear time (deterministic, unlike a clock):
 * characters handed to `Intl.Segmenter` and characters the guards read.
 */
export interface SentenceWork {
  segmented: number;
  examined: number;
}

/** A list or section label alone: "1.", "3.1.", "IV.", "a)". */
const LABEL = /^(?:\d+(?:\.\d+)*\.?|[IVXLCivxlc]+\.|[a-zA-Z]\))$/;
const ELLIPSIS = /(?:\.\.\.|…)["'’”»)\]]*$/;
/** Opening brackets and quotes stripped before a word is looked up. */
const OPENERS = /^[("'“‘«[¿¡]+/;
/** Characters of the sentence's end read by the guards: the longest rule needs its last two words. */
const TAIL = 64;
/** Characters of the next sentence read by the guards: its first word. */
const HEAD = 40;
const MARKS = /\p{M}/gu;

const isLineBreak = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029 || c === 0x85;

/** The first word of `head` (the next sentence's start), opening brackets and quotes stripped. */
function firstWord(head: string): string {
  const m = /^\S*/.exec(head)![0];
  return m.replace(OPENERS, '');
}

/**
 * True when ICU's break after the sentence body `text[start, bodyEnd)` (no trailing
 * space) is false, the next sentence starting at `next`. Reads at most {@link TAIL}
 * characters before the break and {@link HEAD} after it (the short-label rule reads the
 * whole body only when it is at most 16 characters), so a run of abbreviations costs
 * linear time.
 */
function isFalseBreak(text: string, start: number, bodyEnd: number, next: number, rules: AbbreviationRules, work: SentenceWork, caseless: boolean): boolean {
  const tailStart = Math.max(start, bodyEnd - TAIL);
  const tail = text.slice(tailStart, bodyEnd);
  const head = text.slice(next, next + HEAD);
  work.examined += tail.length + head.length;
  if (ELLIPSIS.test(tail)) {
    // "wacht… en dan": an ellipsis followed by a lower-case word is one sentence
    return /^\p{Ll}/u.test(head);
  }
  if (!tail.endsWith('.')) return false;
  const words = tail.split(/\s+/);
  const last = words[words.length - 1].replace(OPENERS, '');
  const lower = last.toLowerCase();
  if (rules.always.has(lower)) return true;
  // the word before: whole when the tail holds three words or starts the body
  const before = words.length >= 2 && (words.length >= 3 || tailStart === start) ? words[words.length - 2].replace(OPENERS, '') : '';
  if (before && rules.always.has(`${before.toLowerCase()} ${lower}`)) return true; // "et al.", "p. ex."
  // context rules: where the context does not hold, the word may still be an initial ("John P. McConnell")
  if (rules.afterNumber?.has(lower) && /\d$/.test(before)) return true;
  const nextWord = firstWord(head);
  if (rules.beforeNumber.has(lower) && /^\d/.test(nextWord)) return true;
  if (rules.beforeName.has(lower)) {
    if (caseless) return true;
    if (/^\p{Lu}/u.test(nextWord) && !rules.functionWords.has(nextWord.toLowerCase().normalize('NFD').replace(MARKS, '').replace(/\P{L}+$/u, ''))) return true;
  }
  // a German ordinal before a month or an ordinal noun: "am 3. Oktober", "im 19. Jahrhundert"
  if (rules.ordinalNouns && /^\d{1,2}\.$/.test(last) && rules.ordinalNouns.test(nextWord.toLowerCase().replace(/[,;:]+$/, ''))) return true;
  // an initial ("J.", "K."; lower case in a caseless text)
  if (/^\p{Lu}\.$/u.test(last) || (caseless && /^\p{Ll}\.$/u.test(last))) return true;
  // a chain of one- or two-letter parts: "z.B.", "u.s.w.", "a.d.h.v."
  if (/^(?:\p{L}{1,2}\.){2,}$/u.test(last)) return true;
  // a label alone: "1. Inleiding", "3.1. Scope"
  if (bodyEnd - start <= 16) {
    const body = text.slice(start, bodyEnd);
    work.examined += body.length;
    if (LABEL.test(body.trim())) return true;
  }
  return false;
}

/** Characters per `Intl.Segmenter` call: V8's sentence iteration is quadratic in the input's length. */
export const SEGMENT_WINDOW = 4096;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** A BMP letter or digit (no surrogate half). */
function isPlain(c: number): boolean {
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
  if (c >= 0xd800 && c <= 0xdfff) return false;
  return LETTER_OR_DIGIT.test(String.fromCharCode(c));
}

/**
 * Where to restart segmentation inside a sentence that fills a whole window: the last
 * position q in (from, end) with a letter or digit on both sides (`text[q − 1]`,
 * `text[q]`). No UAX #29 rule lets the text before such a q change a break after it: a
 * break needs a terminator, closing punctuation and spaces right before it, none of
 * which reaches back over two letters or digits, and the rule that looks one character
 * before a terminator (SB7, "U.S") sees `text[q]` at most. Without such a position (no
 * two adjacent letters or digits in half a window: no prose), `end`, moved off a
 * surrogate pair.
 */
function restartPoint(text: string, from: number, end: number, work: SentenceWork): number {
  for (let q = end - 1; q > from; q--) {
    work.examined++;
    if (isPlain(text.charCodeAt(q)) && isPlain(text.charCodeAt(q - 1))) return q;
  }
  const c = text.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end + 1 : end;
}

/**
 * Sentence starts of `text` by `Intl.Segmenter`, run over windows of at most
 * {@link SEGMENT_WINDOW} characters so the time stays linear (V8 iterates sentence
 * segments of a long string in quadratic time: 16 000 characters take ~40× as long as
 * 4 000). A window ends after a line break where one lies in its second half (UAX #29
 * always breaks after a paragraph separator, so the cut changes nothing); otherwise the
 * last two sentences of the window are dropped and segmented again with the next window,
 * so every kept break was decided with at least a sentence of text after it. A window
 * holding one sentence with no line break has no break inside it (cutting a text short
 * only adds breaks near its end), so the next window starts inside that sentence, at the
 * last pair of letters or digits of the window (see `restartPoint`): the breaks are those
 * of one whole call, and no window is larger than {@link SEGMENT_WINDOW} (linear time
 * for sentences of any length).
 * @param work counts the characters segmented (and the restart scan's reads) when given
 */
export function icuSentenceStarts(text: string, locale: string, work: SentenceWork = { segmented: 0, examined: 0 }): number[] {
  const segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  const starts: number[] = [];
  const n = text.length;
  let pos = 0;
  /** Whether `pos` is a sentence start (false after a restart inside a sentence). */
  let atStart = true;
  while (pos < n) {
    let end = Math.min(n, pos + SEGMENT_WINDOW);
    let cleanCut = end === n;
    if (!cleanCut) {
      for (let i = end - 1; i > pos + (SEGMENT_WINDOW >> 1); i--) {
        const c = text.charCodeAt(i);
        if (c === 10 || c === 0x2028 || c === 0x2029 || c === 0x85 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
          end = i + 1;
          cleanCut = true;
          break;
        }
      }
      work.examined += SEGMENT_WINDOW >> 1;
      // never end a window between a high and a low surrogate
      const last = text.charCodeAt(end - 1);
      if (!cleanCut && last >= 0xd800 && last <= 0xdbff) end++;
    }
    const local: number[] = [];
    for (const s of segmenter.segment(text.slice(pos, end))) local.push(pos + s.index);
    work.segmented += end - pos;
    const first = atStart ? 0 : 1;
    if (cleanCut) {
      for (let i = first; i < local.length; i++) starts.push(local[i]);
      pos = end;
      atStart = true;
    } else if (local.length === 1) {
      // one sentence fills the window: go on inside it
      if (atStart) starts.push(pos);
      pos = restartPoint(text, pos + (SEGMENT_WINDOW >> 1), end, work);
      atStart = false;
    } else {
      const keep = Math.max(1, local.length - 2);
      for (let i = first; i < keep; i++) starts.push(local[i]);
      pos = local[keep];
      atStart = true;
    }
  }
  return starts;
}

/**
 * Splits `text` into sentences. Each span covers a sentence and the whitespace after it,
 * so the spans tile the text: starts[0] = 0, ends[i] = starts[i + 1], ends[last] =
 * text.length (UTF-16 code units). Whitespace-only text gives no sentences; a span that
 * would be whitespace only is joined to the one before it.
 *
 * Algorithm: `Intl.Segmenter(locale, { granularity: 'sentence' })` (UAX #29), then a break
 * is removed when the sentence before it ends in an abbreviation of the locale's language
 * ({@link rulesFor}: always — "e.g.", "bijv.", "z.B.", "c.-à-d.", "et al."; before a
 * number only — "No. 5", "Fig. 3", "1 jan. 2024"; before a capitalised word that is not a
 * function word only — "Dr. Smith", "St. Louis"), a German ordinal before a month or an
 * ordinal noun ("am 3. Oktober"), an initial ("J."), a chain of one- or two-letter parts
 * ("d.w.z."), when it is a lone list or section label ("1.", "3.1."), or when it ends in
 * an ellipsis and the next sentence starts with a lower-case letter. A break followed by
 * a line break is always kept (a line ending in "bv." is still the end of that line's
 * sentence). Linear time: each guard reads a bounded tail and head around its break.
 * @throws {RangeError} from Intl.Segmenter for a malformed locale tag.
 */
export function splitSentences(text: string, options: SentenceOptions = {}): UnitSpans {
  return splitSentencesCounted(text, options, { segmented: 0, examined: 0 });
}

/**
 * The ICU starts plus, inside each ICU sentence, a start after every `.` followed by
 * spaces or tabs and a lower-case letter (caseless text; the guards then remove the false
 * ones). One pass over the text.
 */
function withLowerCaseBreaks(text: string, icu: number[], work: SentenceWork): number[] {
  const out: number[] = [];
  const n = text.length;
  for (let k = 0; k < icu.length; k++) {
    const a = icu[k];
    const b = k + 1 < icu.length ? icu[k + 1] : n;
    out.push(a);
    for (let i = a; i < b - 1; i++) {
      if (text.charCodeAt(i) !== 46) continue; // '.'
      let j = i + 1;
      while (j < b && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
      if (j > i + 1 && j < b && /\p{Ll}/u.test(text[j])) out.push(j);
      i = j - 1;
    }
    work.examined += b - a;
  }
  return out;
}

/** {@link splitSentences}, adding its work to `work` (for tests of linear time). */
export function splitSentencesCounted(text: string, options: SentenceOptions, work: SentenceWork): UnitSpans {
  const requested = options.locale ?? 'en';
  const locale = requested === 'auto' ? detectLocale(text) : requested;
  const rules = rulesFor(locale);
  const caseless = options.caseless ?? false;
  const icu = icuSentenceStarts(text, locale, work);
  const starts = caseless ? withLowerCaseBreaks(text, icu, work) : icu;
  const n = text.length;
  const keepS: number[] = [];
  const keepE: number[] = [];
  for (let i = 0; i < starts.length; i++) {
    const a = starts[i];
    const b = i + 1 < starts.length ? starts[i + 1] : n;
    if (keepS.length) {
      let c = a;
      while (c < b && isSpace(text.charCodeAt(c))) c++;
      work.examined += c - a + 1;
      if (c === b) {
        // whitespace only: joined to the sentence before
        keepE[keepE.length - 1] = b;
        continue;
      }
      // the sentence before: its body ends before its trailing whitespace
      const ps = keepS[keepS.length - 1];
      let bodyEnd = a;
      let lineBreak = false;
      while (bodyEnd > ps && isSpace(text.charCodeAt(bodyEnd - 1))) {
        if (isLineBreak(text.charCodeAt(bodyEnd - 1))) lineBreak = true;
        bodyEnd--;
      }
      work.examined += a - bodyEnd;
      if (!lineBreak && isFalseBreak(text, ps, bodyEnd, a, rules, work, caseless)) {
        keepE[keepE.length - 1] = b;
        continue;
      }
    }
    keepS.push(a);
    keepE.push(b);
  }
  if (keepS.length === 1) {
    let c = 0;
    while (c < n && isSpace(text.charCodeAt(c))) c++;
    if (c === n) return { starts: new Int32Array(0), ends: new Int32Array(0), count: 0 };
  }
  return { starts: Int32Array.from(keepS), ends: Int32Array.from(keepE), count: keepS.length };
}
