/**
 * Reading order scored against an independent extractor: the share of adjacent word pairs
 * inside chunks that are adjacent word pairs of poppler's `pdftotext` (no `-layout`) text of
 * the same PDF. A chunk that interleaves two columns line by line, or reads a table's cells
 * into the prose around it, makes pairs pdftotext never has.
 */
import { execFileSync } from 'node:child_process';

/**
 * The words of `text` as the score compares them: NFKC (ligatures apart), hyphenated line
 * ends joined (`gov-\nerns` → `governs`), split at white space and en and em dashes
 * (`Abstract—Dates` is two words however an extractor spaces it), punctuation trimmed from
 * both ends, lower case; empty words dropped.
 */
export function scoreWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .replace(/(\p{L})[-\u2010\u00ad]\s*\n\s*(?=\p{Ll})/gu, '$1')
    .split(/[\s\u2013\u2014]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').toLowerCase())
    .filter(Boolean);
}

/** The adjacent word pairs of `text` (`"a b"`), each once. */
export function wordPairs(text: string): Set<string> {
  const words = scoreWords(text);
  const pairs = new Set<string>();
  for (let i = 1; i < words.length; i++) pairs.add(`${words[i - 1]} ${words[i]}`);
  return pairs;
}

/**
 * pdftotext's text of the whole file: its default reading order (no `-layout`), or with
 * `raw` the order of the page's content stream (`-raw`: for TeX and groff output, the order
 * the text was typeset in). `password`: the user password.
 */
export function pdftotext(file: string, options: { raw?: boolean; password?: string } = {}): string {
  const args = [...(options.password ? ['-upw', options.password] : []), ...(options.raw ? ['-raw'] : []), file, '-'];
  return execFileSync('pdftotext', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
}

/**
 * Scores chunk texts against a reference text.
 * @returns `pairs`: adjacent word pairs inside the chunks (each chunk on its own, counted
 *   with repeats); `matched`: of those, pairs the reference has; `share` = matched / pairs
 *   (1 when there are none); `misses`: the pairs the reference lacks, in order.
 */
export function readingOrderScore(chunks: readonly string[], reference: string): { pairs: number; matched: number; share: number; misses: string[] } {
  const truth = wordPairs(reference);
  let pairs = 0;
  let matched = 0;
  const misses: string[] = [];
  for (const chunk of chunks) {
    const words = scoreWords(chunk);
    for (let i = 1; i < words.length; i++) {
      pairs++;
      const pair = `${words[i - 1]} ${words[i]}`;
      if (truth.has(pair)) matched++;
      else misses.push(pair);
    }
  }
  return { pairs, matched, share: pairs === 0 ? 1 : matched / pairs, misses };
}
