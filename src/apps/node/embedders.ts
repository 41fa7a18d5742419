/**
 * Node-only: builds an embedder from a CLI spec string.
 * @module
 */
import { InvalidOptionError, ModelLoadError } from '../../engine/errors.js';
import { HashingEmbedder, OnnxEmbedder, OpenAIEmbedder, StaticEmbedder, type Embedder, type OnnxEmbedderOptions } from '../../embedders/index.js';

const KINDS = 'hashing, hashing:<dim>, onnx:<folder>, static:<folder>, openai:<model> or transformers:<folder>';

/** Options passed through to the ONNX embedder (backend, batchSize, threads, onTruncate, …). */
export type LoadEmbedderOptions = OnnxEmbedderOptions;

/**
 * Builds an embedder from a spec:
 * - `hashing` — {@link HashingEmbedder} with d = 384;
 * - `hashing:<dim>` — with dimension dim (8 … 65536);
 * - `onnx:<folder>` — {@link OnnxEmbedder} from a model folder (or base URL);
 * - `static:<folder>` — {@link StaticEmbedder} from a Model2Vec folder (or base URL);
 * - `openai:<model>` — {@link OpenAIEmbedder} for `OPENAI_BASE_URL` (default OpenAI's
 *   API) with `OPENAI_API_KEY`; the dimension of a model it does not know is asked of
 *   the endpoint;
 * - `transformers:<folder>` — `TransformersJsEmbedder` (`chunkwise/transformers`) over
 *   a local model folder; `@huggingface/transformers` is imported only for this kind.
 * @throws {InvalidOptionError} for an unknown kind or a bad dimension.
 * @throws {ModelLoadError} when the model cannot be loaded.
 */
export async function loadEmbedder(spec: string, options: LoadEmbedderOptions = {}): Promise<Embedder> {
  if (typeof spec !== 'string' || spec.length === 0) throw new InvalidOptionError('embedder', spec, KINDS);
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? '' : spec.slice(colon + 1);
  switch (kind) {
    case 'hashing': {
      if (arg === '') return new HashingEmbedder();
      const d = Number(arg);
      if (!/^\d+$/.test(arg) || d < 8 || d > 65536) throw new InvalidOptionError('embedder', spec, 'hashing:<dim> with an integer dim from 8 to 65536');
      return new HashingEmbedder({ dimension: d });
    }
    case 'onnx':
      if (!arg) throw new InvalidOptionError('embedder', spec, 'onnx:<folder>');
      return OnnxEmbedder.load(arg, options);
    case 'static':
      if (!arg) throw new InvalidOptionError('embedder', spec, 'static:<folder>');
      return StaticEmbedder.load(arg, { onTruncate: options.onTruncate });
    case 'openai':
      if (!arg) throw new InvalidOptionError('embedder', spec, 'openai:<model>, e.g. openai:text-embedding-3-small');
      return OpenAIEmbedder.create({ model: arg });
    case 'transformers': {
      if (!arg) throw new InvalidOptionError('embedder', spec, 'transformers:<folder>');
      let load: typeof import('../../embedders/transformers-js.js');
      try {
        load = await import('../../embedders/transformers-js.js');
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        if (e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('@huggingface/transformers')) {
          throw new ModelLoadError(arg, 'transformers:<folder> needs the optional package @huggingface/transformers: npm install @huggingface/transformers');
        }
        throw error;
      }
      return load.TransformersJsEmbedder.load(arg);
    }
    default:
      throw new InvalidOptionError('embedder', spec, KINDS);
  }
}
