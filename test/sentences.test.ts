/**
 * splitSentences (src/segment/sentences.ts): Intl.Segmenter with guards against false
 * breaks, on the Dutch, French and English seeds (hand-counted sentences), worked
 * examples of each guard, CJK, CRLF, windowed segmentation equal to one whole call, and
 * the tiling contract over generated text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { icuSentenceStarts, SEGMENT_WINDOW, splitSentences } from '../src/segment/sentences.js';
import { seedsDir, sharedFiles } from './helpers/paths.js';

const sentences = (text: string, locale = 'en'): string[] => {
  const s = splitSentences(text, { locale });
  return Array.from(s.starts, (a, i) => text.slice(a, s.ends[i]));
};
const seed = (prefix: string): string => readFileSync(join(seedsDir, sharedFiles(seedsDir, '.txt').find((f) => f.includes(`/${prefix}_`))!.split('/').pop()!), 'utf8');
/** The line of a seed that starts with `start`. */
const line = (text: string, start: string): string => {
  const found = text.split('\n').find((l) => l.trimStart().startsWith(start));
  if (!found) throw new Error(`no line starting ${start}`);
  return found;
};

describe('guards against false breaks (worked examples)', () => {
  it.each([
    ['en', 'Dr. Smith arrived. He was late.', ['Dr. Smith arrived. ', 'He was late.']],
    ['en', 'Use a splitter, e.g. The recursive one. Or not.', ['Use a splitter, e.g. The recursive one. ', 'Or not.']],
    ['en', 'One model, i.e. The encoder, runs. Done.', ['One model, i.e. The encoder, runs. ', 'Done.']],
    ['nl', 'Zie bv. De tekst hierboven. Klaar.', ['Zie bv. De tekst hierboven. ', 'Klaar.']],
    ['nl', 'Dat zijn o.a. Jan en Piet. Goed.', ['Dat zijn o.a. Jan en Piet. ', 'Goed.']],
    ['fr', 'Il y a p. ex. Le chat. Fin.', ['Il y a p. ex. Le chat. ', 'Fin.']],
    ['de', 'Er sagt z.B. Das Haus. Ende.', ['Er sagt z.B. Das Haus. ', 'Ende.']],
    ['en', 'J. K. Rowling wrote it. Yes.', ['J. K. Rowling wrote it. ', 'Yes.']],
    ['en', 'It costs 3.5 euro. Cheap.', ['It costs 3.5 euro. ', 'Cheap.']],
    ['nl', '1. Inleiding over chunking. Tweede zin.', ['1. Inleiding over chunking. ', 'Tweede zin.']],
    ['nl', 'Zie 3.1 Uitzonderingen hierna. Klaar.', ['Zie 3.1 Uitzonderingen hierna. ', 'Klaar.']],
    ['en', 'Wait… then it came. Fine.', ['Wait… then it came. ', 'Fine.']],
    ['en', 'Zhang et al. (2021) showed it. Yes.', ['Zhang et al. (2021) showed it. ', 'Yes.']],
  ])('%s: %j', (locale, text, expected) => {
    expect(sentences(text, locale)).toEqual(expected);
  });

  it('keeps real breaks: after an ordinary word, and after an abbreviation at a line end', () => {
    expect(sentences('The model ran. The end.')).toEqual(['The model ran. ', 'The end.']);
    expect(sentences('Zie bv.\nDe tekst.', 'nl')).toEqual(['Zie bv.\n', 'De tekst.']);
  });

  it('CJK sentence ends break without a following space', () => {
    expect(sentences('你好。我很好！真的？是的', 'zh')).toEqual(['你好。', '我很好！', '真的？', '是的']);
  });

  it('CRLF and lone CR break like LF, and a CR LF pair stays in one sentence', () => {
    expect(sentences('Line one\r\nLine two.\rThree.')).toEqual(['Line one\r\n', 'Line two.\r', 'Three.']);
  });
});

describe('seeds (hand-counted sentences)', () => {
  const nl0 = seed('000');
  const nl1 = seed('001');
  const fr2 = seed('002');
  const en3 = seed('003');
  const nl4 = seed('004');
  it.each([
    ['000 bv.', nl0, 'Venstergrootte — de Lengte', 'nl', 2],
    ['000 et al.', nl0, 'Qinglin Zhang et al.', 'nl', 1],
    ['001', nl1, 'Wanneer een document verkeerd', 'nl', 4],
    ['001 "3.1"', nl1, 'Bij documentbewust opknippen', 'nl', 3],
    ['002', fr2, 'Le découpage en fenêtre glissante', 'fr', 3],
    ['002 et al.', fr2, 'Shuaitong Guo et al.', 'fr', 1],
    ['003', en3, 'This is Part 16', 'en', 3],
    ['003 (3) < (5)', en3, 'The window starts at word 1', 'en', 3],
    ['004', nl4, 'Bestaande geavanceerde methoden', 'nl', 3],
  ])('%s', (_name, text, start, locale, count) => {
    expect(sentences(line(text, start), locale)).toHaveLength(count);
  });

  it('no sentence of any seed ends in an abbreviation the seeds contain', () => {
    for (const [text, locale] of [[nl0, 'nl'], [nl1, 'nl'], [fr2, 'fr'], [en3, 'en'], [nl4, 'nl']] as const) {
      for (const s of sentences(text, locale)) {
        expect(s.trimEnd()).not.toMatch(/(?:\bbv|\bal|e\.g|i\.e|o\.a|p\. ex|z\.B)\.$/);
      }
    }
  });
});

describe('windowed segmentation', () => {
  it('gives the same breaks as one Intl.Segmenter call over text with and without line breaks', () => {
    const all = sharedFiles(seedsDir, '.txt').map((f) => readFileSync(f, 'utf8')).join('\n');
    const oneLine = all.replace(/\s+/g, ' ');
    for (const text of [all.slice(0, 3 * SEGMENT_WINDOW), oneLine.slice(0, 3 * SEGMENT_WINDOW)]) {
      const whole = Array.from(new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text), (s) => s.index);
      expect(icuSentenceStarts(text, 'en')).toEqual(whole);
    }
  });

  it('is linear: 16× the text takes well under 16² the time', () => {
    const unit = 'This is one sentence of the test. ';
    const time = (reps: number): number => {
      const t = unit.repeat(reps);
      const t0 = performance.now();
      splitSentences(t);
      return performance.now() - t0;
    };
    time(200);
    const small = Math.max(time(1000), 1);
    const large = time(16000);
    expect(large / small).toBeLessThan(16 * 6);
  });
});

describe('tiling contract (property)', () => {
  const piece = fc.oneof(
    fc.constantFrom('Dr.', 'e.g.', 'bv.', 'o.a.', 'p.', 'ex.', 'J.', '3.1', '1.', '...', '…', '。', '！', 'word', 'Word', '"', ')'),
    fc.constantFrom(' ', '  ', '\n', '\r\n', '\r', '\n\n', '\t'),
    fc.stringMatching(/^[A-Za-z.!?]{1,8}$/),
  );
  it('spans tile the text; no span is whitespace only', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), fc.constantFrom('en', 'nl', 'fr'), (parts, locale) => {
        const text = parts.join('');
        const s = splitSentences(text, { locale });
        if (/^\s*$/.test(text)) return s.count === 0;
        expect(s.starts[0]).toBe(0);
        expect(s.ends[s.count - 1]).toBe(text.length);
        for (let i = 0; i < s.count; i++) {
          expect(s.ends[i]).toBeGreaterThan(s.starts[i]);
          if (i + 1 < s.count) expect(s.ends[i]).toBe(s.starts[i + 1]);
          if (i > 0) expect(text.slice(s.starts[i], s.ends[i])).toMatch(/\S/);
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});
