/**
 * Golden outputs of MarkdownChunker (and ParentChildChunker over Markdown) for the
 * Markdown rewrite: every file of shared/eval/markdown, shared/eval/corpora (read as
 * Markdown), shared/seeds and the repository's README.md + docs/*.md, with char, word and
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
const shared = resolve(root, '..', 'shared');
const list = (dir: string, ext: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => join(dir, f));

export function inputs(): { name: string; path: string }[] {
  const files = [
    ...list(join(shared, 'eval', 'markdown'), '.md'),
    ...list(join(shared, 'eval', 'corpora'), '.md'),
    ...list(join(shared, 'seeds'), ''),
    join(root, 'README.md'),
    ...list(join(root, 'docs'), '.md'),
  ];
  return files.map((path) => ({ name: path.startsWith(root) ? 'repo-' + path.slice(root.length + 1).replace(/\//g, '-') : basename(path), path }));
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

function compare(a: string, b: string): void {
  let same = 0;
  let differ = 0;
  for (const f of readdirSync(a).sort()) {
    const x = readFileSync(join(a, f), 'utf8');
    let y = '';
    try {
      y = readFileSync(join(b, f), 'utf8');
    } catch {
      console.log(`${f}: missing in ${b}`);
      differ++;
      continue;
    }
    if (x === y) same++;
    else {
      differ++;
      console.log(`${f}: differs (${x.split('\n').length - 1} → ${y.split('\n').length - 1} chunks)`);
    }
  }
  console.log(`${same} files equal, ${differ} differ`);
}

const args = process.argv.slice(2);
if (args[0] === '--compare') compare(args[1], args[2]);
else if (args[0]) record(args[0]);
else console.error('usage: markdown-golden.ts <out dir> | --compare <a> <b>');
