/**
 * The stream driver (src/engine/stream/driver.ts) on its own, over a hand-written plan (one
 * chunk per line, a line decided once its newline has arrived): worked examples of what
 * each step sees (held text, stream offset, state), what the driver drops (`keep`), the
 * growth rule, the final step, and `planWhole` equal to the stream however it is split.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../src/index.js';
import { Assembler, type PlannedChunk } from '../src/engine/assemble.js';
import type { StepResult, StreamPlan } from '../src/engine/stream/stream-plan.js';
import { chunkCounters, resolveUnits } from '../src/engine/size/resolve.js';
import { planWhole, planWholeAsync, streamPlan } from '../src/engine/stream/driver.js';

const fresh = (): Assembler => new Assembler({ strategy: 'lines', ...chunkCounters(resolveUnits({ unit: 'char', countTokens: false })) });

interface Call {
  text: string;
  offset: number;
  state: number;
  final: boolean;
}

/** One chunk per line (the newline included); state = lines emitted so far. Records every call. */
function linePlan(calls: Call[] = [], growth?: (held: number) => number, async = false): StreamPlan<number> {
  const step = (text: string, offset: number, state: number, final: boolean): StepResult<number> => {
    calls.push({ text, offset, state, final });
    const chunks: PlannedChunk[] = [];
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      chunks.push({ start: from, end: nl + 1 });
      from = nl + 1;
    }
    if (final && from < text.length) chunks.push({ start: from, end: text.length });
    return { chunks, keep: from, state: state + chunks.length };
  };
  return {
    initial: () => 0,
    step: async ? async (...a) => step(...a) : step,
    ...(growth ? { growth } : {}),
  };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const shape = (chunks: { text: string; start: number; end: number; index: number }[]) => chunks.map((c) => [c.index, c.text, c.start, c.end]);

describe('streamPlan (worked examples)', () => {
  it('steps on the held text, drops what is kept out, and gives stream offsets', async () => {
    const calls: Call[] = [];
    // growth 0: a step per piece
    const chunks = await collect(streamPlan(['ab\ncd', '\ne', 'f'], linePlan(calls, () => 0), fresh()));
    expect(shape(chunks)).toEqual([
      [0, 'ab\n', 0, 3],
      [1, 'cd\n', 3, 6],
      [2, 'ef', 6, 8],
    ]);
    expect(calls).toEqual([
      { text: 'ab\ncd', offset: 0, state: 0, final: false },
      { text: 'cd\ne', offset: 3, state: 1, final: false },
      { text: 'ef', offset: 6, state: 2, final: false },
      { text: 'ef', offset: 6, state: 2, final: true },
    ]);
  });

  it('waits until the held text has grown by growth(held) before the next non-final step', async () => {
    const calls: Call[] = [];
    // default growth: ⌊held / 2⌋. One-character pieces, no newline: after a step at h held the next
    // is at h + ⌊h / 2⌋: 1, 2 (1 + 0 → the next piece), 3, 4, 6; then 9 > 8: the final step
    await collect(streamPlan('abcdefgh'.split(''), linePlan(calls), fresh()));
    expect(calls.filter((c) => !c.final).map((c) => c.text.length)).toEqual([1, 2, 3, 4, 6]);
    expect(calls.at(-1)).toEqual({ text: 'abcdefgh', offset: 0, state: 0, final: true });
  });

  it('skips empty pieces, makes no final step for an empty stream, and rejects a piece that is not a string', async () => {
    const calls: Call[] = [];
    expect(await collect(streamPlan(['', ''], linePlan(calls), fresh()))).toEqual([]);
    expect(calls).toEqual([]);
    await expect(collect(streamPlan(['a', 7 as unknown as string], linePlan(), fresh()))).rejects.toThrow(InvalidInputError);
  });

  it('reads a ReadableStream and awaits asynchronous steps', async () => {
    const source = new ReadableStream<string>({
      start(c) {
        c.enqueue('x\ny');
        c.enqueue('\n');
        c.close();
      },
    });
    expect(shape(await collect(streamPlan(source, linePlan([], () => 0, true), fresh())))).toEqual([
      [0, 'x\n', 0, 2],
      [1, 'y\n', 2, 4],
    ]);
  });
});

describe('planWhole and planWholeAsync', () => {
  it('are the plan’s single final step', async () => {
    const calls: Call[] = [];
    const chunks = planWhole('a\nb', linePlan(calls), fresh());
    expect(shape(chunks)).toEqual([
      [0, 'a\n', 0, 2],
      [1, 'b', 2, 3],
    ]);
    expect(calls).toEqual([{ text: 'a\nb', offset: 0, state: 0, final: true }]);
    expect(await planWholeAsync('a\nb', linePlan([], undefined, true), fresh())).toEqual(chunks);
    expect(planWhole('', linePlan(), fresh())).toEqual([]);
  });

  it('planWhole refuses an asynchronous plan', () => {
    expect(() => planWhole('a', linePlan([], undefined, true), fresh())).toThrow(/asynchronous; use planWholeAsync/);
  });

  it('equal the stream, whatever the pieces and the growth (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('a', 'b', '\n'), maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 8 }),
        fc.constantFrom(undefined, () => 0, (held: number) => held * 3),
        async (text, cuts, growth) => {
          const at = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((x, y) => x - y);
          const pieces = [0, ...at].map((s, i, a) => text.slice(s, a[i + 1] ?? text.length));
          const streamed = await collect(streamPlan(pieces, linePlan([], growth), fresh()));
          expect(streamed).toEqual(planWhole(text, linePlan(), fresh()));
          expect(streamed.map((c) => c.text).join('')).toBe(text);
        },
      ),
    );
  });

  it('a plan that holds more than maxHeld code units ends in a typed error, after the chunks it decided', async () => {
    // one line of 10 code units, then a line with no newline: the line plan holds it all
    const pieces = ['123456789\n', ...Array.from({ length: 10 }, () => 'x'.repeat(10))];
    const seen: string[] = [];
    const run = async (): Promise<void> => {
      for await (const c of streamPlan(pieces, linePlan(), fresh(), 64)) seen.push(c.text);
    };
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toBe(`Invalid input: a text stream the strategy can cut within 64 code units, but 70 code units from stream offset 10 on hold no place to cut (their start is shown), got "${'x'.repeat(60)}"`);
    expect(seen).toEqual(['123456789\n']);
    // at the bound itself the stream goes through
    expect((await collect(streamPlan(pieces.slice(0, 7), linePlan(), fresh(), 64))).map((c) => c.text.length)).toEqual([10, 60]);
  });
});
