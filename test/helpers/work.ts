/**
 * Work counters for the linearity test (`test/scaling.test.ts`) and the scaling suite
 * (`bench/scaling.bench.ts`): deterministic counts of what a chunker does, so linear time
 * can be asserted without timing anything.
 *
 * - {@link CountingTokenizer}: a {@link Tokenizer} wrapper passed as the `tokenizer`
 *   option: sizer calls and the characters they were given (every token-unit budget check
 *   and every `tokenCount` goes through it).
 * - {@link CountingEmbedder} / {@link CountingTokenEmbedder}: the same for the `embedder`
 *   of semantic, cluster-semantic and late chunking.
 * - {@link countIntl}: counts `Intl.Segmenter` work while installed (patching
 *   `Intl.Segmenter.prototype.segment`): calls, characters and the sum of each call's
 *   length squared — V8 iterates the segments of one long string in time quadratic in its
 *   length, so Σ length² is the segmenter's cost model (bounded calls: linear; one call
 *   over the whole text: quadratic).
 * - {@link countRegExp}: characters regular expressions were run over (patching
 *   `RegExp.prototype.exec`, which `test`, `match`, `replace` and `split` go through once
 *   it is patched): a regex over a growing prefix per step shows up here.
 * - The call's `Work` counters (`chunk(text, { work })`, src/engine/work.ts): packer steps,
 *   the chunker's own operations, semantic, cluster-semantic and late counters.
 * @module
 */
import { optionProblem } from '../../src/engine/options/schema.js';
import { HashingEmbedder } from '../../src/embedders/hashing-embedder.js';
import type { Embedder, TokenEmbedder, TokenEmbeddings } from '../../src/embedders/types.js';
import { createChunker, type StrategyDefinition } from '../../src/strategies/index.js';
import type { Chunker } from '../../src/engine/chunker.js';
import type { Work } from '../../src/engine/work.js';
import { getTokenizer } from '../../src/engine/size/tokens.js';
import type { SafeCut, Tokenizer } from '../../src/engine/size/types.js';

/** A tokenizer that counts its calls and the characters it was given. */
export class CountingTokenizer implements Tokenizer {
  readonly encoding: string;
  readonly safeCut?: SafeCut;
  calls = 0;
  chars = 0;
  constructor(readonly inner: Tokenizer = getTokenizer('cl100k_base')) {
    this.encoding = inner.encoding;
    if (inner.safeCut) this.safeCut = inner.safeCut;
  }
  #note(text: string): void {
    this.calls++;
    this.chars += text.length;
  }
  encode(text: string): Uint32Array {
    this.#note(text);
    return this.inner.encode(text);
  }
  count(text: string): number {
    this.#note(text);
    return this.inner.count(text);
  }
  encodeWithOffsets(text: string): { ids: Uint32Array; starts: Int32Array; ends: Int32Array } {
    this.#note(text);
    return this.inner.encodeWithOffsets(text);
  }
  decode(ids: ArrayLike<number>): string {
    return this.inner.decode(ids);
  }
}

/** An embedder that counts calls, texts and their characters. */
export class CountingEmbedder implements Embedder {
  calls = 0;
  texts = 0;
  chars = 0;
  constructor(readonly inner: Embedder) {}
  get dimension(): number {
    return this.inner.dimension;
  }
  async embed(texts: string[]): Promise<Float32Array> {
    this.calls++;
    this.texts += texts.length;
    for (const t of texts) this.chars += t.length;
    return this.inner.embed(texts);
  }
}

/** A token-level embedder that counts calls and the characters it was given. */
export class CountingTokenEmbedder implements TokenEmbedder {
  calls = 0;
  chars = 0;
  constructor(readonly inner: TokenEmbedder) {}
  get dimension(): number {
    return this.inner.dimension;
  }
  get maxTokens(): number | undefined {
    return this.inner.maxTokens;
  }
  async embed(texts: string[]): Promise<Float32Array> {
    return this.inner.embed(texts);
  }
  async embedTokens(text: string): Promise<TokenEmbeddings> {
    this.calls++;
    this.chars += text.length;
    return this.inner.embedTokens(text);
  }
}

/** `Intl.Segmenter` work while {@link countIntl} is installed. */
export interface IntlWork {
  /** `segment()` calls. */
  calls: number;
  /** Characters given to them. */
  chars: number;
  /** Segments iterated. */
  segments: number;
  /** Characters given to grapheme segmenters (src/engine/boundaries/graphemes.ts segments in windows). */
  graphemeChars: number;
  /**
   * Σ over calls of (characters of the call) × (segments iterated from it, at least 1):
   * V8 iterates each segment in time linear in the whole input (measured on Node 20:
   * graphemes of 64k characters 7 s, 128k 26 s; one 128k-character sentence 0.7 ms), so
   * this is the segmenter's cost, quadratic for one call over a long text with many
   * segments.
   */
  cost: number;
  /** The longest single call. */
  longest: number;
}

/** Counts `Intl.Segmenter.prototype.segment` calls and the segments iterated (every instance, cached ones too) until `restore()`. */
export function countIntl(): { work: IntlWork; restore(): void } {
  const proto = Intl.Segmenter.prototype;
  const original = proto.segment;
  const work: IntlWork = { calls: 0, chars: 0, segments: 0, graphemeChars: 0, cost: 0, longest: 0 };
  proto.segment = function (this: Intl.Segmenter, input: string) {
    const n = String(input).length;
    const segments = original.call(this, input);
    work.calls++;
    work.chars += n;
    if (this.resolvedOptions().granularity === 'grapheme') work.graphemeChars += n;
    work.cost += n;
    if (n > work.longest) work.longest = n;
    let yielded = 0;
    return {
      containing: (index?: number) => segments.containing(index),
      [Symbol.iterator]() {
        const it = segments[Symbol.iterator]();
        return {
          next() {
            const r = it.next();
            if (!r.done) {
              work.segments++;
              // the first segment is paid for by the call's `n` above
              if (yielded++ > 0) work.cost += n;
            }
            return r;
          },
          [Symbol.iterator]() {
            return this;
          },
        };
      },
    } as unknown as Intl.Segments;
  };
  return { work, restore: () => void (proto.segment = original) };
}

/** Characters regular expressions ran over while {@link countRegExp} is installed. */
export interface RegExpWork {
  calls: number;
  chars: number;
}

/**
 * Counts `RegExp.prototype.exec` until `restore()`: a call counts the characters from
 * `lastIndex` to the match's end (global or sticky) or to the end of the input (no match,
 * or neither flag: the engine may scan all of it).
 */
export function countRegExp(): { work: RegExpWork; restore(): void } {
  const proto = RegExp.prototype;
  const original = proto.exec;
  const work: RegExpWork = { calls: 0, chars: 0 };
  proto.exec = function (this: RegExp, input: string) {
    const s = String(input);
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const m = original.call(this, s);
    work.calls++;
    work.chars += m && (this.global || this.sticky) ? Math.max(1, m.index + m[0].length - from) : Math.max(1, s.length - from);
    return m;
  };
  return { work, restore: () => void (proto.exec = original) };
}

/** tree-sitter node reads while {@link countTreeSitter} is installed. */
export interface TreeSitterWork {
  /** Steps: `child(k)` costs k + 1 (tree-sitter walks the children before the k-th), `children` and `childForFieldName` the node's child count + 1. */
  steps: number;
}

type NodeProto = { child(index: number): unknown; childForFieldName(name: string): unknown; readonly childCount: number };

/**
 * Counts web-tree-sitter's node reads (patching its `Node.prototype`) until `restore()`,
 * by what tree-sitter's C code iterates: reading a node's k children by index costs
 * k²/2 steps, one `children` call k. A no-op where web-tree-sitter is not installed.
 */
export async function countTreeSitter(): Promise<{ work: TreeSitterWork; restore(): void }> {
  const work: TreeSitterWork = { steps: 0 };
  let proto: NodeProto;
  try {
    proto = ((await import('web-tree-sitter')) as unknown as { Node: { prototype: NodeProto } }).Node.prototype;
  } catch {
    return { work, restore: () => {} };
  }
  const { child, childForFieldName } = proto;
  const children = Object.getOwnPropertyDescriptor(proto, 'children')!;
  proto.child = function (this: NodeProto, index: number) {
    work.steps += index + 1;
    return child.call(this, index);
  };
  proto.childForFieldName = function (this: NodeProto, name: string) {
    work.steps += this.childCount + 1;
    return childForFieldName.call(this, name);
  };
  Object.defineProperty(proto, 'children', {
    ...children,
    get(this: NodeProto) {
      work.steps += this.childCount + 1;
      return children.get!.call(this);
    },
  });
  return {
    work,
    restore: () => {
      proto.child = child;
      proto.childForFieldName = childForFieldName;
      Object.defineProperty(proto, 'children', children);
    },
  };
}

/** What {@link measureWork} needs besides the strategy: the token-level model for late chunking. */
export interface WorkEnvironment {
  /** A token-level embedder for strategies whose `embedder` option needs `embedTokens` (late). */
  tokenEmbedder?: TokenEmbedder;
}

/** One measured run: the work counters (each a count that linear code keeps proportional to the text), chunks, wall time and (where measured) CPU time. */
export interface WorkRun {
  chars: number;
  chunks: number;
  ms: number;
  /** CPU time of the process during the call (user + system, every thread), ms; absent where not measured. */
  cpuMs?: number;
  counts: Record<string, number>;
}

/** The counters a {@link WorkRun} reports, with what each counts. */
export const WORK_COUNTERS: Readonly<Record<string, string>> = {
  sizerCalls: 'tokenizer calls (budget checks, token counts)',
  sizerChars: 'characters given to the tokenizer',
  intlCalls: '`Intl.Segmenter.segment` calls',
  intlCost: 'Σ characters × segments iterated per `Intl.Segmenter` call',
  regexChars: 'characters regular expressions ran over',
  graphemeChars: 'characters of the grapheme windows (src/engine/boundaries/graphemes.ts)',
  packSteps: 'packer steps and exact measures (src/engine/pack/pack.ts), where the chunker counts them into its Work',
  embedChars: 'characters given to the embedder',
  treeSitterSteps: 'tree-sitter node reads, by the children tree-sitter iterates (code strategy; see countTreeSitter)',
  'work.operations': "the chunker's own count of its steps (recursive, markdown, html, code: pieces measured, occurrences visited, scans)",
  'work.*': "the chunker's other Work counters (semantic, cluster-semantic, late)",
};

/**
 * Options that make `definition`'s strategy report its work: the counting tokenizer as
 * `tokenizer` where the strategy measures in units, a counting embedder where it takes
 * one (a token-level one where its schema asks for `embedTokens`); everything else default.
 */
function countingOptions(definition: StrategyDefinition, env: WorkEnvironment, tokenizer: CountingTokenizer): { options: Record<string, unknown>; embedder?: CountingEmbedder | CountingTokenEmbedder } {
  const schema = definition.schema.options;
  const options: Record<string, unknown> = {};
  if ('tokenizer' in schema || definition.passThrough) options.tokenizer = tokenizer;
  let embedder: CountingEmbedder | CountingTokenEmbedder | undefined;
  const spec = schema.embedder;
  if (spec) {
    const plain = new CountingEmbedder(new HashingEmbedder());
    if (optionProblem(spec, plain) === undefined) embedder = plain;
    else if (env.tokenEmbedder) embedder = new CountingTokenEmbedder(env.tokenEmbedder);
    else throw new Error(`${definition.name} needs a token-level embedder (WorkEnvironment.tokenEmbedder)`);
    options.embedder = embedder;
  }
  return { options, embedder };
}

/**
 * Chunks `text` with the registered strategy `definition` (its default options plus the
 * counting tokenizer and embedder) and returns the work counters of that one call:
 * {@link WORK_COUNTERS}, plus each counter of the call's `Work` (prefixed `work.`; its
 * `packSteps` as `packSteps`, its `bandWidth`, a largest-so-far, left out). The `Intl.Segmenter` and `RegExp` counters are
 * installed for the call only.
 */
export async function measureWork(definition: StrategyDefinition, text: string, env: WorkEnvironment = {}, extra: Record<string, unknown> = {}): Promise<WorkRun> {
  const tokenizer = new CountingTokenizer();
  const { options, embedder } = countingOptions(definition, env, tokenizer);
  const chunker = createChunker(definition.name, { ...options, ...extra }) as Chunker;
  const work: Work = {};
  const ts = definition.name === 'code' ? await countTreeSitter() : undefined;
  const intl = countIntl();
  const re = countRegExp();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let chunks: number;
  try {
    chunks = (await chunker.chunk(text, { work })).length;
  } finally {
    intl.restore();
    re.restore();
    ts?.restore();
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const counts: Record<string, number> = {
    sizerCalls: tokenizer.calls,
    sizerChars: tokenizer.chars,
    intlCalls: intl.work.calls,
    intlCost: intl.work.cost,
    regexChars: re.work.chars,
    graphemeChars: intl.work.graphemeChars,
    packSteps: work.packSteps ?? 0,
    embedChars: embedder?.chars ?? 0,
  };
  if (ts) counts.treeSitterSteps = ts.work.steps;
  for (const [k, v] of Object.entries(work)) if (k !== 'packSteps' && k !== 'bandWidth') counts[`work.${k}`] = v;
  return { chars: text.length, chunks, ms, cpuMs: (cpu.user + cpu.system) / 1000, counts };
}

/** Work below this is treated as constant (a few calls, a short scan). */
export const WORK_FLOOR = 256;

/**
 * Growth per doubling of one counter from its values `w` at sizes n, 2n, 4n (about), by
 * two measures, of which the smaller is returned:
 * - the ratio of its increments, (w₃ − w₂) / (w₂ − w₁), in which a constant part cancels
 *   (linear work a + b·n gives 2 whatever a is, also where a threshold is crossed below n);
 * - the plain ratio of the last doubling, w₃ / w₂, which a jump between the first two sizes
 *   (a window falling differently) does not move.
 * Linear work stays at or below about 2 by one of them; quadratic work a + c·n² gives
 * about 4 by both once c·n² is not small next to a. Counts below {@link WORK_FLOOR} count as
 * the floor (a counter that barely moves is not growing); both measures are normalised to
 * one doubling where the sizes are not exactly doubled.
 */
export function incrementGrowth(w: readonly number[], chars: readonly number[]): number {
  const [w1, w2, w3] = w;
  const [n1, n2, n3] = chars;
  const d1 = Math.max(w2 - w1, WORK_FLOOR);
  const d2 = Math.max(w3 - w2, WORK_FLOOR);
  // for w = c·n^p with exact doublings the increments grow by 2^p; uneven steps are corrected by the steps' ratio
  const increments = (d2 / d1) * (2 / ((n3 - n2) / (n2 - n1)));
  const plain = growthPerDoubling(w2, w3, n2, n3);
  return Math.min(increments, plain);
}

/** Growth per doubling of one counter between two runs (b the longer): (b / a) ^ (1 / log2(b.chars / a.chars)), counts raised to {@link WORK_FLOOR}. */
export function growthPerDoubling(a: number, b: number, charsA: number, charsB: number): number {
  const doublings = Math.log2(charsB / charsA);
  if (!(doublings > 0)) return NaN;
  return (Math.max(b, WORK_FLOOR) / Math.max(a, WORK_FLOOR)) ** (1 / doublings);
}

/**
 * The counter that grew most from run `a` to run `b` (per doubling), and that growth.
 * A counter below {@link WORK_FLOOR} in `a` and above it in `b` starts between the two
 * sizes (a path the smaller text did not take): it is listed in `onsets`, not compared.
 */
export function worstGrowth(a: WorkRun, b: WorkRun): { counter: string; growth: number; onsets: string[] } {
  let worst = { counter: '', growth: 0 };
  const onsets: string[] = [];
  for (const k of Object.keys(b.counts)) {
    const before = a.counts[k] ?? 0;
    if (before < WORK_FLOOR && b.counts[k] >= WORK_FLOOR) {
      onsets.push(k);
      continue;
    }
    const g = growthPerDoubling(before, b.counts[k], a.chars, b.chars);
    if (g > worst.growth) worst = { counter: k, growth: g };
  }
  return { ...worst, onsets };
}
