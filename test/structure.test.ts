/**
 * Section structure over sentences (src/engine/boundaries/structure.ts): heading detection, the
 * paragraph/section breaks built on it, and snapping a sentence range to breaks.
 */
import { describe, expect, it } from 'vitest';
import { headingSentences, snapToBreaks } from '../src/engine/boundaries/structure.js';
import { paragraphBreaks, sentenceSpans } from '../src/engine/boundaries/sentence-spans.js';

const flags = (n: number, on: number[]) => {
  const f = new Uint8Array(n);
  for (const i of on) f[i] = 1;
  return f;
};

describe('headingSentences', () => {
  it('flags ATX, wikitext and setext headings and title lines; not list items, table rows, sentences or the last line', () => {
    const text = [
      '# Intro', // 0 ATX
      'First sentence here. Second one.', // 1, 2
      ' = History = ', // 3 wikitext
      '4. Grenzen en samenvoegen:', // 4 title line with a label and a colon
      '   • Overlappende vensters worden samengevoegd.', // 5 bullet
      'Results', // 6 setext title
      '-------', // 7 its underline
      'total long-term debt | 1279 | 1278', // 8 table row
      'lower case line without period', // 9 lower case
      'A line that ends with a period.', // 10
      'Thank you', // 11 the last line: no heading
    ].join('\n');
    const s = sentenceSpans(text);
    const texts = Array.from(s.starts, (a, i) => text.slice(a, s.ends[i]));
    expect(texts).toHaveLength(12);
    const h = headingSentences(text, s);
    expect(texts.filter((_, i) => h[i])).toEqual(['# Intro', '= History =', '4. Grenzen en samenvoegen:', 'Results', '-------']);
    // a break before every heading that starts a line, and at blank lines
    expect([...paragraphBreaks(text, s)]).toEqual([1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1]);
  });

  it('a short capitalised line inside a paragraph of sentences is no heading unless it fills its line', () => {
    const text = 'Short Title Case words. More text follows here.\nNext line.';
    const s = sentenceSpans(text);
    expect([...headingSentences(text, s)]).toEqual([0, 0, 0]);
  });
});

describe('snapToBreaks', () => {
  const breaks = flags(11, [0, 3, 6, 10]);
  it('moves each end to the nearest break within the distance; ties: start outward, end inward', () => {
    // lo 4: break 3 at distance 1 (outward); hi 8: breaks 6 (inward, 2) and 10 (outward, 2) → inward
    expect(snapToBreaks(4, 8, { breaks }, 2)).toEqual({ lo: 3, hi: 6 });
    // lo 5: breaks 3 (outward, 2) and 6 (inward, 1) → 6; hi 9 → 10 (distance 1)
    expect(snapToBreaks(5, 9, { breaks }, 2)).toEqual({ lo: 6, hi: 10 });
    // distance 1 reaches neither for lo 5 → 6? yes: 6 is at distance 1
    expect(snapToBreaks(5, 9, { breaks }, 1)).toEqual({ lo: 6, hi: 10 });
    // distance 0: no move
    expect(snapToBreaks(4, 8, { breaks }, 0)).toEqual({ lo: 4, hi: 8 });
  });
  it('never moves inward past keep (the seeds)', () => {
    // keep [5, 8): lo 5 may not go to 6; goes to 3 (distance 2); hi 8 may not go to 6; goes to 10
    expect(snapToBreaks(5, 8, { breaks }, 2, { lo: 5, hi: 8 })).toEqual({ lo: 3, hi: 10 });
  });
  it('never ends on a heading; only headings left → undefined', () => {
    const headings = flags(10, [5, 8, 9]);
    expect(snapToBreaks(3, 6, { breaks, headings }, 0)).toEqual({ lo: 3, hi: 5 });
    expect(snapToBreaks(8, 10, { breaks, headings }, 0)).toBeUndefined();
  });
});
