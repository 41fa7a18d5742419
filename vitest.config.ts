import { configDefaults, defineConfig } from 'vitest/config';

// Three projects; each test file is in exactly one (test/projects.test.ts checks it).
//
//   unit     what `npm test` runs: the library through its sources (strategies, engine,
//            units, embedders, evaluation, the pipeline, goldens, conformance), no
//            server, browser or other runtime. Every file not named below.
//   package  what a user of the built package meets: types under each resolution, the
//            packed tarball, the Node and bundle builds, entries and optional peers,
//            Chromium pages, workerd and the edge runtime, the CLI end to end and the
//            docs' examples.
//   slow     servers (redis-server for the queue, Postgres over the wire), stores under
//            faults, memory and scaling measures.
//
// All three read build/ and dist/: `npm test` and the test:* scripts build what is
// stale first (scripts/ensure-built.mjs); `npx vitest` alone does not.
//
// `npm run test:all` runs all three (CI does, .ci/run); `npx vitest run --project slow` one.

/** Files of the `package` project: the package as built, and the built CLI end to end. */
export const packageFiles = [
  // the published package: types, tarball, builds, entries, optional peers, bundle sizes
  'test/entries.test.ts',
  'test/integrations-docs.test.ts',
  'test/node-build.test.ts',
  'test/optional-peers.test.ts',
  'test/package.test.ts',
  'test/size.test.ts',
  'test/sizes-docs.test.ts',
  'test/types.test.ts',
  // other runtimes: Chromium (the bundles, the web page), workerd and the edge runtime
  'test/browser.test.ts',
  'test/edge.test.ts',
  'test/web.test.ts',
  // the built CLI (dist/src/cli/bin.js) in child processes, and the docs' examples through it and tsx
  'test/batch.test.ts',
  'test/cli-embed.test.ts',
  'test/cli-errors.test.ts',
  'test/cli.code.test.ts',
  'test/cli.html.test.ts',
  'test/cli.structure-text.test.ts',
  'test/cli.test.ts',
  'test/demo.test.ts',
  'test/docs-examples.test.ts',
  'test/semantic-cli.test.ts',
];

/** Files of the `slow` project. */
export const slowFiles = [
  // servers: redis-server for the queue, Postgres over the wire (PGlite's socket server), LanceDB and PGlite stores under faults
  'test/cli-sink.test.ts',
  'test/queue.test.ts',
  'test/sink-connections.test.ts',
  'test/sink-faults.test.ts',
  'test/sink-nul.test.ts',
  'test/sink-search.test.ts',
  'test/sinks.test.ts',
  'test/pipeline.folder.test.ts',
  // memory (hundreds of MB streamed; 64 MB of one-line text per script, strategy and unit), linear-work scaling at three sizes, the embedders' bench run
  'test/embedders-bench.test.ts',
  'test/qasc.scaling.test.ts',
  'test/scaling.test.ts',
  'test/stream.memory.test.ts',
  'test/pdf.memory.test.ts',
  'test/stream.scripts.test.ts',
];

/**
 * Each project's files (include and exclude globs, relative to the repository root), how
 * many files it runs at once, and its turn in `npm run test:all` (unit first, so a
 * broken library fails fast). Vitest's default on a 2-core machine is one file at a
 * time (cores − 1); the unit files wait on child processes and the file system often
 * enough that two at once finish sooner. The slow files run one at a time: they start
 * servers and measure memory.
 */
export const projects = {
  unit: { include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...packageFiles, ...slowFiles], maxWorkers: 2, order: 0 },
  package: { include: packageFiles, exclude: configDefaults.exclude, maxWorkers: 2, order: 1 },
  slow: { include: slowFiles, exclude: configDefaults.exclude, maxWorkers: 1, order: 2 },
};

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: Object.entries(projects).map(([name, { include, exclude, maxWorkers, order }]) => ({
      extends: true as const,
      test: { name, include, exclude, maxWorkers, sequence: { groupOrder: order } },
    })),
  },
});
