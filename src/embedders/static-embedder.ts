/**
 * Static (Model2Vec-style) embeddings: one vector per vocabulary token, averaged.
 * @module
 */
import { readModelSource } from './model-source.js';
import { gatherMeanRows, kernelsWasmBytes, Kernels, type WasmArray } from '../../bindings/index.js';
import { EmbeddingError, InvalidOptionError, ModelLoadError } from '../engine/errors.js';
import { importNodeHelper } from '../engine/runtime.js';
import type { HfTokenizer } from './hf-tokenizer.js';
import { parseSafetensors, tensorToF32 } from './safetensors.js';
import type { Embedder, TruncationEvent } from './types.js';

/** A Model2Vec model in memory. JSON may be given parsed or as text. */
export interface StaticModelBytes {
  /** `model.safetensors` holding `embeddings` [vocab × d] (F32, F16 or BF16) and optionally `weights` [vocab]. */
  safetensors: Uint8Array;
  /** `tokenizer.json`. */
  tokenizer: object | string;
  /** `config.json` (Model2Vec's `normalize` flag). */
  config?: object | string;
}

/** Options of {@link StaticEmbedder.load}. */
export interface StaticEmbedderOptions {
  /** L2-normalise output rows. Default: config.json's `normalize`, else true. */
  normalize?: boolean;
  /** Most tokens read per text (longer texts are truncated and reported). Default 100000. */
  maxTokens?: number;
  /** Called per truncated text. */
  onTruncate?: (event: TruncationEvent) => void;
  /** The fetch used for URL sources. */
  fetch?: typeof fetch;
}

function json(v: object | string | undefined, name: string, source: string): Record<string, unknown> | undefined {
  if (v === undefined || typeof v === 'object') return v as Record<string, unknown> | undefined;
  try {
    return JSON.parse(v) as Record<string, unknown>;
  } catch {
    throw new ModelLoadError(source, `${name} is not valid JSON`);
  }
}

/**
 * Embeds with a static embedding table in the Model2Vec format (a folder with
 * `model.safetensors` + `tokenizer.json` [+ `config.json`]): each text is tokenised
 * without special tokens, its tokens' rows are averaged (weighted by the optional
 * `weights` tensor) and the mean is L2-normalised. The gathering and averaging run
 * in the WASM core (`gatherMeanRows`), with the table resident in a private kernels
 * instance. Fast and semantic to a degree (distilled from a sentence transformer),
 * but blind to word order. Text with no known token gets the zero vector.
 */
export class StaticEmbedder implements Embedder {
  /** Vector length d. */
  readonly dimension: number;
  /** Vocabulary size. */
  readonly vocabSize: number;
  /** Most tokens read per text. */
  readonly maxTokens: number;
  /** Texts truncated since load. */
  truncationCount = 0;
  /** Identity: `static:<model folder, URL or (bytes)>:<dimension>` (see `Embedder.id`). */
  readonly id: string;
  readonly #kernels: Kernels;
  readonly #table: WasmArray<Float32ArrayConstructor>;
  readonly #weights: WasmArray<Float32ArrayConstructor> | null;
  readonly #tokenizer: HfTokenizer;
  readonly #normalize: boolean;
  readonly #onTruncate?: (event: TruncationEvent) => void;

  private constructor(tokenizer: HfTokenizer, table: Float32Array, vocab: number, d: number, weights: Float32Array | null, normalize: boolean, options: StaticEmbedderOptions, name: string) {
    this.id = `static:${name}:${d}${normalize ? '' : ':raw'}`;
    this.#kernels = Kernels.fromModule(new WebAssembly.Module(kernelsWasmBytes() as BufferSource), { retainBytes: Number.MAX_SAFE_INTEGER });
    this.#table = this.#kernels.copyF32(table);
    this.#weights = weights ? this.#kernels.copyF32(weights) : null;
    this.#tokenizer = tokenizer;
    this.dimension = d;
    this.vocabSize = vocab;
    this.#normalize = normalize;
    this.maxTokens = options.maxTokens ?? 100_000;
    this.#onTruncate = options.onTruncate;
  }

  /**
   * Loads a Model2Vec model from a folder path (Node), a base URL, or bytes.
   * @throws {ModelLoadError} for a missing or malformed `model.safetensors` /
   *   `tokenizer.json`, no `embeddings` tensor, or a vocabulary larger than the table.
   */
  static async load(source: string | URL | StaticModelBytes, options: StaticEmbedderOptions = {}): Promise<StaticEmbedder> {
    if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens >= 1)) {
      throw new InvalidOptionError('maxTokens', options.maxTokens, 'an integer ≥ 1');
    }
    const { name, bytes } = await readModelSource<StaticModelBytes>(source, {
      url: (url) => fetchStaticFolder(url, options),
      folder: async (path) => {
        const helper = await importNodeHelper<{ readStaticFolder(dir: string): Promise<StaticModelBytes> }>('embedders/node/model-folder');
        return helper.readStaticFolder(path);
      },
      isBytes: (v): v is StaticModelBytes => !!v && typeof v === 'object' && (v as StaticModelBytes).safetensors instanceof Uint8Array,
      expected: 'expected a folder path, a URL or { safetensors: Uint8Array, tokenizer }',
    });
    const st = parseSafetensors(bytes.safetensors, name);
    const { shape, values } = tensorToF32(st, 'embeddings', name);
    if (shape.length !== 2 || shape[1] < 1) throw new ModelLoadError(name, `embeddings has shape [${shape.join(', ')}], expected [vocab, d]`);
    const [vocab, d] = shape;
    let weights: Float32Array | null = null;
    if (st.tensors.weights) {
      const w = tensorToF32(st, 'weights', name);
      if (w.values.length !== vocab) throw new ModelLoadError(name, `weights has ${w.values.length} entries for a vocabulary of ${vocab}`);
      weights = w.values;
    }
    // @huggingface/tokenizers loads here, on first use, not when chunkwise is imported.
    const { HfTokenizer } = await import('./hf-tokenizer.js');
    const tokenizer = new HfTokenizer(json(bytes.tokenizer, 'tokenizer.json', name), {}, name);
    const config = json(bytes.config, 'config.json', name);
    const normalize = options.normalize ?? (typeof config?.normalize === 'boolean' ? config.normalize : true);
    return new StaticEmbedder(tokenizer, values, vocab, d, weights, normalize, options, name);
  }

  /**
   * Embeds a batch synchronously.
   * @returns n × d row-major Float32Array (L2-normalised by default; zero rows for texts without tokens).
   * @throws {EmbeddingError} if a text is not a string.
   */
  embedSync(texts: string[]): Float32Array {
    if (!Array.isArray(texts)) throw new EmbeddingError('embed() takes an array of strings', texts);
    const offsets = new Int32Array(texts.length + 1);
    const all: number[] = [];
    texts.forEach((text, i) => {
      if (typeof text !== 'string') throw new EmbeddingError(`Text ${i} is not a string`, text);
      let ids = this.#tokenizer.contentIds(text);
      if (ids.length > this.maxTokens) {
        this.truncationCount++;
        if (this.#onTruncate) {
          const { tokens } = this.#tokenizer.content(text);
          const offsets = this.#tokenizer.alignOffsets(text, tokens.slice(0, this.maxTokens));
          let kept = 0;
          for (let k = 1; k < offsets.length; k += 2) kept = Math.max(kept, offsets[k]);
          this.#onTruncate({ index: i, tokens: ids.length, maxTokens: this.maxTokens, keptChars: kept, chars: text.length });
        }
        ids = ids.slice(0, this.maxTokens);
      }
      for (const id of ids) all.push(id);
      offsets[i + 1] = all.length;
    });
    return gatherMeanRows(this.#kernels, this.#table, this.vocabSize, this.dimension, this.#weights, Int32Array.from(all), offsets, this.#normalize);
  }

  /** {@link embedSync} as a promise (the {@link Embedder} interface). */
  async embed(texts: string[]): Promise<Float32Array> {
    return this.embedSync(texts);
  }
}

/** The files of a Model2Vec folder under base URL `name` (`config.json` optional). */
async function fetchStaticFolder(name: string, options: StaticEmbedderOptions): Promise<StaticModelBytes> {
  const root = name.endsWith('/') ? name : name + '/';
  const f = options.fetch ?? globalThis.fetch;
  const get = async (file: string, required: boolean) => {
    const r = await f(new URL(file, root).href).catch((cause) => {
      if (required) throw new ModelLoadError(root + file, `fetch failed: ${String(cause)}`);
      return undefined;
    });
    if (!r?.ok) {
      if (required) throw new ModelLoadError(root + file, `HTTP ${r?.status}`);
      return undefined;
    }
    return r;
  };
  const [s, t, c] = await Promise.all([get('model.safetensors', true), get('tokenizer.json', true), get('config.json', false)]);
  return { safetensors: new Uint8Array(await s!.arrayBuffer()), tokenizer: await t!.text(), config: c ? await c.text() : undefined };
}
