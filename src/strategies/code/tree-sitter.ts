/**
 * web-tree-sitter, loaded for the code strategy in any runtime: the runtime module once
 * per realm (a runtime that aborted is replaced by a fresh one in Node, and its grammars
 * loaded again), and grammars from the `tree-sitter-wasms` package (Node), bytes, a URL
 * or a compiled `WebAssembly.Module` (Cloudflare Workers). The syntax tree is the code
 * strategy's boundary source; the syntax definitions it is read with are in `code.ts`.
 * @module
 */
import { GrammarLoadError, MissingDependencyError } from '../../engine/errors.js';
import { importNodeHelper, isNode } from '../../engine/runtime.js';
import { tagOf, type WasmSource } from '../../engine/wasm-source.js';
import type { CodeLanguageSpec } from './languages.js';

/** Where a grammar comes from: `grammar` itself, or the file named for the language in the `grammarBase` folder (URL), or the packaged one. */
export interface GrammarSource {
  readonly grammar?: WasmSource;
  readonly grammarBase?: string;
}

/**
 * The part of web-tree-sitter 0.25 the chunker uses, declared here: web-tree-sitter's own
 * types are an ambient `declare module`, which clashes with another copy's (LlamaIndex
 * depends on web-tree-sitter 0.24) wherever both are in one program.
 */
export interface TSLanguage {
  readonly abiVersion: number;
}
export interface TSParser {
  setLanguage(language: TSLanguage): void;
  parse(text: string, oldTree?: null, options?: { progressCallback?: (state: { currentOffset: number }) => boolean }): { rootNode: unknown; delete(): void } | null;
  delete(): void;
}
export interface TreeSitter {
  Parser: { new (): TSParser; init(options?: Record<string, unknown>): Promise<void> };
  Language: { load(input: Uint8Array): Promise<TSLanguage> };
}

/** web-tree-sitter's module, once per runtime: a runtime that aborted is replaced by a fresh one (Node) and its grammars loaded again. */
let runtime: Promise<TreeSitter> | undefined;
/** Counts runtimes: a chunker whose parser belongs to an older one builds a new parser. */
let generation = 0;
/** The `treeSitterWasm` source the first runtime was built from (a fresh runtime is built from it too). */
let runtimeSource: WasmSource | undefined;
/** Why no fresh runtime can be had (outside Node, where web-tree-sitter's module cannot be loaded twice). */
let runtimeLost: string | undefined;

/**
 * Drops the current tree-sitter runtime after it aborted (Emscripten's `Aborted()`, a
 * trap): its memory and tables may be corrupt, so nothing of it (parsers, grammars) is
 * used again. The next load builds a fresh module.
 */
export function discardRuntime(reason: string): void {
  generation++;
  runtime = undefined;
  byKey.clear();
  byObject = new WeakMap();
  if (!isNode()) runtimeLost = `the tree-sitter runtime aborted (${reason}); outside Node it cannot be loaded again in this realm: reload the page or worker`;
}

/** Bytes of an ArrayBuffer or Uint8Array source. */
const bytesOf = (s: Uint8Array | ArrayBuffer) => (tagOf(s) === 'Uint8Array' ? (s as Uint8Array) : new Uint8Array(s));
// by tag, not instanceof: a module compiled in another realm (an edge runtime's VM) is one too
// (and not a type guard: WebAssembly.Module's type is empty, so a guard would narrow every object away)
const isModule = (s: unknown): boolean => tagOf(s) === 'WebAssembly.Module';

/** web-tree-sitter, initialised once per process (its WebAssembly module is a singleton: the first source given wins). */
export function loadRuntime(given: WasmSource | undefined): Promise<TreeSitter> {
  if (runtimeLost !== undefined) return Promise.reject(new Error(runtimeLost));
  if (generation === 0) runtimeSource ??= given;
  const source = generation === 0 ? given : runtimeSource;
  const fresh = generation;
  runtime ??= (async () => {
    let ts: TreeSitter;
    try {
      if (fresh === 0) ts = (await import('web-tree-sitter')) as unknown as TreeSitter;
      else {
        // a fresh copy of the module (its Emscripten instance is a module-level singleton)
        const helper = await importNodeHelper<typeof import('./code-grammars.js')>('strategies/code/code-grammars');
        ts = (await helper.importFreshTreeSitter(fresh)) as TreeSitter;
      }
    } catch (cause) {
      throw new MissingDependencyError('web-tree-sitter', 'The code strategy', cause);
    }
    const init: Record<string, unknown> = {};
    if (isModule(source)) {
      const module = source as WebAssembly.Module;
      init.instantiateWasm = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
        const instance = new WebAssembly.Instance(module, imports);
        done(instance, module);
        return instance.exports;
      };
    } else if (typeof source === 'object' && !(source instanceof URL)) init.wasmBinary = bytesOf(source as Uint8Array);
    else if (source !== undefined) init.locateFile = () => String(source);
    try {
      await withWorkerLocation(() => ts.Parser.init(init));
    } catch (cause) {
      throw new GrammarLoadError('tree-sitter runtime', source === undefined ? 'web-tree-sitter/tree-sitter.wasm' : describeSource(source), String((cause as Error)?.message ?? cause));
    }
    loaded.clear(); // the runtime of an older generation is never used again
    loaded.set(fresh, ts);
    return ts;
  })();
  const p = runtime;
  p.catch(() => {
    if (runtime === p) runtime = undefined;
  });
  return p;
}

/** The runtimes loaded, by generation: a chunker builds its parsers synchronously from its own. */
const loaded = new Map<number, TreeSitter>();

/** The loaded runtime of `at` (set when its load resolved, before any chunker of it exists). */
export function loadedRuntime(at: number): TreeSitter {
  const ts = loaded.get(at);
  if (!ts) throw new GrammarLoadError('tree-sitter runtime', 'web-tree-sitter', 'not loaded');
  return ts;
}

/**
 * Runs `init` with a stand-in `self.location` where a WorkerGlobalScope has none
 * (workerd): web-tree-sitter 0.25's Emscripten loader reads `self.location.href` in any
 * worker scope to find its own files, which it does not need when given the compiled
 * module (`instantiateWasm`).
 */
async function withWorkerLocation<T>(init: () => Promise<T>): Promise<T> {
  const g = globalThis as { WorkerGlobalScope?: unknown; location?: unknown };
  if (g.WorkerGlobalScope === undefined || g.location !== undefined) return init();
  Object.defineProperty(globalThis, 'location', { value: { href: '' }, configurable: true, writable: true });
  try {
    return await init();
  } finally {
    delete g.location;
  }
}

function describeSource(s: WasmSource): string {
  if (typeof s === 'string') return s;
  if (s instanceof URL) return s.href;
  return isModule(s) ? 'WebAssembly.Module' : `${bytesOf(s as Uint8Array).length} bytes`;
}

/** Grammars loaded, by language and source (URL or `default`); byte and module sources by identity. */
const byKey = new Map<string, Promise<TSLanguage>>();
let byObject = new WeakMap<object, Promise<TSLanguage>>();

/** The grammar of `spec` from the options' source, loaded once. */
export function loadGrammar(ts: TreeSitter, spec: CodeLanguageSpec, o: GrammarSource): Promise<TSLanguage> {
  const source = o.grammar ?? (o.grammarBase !== undefined ? joinUrl(o.grammarBase, `tree-sitter-${spec.grammar}.wasm`) : undefined);
  if (source !== undefined && typeof source === 'object' && !(source instanceof URL)) {
    // bytes or a module: cached by identity
    let p = byObject.get(source);
    if (!p) byObject.set(source, (p = grammarFrom(ts, spec, source)));
    return p;
  }
  const key = `${spec.name}\u0000${source === undefined ? 'default' : String(source)}`;
  let p = byKey.get(key);
  if (!p) {
    byKey.set(key, (p = grammarFrom(ts, spec, source)));
    p.catch(() => byKey.delete(key));
  }
  return p;
}

function joinUrl(base: string, file: string): string {
  return base.endsWith('/') || base.endsWith('\\') ? base + file : `${base}/${file}`;
}

async function grammarFrom(ts: TreeSitter, spec: CodeLanguageSpec, source: WasmSource | undefined): Promise<TSLanguage> {
  const what = source === undefined ? `tree-sitter-wasms/out/tree-sitter-${spec.grammar}.wasm` : describeSource(source);
  let input: Uint8Array | WebAssembly.Module;
  if (source === undefined) {
    if (!isNode()) {
      throw new GrammarLoadError(spec.name, what, 'outside Node give grammar (bytes, a URL or a WebAssembly.Module) or grammarBase (a URL of the tree-sitter-wasms out/ folder)');
    }
    const helper = await importNodeHelper<typeof import('./code-grammars.js')>('strategies/code/code-grammars');
    input = await helper.readPackagedGrammar(spec.grammar, spec.name);
  } else if (typeof source === 'string' || source instanceof URL) {
    const url = String(source);
    if (isNode() && !/^(https?|data|blob):/i.test(url)) {
      const helper = await importNodeHelper<typeof import('./code-grammars.js')>('strategies/code/code-grammars');
      input = await helper.readGrammarFile(source, spec.name);
    } else {
      let response: Response;
      try {
        response = await fetch(url);
      } catch (cause) {
        throw new GrammarLoadError(spec.name, url, String((cause as Error)?.message ?? cause));
      }
      if (!response.ok) throw new GrammarLoadError(spec.name, url, `HTTP ${response.status}`);
      input = new Uint8Array(await response.arrayBuffer());
    }
  } else input = isModule(source) ? (source as WebAssembly.Module) : bytesOf(source as Uint8Array);
  try {
    return isModule(input) ? await languageFromModule(ts, input as WebAssembly.Module) : await ts.Language.load(input as Uint8Array);
  } catch (cause) {
    if (cause instanceof GrammarLoadError) throw cause;
    const message = String((cause as Error)?.message || cause || 'not a tree-sitter grammar');
    throw new GrammarLoadError(spec.name, what, `${message || 'not a tree-sitter grammar'} (web-tree-sitter 0.25 reads grammars of ABI 13–15 built by tree-sitter-cli ≤ 0.25, e.g. tree-sitter-wasms 0.1)`);
  }
}

/**
 * A grammar from a compiled `WebAssembly.Module` (Cloudflare Workers compile WebAssembly
 * only from modules imported at deploy time). `Language.load` takes bytes only and would
 * compile them; Emscripten's loader beneath it takes a module too. So `Language.load` is
 * given a stand-in: the wasm header and the module's `dylink` section (what the loader
 * reads before instantiating), and `WebAssembly.instantiate` maps exactly that stand-in
 * to the module while the call runs.
 */
async function languageFromModule(ts: TreeSitter, module: WebAssembly.Module): Promise<TSLanguage> {
  let name = 'dylink.0';
  let sections = WebAssembly.Module.customSections(module, name);
  if (sections.length === 0) sections = WebAssembly.Module.customSections(module, (name = 'dylink'));
  if (sections.length === 0) throw new Error('the module has no dylink section: not a tree-sitter grammar');
  const body = new Uint8Array(sections[0]);
  const nameBytes = new TextEncoder().encode(name);
  const payload = [...leb(nameBytes.length), ...nameBytes, ...body];
  const stub = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x00, ...leb(payload.length), ...payload]);
  const wasm = WebAssembly as unknown as { instantiate: (bytes: unknown, imports?: WebAssembly.Imports) => Promise<unknown> };
  const original = wasm.instantiate;
  wasm.instantiate = (bytes: unknown, imports?: WebAssembly.Imports) =>
    bytes === stub ? Promise.resolve({ module, instance: new WebAssembly.Instance(module, imports) }) : original.call(WebAssembly, bytes, imports);
  try {
    return await ts.Language.load(stub);
  } finally {
    wasm.instantiate = original;
  }
}

/** Unsigned LEB128. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** The generation of the current runtime: it grows when an aborted runtime is discarded, so a parser of an older one is rebuilt. */
export function runtimeGeneration(): number {
  return generation;
}
