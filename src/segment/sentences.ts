/**
 * Sentence segmentation with UTF-16 spans, from `Intl.Segmenter` (granularity
 * `sentence`, the Unicode UAX #29 sentence rules as ICU implements them), with guards
 * against the usual false breaks.
 *
 * ICU breaks after any `.` followed by a space and an upper-case letter, so it cuts after
 * abbreviations ("Dr. Smith", "bv. 512", "et al. (2021)", "p. ex. Le"), initials
 * ("J. K. Rowling") and list labels ("1. Inleiding"). The guards here join such a break
 * back (see {@link splitSentences}). Decimals ("3.5", "€ 45.000") and numbered headings
 * written "3.1 Title" are not broken by ICU; CJK sentence ends (。！？) break without a
 * following space. Core module: no Node built-in.
 * @module
 */
import type { UnitSpans } from '../size/types.js';

/** Options of {@link splitSentences}. */
export interface SentenceOptions {
  /** BCP 47 locale for `Intl.Segmenter`, e.g. `en`, `nl`, `fr`. Default `en`. */
  locale?: string;
}

/**
 * Abbreviations (lower case, with their final period) after which a period does not end
 * a sentence. One list for every locale: the Dutch, French, German and English ones do
 * not collide with ordinary sentence-final words.
 */
export const ABBREVIATIONS: ReadonlySet<string> = new Set([
  // English and Latin
  'e.g.', 'i.e.', 'cf.', 'vs.', 'al.', 'approx.', 'fig.', 'figs.', 'no.', 'nos.', 'vol.', 'pp.', 'ed.', 'eds.',
  'mr.', 'mrs.', 'ms.', 'dr.', 'prof.', 'st.', 'jr.', 'sr.', 'inc.', 'ltd.', 'co.', 'corp.', 'dept.', 'univ.',
  'jan.', 'feb.', 'aug.', 'sept.', 'oct.', 'nov.', 'dec.', 'est.', 'ca.', 'resp.', 'viz.',
  // Dutch
  'bv.', 'b.v.', 'o.a.', 'd.w.z.', 'm.a.w.', 'i.p.v.', 't.o.v.', 'nl.', 'dhr.', 'mevr.', 'ir.', 'drs.', 'ing.',
  'evt.', 'incl.', 'excl.', 'blz.', 'jl.', 'vgl.', 'zgn.', 'm.b.t.', 'i.v.m.', 'a.d.h.v.', 'o.b.v.', 'z.g.a.n.',
  // French
  'p.', 'ex.', 'mme.', 'mlle.', 'mm.', 'env.', 'av.', 'apr.', 'j.-c.', 'chap.', 'éd.', 'cf.', 'art.',
  // German
  'z.b.', 'd.h.', 'u.a.', 'usw.', 'bzw.', 'nr.', 'hr.', 'fr.', 'z.t.', 'u.u.', 'o.ä.', 'ggf.', 'evtl.', 'inkl.', 's.o.', 's.u.',
]);

const LINE_BREAK = /[\n\r\u2028\u2029\u0085]/;
const TRAILING_SPACE = /\s*$/;
/** A list or section label alone: "1.", "3.1.", "IV.", "a)". */
const LABEL = /^(?:\d+(?:\.\d+)*\.?|[IVXLCivxlc]+\.|[a-zA-Z]\))$/;
const ELLIPSIS = /(?:\.\.\.|…)["'’”»)\]]*$/;

/** True when the sentence `body` (no trailing space) ends where ICU's break is false. */
function isFalseBreak(body: string, next: string): boolean {
  if (ELLIPSIS.test(body)) {
    // "wacht… en dan": an ellipsis followed by a lower-case word is one sentence
    return /^\p{Ll}/u.test(next);
  }
  if (!body.endsWith('.')) return false;
  // only the tail matters: a merged sentence can be long, and this runs per break
  const tail = body.length > 48 ? body.slice(-48) : body;
  const words = tail.split(/\s+/);
  const last = words[words.length - 1].replace(/^[("'“‘«[]+/, '');
  const lower = last.toLowerCase();
  if (ABBREVIATIONS.has(lower)) return true;
  // an initial ("J.", "K.")
  if (/^\p{Lu}\.$/u.test(last)) return true;
  // a chain of one-letter parts: "z.B.", "u.s.w.", "a.d.h.v."
  if (/^(?:\p{L}{1,2}\.){2,}$/u.test(last)) return true;
  // a label alone: "1. Inleiding", "3.1. Scope"
  if (body.length <= 16 && LABEL.test(body.trim())) return true;
  return false;
}

/** Characters per `Intl.Segmenter` call: V8's sentence iteration is quadratic in the input's length. */
export const SEGMENT_WINDOW = 4096;

/**
 * Sentence starts of `text` by `Intl.Segmenter`, run over windows of about
 * {@link SEGMENT_WINDOW} characters so the time stays linear (V8 iterates sentence
 * segments of a long string in quadratic time: 16 000 characters take ~40× as long as
 * 4 000). A window ends after a line break where one lies in its second half (UAX #29
 * always breaks after a paragraph separator, so the cut changes nothing); otherwise the
 * last two sentences of the window are dropped and segmented again with the next window,
 * so every kept break was decided with at least a sentence of text after it. A window
 * holding one sentence with no line break is doubled until a break shows, so no break
 * depends on where the windows fall (a sentence longer than the window costs time
 * quadratic in its length).
 */
export function icuSentenceStarts(text: string, locale: string): number[] {
  const segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  const starts: number[] = [];
  const n = text.length;
  let pos = 0;
  let size = SEGMENT_WINDOW;
  while (pos < n) {
    let end = Math.min(n, pos + size);
    let cleanCut = end === n;
    if (!cleanCut) {
      for (let i = end - 1; i > pos + (size >> 1); i--) {
        const c = text.charCodeAt(i);
        if (c === 10 || c === 0x2028 || c === 0x2029 || c === 0x85 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
          end = i + 1;
          cleanCut = true;
          break;
        }
      }
      // never end a window between a high and a low surrogate
      const last = text.charCodeAt(end - 1);
      if (!cleanCut && last >= 0xd800 && last <= 0xdbff) end++;
    }
    const local: number[] = [];
    for (const s of segmenter.segment(text.slice(pos, end))) local.push(pos + s.index);
    if (!cleanCut && local.length === 1) {
      // one sentence longer than the window (no line break in it): widen the window until
      // a break shows (cutting at the window's end would put a break where the window
      // happened to end, which depends on where the text started: a stream could not
      // reproduce it)
      size *= 2;
      continue;
    }
    size = SEGMENT_WINDOW;
    if (cleanCut) {
      starts.push(...local);
      pos = end;
    } else if (local.length === 2) {
      starts.push(local[0]);
      pos = local[1];
    } else {
      const keep = local.length - 2;
      for (let i = 0; i < keep; i++) starts.push(local[i]);
      pos = local[keep];
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
 * is removed when the sentence before it ends in a known abbreviation
 * ({@link ABBREVIATIONS}: "Dr.", "e.g.", "i.e.", "bv.", "o.a.", "p. ex.", "z.B.", "et al."),
 * an initial ("J."), a chain of one- or two-letter parts ("d.w.z."), when it is a lone
 * list or section label ("1.", "3.1."), or when it ends in an ellipsis and the next
 * sentence starts with a lower-case letter. A break followed by a line break is always
 * kept (a line ending in "bv." is still the end of that line's sentence).
 * @throws {RangeError} from Intl.Segmenter for a malformed locale tag.
 */
export function splitSentences(text: string, options: SentenceOptions = {}): UnitSpans {
  const starts = icuSentenceStarts(text, options.locale ?? 'en');
  const ends = starts.slice(1);
  ends.push(text.length);
  const keepS: number[] = [];
  const keepE: number[] = [];
  for (let i = 0; i < starts.length; i++) {
    const seg = text.slice(starts[i], ends[i]);
    if (keepS.length) {
      if (/^\s*$/.test(seg)) {
        keepE[keepE.length - 1] = ends[i];
        continue;
      }
      const prev = text.slice(keepS[keepS.length - 1], keepE[keepE.length - 1]);
      const space = TRAILING_SPACE.exec(prev)![0];
      if (!LINE_BREAK.test(space) && isFalseBreak(prev.slice(0, prev.length - space.length), seg)) {
        keepE[keepE.length - 1] = ends[i];
        continue;
      }
    }
    keepS.push(starts[i]);
    keepE.push(ends[i]);
  }
  if (keepS.length === 1 && /^\s*$/.test(text)) return { starts: new Int32Array(0), ends: new Int32Array(0), count: 0 };
  return { starts: Int32Array.from(keepS), ends: Int32Array.from(keepE), count: keepS.length };
}
