// `npm pack` / `npm publish` lifecycle: the packed package.json carries no `prepare`
// script. `prepare` builds the WebAssembly and dist/ in a git checkout (`npm ci`); in an
// installed tarball npm would list it as an install script to approve, and it could not
// run there (the build sources are not packed). `prepack` runs this with `strip` (keeping
// the original beside it), `postpack` with `restore`, so the repository's file is as before.
// clean-pkg-json does the stripping but not the restoring (it leaves the file changed).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const FILE = 'package.json';
const KEPT = '.package.json.before-pack';
const mode = process.argv[2];
if (mode === 'strip') {
  const text = readFileSync(FILE, 'utf8');
  if (!existsSync(KEPT)) writeFileSync(KEPT, text);
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync(FILE, JSON.stringify(pkg, null, 2) + '\n');
} else if (mode === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, FILE);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
