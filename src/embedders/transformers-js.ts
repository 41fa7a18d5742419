/**
 * `chunkwise/transformers`: {@link TransformersJsEmbedder}, an {@link Embedder} over
 * Transformers.js (`@huggingface/transformers`, an optional peer dependency; tested with
 * 4.3.1): its `feature-extraction` pipeline over a model folder you have locally. Remote
 * models are switched off (`env.allowRemoteModels = false`, `local_files_only`):
 * nothing is downloaded.
 *
 * The folder is the Hugging Face layout Transformers.js reads: `config.json`,
 * `tokenizer.json`, `tokenizer_config.json`, and `onnx/model.onnx` (`dtype: 'fp32'`;
 * `onnx/model_quantized.onnx` for `'q8'`, …).
 * @module
 */
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { EmbeddingError, InvalidOptionError, ModelLoadError, firstLine } from '../engine/errors.js';
import { requireTexts } from './texts.js';
import type { Embedder } from './types.js';

/** Pooling of token vectors into one vector per text (the pipeline's `pooling`). */
export type TransformersPooling = 'mean' | 'cls' | 'first_token' | 'last_token' | 'eos';

/** A text longer than the model reads, reported by {@link TransformersJsEmbedderOptions.onTruncate}. */
export interface TransformersTruncation {
  /** Index of the text in the batch given to `embed`. */
  index: number;
  /** Tokens of the text (special tokens included). */
  tokens: number;
  /** Tokens the model reads (`model_max_length`); the rest is cut off. */
  maxTokens: number;
  /** Length of the text in UTF-16 code units. */
  chars: number;
}

/** Options of {@link TransformersJsEmbedder.load}. */
export interface TransformersJsEmbedderOptions {
  /** Pooling (default `'mean'`, what sentence-transformers models use; `'cls'` for BGE-style models). */
  pooling?: TransformersPooling;
  /** L2-normalise each vector (default true). */
  normalize?: boolean;
  /** Texts per pipeline call, 1 … 4096 (default 32). */
  batchSize?: number;
  /** Weights to load: `'fp32'` (default, `onnx/model.onnx`), `'fp16'`, `'q8'`, `'int8'`, `'uint8'`, `'q4'`, … */
  dtype?: string;
  /** Device: `'cpu'` (default in Node), `'wasm'`, `'webgpu'` … */
  device?: string;
  /** Called for each text longer than the model reads (it is truncated, as the pipeline does). */
  onTruncate?: (event: TransformersTruncation) => void;
}

const POOLINGS: readonly TransformersPooling[] = ['mean', 'cls', 'first_token', 'last_token', 'eos'];

interface TokenizerLike {
  encode(text: string): number[];
  model_max_length?: number;
}

/**
 * Sentence embeddings from a local model through Transformers.js.
 *
 * @example
 * ```ts
 * import { TransformersJsEmbedder } from 'chunkwise/transformers';
 * const e5 = await TransformersJsEmbedder.load('./models/multilingual-e5-small');
 * const vectors = await e5.embed(['first chunk', 'second chunk']); // 2 × e5.dimension
 * ```
 */
export class TransformersJsEmbedder implements Embedder {
  readonly dimension: number;
  /** Tokens the model reads per text (`model_max_length` of the tokenizer), if it says. */
  readonly maxTokens?: number;
  /** The folder the model came from. */
  readonly model: string;
  readonly batchSize: number;
  /** Identity: `transformers:<model folder>:<dimension>:<pooling>` (see `Embedder.id`). */
  get id(): string {
    return `transformers:${this.model}:${this.dimension}:${this.#pooling}`;
  }
  /** Texts truncated so far. */
  truncationCount = 0;
  readonly #pipe: FeatureExtractionPipeline;
  readonly #pooling: TransformersPooling;
  readonly #normalize: boolean;
  readonly #onTruncate?: (event: TransformersTruncation) => void;

  private constructor(pipe: FeatureExtractionPipeline, model: string, dimension: number, options: TransformersJsEmbedderOptions, batchSize: number, pooling: TransformersPooling) {
    this.#pipe = pipe;
    this.model = model;
    this.dimension = dimension;
    this.batchSize = batchSize;
    this.#pooling = pooling;
    this.#normalize = options.normalize ?? true;
    this.#onTruncate = options.onTruncate;
    const max = (pipe.tokenizer as unknown as TokenizerLike).model_max_length;
    // absent, not undefined: Embedder's maxTokens is optional (exactOptionalPropertyTypes)
    if (typeof max === 'number' && Number.isFinite(max) && max > 0 && max < 1e7) this.maxTokens = max;
  }

  /**
   * Loads the model folder `model` (a path in Node, a URL path under
   * `env.localModelPath` in a browser) and runs it once to learn its dimension.
   * @throws {InvalidOptionError} for bad options.
   * @throws {ModelLoadError} when the folder or a file is missing or the model cannot run.
   */
  static async load(model: string, options: TransformersJsEmbedderOptions = {}): Promise<TransformersJsEmbedder> {
    if (typeof model !== 'string' || model.length === 0) throw new InvalidOptionError('model', model, 'a local model folder');
    const pooling = options.pooling ?? 'mean';
    if (!POOLINGS.includes(pooling)) throw new InvalidOptionError('pooling', pooling, POOLINGS.join(', '));
    const batchSize = options.batchSize ?? 32;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 4096) throw new InvalidOptionError('batchSize', batchSize, 'an integer from 1 to 4096');
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    let pipe: FeatureExtractionPipeline;
    try {
      pipe = (await pipeline('feature-extraction', model, {
        local_files_only: true,
        dtype: (options.dtype ?? 'fp32') as 'fp32',
        ...(options.device ? { device: options.device as 'cpu' } : {}),
      })) as FeatureExtractionPipeline;
    } catch (error) {
      throw new ModelLoadError(model, firstLine(error));
    }
    let dimension: number;
    try {
      const probe = await pipe(['dimension probe'], { pooling, normalize: false });
      if (probe.dims.length !== 2 || probe.dims[0] !== 1) throw new Error(`the pooled output has shape [${probe.dims.join(', ')}], not [1, d]`);
      dimension = probe.dims[1];
    } catch (error) {
      throw new ModelLoadError(model, `the model does not give sentence embeddings: ${firstLine(error)}`);
    }
    return new TransformersJsEmbedder(pipe, model, dimension, options, batchSize, pooling);
  }

  /**
   * Embeds `texts` in batches of `batchSize`.
   * @returns n × d row-major Float32Array (rows L2-normalised unless `normalize: false`).
   * @throws {EmbeddingError} for a text that is not a string or a failing model.
   */
  async embed(texts: string[]): Promise<Float32Array> {
    requireTexts(texts);
    const d = this.dimension;
    const out = new Float32Array(texts.length * d);
    if (this.maxTokens !== undefined) {
      const tokenizer = this.#pipe.tokenizer as unknown as TokenizerLike;
      texts.forEach((text, index) => {
        const tokens = tokenizer.encode(text).length;
        if (tokens > this.maxTokens!) {
          this.truncationCount++;
          this.#onTruncate?.({ index, tokens, maxTokens: this.maxTokens!, chars: text.length });
        }
      });
    }
    for (let s = 0; s < texts.length; s += this.batchSize) {
      const batch = texts.slice(s, s + this.batchSize);
      let data: Float32Array;
      try {
        const result = await this.#pipe(batch, { pooling: this.#pooling, normalize: this.#normalize });
        data = result.data as Float32Array;
      } catch (error) {
        throw new EmbeddingError(`the model failed on texts ${s}…${s + batch.length - 1}: ${firstLine(error)}`);
      }
      if (data.length !== batch.length * d) throw new EmbeddingError(`the model returned ${data.length} values for ${batch.length} texts × ${d}`);
      out.set(data, s * d);
    }
    return out;
  }

  /** Releases the model's session. */
  async dispose(): Promise<void> {
    await this.#pipe.dispose();
  }
}
