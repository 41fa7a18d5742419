/**
 * SentenceChunker.chunkStream equals SentenceChunker.chunk on the whole text (every field:
 * id, index, offsets, sentence indices, metadata), over generated texts split anywhere
 * (inside surrogate pairs and CRLF too) and over the shared corpora in 4 KiB pieces.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SentenceChunker, type Chunk } from '../src/index.js';
import { contentId } from '../src/engine.js';
import { corporaDir, sharedFiles } from './helpers/paths.js';
import { collect, splitAt, webStream, fourKiB } from './helpers/stream.js';

const piece = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{1,10}$/) },
  { weight: 3, arbitrary: fc.constantFrom('. ', '! ', '? ', '。', 'Dr. ', 'e.g. ', '3.1 ', '... ', '… wait', '1. ', 'J. ') },
  { weight: 3, arbitrary: fc.constantFrom('\n', '\r\n', '\n\n', '\r', '.\n', '.\r\n', '\n\n\n', '\n ', ' \n') },
  { weight: 5, arbitrary: fc.constantFrom(' ', '  ', '\t', '\u00a0') },
  { weight: 1, arbitrary: fc.constantFrom('👍🏽', '😀', 'e\u0301', '日本語', '\ud83d', '\ude00', 'Ünï') },
);
const textArb = fc.array(piece, { maxLength: 150 }).map((a) => a.join(''));
const cutsArb = fc.array(fc.nat({ max: 3000 }), { maxLength: 40 });

describe('SentenceChunker.chunkStream equals chunk()', () => {
  for (const unit of ['char', 'word', 'token'] as const) {
    it(`${unit} units: generated texts, random budgets and overlaps, random splits`, async () => {
      await fc.assert(
        fc.asyncProperty(
          textArb,
          cutsArb,
          fc.integer({ min: 1, max: 40 }),
          fc.integer({ min: 0, max: 3 }),
          fc.boolean(),
          async (text, cuts, chunkSize, overlapSentences, asWeb) => {
            const chunker = new SentenceChunker({ unit, chunkSize, overlapSentences });
            const whole = chunker.chunk(text);
            const pieces = splitAt(text, cuts);
            expect(await collect(chunker.chunkStream(asWeb ? webStream(pieces) : pieces))).toEqual(whole);
          },
        ),
        { numRuns: unit === 'token' ? 150 : 250 },
      );
    });
  }

  it('one code unit per piece, every split of a short text with CRLF, pairs and blank lines', async () => {
    const text = '  \nDr. Smith came.\r\nHe left 😀.\n\n\nThen… she sang. Wait!\r\n\r\nJ. K. Rowling wrote.\n1. Intro\nEnd';
    for (const unit of ['char', 'word'] as const) {
      for (const overlapSentences of [0, 1]) {
        const chunker = new SentenceChunker({ unit, chunkSize: 4, overlapSentences });
        const whole = chunker.chunk(text);
        expect(whole.length).toBeGreaterThan(4);
        expect(await collect(chunker.chunkStream(text.split('')))).toEqual(whole);
        for (let cut = 0; cut <= text.length; cut++) {
          expect(await collect(chunker.chunkStream([text.slice(0, cut), text.slice(cut)]))).toEqual(whole);
        }
      }
    }
  });

  it('every corpus in 4 KiB pieces (tokens 256, and 128 with 1 sentence overlap): equal', async () => {
    for (const file of sharedFiles(corporaDir, '.md')) {
      const text = readFileSync(file, 'utf8').slice(0, 150_000);
      for (const options of [{ chunkSize: 256 }, { chunkSize: 128, overlapSentences: 1 }, { unit: 'word' as const, chunkSize: 60 }]) {
        const chunker = new SentenceChunker(options);
        const whole = chunker.chunk(text);
        expect(whole.length).toBeGreaterThan(20);
        const pieces = fourKiB(text);
        let pulled = 0;
        const pulledAt: number[] = [];
        async function* source() {
          for (const p of pieces) {
            pulled++;
            yield p;
          }
        }
        const streamed: Chunk[] = [];
        for await (const c of chunker.chunkStream(source())) {
          streamed.push(c);
          pulledAt.push(pulled);
        }
        expect(streamed).toEqual(whole);
        expect(await collect(chunker.chunkStream(webStream(pieces)))).toEqual(whole);
        // streamed, not collected: the first chunk comes within the first few pieces, most before the end
        if (process.env.STREAM_STATS) console.log(file, JSON.stringify(options), pieces.length, pulledAt[0], Math.max(...pulledAt.map((n, i) => n - (i ? pulledAt[i - 1] : 0))));
        expect(pulledAt[0]).toBeLessThanOrEqual(6);
        expect(pulledAt.filter((n) => n < pieces.length).length).toBeGreaterThan(whole.length / 2);
      }
    }
  });

  it('a line longer than the segmenter window (no line break in 20,000 characters): equal', async () => {
    const sentence = 'word after word with no end in sight and a comma, then more words';
    const longLine = Array.from({ length: 320 }, (_, i) => `${sentence} ${i}`).join(' ');
    const text = `Start here.\n${longLine}. Done.\nNext line. ${longLine.slice(0, 9000)}\nLast.`;
    const chunker = new SentenceChunker({ unit: 'word', chunkSize: 50 });
    const whole = chunker.chunk(text);
    expect(await collect(chunker.chunkStream(fourKiB(text)))).toEqual(whole);
    expect(await collect(chunker.chunkStream(splitAt(text, [5, 11, 12, 13, 20000, 20001])))).toEqual(whole);
  });

  it('ids are content ids of the chunk texts (worked example), so they match the stream', () => {
    const text = 'One two. Three four.\nFive six.';
    const chunks = new SentenceChunker({ unit: 'word', chunkSize: 2 }).chunk(text);
    expect(chunks.map((c) => c.text)).toEqual(['One two.', 'Three four.', 'Five six.']);
    expect(chunks.map((c) => c.id)).toEqual([contentId('One two.'), contentId('Three four.'), contentId('Five six.')]);
  });

  it('yields chunks before the stream ends and holds one section', async () => {
    const chunker = new SentenceChunker({ unit: 'word', chunkSize: 12 });
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 100_000; i++) {
        pulled++;
        yield `Line ${i} says a thing. And another one here.\n`;
      }
    }
    const it = chunker.chunkStream(source())[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value?.text).toBe('Line 0 says a thing. And another one here.');
    expect(pulled).toBeLessThan(5);
    let last: Chunk | undefined;
    for (let k = 0; k < 2000; k++) last = (await it.next()).value;
    expect(pulled).toBeLessThan(2010);
    expect(last?.metadata.sentenceStart).toBe(2 * 2000);
    await it.return?.(undefined);
  });

  it('one-line text and sentences over SENTENCE_PIECE: equal to chunk(), first chunk before the stream ends', async () => {
    const r = (k: number): number => (k * 2654435761) >>> 7;
    const texts = {
      // English on one line, CJK sentences with 。 and no spaces, Thai phrases with no terminator, base64-like
      oneline: Array.from({ length: 3000 }, (_, i) => `Sentence ${i} has ${r(i) % 7} words in it. `).join(''),
      cjk: Array.from({ length: 4000 }, (_, i) => `東京${String.fromCharCode(0x4e00 + (r(i) % 2000))}は日本の首都です${i % 3 ? '。' : '，'}`).join(''),
      thai: Array.from({ length: 20_000 }, (_, i) => `ภาษาไทย${i % 5 ? '' : ' '}`).join(''),
      base64: Array.from({ length: 150_000 }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[r(i) % 64]).join(''),
    };
    for (const [name, text] of Object.entries(texts)) {
      for (const unit of ['char', 'word', 'token'] as const) {
        const chunker = new SentenceChunker({ unit, chunkSize: 64, overlapSentences: 1 });
        const pieces = splitAt(text, Array.from({ length: Math.ceil(text.length / 1500) }, (_, k) => k * 1500 + (r(k + 1) % 1500))); // pieces of 0 to 3,000 code units
        let pulled = 0;
        let pulledAtFirst = -1;
        async function* source() {
          for (const p of pieces) {
            pulled += p.length;
            yield p;
          }
        }
        const streamed: Chunk[] = [];
        for await (const c of chunker.chunkStream(source())) {
          if (pulledAtFirst < 0) pulledAtFirst = pulled;
          streamed.push(c);
        }
        expect(streamed, `${name}, ${unit}`).toEqual(chunker.chunk(text));
        expect(pulledAtFirst, `${name}, ${unit}: first chunk after ${pulledAtFirst} of ${text.length}`).toBeLessThan(text.length * 0.8); // base64 in word units: a 64-word chunk of words of 512 code units takes a whole piece (32,768)
      }
    }
  });

  it('with sentence overlap too: chunks come out while the stream is read', async () => {
    const chunker = new SentenceChunker({ unit: 'word', chunkSize: 12, overlapSentences: 1 });
    let pulled = 0;
    async function* source() {
      for (let i = 0; i < 100_000; i++) {
        pulled++;
        yield `Line ${i} says a thing. And another one here.\n`;
      }
    }
    const it = chunker.chunkStream(source())[Symbol.asyncIterator]();
    let last: Chunk | undefined;
    for (let k = 0; k < 1000; k++) last = (await it.next()).value;
    expect(last?.metadata.overlapSentences).toBe(1);
    expect(pulled).toBeLessThan(1010);
    await it.return?.(undefined);
  });
});
