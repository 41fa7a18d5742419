/**
 * Validation of options at construction, so a bad option fails early with a message
 * naming it and its value (never a hang or a surprise later).
 * @module
 */
import { InvalidOptionError } from './errors.js';

/** Requires an integer ≥ `min` (default 1). */
export function requireInteger(option: string, value: unknown, min = 1): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidOptionError(option, value, `must be an integer ≥ ${min}`);
  }
  if (value > 0x7fffffff) throw new InvalidOptionError(option, value, 'must be at most 2147483647');
  return value;
}

/** Requires a finite number in [min, max]. */
export function requireNumber(option: string, value: unknown, min = -Infinity, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InvalidOptionError(option, value, `must be a finite number in [${min}, ${max}]`);
  }
  return value;
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
 * (for option schemas: the sentence, semantic and QASC strategies share it).
 */
export function localeProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a BCP 47 language tag such as en, nl or fr';
  try {
    new Intl.Segmenter(value, { granularity: 'sentence' });
    return undefined;
  } catch {
    return 'must be a BCP 47 language tag such as en, nl or fr';
  }
}
