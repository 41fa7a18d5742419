/**
 * Choosing and loading an ONNX Runtime: onnxruntime-web (WebAssembly; every runtime)
 * or onnxruntime-node (native; Node only, an optional dependency). The core never
 * imports onnxruntime-node or a Node built-in itself: Node-only code is loaded from
 * `src/embedders/node/` by a computed specifier that bundlers leave alone.
 * @module
 */
import { MissingDependencyError, ModelLoadError } from '../engine/errors.js';
import { importNodeHelper, isNode } from '../engine/runtime.js';

export { importNodeHelper, isNode } from '../engine/runtime.js';

/** Which ONNX Runtime runs the model. */
export type OnnxBackend = 'web' | 'node';

/** The part of ONNX Runtime's tensor API chunkwise uses. */
export interface OrtTensor {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}

/** Value metadata of a session's input or output (ORT ≥ 1.22). */
export interface OrtValueMetadata {
  name: string;
  isTensor: boolean;
  type?: string;
  shape?: readonly (number | string)[];
}

/** The part of ONNX Runtime's InferenceSession chunkwise uses. */
export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly inputMetadata?: readonly OrtValueMetadata[];
  readonly outputMetadata?: readonly OrtValueMetadata[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}

/** The part of an ONNX Runtime module chunkwise uses (onnxruntime-web and -node alike). */
export interface OrtModule {
  InferenceSession: { create(model: Uint8Array, options?: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: string, data: unknown, dims: readonly number[]) => OrtTensor;
  env: { wasm?: { numThreads?: number; wasmPaths?: unknown; proxy?: boolean }; logLevel?: string };
}

/** Options of {@link loadOrt}. */
export interface LoadOrtOptions {
  /** 'web' or 'node'; default: 'node' in Node when onnxruntime-node is installed, else 'web'. */
  backend?: OnnxBackend;
  /**
   * onnxruntime-web's WebAssembly threads (`env.wasm.numThreads`, a process-wide setting
   * that takes effect before its first session). Default 1. Ignored by 'node', which
   * takes `intraOpNumThreads` per session instead.
   */
  threads?: number;
  /**
   * onnxruntime-web's `env.wasm.wasmPaths`: where a browser fetches
   * `ort-wasm-simd-threaded.wasm` from (a bundler usually handles it). In Node the
   * files are read from `node_modules/onnxruntime-web/dist`, offline.
   */
  wasmPaths?: string | Record<string, string>;
}

let webConfigured = false;

/**
 * Loads an ONNX Runtime. Both are optional peer dependencies of chunkwise: install the
 * one you use (`npm install onnxruntime-web`, or `onnxruntime-node` in Node).
 * @throws {ModelLoadError} for an unknown backend, or 'node' outside Node.
 * @throws {MissingDependencyError} naming the package when the requested runtime is not
 *   installed (`onnxruntime-node` for backend 'node'; `onnxruntime-web` for 'web' and
 *   outside Node); in Node without a backend, when neither is, naming both.
 */
export async function loadOrt(options: LoadOrtOptions = {}): Promise<{ ort: OrtModule; backend: OnnxBackend }> {
  const wanted = options.backend;
  if (wanted !== undefined && wanted !== 'web' && wanted !== 'node') {
    throw new ModelLoadError(String(wanted), `unknown backend (use 'web' or 'node')`);
  }
  let nodeFailure: unknown;
  if (wanted === 'node' || (wanted === undefined && isNode())) {
    if (!isNode()) throw new ModelLoadError('onnxruntime-node', 'the node backend needs Node; use backend: "web"');
    try {
      const helper = await importNodeHelper<{ loadOnnxruntimeNode(): Promise<OrtModule> }>('embedders/node/ort-node');
      return { ort: await helper.loadOnnxruntimeNode(), backend: 'node' };
    } catch (cause) {
      if (wanted === 'node') throw new MissingDependencyError('onnxruntime-node', 'OnnxEmbedder with backend "node"', cause);
      nodeFailure = cause;
    }
  }
  let ort: OrtModule;
  try {
    ort = (await import('onnxruntime-web')) as unknown as OrtModule;
    ort = ((ort as unknown as { default?: OrtModule }).default?.InferenceSession ? (ort as unknown as { default: OrtModule }).default : ort);
  } catch (cause) {
    // in Node without a backend asked for, either runtime would do: name both
    if (nodeFailure !== undefined) {
      const why = (e: unknown) => String((e as Error)?.message ?? e);
      throw new MissingDependencyError(['onnxruntime-node', 'onnxruntime-web'], 'OnnxEmbedder', `${why(nodeFailure)}; ${why(cause)}`, { anyOf: true });
    }
    throw new MissingDependencyError('onnxruntime-web', 'OnnxEmbedder', cause);
  }
  if (ort.env.wasm) {
    if (!webConfigured || options.threads !== undefined) ort.env.wasm.numThreads = options.threads ?? 1;
    if (options.wasmPaths !== undefined) ort.env.wasm.wasmPaths = options.wasmPaths;
    webConfigured = true;
  }
  return { ort, backend: 'web' };
}
