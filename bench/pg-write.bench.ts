/**
 * Ways to write a window of chunk rows into PGlite (issue 34: PGlite is the slowest sink),
 * measured in one process on rows of real text (the ingest bench's source text, markdown
 * 256 tokens, hashing embedder 384): the sink's multi-row `INSERT … VALUES … ON CONFLICT`
 * with vectors as pgvector text (as written today and with each float's shortest float32
 * spelling), vectors as `float4[]` cast to vector, and `COPY … FROM '/dev/blob'` into a
 * staging table then one `INSERT … SELECT … ON CONFLICT`. Each way writes the same rows
 * into a fresh table, rounds interleaved; medians of rows/s.
 *
 *   npx tsx bench/pg-write.bench.ts        # PG_WRITE_ROWS=4096 PG_WRITE_ROUNDS=3
 * @module
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { HashingEmbedder, MarkdownChunker } from '../src/index.js';
import { vectorLiteral } from '../src/sinks/pgvector.js';
import { copyRowsBinary } from '../src/sinks/pg-copy.js';
import { corporaDir, markdownDir, repoRoot } from './util.js';

const ROWS = Number(process.env.PG_WRITE_ROWS ?? 4096);
const ROUNDS = Number(process.env.PG_WRITE_ROUNDS ?? 3);

interface Row {
  id: string;
  source: string;
  text: string;
  start: number;
  end: number;
  tokenCount: number;
  metadata: string;
  vector: Float32Array;
}

async function corpusRows(): Promise<Row[]> {
  const md = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => readFileSync(join(dir, f), 'utf8'));
  const text = [...md(corporaDir), ...md(markdownDir), ...md(join(repoRoot, 'docs'))].join('\n\n');
  const chunker = new MarkdownChunker({ chunkSize: 256 });
  const rows: Row[] = [];
  for (let doc = 0; rows.length < ROWS; doc++) {
    const start = (doc * 104_729) % text.length;
    const piece = text.slice(start, start + 25_000);
    for (const c of chunker.chunk(piece, { documentId: `doc-${doc}.md` })) {
      if (rows.length === ROWS) break;
      rows.push({ id: c.id, source: `/corpus/doc-${doc}.md`, text: c.text, start: c.start, end: c.end, tokenCount: c.tokenCount, metadata: JSON.stringify(c.metadata ?? {}), vector: new Float32Array(0) });
    }
  }
  const embedder = new HashingEmbedder();
  const vectors = await embedder.embed(rows.map((r) => r.text));
  rows.forEach((r, i) => (r.vector = vectors.subarray(i * embedder.dimension, (i + 1) * embedder.dimension)));
  return rows;
}

/** The shortest decimal that reads back as the same float32 (pgvector parses with strtof). */
function shortFloat(x: number): string {
  for (let p = 6; p < 9; p++) {
    const s = x.toPrecision(p);
    if (Math.fround(Number(s)) === x) return String(Number(s));
  }
  return String(x);
}
function shortLiteral(v: Float32Array): string {
  let s = '[';
  for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + shortFloat(v[i]);
  return s + ']';
}

const COLS = '"id", "source", "text", "embed_text", "start", "end", "token_count", "metadata", "vector", "embedder"';
const UPDATE = ['text', 'embed_text', 'start', 'end', 'token_count', 'metadata', 'vector', 'embedder'].map((c) => `"${c}" = EXCLUDED."${c}"`).join(', ');
const create = (t: string) =>
  `CREATE TABLE ${t} ("id" text COLLATE "C" NOT NULL, "source" text COLLATE "C" NOT NULL, "text" text NOT NULL, "embed_text" text, "start" integer NOT NULL, "end" integer NOT NULL, "token_count" integer NOT NULL, "metadata" jsonb NOT NULL, "vector" vector(384) NOT NULL, "embedder" text NOT NULL DEFAULT '', PRIMARY KEY ("source", "id"))`;
const PER_STATEMENT = 4096;

type Way = (db: PGlite, t: string, rows: Row[]) => Promise<void>;

function valuesWay(vec: (r: Row) => unknown, cast: string): Way {
  return async (db, t, rows) => {
    for (let s = 0; s < rows.length; s += PER_STATEMENT) {
      const params: unknown[] = [];
      const values: string[] = [];
      for (const r of rows.slice(s, s + PER_STATEMENT)) {
        const p = params.length;
        params.push(r.id, r.source, r.text, null, r.start, r.end, r.tokenCount, r.metadata, vec(r), 'hashing');
        values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${p + 8}::jsonb, $${p + 9}${cast}, $${p + 10})`);
      }
      await db.query(`INSERT INTO ${t} (${COLS}) VALUES ${values.join(', ')} ON CONFLICT ("source", "id") DO UPDATE SET ${UPDATE}`, params);
    }
  };
}

/** COPY text format: backslash, tab, newline, carriage return escaped; \N is NULL. */
const copyText = (s: string) => s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

function copyWay(literal: (v: Float32Array) => string): Way {
  return async (db, t, rows) => {
    const lines = rows.map((r) => [copyText(r.id), copyText(r.source), copyText(r.text), '\\N', r.start, r.end, r.tokenCount, copyText(r.metadata), literal(r.vector), 'hashing'].join('\t')).join('\n') + '\n';
    await db.transaction(async (tx) => {
      await tx.query(`CREATE TEMP TABLE IF NOT EXISTS staging (LIKE ${t} INCLUDING DEFAULTS) ON COMMIT DELETE ROWS`);
      await tx.query(`COPY staging (${COLS}) FROM '/dev/blob'`, [], { blob: new Blob([lines]) });
      await tx.query(`INSERT INTO ${t} (${COLS}) SELECT ${COLS} FROM staging ORDER BY "source", "id" ON CONFLICT ("source", "id") DO UPDATE SET ${UPDATE}`);
    });
  };
}

/** Binary COPY (src/sinks/pg-copy.ts: no text parsed by the server) into a staging table, then one INSERT … SELECT … ON CONFLICT. */
const binaryWay: Way = async (db, t, rows) => {
  const data = copyRowsBinary(rows.map((r) => ({ ...r, embedText: null, metadata: JSON.parse(r.metadata) as Record<string, unknown>, embedder: 'hashing' })));
  await db.query(`CREATE TEMP TABLE IF NOT EXISTS staging_b (LIKE ${t} INCLUDING DEFAULTS)`);
  await db.query('TRUNCATE staging_b');
  await db.query(`COPY staging_b (${COLS}) FROM '/dev/blob' WITH (FORMAT binary)`, [], { blob: new Blob([data]) });
  await db.query(`INSERT INTO ${t} (${COLS}) SELECT ${COLS} FROM staging_b ORDER BY "source", "id" ON CONFLICT ("source", "id") DO UPDATE SET ${UPDATE}`);
  await db.query('DROP TABLE staging_b');
};

const ways: Record<string, Way> = {
  'binary COPY into a staging table, then INSERT … SELECT … ON CONFLICT': binaryWay,
  'VALUES, vector text (today)': valuesWay((r) => vectorLiteral(r.vector), '::vector'),
  'VALUES, vector text, shortest float32 spelling': valuesWay((r) => shortLiteral(r.vector), '::vector'),
  'VALUES, float4[] cast to vector': valuesWay((r) => Array.from(r.vector), '::float4[]::vector'),
  'COPY into a staging table, then INSERT … SELECT … ON CONFLICT': copyWay(vectorLiteral),
  'COPY, shortest float32 spelling': copyWay(shortLiteral),
};

/** The write ways side by side (`npm run bench -- pg-write`): a Markdown table of rows/s. */
export async function runPgWriteBench(): Promise<string> {
  const rows = (await corpusRows()).sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const db = await PGlite.create(undefined, { extensions: { vector } });
  await db.query('CREATE EXTENSION IF NOT EXISTS vector');
  const rate: Record<string, number[]> = {};
  let n = 0;
  const load0 = os.loadavg()[0];
  let check: string | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, way] of Object.entries(ways)) {
      const t = `t${n++}`;
      await db.query(create(t));
      const t0 = performance.now();
      await way(db, t, rows);
      const ms = performance.now() - t0;
      (rate[name] ??= []).push(rows.length / (ms / 1000));
      // every way stores the same rows (vectors compared as text)
      const sum = (await db.query<{ h: string }>(`SELECT md5(string_agg("id" || "text" || "vector"::text, ',' ORDER BY "source", "id")) AS h FROM ${t}`)).rows[0].h;
      if (check === undefined) check = sum;
      else if (sum !== check) throw new Error(`${name}: rows differ`);
      await db.query(`DROP TABLE ${t}`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const base = median(rate['VALUES, vector text (today)']);
  const lines = [`PGlite 0.5 in memory, ${rows.length} rows of real text (markdown 256, hashing 384), ${ROUNDS} rounds interleaved, medians. Load ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}.`, '', '| way | rows/s | × today |', '|---|---:|---:|'];
  for (const [name, xs] of Object.entries(rate)) lines.push(`| ${name} | ${median(xs).toFixed(0)} | ${(median(xs) / base).toFixed(2)} |`);
  await db.close();
  return lines.join('\n');
}

// run directly: npx tsx bench/pg-write.bench.ts (importing the module runs nothing)
if (process.argv[1]?.endsWith('pg-write.bench.ts')) {
  runPgWriteBench().then(
    (md) => console.log(md),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
