/**
 * Where a WebAssembly module comes from (a tree-sitter grammar, web-tree-sitter's runtime),
 * and telling built-in types apart across realms. Core module.
 * @module
 */

/**
 * Where a grammar (or web-tree-sitter's runtime `.wasm`) comes from: its bytes, a URL
 * (in Node also a file path), or a compiled `WebAssembly.Module` (Cloudflare Workers,
 * which compile WebAssembly only from modules imported at deploy time).
 */
export type WasmSource = Uint8Array | ArrayBuffer | URL | string | WebAssembly.Module;

/** The built-in type of a value by its tag, so that values from another realm (an edge runtime's VM) pass too. */
export const tagOf = (v: unknown): string => Object.prototype.toString.call(v).slice(8, -1);
