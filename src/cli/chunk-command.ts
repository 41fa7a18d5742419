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
import { strategyOptionsFromFlags } from './strategy-flags.js';
import { DEFAULT_EXTENSIONS, expandInputs } from './inputs.js';
import { RecordWriter } from './record-writer.js';

/** Options of `chunkwise chunk`, as commander parses them (strategy options under their schema names). */
export interface ChunkCommandOptions {
  strategy: string;
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

/**
 * Maps CLI options to strategy options: the generated flags (`strategy-flags.ts`) the
 * chosen strategy takes.
 * @throws {UsageError} for a flag the strategy does not take.
 */
export function strategyOptionsFromCli(o: ChunkCommandOptions): StrategyOptions {
  return strategyOptionsFromFlags(o.strategy, o);
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
