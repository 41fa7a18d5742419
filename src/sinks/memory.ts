/**
 * `MemorySink`: the {@link IncrementalSink} interface over a `Map` in memory — for
 * browsers, tests and small corpora that do not outlive the process. Core module: no
 * Node built-in.
 * @module
 */
import { SinkError } from '../engine/errors.js';
import type { IncrementalRow, IncrementalSink } from './incremental.js';
import { replaceNulInRows } from './nul.js';
import { byPlace, requireDimension, searchArgs, type DocumentRecord, type RowKeys, type SinkMatch, type SinkRow, type StoredChunk } from './types.js';

/**
 * A table of chunk rows in memory, keyed by (`source`, `id`). Rows are copied in and out
 * (a caller's later change to a row or its vector does not reach the table).
 * `search` is exact (a scan by cosine distance). The table exists from the first
 * `prepare`; before it, reads find nothing and writes fail.
 */
export class MemorySink implements IncrementalSink {
  readonly name: string;
  readonly batchSize = 1024;
  readonly #rows = new Map<string, Map<string, IncrementalRow>>();
  readonly #documents = new Map<string, DocumentRecord>();
  #dimension: number | undefined;
  #closed = false;
  /** {@link Sink.nulReplaced}: U+0000 is stored as U+FFFD here too, as in every sink. */
  nulReplaced = 0;

  /** @param name what messages call the sink (default `memory`). */
  constructor(name = 'memory') {
    this.name = name;
  }

  /** d of the table's vectors, or undefined before `prepare`. */
  get dimension(): number | undefined {
    return this.#dimension;
  }

  #open(): void {
    if (this.#closed) throw new SinkError(this.name, 'the sink is closed');
  }

  /** @throws {SinkError} when the table holds vectors of another dimension. */
  async prepare(dimension: number): Promise<void> {
    this.#open();
    requireDimension(dimension);
    if (this.#dimension !== undefined && this.#dimension !== dimension) {
      throw new SinkError(this.name, `the table holds vectors of dimension ${this.#dimension}, these chunks have ${dimension} (use another table or the same embedder)`);
    }
    this.#dimension = dimension;
  }

  /** @throws {SinkError} before `prepare`, or for a vector of another dimension. */
  async upsert(input: readonly SinkRow[]): Promise<void> {
    this.#open();
    const { rows, replaced } = replaceNulInRows(input);
    const d = this.#dimension;
    if (d === undefined) throw new SinkError(this.name, 'no table yet: call prepare(dimension) first');
    for (const r of rows) {
      if (!(r.vector instanceof Float32Array) || r.vector.length !== d) throw new SinkError(this.name, `row ${r.source} ${r.id} has ${r.vector?.length} values, the table ${d}`);
    }
    for (const r of rows) {
      let doc = this.#rows.get(r.source);
      if (!doc) this.#rows.set(r.source, (doc = new Map()));
      doc.set(r.id, copy({ ...r, embedder: (r as Partial<IncrementalRow>).embedder ?? '' }));
    }
    this.nulReplaced += replaced;
  }

  async removeStale(source: string, keep: ReadonlySet<string>): Promise<number> {
    this.#open();
    const doc = this.#rows.get(source);
    if (!doc) return 0;
    let removed = 0;
    for (const id of [...doc.keys()]) {
      if (!keep.has(id)) {
        doc.delete(id);
        removed++;
      }
    }
    if (doc.size === 0) this.#rows.delete(source);
    return removed;
  }

  async stored(source: string): Promise<Map<string, StoredChunk>> {
    this.#open();
    return this.#stored(source);
  }

  #stored(source: string): Map<string, StoredChunk> {
    return new Map(
      [...(this.#rows.get(source)?.values() ?? [])].map((r) => [r.id, { embedder: r.embedder, start: r.start, end: r.end, tokenCount: r.tokenCount, metadata: structuredClone(r.metadata) }]),
    );
  }

  async storedMany(sources: readonly string[]): Promise<Map<string, Map<string, StoredChunk>>> {
    this.#open();
    return new Map(sources.map((source) => [source, this.#stored(source)]));
  }

  async vectorsMany(keys: RowKeys): Promise<Map<string, Map<string, Float32Array>>> {
    this.#open();
    return new Map([...keys].map(([source, ids]) => [source, this.#vectors(source, ids)]));
  }

  async removeRows(keys: RowKeys): Promise<number> {
    this.#open();
    let removed = 0;
    for (const [source, ids] of keys) {
      const doc = this.#rows.get(source);
      if (!doc) continue;
      for (const id of ids) if (doc.delete(id)) removed++;
      if (doc.size === 0) this.#rows.delete(source);
    }
    return removed;
  }

  async documents(sources: readonly string[]): Promise<Map<string, DocumentRecord>> {
    this.#open();
    const out = new Map<string, DocumentRecord>();
    for (const source of sources) {
      const r = this.#documents.get(source);
      if (r) out.set(source, { ...r });
    }
    return out;
  }

  async writeDocuments(records: readonly DocumentRecord[]): Promise<void> {
    this.#open();
    for (const r of records) this.#documents.set(r.source, { ...r });
  }

  async forgetDocuments(sources: readonly string[]): Promise<void> {
    this.#open();
    for (const source of sources) this.#documents.delete(source);
  }

  async vectors(source: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    this.#open();
    return this.#vectors(source, ids);
  }

  #vectors(source: string, ids: readonly string[]): Map<string, Float32Array> {
    const doc = this.#rows.get(source);
    const out = new Map<string, Float32Array>();
    for (const id of ids) {
      const r = doc?.get(id);
      if (r) out.set(id, r.vector.slice());
    }
    return out;
  }

  async sources(): Promise<string[]> {
    this.#open();
    return [...this.#rows.keys()].sort();
  }

  async removeSources(sources: readonly string[]): Promise<number> {
    this.#open();
    let removed = 0;
    for (const source of new Set(sources)) {
      removed += this.#rows.get(source)?.size ?? 0;
      this.#rows.delete(source);
      this.#documents.delete(source);
    }
    return removed;
  }

  async search(vector: Float32Array | readonly number[], k = 5): Promise<SinkMatch[]> {
    this.#open();
    const q = searchArgs(vector, k);
    const qn = Math.hypot(...q);
    const matches: SinkMatch[] = [];
    for (const doc of this.#rows.values()) {
      for (const r of doc.values()) {
        let dot = 0;
        let n = 0;
        for (let i = 0; i < r.vector.length; i++) {
          dot += r.vector[i] * (q[i] ?? 0);
          n += r.vector[i] * r.vector[i];
        }
        const cos = qn === 0 || n === 0 ? 0 : dot / (qn * Math.sqrt(n));
        matches.push({ id: r.id, source: r.source, text: r.text, start: r.start, end: r.end, metadata: structuredClone(r.metadata), distance: 1 - cos });
      }
    }
    return matches.sort((a, b) => a.distance - b.distance).slice(0, k);
  }

  async count(): Promise<number> {
    this.#open();
    let n = 0;
    for (const doc of this.#rows.values()) n += doc.size;
    return n;
  }

  async rows(source?: string): Promise<IncrementalRow[]> {
    this.#open();
    const docs = source === undefined ? [...this.#rows.values()] : [this.#rows.get(source) ?? new Map<string, IncrementalRow>()];
    return docs.flatMap((doc) => [...doc.values()].map(copy)).sort(byPlace) as IncrementalRow[];
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}

function copy(r: IncrementalRow): IncrementalRow {
  return { ...r, metadata: structuredClone(r.metadata), vector: r.vector.slice() };
}
