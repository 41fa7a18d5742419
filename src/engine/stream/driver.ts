/**
 * The one stream driver. A streamable strategy is a {@link StreamPlan}: a `step` that
 * plans the text held so far and says which chunks are decided and how much text it
 * still needs. The driver feeds it the stream piece by piece, assembles the decided
 * chunks (ids, token counts, metadata: `src/engine/assemble.ts`) and drops the text no
 * later chunk needs; the whole-string `chunk(text)` is the same `step` called once with
 * `final: true` — so a stream and a whole-string call give the same chunks by
 * construction. Core module: no Node built-ins.
 * @module
 */
import type { Chunk } from '../chunk.js';
import type { Assembler, PlannedChunk } from '../assemble.js';
import type { StepResult, StreamPlan } from './stream-plan.js';
import { textPieces, type TextSource } from './source.js';
import { InvalidInputError } from '../errors.js';

export type { StepResult, StreamPlan } from './stream-plan.js';

/**
 * Most text (UTF-16 code units, 2^28) the driver holds for a plan that has not cut it: a
 * plan that finds no place to cut (a custom sizer without a safe cut, a strategy whose
 * sections have no end) would otherwise grow its held string to V8's limit (2^29 code
 * units) and end in an untyped `RangeError: Invalid string length`.
 */
export const MAX_HELD = 1 << 28;

/** Default growth: half of what is held. */
const defaultGrowth = (held: number): number => held >> 1;

/**
 * The chunks of a whole text: one final step, for a plan whose steps are synchronous.
 * @param assembler assembles the spans (a fresh one: its index and id ordinals start at 0).
 * @throws {TypeError} when the plan's step is asynchronous (use {@link planWholeAsync}).
 */
export function planWhole<S>(text: string, plan: StreamPlan<S>, assembler: Assembler): Chunk[] {
  return assembler.add(text, planSpans(text, plan));
}

/** The planned spans of a whole text for a synchronous plan (one final step), offsets into `text`, before assembly. */
export function planSpans<S>(text: string, plan: StreamPlan<S>): PlannedChunk[] {
  if (text.length === 0) return [];
  const r = plan.step(text, 0, plan.initial(), true);
  if (r instanceof Promise) throw new TypeError('planWhole: this plan is asynchronous; use planWholeAsync');
  return r.chunks;
}

/** The chunks of a whole text for a plan whose steps may be asynchronous: one final step. */
export async function planWholeAsync<S>(text: string, plan: StreamPlan<S>, assembler: Assembler): Promise<Chunk[]> {
  if (text.length === 0) return [];
  return assembler.add(text, (await plan.step(text, 0, plan.initial(), true)).chunks);
}

/**
 * Drives `plan` over a text stream: yields every chunk as soon as it is decided, with
 * offsets into the whole stream; memory is what the plan keeps plus one piece.
 * @param source `ReadableStream<string>` or (async) iterable of string pieces, split anywhere.
 * @param maxHeld most code units held at once ({@link MAX_HELD}).
 * @throws {InvalidInputError} for a source that is not a stream/iterable or a piece that
 *   is not a string, and when the plan holds more than `maxHeld` code units (the message
 *   names the amount and the stream offset; no chunk after those already yielded).
 */
export async function* streamPlan<S>(source: TextSource, plan: StreamPlan<S>, assembler: Assembler, maxHeld = MAX_HELD): AsyncGenerator<Chunk> {
  const growth = plan.growth ?? defaultGrowth;
  let state = plan.initial();
  let buf = '';
  let bufStart = 0;
  let next = 0; // buffer length at which the next step is tried
  for await (const piece of textPieces(source)) {
    if (piece.length === 0) continue;
    if (buf.length + piece.length > maxHeld) {
      throw new InvalidInputError(
        `a text stream the strategy can cut within ${maxHeld} code units, but ${buf.length + piece.length} code units from stream offset ${bufStart} on hold no place to cut (their start is shown)`,
        buf.slice(0, 80),
      );
    }
    buf += piece;
    if (buf.length < next) continue;
    const r = await plan.step(buf, bufStart, state, false);
    state = r.state;
    if (r.chunks.length) yield* assembler.add(buf, r.chunks, bufStart);
    if (r.keep > 0) {
      buf = buf.slice(r.keep);
      bufStart += r.keep;
    }
    next = buf.length + growth(buf.length);
  }
  if (buf.length === 0) return;
  const r = await plan.step(buf, bufStart, state, true);
  if (r.chunks.length) yield* assembler.add(buf, r.chunks, bufStart);
}
