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
import type { RowKeys, Sink, SinkRow, StoredChunk } from './types.js';

/** A {@link SinkRow} with the identity of the embedder that made its vector. */
export interface IncrementalRow extends SinkRow {
  /** Identity of the embedder that made the vector (`embedderIdentity`). */
  embedder: string;
}

/** A {@link Sink} that can tell what it holds per document, in batches of documents: what `pipeline()` and `writeChunks` sync against. */
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
  /** {@link Sink.storedMany}: `stored` of many sources in one read. */
  storedMany(sources: readonly string[]): Promise<Map<string, Map<string, StoredChunk>>>;
  /** {@link Sink.vectorsMany}: `vectors` of many sources in one read. */
  vectorsMany(keys: RowKeys): Promise<Map<string, Map<string, Float32Array>>>;
  /** {@link Sink.removeRows}: deletes exactly these rows. */
  removeRows(keys: RowKeys): Promise<number>;
}

const MEMBERS = ['stored', 'vectors', 'sources', 'removeSources', 'storedMany', 'vectorsMany', 'removeRows'] as const;

/**
 * `sink` as an {@link IncrementalSink}: the sink itself when it has every member; else a
 * view that takes the sink's own members where it has them and answers the others:
 * `stored` and `vectors` from `rows(source)` (reading whole rows: correct, slower),
 * `sources` and `removeSources` from `rows()` and `removeStale`, `storedMany` and
 * `vectorsMany` with one `stored` / `vectors` call per source, `removeRows` with one
 * `removeStale` per source (keeping its other stored ids). The optional members
 * (`documents`, `writeDocuments`, `forgetDocuments`, `optimize`) pass through as they
 * are. A row read back without an `embedder` has the identity `''`, which matches no
 * embedder, so its chunk is embedded again.
 */
export function incrementalSink(sink: Sink): IncrementalSink {
  const s = sink as Partial<IncrementalSink> & Sink;
  if (MEMBERS.every((m) => typeof s[m] === 'function')) return s as IncrementalSink;
  const own = <K extends keyof Sink>(name: K) => (typeof s[name] === 'function' ? (s[name] as (...args: unknown[]) => unknown).bind(sink) : undefined);
  const stored: IncrementalSink['stored'] =
    (own('stored') as IncrementalSink['stored'] | undefined) ??
    (async (source) =>
      new Map((await sink.rows(source)).map((r) => [r.id, { embedder: (r as Partial<IncrementalRow>).embedder ?? '', start: r.start, end: r.end, tokenCount: r.tokenCount, metadata: r.metadata }])));
  const vectors: IncrementalSink['vectors'] =
    (own('vectors') as IncrementalSink['vectors'] | undefined) ??
    (async (source, ids) => {
      const wanted = new Set(ids);
      return new Map((await sink.rows(source)).filter((r) => wanted.has(r.id)).map((r) => [r.id, r.vector]));
    });
  const view: IncrementalSink = {
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
    stored,
    vectors,
    sources: (own('sources') as IncrementalSink['sources'] | undefined) ?? (async () => [...new Set((await sink.rows()).map((r) => r.source))].sort()),
    removeSources:
      (own('removeSources') as IncrementalSink['removeSources'] | undefined) ??
      (async (sources) => {
        let removed = 0;
        for (const source of new Set(sources)) removed += await sink.removeStale(source, new Set());
        return removed;
      }),
    storedMany:
      (own('storedMany') as IncrementalSink['storedMany'] | undefined) ??
      (async (sources) => {
        const out = new Map<string, Map<string, StoredChunk>>();
        for (const source of new Set(sources)) out.set(source, await stored(source));
        return out;
      }),
    vectorsMany:
      (own('vectorsMany') as IncrementalSink['vectorsMany'] | undefined) ??
      (async (keys) => {
        const out = new Map<string, Map<string, Float32Array>>();
        for (const [source, ids] of keys) if (ids.length > 0) out.set(source, await vectors(source, ids));
        return out;
      }),
    removeRows:
      (own('removeRows') as IncrementalSink['removeRows'] | undefined) ??
      (async (keys) => {
        let removed = 0;
        for (const [source, ids] of keys) {
          if (ids.length === 0) continue;
          const gone = new Set(ids);
          const keep = new Set([...(await stored(source)).keys()].filter((id) => !gone.has(id)));
          removed += await sink.removeStale(source, keep);
        }
        return removed;
      }),
  };
  for (const m of ['documents', 'writeDocuments', 'forgetDocuments', 'optimize'] as const) {
    const f = own(m);
    if (f) (view as unknown as Record<string, unknown>)[m] = f;
  }
  return view;
}
