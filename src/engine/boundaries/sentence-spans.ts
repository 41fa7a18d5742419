/**
 * Sentence spans without their surrounding whitespace, and paragraph breaks between
 * them: the units the semantic chunker and QASC work on.
 * @module
 */
import { splitSentences, type SentenceOptions } from './sentences.js';
import { headingSentences } from './structure.js';

/** Sentences as UTF-16 spans `[starts[i], ends[i])`, each trimmed of leading and trailing whitespace. */
export interface SentenceSpans {
  starts: Int32Array;
  ends: Int32Array;
  count: number;
}

const WS = /\s/;

/**
 * The sentences of `text` (from {@link splitSentences}, `Intl.Segmenter`), each span
 * trimmed of whitespace at both ends; whitespace-only pieces are dropped. The spans are
 * in order and disjoint, and every non-whitespace character of `text` lies in exactly one.
 * @param text the source (offsets are UTF-16 code units into it)
 * @param locale BCP 47 locale for the segmenter, or `auto` (default `en`)
 * @param options.caseless the text is lower-cased throughout ({@link SentenceOptions.caseless})
 */
export function sentenceSpans(text: string, locale?: string, options: { caseless?: boolean } = {}): SentenceSpans {
  const raw = splitSentences(text, { ...(locale === undefined ? {} : { locale }), ...(options.caseless ? { caseless: true } : {}) });
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < raw.count; i++) {
    let a = raw.starts[i];
    let b = raw.ends[i];
    while (a < b && WS.test(text[a])) a++;
    while (b > a && WS.test(text[b - 1])) b--;
    if (b > a) {
      starts.push(a);
      ends.push(b);
    }
  }
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends), count: starts.length };
}

/**
 * Paragraph breaks among sentence boundaries: entry b (0 ≤ b ≤ n) is 1 when boundary b
 * — before sentence b — is a paragraph or section break: the start (b = 0), the end
 * (b = n), a boundary whose gap `text.slice(ends[b − 1], starts[b])` holds a blank line
 * (`\n` + optional spaces + `\n`), or a line break followed by a heading (a Markdown
 * `#` heading, a wikitext ` = Title = ` line, a setext title or a title line:
 * {@link headingSentences}; not between a setext title and its underline).
 * @param headings the heading flags when already computed
 * @returns Uint8Array of n + 1 entries
 */
export function paragraphBreaks(text: string, s: SentenceSpans, headings: Uint8Array = headingSentences(text, s)): Uint8Array {
  const out = new Uint8Array(s.count + 1);
  out[0] = 1;
  out[s.count] = 1;
  for (let b = 1; b < s.count; b++) {
    const gap = text.slice(s.ends[b - 1], s.starts[b]);
    if (/\n[ \t\r]*\n/.test(gap)) out[b] = 1;
    else if (headings[b] && /[\n\r]/.test(gap) && !(headings[b - 1] && isUnderline(text, s.starts[b], s.ends[b]))) out[b] = 1;
  }
  return out;
}

/** A setext underline (`===`, `---`). */
function isUnderline(text: string, start: number, end: number): boolean {
  return end - start <= 200 && /^(?:=+|-+)$/.test(text.slice(start, end));
}
