/**
 * `chunkwise chunk`: reads sources, chunks each with the chosen strategy, writes JSONL
 * (one chunk per line, with its `source`) or one JSON array.
 * @module
 */
import type { Chunk } from '../chunk.js';
import { createChunker, type StrategyOptions } from '../strategies.js';
import { createProgress, Output, readSource, sourceSizes } from './io.js';
import { semanticOptionsFromCli } from './semantic-options.js';

/** Options of `chunkwise chunk`, as commander parses them. */
export interface ChunkCommandOptions {
  strategy: string;
  unit: 'char' | 'word' | 'token';
  encoding: string;
  windowSize?: number;
  stride?: number;
  chunkSize?: number;
  chunkOverlap?: number;
  allowGaps?: boolean;
  tokenCount?: boolean;
  format: 'jsonl' | 'json';
  out?: string;
  [key: string]: unknown;
}

/** Maps CLI options to strategy options (commander's camelCase names are the API's). */
export function strategyOptionsFromCli(o: ChunkCommandOptions): StrategyOptions {
  const options: StrategyOptions = { unit: o.unit, encoding: o.encoding };
  if (o.windowSize !== undefined) options.windowSize = o.windowSize;
  if (o.stride !== undefined) options.stride = o.stride;
  if (o.chunkSize !== undefined) options.chunkSize = o.chunkSize;
  if (o.chunkOverlap !== undefined) options.chunkOverlap = o.chunkOverlap;
  if (o.allowGaps) options.allowGaps = true;
  if (o.tokenCount === false) options.countTokens = false;
  if (o.locale !== undefined) options.locale = o.locale;
  if (o.overlapSentences !== undefined) options.overlapSentences = o.overlapSentences;
  if (o.separators !== undefined) options.separators = o.separators;
  if (o.keepSeparator !== undefined) options.keepSeparator = o.keepSeparator;
  return options;
}

/** A chunk as the CLI writes it: the chunk's fields plus its source. */
export function chunkRecord(chunk: Chunk, source: string): Record<string, unknown> {
  return {
    id: chunk.id,
    index: chunk.index,
    source,
    text: chunk.text,
    start: chunk.start,
    end: chunk.end,
    tokenCount: chunk.tokenCount,
    metadata: chunk.metadata,
    ...('vector' in chunk && chunk.vector instanceof Float32Array ? { vector: Array.from(chunk.vector) } : {}),
  };
}

/** Runs `chunkwise chunk`. Throws UnreadableFileError / ChunkwiseError for the CLI to map to exit codes. */
export async function runChunk(files: string[], o: ChunkCommandOptions): Promise<void> {
  const chunker = createChunker(o.strategy, { ...strategyOptionsFromCli(o), ...(await semanticOptionsFromCli(o)) });
  const sizes = await sourceSizes(files);
  const progress = createProgress(sizes.reduce((a, b) => a + b, 0), files.length);
  const output = new Output(o.out);
  try {
    if (o.format === 'json') await output.write('[');
    let first = true;
    for (let f = 0; f < files.length; f++) {
      const source = await readSource(files[f]);
      const chunks = await chunker.chunk(source.text);
      let buffer = '';
      for (const chunk of chunks) {
        const line = JSON.stringify(chunkRecord(chunk, source.name));
        if (o.format === 'json') {
          buffer += (first ? '\n' : ',\n') + line;
          first = false;
        } else buffer += line + '\n';
        if (buffer.length > 1 << 20) {
          await output.write(buffer);
          buffer = '';
        }
      }
      if (buffer) await output.write(buffer);
      progress.advance(sizes[f], source.name);
    }
    if (o.format === 'json') await output.write(first ? ']\n' : '\n]\n');
  } finally {
    progress.stop();
    await output.close();
  }
}
