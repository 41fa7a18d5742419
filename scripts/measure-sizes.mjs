#!/usr/bin/env node
// Sizes the README and docs/runtimes.md quote, measured from the checkout (offline, a few
// seconds plus `npm pack --dry-run`), never written by hand:
// - package: `npm pack --dry-run --json --ignore-scripts` — the tarball's bytes, the
//   unpacked bytes and files, and the images in it (none: screenshots stay in the repository);
// - install: what `npm install chunkwise --omit=optional --omit=peer` puts on disk — the
//   unpacked package plus the closure of its `dependencies`, as resolved in node_modules
//   (apparent bytes of each package's files; a nested node_modules counts as the packages in it);
// - lancedb: what `@lancedb/lancedb` and `apache-arrow` add beside it (their dependencies,
//   the optional ones this platform installed — the native binary — and required peers).
//
// `node scripts/measure-sizes.mjs` prints the figures as JSON; `--write` also rewrites every
// `<!-- size:NAME -->…<!-- /size -->` in README.md and docs/*.md with them.
// test/sizes.test.ts checks the written figures against a fresh measurement.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1e6;

/** Apparent bytes of the files under `dir`, without its node_modules (their packages are counted on their own). */
function bytes(dir) {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') n += bytes(path);
    } else if (entry.isFile()) n += lstatSync(path).size;
  }
  return n;
}

/** The folder Node resolves package `name` to from `from` (node_modules of it and its parents up to the root). */
function resolvePackage(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}

/**
 * The package folders npm installs for `names` resolved from `from`: each with its
 * dependencies, optional dependencies present here and required peers, transitively;
 * folders in `skip` (already counted) are left out.
 */
function closure(names, from, skip = new Set()) {
  const found = new Set();
  const stack = names.map((name) => resolvePackage(name, from));
  while (stack.length > 0) {
    const dir = stack.pop();
    if (dir === undefined || found.has(dir) || skip.has(dir)) continue;
    found.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const peers = Object.keys(pkg.peerDependencies ?? {}).filter((p) => pkg.peerDependenciesMeta?.[p]?.optional !== true);
    for (const dep of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {}), ...peers]) stack.push(resolvePackage(dep, dir));
  }
  return found;
}

const sum = (dirs) => [...dirs].reduce((n, d) => n + bytes(d), 0);
const mb = (n) => `${(n / MB).toFixed(1)} MB`;

/** Every figure, as numbers and as the text the docs show. */
export function measureSizes() {
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const images = pack.files.filter((f) => /\.(png|jpe?g|gif|webp)$/i.test(f.path)).map((f) => f.path);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const deps = closure(Object.keys(pkg.dependencies ?? {}), root);
  const install = pack.unpackedSize + sum(deps);
  const lance = closure(['@lancedb/lancedb', 'apache-arrow'], root, deps);
  const lanceBytes = sum(lance);
  return {
    bytes: { tarball: pack.size, unpacked: pack.unpackedSize, install, lancedb: lanceBytes },
    packages: { install: deps.size + 1, lancedb: lance.size },
    files: pack.entryCount,
    images,
    text: {
      tarball: mb(pack.size),
      unpacked: mb(pack.unpackedSize),
      install: mb(install),
      'install-packages': String(deps.size + 1),
      lancedb: mb(lanceBytes),
      'with-lancedb': mb(install + lanceBytes),
    },
  };
}

const MARKER = /<!-- size:([a-z-]+) -->(.*?)<!-- \/size -->/g;

/** The figures written in `markdown`: marker name → text between the markers. */
export function writtenSizes(markdown) {
  return [...markdown.matchAll(MARKER)].map((m) => ({ name: m[1], text: m[2] }));
}

/** The documents with size markers (README.md and docs/*.md). */
export function sizeDocuments() {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)].filter((f) => writtenSizes(readFileSync(join(root, f), 'utf8')).length > 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sizes = measureSizes();
  if (process.argv.includes('--write')) {
    for (const file of sizeDocuments()) {
      const path = join(root, file);
      const before = readFileSync(path, 'utf8');
      const after = before.replace(MARKER, (whole, name) => {
        if (!(name in sizes.text)) throw new Error(`${file}: unknown size marker ${name} (known: ${Object.keys(sizes.text).join(', ')})`);
        return `<!-- size:${name} -->${sizes.text[name]}<!-- /size -->`;
      });
      if (after !== before) writeFileSync(path, after);
      process.stderr.write(`measure-sizes: ${file}${after === before ? ' (unchanged)' : ''}\n`);
    }
  }
  process.stdout.write(JSON.stringify(sizes, null, 2) + '\n');
}
