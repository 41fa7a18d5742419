/**
 * Golden outputs of MarkdownChunker (and ParentChildChunker over Markdown) for the
 * Markdown rewrite: every file of eval/markdown, eval/corpora (read as
 * Markdown), texts/ and the repository's README.md + docs/*.md, with char, word and
 * token units, chunkSize 64, 256, 512, 1000, contextualHeaders off and on. Writes one
 * JSON-lines file per (file, options) into the output folder: every chunk field but `id`.
 *
 *   npx tsx scripts/markdown-golden.ts out/golden-before
 *   npx tsx scripts/markdown-golden.ts out/golden-after
 *   npx tsx scripts/markdown-golden.ts --compare out/golden-before out/golden-after
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { MarkdownChunker, ParentChildChunker } from '../src/index.js';

const root = resolve(import.meta.dirname, '..');
const list = (dir: string, ext: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => join(dir, f));

export function inputs(): { name: string; path: string }[] {
  // the data files are named by their base name, the repository's own docs by their path
  const data = [...list(join(root, 'eval', 'markdown'), '.md'), ...list(join(root, 'eval', 'corpora'), '.md'), ...list(join(root, 'texts'), '')];
  const docs = [join(root, 'README.md'), ...list(join(root, 'docs'), '.md')];
  return [
    ...data.map((path) => ({ name: basename(path), path })),
    ...docs.map((path) => ({ name: 'repo-' + path.slice(root.length + 1).replace(/\//g, '-'), path })),
  ];
}

const strip = (c: object) => {
  const { id: _id, ...rest } = c as { id: string };
  return JSON.stringify(rest);
};

function record(out: string): void {
  mkdirSync(out, { recursive: true });
  for (const { name, path } of inputs()) {
    const text = readFileSync(path, 'utf8');
    for (const unit of ['char', 'word', 'token'] as const) {
      for (const chunkSize of [64, 256, 512, 1000]) {
        for (const contextualHeaders of [false, true]) {
          const chunks = new MarkdownChunker({ unit, chunkSize, contextualHeaders }).chunk(text);
          writeFileSync(join(out, `${name}.${unit}.${chunkSize}.${contextualHeaders ? 'ctx' : 'plain'}.jsonl`), chunks.map(strip).join('\n') + '\n');
        }
      }
    }
    if (/\.md$/.test(path) && !path.includes('corpora')) {
      const pc = new ParentChildChunker({ parentSize: 1024, childSize: 128, childOverlap: 16, markdown: true });
      writeFileSync(join(out, `${name}.parent-child.jsonl`), pc.chunk(text).map(strip).join('\n') + '\n');
    }
    console.error(name);
  }
}

/** A JSON value with object keys sorted (the assembler writes `embedText` after `metadata`). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  return v;
}

function compare(a: string, b: string): void {
  const load = (path: string) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.stringify(sorted(JSON.parse(l))));
  let same = 0;
  let differ = 0;
  for (const f of readdirSync(a).sort()) {
    let y: string[];
    try {
      y = load(join(b, f));
    } catch {
      console.log(`${f}: missing in ${b}`);
      differ++;
      continue;
    }
    const x = load(join(a, f));
    if (x.length === y.length && x.every((line, i) => line === y[i])) {
      same++;
      continue;
    }
    differ++;
    const i = x.findIndex((line, k) => line !== y[k]);
    console.log(`${f}: differs (${x.length} → ${y.length} chunks), first at chunk ${i}:\n  before ${x[i]?.slice(0, 300)}\n  after  ${y[i]?.slice(0, 300)}`);
  }
  console.log(`${same} files equal (every field but id, key order aside), ${differ} differ`);
}

const args = process.argv.slice(2);
if (args[0] === '--compare') compare(args[1], args[2]);
else if (args[0]) record(args[0]);
else console.error('usage: markdown-golden.ts <out dir> | --compare <a> <b>');
