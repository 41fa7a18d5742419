// Builds what the tests need, only where it is missing or was built from other sources
// than the ones here (`npm test` runs it first, as `pretest`). Three stages, each with
// the hash of its inputs:
//
//   wasm    assembly/, asconfig*.json, bindings/*.ts, the two build scripts, the lockfile,
//           package.json, the Node version (the Unicode table comes from its RegExp)
//           → build/*.wasm, bindings/generated/, dist/bindings/generated/ranks/
//           rebuilt with `npm run build` (everything after it depends on it)
//   dist    the wasm hash, src/, bindings/ (not generated/), bench/, tsconfig*.json,
//           rollup.config.mjs, package.json, the lockfile → dist/ (tsc, then rollup)
//   models  scripts/build-glove.ts, the lockfile → build/models/glove-6b-100d
//
// A stage is rebuilt when one of its outputs is missing or its inputs' hash differs from
// the one recorded when it was last built (build/.inputs.json); content hashes, not
// times, so a copied or checked-out tree is judged by what it holds. `npm run build`
// records too: its `prebuild` hashes the inputs before it starts (`--begin`, which also
// forgets the old record, so a failed build is never taken as done) and its `postbuild`
// keeps that hash (`--end`). So `npm ci` (its `prepare` is the build) then `npm test`
// builds once.
//
//   node scripts/ensure-built.mjs           build what is stale, then print one line per stage
//   node scripts/ensure-built.mjs --check   build nothing; list stale stages, exit 1 if any
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const record = join(root, 'build', '.inputs.json');
const pending = join(root, 'build', '.inputs.pending.json');

/** Every file under the given paths (files or folders), sorted, as paths relative to the root. */
function files(paths, skip = []) {
  const out = [];
  const walk = (abs) => {
    const rel = relative(root, abs);
    if (skip.some((s) => rel === s || rel.startsWith(s + '/'))) return;
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) for (const name of readdirSync(abs)) walk(join(abs, name));
    else out.push(rel);
  };
  for (const p of paths) walk(join(root, p));
  return out.sort();
}

/** sha256 over each file's path and bytes, and the extra strings. */
function hash(paths, { skip = [], extra = [] } = {}) {
  const h = createHash('sha256');
  for (const s of extra) h.update(`${s}\0`);
  for (const f of files(paths, skip)) h.update(`${f}\0`).update(readFileSync(join(root, f))).update('\0');
  return h.digest('hex');
}

const common = ['package.json', 'package-lock.json'];

/** The stages in build order: their inputs' hash, the outputs that must exist, how to build. */
function stages() {
  const wasm = hash(['assembly', 'asconfig.json', 'asconfig.bpe.json', 'scripts/build-wasm.mjs', 'scripts/build-ranks.ts', 'bindings', ...common], {
    skip: ['bindings/generated'],
    extra: [process.version],
  });
  const dist = hash(['src', 'bindings', 'bench', 'tsconfig.json', 'tsconfig.build.json', 'rollup.config.mjs', ...common], {
    skip: ['bindings/generated'],
    extra: [wasm],
  });
  const models = hash(['scripts/build-glove.ts', 'package-lock.json']);
  const ranks = ['cl100k_base', 'o200k_base'];
  return [
    {
      name: 'wasm',
      hash: wasm,
      outputs: [
        'build/chunkwise.wasm',
        'build/bpe.wasm',
        'bindings/generated/kernels-wasm.ts',
        'bindings/generated/bpe-wasm.ts',
        'bindings/generated/bpe-unicode.ts',
        'bindings/generated/ranks/index.ts',
        ...ranks.map((r) => `dist/bindings/generated/ranks/${r}.bpe`),
      ],
      build: () => run('npm', ['run', 'build']), // records wasm and dist itself (prebuild/postbuild)
    },
    {
      name: 'dist',
      hash: dist,
      outputs: ['dist/src/index.js', 'dist/bindings/generated/kernels-wasm.js', 'dist/src/cli/bin.js', 'dist/node/index.js', 'dist/runtime/workerd.js', 'dist/bundle/inline/index.js', 'dist/bundle/asset/chunkwise.wasm'],
      build: () => {
        run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json']);
        run('npm', ['run', 'bundle']);
        save({ ...load(record), dist });
      },
    },
    {
      name: 'models',
      hash: models,
      outputs: ['build/models/glove-6b-100d/model.safetensors', 'build/models/glove-6b-100d/tokenizer.json', 'build/models/glove-6b-100d/config.json'],
      build: () => {
        run('npm', ['run', 'models', '--', '--force']);
        save({ ...load(record), models });
      },
    },
  ];
}

function run(cmd, args) {
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
}

function load(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

function save(value, file = record) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/** Why a stage must be built, or undefined when it is up to date. */
function staleness(stage, recorded) {
  const missing = stage.outputs.find((f) => !existsSync(join(root, f)));
  if (missing) return `${missing} is missing`;
  if (recorded[stage.name] !== stage.hash) return recorded[stage.name] ? 'its sources changed since it was built' : 'no record of building it from these sources';
  return undefined;
}

const mode = process.argv[2];
if (mode === '--begin') {
  // before `npm run build`: remember what it builds from; forget the old record until it succeeds
  const [wasm, dist] = stages();
  const { models } = load(record);
  save(models ? { models } : {});
  save({ wasm: wasm.hash, dist: dist.hash }, pending);
} else if (mode === '--end') {
  // after a successful `npm run build`
  if (existsSync(pending)) {
    save({ ...load(record), ...load(pending) });
    rmSync(pending);
  }
} else if (mode === '--check' || mode === undefined) {
  const check = mode === '--check';
  let stale = 0;
  for (const stage of stages()) {
    // read the record again for each stage: the full build (wasm) records dist as well
    const why = staleness(stage, load(record));
    if (!why) {
      console.log(`ensure-built: ${stage.name} is up to date`);
      continue;
    }
    stale++;
    console.log(`ensure-built: ${stage.name} ${check ? 'is stale' : 'builds'}: ${why}`);
    if (check) continue;
    // forget the record first: a build that fails halfway never counts as done, even if
    // the sources go back to what the record names
    const { [stage.name]: _old, ...rest } = load(record);
    save(rest);
    stage.build();
    const after = staleness(stage, load(record));
    if (after) throw new Error(`ensure-built: ${stage.name} is still stale after building it: ${after}`);
  }
  if (check && stale) process.exitCode = 1;
} else {
  console.error(`usage: node scripts/ensure-built.mjs [--check | --begin | --end] (got ${mode})`);
  process.exitCode = 2;
}
