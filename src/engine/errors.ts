/**
 * Typed errors. Every error chunkwise throws on bad input is an instance of
 * {@link ChunkwiseError}, with one subclass per kind, and names the offending value in
 * its message, so callers can `catch` a kind and users can read what to change.
 * @module
 */

/** Base class of every error chunkwise throws on purpose. */
export class ChunkwiseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * An option is missing, of the wrong type, out of range, or inconsistent with another
 * option (for example `chunkOverlap ≥ chunkSize`). `option` names it, `value` is what was given.
 */
export class InvalidOptionError extends ChunkwiseError {
  readonly option: string;
  readonly value: unknown;
  constructor(option: string, value: unknown, requirement: string) {
    super(`Invalid option ${option}: ${describe(value)} (${requirement})`);
    this.option = option;
    this.value = value;
  }
}

/** The text to chunk is not a string (or a stream yields something else). */
export class InvalidInputError extends ChunkwiseError {
  readonly value: unknown;
  constructor(what: string, value: unknown) {
    super(`Invalid input: ${what}, got ${describe(value)}`);
    this.value = value;
  }
}

/** A tokenizer encoding name that chunkwise does not know. */
export class UnknownEncodingError extends ChunkwiseError {
  readonly encoding: string;
  constructor(encoding: string, known: readonly string[]) {
    super(`Unknown encoding ${JSON.stringify(encoding)}; known encodings: ${known.join(', ')}`);
    this.encoding = encoding;
  }
}

/** The WebAssembly core could not be loaded or was used in a state it does not allow. */
export class WasmError extends ChunkwiseError {}

/** Renders a value for an error message: strings quoted, numbers as written, objects as JSON. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? value.slice(0, 77) + '…' : value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  try {
    const s = JSON.stringify(value);
    return s.length > 80 ? s.slice(0, 77) + '…' : s;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/**
 * An embedding model could not be loaded: a missing file (`model.onnx`,
 * `tokenizer.json`, `model.safetensors`), bytes that are not a valid model, a tokenizer
 * of an unknown type, a model whose outputs are not embeddings, or an unavailable
 * backend. `source` names what was being loaded (a path, a URL, a file name).
 */
export class ModelLoadError extends ChunkwiseError {
  readonly source: string;
  constructor(source: string, reason: string) {
    super(`Could not load model from ${describe(source)}: ${reason}`);
    this.source = source;
  }
}

/**
 * Embedding failed at run time: a text that is not a string, the model's inference
 * failing, or an output of an unexpected shape. `value` is the offending input or output
 * description.
 */
export class EmbeddingError extends ChunkwiseError {
  readonly value: unknown;
  constructor(message: string, value?: unknown) {
    super(value === undefined ? message : `${message}: ${describe(value)}`);
    this.value = value;
  }
}

/**
 * Evaluation data that cannot be used: a questions CSV without the `question`,
 * `references` or `corpus_id` column, a `references` cell that is not a JSON list of
 * `{content, start_index, end_index}`, a reference outside its corpus or whose
 * `content` differs from the corpus text at its offsets, or a `corpus_id` with no
 * corpus. `where` names the file, row or corpus.
 */
export class InvalidDatasetError extends ChunkwiseError {
  readonly where: string;
  constructor(where: string, reason: string) {
    super(`Invalid evaluation data (${where}): ${reason}`);
    this.where = where;
  }
}

/**
 * An encoding's rank table is not loaded and this runtime cannot read it from the
 * package synchronously (browsers, web workers, workerd, Vercel Edge; Node reads it on
 * first use). `encoding` names it. Load it first: `await loadTokenizer(encoding)`, or
 * `import 'chunkwise/encodings/<encoding>'` to bundle it for synchronous use.
 */
export class EncodingNotLoadedError extends WasmError {
  readonly encoding: string;
  constructor(encoding: string) {
    super(
      `The ${encoding} rank table is not loaded: call await loadTokenizer(${JSON.stringify(encoding)}) first, ` +
        `or bundle it for synchronous use with the side-effect module chunkwise/encodings/${encoding}`,
    );
    this.encoding = encoding;
  }
}

/**
 * An optional peer dependency that a feature needs is not installed (or cannot be
 * imported in this runtime). `packageName` names the package to install, e.g.
 * `onnxruntime-web` for `OnnxEmbedder` (`npm install onnxruntime-web`).
 */
export class MissingDependencyError extends ChunkwiseError {
  /** The first package named. */
  readonly packageName: string;
  /** Every package named: all of them needed, or (`anyOf`) any one. */
  readonly packageNames: readonly string[];
  /**
   * @param packageName the package, or several: all needed (`npm install a b`), or with
   *   `anyOf` alternatives (either one).
   * @param feature what needs it, the message's subject.
   * @param cause why it could not be imported (its message is quoted).
   * @param more `anyOf`: any one of the packages will do; `hint`: what else to do,
   *   appended after the install command (`or pass --skip-unsupported …`).
   */
  constructor(packageName: string | readonly string[], feature: string, cause?: unknown, more: { anyOf?: boolean; hint?: string } = {}) {
    const names = typeof packageName === 'string' ? [packageName] : [...packageName];
    const list = (words: readonly string[], and: string) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} ${and} ${words[words.length - 1]}` : words[0]);
    const what =
      names.length === 1 ? `the package ${names[0]}` : more.anyOf ? `one of the packages ${list(names, 'or')}` : `the packages ${list(names, 'and')}`;
    const install =
      names.length === 1
        ? `install it with npm install ${names[0]}`
        : more.anyOf
          ? `install one: ${names.map((n) => `npm install ${n}`).join(' or ')}`
          : `install them with npm install ${names.join(' ')}`;
    super(
      `${feature} needs ${what}, which could not be imported` +
        (cause === undefined ? '' : ` (${String((cause as Error)?.message ?? cause)})`) +
        `: ${install}${more.hint ? `, ${more.hint}` : ''}`,
    );
    this.packageName = names[0];
    this.packageNames = names;
  }
}

/**
 * A tree-sitter grammar (or web-tree-sitter's own runtime `.wasm`) could not be loaded:
 * a missing file or URL, bytes that are not a grammar, or a grammar built for another
 * tree-sitter ABI than the runtime reads. `language` names the grammar, `source` what
 * was being loaded (a path, a URL, `bytes`).
 */
export class GrammarLoadError extends ChunkwiseError {
  readonly language: string;
  readonly source: string;
  constructor(language: string, source: string, reason: string) {
    super(`Could not load the ${language} grammar from ${describe(source)}: ${reason}`);
    this.language = language;
    this.source = source;
  }
}

/**
 * A vector store (sink) could not be used: it cannot be opened or created (a path that
 * is a file, no permission, a missing optional package, a server without pgvector), or
 * an existing table disagrees with what is written (vector dimension, missing
 * columns). `store` names the store (`lancedb:<dir>`, `pglite:<dir>`, a table). The
 * message is one line; the CLI exits 1 with it.
 */
export class SinkError extends ChunkwiseError {
  readonly store: string;
  constructor(store: string, reason: string) {
    super(`${store}: ${reason}`);
    this.store = store;
  }
}

/**
 * A function the user gave as an option (a `splitter`, a `sizer`'s `size`, an
 * `embedder`'s `embed`, a `lengthFunction` …) threw. `option` names the option (and the
 * member called, e.g. `embedder.embed`); `cause` is what it threw, unchanged. A callback
 * that returns something unusable is an {@link InvalidOptionError} instead, naming the
 * option and what it returned.
 */
export class CallbackError extends ChunkwiseError {
  readonly option: string;
  constructor(option: string, cause: unknown) {
    super(`The ${option} option threw: ${cause instanceof Error ? `${cause.name}: ${firstLine(cause)}` : describe(cause)}`, { cause });
    this.option = option;
  }
}

/** The first line of an error's message (engines' messages can carry a backtrace). */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0].trim();
}
