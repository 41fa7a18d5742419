/**
 * The shape of a streamable plan: a `step` over the text held so far that says which
 * chunks are decided and how much text it still needs. The stream driver
 * (`src/engine/stream/driver.ts`) runs it over a stream; a whole string is one final step.
 * @module
 */
import type { PlannedChunk } from '../assemble.js';

/** What one step decided. */
export interface StepResult<S> {
  /** Chunks decided, in order, with offsets relative to the step's `text`. */
  chunks: PlannedChunk[];
  /**
   * Offset in `text` before which no later chunk needs text: the driver drops it. Must
   * not lie after the end of a chunk not yet returned. With `final`, ignored.
   */
  keep: number;
  /** State for the next step. */
  state: S;
}

/**
 * A streamable strategy's planning, as steps over the held text.
 *
 * `step(text, offset, state, final)` plans `text` — the stream from offset `offset` on,
 * as much as has arrived — and returns the chunks that no later text can change, with
 * the carried state. With `final` the text is complete and every remaining chunk is
 * returned. A strategy makes `chunk(whole)` equal to its stream by building both on
 * `step`: the driver's `planWhole` is `step(whole, 0, initial(), true)`.
 */
export interface StreamPlan<S> {
  /** The state before any text. */
  initial(): S;
  /** One step; asynchronous for plans that embed (semantic strategies). */
  step(text: string, offset: number, state: S, final: boolean): StepResult<S> | Promise<StepResult<S>>;
  /**
   * Code units the held text must grow by before the next non-final step is worth
   * trying, given how much is held (default: held / 2, so re-planning a long section
   * that yields nothing stays linear overall while short held text is tried at every
   * piece; a plan whose steps are incremental returns 0: a step per piece).
   */
  growth?(held: number): number;
}
