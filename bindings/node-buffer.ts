/**
 * Node's `Buffer`, found without importing a Node built-in (the core runs in browsers and
 * edge runtimes too): its `utf16le` write is a copy, where `TextEncoder` has no UTF-16
 * output, so text reaches a WebAssembly module's memory as code units at memory speed.
 * @module
 */

/** The part of Node's `Buffer` used here (the type is local: no import). */
export interface NodeBufferLike {
  write(text: string, offset: number, length: number, encoding: 'utf16le'): number;
}

/**
 * A Node `Buffer` over `length` bytes of `buffer` from `byteOffset` (its `from`, no copy) in
 * Node (a `Buffer` global and a Node version in `process`); undefined elsewhere.
 */
export const nodeBufferOver: ((buffer: ArrayBuffer, byteOffset?: number, length?: number) => NodeBufferLike) | undefined = (() => {
  const g = globalThis as { Buffer?: unknown; process?: { versions?: { node?: unknown } } };
  if (typeof g.Buffer !== 'function' || typeof g.process?.versions?.node !== 'string') return undefined;
  const B = g.Buffer as unknown as { from(a: ArrayBuffer, o?: number, l?: number): NodeBufferLike };
  return (buffer, byteOffset, length) => B.from(buffer, byteOffset, length);
})();
