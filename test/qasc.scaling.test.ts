import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueryAdaptiveChunker, type QascParams } from '../src/strategies/qasc/qasc.js';
import { getTokenizer } from '../src/engine/size/tokens.js';
import type { Tokenizer } from '../src/engine/size/types.js';
import { corporaDir } from './helpers/paths.js';

/**
 * QASC over whole documents runs in linear work (house rule: every pathological input runs
 * in linear time). Work is counted, not timed: `qascSteps` of the query's Work (the sentences, seeds and
 * windows planQasc's loops and the explanation visit) plus the characters given to the
 * tokenizer, at four sizes doubling; each doubling may grow the work at most 2.2×.
 *
 * The tester's case: one line repeating `alpha beta gamma delta epsilon zeta. eta, theta `
 * queried with "alpha gamma". Every sentence but the first and last has the same sim, so
 * they are all seeds, one merged chunk covers the document and the size cap splits it into
 * n pieces, peeling one sentence at a time (ties go to the lower boundary). Looking up each
 * piece's seeds by filtering the chunk's k seeds made that k·n: 1 MB took 12 s, 2 MB 86 s.
 */

/** `unit` repeated to `chars` characters (cut mid-unit at the end). */
function repeatTo(unit: string, chars: number): string {
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

/** A tokenizer that counts the characters it was given. */
class CharCountingTokenizer implements Tokenizer {
  readonly encoding: string;
  chars = 0;
  constructor(readonly inner: Tokenizer) {
    this.encoding = inner.encoding;
  }
  encode(text: string): Uint32Array {
    this.chars += text.length;
    return this.inner.encode(text);
  }
  count(text: string): number {
    this.chars += text.length;
    return this.inner.count(text);
  }
  encodeWithOffsets(text: string): { ids: Uint32Array; starts: Int32Array; ends: Int32Array } {
    this.chars += text.length;
    return this.inner.encodeWithOffsets(text);
  }
  decode(ids: ArrayLike<number>): string {
    return this.inner.decode(ids);
  }
}

/** Work (plan steps + tokenized characters) and chunk count of one whole-document query. */
async function work(text: string, query: string, params: QascParams & { explain?: boolean }): Promise<{ work: number; chunks: number }> {
  const tokenizer = new CharCountingTokenizer(getTokenizer('cl100k_base'));
  const qasc = new QueryAdaptiveChunker({ ...params, tokenizer, locale: 'en' });
  const counted = { qascSteps: 0 };
  const chunks = await qasc.query(text, query, { work: counted });
  for (const c of chunks) expect(c.text).toBe(text.slice(c.start, c.end));
  return { work: counted.qascSteps + tokenizer.chars, chunks: chunks.length };
}

const REPEAT = 'alpha beta gamma delta epsilon zeta. eta, theta ';
const SIZES = [16_384, 32_768, 65_536, 131_072];

const shapes: Array<{ name: string; text: (n: number) => string; query: string; params: QascParams & { explain?: boolean } }> = [
  { name: 'one repetitive line', text: (n) => repeatTo(REPEAT, n), query: 'alpha gamma', params: {} },
  { name: 'one repetitive line, explained', text: (n) => repeatTo(REPEAT, n), query: 'alpha gamma', params: { explain: true } },
  { name: 'one repetitive line, adaptive windows', text: (n) => repeatTo(REPEAT, n), query: 'alpha gamma', params: { window: 'adaptive' } },
  { name: 'repetitive paragraphs', text: (n) => repeatTo(REPEAT.repeat(5) + '\n\n', n), query: 'alpha gamma', params: { explain: true } },
  { name: 'a corpus repeated', text: (n) => repeatTo(readFileSync(join(corporaDir, 'state_of_the_union.md'), 'utf8'), n), query: 'jobs and the economy', params: {} },
];

describe('QASC whole-document work is linear', () => {
  for (const shape of shapes) {
    it(`${shape.name}: ≤ 2.2× per doubling`, async () => {
      const runs: Array<{ work: number; chunks: number }> = [];
      for (const n of SIZES) runs.push(await work(shape.text(n), shape.query, shape.params));
      const growth = runs.slice(1).map((r, i) => r.work / runs[i].work);
      // the case is real: chunks grow with the text
      expect(runs[3].chunks).toBeGreaterThan(runs[0].chunks);
      for (const g of growth) expect(g, `work ${runs.map((r) => r.work).join(', ')}`).toBeLessThanOrEqual(2.2);
    });
  }
});
