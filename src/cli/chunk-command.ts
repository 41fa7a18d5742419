/**
 * `chunkwise chunk`: reads sources, chunks each with the chosen strategy, writes JSONL
 * (one chunk per line, with its `source`) or one JSON array.
 * @module
 */
import { InvalidOptionError } from '../core/errors.js';
import { chunkFilesWithWorkers } from '../node/batch.js';
import { chunkFileRecords } from '../node/chunk-file.js';
import { createChunker, type StrategyOptions } from '../strategies/registry.js';
import { createProgress, Output, progressWanted, sourceSizes } from './io.js';
import { semanticOptionsFromCli } from './semantic-options.js';
import { UsageError } from './usage-error.js';
import { DEFAULT_EXTENSIONS, expandInputs } from './inputs.js';
import { RecordWriter } from './record-writer.js';

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
  /** `--quiet`: nothing on stderr but errors. */
  quiet?: boolean;
  /** False with `--no-progress`. */
  progress?: boolean;
  /** Worker threads for many files (default 1: no workers). */
  workers?: number;
  /** Extensions a directory walk picks (default .md, .txt). */
  ext?: string[];
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
  if (o.fallback !== undefined) options.fallback = o.fallback;
  if (o.contextualHeaders) options.contextualHeaders = true;
  if (o.parentSize !== undefined) options.parentSize = o.parentSize;
  if (o.childSize !== undefined) options.childSize = o.childSize;
  if (o.childOverlap !== undefined) options.childOverlap = o.childOverlap;
  if (o.markdown !== undefined) options.markdown = o.markdown === 'auto' ? 'auto' : o.markdown === 'true';
  return options;
}

export { chunkRecord } from '../node/chunk-file.js';

/**
 * Runs `chunkwise chunk`. Inputs are files, directories (walked for `--ext`, default
 * .md/.txt) and globs (see inputs.ts). Every file is streamed through the chunker when
 * the strategy streams (sliding, fixed: output identical to chunking the whole text).
 * With `--workers N` > 1, files are spread over N worker threads; the output is
 * byte-identical to the single-process run.
 * Throws UnreadableFileError / ChunkwiseError for the CLI to map to exit codes.
 */
export async function runChunk(inputs: string[], o: ChunkCommandOptions): Promise<void> {
  const semantic = await semanticOptionsFromCli(o);
  const strategyOptions = { ...strategyOptionsFromCli(o), ...semantic };
  const chunker = createChunker(o.strategy, strategyOptions); // validates options before any work
  const workers = o.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) throw new InvalidOptionError('workers', workers, 'must be an integer ≥ 1');
  if (workers > 1 && semantic.embedder !== undefined) {
    throw new UsageError('--workers > 1 cannot share a loaded --embedder between threads; use --workers 1');
  }
  const files = await expandInputs(inputs, o.ext ?? DEFAULT_EXTENSIONS);
  const sizes = await sourceSizes(files);
  const progress = createProgress(sizes.reduce((a, b) => a + b, 0), files.length, progressWanted(o));
  try {
    await Output.writeWith(o.out, async (output) => {
      const writer = new RecordWriter(output, o.format);
      await writer.begin();
      if (workers > 1 && files.length > 1 && !files.includes('-')) {
        await chunkFilesWithWorkers(files, {
          strategy: o.strategy,
          options: strategyOptions,
          workers,
          write: (records) => writer.write(records),
          progress,
          sizes,
        });
      } else {
        for (let f = 0; f < files.length; f++) {
          await chunkFileRecords(chunker, files[f], (records) => writer.write(records));
          progress.advance(sizes[f], files[f]);
        }
      }
      await writer.end();
    });
  } finally {
    progress.stop();
  }
}
