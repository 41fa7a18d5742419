/**
 * Late chunking: embed the whole document once with a token-level model, then pool each
 * chunk's tokens.
 *
 * Source: Günther et al., "Late Chunking: Contextual Chunk Embeddings Using Long-Context
 * Embedding Models" (2024), including its "long late chunking" with macro windows.
 * @module
 */
import type { Chunk } from '../../engine/chunk.js';
import type { ChunkCallOptions } from '../../engine/ids.js';
import { poolTokenSpans, type PoolWork } from '../../embedders/pool-spans.js';
import type { TokenEmbedder, TokenEmbeddings } from '../../embedders/types.js';
import { callOptionAsync } from '../../engine/callbacks.js';
import { describe, EmbeddingError, InvalidOptionError } from '../../engine/errors.js';
import { OPTION_SHAPES, resolveOptions, shapeProblem, typed, type StrategySchema } from '../../engine/options/schema.js';
import type { Chunker, StrategyOptions } from '../../engine/chunker.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { defineStrategy } from '../../engine/define.js';
import { FixedSizeChunker } from '../fixed-size/fixed-size.js';
import { isSpace, requireText } from '../../engine/text.js';
import { addWork } from '../../engine/work.js';
import { workOf } from '../../engine/ids.js';

/** Options of {@link LateChunker}. */
export interface LateOptions {
  /** A token-level model (e.g. `OnnxEmbedder` with a `last_hidden_state` output). Required. */
  embedder: TokenEmbedder;
  /** Supplies the spans (any chunker). Default `FixedSizeChunker` with 256 cl100k tokens, no overlap. */
  chunker?: Chunker;
  /**
   * Share of a macro window's tokens that the next macro window repeats, in [0, 0.9]
   * (documents longer than the model's context only). Default 0.25.
   */
  macroOverlap?: number;
}

/** One macro window of the document pass. */
export interface MacroWindow {
  /** UTF-16 offsets of the text the model read: [start, end). */
  start: number;
  end: number;
  /** Tokens the model read, special tokens included (≤ the model's maxTokens). */
  tokens: number;
  /** Tokens of this window used for the document (the rest come from a neighbour with more context). */
  used: number;
}

/** The document pass: every content token's vector once, with doc offsets. */
export interface DocumentTokens extends TokenEmbeddings {
  windows: MacroWindow[];
}

/** Work of one document pass ({@link embedDocumentTokens}), for tests of linear time. */
export interface DocumentPassWork {
  /** `embedTokens` calls (macro windows, and the longer slices re-read where one was too short). */
  reads: number;
  /** UTF-16 code units given to `embedTokens`, summed over the calls. */
  chars: number;
}

/** A chunk with its late-chunking vector. */
export interface LateChunk extends Chunk {
  /** Mean of the chunk's token vectors from the document pass, L2-normalised (d values). */
  vector: Float32Array;
}


/** The options of late chunking itself; the rest go to its span strategy. */
export const LATE_SCHEMA = {
  name: 'late',
  options: {
    embedder: typed<TokenEmbedder>()({
      type: 'object',
      doc: 'a token-level model (`embedTokens`), e.g. OnnxEmbedder; CLI `--embedder onnx:<folder>`',
      shape: OPTION_SHAPES.tokenEmbedder,
    }),
    spans: { type: 'string', default: 'fixed', doc: 'the strategy that supplies the spans (default fixed, 256 tokens, no overlap); its options are passed on', cli: { placeholder: '<strategy>' } },
    chunker: typed<Chunker>()({
      type: 'object',
      cli: false,
      doc: 'the chunker that supplies the spans, in the API (any Chunker); default: the `spans` strategy',
      shape: { name: 'Chunker', members: { chunk: { kind: 'function', doc: 'chunk(text) → chunks' } } },
    }),
    macroOverlap: { type: 'number', min: 0, max: 0.9, default: 0.25, doc: "share of a macro window's tokens the next one repeats (documents longer than the model's context)" },
  },
} as const satisfies StrategySchema;

/**
 * The registry's late chunker: its own options ({@link LATE_SCHEMA}) are validated here,
 * every other option goes to the span strategy, which the registry's `chunker(name,
 * options)` builds (default fixed, 256 tokens, no overlap).
 * @throws {InvalidOptionError} without an embedder, with `spans: 'late'`, or with both a
 *   chunker and options for a span strategy.
 */
function createLate(o: StrategyOptions, chunker: (name: string, options: StrategyOptions) => Chunker): Chunker {
  const own: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) (k in LATE_SCHEMA.options ? own : rest)[k] = v;
  if (own.embedder === undefined) throw new InvalidOptionError('embedder', undefined, 'late chunking needs a token-level model, e.g. --embedder onnx:<folder>');
  const r = resolveOptions<{ embedder: TokenEmbedder; spans: string; chunker?: Chunker; macroOverlap: number }>(LATE_SCHEMA, own);
  if (r.spans === 'late') throw new InvalidOptionError('spans', r.spans, 'a span strategy other than late');
  const extra = Object.keys(rest);
  if (r.chunker !== undefined && extra.length) throw new InvalidOptionError(extra[0], rest[extra[0]], 'an option of the span strategy: give it spans, not a chunker');
  const defaults = r.spans === 'fixed' ? { chunkSize: 256, chunkOverlap: 0 } : {};
  return new LateChunker({ embedder: r.embedder, chunker: r.chunker ?? chunker(r.spans, { ...defaults, ...rest }), macroOverlap: r.macroOverlap });
}

/**
 * Late chunking: the document goes through the token-level model once
 * ({@link embedDocumentTokens}: one pass, or overlapping macro windows when it is longer
 * than the model's context); the `chunker` supplies spans; each chunk's vector is the
 * mean of the final-layer vectors of the content tokens that overlap its span, L2-normalised
 * ({@link poolTokenSpans}; special tokens such as [CLS] are left out and, since the
 * mapping goes by character offsets, do not shift it). Every chunk the span chunker makes
 * is returned, none truncated: spans past the model's context are covered by later windows.
 *
 * @example
 * ```ts
 * const embedder = await OnnxEmbedder.load('models/jina-embeddings-v2-small-en');
 * const late = new LateChunker({ embedder, chunker: new FixedSizeChunker({ chunkSize: 128, chunkOverlap: 0 }) });
 * const chunks = await late.chunk(text); // chunks[i].vector: Float32Array(d)
 * ```
 * @throws {InvalidOptionError} at construction without a token-level embedder, with a
 *   chunker without chunk(), or macroOverlap outside [0, 0.9].
 */
export class LateChunker extends defineStrategy({
  name: 'late',
  description: 'late chunking: spans from another strategy (spans, default fixed), vectors pooled from one pass of a token-level model (needs embedder)',
  schema: LATE_SCHEMA,
  passThrough: true,
  async: true,
  create: createLate,
}) {
  readonly embedder: TokenEmbedder;
  readonly chunker: Chunker;
  readonly macroOverlap: number = this.options.macroOverlap;

  constructor(options: LateOptions) {
    super(options);
    if (this.options.spans !== 'fixed') throw new InvalidOptionError('spans', this.options.spans, 'a strategy name for the registry (createChunker("late", …)); give the API a chunker instead');
    const e = this.options.embedder;
    if (e === undefined) throw new InvalidOptionError('embedder', e, shapeProblem(OPTION_SHAPES.tokenEmbedder, e)!);
    this.embedder = e;
    this.chunker = this.options.chunker ?? new FixedSizeChunker({ unit: 'token', chunkSize: 256, chunkOverlap: 0 });
  }

  /** The span chunker's chunks of `text` as planned spans (what {@link chunk} gives vectors to). */
  async spans(text: string): Promise<PlannedChunk[]> {
    return (await this.chunker.chunk(text)).map((c) => ({ start: c.start, end: c.end, unitCount: c.metadata.unitCount, tokenCount: c.tokenCount, metadata: c.metadata, ...(c.embedText !== undefined ? { embedText: c.embedText } : {}) }));
  }

  /**
   * Chunks `text` and gives each chunk its late-chunking vector.
   * @param options per-call options, passed to the span chunker: `documentId` enters every chunk id;
   *   `work` gets `reads`, `chars` (model reads and the characters they read) and `poolSteps`.
   * @throws {InvalidInputError} when text is not a string.
   * @throws {EmbeddingError} when the model fails, returns the wrong shape or cannot make progress through the text.
   * @throws {CallbackError} when `embedTokens` throws something other than a chunkwise error (the original as `cause`).
   */
  override async chunk(text: string, options?: ChunkCallOptions): Promise<LateChunk[]> {
    requireText(text);
    const chunks = await this.chunker.chunk(text, options);
    if (chunks.length === 0) return [];
    const pass: DocumentPassWork = { reads: 0, chars: 0 };
    const tokens = await embedDocumentTokens(this.embedder, text, this.macroOverlap, pass);
    const d = this.embedder.dimension;
    const pool: PoolWork = { steps: 0 };
    const pooled = poolTokenSpans(tokens, d, chunks.map((c) => c.start), chunks.map((c) => c.end), pool);
    const work = workOf(options);
    if (work) {
      addWork(work, 'reads', pass.reads);
      addWork(work, 'chars', pass.chars);
      addWork(work, 'poolSteps', pool.steps);
    }
    return chunks.map((c, k) => ({
      ...c,
      metadata: { ...c.metadata, late: true, macroWindows: tokens.windows.length },
      vector: pooled.slice(k * d, (k + 1) * d),
    }));
  }
}

/**
 * What `embedTokens` returned for a text of `length` code units, checked: `vectors` a
 * Float32Array of T × d values, `offsets` an Int32Array of T × 2 offsets with
 * `0 ≤ start ≤ end ≤ length`, `special` a Uint8Array of T flags, `truncated` a boolean.
 * Without the check, `null` or a result without offsets was an internal TypeError.
 * @throws {EmbeddingError} naming what is missing or of the wrong size.
 */
function checkedTokens(r: unknown, length: number, d: number): TokenEmbeddings {
  const bad = (why: string) => new EmbeddingError(`The embedder's embedTokens(text) must return { vectors, offsets, special, truncated }; ${why}`);
  if (typeof r !== 'object' || r === null) throw bad(`it returned ${describe(r)}`);
  const { vectors, offsets, special, truncated } = r as Partial<TokenEmbeddings>;
  if (!(offsets instanceof Int32Array) || offsets.length % 2 !== 0) throw bad(`offsets is ${offsets === undefined ? 'missing' : describe(offsets)}, not an Int32Array of T × 2 UTF-16 offsets`);
  const T = offsets.length / 2;
  if (!(vectors instanceof Float32Array) || vectors.length !== T * d) throw bad(`vectors is ${vectors instanceof Float32Array ? `${vectors.length} values` : describe(vectors)}, not a Float32Array of ${T} tokens × ${d}`);
  if (!(special instanceof Uint8Array) || special.length !== T) throw bad(`special is ${special instanceof Uint8Array ? `${special.length} flags` : describe(special)}, not a Uint8Array of ${T} flags`);
  if (typeof truncated !== 'boolean') throw bad(`truncated is ${describe(truncated)}, not a boolean`);
  for (let t = 0; t < T; t++) {
    if (!(offsets[2 * t] >= 0 && offsets[2 * t] <= offsets[2 * t + 1] && offsets[2 * t + 1] <= length)) throw bad(`token ${t} spans [${offsets[2 * t]}, ${offsets[2 * t + 1]}) in a text of ${length} code units`);
  }
  return r as TokenEmbeddings;
}

/**
 * Runs a token-level model over a whole document and returns each content token's
 * vector once, with UTF-16 offsets into the document.
 *
 * One call of `embedTokens` when the text fits the model. Otherwise macro windows: the
 * model reads the text from offset a (it keeps as many tokens as fit, special tokens
 * included, and reports `truncated`); the next window starts at the first token of a word
 * at about (1 − overlap) of the kept content tokens, so consecutive windows share about
 * `overlap` of them, and so on until a window reaches the end. In the shared stretch of
 * windows w and w + 1 (o tokens) the first ⌊o/2⌋ tokens are taken from w and the others
 * from w + 1: each token's vector comes from the window where it lies farther from the
 * edge, i.e. has the most context.
 *
 * Cost: each window reads a slice of about 12 characters per token of the model's
 * context; where that slice holds too few tokens (a long run of whitespace or one long
 * word) it is read again at twice the length, and the next window starts again from the
 * usual length, so the characters read stay linear in the text.
 * @param overlap share of a window's content tokens the next one repeats, in [0, 0.9]
 * @param work optional counters of the model calls and the characters given to them.
 * @returns vectors T × d (not normalised), offsets T × 2 into `text`, special all 0,
 *   truncated false, and the windows read
 * @throws {EmbeddingError} when a window keeps no token (nothing would progress) or the
 *   model returns the wrong shape (see {@link checkedTokens}).
 * @throws {CallbackError} when `embedTokens` throws something other than a chunkwise
 *   error (the original as `cause`).
 */
export async function embedDocumentTokens(embedder: TokenEmbedder, text: string, overlap = 0.25, work?: DocumentPassWork): Promise<DocumentTokens> {
  const d = embedder.dimension;
  type Win = { a: number; end: number; tokens: number; starts: number[]; ends: number[]; rows: Float32Array[] };
  const wins: Win[] = [];
  let a = 0;
  const baseLimit = Math.max(256, (embedder.maxTokens ?? 0) * 12);
  let limit = baseLimit;
  while (a < text.length) {
    const sliceEnd = embedder.maxTokens === undefined ? text.length : Math.min(text.length, a + limit);
    if (work) {
      work.reads++;
      work.chars += sliceEnd - a;
    }
    const slice = text.slice(a, sliceEnd);
    const r = checkedTokens(await callOptionAsync('embedder.embedTokens', () => embedder.embedTokens(slice)), slice.length, d);
    const T = r.offsets.length / 2;
    const starts: number[] = [];
    const ends: number[] = [];
    const rows: Float32Array[] = [];
    for (let t = 0; t < T; t++) {
      const s = r.offsets[2 * t];
      const e = r.offsets[2 * t + 1];
      if (r.special[t] || e <= s) continue;
      starts.push(a + s);
      ends.push(a + e);
      rows.push(r.vectors.subarray(t * d, (t + 1) * d));
    }
    const lastEnd = ends.length ? ends[ends.length - 1] : a;
    // the slice ended before the model's limit: read a longer slice (a cut word would be mis-tokenised)
    if (sliceEnd < text.length && (!r.truncated || lastEnd >= sliceEnd)) {
      limit *= 2;
      continue;
    }
    const win: Win = { a, end: r.truncated ? lastEnd : text.length, tokens: T, starts, ends, rows };
    wins.push(win);
    // a slice doubled past a long run is not needed for the next window: keeping the long
    // limit made every later window read it again (quadratic in the text)
    limit = baseLimit;
    if (!r.truncated) break;
    if (starts.length < 2) throw new EmbeddingError(`The model keeps fewer than 2 tokens from offset ${a}; cannot slide macro windows`, text.slice(a, a + 40));
    let j = Math.min(starts.length - 1, Math.max(1, Math.round(starts.length * (1 - overlap))));
    const j0 = j;
    while (j > 1 && !(starts[j] > 0 && isSpace(text.charCodeAt(starts[j] - 1)))) j--;
    if (!(starts[j] > 0 && isSpace(text.charCodeAt(starts[j] - 1)))) j = j0;
    a = starts[j];
  }
  // stitch: window w gives tokens in [from_w, cut_w), cut between w and w+1 at the middle of their shared tokens
  const outStarts: number[] = [];
  const outEnds: number[] = [];
  const outRows: Float32Array[] = [];
  const windows: MacroWindow[] = [];
  let from = -1;
  for (let w = 0; w < wins.length; w++) {
    const win = wins[w];
    let cut = Infinity;
    if (w + 1 < wins.length) {
      const next = wins[w + 1].a;
      const shared = win.starts.filter((s) => s >= next);
      cut = shared.length ? shared[Math.floor(shared.length / 2)] : next;
    }
    let used = 0;
    for (let i = 0; i < win.starts.length; i++) {
      if (win.starts[i] < from || win.starts[i] >= cut) continue;
      outStarts.push(win.starts[i]);
      outEnds.push(win.ends[i]);
      outRows.push(win.rows[i]);
      used++;
    }
    windows.push({ start: win.a, end: win.end, tokens: win.tokens, used });
    from = cut;
  }
  const T = outStarts.length;
  const vectors = new Float32Array(T * d);
  const offsets = new Int32Array(T * 2);
  outRows.forEach((row, t) => {
    vectors.set(row, t * d);
    offsets[2 * t] = outStarts[t];
    offsets[2 * t + 1] = outEnds[t];
  });
  return { vectors, offsets, special: new Uint8Array(T), truncated: false, windows };
}


