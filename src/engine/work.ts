/**
 * Work counters: what a call did (pieces measured, packer steps, sentences visited),
 * counted where the work is done, for tests and benches of linear time that count work
 * instead of timing it. The caller passes a {@link Work} object in (`chunk(text, { work })`);
 * without one nothing is counted, and the counting costs a test for `undefined`.
 * Core module.
 * @module
 */

/**
 * Counters by name, each added to by every call the object is passed to (a caller reads
 * differences or passes a fresh `{}`). Names: `operations` (a chunker's own count of its
 * steps, scans and measures), `packSteps` (sections the packer visited and runs it
 * measured exactly), `measurements`, `mergeSteps`, `pieces`, `bandCells`, `bandWidth`
 * (the largest, not a sum), `reads`, `chars`, `poolSteps`, `qascSteps`.
 */
export type Work = Record<string, number>;

/** Adds `n` to counter `name` of `work`; nothing without `work`. */
export function addWork(work: Work | undefined, name: string, n: number): void {
  if (work) work[name] = (work[name] ?? 0) + n;
}

/** Raises counter `name` of `work` to at least `n` (a largest-so-far counter); nothing without `work`. */
export function maxWork(work: Work | undefined, name: string, n: number): void {
  if (work) work[name] = Math.max(work[name] ?? 0, n);
}
