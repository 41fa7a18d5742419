/**
 * QASC in hybrid mode as a {@link Retriever} for the evaluation: one {@link QascIndex} over all corpora, pre-chunked by a chunker; for a
 * question, the top `candidates(k)` pre-chunks (default 3k) are the candidates and QASC
 * runs inside them; the best k QASC chunks (ranked as {@link QascIndexOptions.rank},
 * default `fused`) are the retrieved spans. QASC returns only parts of its candidates, so
 * it may read more candidates than the k spans it returns: the reader (and the
 * evaluation's precision) sees only the k returned spans. 3k is the choice of the
 * defaults sweep with both evaluation embedders (docs/qasc.md, "Hybrid mode choices").
 * Core module: no Node built-ins.
 * @module
 */
import { QASC_CANDIDATES_PER_RESULT, QascIndex, type QascIndexOptions } from '../strategies/qasc/qasc-index.js';
import type { Chunker } from '../engine/chunker.js';
import type { RetrievedSpan } from './metrics.js';
import type { Corpus } from './questions.js';
import type { Retriever } from './retrieval.js';

/** Options of {@link QascRetriever.build}. */
export interface QascRetrieverOptions extends Omit<QascIndexOptions, 'chunker'> {
  /** Name for tables. Default `qasc hybrid`. */
  name?: string;
  /** Pre-chunks the corpora (candidates); default QascIndex's (fixed 256/32 tokens). */
  chunker?: Chunker;
  /** Candidate pre-chunks read for k results. Default `(k) => 3 * k` ({@link QASC_CANDIDATES_PER_RESULT}). */
  candidates?: (k: number) => number;
}

/** QASC hybrid retrieval over corpora: candidates from a chunk index, QASC inside them. */
export class QascRetriever implements Retriever {
  readonly name: string;
  /** The underlying index (documents are the corpora, ids their corpus ids). */
  readonly index: QascIndex;

  readonly #candidates: (k: number) => number;

  private constructor(name: string, index: QascIndex, candidates: (k: number) => number) {
    this.name = name;
    this.index = index;
    this.#candidates = candidates;
  }

  /**
   * Pre-chunks and embeds every corpus (chunks and sentences).
   * @throws {InvalidOptionError} for bad QASC parameters; {@link EmbeddingError} when embedding fails.
   */
  static async build(corpora: readonly Corpus[], options: QascRetrieverOptions = {}): Promise<QascRetriever> {
    const { name, chunker, candidates, ...rest } = options;
    const index = new QascIndex({ ...rest, chunker });
    for (const c of corpora) {
      const spans = chunker ? (await chunker.chunk(c.text)).map((x) => ({ start: x.start, end: x.end })) : undefined;
      await index.addDocument(c.id, c.text, spans);
    }
    return new QascRetriever(name ?? 'qasc hybrid', index, candidates ?? ((k) => QASC_CANDIDATES_PER_RESULT * k));
  }

  /** The best k QASC chunks found inside the top `candidates(k)` pre-chunks for `question`. */
  async retrieve(question: string, k: number): Promise<RetrievedSpan[]> {
    const results = await this.index.query(question, { topK: this.#candidates(k), maxResults: k });
    return results.map((r) => ({ corpusId: r.documentId, start: r.start, end: r.end }));
  }
}
