/**
 * Where an embedder's model folder is: a path, a `file:` URL, an http(s) URL, or bytes.
 * Shared by the ONNX and static (Model2Vec) embedders. No Node built-in (the Node helper
 * is loaded by name).
 * @module
 */
import { importNodeHelper, isNode } from '../engine/runtime.js';

/** In Node, a `file:` URL becomes its path (Node's fetch cannot read file: URLs, the folder is read instead); anything else is returned as given. */
export async function localModelPath<T>(source: T): Promise<T | string> {
  const isFileUrl = source instanceof URL ? source.protocol === 'file:' : typeof source === 'string' && source.startsWith('file:');
  if (!isNode() || !isFileUrl) return source;
  return (await importNodeHelper<{ fileUrlToPath(url: string | URL): string }>('embedders/node/model-folder')).fileUrlToPath(source as string | URL);
}

/** True for a URL to fetch the model's files from (`https://…/`, a `URL`), false for a path or bytes. */
export function isModelUrl(source: unknown): source is string | URL {
  return source instanceof URL || (typeof source === 'string' && /^[a-z][a-z0-9+.-]+:\/\//i.test(source));
}
