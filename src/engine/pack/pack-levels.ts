/**
 * Boundaries as packer levels, for a strategy definition: {@link packLevels} turns a
 * function giving the top level of a text (or its sections as spans) into the `spans`
 * of {@link defineStrategy}. Its own module, so a strategy that plans otherwise (windows,
 * a stream plan) does not carry the packer. Core module: no Node built-ins.
 * @module
 */
import type { TextSpan } from '../text.js';
import type { PlannedChunk } from '../assemble.js';
import { SpanLevel } from './levels.js';
import { pack, type PackLevel } from './pack.js';
import { rangeMeasure, type RangeMeasure } from '../size/measure.js';
import type { ResolvedUnits } from '../size/resolve.js';

/**
 * The `spans` of a strategy whose boundaries are `levels(text, measure, options)`: the
 * top packer level of `text` measured by `measure` (in the chunker's unit), or simply
 * its sections as spans `[start, end)` in order (UTF-16 offsets; a `SpanLevel` is laid
 * over them). They are packed greedily: whole sections up to the option `chunkSize`
 * (measured on the exact slice); a section over it is emitted whole and flagged
 * `oversized`, unless the level descends into it.
 */
export function packLevels<O extends { readonly chunkSize: number }>(
  levels: (text: string, measure: RangeMeasure, options: O) => PackLevel | readonly TextSpan[],
): (text: string, chunker: { readonly options: O; readonly units: ResolvedUnits }) => PlannedChunk[] {
  return (text, { options, units }) => {
    const measure = rangeMeasure(text, units.units);
    const top = levels(text, measure, options);
    const level = Array.isArray(top)
      ? new SpanLevel(
          measure,
          (top as readonly TextSpan[]).map((s) => s.start),
          (top as readonly TextSpan[]).map((s) => s.end),
        )
      : (top as PackLevel);
    return pack(level, { max: options.chunkSize });
  };
}
