/**
 * Where the WebAssembly tokenizer gets an encoding's rank table (`bindings/bpe-table.ts`),
 * one encoding at a time and only when it is first used: nothing is loaded on import, and
 * a `cl100k_base` user never loads `o200k_base`.
 *
 * - {@link rankTable} (synchronous): a table given to {@link setRankTable} (or loaded by
 *   {@link loadRankTable}, or bundled by `import 'chunkwise/encodings/<encoding>'`);
 *   else, in Node, the package's `<encoding>.bpe` file read from disk; else
 *   {@link EncodingNotLoadedError}.
 * - {@link loadRankTable} (asynchronous): from a URL, a `Response` or bytes, or by default
 *   the package's JavaScript module carrying the table, imported dynamically (bundlers
 *   emit it as a separate chunk, fetched only by whoever calls this).
 *
 * No Node built-in is imported: in Node, the file system is reached at run time through
 * `nodeBuiltin` (src/engine/runtime.ts), guarded so that other runtimes never call it.
 * @module
 */
import { EncodingNotLoadedError, UnknownEncodingError, WasmError } from '../src/engine/errors.js';
import { nodeBuiltin } from '../src/engine/runtime.js';
import { ENCODINGS, isEncodingName, type EncodingName } from '../src/engine/size/encodings.js';
import { rankTableFromStrings, readRankTable } from './bpe-table.js';
import { RANK_TABLE_PARTS } from './generated/ranks/index.js';

const tables = new Map<EncodingName, Uint8Array | (() => Uint8Array)>();

/** Each encoding's split pattern number in its table (see `bindings/bpe-table.ts`). */
const PATTERN: Record<EncodingName, number> = { cl100k_base: 0, o200k_base: 1 };

function checkEncoding(encoding: string): EncodingName {
  if (!isEncodingName(encoding)) throw new UnknownEncodingError(String(encoding), ENCODINGS);
  return encoding;
}

function checkTable(encoding: EncodingName, bytes: Uint8Array): Uint8Array {
  const info = readRankTable(bytes);
  if (info.pattern !== PATTERN[encoding]) throw new WasmError(`The rank table given for ${encoding} is another encoding's`);
  return bytes;
}

/**
 * Makes `table` the rank table of `encoding`, for synchronous use from then on. A
 * function is called on first use (so a bundled table is decoded only if used).
 * For tables you host or bundle yourself, e.g. a Cloudflare Worker importing
 * `cl100k_base.bpe` as a Data module: `setRankTable('cl100k_base', new Uint8Array(data))`.
 * Replaces an earlier table; tokenizers already built keep theirs.
 * @param table the bytes of `<encoding>.bpe` (the package ships them as
 *   `chunkwise/ranks/<encoding>.bpe`), or a function returning them.
 * @throws {UnknownEncodingError} for an encoding other than cl100k_base / o200k_base.
 * @throws {WasmError} when the bytes are not that encoding's rank table (checked now
 *   for bytes, on first use for a function).
 */
export function setRankTable(encoding: EncodingName, table: Uint8Array | (() => Uint8Array)): void {
  const name = checkEncoding(encoding);
  tables.set(name, typeof table === 'function' ? table : checkTable(name, table));
}

/** Node: the package's `<encoding>.bpe`, read synchronously; `undefined` elsewhere or when it is not there (a bundle). */
function readPackagedTable(encoding: EncodingName): Uint8Array | undefined {
  const fs = nodeBuiltin<{ readFileSync(path: URL): Uint8Array }>('fs');
  if (!fs) return undefined;
  const here = import.meta.url; // a variable, so bundlers do not treat the URL below as an asset to emit
  try {
    return new Uint8Array(fs.readFileSync(new URL('./generated/ranks/' + encoding + '.bpe', here)));
  } catch {
    return undefined;
  }
}

/**
 * The rank table of `encoding`, loaded on first use and kept.
 * @throws {UnknownEncodingError} for an encoding other than cl100k_base / o200k_base.
 * @throws {EncodingNotLoadedError} outside Node when the table was neither loaded
 *   ({@link loadRankTable}) nor bundled (`import 'chunkwise/encodings/<encoding>'`).
 */
export function rankTable(encoding: EncodingName): Uint8Array {
  const name = checkEncoding(encoding);
  let table = tables.get(name);
  if (typeof table === 'function') {
    table = checkTable(name, table());
    tables.set(name, table);
  }
  if (table) return table;
  const read = readPackagedTable(name);
  if (!read) throw new EncodingNotLoadedError(name);
  tables.set(name, checkTable(name, read));
  return read;
}

/** True when {@link rankTable} can return `encoding`'s table without reading a file or throwing. */
export function hasRankTable(encoding: EncodingName): boolean {
  return tables.has(encoding);
}

/** Where {@link loadRankTable} can read a table from: the bytes of `<encoding>.bpe`, its URL, or a `Response`. */
export type RankTableSource = Uint8Array | ArrayBuffer | URL | string | Response;

async function bytesOf(source: RankTableSource): Promise<Uint8Array> {
  if (typeof source === 'string' || source instanceof URL) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${String(source)}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  if (typeof Response !== 'undefined' && source instanceof Response) return new Uint8Array(await source.arrayBuffer());
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  throw new Error(`expected bytes, a URL or a Response, got ${Object.prototype.toString.call(source)}`);
}

/**
 * Loads the rank table of `encoding` asynchronously and keeps it for {@link rankTable}.
 * Without a source: a table already set is kept; in Node the package's file is read;
 * elsewhere the package's JavaScript module holding the table is imported (bundlers
 * emit it as separate chunks of under 700 KB, loaded only here).
 * @param source the bytes of `<encoding>.bpe`, a URL to fetch them from (with Vite: the
 *   `?url` import of `chunkwise/ranks/cl100k_base.bpe`), or a `Response`.
 * @throws {UnknownEncodingError} for an encoding other than cl100k_base / o200k_base.
 * @throws {WasmError} when the source cannot be read or is not that encoding's table.
 */
export async function loadRankTable(encoding: EncodingName, source?: RankTableSource): Promise<Uint8Array> {
  const name = checkEncoding(encoding);
  if (source === undefined) {
    if (!tables.has(name)) {
      const read = readPackagedTable(name);
      setRankTable(name, read ?? rankTableFromStrings(await RANK_TABLE_PARTS[name]()));
    }
    return rankTable(name);
  }
  let bytes: Uint8Array;
  try {
    bytes = await bytesOf(source);
  } catch (cause) {
    throw new WasmError(`Could not load the ${name} rank table: ${String((cause as Error)?.message ?? cause)}`);
  }
  setRankTable(name, bytes);
  return bytes;
}
