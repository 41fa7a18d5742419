/**
 * What runtime this is, without importing a Node built-in.
 * @module
 */

/** True in Node (not in browsers or edge runtimes that only imitate parts of it). */
export function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string }; release?: { name?: string } } }).process;
  return typeof p?.versions?.node === 'string' && p.release?.name === 'node';
}

/**
 * A Node built-in module through `process.getBuiltinModule` (Node ≥ 20.16), so that no
 * `import` of a built-in appears in the core for bundlers to trip on; `undefined`
 * outside Node.
 */
export function nodeBuiltin<T>(name: string): T | undefined {
  if (!isNode()) return undefined;
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  return typeof get === 'function' ? (get(name) as T | undefined) : undefined;
}

/**
 * Imports a Node-only helper module (the specifier is computed so that bundlers for
 * browsers do not follow it): `path` is its path under `src/` without `.js`, e.g.
 * `sinks/lock-file` (rollup.config.mjs makes the specifiers literal in the Node build). Lives here, not beside the ONNX Runtime
 * loader, so that modules needing it (StaticEmbedder) do not bring that loader's
 * `import('onnxruntime-web')` into a bundle: bundlers process a dynamically imported
 * package (and emit onnxruntime-web's 28 MB `.wasm`) even when the import is never run.
 * @internal
 */
export async function importNodeHelper<T>(path: string): Promise<T> {
  const spec = `../${path}.js`;
  return (await import(/* @vite-ignore */ spec)) as T;
}
