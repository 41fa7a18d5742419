/**
 * The one checker of SPEC section 4's invariants, for every test that chunks text:
 *
 * - `slice`: `chunk.text === source.slice(start, end)`; `offsets`: integer offsets with
 *   0 ≤ start ≤ end ≤ length, never inside a surrogate pair; `index`: the chunk's
 *   position (within its level, for parent–child);
 * - `lost`: every non-whitespace code unit of the source lies in a chunk (whitespace as
 *   `isSpace` of src/engine/text.ts defines it, JavaScript's `\s`: the one definition the
 *   strategies trim by; format characters such as U+200B and U+2060 are text);
 * - `unitCount`: `metadata.unitCount` is the size of `text` alone in the chunker's unit;
 *   `budget`: that size is ≤ the budget unless `metadata.oversized` is set (and `embedText`,
 *   where present, holds the budget too: `embedBudget`); `tokenCount`: the cl100k_base count of what
 *   the chunk embeds, `embedText ?? text` (−1 allowed only with countTokens false, for char
 *   and word units); `tokenBudget`: in token units, `tokenCount` ≤ the budget unless
 *   `metadata.oversized` (the budget bounds what `tokenCount` counts);
 * - `blank`: no chunk is empty or whitespace only (`isBlank`, the same definition); `repeat`: no span appears twice in a level;
 * - for HTML (`visible`: the visible characters of the kept content, found by parse5 in
 *   `./html-visible.ts`, and `budgetOn: 'embedText'`), as docs/html.md states it: `lost`
 *   asks that every *visible* character's source offset lie in a chunk (markup, hidden
 *   elements and dropped landmarks need not); `visible` that each chunk's `embedText`
 *   hold exactly the visible characters of its span, whitespace and `|` aside (a table
 *   part: all of them, in order, among its header labels); the budget holds for
 *   `embedText`, which every chunk carries.
 *
 * Sizes are measured here independently of `src/`: code points, runs of `\S`, and
 * js-tiktoken's own BPE (word runs in scripts without spaces, or longer than 512 code
 * units, are counted by src's word rule on the run alone). {@link findViolations} lists what is wrong (so a test can show the
 * checker rejects a broken list); {@link expectInvariants} throws with a readable report.
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k_base from 'js-tiktoken/ranks/cl100k_base';
import type { Chunk } from '../../src/index.js';
import { isBlank, isSpace } from '../../src/engine/text.js';
import { countWords, WORD_PIECE } from '../../src/engine/size/words.js';
import { isSubsequence, squeezed, visibleIn, type VisibleChars } from './html-visible.js';

export type Unit = 'char' | 'word' | 'token';

/** The names of the checks, as {@link Violation.check} reports them. */
export const CHECKS = ['slice', 'offsets', 'index', 'lost', 'unitCount', 'budget', 'embedBudget', 'tokenCount', 'tokenBudget', 'blank', 'repeat', 'visible'] as const;
export type Check = (typeof CHECKS)[number];

/** A token counter by js-tiktoken itself over `ranks` (special-token strings as ordinary text), built on first use. */
export function tiktokenCounter(ranks: ConstructorParameters<typeof Tiktoken>[0]): (text: string) => number {
  let encoder: Tiktoken | undefined;
  return (text) => (encoder ??= new Tiktoken(ranks)).encode(text, [], []).length;
}

/** js-tiktoken's cl100k_base count, special-token strings as ordinary text. */
export const referenceTokens = tiktokenCounter(cl100k_base);

/** Characters of the scripts written without spaces (and their punctuation) that word units segment inside a run. */
const UNSPACED = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3001-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff9f\u{20000}-\u{3ffff}]/u;

/** Size of `text` in `unit`: code points (a lone surrogate is one), runs of non-`\s`, or cl100k_base tokens. */
export function measure(unit: Unit, text: string, countTokens: (text: string) => number = referenceTokens): number {
  if (unit === 'char') {
    let n = 0;
    for (const _ of text) n++;
    return n;
  }
  if (unit === 'word') {
    // runs of \S, except where a run holds a script written without spaces or passes
    // WORD_PIECE code units: there words are the sizer's (Intl.Segmenter word boundaries,
    // docs/streaming.md "Units in scripts without spaces"), counted by src on that run alone
    let n = 0;
    for (const [run] of text.matchAll(/\S+/g)) n += run.length > WORD_PIECE || UNSPACED.test(run) ? countWords(run) : 1;
    return n;
  }
  return countTokens(text);
}

/** What a chunk list is checked against. */
export interface InvariantOptions {
  /** The unit budgets are measured in; without it `unitCount` and `budget` are not checked. */
  unit?: Unit;
  /** The budget: a number, or per chunk (parent–child: by level); undefined skips the chunk. */
  budget?: number | ((chunk: Chunk) => number | undefined);
  /** Counts tokens for `token` units and `tokenCount` (default: js-tiktoken cl100k_base; another encoding: {@link tiktokenCounter}). */
  countTokens?: (text: string) => number;
  /** `countTokens: false` was passed to the chunker: char/word chunks carry tokenCount −1. Default true. */
  tokenCounts?: boolean;
  /** The level a chunk belongs to: `index` counts and spans must be unique within one. Default: one level. */
  level?: (chunk: Chunk) => string;
  /**
   * What the budget is measured on: `text` (default; `embedText` too where present) or
   * `embedText` only (HTML: the visible text; every chunk must carry one).
   */
  budgetOn?: 'text' | 'embedText';
  /** HTML: the visible characters of the kept content; `lost` and `visible` are checked against them. */
  visible?: VisibleChars;
  /**
   * Checks left out, each with the reason (a known defect that another test shows with
   * `it.fails`, or a query-time strategy for `lost`). Never silent: the reason is the value.
   */
  skip?: Partial<Record<Check, string>>;
}

/** One broken invariant. */
export interface Violation {
  check: Check;
  /** Position of the chunk in the list, where one chunk is at fault. */
  chunk?: number;
  message: string;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
/** True when `i` lies between the two halves of a surrogate pair of `text`. */
const insidePair = (text: string, i: number) => i > 0 && i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i));

/** A short printable form of a chunk's text. */
export function snippet(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max / 2 - 1)}…${text.slice(-(max / 2 - 1))}` : text);
}

/** Every violation of the invariants by `chunks` of `source` (empty when all hold). */
export function findViolations(source: string, chunks: readonly Chunk[], options: InvariantOptions = {}): Violation[] {
  const skip = options.skip ?? {};
  const on = (check: Check) => skip[check] === undefined;
  const out: Violation[] = [];
  const levelOf = options.level ?? (() => '');
  const positions = new Map<string, number>();
  const spans = new Map<string, Map<string, number>>();
  const covered = new Int32Array(source.length + 1);
  const tokens = options.countTokens ?? referenceTokens;

  chunks.forEach((c, k) => {
    const at = (check: Check, message: string) => {
      if (on(check)) out.push({ check, chunk: k, message: `chunk ${k} [${c.start}, ${c.end}) ${snippet(c.text ?? '')}: ${message}` });
    };
    const validOffsets = Number.isInteger(c.start) && Number.isInteger(c.end) && c.start >= 0 && c.start <= c.end && c.end <= source.length;
    if (!validOffsets) at('offsets', `offsets outside [0, ${source.length}] or not integers`);
    else {
      if (insidePair(source, c.start) || insidePair(source, c.end)) at('offsets', 'an offset cuts a surrogate pair');
      covered[c.start]++;
      covered[c.end]--;
    }
    if (c.text !== source.slice(c.start, c.end)) at('slice', `text is not source.slice(start, end) = ${snippet(source.slice(c.start, c.end))}`);

    const level = levelOf(c);
    const position = positions.get(level) ?? 0;
    positions.set(level, position + 1);
    if (c.index !== position) at('index', `index ${c.index}, but it is chunk ${position} of its level${level ? ` (${level})` : ''}`);
    const seen = spans.get(level) ?? new Map<string, number>();
    spans.set(level, seen);
    const key = `${c.start}-${c.end}`;
    if (seen.has(key)) at('repeat', `the same span as chunk ${seen.get(key)}${level ? ` (${level})` : ''}`);
    else seen.set(key, k);

    if (isBlank(c.text ?? '')) at('blank', 'empty or whitespace only');

    let textTokens: number | undefined;
    const tokensOfText = () => (textTokens ??= tokens(c.text));
    let embedTokens: number | undefined;
    const tokensOfEmbed = () => (embedTokens ??= c.embedText === undefined ? tokensOfText() : tokens(c.embedText));
    const unitCount = c.metadata?.unitCount;
    if (options.unit) {
      const size = options.unit === 'token' ? tokensOfText() : measure(options.unit, c.text);
      if (unitCount !== size) at('unitCount', `metadata.unitCount ${String(unitCount)}, but the text has ${size} ${options.unit} units`);
      const budget = typeof options.budget === 'function' ? options.budget(c) : options.budget;
      if (options.budgetOn === 'embedText' && c.embedText === undefined) at('embedBudget', 'no embedText, which the budget is measured on');
      if (budget !== undefined && !c.metadata?.oversized) {
        if (size > budget && options.budgetOn !== 'embedText') at('budget', `${size} ${options.unit} units > budget ${budget}, not flagged oversized`);
        if (c.embedText !== undefined) {
          const embedSize = options.unit === 'token' ? tokensOfEmbed() : measure(options.unit, c.embedText, tokens);
          if (embedSize > budget) at('embedBudget', `embedText has ${embedSize} ${options.unit} units > budget ${budget}, not flagged oversized`);
        }
        if (options.unit === 'token' && c.tokenCount > budget) at('tokenBudget', `tokenCount ${c.tokenCount} > budget ${budget}, not flagged oversized`);
      }
    }
    if (options.visible && typeof c.embedText === 'string' && c.text === source.slice(c.start, c.end)) {
      const seen = visibleIn(options.visible, c.start, c.end);
      const embed = squeezed(c.embedText);
      if (c.metadata?.tableRows !== undefined ? !isSubsequence(seen, embed) : seen !== embed) {
        at('visible', `embedText ${snippet(embed)} does not hold the visible text of its span ${snippet(seen)}`);
      }
    }
    const minusOne = options.tokenCounts === false && options.unit !== 'token';
    if (minusOne ? c.tokenCount !== -1 : c.tokenCount !== tokensOfEmbed()) {
      at('tokenCount', `tokenCount ${c.tokenCount}, expected ${minusOne ? -1 : tokensOfEmbed()} (tokens of ${c.embedText === undefined ? 'text' : 'embedText'})`);
    }
  });

  if (on('lost')) {
    let depth = 0;
    const lost: number[] = [];
    const visible = options.visible?.positions;
    let next = 0; // the next visible character to look for
    for (let i = 0; i < source.length; i++) {
      depth += covered[i];
      if (visible) {
        for (; next < visible.length && visible[next] === i; next++) if (depth === 0) lost.push(i);
      } else if (depth === 0 && !isSpace(source.charCodeAt(i))) lost.push(i);
    }
    if (lost.length) {
      const first = lost[0];
      out.push({
        check: 'lost',
        message: `${lost.length} non-whitespace code unit(s) in no chunk, the first at ${first}: ${snippet(source.slice(Math.max(0, first - 20), first + 20))} (U+${source.charCodeAt(first).toString(16).padStart(4, '0')})`,
      });
    }
  }
  return out;
}

/** The violations as one readable report (at most `max` of them), with the source when short. */
export function report(source: string, violations: readonly Violation[], max = 8): string {
  const lines = violations.slice(0, max).map((v) => `  ${v.check}: ${v.message}`);
  if (violations.length > max) lines.push(`  … ${violations.length - max} more`);
  const src = source.length <= 400 ? JSON.stringify(source) : `${source.length} code units, starting ${snippet(source.slice(0, 80), 80)}`;
  return `${violations.length} invariant violation(s) in the chunks of ${src}:\n${lines.join('\n')}`;
}

/** Throws a readable report unless every invariant holds. */
export function expectInvariants(source: string, chunks: readonly Chunk[], options: InvariantOptions = {}): void {
  const violations = findViolations(source, chunks, options);
  if (violations.length) throw new Error(report(source, violations));
}

/** Where a streamed chunk list differs from `chunk(wholeText)`: every field, ids included (empty when equal). */
export function streamDifferences(whole: readonly Chunk[], streamed: readonly Chunk[]): string[] {
  const out: string[] = [];
  if (whole.length !== streamed.length) out.push(`${streamed.length} chunks streamed, ${whole.length} from chunk()`);
  for (let k = 0; k < Math.min(whole.length, streamed.length); k++) {
    const w = whole[k] as unknown as Record<string, unknown>;
    const s = streamed[k] as unknown as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(w), ...Object.keys(s)])].filter((f) => !isDeepStrictEqual(w[f], s[f]));
    if (fields.length) {
      out.push(`chunk ${k}: ${fields.map((f) => `${f} ${JSON.stringify(w[f])?.slice(0, 80)} ≠ streamed ${JSON.stringify(s[f])?.slice(0, 80)}`).join('; ')}`);
      if (out.length >= 4) break;
    }
  }
  return out;
}

/** Throws unless the streamed chunks equal `chunk(wholeText)` in every field. */
export function expectStreamEqual(whole: readonly Chunk[], streamed: readonly Chunk[], context = ''): void {
  const d = streamDifferences(whole, streamed);
  if (d.length) throw new Error(`chunkStream ≠ chunk(wholeText)${context ? ` (${context})` : ''}:\n  ${d.join('\n  ')}`);
}
