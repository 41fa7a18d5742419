/**
 * The `chunkwise` command line (Node only).
 *
 *   chunkwise chunk <file...|-> [--strategy auto|sliding|fixed|…] --unit char|word|token
 *     [--encoding cl100k_base|o200k_base] [--window-size N --stride N | --chunk-size N --chunk-overlap N]
 *     [--locale TAG --overlap-sentences N] (sentence) [--separators JSON --keep-separator [MODE]] (recursive)
 *     [--fallback sliding] [--contextual-headers] (markdown)
 *     [--parent-size N --child-size N --child-overlap N --markdown auto|true|false] (parent-child)
 *     [--format jsonl|json] [--out FILE]
 *   chunkwise chunk <file...> --strategy semantic [--embedder SPEC] [--breakpoint T --threshold X --max-chunk-size N]
 *   chunkwise chunk <file...> --strategy late --embedder onnx:<folder> [--spans fixed|sliding|… --chunk-size N]
 *   chunkwise qasc <file...> --query "…" [--top-k N] [--mode hybrid|whole] [--candidates K] [--embedder SPEC] [--explain]
 *     [--p --m --lambda --kappa --window --secondary-percentile --max-radius --align-distance --max-chunk-size --min-similarity --locale auto|TAG]
 *   chunkwise chunk <dir|glob...> [--ext md,txt] [--workers N]   (directories walked, files streamed;
 *     with --workers N > 1 files are spread over worker threads, output in the same order)
 *   chunkwise eval --corpora <files...> --questions <csv> --strategy <name:size:overlap>… [--embedder hashing] [--top-k 5]
 *     [--per-corpus] [--json FILE] [--svg FILE] [--out FILE]
 *   chunkwise tune <corpora...> --questions <csv> [--budget 5m] [--embedder SPEC] [--strategies …] [--sizes …] [--overlaps …]
 *     [--qasc-windows …] [--recall-tolerance 1] [--out DIR] [--generate N --chat-model NAME --chat-url URL]
 *
 * Exit codes: 0 success; 1 a file could not be read or written (or a model loaded, or an
 * optional package a strategy needs is not installed, or an embedder failed (a network
 * error, a bad answer), or a queue job failed or was not
 * taken by a worker within `--wait-timeout`); 2 a usage error (unknown option,
 * bad value). Either is one line on stderr in one style
 * (`chunkwise: …`, see errors.ts), without a stack trace; every command takes `--quiet`
 * and `--no-progress`.
 * @module
 */
import { Command, CommanderError, Option } from 'commander';
import { ChunkwiseError, EmbeddingError, MissingDependencyError, ModelLoadError, SinkError } from '../../engine/errors.js';
import { DocumentError } from '../../documents/document-error.js';
import { VERSION } from '../../engine/version.js';
import { JobsFailedError, QueueUnavailableError, WaitTimeoutError } from '../queue/queue.js';
import { runChunk, type ChunkCommandOptions } from './chunk-command.js';
import { runEval, type EvalCommandOptions } from './eval-command.js';
import { UnreadableFileError, UnwritableFileError } from './io.js';
import { cliMessage, fsReason } from './errors.js';
import { addQuietOptions } from './quiet.js';
import { runEmbed, type EmbedCommandOptions } from './embed-cli.js';
import { UsageError } from './usage-error.js';
import { DEFAULT_EXTENSIONS, parseExtensions } from './inputs.js';
import { strategyNames } from '../../strategies/index.js';
import { AUTO_STRATEGY, describeAuto } from '../../strategies/file-chunkers.js';
import { addQascCommand } from './qasc-command.js';
import { addTuneCommand } from './tune-command.js';
import { QuestionGenerationError } from '../../evaluation/question-generation.js';
import { addEnqueueOptions, addQueueCommands, runEnqueue } from './queue-command.js';
import { addSemanticOptions } from './semantic-options.js';
import { addStrategyFlags, parseIntegerArg, parsePositiveIntegerArg } from './strategy-flags.js';

export { UsageError };

export { parseIntegerArg } from './strategy-flags.js';

/** `--strategy`: a registered strategy, or `auto` (the default: each file's by its extension, `FileChunkers`). */
function strategyOption(): Option {
  return new Option('-s, --strategy <name>', `chunking strategy; auto picks by file extension: ${describeAuto()}`)
    .choices([...strategyNames(), AUTO_STRATEGY])
    .default(AUTO_STRATEGY);
}

/** Builds the program (exported for tests). */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('chunkwise')
    .description('Chunk documents for retrieval-augmented generation, with exact offsets.')
    .version(VERSION)
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeErr: (s) => process.stderr.write(s),
      outputError: (s, write) => write(`chunkwise: ${cliMessage(s)}\n`),
    });

  // a command over files with --strategy and every strategy's flags
  const filesCommand = (name: string, description: string, files: string) =>
    addStrategyFlags(program.command(name).description(description).argument('<files...>', files).addOption(strategyOption()))
      .option('--input-encoding <label>', 'encoding of text files without a UTF-16 byte order mark (latin1, windows-1252, utf-16le, shift_jis …); default UTF-8, and a file that is not valid UTF-8 is an error')
      .option('--pdf-password <password>', 'password of encrypted PDF inputs');
  const chunkCommand = filesCommand('chunk', 'chunk files (or stdin for -) and write one chunk per line (JSONL) or a JSON array', 'files, directories (walked recursively) or globs to chunk; - reads stdin');
  chunkCommand
    .addOption(new Option('-f, --format <format>', 'output format').choices(['jsonl', 'json']).default('jsonl'))
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .option('-w, --workers <n>', 'worker threads for many files (output order stays the files\' sorted order)', parseIntegerArg, 1)
    .option('--ext <list>', `extensions picked when walking a directory (comma-separated) [default: ${DEFAULT_EXTENSIONS.join(',')}; with markdown also .markdown,.mdx; code: source files; html: .html,.htm,.xhtml; auto: every strategy's]`, parseExtensions)
    .option('--skip-unsupported', 'leave out the files whose strategy needs an optional package that is not installed (said on stderr) instead of failing')
    .action(async (files: string[], options: ChunkCommandOptions) => {
      await runChunk(files, options);
    });
  const embedCommand = filesCommand('embed', 'chunk files, embed every chunk, write chunks with vectors (JSONL, base64 float32) or an .npy matrix', 'files, directories (walked recursively) or globs to chunk and embed; - reads stdin');
  embedCommand
    .option('--embedder <spec>', 'hashing | hashing:<dim> | onnx:<folder> | static:<folder> | openai:<model> | transformers:<folder>', 'hashing')
    .option('--sink <spec>', 'write chunks and vectors to a vector store instead: lancedb:<dir>, pglite:<dir> or postgres://user@host:port/db[?table=name] (synced per file: unchanged chunks are kept, not embedded again; a changed file replaces its chunks)')
    .option('--table <name>', 'table of --sink (default chunks)')
    .option('--prune', 'with --sink: delete the rows of files this run did not see (the inputs are the whole corpus)')
    .addOption(new Option('--summary <format>', 'summary on stderr at the end: one line (default with --sink), JSON, or none (default without --sink)').choices(['text', 'json', 'none']))
    .addOption(new Option('--vector-format <format>', 'JSONL vectors: base64 of little-endian float32, or arrays of numbers').choices(['base64', 'array']).default('base64'))
    .option('--batch-size <n>', 'chunks per embedding call', parseIntegerArg, 64)
    .addOption(new Option('-f, --format <format>', 'output format').choices(['jsonl', 'npy']).default('jsonl'))
    .option('-o, --out <file>', 'write to a file instead of stdout (required for npy)')
    .option('--ext <list>', `extensions picked when walking a directory (comma-separated) [default: ${DEFAULT_EXTENSIONS.join(',')}; with markdown also .markdown,.mdx; code: source files; html: .html,.htm,.xhtml; auto: every strategy's]`, parseExtensions)
    .option('--skip-unsupported', 'leave out the files whose strategy needs an optional package that is not installed (said on stderr) instead of failing');
  addEnqueueOptions(embedCommand).action(async (files: string[], options: EmbedCommandOptions & { queue?: string; queueName?: string; batchFiles?: number; wait?: boolean; waitTimeout?: number }) => {
    if (options.queue !== undefined) return runEnqueue(files, options);
    if (options.wait || options.waitTimeout !== undefined || options.batchFiles !== undefined || options.queueName !== undefined) throw new UsageError('--wait, --wait-timeout, --batch-files and --queue-name go with --queue redis://…');
    await runEmbed(files, options);
  });
  addSemanticOptions(chunkCommand);
  addQascCommand(program);
  addQueueCommands(program);

  program
    .command('eval')
    .description('measure retrieval quality (recall, precision, IoU over characters) of chunking strategies on corpora and questions')
    .requiredOption('--corpora <files...>', 'corpus files; a question\'s corpus_id is a file\'s base name without extension')
    .requiredOption('--questions <csv>', 'questions CSV with columns question, references, corpus_id')
    .option('-s, --strategy <spec>', 'strategy as name:size:overlap in tokens (repeatable), e.g. fixed:800:400', (v: string, prev: string[] = []) => [...prev, v])
    .option('--embedder <spec>', 'hashing, hashing:<dim>, onnx:<folder> or static:<folder>', 'hashing')
    .option('-k, --top-k <n>', 'chunks retrieved per question', parsePositiveIntegerArg, 5)
    .option('--per-corpus', 'also print a table per corpus')
    .option('--json <file>', 'write all results (with per-question scores) as JSON')
    .option('--svg <file>', 'write a chart of recall against IoU as SVG')
    .option('-o, --out <file>', 'write the Markdown table to a file instead of stdout')
    .action(async (options: EvalCommandOptions) => {
      if (!options.strategy?.length) throw new UsageError('give at least one --strategy, e.g. --strategy fixed:400:200');
      await runEval(options);
    });
  addTuneCommand(program);
  for (const command of program.commands) addQuietOptions(command);
  return program;
}

/** Runs the CLI with `argv` (as process.argv) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  let running: Command = program;
  program.hook('preAction', (_program, command) => {
    running = command;
  });
  const report = (message: string) => process.stderr.write(`chunkwise: ${cliMessage(message, running.options)}\n`);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version exit 0; commander has already printed its message
      return error.exitCode === 0 ? 0 : 2;
    }
    // the reader of stdout went away (`| head`): nothing more to write, not an error
    if (error instanceof UnwritableFileError && error.path === '-' && error.code === 'EPIPE') return 0;
    if (error instanceof UnreadableFileError || error instanceof UnwritableFileError || error instanceof ModelLoadError || error instanceof EmbeddingError || error instanceof MissingDependencyError || error instanceof DocumentError || error instanceof QueueUnavailableError || error instanceof JobsFailedError || error instanceof WaitTimeoutError || error instanceof QuestionGenerationError) {
      report(error.message);
      return 1;
    }
    if (error instanceof SinkError) {
      process.stderr.write(`chunkwise: ${error.message}\n`);
      return 1;
    }
    if (error instanceof UsageError || error instanceof ChunkwiseError) {
      report(error.message);
      return 2;
    }
    if (error instanceof Error && 'code' in error && typeof (error as NodeJS.ErrnoException).code === 'string') {
      const path = (error as NodeJS.ErrnoException).path;
      report(path ? `${path}: ${fsReason(error)}` : fsReason(error));
      return 1;
    }
    throw error;
  }
}
