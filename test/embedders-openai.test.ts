/**
 * OpenAIEmbedder against a local OpenAI-compatible server the test starts (node:http on
 * 127.0.0.1): the server embeds with HashingEmbedder (so every vector is checkable),
 * answers in reverse order (the client must sort by `index`), and injects 429s, 5xx,
 * dropped connections, hangs, wrong dimensions and non-JSON answers on request.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddingError, HashingEmbedder, InvalidOptionError, SemanticChunker } from '../src/index.js';
import { EmbeddingRequestError, OpenAIEmbedder, retryAfterMs, type RetryEvent } from '../src/embedders/openai.js';
import { cliBin } from './helpers/paths.js';

type Fault =
  | { status: number; headers?: Record<string, string>; body?: string }
  | { drop: true }
  | { hang: true }
  | { dimension: number }
  | { count: number };

interface Seen {
  authorization?: string;
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number };
}

const hashing = new HashingEmbedder({ dimension: 32 });
let server: Server;
let baseURL: string;
const faults: Fault[] = [];
const seen: Seen[] = [];

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = '';
  for await (const part of req) raw += part;
  if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
    res.writeHead(404).end();
    return;
  }
  const body = JSON.parse(raw);
  seen.push({ authorization: req.headers.authorization, body });
  const fault = faults.shift();
  if (fault && 'drop' in fault) return void req.socket.destroy();
  if (fault && 'hang' in fault) return; // never answers; the client times out
  if (fault && 'status' in fault) {
    res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
    res.end(fault.body ?? JSON.stringify({ error: { message: `injected ${fault.status}`, type: 'test' } }));
    return;
  }
  const d = fault && 'dimension' in fault ? fault.dimension : 32;
  const vectors = await new HashingEmbedder({ dimension: d }).embed(body.input);
  let data = body.input.map((_: string, i: number) => ({ object: 'embedding', index: i, embedding: Array.from(vectors.subarray(i * d, (i + 1) * d)) }));
  if (fault && 'count' in fault) data = data.slice(0, fault.count);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', model: body.model, data: data.reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } }));
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  faults.length = 0;
  seen.length = 0;
});

const texts = Array.from({ length: 10 }, (_, i) => `chunk number ${i} about sliding windows and strides ${'x'.repeat(i)}`);
const local = (extra: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
  new OpenAIEmbedder({ model: 'local-model', dimension: 32, baseURL, apiKey: 'sk-test', initialDelayMs: 5, ...extra });

describe('requests and batching', () => {
  it('sends batches of batchSize in order and returns the server vectors row by row', async () => {
    const e = local({ batchSize: 4, normalize: false });
    const out = await e.embed(texts);
    expect(seen.map((s) => s.body.input.length)).toEqual([4, 4, 2]);
    expect(seen.flatMap((s) => s.body.input)).toEqual(texts);
    expect(seen[0].body).toMatchObject({ model: 'local-model', encoding_format: 'float' });
    expect(seen[0].authorization).toBe('Bearer sk-test');
    expect(Array.from(out)).toEqual(Array.from(await hashing.embed(texts)));
    expect(e.requests).toBe(3);
  });

  it('normalises rows by default; empty strings are not sent and get the zero vector', async () => {
    const out = await local().embed(['', 'overlap ratio', '']);
    expect(seen.flatMap((s) => s.body.input)).toEqual(['overlap ratio']);
    expect(Array.from(out.subarray(0, 32)).every((v) => v === 0)).toBe(true);
    expect(Array.from(out.subarray(64)).every((v) => v === 0)).toBe(true);
    expect(Math.hypot(...out.subarray(32, 64))).toBeCloseTo(1, 6);
    expect((await local().embed([])).length).toBe(0);
  });

  it('takes the API key from OPENAI_API_KEY and sends dimensions when asked', async () => {
    const old = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-env';
    try {
      await new OpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 32, baseURL }).embed(['a']);
    } finally {
      if (old === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = old;
    }
    expect(seen[0].authorization).toBe('Bearer sk-from-env');
    expect(seen[0].body.dimensions).toBe(32);
  });

  it('create() asks the endpoint for the dimension of an unknown model', async () => {
    const e = await OpenAIEmbedder.create({ model: 'nomic-embed-text', baseURL });
    expect(e.dimension).toBe(32);
    expect(seen[0].body.input).toEqual(['dimension probe']);
    expect(seen[0].authorization).toBeUndefined(); // no key for a local endpoint
  });

  it('drives a chunkwise strategy (semantic) like any embedder', async () => {
    const text = 'Sliding windows move by a stride. The stride sets the overlap. Tables need headers. Each row keeps its header.';
    const viaHttp = await new SemanticChunker({ embedder: local(), threshold: 50 }).chunk(text);
    const direct = await new SemanticChunker({ embedder: hashing, threshold: 50 }).chunk(text);
    expect(viaHttp.map((c) => [c.start, c.end])).toEqual(direct.map((c) => [c.start, c.end]));
  });
});

describe('retries', () => {
  it('retries 429 and 5xx with exponential backoff, honouring Retry-After / retry-after-ms', async () => {
    faults.push(
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 500 },
      { status: 503 },
      { status: 429, headers: { 'retry-after-ms': '25' } },
    );
    const events: RetryEvent[] = [];
    const out = await local({ onRetry: (e) => events.push(e), normalize: false }).embed(texts.slice(0, 3));
    expect(events.map((e) => [e.attempt, e.status, e.delayMs])).toEqual([
      [1, 429, 0],
      [2, 500, 10],
      [3, 503, 20],
      [4, 429, 25],
    ]);
    expect(events[1].reason).toBe('HTTP 500: injected 500');
    expect(seen.length).toBe(5);
    expect(Array.from(out)).toEqual(Array.from(await hashing.embed(texts.slice(0, 3))));
  });

  it('Retry-After in seconds is waited, capped by maxDelayMs', async () => {
    faults.push({ status: 429, headers: { 'retry-after': '1' } }, { status: 429, headers: { 'retry-after': '120' } });
    const events: RetryEvent[] = [];
    await local({ onRetry: (e) => events.push(e), maxDelayMs: 1500 }).embed(['a']);
    expect(events.map((e) => e.delayMs)).toEqual([1000, 1500]);
  });

  it('dropped connections and timeouts are retried', async () => {
    faults.push({ drop: true }, { hang: true });
    const events: RetryEvent[] = [];
    const out = await local({ onRetry: (e) => events.push(e), timeoutMs: 200 }).embed(['a', 'b']);
    expect(events.map((e) => e.status)).toEqual([undefined, undefined]);
    expect(events[0].reason).toMatch(/^network error/);
    expect(events[1].reason).toBe('no answer within 200 ms');
    expect(out.length).toBe(64);
  });

  it('gives up after maxRetries with an EmbeddingRequestError naming the status', async () => {
    faults.push({ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 });
    const err = await local({ maxRetries: 2 }).embed(['a']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingRequestError);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect(err).toMatchObject({ status: 503, attempts: 3, retryable: true });
    expect((err as Error).message).toBe(`${baseURL}/embeddings failed after 3 attempt(s): HTTP 503: injected 503`);
  });

  it('does not retry 400 or 401: the server message comes through', async () => {
    faults.push({ status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided' } }) });
    const err = await local().embed(['a']).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, attempts: 1, retryable: false });
    expect((err as Error).message).toBe(`${baseURL}/embeddings refused the request: HTTP 401: Incorrect API key provided`);
    faults.push({ status: 400, body: 'plain text reason' });
    await expect(local().embed(['a'])).rejects.toThrow(/HTTP 400: plain text reason$/);
    expect(seen.length).toBe(2);
  });
});

describe('checks', () => {
  it('a vector of another dimension, a missing vector or a non-JSON answer is an EmbeddingError', async () => {
    faults.push({ dimension: 16 });
    await expect(local().embed(['a'])).rejects.toThrow(/returned vectors of dimension 16 for model local-model, expected 32/);
    faults.push({ count: 1 });
    await expect(local().embed(['a', 'b'])).rejects.toThrow(/returned 1 vectors for 2 texts/);
    faults.push({ status: 200, body: '<html>proxy login</html>' });
    await expect(local().embed(['a'])).rejects.toThrow(/not JSON/);
    await expect(local().embed(['a', 3 as never])).rejects.toThrow(/Text 1 is not a string/);
  });

  it('bad options are InvalidOptionErrors', () => {
    const old = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => new OpenAIEmbedder({ model: 'text-embedding-3-small', baseURL: 'https://api.openai.com/v1' })).toThrow(/Invalid option apiKey: undefined \(an API key for api.openai.com/);
    } finally {
      if (old !== undefined) process.env.OPENAI_API_KEY = old;
    }
    expect(() => new OpenAIEmbedder({ model: '' })).toThrow(InvalidOptionError);
    expect(() => new OpenAIEmbedder({ model: 'mystery', baseURL })).toThrow(/Invalid option dimension: undefined .*OpenAIEmbedder.create/);
    expect(() => local({ batchSize: 0 })).toThrow(/batchSize: 0/);
    expect(() => local({ baseURL: 'ftp://x' })).toThrow(/baseURL/);
    expect(new OpenAIEmbedder({ model: 'text-embedding-3-large', apiKey: 'k' }).dimension).toBe(3072);
  });

  it('retryAfterMs reads seconds, milliseconds and HTTP dates', () => {
    const now = Date.parse('Tue, 01 Dec 2026 10:00:00 GMT');
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' }), now)).toBe(150);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue, 01 Dec 2026 10:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe('the CLI', () => {
  it('embed --embedder openai:<model> uses OPENAI_BASE_URL and OPENAI_API_KEY and asks the dimension', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'chunkwise-openai-')), 'doc.txt');
    writeFileSync(file, 'Sliding windows move by a stride over the tokens. '.repeat(20));
    // asynchronous: the server answering lives in this process
    const { stdout } = await promisify(execFile)(process.execPath, [cliBin, 'embed', file, '--chunk-size', '40', '--chunk-overlap', '0', '--embedder', 'openai:local-model', '--vector-format', 'array'], {
      env: { ...process.env, OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'sk-cli' },
    });
    const records = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(3);
    expect(records[0].dimension).toBe(32);
    expect(seen[0].body.input).toEqual(['dimension probe']);
    expect(seen.every((x) => x.authorization === 'Bearer sk-cli')).toBe(true);
    const direct = await hashing.embed(records.map((r) => r.text));
    records.forEach((r, i) => r.vector.forEach((v: number, j: number) => expect(v).toBeCloseTo(direct[i * 32 + j], 6)));
  });
});
