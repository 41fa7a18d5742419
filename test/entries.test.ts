/**
 * What the root import path loads, and the optional peers behind `chunkwise/onnx`:
 * - `import('chunkwise')` (dist/src/index.js) in a fresh Node process loads no ONNX
 *   Runtime, no js-tiktoken, no Hugging Face tokenizer, no evaluation module, no QASC
 *   index and no rank table (module URLs recorded by a loader hook);
 * - `chunkwise/onnx` without onnxruntime-web / onnxruntime-node installed (hidden by
 *   `helpers/hidden-packages.ts`) throws `MissingDependencyError` naming the package, or
 *   both where either would do.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hidePackagesArgs } from './helpers/hidden-packages.js';
import { repoRoot } from './helpers/paths.js';

const dist = pathToFileURL(join(repoRoot, 'dist')).href;

/** The last stdout line, as JSON, of `script` run in a fresh Node process with `args` before it. */
function runScript(args: string[], script: string, env: Record<string, string> = {}): unknown {
  const out = execFileSync(process.execPath, [...args, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** Runs `script` in a fresh Node process with loader hooks (module source text); returns its last stdout line as JSON. */
function withHooks(hooks: string, script: string, env: Record<string, string> = {}): unknown {
  const register = `import { register } from 'node:module'; register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(hooks))});`;
  return runScript(['--import', 'data:text/javascript,' + encodeURIComponent(register)], script, env);
}

describe('the root import path', () => {
  it('loads no ONNX Runtime, js-tiktoken, HF tokenizer, evaluation, QASC index or rank table', () => {
    const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(spec, context, next) { const r = await next(spec, context); appendFileSync(process.env.URLS_FILE, r.url + '\\n'); return r; }`;
    const file = join(mkdtempSync(join(tmpdir(), 'chunkwise-urls-')), 'urls.txt');
    const script = `import { readFileSync, rmSync } from 'node:fs';
const cw = await import('${dist}/src/index.js');
new cw.SlidingWindowChunker({ unit: 'word', windowSize: 5, stride: 3, countTokens: false }).chunk('one two three four five six');
const urls = readFileSync(process.env.URLS_FILE, 'utf8').trim().split('\\n');
rmSync(process.env.URLS_FILE);
console.log(JSON.stringify(urls));`;
    const urls = withHooks(hooks, script, { URLS_FILE: file }) as string[];
    expect(urls.some((u) => u.endsWith('/dist/src/index.js'))).toBe(true);
    expect(urls.some((u) => u.includes('/dist/src/strategies/sliding-window/sliding-window.js'))).toBe(true);
    const HEAVY = /onnxruntime|js-tiktoken|@huggingface|csv-parse|\/dist\/src\/evaluation\/|qasc-index|generated\/ranks\/(cl100k|o200k)_base\.|hf-tokenizer|onnx-embedder/;
    expect(urls.filter((u) => HEAVY.test(u))).toEqual([]);
    // the pattern does catch them
    for (const u of ['node_modules/onnxruntime-web/dist/ort.mjs', 'file:///x/dist/src/evaluation/index.js', 'generated/ranks/cl100k_base.0.js', 'generated/ranks/o200k_base.bpe']) {
      expect(HEAVY.test(u), u).toBe(true);
    }
  });
});

describe('chunkwise/onnx without its optional peers', () => {
  it('MissingDependencyError names the package to install; in Node without a backend asked for, both runtimes (was: onnxruntime-web only)', () => {
    const script = `const onnx = await import('${dist}/src/onnx.js');
const out = {};
for (const backend of ['web', 'node', undefined]) {
  try { await onnx.loadOrt({ backend }); out[backend ?? 'default'] = 'loaded'; }
  catch (e) { out[backend ?? 'default'] = [e instanceof onnx.MissingDependencyError, e.packageNames, e.message]; }
}
console.log(JSON.stringify(out));`;
    const out = runScript(hidePackagesArgs(['onnxruntime-web', 'onnxruntime-node']), script) as Record<string, [boolean, string[], string]>;
    const notFound = (p: string) => `Cannot find package '${p}' imported from `;
    expect(out.web.slice(0, 2)).toEqual([true, ['onnxruntime-web']]);
    expect(out.web[2]).toMatch(/^OnnxEmbedder needs the package onnxruntime-web, which could not be imported \(/);
    expect(out.web[2]).toContain(notFound('onnxruntime-web'));
    expect(out.web[2]).toMatch(/\): install it with npm install onnxruntime-web$/);
    expect(out.node.slice(0, 2)).toEqual([true, ['onnxruntime-node']]);
    expect(out.node[2]).toMatch(/^OnnxEmbedder with backend "node" needs the package onnxruntime-node, which could not be imported \(.*\): install it with npm install onnxruntime-node$/);
    expect(out.default.slice(0, 2)).toEqual([true, ['onnxruntime-node', 'onnxruntime-web']]);
    expect(out.default[2]).toMatch(
      /^OnnxEmbedder needs one of the packages onnxruntime-node or onnxruntime-web, which could not be imported \(.*onnxruntime-node.*; .*onnxruntime-web.*\): install one: npm install onnxruntime-node or npm install onnxruntime-web$/,
    );
  });
});
