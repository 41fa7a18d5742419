/**
 * `chunkwise embed --sink lancedb:<dir> | pglite:<dir> | postgres://…` through the built
 * CLI (Postgres: PGlite served over the wire on a loopback port), read back with the
 * library: two runs leave each chunk once (the second keeps every row, writes none), a
 * nearest-neighbour query returns
 * the chunk it was made from, a changed file replaces its chunks and an emptied one
 * loses them, other files stay; one-line errors (exit 1) for a store that cannot be
 * opened or a dimension that disagrees, usage errors (exit 2). And `--vector-format array`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedSizeChunker, HashingEmbedder, type Sink } from '../src/index.js';
import { LanceDbSink } from '../src/sinks/lancedb.js';
import { openPgliteSink } from '../src/sinks/pglite.js';
import { openPostgresSink } from '../src/sinks/postgres.js';
import { cliBin, markdownDir, texts } from './helpers/paths.js';
import { comparableRows, editFirstThird, misplacedRows } from './helpers/sink-rows.js';
import { startPgServer, type PgServer } from './helpers/pg-server.js';

function run(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [cliBin, ...args], { encoding: 'utf8', env: { ...process.env, CI: '' }, maxBuffer: 1 << 26, cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The fields of embed's one summary line (`chunkwise: <sink>: 2 file(s), 40 chunks: 3 added, 37 kept, 3 removed; 3 texts embedded; 40 in the table; 0.4 s`). */
function summaryLine(stderr: string, name: string) {
  const m = new RegExp(`^chunkwise: ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (\\d+) file\\(s\\), (\\d+) chunks: (\\d+) added, (\\d+) kept, (\\d+) removed; (\\d+) texts embedded; (\\d+) in the table; \\d+\\.\\d s\n$`).exec(stderr);
  if (!m) throw new Error(`not a summary line: ${stderr}`);
  const [files, chunks, added, kept, removed, embedded, rows] = m.slice(1).map(Number);
  return { files, chunks, added, kept, removed, embedded, rows };
}

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-cli-sink-'));
const chunking = ['--strategy', 'fixed', '--chunk-size', '100', '--chunk-overlap', '20']; // the counts below are fixed windows' (auto, the default, picks per file)
const chunker = new FixedSizeChunker({ chunkSize: 100, chunkOverlap: 20 });

let server: PgServer;
beforeAll(async () => {
  server = await startPgServer();
});
afterAll(async () => {
  await server?.stop();
});

const stores: [string, (dir: string) => string, (dir: string, table: string) => Promise<Sink>][] = [
  ['lancedb', (dir) => `lancedb:${dir}`, (dir, table) => LanceDbSink.open(dir, { table })],
  ['pglite', (dir) => `pglite:${dir}`, (dir, table) => openPgliteSink(dir, { table })],
  ['postgres', () => server.url(), (_dir, table) => openPostgresSink(server.url(), { table })],
];

describe.each(stores)('embed --sink %s', (kind, spec, open) => {
  const dir = join(tmp, kind);
  const files = [join(tmp, `${kind}-a.txt`), join(tmp, `${kind}-b.txt`)];
  copyFileSync(texts.enSliding, files[0]);
  copyFileSync(texts.frSliding, files[1]);
  // embed's document id is the file's absolute path (the key of its rows)
  const expected = () => files.flatMap((f) => chunker.chunk(readFileSync(f, 'utf8'), { documentId: f }).map((c) => ({ ...c, source: f })));

  it('two runs leave each chunk once, also with the files named another way; the nearest neighbour of a chunk is that chunk', async () => {
    const want = expected();
    for (let round = 0; round < 2; round++) {
      // the second run names the same files relative to their folder (./x, x): rows are keyed on the absolute path
      const named = round === 0 ? files : [`./${basename(files[0])}`, basename(files[1])];
      const r = run(['embed', ...named, ...chunking, '--sink', spec(dir), '--table', 'docs'], round === 0 ? undefined : tmp);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const line = summaryLine(r.stderr, `${spec(dir)} table docs`);
      expect([line.files, line.chunks, line.added + line.kept, line.removed, line.rows]).toEqual([2, want.length, want.length, 0, want.length]);
      // texts embedded: the added chunks' (these texts have no repeated chunk text)
      expect(line.embedded).toBe(line.added);
      if (round === 0) expect(line.added).toBe(want.length);
      if (round === 1) expect([line.added, line.kept]).toEqual([0, want.length]);
    }
    const sink = await open(dir, 'docs');
    try {
      const rows = await sink.rows();
      expect(rows.length).toBe(want.length);
      const key = (x: { source: string; id: string }) => `${x.source} ${x.id}`;
      expect(rows.map(key).sort()).toEqual(want.map(key).sort());
      for (const r of rows) expect(r.text).toBe(readFileSync(r.source, 'utf8').slice(r.start, r.end));
      const target = want.find((c) => c.text.includes('stride'))!;
      const [hit] = await sink.search(await new HashingEmbedder().embed([target.text]), 1);
      expect([hit.source, hit.id, hit.text]).toEqual([target.source, target.id, target.text]);
      expect(hit.distance).toBeCloseTo(0, 5);
    } finally {
      await sink.close();
    }
  });

  it('a changed file replaces its chunks, an emptied file loses them, the other file stays', async () => {
    const before = expected();
    writeFileSync(files[0], readFileSync(files[0], 'utf8').slice(0, 1500) + '\n\nA new last paragraph about window overlap.\n');
    const after = expected();
    const now = new Set(after.map((c) => `${c.source} ${c.id}`));
    const was = new Set(before.map((c) => `${c.source} ${c.id}`));
    const stale = before.filter((c) => !now.has(`${c.source} ${c.id}`)).length;
    const kept = after.filter((c) => was.has(`${c.source} ${c.id}`)).length;
    expect(stale).toBeGreaterThan(3);
    expect(kept).toBeGreaterThan(3);
    const r = run(['embed', ...files, ...chunking, '--sink', spec(dir), '--table', 'docs']);
    expect(r.code, r.stderr).toBe(0);
    const line = summaryLine(r.stderr, `${spec(dir)} table docs`);
    expect([line.chunks, line.added + line.kept, line.removed, line.rows]).toEqual([after.length, after.length, stale, after.length]);
    expect([line.added, line.kept]).toEqual([after.length - kept, kept]);

    writeFileSync(files[1], '');
    const r2 = run(['embed', ...files, ...chunking, '--sink', spec(dir), '--table', 'docs']);
    expect(r2.code, r2.stderr).toBe(0);
    const sink = await open(dir, 'docs');
    try {
      expect((await sink.rows(files[1])).length).toBe(0);
      expect((await sink.rows(files[0])).map((x) => x.id)).toEqual(chunker.chunk(readFileSync(files[0], 'utf8'), { documentId: files[0] }).map((c) => c.id));
    } finally {
      await sink.close();
    }
  });

  it('a deleted file: without --prune its rows stay, with --prune exactly they go; --summary json says so', async () => {
    const gone = join(tmp, `${kind}-c.txt`);
    copyFileSync(texts.frSliding, gone);
    const both = run(['embed', files[0], gone, ...chunking, '--sink', spec(dir), '--table', 'pruned']);
    expect(both.code, both.stderr).toBe(0);
    const goneRows = chunker.chunk(readFileSync(gone, 'utf8')).length;
    const keepRows = chunker.chunk(readFileSync(files[0], 'utf8')).length;
    rmSync(gone);
    const without = run(['embed', files[0], ...chunking, '--sink', spec(dir), '--table', 'pruned', '--summary', 'json']);
    expect(without.code, without.stderr).toBe(0);
    expect(JSON.parse(without.stderr)).toMatchObject({ documents: 1, chunks: keepRows, removed: 0, pruned: 0, rows: keepRows + goneRows });
    const pruned = run(['embed', files[0], ...chunking, '--sink', spec(dir), '--table', 'pruned', '--prune', '--summary', 'json']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stderr)).toMatchObject({ documents: 1, chunks: keepRows, removed: goneRows, pruned: goneRows, rows: keepRows });
    const sink = await open(dir, 'pruned');
    try {
      expect((await sink.rows()).map((r) => r.source)).toEqual(Array(keepRows).fill(files[0]));
    } finally {
      await sink.close();
    }
  });

  it('after an edit near the start of a Markdown file, the rerun leaves every row as a clean run into a new table would, embedding ≤ 3 texts', async () => {
    const chapters = ['ch08-02-strings.md', 'ch03-02-data-types.md'].map((name) => {
      const to = join(tmp, `${kind}-${name}`);
      copyFileSync(join(markdownDir, name), to);
      return to;
    });
    const args = (table: string) => ['embed', ...chapters, '--strategy', 'markdown', '--chunk-size', '256', '--sink', spec(dir), '--table', table];
    expect(run(args('edited')).code).toBe(0);
    const edited = editFirstThird(readFileSync(chapters[0], 'utf8'))!;
    writeFileSync(chapters[0], edited.text);
    const rerun = run(args('edited'));
    expect(rerun.code, rerun.stderr).toBe(0);
    const line = summaryLine(rerun.stderr, `${spec(dir)} table edited`);
    expect(line.embedded).toBeGreaterThan(0);
    expect(line.embedded).toBeLessThanOrEqual(3);
    expect(line.kept).toBe(line.chunks - line.added);
    expect(run(args('clean')).code).toBe(0);
    // one table open at a time (a PGlite folder takes one opener)
    const read = async (table: string) => {
      const sink = await open(dir, table);
      try {
        return await sink.rows();
      } finally {
        await sink.close();
      }
    };
    const rows = await read('edited');
    expect(misplacedRows(rows, (source) => readFileSync(source, 'utf8'))).toEqual([]);
    expect(comparableRows(rows)).toEqual(comparableRows(await read('clean')));
  });

  it('a table of another dimension: one line, exit 1, before any embedding', () => {
    const r = run(['embed', files[0], ...chunking, '--sink', spec(dir), '--table', 'docs', '--embedder', 'hashing:64']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`chunkwise: ${spec(dir)} table docs: the table holds vectors of dimension 384, these chunks have 64 (use another --table or the same embedder)\n`);
  });

  it.skipIf(kind === 'postgres')('a store that cannot be opened: one line, exit 1', () => {
    const file = join(tmp, `${kind}-not-a-folder`);
    writeFileSync(file, 'x');
    const r = run(['embed', files[0], '--sink', spec(file)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^chunkwise: ${kind}:${file}: cannot open the database: .*(file|director)`));
    expect(r.stderr.trim().split('\n').length).toBe(1);
  });
});

describe('embed --sink postgres://…', () => {
  it('the URL names the table; a server that cannot be reached is one line, exit 1, without the password', () => {
    const file = join(tmp, 'pg-url.txt');
    writeFileSync(file, 'One paragraph about strides.\n\nAnother about overlap.\n');
    const r = run(['embed', file, ...chunking, '--sink', server.url('by_url')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^chunkwise: postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres table by_url: 1 file\(s\), 1 chunks: 1 added, 0 kept, 0 removed; 1 texts embedded; 1 in the table; \d+\.\d s\n$/);
    const clash = run(['embed', file, '--sink', server.url('by_url'), '--table', 'other']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toBe('chunkwise: invalid option --table: "other" (one table: the URL names "by_url")\n');
    const down = run(['embed', file, '--sink', 'postgres://me:s3cret@127.0.0.1:1/db']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^chunkwise: postgres:\/\/me@127\.0\.0\.1:1\/db: cannot connect: .*ECONNREFUSED.*\n$/);
    expect(down.stderr).not.toContain('s3cret');
  });
});

describe('embed usage errors and --vector-format', () => {
  const seed = texts.nlSliding;
  it('exit 2 for a bad sink spec, --sink with --out or npy, --table without --sink, a bad vector format', () => {
    for (const [args, message] of [
      [['--sink', 'mongo:./x'], 'chunkwise: invalid option --sink: "mongo:./x" (lancedb:<dir>, pglite:<dir> or postgres://user@host:port/db[?table=name])\n'],
      [['--sink', 'lancedb:'], 'chunkwise: invalid option --sink: "lancedb:" (lancedb:<dir>, pglite:<dir> or postgres://user@host:port/db[?table=name])\n'],
      [['--sink', 'postgres:x'], 'chunkwise: invalid option --sink: "postgres:x" (lancedb:<dir>, pglite:<dir> or postgres://user@host:port/db[?table=name])\n'],
      [['--sink', `pglite:${tmp}/u`, '--out', join(tmp, 'x.jsonl')], 'chunkwise: --sink writes to the store: leave out --out and --format npy\n'],
      [['--table', 'docs'], 'chunkwise: --table names a table of --sink: give --sink lancedb:<dir>, pglite:<dir> or postgres://user@host:port/db[?table=name]\n'],
      [['--prune'], 'chunkwise: --prune deletes rows of a --sink: give --sink lancedb:<dir>, pglite:<dir> or postgres://user@host:port/db[?table=name]\n'],
      [['--summary', 'xml'], /^chunkwise: invalid option --summary: "xml" \(one of text, json, none\)/],
      [['--sink', `lancedb:${tmp}/u`, '--table', 'no-dash'], /^chunkwise: invalid option --table: "no-dash"/],
      [['--vector-format', 'hex'], /^chunkwise: invalid option --vector-format: "hex" \(one of base64, array\)/],
    ] as const) {
      const r = run(['embed', seed, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      if (typeof message === 'string') expect(r.stderr).toBe(message);
      else expect(r.stderr).toMatch(message);
    }
  });

  it('--vector-format array writes the same vectors as numbers', () => {
    const b64 = run(['embed', seed, ...chunking]).stdout.trim().split('\n').map((l) => JSON.parse(l));
    const arr = run(['embed', seed, ...chunking, '--vector-format', 'array']).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(arr.length).toBe(b64.length);
    for (let i = 0; i < arr.length; i++) {
      const bytes = Buffer.from(b64[i].vector, 'base64');
      const v = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
      expect(Array.isArray(arr[i].vector)).toBe(true);
      expect(Float32Array.from(arr[i].vector)).toEqual(v);
      expect({ ...arr[i], vector: 0 }).toEqual({ ...b64[i], vector: 0 });
    }
  });
});
