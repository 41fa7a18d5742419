/**
 * Postgres' binary COPY format for chunk rows: what {@link PgVectorSink} streams into a
 * staging table where the client can COPY (PGlite's `COPY … FROM '/dev/blob'`). Binary,
 * so the server parses no text: a vector arrives as pgvector's wire form (int16 dimension,
 * int16 0, big-endian float4s) instead of `[0.0123…,…]`, whose decimal parsing costs PGlite
 * (strtof in WebAssembly) about 2 ms a 384-dimension row. Core module: no Node built-in.
 * @module
 */
import type { SinkRow } from './types.js';

const encoder = new TextEncoder();
/** "PGCOPY\n\377\r\n\0", flags 0, header extension length 0. */
const HEADER = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0];

/** Columns in the order {@link copyRowsBinary} writes them (the COPY's column list). */
export const COPY_COLUMNS = ['id', 'source', 'text', 'embed_text', 'start', 'end', 'token_count', 'metadata', 'vector', 'embedder'] as const;

/**
 * `rows` as one binary COPY stream of {@link COPY_COLUMNS}: text as UTF-8, integers as
 * int4, metadata as jsonb (version 1, then its JSON), the vector as pgvector's binary form,
 * a null `embedText` as NULL.
 * @throws {RangeError} for an integer column outside int4 (the server would reject it too).
 */
export function copyRowsBinary(rows: readonly SinkRow[]): Uint8Array<ArrayBuffer> {
  // texts first: their encoded sizes give the stream's size
  const texts = rows.map((r) => [r.id, r.source, r.text, r.embedText, JSON.stringify(r.metadata), r.embedder ?? ''].map((s) => (s === null ? null : encoder.encode(s))));
  let size = HEADER.length + 2;
  rows.forEach((r, i) => {
    size += 2 + 10 * 4 + 3 * 4 + 1 + 4 + 4 * r.vector.length;
    for (const t of texts[i]) size += t ? t.length : 0;
  });
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(HEADER, 0);
  let at = HEADER.length;
  const bytes = (b: Uint8Array | null) => {
    view.setInt32(at, b ? b.length : -1);
    at += 4;
    if (b) {
      out.set(b, at);
      at += b.length;
    }
  };
  const int4 = (n: number) => {
    view.setInt32(at, 4);
    view.setInt32(at + 4, n);
    if (view.getInt32(at + 4) !== n) throw new RangeError(`not an int4: ${n}`);
    at += 8;
  };
  rows.forEach((r, i) => {
    const [id, source, text, embedText, metadata, embedder] = texts[i];
    view.setInt16(at, COPY_COLUMNS.length);
    at += 2;
    bytes(id);
    bytes(source);
    bytes(text);
    bytes(embedText);
    int4(r.start);
    int4(r.end);
    int4(r.tokenCount);
    view.setInt32(at, 1 + metadata!.length);
    out[at + 4] = 1; // jsonb's binary format version
    out.set(metadata!, at + 5);
    at += 5 + metadata!.length;
    view.setInt32(at, 4 + 4 * r.vector.length);
    at = writeVector(view, at + 4, r.vector);
    bytes(embedder);
  });
  view.setInt16(at, -1);
  return out;
}

/** Writes pgvector's binary form of `v` at `at` (int16 dimension, int16 0, big-endian float4s); returns the offset after it. */
function writeVector(view: DataView, at: number, v: Float32Array): number {
  view.setInt16(at, v.length);
  view.setInt16(at + 2, 0);
  at += 4;
  for (let k = 0; k < v.length; k++, at += 4) view.setFloat32(at, v[k]);
  return at;
}

/**
 * `v` in pgvector's binary form, for a binary query parameter (`$n::vector`; node-postgres
 * sends a Uint8Array parameter in binary format): 4 + 4·d bytes, no text for the server to
 * parse.
 */
export function vectorBinary(v: Float32Array): Uint8Array {
  const out = new Uint8Array(4 + 4 * v.length);
  writeVector(new DataView(out.buffer), 0, v);
  return out;
}
