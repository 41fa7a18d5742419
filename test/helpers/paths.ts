import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `shared/` beside the repository (CI lays a copy there). */
export const sharedDir = resolve(repoRoot, '..', 'shared');
export const corporaDir = join(sharedDir, 'eval', 'corpora');
export const markdownDir = join(sharedDir, 'eval', 'markdown');
export const seedsDir = join(sharedDir, 'seeds');
/** The compiled CLI entry point. */
export const cliBin = join(repoRoot, 'dist', 'src', 'cli', 'bin.js');

/** Files in a shared folder with the given extension; throws if the folder is missing. */
export function sharedFiles(dir: string, ext: string): string[] {
  if (!existsSync(dir)) throw new Error(`missing ${dir}: shared/ must lie beside the repository`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => join(dir, f));
}
