/**
 * `chunkwise embed`: chunk files with a strategy, embed every chunk, and write the chunks
 * with their vectors: JSONL (the chunk's fields, `source`, and `vector` as base64 of
 * little-endian Float32, or an array with `--vector-format array`), a NumPy `.npy` n × d
 * float32 matrix (rows in chunk order; use `--out`), or a vector store (`--sink`).
 * Embeds `chunk.embedText ?? chunk.text`, stated here on purpose.
 * @module
 */
import cliProgress from 'cli-progress';
import type { Chunk } from '../core/chunk.js';
import { UsageError } from './usage-error.js';
import { openCliSink, prepareCliSink, writeCliSink } from './sink-cli.js';
import { AUTO_STRATEGY, FileChunkers, walkExtensions } from '../node/chunk-file.js';
import { chunkDocumentFile, documentKind, forEachFile, loadDocumentPeers } from '../node/documents.js';
import { autoStrategyOptions } from './strategy-flags.js';
import { loadEmbedder } from '../node/embedders.js';
import { f32ToBase64, npyBytes } from '../node/embed-command.js';
import { chunkRecord, strategyOptionsFromCli, type ChunkCommandOptions } from './chunk-command.js';
import { Output, progressWanted, readSource } from './io.js';
import { DEFAULT_EXTENSIONS, expandInputs } from './inputs.js';
import { requireInteger } from '../core/options.js';

/** Options of `chunkwise embed`. */
export interface EmbedCommandOptions extends ChunkCommandOptions {
  embedder: string;
  batchSize: number;
  /** `lancedb:<dir>` or `pglite:<dir>`: write to a vector store instead of JSONL / .npy (see sink-cli.ts). */
  sink?: string;
  table?: string;
  /** JSONL vectors as base64 of little-endian float32 (default) or plain arrays. */
  vectorFormat?: 'base64' | 'array';
}

/**
 * Runs `chunkwise embed`. Inputs are expanded like `chunk`'s (files, directories walked
 * for `--ext`, globs, `-`); the output is opened before the model loads, so a missing
 * directory fails at once, and every write is checked (exit 1, never 0 without the output).
 * @throws {InvalidOptionError} for a batch size that is not an integer ≥ 1.
 */
export async function runEmbed(inputs: string[], o: EmbedCommandOptions): Promise<void> {
  requireInteger('batchSize', o.batchSize, 1);
  if (o.format === ('npy' as string) && (!o.out || o.out === '-')) {
    throw new UsageError('--format npy writes binary data: give --out FILE.npy');
  }
  const sink = await openCliSink(o);
  // auto: each file's strategy by its extension, as `chunk --strategy auto`
  const chunkers = new FileChunkers(o.strategy, o.strategy === AUTO_STRATEGY ? autoStrategyOptions(o) : strategyOptionsFromCli(o)).check();
  const files = await expandInputs(inputs, o.ext ?? walkExtensions(o.strategy, DEFAULT_EXTENSIONS));
  await loadDocumentPeers(files);
  const output = await Output.open(o.out);
  const embedder = await loadEmbedder(o.embedder);
  const all: { chunk: Chunk; source: string }[] = [];
  await forEachFile(files, async (file) => {
    const chunks = documentKind(file) ? await chunkDocumentFile(chunkers.for(file), file) : await chunkers.for(file).chunk((await readSource(file)).text);
    for (const chunk of chunks) all.push({ chunk, source: file });
  });
  const d = embedder.dimension;
  if (sink) await prepareCliSink(sink, d);
  const vectors = new Float32Array(all.length * d);
  const bar =
    progressWanted(o) && all.length > o.batchSize
      ? new cliProgress.SingleBar({ stream: process.stderr, format: 'embedding [{bar}] {value}/{total} chunks', clearOnComplete: true }, cliProgress.Presets.shades_classic)
      : undefined;
  bar?.start(all.length, 0);
  for (let s = 0; s < all.length; s += o.batchSize) {
    const batch = all.slice(s, s + o.batchSize).map(({ chunk }) => chunk.embedText ?? chunk.text);
    vectors.set(await embedder.embed(batch), s * d);
    bar?.update(Math.min(s + o.batchSize, all.length));
  }
  bar?.stop();
  if (sink) return writeCliSink(sink, o, files, all, vectors, d);
  if (o.format === ('npy' as string)) {
    await output.write(npyBytes(vectors, all.length, d));
    await output.close();
    return;
  }
  try {
    let buffer = '';
    for (let i = 0; i < all.length; i++) {
      const record = { ...chunkRecord(all[i].chunk, all[i].source), embedder: o.embedder, dimension: d, vector: vectorField(vectors.subarray(i * d, (i + 1) * d), o.vectorFormat) };
      buffer += JSON.stringify(record) + '\n';
      if (buffer.length > 1 << 20) {
        await output.write(buffer);
        buffer = '';
      }
    }
    if (buffer) await output.write(buffer);
  } finally {
    await output.close();
  }
}

/** A JSONL vector: base64 of little-endian float32 (default), or an array of numbers. */
function vectorField(v: Float32Array, format: EmbedCommandOptions['vectorFormat']): string | number[] {
  return format === 'array' ? Array.from(v) : f32ToBase64(v);
}
