/**
 * Sentence segmentation with UTF-16 spans, from `Intl.Segmenter` (granularity
 * `sentence`), with guards against the usual false breaks.
 * @module
 */
import type { UnitSpans } from '../units/types.js';

/** Options of {@link splitSentences}. */
export interface SentenceOptions {
  /** BCP 47 locale for `Intl.Segmenter`, e.g. `en`, `nl`, `fr`. Default `en`. */
  locale?: string;
}

/**
 * Splits `text` into sentences. Each span covers a sentence and the whitespace after it,
 * so the spans tile the text: starts[0] = 0, ends[i] = starts[i + 1], ends[last] = text.length.
 * Whitespace-only text gives no sentences.
 */
export function splitSentences(text: string, options: SentenceOptions = {}): UnitSpans {
  const segmenter = new Intl.Segmenter(options.locale ?? 'en', { granularity: 'sentence' });
  const starts: number[] = [];
  for (const s of segmenter.segment(text)) starts.push(s.index);
  const ends = starts.slice(1);
  ends.push(text.length);
  const keepS: number[] = [];
  const keepE: number[] = [];
  for (let i = 0; i < starts.length; i++) {
    if (keepS.length && /^\s*$/.test(text.slice(starts[i], ends[i]))) {
      keepE[keepE.length - 1] = ends[i];
      continue;
    }
    keepS.push(starts[i]);
    keepE.push(ends[i]);
  }
  if (keepS.length === 1 && /^\s*$/.test(text)) return { starts: new Int32Array(0), ends: new Int32Array(0), count: 0 };
  return { starts: Int32Array.from(keepS), ends: Int32Array.from(keepE), count: keepS.length };
}
