/**
 * Validation of options at construction, so a bad option fails early with a message
 * naming it and its value (never a hang or a surprise later).
 *
 * An option left out (`undefined`) takes its default; `null` is not "left out": the
 * `…Option` validators reject it like any other value of the wrong type, so a `null`
 * from a JSON config is reported instead of silently replaced by the default.
 * @module
 */
import { InvalidOptionError } from '../errors.js';

/** Requires an integer ≥ `min` (default 1). */
export function requireInteger(option: string, value: unknown, min = 1): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidOptionError(option, value, `must be an integer ≥ ${min}`);
  }
  if (value > 0x7fffffff) throw new InvalidOptionError(option, value, 'must be at most 2147483647');
  return value;
}

/**
 * An integer option ≥ `min` (default 1): `fallback` when the option is left out
 * (`undefined`), otherwise {@link requireInteger} of the value.
 * @throws {InvalidOptionError} for `null`, a non-integer or a value below `min`.
 */
export function integerOption(option: string, value: unknown, fallback: number, min = 1): number {
  return requireInteger(option, value === undefined ? fallback : value, min);
}

/** Requires a finite number in [min, max]. */
export function requireNumber(option: string, value: unknown, min = -Infinity, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InvalidOptionError(option, value, `must be a finite number in [${min}, ${max}]`);
  }
  return value;
}

/**
 * A number option in [min, max]: `fallback` when left out (`undefined`), otherwise
 * {@link requireNumber} of the value.
 * @throws {InvalidOptionError} for `null`, NaN, ±Infinity or a value outside [min, max].
 */
export function numberOption(option: string, value: unknown, fallback: number, min = -Infinity, max = Infinity): number {
  return requireNumber(option, value === undefined ? fallback : value, min, max);
}

/** Requires one of the listed strings. */
export function requireOneOf<T extends string>(option: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new InvalidOptionError(option, value, `one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/**
 * Why `value` is not a BCP 47 locale `Intl.Segmenter` accepts, or undefined when it is
 * (for option schemas: the sentence, semantic and QASC strategies share it); `auto` (the
 * locale detected from the text) is accepted too. Well-formed
 * tags the runtime has no data for (`xx`) are accepted: the segmenter falls back to the
 * root locale.
 */
export function localeProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a BCP 47 language tag such as en, nl or fr';
  if (value === 'auto') return undefined; // detected from the text (src/engine/boundaries/locale.ts)
  try {
    new Intl.Segmenter(value, { granularity: 'sentence' });
    return undefined;
  } catch {
    return 'must be a BCP 47 language tag such as en, nl or fr';
  }
}

/**
 * A BCP 47 locale for sentence segmentation (`Intl.Segmenter`), `fallback` (default
 * `en`) when left out. Checked at construction, so a malformed tag is an
 * `InvalidOptionError` there rather than a `RangeError` from `Intl.Segmenter` when the
 * first text is chunked.
 * @throws {InvalidOptionError} for a non-string (including `null`) or a malformed tag.
 */
export function localeOption(option: string, value: unknown, fallback = 'en'): string {
  const locale = value === undefined ? fallback : value;
  const problem = localeProblem(locale);
  if (problem) throw new InvalidOptionError(option, locale, problem);
  return locale as string;
}
