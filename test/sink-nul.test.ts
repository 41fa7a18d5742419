/**
 * U+0000 in chunk text, embed text and metadata (issue 38): Postgres text and jsonb refuse
 * it, so one NUL stopped a whole PGlite or Postgres ingestion while LanceDB stored it.
 * Every sink — LanceDB, PGlite, Postgres over the wire, memory — and the CLI's JSONL now
 * store U+FFFD in its place (one UTF-16 code unit: offsets still delimit the text) and
 * report the same count; a rerun keeps every row (the stored metadata is the chunk's).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashingEmbedder, MarkdownChunker, type Chunk } from '../src/index.js';
import { NUL_REPLACEMENT, writeChunks } from '../src/sinks/index.js';
import { cliBin } from './helpers/paths.js';
import { usePgServer } from './helpers/pg-server.js';
import { everySink } from './helpers/sink-engines.js';

const tmp = mkdtempSync(join(tmpdir(), 'chunkwise-nul-'));
/** Markdown with NULs in headings (so in `headingPath` metadata) and in body text. */
const text = [
  '# Intro\0duction',
  'A PDF extractor left a NUL\0 here, and\0 another one, in words that fill the chunk up.',
  '## Part\0Two',
  'Another paragraph of words, clean of control characters, long enough for its own chunk.',
  '## Clean heading',
  'Text without any of them.',
].join('\n\n');
const chunks: Chunk[] = new MarkdownChunker({ chunkSize: 30 }).chunk(text);
// an embed text and a metadata key with a NUL too
chunks[0] = { ...chunks[0], embedText: 'Intro\0duction: ' + chunks[0].text, metadata: { ...chunks[0].metadata, 'key\0': 'value\0' } };
const embedder = new HashingEmbedder({ dimension: 16 });

/** NULs in a chunk's text, embed text and metadata, counted here on the JSON text (independent of the sinks' walk). */
const nulsOf = (c: Chunk) => (JSON.stringify([c.text, c.embedText ?? null, c.metadata]).match(/\\u0000/g) ?? []).length;
const expected = chunks.reduce((n, c) => n + nulsOf(c), 0);
/** A chunk's metadata as a sink stores it. */
const storedMetadata = (c: Chunk) => JSON.parse(JSON.stringify(c.metadata).replaceAll('\\u0000', NUL_REPLACEMENT));

const server = usePgServer();

const engines = everySink(tmp, server, 'nul_rows');

describe.each(engines)('%s: NUL code points', (_name, open) => {
  it('are stored as U+FFFD and counted; a rerun keeps every row', async () => {
    // chunk 1: 3 in text, 4 in embed text, 1 in heading path, key and value; chunk 2: 1 + 2; chunk 3: 1
    expect(expected).toBe(14);
    const sink = await open();
    try {
      const vectors = await embedder.embed(chunks.map((c) => c.embedText ?? c.text));
      const first = await writeChunks(sink, chunks, vectors, { source: 'nul.md', embedder: 'hashing:16' });
      expect(first.written).toBe(chunks.length);
      expect(sink.nulReplaced).toBe(expected);
      const rows = await sink.rows('nul.md');
      expect(rows.map((r) => r.id)).toEqual(chunks.map((c) => c.id));
      for (const [i, r] of rows.entries()) {
        const c = chunks[i];
        expect(r.text).toBe(c.text.replaceAll('\0', NUL_REPLACEMENT));
        expect(r.text).toBe(text.slice(r.start, r.end).replaceAll('\0', NUL_REPLACEMENT));
        expect(r.embedText).toBe(c.embedText === undefined ? null : c.embedText.replaceAll('\0', NUL_REPLACEMENT));
        expect(r.metadata).toEqual(storedMetadata(c));
        expect(JSON.stringify(r)).not.toContain('\\u0000');
      }
      const again = await writeChunks(sink, chunks, vectors, { source: 'nul.md', embedder: 'hashing:16' });
      expect([again.written, again.kept, again.removed]).toEqual([0, chunks.length, 0]);
      expect(sink.nulReplaced).toBe(expected);
    } finally {
      await sink.close();
    }
  });
});

describe('chunkwise embed: the same replacement and count for JSONL and every --sink', () => {
  // the CLI refuses a file with a NUL in its first 64 KB as binary: these come after 70 KB of clean text
  const file = join(tmp, 'late-nul.md');
  writeFileSync(file, '# Filler\n\n' + 'Clean words of a long document, before its damaged part.\n\n'.repeat(1250) + text);
  const args = ['embed', file, '--strategy', 'markdown', '--chunk-size', '30', '--embedder', 'hashing:16'];
  const notice = (n: number) => `chunkwise: ${n} NUL code point(s) (U+0000) in chunk text or metadata written as U+FFFD\n`;

  it('JSONL: U+FFFD in the records, the count on stderr', () => {
    const r = spawnSync(process.execPath, [cliBin, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(notice(8));
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { text: string; metadata: unknown });
    expect(records.length).toBeGreaterThan(1);
    expect(r.stdout).not.toContain('\\u0000');
    expect(records.filter((x) => x.text.includes(`NUL${NUL_REPLACEMENT} here`)).length).toBe(1);
  });

  it.each(['lancedb', 'pglite', 'postgres'])('--sink %s: exit 0, the same count in the JSON summary; a rerun keeps every row', async (kind) => {
    const spec = kind === 'postgres' ? server().url('nul_cli') : `${kind}:${join(tmp, `cli-${kind}`)}`;
    const r = await run([cliBin, ...args, '--sink', spec, '--summary', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stderr) as { nulReplaced: number; rows: number };
    expect(summary.nulReplaced).toBe(8);
    expect(summary.rows).toBeGreaterThan(1);
    const again = await run([cliBin, ...args, '--sink', spec]);
    // a rerun writes nothing (every row kept), so it replaces nothing
    expect(again.stderr).toMatch(/^chunkwise: \S.* 0 added, \d+ kept, 0 removed;/);
  });
});

/** Runs node with `args` without blocking this process. */
function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}
