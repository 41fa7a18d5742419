/**
 * Node-only: loads onnxruntime-node (an optional dependency) for `OnnxEmbedder`.
 * @module
 */
import type { OrtModule } from '../../embedders/onnx-runtime.js';

let cached: Promise<OrtModule> | undefined;

/**
 * Imports onnxruntime-node.
 * @throws if it is not installed (callers fall back to onnxruntime-web).
 */
export function loadOnnxruntimeNode(): Promise<OrtModule> {
  const name = 'onnxruntime-node';
  cached ??= import(name).then((m: { default?: OrtModule } & OrtModule) => (m.default?.InferenceSession ? m.default : m));
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}
