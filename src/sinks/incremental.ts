/**
 * The sink members an incremental run needs — which rows a document already has and
 * with which embedder, which documents the table holds, deleting whole documents — and
 * {@link incrementalSink}, which gives them to a sink written without them. Core module:
 * no Node built-in.
 *
 * The same members are being added to `Sink` and `SinkRow` themselves (src/sinks/types.ts,
 * same names and docs); once every store implements them, {@link IncrementalSink} is
 * `Sink` and {@link IncrementalRow} is `SinkRow`.
 * @module
 */
import type { Sink, SinkRow, StoredChunk } from './types.js';

/** A {@link SinkRow} with the identity of the embedder that made its vector. */
export interface IncrementalRow extends SinkRow {
  /** Identity of the embedder that made the vector (`embedderIdentity`). */
  embedder: string;
}

/** A {@link Sink} that can tell what it holds per document: what `pipeline()` syncs against. */
export interface IncrementalSink extends Sink {
  /** Inserts rows, replacing rows with the same (`source`, `id`). Rows are distinct by that key. */
  upsert(rows: readonly SinkRow[]): Promise<void>;
  /**
   * The rows stored for `source`: id → the embedder of the row's vector and the row's
   * place ({@link StoredChunk}). Empty when the table is missing or holds nothing of `source`.
   */
  stored(source: string): Promise<Map<string, StoredChunk>>;
  /** The stored vectors of the rows of `source` with the given `ids`; ids without a row are absent. */
  vectors(source: string, ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** The distinct sources in the table (empty when it is missing). */
  sources(): Promise<string[]>;
  /**
   * Deletes every row of each of `sources` (documents gone from the corpus); a missing
   * table has nothing to delete.
   * @returns the number of rows deleted.
   */
  removeSources(sources: readonly string[]): Promise<number>;
}

/**
 * `sink` as an {@link IncrementalSink}: the sink itself when it has `stored`, `vectors`,
 * `sources` and `removeSources`; else a view that answers `stored` and `vectors` from
 * `rows(source)` (reading whole rows: correct, slower), and `sources` and
 * `removeSources` from `rows()` and `removeStale` where the sink lacks them. A row read
 * back without an `embedder` has the identity `''`, which matches no embedder, so its
 * chunk is embedded again.
 */
export function incrementalSink(sink: Sink): IncrementalSink {
  const s = sink as Partial<IncrementalSink> & Sink;
  if (typeof s.stored === 'function' && typeof s.vectors === 'function' && typeof s.sources === 'function' && typeof s.removeSources === 'function') return s as IncrementalSink;
  return {
    get name() {
      return sink.name;
    },
    get batchSize() {
      return sink.batchSize;
    },
    prepare: (dimension) => sink.prepare(dimension),
    upsert: (rows) => sink.upsert(rows),
    removeStale: (source, keep) => sink.removeStale(source, keep),
    search: (vector, k) => sink.search(vector, k),
    count: () => sink.count(),
    rows: (source) => sink.rows(source),
    close: () => sink.close(),
    stored: async (source) =>
      new Map((await sink.rows(source)).map((r) => [r.id, { embedder: (r as Partial<IncrementalRow>).embedder ?? '', start: r.start, end: r.end, tokenCount: r.tokenCount, metadata: r.metadata }])),
    vectors: async (source, ids) => {
      const wanted = new Set(ids);
      return new Map((await sink.rows(source)).filter((r) => wanted.has(r.id)).map((r) => [r.id, r.vector]));
    },
    sources: typeof s.sources === 'function' ? () => s.sources!() : async () => [...new Set((await sink.rows()).map((r) => r.source))],
    removeSources:
      typeof s.removeSources === 'function'
        ? (sources) => s.removeSources!(sources)
        : async (sources) => {
            let removed = 0;
            for (const source of new Set(sources)) removed += await sink.removeStale(source, new Set());
            return removed;
          },
  };
}
