/**
 * Sentence- and token-level embeddings from an ONNX transformer model, in Node,
 * browsers and edge runtimes.
 * @module
 */
import { readModelSource } from './model-source.js';
import { EmbeddingError, InvalidOptionError, ModelLoadError } from '../engine/errors.js';
import { HfTokenizer } from './hf-tokenizer.js';
import { importNodeHelper, loadOrt, type OnnxBackend, type OrtModule, type OrtSession, type OrtTensor } from './onnx-runtime.js';
import type { TokenEmbedder, TokenEmbeddings, TruncationEvent } from './types.js';
import { normalizeRows } from './normalize.js';

export { normalizeRows } from './normalize.js';

/** How token vectors become one text vector. */
export type PoolingMode = 'mean' | 'cls' | 'lasttoken' | 'max';

/**
 * A model in memory: the files of a sentence-transformers / Hugging Face ONNX export.
 * JSON files may be given parsed or as text.
 */
export interface OnnxModelBytes {
  /** `model.onnx`'s bytes (weights inline; external-data models are not supported). */
  model: Uint8Array;
  /** `tokenizer.json`. */
  tokenizer: object | string;
  /** `config.json` (for `max_position_embeddings`, `model_type`, `hidden_size`). */
  config?: object | string;
  /** `tokenizer_config.json` (for `model_max_length`, `pad_token`). */
  tokenizerConfig?: object | string;
  /** `modules.json` of a sentence-transformers model (informational). */
  modules?: object | string;
  /** `1_Pooling/config.json`, or a pooling mode. */
  pooling?: object | string;
}

/** Where {@link OnnxEmbedder.load} reads a model from. */
export type OnnxSource = string | URL | OnnxModelBytes;

/** Options of {@link OnnxEmbedder.load}. */
export interface OnnxEmbedderOptions {
  /** 'web' (onnxruntime-web) or 'node' (onnxruntime-node). Default: 'node' in Node when installed, else 'web'. */
  backend?: OnnxBackend;
  /** Texts per inference call. Default 32. */
  batchSize?: number;
  /** Threads: onnxruntime-node's intraOpNumThreads, onnxruntime-web's numThreads (process-wide). Default 1 for web, ORT's default for node. */
  threads?: number;
  /** Override the pooling read from `1_Pooling/config.json` (default 'mean'). Ignored for `sentence_embedding` outputs. */
  pooling?: PoolingMode;
  /** L2-normalise the text vectors. Default true. */
  normalize?: boolean;
  /** Most tokens per text (special tokens included). Default: the model's maximum (see {@link OnnxEmbedder.maxTokens}). */
  maxTokens?: number;
  /** Called once per text that is truncated (also counted in {@link OnnxEmbedder.truncationCount}). */
  onTruncate?: (event: TruncationEvent) => void;
  /** Name of the output to read. Default: `sentence_embedding` if present, else `last_hidden_state`, else the only output. */
  output?: string;
  /** Path of the model inside a folder or below a base URL. Default `model.onnx`. */
  modelFile?: string;
  /** onnxruntime-web's `env.wasm.wasmPaths` (browsers). */
  wasmPaths?: string | Record<string, string>;
  /** The fetch used for URL sources. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

const DEFAULT_MAX = 512;

function parseJson(value: object | string | undefined, name: string, source: string): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'object') return value as Record<string, unknown>;
  try {
    return JSON.parse(value) as Record<string, unknown>;
  } catch (cause) {
    throw new ModelLoadError(source, `${name} is not valid JSON: ${String((cause as Error).message)}`);
  }
}

/** Pooling mode of a sentence-transformers `1_Pooling/config.json` (or a mode string). */
export function poolingFromConfig(config: object | string | undefined, source = '1_Pooling/config.json'): PoolingMode | undefined {
  if (config === undefined) return undefined;
  if (typeof config === 'string' && ['mean', 'cls', 'lasttoken', 'max'].includes(config)) return config as PoolingMode;
  const c = parseJson(config, '1_Pooling/config.json', source)!;
  if (c.pooling_mode_cls_token) return 'cls';
  if (c.pooling_mode_lasttoken) return 'lasttoken';
  if (c.pooling_mode_mean_tokens) return 'mean';
  if (c.pooling_mode_max_tokens) return 'max';
  if (c.pooling_mode_weightedmean_tokens || c.pooling_mode_mean_sqrt_len_tokens) {
    throw new ModelLoadError(source, 'unsupported pooling mode (weightedmean / mean_sqrt_len); pass options.pooling');
  }
  return undefined;
}

/** Model maximum length: tokenizer_config `model_max_length`, else config `max_position_embeddings` (−2 for RoBERTa-family), else 512. */
export function maxLengthFrom(config?: Record<string, unknown>, tokenizerConfig?: Record<string, unknown>): number {
  const m = tokenizerConfig?.model_max_length;
  if (typeof m === 'number' && Number.isFinite(m) && m > 0 && m < 1e7) return Math.floor(m);
  const p = config?.max_position_embeddings;
  if (typeof p === 'number' && p > 0) {
    const t = String(config?.model_type ?? '');
    return ['roberta', 'xlm-roberta', 'camembert'].includes(t) ? p - 2 : p;
  }
  return DEFAULT_MAX;
}

async function fetchFolder(base: string, options: OnnxEmbedderOptions): Promise<OnnxModelBytes> {
  const f = options.fetch ?? globalThis.fetch;
  const root = base.endsWith('/') ? base : base + '/';
  const get = async (file: string, required: boolean): Promise<Response | undefined> => {
    let r: Response;
    try {
      r = await f(new URL(file, root).href);
    } catch (cause) {
      if (!required) return undefined;
      throw new ModelLoadError(root + file, `fetch failed: ${String(cause)}`);
    }
    if (!r.ok) {
      if (required) throw new ModelLoadError(root + file, `HTTP ${r.status}`);
      return undefined;
    }
    return r;
  };
  const modelFile = options.modelFile ?? 'model.onnx';
  const [m, t, c, tc, mod, pool] = await Promise.all([
    get(modelFile, true),
    get('tokenizer.json', true),
    get('config.json', false),
    get('tokenizer_config.json', false),
    get('modules.json', false),
    get('1_Pooling/config.json', false),
  ]);
  return {
    model: new Uint8Array(await m!.arrayBuffer()),
    tokenizer: await t!.text(),
    config: c ? await c.text() : undefined,
    tokenizerConfig: tc ? await tc.text() : undefined,
    modules: mod ? await mod.text() : undefined,
    pooling: pool ? await pool.text() : undefined,
  };
}

/**
 * Embeds texts with an ONNX transformer encoder (a sentence-transformers or Hugging
 * Face export: `model.onnx` + `tokenizer.json` [+ `config.json`,
 * `tokenizer_config.json`, `1_Pooling/config.json`]). The recommended embedder for
 * semantic quality; `HashingEmbedder` is only a lexical baseline.
 *
 * Pipeline: `tokenizer.json` through `@huggingface/tokenizers` (special tokens from its
 * post-processor); truncation to {@link maxTokens} — reported, never silent, through
 * `onTruncate`, {@link truncationCount} and {@link lastTruncated}; batches padded
 * with an attention mask (and `token_type_ids` when the model takes them); the model's
 * `sentence_embedding` (B × d) is used as is, or `last_hidden_state` (B × T × d) is
 * pooled over the mask (mean by default; CLS, last token or max from
 * `1_Pooling/config.json`); then L2 normalisation.
 *
 * Empty strings are allowed: they are embedded as the model's special tokens alone
 * (e.g. `[CLS] [SEP]`), or as a zero vector when the tokenizer adds none.
 */
export class OnnxEmbedder implements TokenEmbedder {
  /** Vector length d. */
  readonly dimension: number;
  /** Most tokens per text, special tokens included; longer texts are truncated (and reported). */
  readonly maxTokens: number;
  /** The runtime in use. */
  readonly backend: OnnxBackend;
  /** Pooling applied to token-level outputs. */
  readonly pooling: PoolingMode;
  /** Name of the output read. */
  readonly outputName: string;
  /** Texts truncated since load (embed and embedTokens). */
  truncationCount = 0;
  /** Indices (in the last `embed` batch) of the texts that were truncated. */
  lastTruncated: number[] = [];

  readonly #ort: OrtModule;
  readonly #session: OrtSession;
  readonly #tokenizer: HfTokenizer;
  readonly #batchSize: number;
  readonly #normalize: boolean;
  readonly #onTruncate?: (event: TruncationEvent) => void;
  readonly #inputs: { ids: string; mask?: string; types?: string; intType: 'int64' | 'int32' };
  readonly #tokenOutput?: string;
  readonly #padId: number;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #name: string;

  /** Identity: `onnx:<model folder, URL or (bytes)>:<dimension>:<pooling>:<output>` (see `Embedder.id`). */
  get id(): string {
    return `onnx:${this.#name}:${this.dimension}:${this.pooling}:${this.outputName}`;
  }

  private constructor(init: {
    ort: OrtModule;
    session: OrtSession;
    backend: OnnxBackend;
    tokenizer: HfTokenizer;
    options: OnnxEmbedderOptions;
    maxTokens: number;
    pooling: PoolingMode;
    output: string;
    tokenOutput?: string;
    inputs: { ids: string; mask?: string; types?: string; intType: 'int64' | 'int32' };
    padId: number;
    dimension: number;
    name: string;
  }) {
    this.#name = init.name;
    this.#ort = init.ort;
    this.#session = init.session;
    this.backend = init.backend;
    this.#tokenizer = init.tokenizer;
    this.#batchSize = init.options.batchSize ?? 32;
    this.#normalize = init.options.normalize ?? true;
    this.#onTruncate = init.options.onTruncate;
    this.maxTokens = init.maxTokens;
    this.pooling = init.pooling;
    this.outputName = init.output;
    this.#tokenOutput = init.tokenOutput;
    this.#inputs = init.inputs;
    this.#padId = init.padId;
    this.dimension = init.dimension;
  }

  /**
   * Loads a model.
   * @param source a folder path (Node only; read by `src/embedders/node/model-folder.ts`), a base
   *   URL (`http(s):`, `file:`, … fetched: `model.onnx`, `tokenizer.json` and the optional
   *   JSON files beside them), or the files in memory ({@link OnnxModelBytes}).
   * @throws {ModelLoadError} for a missing `model.onnx` / `tokenizer.json`, bytes that
   *   are not an ONNX model, an unknown tokenizer type, inputs it cannot feed, or
   *   outputs that are not B × d / B × T × d float embeddings.
   * @throws {InvalidOptionError} for a bad batchSize, threads or maxTokens.
   */
  static async load(source: OnnxSource, options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
    for (const name of ['batchSize', 'threads', 'maxTokens'] as const) {
      const v = options[name];
      if (v !== undefined && !(Number.isInteger(v) && v >= 1)) throw new InvalidOptionError(name, v, 'an integer ≥ 1');
    }
    if (options.pooling !== undefined && !['mean', 'cls', 'lasttoken', 'max'].includes(options.pooling)) {
      throw new InvalidOptionError('pooling', options.pooling, "'mean', 'cls', 'lasttoken' or 'max'");
    }
    const { name, bytes } = await readModelSource<OnnxModelBytes>(source, {
      url: (url) => fetchFolder(url, options),
      folder: async (path) => {
        const helper = await importNodeHelper<{ readOnnxFolder(dir: string, modelFile?: string): Promise<OnnxModelBytes> }>('embedders/node/model-folder');
        return helper.readOnnxFolder(path, options.modelFile);
      },
      isBytes: (v): v is OnnxModelBytes => !!v && typeof v === 'object' && (v as OnnxModelBytes).model instanceof Uint8Array,
      expected: 'expected a folder path, a URL or { model: Uint8Array, tokenizer }',
    });
    if (bytes.tokenizer === undefined) throw new ModelLoadError(name, 'no tokenizer.json given');
    const tokenizerJson = parseJson(bytes.tokenizer, 'tokenizer.json', name);
    const tokenizerConfig = parseJson(bytes.tokenizerConfig, 'tokenizer_config.json', name);
    const config = parseJson(bytes.config, 'config.json', name);
    const tokenizer = new HfTokenizer(tokenizerJson, tokenizerConfig ?? {}, name);
    const pooling = options.pooling ?? poolingFromConfig(bytes.pooling, name) ?? 'mean';
    const maxTokens = options.maxTokens ?? maxLengthFrom(config, tokenizerConfig);

    const { ort, backend } = await loadOrt({ backend: options.backend, threads: options.threads, wasmPaths: options.wasmPaths });
    let session: OrtSession;
    try {
      const sessionOptions: Record<string, unknown> = { graphOptimizationLevel: 'all' };
      if (backend === 'node' && options.threads) sessionOptions.intraOpNumThreads = options.threads;
      sessionOptions.executionProviders = backend === 'node' ? ['cpu'] : ['wasm'];
      session = await ort.InferenceSession.create(bytes.model, sessionOptions);
    } catch (cause) {
      throw new ModelLoadError(name, `not a loadable ONNX model (${String((cause as Error)?.message ?? cause).slice(0, 300)})`);
    }
    const fail = async (reason: string): Promise<never> => {
      await session.release().catch(() => undefined);
      throw new ModelLoadError(name, reason);
    };
    const inNames = session.inputNames;
    if (!inNames.includes('input_ids')) await fail(`the model has no input_ids input (inputs: ${inNames.join(', ')})`);
    const known = ['input_ids', 'attention_mask', 'token_type_ids'];
    const unknown = inNames.filter((n) => !known.includes(n));
    if (unknown.length) await fail(`the model takes inputs chunkwise cannot feed: ${unknown.join(', ')}`);
    const idsMeta = session.inputMetadata?.find((m) => m.name === 'input_ids');
    const intType = idsMeta?.type === 'int32' ? 'int32' : 'int64';
    const outNames = session.outputNames;
    const meta = (n: string) => session.outputMetadata?.find((m) => m.name === n);
    let output = options.output;
    if (output !== undefined && !outNames.includes(output)) await fail(`no output named ${output} (outputs: ${outNames.join(', ')})`);
    output ??= outNames.includes('sentence_embedding')
      ? 'sentence_embedding'
      : outNames.includes('last_hidden_state')
        ? 'last_hidden_state'
        : outNames.length === 1
          ? outNames[0]
          : undefined;
    if (output === undefined) await fail(`no sentence_embedding or last_hidden_state output (outputs: ${outNames.join(', ')})`);
    const om = meta(output!);
    if (om && (om.isTensor === false || (om.type && om.type !== 'float32') || (om.shape && om.shape.length !== 2 && om.shape.length !== 3))) {
      await fail(`output ${output} is ${om.type ?? '?'}[${(om.shape ?? []).join(', ')}], not a float32 B × d or B × T × d embedding`);
    }
    const tokenOutput = ['last_hidden_state', 'token_embeddings', output!].find((n) => {
      const m = meta(n);
      return outNames.includes(n) && (!m?.shape || m.shape.length === 3);
    });
    const padToken = typeof tokenizerConfig?.pad_token === 'string' ? tokenizerConfig.pad_token : '[PAD]';
    const padId = tokenizer.tokenToId(padToken) ?? tokenizer.tokenToId('<pad>') ?? 0;
    const embedder = new OnnxEmbedder({
      ort,
      session,
      backend,
      tokenizer,
      options,
      maxTokens,
      pooling,
      output: output!,
      tokenOutput,
      inputs: {
        ids: 'input_ids',
        mask: inNames.includes('attention_mask') ? 'attention_mask' : undefined,
        types: inNames.includes('token_type_ids') ? 'token_type_ids' : undefined,
        intType,
      },
      padId,
      dimension: 0,
      name,
    });
    // Probe once: validates the output's shape and learns d.
    let probe: Float32Array;
    try {
      const enc = tokenizer.encode('a', maxTokens);
      probe = (await embedder.#runBatch([enc])).vectors;
    } catch (cause) {
      await session.release().catch(() => undefined);
      throw cause instanceof EmbeddingError ? new ModelLoadError(name, cause.message) : cause;
    }
    (embedder as { dimension: number }).dimension = probe.length;
    if (probe.length === 0) await fail('the model gives empty vectors');
    return embedder;
  }

  /** Frees the inference session. */
  async release(): Promise<void> {
    await this.#session.release();
  }

  #tensor(type: 'int64' | 'int32', values: number[] | Int32Array, dims: number[]): OrtTensor {
    const data = type === 'int64' ? BigInt64Array.from(values as number[], (v) => BigInt(v)) : Int32Array.from(values as number[]);
    return new this.#ort.Tensor(type, data, dims);
  }

  /** Runs one padded batch; returns pooled rows (B × d) and the raw output. */
  async #runBatch(
    batch: { ids: number[]; typeIds: number[] }[],
    wantTokens = false,
  ): Promise<{ vectors: Float32Array; raw?: { data: Float32Array; dims: readonly number[] } }> {
    const B = batch.length;
    const T = Math.max(1, ...batch.map((e) => e.ids.length));
    const ids: number[] = new Array(B * T).fill(this.#padId);
    const mask: number[] = new Array(B * T).fill(0);
    const types: number[] = new Array(B * T).fill(0);
    batch.forEach((e, b) => {
      for (let t = 0; t < e.ids.length; t++) {
        ids[b * T + t] = e.ids[t];
        mask[b * T + t] = 1;
        types[b * T + t] = e.typeIds[t] ?? 0;
      }
    });
    const it = this.#inputs.intType;
    const feeds: Record<string, OrtTensor> = { [this.#inputs.ids]: this.#tensor(it, ids, [B, T]) };
    if (this.#inputs.mask) feeds[this.#inputs.mask] = this.#tensor(it, mask, [B, T]);
    if (this.#inputs.types) feeds[this.#inputs.types] = this.#tensor(it, types, [B, T]);
    const name = wantTokens ? this.#tokenOutput : this.outputName;
    if (!name) throw new EmbeddingError('This model has no token-level (B × T × d) output, so embedTokens is unavailable');
    const run = this.#queue.then(() => this.#session.run(feeds));
    this.#queue = run.catch(() => undefined);
    let result: Record<string, OrtTensor>;
    try {
      result = await run;
    } catch (cause) {
      throw new EmbeddingError(`Inference failed: ${String((cause as Error)?.message ?? cause).slice(0, 300)}`);
    }
    const out = result[name];
    if (!out || out.type !== 'float32') throw new EmbeddingError(`Output ${name} is not a float32 tensor`, out?.type);
    const dims = out.dims;
    const data = out.data as Float32Array;
    if (dims.length === 2 && dims[0] === B && !wantTokens) {
      const d = dims[1];
      const v = data.slice(0, B * d);
      if (this.#normalize) normalizeRows(v, d);
      return { vectors: v };
    }
    if (dims.length !== 3 || dims[0] !== B || dims[1] !== T) {
      throw new EmbeddingError(`Output ${name} has shape [${dims.join(', ')}], expected [${B}, ${T}, d] or [${B}, d]`);
    }
    const d = dims[2];
    if (wantTokens) return { vectors: new Float32Array(0), raw: { data, dims } };
    const v = new Float32Array(B * d);
    for (let b = 0; b < B; b++) {
      const n = batch[b].ids.length;
      const row = v.subarray(b * d, (b + 1) * d);
      if (n === 0) continue;
      const at = (t: number) => data.subarray((b * T + t) * d, (b * T + t + 1) * d);
      if (this.pooling === 'cls') row.set(at(0));
      else if (this.pooling === 'lasttoken') row.set(at(n - 1));
      else if (this.pooling === 'max') {
        row.set(at(0));
        for (let t = 1; t < n; t++) {
          const x = at(t);
          for (let j = 0; j < d; j++) if (x[j] > row[j]) row[j] = x[j];
        }
      } else {
        const acc = new Float64Array(d);
        for (let t = 0; t < n; t++) {
          const x = at(t);
          for (let j = 0; j < d; j++) acc[j] += x[j];
        }
        for (let j = 0; j < d; j++) row[j] = acc[j] / n;
      }
    }
    if (this.#normalize) normalizeRows(v, d);
    return { vectors: v };
  }

  #report(index: number, text: string, e: { totalTokens: number; offsets: Int32Array }): void {
    this.truncationCount++;
    let kept = 0;
    for (let i = 1; i < e.offsets.length; i += 2) kept = Math.max(kept, e.offsets[i]);
    this.#onTruncate?.({ index, tokens: e.totalTokens, maxTokens: this.maxTokens, keptChars: kept, chars: text.length });
  }

  /**
   * Embeds a batch of texts.
   * @returns n × d row-major Float32Array (L2-normalised unless `normalize: false`).
   * @throws {EmbeddingError} if `texts` is not an array of strings or inference fails.
   */
  async embed(texts: string[]): Promise<Float32Array> {
    if (!Array.isArray(texts)) throw new EmbeddingError('embed() takes an array of strings', texts);
    const d = this.dimension;
    const out = new Float32Array(texts.length * d);
    const truncated: number[] = [];
    const encoded = texts.map((text, i) => {
      if (typeof text !== 'string') throw new EmbeddingError(`Text ${i} is not a string`, text);
      const e = this.#tokenizer.encode(text, this.maxTokens);
      if (e.truncated) {
        truncated.push(i);
        this.#report(i, text, e);
      }
      return e;
    });
    this.lastTruncated = truncated;
    // Similar lengths together: less padding.
    const order = encoded.map((_, i) => i).filter((i) => encoded[i].ids.length > 0);
    order.sort((a, b) => encoded[a].ids.length - encoded[b].ids.length);
    for (let s = 0; s < order.length; s += this.#batchSize) {
      const idx = order.slice(s, s + this.#batchSize);
      const { vectors } = await this.#runBatch(idx.map((i) => encoded[i]));
      if (vectors.length !== idx.length * d) {
        throw new EmbeddingError(`The model returned ${vectors.length / idx.length} values per text, expected ${d}`);
      }
      idx.forEach((i, k) => out.set(vectors.subarray(k * d, (k + 1) * d), i * d));
    }
    return out;
  }

  /**
   * Per-token final-layer vectors of one text, with UTF-16 offsets (late chunking). The
   * text is truncated to {@link maxTokens} (reported via `truncated`, `onTruncate` and
   * {@link truncationCount}); split longer documents into macro windows first.
   * @returns vectors T × d (not normalised), offsets T × 2, special T, truncated.
   * @throws {EmbeddingError} if the model has no B × T × d output or `text` is not a string.
   */
  async embedTokens(text: string): Promise<TokenEmbeddings> {
    if (typeof text !== 'string') throw new EmbeddingError('embedTokens() takes a string', text);
    const e = this.#tokenizer.encode(text, this.maxTokens, true);
    if (e.truncated) this.#report(0, text, e);
    const T = e.ids.length;
    if (T === 0) return { vectors: new Float32Array(0), offsets: new Int32Array(0), special: new Uint8Array(0), truncated: false };
    const { raw } = await this.#runBatch([e], true);
    const d = raw!.dims[2];
    return { vectors: raw!.data.slice(0, T * d), offsets: e.offsets, special: e.special, truncated: e.truncated };
  }

  /** The tokenizer (ids, offsets, truncation) this embedder uses. */
  get tokenizer(): HfTokenizer {
    return this.#tokenizer;
  }
}
