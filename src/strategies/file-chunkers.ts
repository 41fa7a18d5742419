/**
 * {@link FileChunkers}: the chunker of each file by its name — one strategy for all, or
 * `auto`, which picks the strategy by the file's extension (the CLI's `--strategy auto`
 * and `pipeline({ chunker: 'auto' })`). Core module: no Node built-in.
 * @module
 */
import { createChunker, strategies, strategyForFile, type StrategyOptions } from './index.js';
import type { Chunker } from '../engine/chunker.js';
import { documentKind, DOCUMENT_STRATEGIES } from '../engine/document-kinds.js';

/** The pseudo-strategy that picks a strategy per file by its extension (`--strategy auto`, the CLI's default). */
export const AUTO_STRATEGY = 'auto';

/** The strategy `auto` gives stdin and files of no registered extension. */
export const AUTO_FALLBACK = 'fixed';

/**
 * What `auto` picks, in one line from the registry (each strategy's `extensions`, the
 * documents' strategies, the fallback): `.md/.markdown/.mdx markdown, …, .pdf recursive
 * (its text), .docx html (its HTML); stdin and other files fixed`. The CLI's `--help`
 * shows it.
 */
export function describeAuto(fallback = AUTO_FALLBACK): string {
  const picks = strategies()
    .filter((d) => d.extensions?.length)
    .map((d) => `${d.extensions!.length > 4 ? `${d.extensions!.slice(0, 3).join('/')}/… (${d.extensions!.length} extensions)` : d.extensions!.join('/')} ${d.name}`);
  const documents = Object.entries(DOCUMENT_STRATEGIES).map(([ext, name]) => `${ext} ${name} (${ext === '.pdf' ? 'its text' : 'its HTML'})`);
  return `${[...picks, ...documents].join(', ')}; stdin and other files ${fallback}`;
}

/**
 * Options of {@link FileChunkers}: the strategy's options, or for `auto` the options of
 * each strategy it may pick, by strategy name (as `autoStrategyOptions` in the CLI makes
 * them: each gets the given flags its schema takes).
 */
export type FileChunkerOptions = StrategyOptions | Readonly<Record<string, StrategyOptions>>;

/**
 * The chunker of each file: one per strategy, except that `auto` chooses the strategy by
 * the file's extension ({@link strategyForFile}: `.md` → markdown, `.html`/`.htm` → html,
 * source extensions → code, `.txt` → recursive, `.pdf` → recursive over the extracted
 * text, `.docx` → html over mammoth's HTML, other files and stdin → `fallback`) with
 * that strategy's entry of the options, and the code strategy gets the file's name (its
 * language and context header) unless `filename` is given.
 */
export class FileChunkers {
  readonly #cache = new Map<string, Chunker>();
  readonly #byName: Readonly<Record<string, StrategyOptions>>;
  constructor(
    readonly strategy: string,
    options: FileChunkerOptions,
    readonly fallback = AUTO_FALLBACK,
  ) {
    this.#byName = strategy === AUTO_STRATEGY ? (options as Readonly<Record<string, StrategyOptions>>) : { [strategy]: options as StrategyOptions };
  }

  /**
   * Builds every strategy's chunker once, so bad options fail before any work (`code`,
   * which takes its language from each file, with a stand-in language when none is given).
   * @throws {InvalidOptionError} for options a strategy rejects.
   */
  check(): this {
    for (const [name, o] of Object.entries(this.#byName)) {
      createChunker(name, name === 'code' && o.language === undefined && o.filename === undefined ? { ...o, language: 'typescript' } : o);
    }
    return this;
  }

  /**
   * The strategy and options for `file` (`-`: stdin); `document` is its document kind when
   * known otherwise than by its name (PDF or Word bytes, sniffed).
   */
  plan(file: string, document: '.pdf' | '.docx' | undefined = documentKind(file)): { strategy: string; options: StrategyOptions } {
    const strategy = this.strategy === AUTO_STRATEGY ? (file === '-' ? this.fallback : document ? DOCUMENT_STRATEGIES[document] : strategyForFile(file, this.fallback)) : this.strategy;
    let options = this.#byName[strategy] ?? {};
    if (strategy === 'code' && options.filename === undefined && file !== '-') options = { ...options, filename: file };
    return { strategy, options };
  }

  /**
   * The chunker for `file` (`document`: as for {@link FileChunkers.plan}).
   * @throws {InvalidOptionError} for options the chosen strategy rejects (code: a file of
   *   no known language without `language`).
   */
  for(file: string, document: '.pdf' | '.docx' | undefined = documentKind(file)): Chunker {
    const { strategy, options } = this.plan(file, document);
    if (strategy === 'code' && options.filename !== this.#byName.code?.filename) return createChunker(strategy, options);
    let chunker = this.#cache.get(strategy);
    if (!chunker) this.#cache.set(strategy, (chunker = createChunker(strategy, options)));
    return chunker;
  }
}
