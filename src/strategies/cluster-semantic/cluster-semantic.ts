/**
 * Cluster-semantic chunking: small pieces, embedded, grouped into chunks by dynamic
 * programming that maximises the similarity inside each chunk.
 *
 * Source: Chroma's technical report "Evaluating Chunking Strategies for Retrieval"
 * (Smith & Troynikov, 2024, https://research.trychroma.com/evaluating-chunking) and its
 * `chunking_evaluation` package, `ClusterSemanticChunker`
 * (`chunking_evaluation/chunking/cluster_semantic_chunker.py`, github.com/brandonstarxel/
 * chunking_evaluation): pieces of ~50 tokens from a recursive splitter, one embedding
 * per piece, the similarity matrix minus its mean off-diagonal value, and a DP over
 * chunk ends (`_optimal_segmentation`). Deliberate differences are listed in
 * `docs/cluster-semantic.md`.
 * @module
 */
import { bandDots, clusterSegments, getKernels, meanPairDot, normalizeRows } from '../../../bindings/index.js';
import { embedChecked } from '../../engine/callbacks.js';
import { cappedDefault, notAbove, OPTION_SHAPES, typed, type OptionsOf, type StrategySchema } from '../../engine/options/schema.js';
import { defineStrategy, MAX_CHUNK_SIZE_BUDGET } from '../../engine/define.js';
import { isBlank } from '../../engine/text.js';
import { HashingEmbedder } from '../../embedders/hashing-embedder.js';
import type { Embedder } from '../../embedders/types.js';
import type { PlannedChunk } from '../../engine/assemble.js';
import { UNIT_OPTIONS } from '../../engine/size/resolve.js';
import type { StepResult, StreamPlan } from '../../engine/stream/driver.js';
import { splitRange } from '../../engine/pack/fallback.js';
import { SectionScanner } from '../../engine/boundaries/sections.js';
import { rangeMeasure } from '../../engine/size/measure.js';
import { addWork, maxWork, type Work } from '../../engine/work.js';

/** The default `sectionSize` (tokens, or whatever the unit is): see docs/cluster-semantic.md for how it was chosen. */
export const DEFAULT_SECTION_SIZE = 2048;

/** The options schema of the cluster-semantic strategy. */
export const CLUSTER_SEMANTIC_SCHEMA = {
  name: 'cluster-semantic',
  options: {
    embedder: typed<Embedder>()({
      type: 'object',
      doc: 'embeds the pieces (n × d row-major Float32Array); default a HashingEmbedder (d = 384); CLI `--embedder hashing|static:<folder>|onnx:<folder>`',
      shape: OPTION_SHAPES.embedder,
    }),
    maxChunkSize: { type: 'integer', min: 1, default: 400, doc: "no chunk is larger, measured on its exact text (Chroma's max_chunk_size)" },
    pieceSize: {
      type: 'integer',
      min: 1,
      ...cappedDefault(50, 'maxChunkSize'),
      doc: "budget of a piece: the recursive splitter's chunkSize (Chroma's min_chunk_size); at most maxChunkSize",
    },
    maxPieces: { type: 'integer', min: 1, infinity: true, default: Infinity, doc: "most pieces in one chunk (Chroma's max_cluster); default no cap beyond maxChunkSize" },
    sectionSize: {
      type: 'integer',
      min: 1,
      infinity: true,
      default: 2048,
      doc: 'size of a section (units, line by line): sections are chunked one by one, bounding memory and streams; Infinity: the whole text is one section',
    },
    ...UNIT_OPTIONS,
  },
  check: notAbove('pieceSize', 'maxChunkSize'),
} as const satisfies StrategySchema;

/**
 * Options of {@link ClusterSemanticChunker} (sizes in `unit`s, tokens by default): read
 * from {@link CLUSTER_SEMANTIC_SCHEMA}. `maxPieces` is Chroma's `max_cluster`; `sectionSize`
 * an integer ≥ 1 or `Infinity` (the whole text one section, as Chroma's chunker sees it).
 */
export type ClusterSemanticOptions = OptionsOf<typeof CLUSTER_SEMANTIC_SCHEMA>;

/** A piece: a span of the text (offsets into the buffer being chunked) and its size in units. */
interface Piece {
  start: number;
  end: number;
  size: number;
}

/** Carried across sections (stream steps): the section scanner, piece and section index so far. */
interface RunState {
  scanner: SectionScanner;
  pieces: number;
  section: number;
  /** The call's work counters (`pieces`, `bandWidth`, `bandCells`, `measurements`), or undefined. */
  work: Work | undefined;
}

/**
 * Cluster-semantic chunking, after Chroma's `ClusterSemanticChunker` (chunking_evaluation,
 * 2024): the text is split into pieces of at most `pieceSize` units by
 * the recursive splitter's piece tree (paragraph, line, sentence end, space, grapheme; no overlap);
 * each piece is embedded once; with S(a, b) the cosine similarity of pieces a and b and μ
 * the mean of S over all pairs a < b of the section, a chunk of pieces [j, i] earns
 * reward(j, i) = Σ over a ≠ b in [j, i] of (S(a, b) − μ) (a one-piece chunk earns 0), and
 * the chunks are the segmentation that maximises the total reward subject to: the
 * chunk's exact text at most `maxChunkSize` units (and, if set, at most `maxPieces`
 * pieces). The DP (`dp[i] = max_j reward(j, i) + dp[j − 1]`, ties to the shorter last
 * chunk) runs in the WASM core (`clusterSegments`) over the band of the similarity
 * matrix a chunk can use (`bandDots`: w diagonals, w the most pieces any chunk can hold,
 * about 2·maxChunkSize / pieceSize since the recursive splitter's pieces hold about
 * pieceSize / 2 units or more), so time is O(n·w·d) for n pieces of d dimensions, μ
 * costs O(n·d) (`meanPairDot`) — never n². A call's `work` counters (`chunk(text, { work })`)
 * get `pieces` (n), `bandWidth` (the largest w), `bandCells` (Σ n·w over sections: the
 * similarity and DP work) and `measurements` (size measurements).
 *
 * A chunk is the exact source slice from its first piece's start to its last piece's
 * end: `chunk.text === text.slice(chunk.start, chunk.end)`, chunks do not overlap, are
 * trimmed of whitespace, and cover every non-whitespace character. Its size is measured
 * on that text: for each last piece i the smallest allowed first piece is found by a
 * two-pointer scan with exact counts (sizes grow as a span grows), and each chosen chunk
 * is measured again; in the rare case where a tokenizer counts a shorter span as larger
 * (BPE merges differ at the edges), an over-budget chunk is cut at piece boundaries
 * again, greedily, so `unitCount ≤ maxChunkSize` always holds — except for one piece
 * that is itself larger (one grapheme over `pieceSize`), flagged `oversized`.
 *
 * Sections: the text is cut at line breaks into sections of about `sectionSize` units
 * (see {@link SectionScanner}: after the first blank line once the section is full, else
 * after the line that made it full), each split, embedded and segmented on its own (μ is
 * the section's); a chunk never crosses a section end. This bounds memory and lets
 * {@link chunkStream} yield a section's chunks as soon as the section is complete, equal
 * to `chunk()`. `sectionSize: Infinity` makes the whole text one section.
 *
 * Metadata: `strategy: 'cluster-semantic'`, `unit`, `unitCount`, `overlap: 0`,
 * `pieceStart` / `pieceEnd` (piece indices over the whole text, end exclusive),
 * `section` (its index), `reward` (the chunk's reward as above) and `meanSimilarity`
 * (mean S over the chunk's pairs; absent for one piece), `oversized` where it applies.
 * Ids are content-addressed (`src/engine/ids.ts`), the same in both paths.
 *
 * @example
 * ```ts
 * const chunker = new ClusterSemanticChunker({ maxChunkSize: 200, embedder: await StaticEmbedder.load(path) });
 * const chunks = await chunker.chunk(text);
 * ```
 * @throws {InvalidOptionError} at construction when maxChunkSize, pieceSize or maxPieces
 *   is not an integer ≥ 1, pieceSize > maxChunkSize, sectionSize is neither an integer ≥ 1
 *   nor Infinity, the embedder has no `embed`, or a unit option is invalid.
 */
export class ClusterSemanticChunker extends defineStrategy({
  name: 'cluster-semantic',
  description: "Chroma's ClusterSemanticChunker: ~50-token pieces (recursive splitter) embedded, chunk boundaries by dynamic programming maximising within-chunk similarity; maxChunkSize (or chunkSize) caps chunks",
  schema: CLUSTER_SEMANTIC_SCHEMA,
  ...MAX_CHUNK_SIZE_BUDGET,
  stream: true,
  async: true,
}) {
  readonly embedder: Embedder = this.options.embedder ?? new HashingEmbedder();
  readonly maxChunkSize: number = this.options.maxChunkSize;
  readonly pieceSize: number = this.options.pieceSize;
  readonly maxPieces: number = this.options.maxPieces;
  readonly sectionSize: number = this.options.sectionSize;

  /**
   * The stream plan of one call, counting into `work`: `chunk` runs it over the whole
   * text, `chunkStream` over a stream (`ReadableStream<string>` or (async) iterable of
   * string pieces, split anywhere), yielding exactly the chunks `chunk(wholeText)` returns
   * (ids, indices, offsets into the whole stream, metadata), section by section: a
   * section's chunks come once the stream holds its cut, i.e. the line that decides it.
   * Memory: one section (about `sectionSize` to 2·`sectionSize` units plus a line) and one
   * piece of the stream; a line longer than 65,536 code units ends a section inside it
   * (at a safe cut of the unit), so text without line breaks streams too; with
   * `sectionSize: Infinity` the text is held whole. Both throw {@link EmbeddingError} when the embedder returns a matrix of
   * the wrong size (or, one of chunkwise's, fails), `CallbackError` when the embedder (or
   * another option that is a function) throws, `InvalidOptionError` when a user sizer
   * returns something unusable.
   */
  protected planOf(work: Work | undefined): StreamPlan<RunState> {
    return {
      initial: () => ({ scanner: new SectionScanner(this.sectionSize, (line) => this.measure(line, work), this.resolved.units.safeCut), pieces: 0, section: 0, work }),
      growth: () => 0, // the scanner is resumable: a step per piece costs the new lines only
      step: (text, offset, state, final) => this.#step(text, offset, state, final),
    };
  }

  /**
   * One step: every section of `buf` (buf[0] at stream offset `offset`; the open section
   * starts at buf[0]) that the scanner can close now, and with `final` the rest.
   */
  async #step(buf: string, offset: number, state: RunState, final: boolean): Promise<StepResult<RunState>> {
    const out: PlannedChunk[] = [];
    let from = 0;
    for (let cut = state.scanner.next(buf, offset, final); cut >= 0; cut = state.scanner.next(buf, offset, final)) {
      await this.#section(buf, from, cut - offset, state, out);
      from = cut - offset;
    }
    if (final) await this.#section(buf, from, buf.length, state, out);
    return { chunks: out, keep: from, state };
  }

  /**
   * Chunks the section buf[a, b) (buf[0] at stream offset `offset`) and appends its chunks
   * to `out`.
   */
  async #section(buf: string, a: number, b: number, state: RunState, out: PlannedChunk[]): Promise<void> {
    const sectionText = buf.slice(a, b);
    if (isBlank(sectionText)) return;
    const pieces: Piece[] = splitRange(rangeMeasure(sectionText, this.resolved.units), 0, sectionText.length, { max: this.pieceSize }).map((c) => ({ start: a + c.start, end: a + c.end, size: c.unitCount! }));
    const n = pieces.length;
    const spanSize = (j: number, i: number) => (j === i ? pieces[j].size : this.measure(buf.slice(pieces[j].start, pieces[i].end), state.work));
    let groups: Array<[number, number]>;
    let band: Float32Array = new Float32Array(0);
    let mu = 0;
    let w = 1;
    if (n === 1) groups = [[0, 0]];
    else {
      const d = this.embedder.dimension;
      const matrix = await embedChecked(this.embedder, pieces.map((p) => buf.slice(p.start, p.end)));
      // the smallest first piece of a chunk ending at piece i: two pointers, exact sizes;
      // the band width w is the most pieces any chunk can hold: never more than
      // maxChunkSize, since every piece holds a unit of its own (a sizer that counts a
      // piece as 0 units would otherwise let one chunk span every piece: n² time)
      const cap = Math.min(this.maxPieces, this.maxChunkSize);
      const lo = new Int32Array(n);
      for (let i = 0, l = 0; i < n; i++) {
        l = Math.max(l, i - cap + 1);
        while (l < i && spanSize(l, i) > this.maxChunkSize) l++;
        lo[i] = l;
        w = Math.max(w, i - l + 1);
      }
      const k = getKernels();
      let start!: Int32Array;
      k.job(() => {
        const m = k.copyF32(matrix);
        normalizeRows(m, d);
        mu = meanPairDot(m, d);
        band = bandDots(m, d, w);
        start = clusterSegments(band, w, mu, lo).start;
      });
      groups = [];
      for (let i = n - 1; i >= 0; i = start[i] - 1) groups.push([start[i], i]);
      groups.reverse();
    }
    for (const [j, i] of groups) {
      let size = spanSize(j, i);
      if (size <= this.maxChunkSize || j === i) {
        out.push(this.#planned(pieces, j, i, size, band, w, mu, state));
        continue;
      }
      // a tokenizer counted a shorter span as larger than a longer one: cut greedily at pieces
      for (let s = j; s <= i; ) {
        let e = s;
        size = pieces[s].size;
        while (e < i) {
          const next = spanSize(s, e + 1);
          if (next > this.maxChunkSize) break;
          e++;
          size = next;
        }
        out.push(this.#planned(pieces, s, e, size, band, w, mu, state));
        s = e + 1;
      }
    }
    state.pieces += n;
    state.section++;
    if (state.work) {
      addWork(state.work, 'pieces', n);
      maxWork(state.work, 'bandWidth', w);
      addWork(state.work, 'bandCells', n * w);
    }
  }

  /** The planned chunk of pieces [j, i] (the assembler makes the Chunk). */
  #planned(pieces: Piece[], j: number, i: number, unitCount: number, band: Float32Array, w: number, mu: number, state: RunState): PlannedChunk {
    let reward = 0;
    for (let c = j + 1; c <= i; c++) for (let r = j; r < c; r++) reward += 2 * (band[c * w + (c - r)] - mu);
    const m = i - j + 1;
    const chunk: PlannedChunk = {
      start: pieces[j].start,
      end: pieces[i].end,
      unitCount,
      metadata: {
        pieceStart: state.pieces + j,
        pieceEnd: state.pieces + i + 1,
        section: state.section,
        reward,
        ...(m > 1 ? { meanSimilarity: reward / (m * (m - 1)) + mu } : {}),
      },
    };
    if (unitCount > this.maxChunkSize) chunk.oversized = true;
    return chunk;
  }
}
