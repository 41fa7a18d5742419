/**
 * Where an embedder's model folder is: a path, a `file:` URL, an http(s) URL, or bytes.
 * Shared by the ONNX and static (Model2Vec) embedders. No Node built-in (the Node helper
 * is loaded by name).
 * @module
 */
import { ModelLoadError } from '../engine/errors.js';
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

/** How an embedder reads its model's bytes `B` from each kind of source ({@link readModelSource}). */
export interface ModelReaders<B> {
  /** The files under a base URL (the source as given, `String(url)`). */
  url(url: string): Promise<B>;
  /** The files of a folder path (Node only: the caller loads the Node helper). */
  folder(path: string): Promise<B>;
  /** True for bytes given directly. */
  isBytes(source: unknown): source is B;
  /** What the source should have been, for the error on anything else. */
  expected: string;
}

/**
 * The model bytes of `source` and the name errors give it: a URL (`https://…/`, a `URL`,
 * its string the name), a folder path (Node; a `file:` URL becomes one), or bytes
 * (`(bytes)`).
 * @throws {ModelLoadError} for a folder path outside Node, or a source of none of these
 *   kinds (naming `readers.expected`); whatever the readers throw.
 */
export async function readModelSource<B>(source: string | URL | B, readers: ModelReaders<B>): Promise<{ name: string; bytes: B }> {
  const local = await localModelPath(source);
  if (isModelUrl(local)) {
    const name = String(local);
    return { name, bytes: await readers.url(name) };
  }
  if (typeof local === 'string') {
    if (!isNode()) throw new ModelLoadError(local, 'a folder path can only be read in Node; pass a URL or the bytes');
    return { name: local, bytes: await readers.folder(local) };
  }
  if (readers.isBytes(local)) return { name: '(bytes)', bytes: local };
  throw new ModelLoadError(String(local), readers.expected);
}
