/**
 * {@link embedderIdentity}: the identity sinks store with each vector. Core module: no
 * Node built-in.
 * @module
 */
import type { Embedder } from './types.js';

/**
 * The identity of `embedder` (see `Embedder.id`): its `id` when it has a non-empty one,
 * else `<constructor name>:<model>:<dimension>` (`model` when the object has a string
 * one, left out otherwise), e.g. `CountingEmbedder:384`. A derived identity cannot see
 * settings inside the object: give your embedder an `id` when two instances of one class
 * can give different vectors.
 */
export function embedderIdentity(embedder: Embedder): string {
  const id = (embedder as { id?: unknown }).id;
  if (typeof id === 'string' && id.length > 0) return id;
  const name = (embedder as object).constructor?.name;
  const model = (embedder as { model?: unknown }).model;
  return [name && name !== 'Object' ? name : 'embedder', ...(typeof model === 'string' && model ? [model] : []), embedder.dimension].join(':');
}
