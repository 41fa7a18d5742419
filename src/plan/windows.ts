/**
 * Window planning over units: the sliding-window rules of SPEC section 1, computed by
 * the WASM kernel (`assembly/kernels/windows.ts`), then fitted to the budget where a
 * window's text, measured on its own, has more units than the window (BPE tokens can
 * re-encode differently at a cut inside a word).
 * @module
 */
import { planWindows } from '../../bindings/index.js';
import type { UnitSegmenter, UnitSpans } from '../size/types.js';

/** One planned span: units [unitStart, unitEnd), text [start, end) in UTF-16 code units. */
export interface PlannedSpan {
  unitStart: number;
  unitEnd: number;
  start: number;
  end: number;
  /** Units of the span's text measured on its own (≤ windowSize unless `oversized`). */
  unitCount: number;
  /** The span holds a single unit whose text alone exceeds the budget. */
  oversized: boolean;
}

/**
 * Plans windows of `windowSize` units moved by `stride` over `units` of `text`.
 * Spans are emitted in order; empty spans are skipped. When `measure` is given (token
 * units), each span's text is measured and, if over `windowSize`, its end moves back by
 * whole units until it fits; a following window then starts no later than that end,
 * so no text is lost.
 */
export function planSpans(
  text: string,
  units: UnitSpans,
  windowSize: number,
  stride: number,
  measure?: UnitSegmenter['count'],
): PlannedSpan[] {
  const n = units.count;
  // A stride past the end plans the same windows as a stride of n; clamping keeps the
  // kernel's i32 arithmetic (n − windowSize + stride − 1) from overflowing with gaps.
  const { starts, ends } = planWindows(n, windowSize, Math.min(stride, Math.max(1, n)));
  const out: PlannedSpan[] = [];
  const gapsAllowed = stride > windowSize;
  let covered = 0; // units [0, covered) lie in emitted spans (or in allowed gaps)
  let k = 0;
  while (covered < n) {
    let s: number;
    let e: number;
    if (k < starts.length && (gapsAllowed || starts[k] <= covered)) {
      s = starts[k];
      e = ends[k];
      k++;
    } else if (gapsAllowed) {
      break; // with gaps the caller accepts units after the last window start being skipped
    } else {
      // a window trimmed to fit left units uncovered: the next window starts there
      s = covered;
      e = Math.min(s + windowSize, n);
    }
    const span = fit(text, units, s, e, windowSize, measure);
    covered = Math.max(covered, span.unitEnd);
    if (span.end <= span.start) continue;
    // Token units may have empty spans (the tail of a character split across BPE
    // tokens) and a fitted window may end early, so two windows can cover the same
    // text or one can lie inside the other: keep only the larger.
    const last = out[out.length - 1];
    if (last && span.end <= last.end) continue; // wholly inside the previous span
    if (last && span.start <= last.start) out[out.length - 1] = span; // the previous lies inside this one
    else out.push(span);
  }
  return out;
}

function fit(
  text: string,
  units: UnitSpans,
  s: number,
  e: number,
  windowSize: number,
  measure?: UnitSegmenter['count'],
): PlannedSpan {
  const start = units.starts[s];
  let end = units.ends[e - 1];
  if (!measure) return { unitStart: s, unitEnd: e, start, end, unitCount: e - s, oversized: false };
  let count = measure(text.slice(start, end));
  while (count > windowSize && e - s > 1) {
    e--;
    end = units.ends[e - 1];
    count = measure(text.slice(start, end));
  }
  return { unitStart: s, unitEnd: e, start, end, unitCount: count, oversized: count > windowSize };
}
