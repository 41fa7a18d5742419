/**
 * `chunkwise chunk`: reads sources, chunks each with the chosen strategy, writes JSONL
 * (one chunk per line, with its `source`) or one JSON array.
 * @module
 */
import { InvalidOptionError } from '../core/errors.js';
import { chunkFilesWithWorkers } from '../node/batch.js';
import { AUTO_STRATEGY, chunkFileRecords, FileChunkers, walkExtensions } from '../node/chunk-file.js';
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

/**
 * Builds the chunker once to validate the options before any work; `auto` and `code`
 * choose per file (`code` needs a file's extension unless `--language` is given, so it
 * is checked here with a stand-in language).
 */
function validateChunker(strategy: string, options: StrategyOptions): void {
  if (strategy === AUTO_STRATEGY) return;
  createChunker(strategy, strategy === 'code' && options.language === undefined && options.filename === undefined ? { ...options, language: 'typescript' } : options);
}

export { chunkRecord } from '../node/chunk-file.js';

/**
 * Runs `chunkwise chunk`. Inputs are files, directories (walked for `--ext`, default
 * .md/.txt, for `code` source files, for `auto` every strategy's extensions) and globs
 * (see inputs.ts). `--strategy auto` chooses per file by extension (`.md` markdown,
 * source files code, …, else fixed); `code` takes each file's name for its language.
 * Every file is streamed through the chunker when the strategy streams (sliding, fixed: output identical to chunking the whole text).
 * With `--workers N` > 1, files are spread over N worker threads; the output is
 * byte-identical to the single-process run.
 * Throws UnreadableFileError / ChunkwiseError for the CLI to map to exit codes.
 */
export async function runChunk(inputs: string[], o: ChunkCommandOptions): Promise<void> {
  const semantic = await semanticOptionsFromCli(o);
  const strategyOptions = { ...strategyOptionsFromCli(o), ...semantic };
  validateChunker(o.strategy, strategyOptions); // before any work
  const chunkers = new FileChunkers(o.strategy, strategyOptions);
  const workers = o.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) throw new InvalidOptionError('workers', workers, 'must be an integer ≥ 1');
  if (workers > 1 && semantic.embedder !== undefined) {
    throw new UsageError('--workers > 1 cannot share a loaded --embedder between threads; use --workers 1');
  }
  const files = await expandInputs(inputs, o.ext ?? walkExtensions(o.strategy, DEFAULT_EXTENSIONS));
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
          await chunkFileRecords(chunkers.for(files[f]), files[f], (records) => writer.write(records));
          progress.advance(sizes[f], files[f]);
        }
      }
      await writer.end();
    });
  } finally {
    progress.stop();
  }
}
