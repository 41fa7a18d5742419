/**
 * Section structure over sentences: which sentences are headings, and how a range of
 * sentences is snapped to paragraph and section breaks. A boundary source for any
 * sentence-based strategy (QASC uses it for its step 5). Core module: no Node built-in.
 * @module
 */
import type { SentenceSpans } from './sentence-spans.js';

/** Markdown ATX heading (`# Title`). */
const ATX = /^#{1,6}(?:\s|$)/;
/** Wikitext heading (`= Title =`, `= = Part = =`). */
const WIKI = /^=+\s.*\s=+$/;
/** Setext underline (`====`, `----`). */
const UNDERLINE = /^(?:=+|-+)$/;
/** A line that starts a list item, a table row or a quote: never a title. */
const NOT_TITLE_START = /^(?:[•·▪◦‣*+>|]|[-–—]\s|\d+[.)]\s*$)/;
/** An optional section number before a title: "4.", "3.1", "IV.", "A.". */
const LABEL = /^(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.)\s+/;
/** Sentence-final punctuation (after closing quotes and brackets): a title has none. */
const FINAL = /[.!?…,;]["'’”»)\]]*$/;

/** Longest title line (UTF-16 code units) and most words. */
export const TITLE_MAX_CHARS = 120;
export const TITLE_MAX_WORDS = 16;

function lineStartBefore(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

function lineEndAfter(text: string, at: number): boolean {
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Headings among the sentences of `text`: entry i is 1 when sentence i fills a line of
 * its own and is
 * - a Markdown ATX heading (`# Title`), a wikitext heading (`= Title =`), a setext
 *   underline or the line above one; or
 * - a **title line**: not the last sentence, at most {@link TITLE_MAX_CHARS} characters and
 *   {@link TITLE_MAX_WORDS} words, no sentence-final punctuation at its end (a colon is
 *   allowed: "4. Oplossing van Grenzen en Samenvoegen:"), no list bullet, table pipe or
 *   quote marker at its start, and its first letter (after an optional section number
 *   such as "4." or "3.1") upper case.
 * Plain-text titles are a heuristic: a short capitalised line without a final period,
 * such as an author's name in a paper's front matter, counts too.
 * @returns Uint8Array of `s.count` entries
 */
export function headingSentences(text: string, s: SentenceSpans): Uint8Array {
  const n = s.count;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const a = s.starts[i];
    const b = s.ends[i];
    if (!lineStartBefore(text, a) || !lineEndAfter(text, b)) continue;
    const line = text.slice(a, Math.min(b, a + TITLE_MAX_CHARS + 1));
    if (ATX.test(line) || (b - a <= TITLE_MAX_CHARS && WIKI.test(line))) {
      out[i] = 1;
      continue;
    }
    if (b - a <= TITLE_MAX_CHARS && UNDERLINE.test(line) && line.length >= 3 && i > 0) {
      const gap = text.slice(s.ends[i - 1], a);
      if (/^[ \t]*\r?\n[ \t]*$/.test(gap) && s.ends[i - 1] - s.starts[i - 1] <= TITLE_MAX_CHARS) {
        out[i - 1] = 1;
        out[i] = 1;
      }
      continue;
    }
    if (i === n - 1 || b - a > TITLE_MAX_CHARS || NOT_TITLE_START.test(line) || line.includes('|') || FINAL.test(line)) continue;
    if (line.split(/\s+/).length > TITLE_MAX_WORDS) continue;
    const rest = line.replace(LABEL, '');
    const letter = /\p{L}/u.exec(rest);
    if (letter && /\p{Lu}/u.test(letter[0])) out[i] = 1;
  }
  return out;
}

/** The structure {@link snapToBreaks} works on, one entry per sentence boundary or sentence. */
export interface SentenceStructure {
  /** n + 1 flags: 1 where boundary b (before sentence b) is a paragraph or section break ({@link paragraphBreaks}). */
  breaks: Uint8Array;
  /** n flags: 1 where sentence i is a heading ({@link headingSentences}); optional. */
  headings?: Uint8Array;
}

/**
 * Snaps the sentence range [lo, hi) to paragraph or section breaks, and never lets it end
 * on a heading:
 * 1. An end that is not on a break moves to the nearest break at most `distance`
 *    boundaries away. The start may move outward (down) freely and inward only up to
 *    `keep.lo`; the end outward freely and inward only down to `keep.hi` (QASC keeps its
 *    seeds `[first seed, last seed + 1)` this way). At equal distance the start moves
 *    outward (taking in the heading above) and the end inward (leaving out the start of
 *    the next section).
 * 2. While the last sentence is a heading, the end moves before it (even past `keep`: a
 *    heading at the end introduces what the range leaves out).
 * @returns the snapped range, or undefined when only headings were left
 */
export function snapToBreaks(
  lo: number,
  hi: number,
  structure: SentenceStructure,
  distance: number,
  keep: { lo: number; hi: number } = { lo: hi, hi: lo },
): { lo: number; hi: number } | undefined {
  const { breaks, headings } = structure;
  const n = breaks.length - 1;
  if (distance > 0 && !breaks[lo]) {
    for (let d = 1; d <= distance; d++) {
      if (lo - d >= 0 && breaks[lo - d]) {
        lo -= d;
        break;
      }
      if (lo + d <= Math.min(keep.lo, hi - 1) && breaks[lo + d]) {
        lo += d;
        break;
      }
    }
  }
  if (distance > 0 && !breaks[hi]) {
    for (let d = 1; d <= distance; d++) {
      if (hi - d >= Math.max(keep.hi, lo + 1) && breaks[hi - d]) {
        hi -= d;
        break;
      }
      if (hi + d <= n && breaks[hi + d]) {
        hi += d;
        break;
      }
    }
  }
  if (headings) while (hi > lo && headings[hi - 1]) hi--;
  return hi > lo ? { lo, hi } : undefined;
}
