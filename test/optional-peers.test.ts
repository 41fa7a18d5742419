/**
 * The optional peer dependencies (LangChain, LlamaIndex, LanceDB, Apache Arrow, PGlite,
 * pgvector, Transformers.js, js-tiktoken, onnxruntime-web / -node) are loaded only by the
 * entry that needs them (and by those peers themselves: @langchain/textsplitters
 * depends on js-tiktoken, Transformers.js on ONNX Runtime). Each case runs
 * in a fresh Node process (through the package's own `exports`, `chunkwise/…`) with a
 * hook that logs every module resolved (ESM) and required (CJS); the log must hold
 * exactly the peers of the entry imported. The entries that need a peer are the
 * positive controls: they show the hook sees the packages it must not see elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliBin, repoRoot, texts } from './helpers/paths.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const PEERS = Object.keys(pkg.peerDependencies).sort();

const dir = mkdtempSync(join(tmpdir(), 'chunkwise-peers-'));
const hooks = join(dir, 'hooks.mjs');
const register = join(dir, 'register.mjs');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.CHUNKWISE_LOAD_LOG, result.url + '\\n');
  return result;
}
`,
);
writeFileSync(
  register,
  `import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(pathToFileURL(hooks).href)});
const load = Module._load;
Module._load = function (request, parent, isMain) {
  appendFileSync(process.env.CHUNKWISE_LOAD_LOG, 'require:' + request + '\\n');
  return load.call(this, request, parent, isMain);
};
`,
);

let runs = 0;
/** Modules a Node process resolved (URLs) or required (`require:<request>`) while running `args`. */
function modulesLoaded(args: string[], { failing = false } = {}): string[] {
  const log = join(dir, `log-${runs++}.txt`);
  writeFileSync(log, '');
  let failed = false;
  try {
    execFileSync(process.execPath, ['--import', pathToFileURL(register).href, ...args], {
      cwd: repoRoot,
      env: { ...process.env, CHUNKWISE_LOAD_LOG: log, LANCEDB_LOG: 'error' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    if (!failing) throw error;
    failed = true;
  }
  if (failing && !failed) throw new Error(`expected ${args.join(' ')} to fail`);
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** Peers (package names) a Node process resolved or required while running `args`. */
function peersLoaded(args: string[], options: { failing?: boolean } = {}): string[] {
  const lines = modulesLoaded(args, options);
  return PEERS.filter((p) => lines.some((l) => l.includes(`/node_modules/${p}/`) || l === `require:${p}` || l.startsWith(`require:${p}/`)));
}

/**
 * Watched peers that other peers load themselves (not chunkwise): @langchain/textsplitters
 * and @llamaindex/core tokenize with js-tiktoken, Transformers.js runs models with
 * onnxruntime-node in Node.
 */
const LOADED_BY_THE_PEER: Record<string, string[]> = {
  '@langchain/textsplitters': ['js-tiktoken'],
  '@llamaindex/core': ['js-tiktoken'],
  '@huggingface/transformers': ['onnxruntime-node'],
};

/** `own` and what those peers load themselves. */
function withTheirDependencies(own: string[]): string[] {
  return [...new Set(own.flatMap((p) => [p, ...(LOADED_BY_THE_PEER[p] ?? [])]))].sort();
}

const importing = (...entries: string[]) => ['--input-type=module', '-e', entries.map((e) => `await import(${JSON.stringify(e)});`).join('\n')];

describe('optional peers are loaded only by their entry', () => {
  it('lists the peers this test watches', () => {
    expect(PEERS).toEqual([
      '@electric-sql/pglite',
      '@electric-sql/pglite-pgvector',
      '@huggingface/transformers',
      '@lancedb/lancedb',
      '@langchain/core',
      '@langchain/textsplitters',
      '@llamaindex/core',
      'apache-arrow',
      'bullmq',
      'js-tiktoken',
      'mammoth',
      'onnxruntime-node',
      'onnxruntime-web',
      'pdfjs-dist',
      'pg',
      'tree-sitter-wasms',
      'web-tree-sitter',
    ]);
    for (const p of PEERS) expect(pkg.peerDependenciesMeta[p]?.optional, p).toBe(true);
  });

  it('the root entry, chunkwise/node, chunkwise/onnx (until a model loads), chunkwise/evaluation, chunkwise/sinks and chunkwise/sinks/pgvector load none', () => {
    expect(peersLoaded(importing('chunkwise', 'chunkwise/node', 'chunkwise/onnx', 'chunkwise/evaluation', 'chunkwise/sinks', 'chunkwise/sinks/pgvector'))).toEqual([]);
  });

  it('chunkwise/code loads no peer on import; the first code chunk() loads web-tree-sitter (the grammar is a file read from tree-sitter-wasms)', () => {
    expect(peersLoaded(importing('chunkwise/code'))).toEqual([]);
    const chunk = `const { createChunker } = await import('chunkwise');\nawait createChunker('code', { language: 'go' }).chunk('package a\\nfunc f() {}\\n');`;
    expect(peersLoaded(['--input-type=module', '-e', chunk])).toEqual(['web-tree-sitter']);
  });

  it('chunkwise/pdf and chunkwise/docx load no peer on import; the first PDF loads pdfjs-dist, the first DOCX mammoth; the CLI loads each for its files only', () => {
    const documents = join(repoRoot, 'test', 'fixtures', 'documents');
    expect(peersLoaded(importing('chunkwise/pdf', 'chunkwise/docx'))).toEqual([]);
    const read = (entry: string, call: string) =>
      `const m = await import(${JSON.stringify(entry)});\nconst { readFileSync } = await import('node:fs');\nawait m.${call};`;
    const pdf = read('chunkwise/pdf', `extractPdf(new Uint8Array(readFileSync(${JSON.stringify(join(documents, 'manual.pdf'))})))`);
    expect(peersLoaded(['--input-type=module', '-e', pdf])).toEqual(['pdfjs-dist']);
    const docx = read('chunkwise/docx', `chunkDocx(new Uint8Array(readFileSync(${JSON.stringify(join(documents, 'handbook.docx'))})))`);
    expect(peersLoaded(['--input-type=module', '-e', docx])).toEqual(['mammoth']);
    expect(peersLoaded([cliBin, 'chunk', join(documents, 'handbook.md'), join(documents, 'manual.pdf'), '--strategy', 'auto'])).toEqual(['pdfjs-dist']);
  });

  it('Markdown chunking loads no mdast or micromark package (they are the block scanner\'s test oracle only): API and CLI', () => {
    const md = JSON.stringify('---\ntitle: x\n---\n# A\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- item\n\n```js\nx\n```\n');
    const api = `const { MarkdownChunker, ParentChildChunker } = await import('chunkwise');\nnew MarkdownChunker({ chunkSize: 16 }).chunk(${md});\nnew ParentChildChunker({ parentSize: 32, childSize: 8, childOverlap: 0, markdown: true }).split(${md});`;
    const parser = (lines: string[]) => [...new Set(lines.map((l) => /\/node_modules\/((?:mdast|micromark)[^/]*)\//.exec(l)?.[1] ?? /^require:((?:mdast|micromark)[^/]*)/.exec(l)?.[1]).filter(Boolean))];
    const seen = modulesLoaded(['--input-type=module', '-e', api]);
    expect(seen.some((l) => /\/dist\/node\/chunks\/core-[\w-]+\.js$/.test(l))).toBe(true); // the hook sees chunkwise's own modules (the Node build's chunk holding the Markdown strategy)
    expect(parser(seen)).toEqual([]);
    const doc = join(repoRoot, 'docs', 'markdown.md');
    expect(parser(modulesLoaded([cliBin, 'chunk', doc, '--strategy', 'markdown', '--chunk-size', '100', '--chunk-overlap', '0']))).toEqual([]);
  });

  it('the CLI chunking and embedding (no --sink) loads none', () => {
    const seed = texts.nlSliding;
    expect(peersLoaded([cliBin, 'chunk', seed, '--chunk-size', '100', '--chunk-overlap', '0'])).toEqual([]);
    expect(peersLoaded([cliBin, 'embed', seed, '--chunk-size', '100', '--chunk-overlap', '0'])).toEqual([]);
  });

  it('the CLI loads a store\'s peers only for its --sink, and Transformers.js only for transformers:<folder>', () => {
    const seed = texts.nlSliding;
    const cli = (...extra: string[]) => [cliBin, 'embed', seed, '--chunk-size', '200', '--chunk-overlap', '0', ...extra];
    expect(peersLoaded(cli('--sink', `pglite:${join(dir, 'pg')}`))).toEqual(['@electric-sql/pglite', '@electric-sql/pglite-pgvector']);
    expect(peersLoaded(cli('--sink', `lancedb:${join(dir, 'lance')}`))).toEqual(['@lancedb/lancedb', 'apache-arrow']);
    // no server on port 1: fails after the import
    expect(peersLoaded(cli('--sink', 'postgres://me@127.0.0.1:1/db'), { failing: true })).toEqual(['pg']);
    // a missing folder fails after the import: what counts is which package was resolved
    expect(peersLoaded(cli('--embedder', `transformers:${join(dir, 'no-model')}`), { failing: true })).toEqual(withTheirDependencies(['@huggingface/transformers']));
  });

  it.each([
    ['chunkwise/langchain', ['@langchain/core', '@langchain/textsplitters']],
    ['chunkwise/llamaindex', ['@llamaindex/core']],
    ['chunkwise/sinks/lancedb', ['@lancedb/lancedb', 'apache-arrow']],
    ['chunkwise/sinks/pglite', ['@electric-sql/pglite', '@electric-sql/pglite-pgvector']],
    ['chunkwise/sinks/postgres', ['pg']],
    ['chunkwise/transformers', ['@huggingface/transformers']],
    ['chunkwise/tiktoken', ['js-tiktoken']],
  ])('%s loads its own peers and no other', (entry, own) => {
    expect(peersLoaded(importing(entry))).toEqual(withTheirDependencies(own));
  });
});
