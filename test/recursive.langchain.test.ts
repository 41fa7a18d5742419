/**
 * Differential test: RecursiveChunker against LangChain's RecursiveCharacterTextSplitter
 * (@langchain/textsplitters 1.0.2) on every corpus in eval/corpora and every
 * document of texts/, with LF and with CRLF line ends, at the settings of issues 3 and 11. With LangChain's separators, `unit: 'char'` and keepSeparator
 * true (LangChain's default), the chunk texts must be equal, string for string: our
 * chunk is the source slice with whitespace trimmed at both ends, which is what
 * LangChain's join-with-"" then `.trim()` gives (docs/recursive.md).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { describe, expect, it } from 'vitest';
import { RecursiveChunker } from '../src/index.js';
import { LANGCHAIN_SEPARATORS } from '../src/engine.js';
import { expectInvariants } from './helpers/invariants.js';
import { corporaDir, sharedFiles, textsDir } from './helpers/paths.js';

const SETTINGS = [
  [200, 0],
  [400, 0],
  [400, 200],
  [800, 400],
  [1000, 200],
] as const;

/**
 * Whether `ours` is LangChain's `expected` where chunkwise may leave out an exact repeat of
 * the previous chunk (the same span twice, which LangChain's merge emits where the overlap
 * is large; docs/recursive.md): an expected text equal to the one before it may be missing.
 */
function sameUpToRepeats(ours: string[], expected: string[]): boolean {
  let j = 0;
  for (let k = 0; k < expected.length; k++) {
    if (j < ours.length && ours[j] === expected[k]) j++;
    else if (!(k > 0 && expected[k] === expected[k - 1])) return false;
  }
  return j === ours.length;
}

const files = [...sharedFiles(corporaDir, '.md'), ...sharedFiles(textsDir, '.txt')];

describe.each(files.flatMap((f) => [[basename(f), 'LF', f] as const, [basename(f), 'CRLF', f] as const]))('%s (%s line ends)', (_name, ends, file) => {
  const lf = readFileSync(file, 'utf8');
  const text = ends === 'LF' ? lf : lf.replace(/\r?\n/g, '\r\n');
  it.each(SETTINGS)('chunkSize %i, chunkOverlap %i: same chunk texts as LangChain, exact offsets', async (chunkSize, chunkOverlap) => {
    const expected = await new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap }).splitText(text);
    const ours = new RecursiveChunker({ unit: 'char', chunkSize, chunkOverlap, separators: LANGCHAIN_SEPARATORS, countTokens: false }).chunk(text);
    // equal string for string: at these settings LangChain repeats no chunk
    expect(ours.map((c) => c.text)).toEqual(expected);
    // texts/ holds short documents (the Japanese and Thai ones are 1,470 and 1,922 characters): split at all
    expect(ours.length).toBeGreaterThan(file.startsWith(textsDir) ? 1 : 10);
    expectInvariants(text, ours, { unit: 'char', budget: chunkSize, tokenCounts: false });
    for (const c of ours) expect(c.metadata.unitCount).toBeLessThanOrEqual(chunkSize);
  });
});

describe('CRLF: the issue-11 example', () => {
  it("'line one\\r\\nline two\\r\\n\\r\\nline three is longer' at 12/0 gives LangChain's four chunks", async () => {
    const text = 'line one\r\nline two\r\n\r\nline three is longer';
    const ours = new RecursiveChunker({ unit: 'char', chunkSize: 12, chunkOverlap: 0, separators: LANGCHAIN_SEPARATORS }).chunk(text);
    expect(ours.map((c) => c.text)).toEqual(['line one', 'line two', 'line three', 'is longer']);
    expect(await new RecursiveCharacterTextSplitter({ chunkSize: 12, chunkOverlap: 0 }).splitText(text)).toEqual(ours.map((c) => c.text));
    expect(ours.map((c) => [c.start, c.end])).toEqual([[0, 8], [10, 18], [22, 32], [33, 42]]);
  });
});

describe('named separators', () => {
  it('paragraph and line kinds give the same chunks as the literal "\\n\\n" and "\\n" on LF text', () => {
    const text = readFileSync(sharedFiles(corporaDir, '.md')[0], 'utf8').slice(0, 60_000);
    const literal = new RecursiveChunker({ unit: 'char', chunkSize: 500, chunkOverlap: 100, separators: LANGCHAIN_SEPARATORS, countTokens: false });
    const named = new RecursiveChunker({
      unit: 'char',
      chunkSize: 500,
      chunkOverlap: 100,
      separators: [{ kind: 'paragraph' }, { kind: 'line' }, ' ', { kind: 'grapheme' }],
      countTokens: false,
    });
    expect(named.chunk(text).map((c) => [c.start, c.end])).toEqual(literal.chunk(text).map((c) => [c.start, c.end]));
  });
});

describe('generated text (property)', () => {
  it('equals LangChain on generated BMP text for random sizes and overlaps', async () => {
    const fc = (await import('fast-check')).default;
    const piece = fc.oneof(
      { weight: 6, arbitrary: fc.stringMatching(/^[a-z.,]{1,9}$/) },
      { weight: 4, arbitrary: fc.constantFrom(' ', '  ', '\n', '\n\n', '\n\n\n', ' \n', '\t') },
      { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{15,40}$/) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 150 }).map((a) => a.join('')),
        fc.integer({ min: 2, max: 60 }),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        async (text, chunkSize, ratio) => {
          const chunkOverlap = Math.floor(chunkSize * ratio);
          const expected = await new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap }).splitText(text);
          const ours = new RecursiveChunker({ unit: 'char', chunkSize, chunkOverlap, separators: LANGCHAIN_SEPARATORS, countTokens: false }).chunk(text);
          const texts = ours.map((c) => c.text);
          if (!sameUpToRepeats(texts, expected)) expect(texts).toEqual(expected);
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });
});
