/**
 * Language detection for sentence segmentation (`locale: 'auto'`): a small, documented
 * heuristic, not a general language identifier.
 *
 * The locale only chooses the abbreviation rules of {@link splitSentences} (V8's
 * `Intl.Segmenter` breaks sentences the same in every locale), which exist for English,
 * Dutch, French and German; so the detector only needs to tell those apart (and Spanish,
 * whose function words chunkwise also lists), and to recognise scripts whose text needs
 * no Latin rules. A general identifier such as franc-min (trigrams of 82 languages) would
 * add weight to every bundle for answers that select nothing. Core module: no Node built-in.
 * @module
 */
import { STOPWORDS_BY_LANGUAGE } from './stopwords.js';

/** Characters of the text the detector reads (its start). */
export const DETECT_SAMPLE = 20_000;

const MARKS = /\p{M}/gu;
const WORD = /\p{L}+/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const HAN = /\p{Script=Han}/u;
const LATIN = /\p{Script=Latin}/u;

/**
 * The language of `text` as a BCP 47 tag: `en`, `nl`, `fr`, `de`, `es`, `ja`, `ko`,
 * `zh`, or `und` (undetermined) when there is no evidence.
 *
 * Heuristic, over the first {@link DETECT_SAMPLE} characters:
 * 1. Script: among the letters, kana (≥ 10 % of letters) → `ja`; Hangul (≥ 30 %) → `ko`;
 *    Han (≥ 30 %) → `zh`; fewer than half Latin letters otherwise → `und`.
 * 2. Function words: each word (lower-cased, diacritics stripped) found in the built-in
 *    function-word lists (the ones `HashingEmbedder` leaves out; `STOPWORDS_BY_LANGUAGE`)
 *    gives each language that lists it 1/k of a vote, k the number of lists holding it
 *    ("de" is Dutch, French and Spanish). The language with the most votes wins when it
 *    has at least 2 votes and at least 1.5× the runner-up's; otherwise `und`.
 * Deterministic; linear in the sample. Measured on Dutch, French and English documents,
 * the four English evaluation corpora and German text in `test/sentences.languages.test.ts`.
 */
export function detectLocale(text: string): string {
  const sample = text.length > DETECT_SAMPLE ? text.slice(0, DETECT_SAMPLE) : text;
  let letters = 0;
  let kana = 0;
  let hangul = 0;
  let han = 0;
  let latin = 0;
  for (const ch of sample) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    if (LATIN.test(ch)) latin++;
    else if (KANA.test(ch)) kana++;
    else if (HANGUL.test(ch)) hangul++;
    else if (HAN.test(ch)) han++;
  }
  if (letters === 0) return 'und';
  if (kana >= 0.1 * letters) return 'ja';
  if (hangul >= 0.3 * letters) return 'ko';
  if (han >= 0.3 * letters) return 'zh';
  if (latin < 0.5 * letters) return 'und';
  const votes = new Map<string, number>();
  const lists = Object.entries(STOPWORDS_BY_LANGUAGE);
  const normalized = sample.toLowerCase().normalize('NFD').replace(MARKS, '');
  for (const [word] of normalized.matchAll(WORD)) {
    let k = 0;
    for (const [, words] of lists) if (words.has(word)) k++;
    if (k === 0) continue;
    for (const [language, words] of lists) if (words.has(word)) votes.set(language, (votes.get(language) ?? 0) + 1 / k);
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const [best, second] = ranked;
  if (!best || best[1] < 2 || (second && best[1] < 1.5 * second[1])) return 'und';
  return best[0];
}
