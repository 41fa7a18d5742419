/**
 * The one packer: turns boundary levels into chunk spans within a budget.
 *
 * A strategy describes where it may cut as a {@link PackLevel}: a run of sibling
 * sections (sentences, Markdown blocks, separator pieces, syntax nodes …), each of which
 * can hand over a finer level when it alone does not fit (a list's items, a sentence's
 * tokens, the next separator's pieces). The packer walks the levels (STYLE.md, "The
 * packer"): it takes the coarsest sections that fit, finds the longest run that fits
 * (grown by estimate, verified on the exact text, shortened by binary search where the
 * estimate was low), applies the level's overlap policy, descends into a section that
 * alone is too large, and flags an indivisible one instead of cutting it.
 *
 * Two merge policies: `greedy` (longest run measured on the exact text, overlap in whole
 * sections or none) and `langchain` (LangChain's `mergeSplits`, @langchain/textsplitters
 * 1.0.2, reproduced exactly: sizes summed, overlap in units popped from the front, then
 * the exact emitted text checked), so the recursive drop-in stays exact.
 * Core module: no Node built-ins.
 * @module
 */
import type { PlannedChunk } from '../assemble.js';

/** How consecutive runs of one level share sections. */
export type OverlapPolicy =
  /** No overlap: the next run starts after this one. */
  | { readonly kind: 'none' }
  /** The next run repeats the last `count` sections of this one (fewer where the next section would not fit). */
  | { readonly kind: 'sections'; readonly count: number };

/** A run of sibling sections at one level of a strategy's boundaries. Sections are in order and disjoint. */
export interface PackLevel {
  /** Number of sections. */
  readonly count: number;
  /** Size of section i alone, in the budget's unit. */
  size(i: number): number;
  /** Estimated size of the run a..b (inclusive): what the run grows by. */
  estimate(a: number, b: number): number;
  /** Exact size of the run a..b, measured on what would be emitted. */
  exact(a: number, b: number): number;
  /** True when a chunk may not hold section i together with section i − 1 (a heading, a hard break). */
  hardBefore?(i: number): boolean;
  /**
   * True when a chunk should not end with section i (a code block's head, `if cond:`,
   * that belongs with the statement after it): the greedy policy ends a run before it
   * instead, unless the run is nothing but such sections.
   */
  glued?(i: number): boolean;
  /**
   * A finer level to pack in place of section i when it alone does not fit; undefined
   * when the section is indivisible (it is emitted whole and flagged `oversized`).
   */
  descend?(i: number): PackLevel | undefined;
  /** Overlap between consecutive runs (greedy policy). Default none. */
  readonly overlap?: OverlapPolicy;
  /**
   * Optional fast path: when present, `estimate(a, b) === prefix[b + 1] − prefix[a] − gapBefore[a]`
   * and `size(i) === sizes[i]`, and the packer reads the arrays directly.
   */
  readonly sums?: { readonly sizes: Float64Array; readonly prefix: Float64Array; readonly gapBefore: Float64Array };
  /**
   * The chunk for run a..b with its exact size; undefined to emit nothing (a run that
   * is whitespace only). `oversized` is set for an indivisible section over the budget.
   */
  emit(a: number, b: number, size: number, oversized: boolean): PlannedChunk | undefined;
  /**
   * Optional, `langchain` policy: the level runs `mergeSplits` over its sections itself,
   * with the same chunks as the packer's loop, where it can find the few sections that
   * decide each chunk without visiting every one (see {@link LevelPacker}).
   */
  mergeInto?(packer: LevelPacker): void;
}

/** What a level that merges itself ({@link PackLevel.mergeInto}) is given by the packer. */
export interface LevelPacker {
  /** The budget. */
  readonly max: number;
  /** Units consecutive merged runs may share (`overlapUnits`). */
  readonly overlap: number;
  /** Appends a chunk whose exact size was measured (an exact repeat of the previous chunk's span is dropped). */
  push(chunk: PlannedChunk | undefined): void;
  /** Packs a finer level in place of a section that alone is over the budget. */
  pack(level: PackLevel): void;
  /** Adds packer steps and exact measures to the pack's {@link PackStats}. */
  count(steps: number, exact: number): void;
}

/** How to pack. */
export interface PackOptions {
  /** The budget: no run's exact size exceeds it unless flagged oversized. */
  readonly max: number;
  /** `greedy` (default) or `langchain` (LangChain's mergeSplits; `overlap` in units). */
  readonly policy?: 'greedy' | 'langchain';
  /** Units consecutive merged runs may share under the `langchain` policy. */
  readonly overlapUnits?: number;
}

/** Work done by one pack (sections visited, exact measures), for linear-time tests. */
export interface PackStats {
  steps: number;
  exact: number;
}

/**
 * Packs `level` into chunks, in order, appending them to `out`.
 * @param stats optional counters the pack's work is added to (a chunker adds them to its call's `Work`).
 * @returns `out`
 */
export function pack(level: PackLevel, options: PackOptions, out: PlannedChunk[] = [], stats?: PackStats): PlannedChunk[] {
  const p = new Packer(options, out, stats ?? { steps: 0, exact: 0 });
  if (options.policy === 'langchain') p.merge(level);
  else p.greedy(level);
  return out;
}

/** The packer of one {@link pack} call; what a level that merges itself is given ({@link LevelPacker}). */
class Packer implements LevelPacker {
  constructor(
    readonly o: PackOptions,
    readonly out: PlannedChunk[],
    readonly stats: PackStats,
  ) {}

  get max(): number {
    return this.o.max;
  }

  get overlap(): number {
    return this.o.overlapUnits ?? 0;
  }

  push(chunk: PlannedChunk | undefined): void {
    this.#push(chunk);
  }

  pack(level: PackLevel): void {
    this.merge(level);
  }

  count(steps: number, exact: number): void {
    this.stats.steps += steps;
    this.stats.exact += exact;
  }

  #exact(L: PackLevel, a: number, b: number): number {
    this.stats.exact++;
    return L.exact(a, b);
  }

  /** Appends a chunk; an exact repeat of the previous chunk's span carries nothing and is dropped. */
  #push(c: PlannedChunk | undefined): void {
    if (!c) return;
    const last = this.out[this.out.length - 1];
    if (last && last.start === c.start && last.end === c.end) return;
    this.out.push(c);
  }

  /** Section i alone is too large: its finer level, or the section whole and flagged. */
  #descend(L: PackLevel, i: number): void {
    const finer = L.descend?.(i);
    if (finer) {
      if (this.o.policy === 'langchain') this.merge(finer);
      else this.greedy(finer);
      return;
    }
    const size = this.#exact(L, i, i);
    this.#push(L.emit(i, i, size, size > this.o.max));
  }

  /** The greedy policy over one level. */
  greedy(L: PackLevel): void {
    const max = this.o.max;
    const n = L.count;
    const policy = L.overlap ?? { kind: 'none' };
    let a = 0;
    let lastEmitted = -1; // last section already in a chunk
    while (a < n) {
      this.stats.steps++;
      if (L.size(a) > max || this.#exact(L, a, a) > max) {
        this.#descend(L, a);
        lastEmitted = a;
        a++;
        continue;
      }
      // grow while the estimate fits, then check the exact text once and shorten if needed
      let b = a;
      while (b + 1 < n && !L.hardBefore?.(b + 1) && L.size(b + 1) <= max && L.estimate(a, b + 1) <= max) {
        this.stats.steps++;
        b++;
      }
      let size = this.#exact(L, a, b);
      if (size > max) {
        b = this.#longestFitting(L, a, b - 1);
        size = this.#exact(L, a, b);
      }
      if (L.glued && b + 1 < n && L.glued(b) && !L.hardBefore?.(b + 1)) {
        // end before the glued sections at the run's end, so they start the next run with what follows them
        let e = b;
        while (e >= a && L.glued(e)) e--;
        if (e >= a && e > lastEmitted) {
          const shorter = this.#exact(L, a, e);
          if (shorter <= max) {
            b = e;
            size = shorter;
          }
        }
      }
      if (b <= lastEmitted) {
        // the overlap sections alone fill the budget: start after them instead
        a = lastEmitted + 1;
        continue;
      }
      this.#push(L.emit(a, b, size, false));
      lastEmitted = b;
      if (b + 1 >= n) break;
      a = this.#next(L, policy, a, b);
    }
  }

  /** Where the run after a..b starts under the overlap policy. */
  #next(L: PackLevel, policy: OverlapPolicy, a: number, b: number): number {
    if (policy.kind === 'none' || policy.count <= 0 || L.hardBefore?.(b + 1)) return b + 1;
    const max = this.o.max;
    let next = Math.max(a + 1, b + 1 - policy.count);
    for (let i = next + 1; i <= b; i++) if (L.hardBefore?.(i)) next = i;
    if (next > b) return b + 1;
    if (L.size(b + 1) > max) return b + 1; // the next section is split on its own: no overlap into it
    if (this.#exact(L, next, b + 1) <= max) return next;
    // fewest sections dropped from the front so the next new one fits (binary search)
    let lo = next + 1;
    let hi = b + 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#exact(L, mid, b + 1) <= max) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /**
   * LangChain's policy over one level: sections within the budget are merged by
   * `mergeSplits`; a section over the budget is split by its finer level. (LangChain
   * splits a section of exactly the budget too, which at `chunkSize: 1` cut a one-token
   * word into letters; the finer pieces merge back to the same section otherwise.)
   */
  merge(L: PackLevel): void {
    if (L.mergeInto) {
      L.mergeInto(this);
      return;
    }
    const max = this.o.max;
    const n = L.count;
    const sizes = L.sums?.sizes;
    let goodFrom = -1;
    for (let k = 0; k < n; k++) {
      this.stats.steps++;
      if ((sizes ? sizes[k] : L.size(k)) <= max) {
        if (goodFrom === -1) goodFrom = k;
        continue;
      }
      if (goodFrom !== -1) {
        this.#mergeRun(L, goodFrom, k);
        goodFrom = -1;
      }
      this.#descend(L, k);
    }
    if (goodFrom !== -1) this.#mergeRun(L, goodFrom, n);
  }

  /**
   * `mergeSplits` over sections [from, to): sections join the current chunk while its
   * estimate stays ≤ max; on overflow the chunk is emitted and sections leave its front
   * until it is ≤ overlapUnits and the next section fits.
   */
  #mergeRun(L: PackLevel, from: number, to: number): void {
    const max = this.o.max;
    const overlap = this.o.overlapUnits ?? 0;
    const sums = L.sums;
    let a = from;
    if (sums) {
      // the same loop over the prefix sums, without a call per estimate
      const { prefix, gapBefore } = sums;
      let steps = 0;
      for (let i = from; i < to; i++) {
        steps++;
        if (a < i && prefix[i + 1] - prefix[a] - gapBefore[a] > max) {
          this.#emitChecked(L, a, i - 1);
          for (;;) {
            if (a >= i) break;
            const before = prefix[i] - prefix[a] - gapBefore[a];
            if (!(before > overlap || (prefix[i + 1] - prefix[a] - gapBefore[a] > max && before > 0))) break;
            steps++;
            a++;
          }
        }
      }
      this.stats.steps += steps;
    } else {
      for (let i = from; i < to; i++) {
        this.stats.steps++;
        if (a < i && L.estimate(a, i) > max) {
          this.#emitChecked(L, a, i - 1);
          while (a < i && (L.estimate(a, i - 1) > overlap || (L.estimate(a, i) > max && L.estimate(a, i - 1) > 0))) {
            this.stats.steps++;
            a++;
          }
        }
      }
    }
    if (a < to) this.#emitChecked(L, a, to - 1);
  }

  /**
   * Emits run a..b, checking the budget on the exact text: over budget only where the
   * joined text measures more than the sections' sum (BPE merging across a join); then a
   * single section goes one level finer, otherwise the longest prefix that fits is
   * emitted and the rest follows.
   */
  #emitChecked(L: PackLevel, a: number, b: number): void {
    const max = this.o.max;
    while (a <= b) {
      const size = this.#exact(L, a, b);
      if (size <= max) {
        this.#push(L.emit(a, b, size, false));
        return;
      }
      if (a === b) {
        this.#descend(L, a);
        return;
      }
      const end = this.#longestFitting(L, a, b - 1);
      this.#emitChecked(L, a, end);
      a = end + 1;
    }
  }

  /** The last section `e` in [a, last] whose run a..e fits the budget on its exact text (binary search; `a` when none longer does). */
  #longestFitting(L: PackLevel, a: number, last: number): number {
    const max = this.o.max;
    let lo = a;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#exact(L, a, mid) <= max) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
