/**
 * `chunkwise embed`: vectors for chunks, as JSONL (base64 Float32 little-endian) or a
 * NumPy `.npy` file (written by hand: magic, version 1.0 header, raw `<f4` data).
 * @module
 */
import { InvalidOptionError } from '../../engine/errors.js';
import type { Embedder } from '../../embedders/types.js';

/**
 * A chunk to embed: its text and, optionally, an id carried into the output. Where the
 * chunk has an `embedText` (a derived text: a table part rewritten row by row, a heading
 * path prefix), that is what is embedded; `text` otherwise. A `Chunk` is one
 * (other fields are ignored).
 */
export interface EmbeddableChunk {
  text: string;
  /** Derived text to embed instead of `text` (see `Chunk.embedText`). */
  embedText?: string;
  id?: string | number;
}

/** Options of {@link embedChunks}. */
export interface EmbedChunksOptions {
  /** 'jsonl' (one `{"id","index","dimension","vector"}` line per chunk, vector = base64 of little-endian f32) or 'npy' (n × d `<f4`). Default 'jsonl'. */
  format?: 'jsonl' | 'npy';
  /** Chunks per `embed` call. Default 64. */
  batchSize?: number;
  /** Called after each batch with (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** Base64 of a Float32Array's little-endian bytes (no Node built-ins). */
export function f32ToBase64(v: Float32Array): string {
  const bytes = new Uint8Array(v.length * 4);
  const dv = new DataView(bytes.buffer);
  for (let i = 0; i < v.length; i++) dv.setFloat32(i * 4, v[i], true);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** NumPy `.npy` (format 1.0) bytes of an n × d float32 matrix, C order. */
export function npyBytes(matrix: Float32Array, n: number, d: number): Uint8Array {
  const magic = '\x93NUMPY';
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${n}, ${d}), }`;
  const pre = magic.length + 2 + 2;
  const total = Math.ceil((pre + header.length + 1) / 64) * 64;
  header = header.padEnd(total - pre - 1, ' ') + '\n';
  const out = new Uint8Array(total + n * d * 4);
  for (let i = 0; i < magic.length; i++) out[i] = magic.charCodeAt(i);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[pre + i] = header.charCodeAt(i);
  const dv = new DataView(out.buffer, total);
  for (let i = 0; i < n * d; i++) dv.setFloat32(i * 4, matrix[i], true);
  return out;
}

/** The text to embed for a chunk: its `embedText` where it has one, else its `text`. */
export function textToEmbed(chunk: EmbeddableChunk | string): string {
  return typeof chunk === 'string' ? chunk : (chunk.embedText ?? chunk.text);
}

/**
 * Embeds chunks in batches. Each chunk's vector is of `embedText ?? text`
 * ({@link textToEmbed}): the derived text where the chunker made one.
 * @returns for 'jsonl', an array of JSON lines (no trailing newline); for 'npy', the file's bytes.
 * @throws {InvalidOptionError} for a bad format or batchSize; embedder errors pass through.
 */
export async function embedChunks(
  chunks: readonly (EmbeddableChunk | string)[],
  embedder: Embedder,
  options: EmbedChunksOptions & { format: 'npy' },
): Promise<Uint8Array>;
export async function embedChunks(
  chunks: readonly (EmbeddableChunk | string)[],
  embedder: Embedder,
  options?: EmbedChunksOptions & { format?: 'jsonl' },
): Promise<string[]>;
export async function embedChunks(
  chunks: readonly (EmbeddableChunk | string)[],
  embedder: Embedder,
  options: EmbedChunksOptions = {},
): Promise<string[] | Uint8Array> {
  const format = options.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'npy') throw new InvalidOptionError('format', format, "'jsonl' or 'npy'");
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new InvalidOptionError('batchSize', batchSize, 'an integer ≥ 1');
  const d = embedder.dimension;
  const n = chunks.length;
  const all = new Float32Array(n * d);
  for (let s = 0; s < n; s += batchSize) {
    const batch = chunks.slice(s, s + batchSize).map(textToEmbed);
    all.set(await embedder.embed(batch), s * d);
    options.onProgress?.(Math.min(s + batchSize, n), n);
  }
  if (format === 'npy') return npyBytes(all, n, d);
  return chunks.map((c, i) =>
    JSON.stringify({
      id: typeof c === 'string' ? i : (c.id ?? i),
      index: i,
      dimension: d,
      vector: f32ToBase64(all.subarray(i * d, (i + 1) * d)),
    }),
  );
}
