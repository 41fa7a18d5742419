/**
 * `chunkwise chunk`: reads sources, chunks each with the chosen strategy, writes JSONL
 * (one chunk per line, with its `source`) or one JSON array.
 * @module
 */
import { InvalidOptionError } from '../core/errors.js';
import { chunkFilesWithWorkers } from '../node/batch.js';
import { AUTO_STRATEGY, chunkFileRecords, FileChunkers, walkExtensions } from '../node/chunk-file.js';
import { forEachFile, loadDocumentPeers } from '../node/documents.js';
import { LazyCodeChunker } from '../strategies/code-schema.js';
import type { StrategyOptions } from '../strategies/registry.js';
import { createProgress, Output, progressWanted, sourceSizes } from './io.js';
import { semanticOptionsFromCli } from './semantic-options.js';
import { UsageError } from './usage-error.js';
import { autoStrategyOptions, strategyOptionsFromFlags } from './strategy-flags.js';
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
 * Loads what the chunkers of `files` load on first use (the code strategy's tree-sitter
 * and grammars) before anything is written, so a missing optional peer is an error up
 * front, not after the other files' chunks (`--strategy auto` on a folder of Markdown and
 * TypeScript without web-tree-sitter wrote the Markdown chunks, then failed).
 * @throws {MissingDependencyError | GrammarLoadError} as the chunker does.
 */
export async function loadPeersFirst(chunkers: FileChunkers, files: readonly string[]): Promise<void> {
  const seen = new Set<unknown>();
  for (const f of files) {
    const c = chunkers.for(f);
    if (seen.has(c)) continue;
    seen.add(c);
    if (c instanceof LazyCodeChunker) await c.chunk('');
  }
}

/**
 * Runs `chunkwise chunk`. Inputs are files, directories (walked for `--ext`, default
 * .md/.txt, for `code` source files, for `auto` every strategy's extensions) and globs
 * (see inputs.ts). `--strategy auto` chooses per file by extension (`.md` markdown,
 * `.html`/`.htm` html, source files code, `.txt` recursive, else fixed: `FileChunkers`)
 * and gives each the flags it takes; `code` takes each file's name for its language.
 * Every file is streamed through the chunker when the strategy streams (sliding, fixed: output identical to chunking the whole text).
 * With `--workers N` > 1, files are spread over N worker threads; the output is
 * byte-identical to the single-process run.
 * Throws UnreadableFileError / ChunkwiseError for the CLI to map to exit codes.
 */
export async function runChunk(inputs: string[], o: ChunkCommandOptions): Promise<void> {
  const semantic = await semanticOptionsFromCli(o);
  if (o.strategy === AUTO_STRATEGY && Object.keys(semantic).length > 0) throw new UsageError('--strategy auto picks no strategy that takes an --embedder');
  // auto: each file's strategy by its extension, with the flags it takes
  const strategyOptions = o.strategy === AUTO_STRATEGY ? autoStrategyOptions(o) : { ...strategyOptionsFromCli(o), ...semantic };
  const chunkers = new FileChunkers(o.strategy, strategyOptions).check(); // validates options before any work
  const workers = o.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) throw new InvalidOptionError('workers', workers, 'must be an integer ≥ 1');
  if (workers > 1 && semantic.embedder !== undefined) {
    throw new UsageError('--workers > 1 cannot share a loaded --embedder between threads; use --workers 1');
  }
  const files = await expandInputs(inputs, o.ext ?? walkExtensions(o.strategy, DEFAULT_EXTENSIONS));
  const sizes = await sourceSizes(files);
  await loadPeersFirst(chunkers, files);
  await loadDocumentPeers(files);
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
        await forEachFile(files, async (file, f) => {
          await chunkFileRecords(chunkers.for(file), file, (records) => writer.write(records));
          progress.advance(sizes[f], file);
        });
      }
      await writer.end();
    });
  } finally {
    progress.stop();
  }
}
