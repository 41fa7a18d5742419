import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../src/index.js';
import { makeModel2VecFolder, makeStaticOnnx, writeOnnxFolder } from './helpers/embedder-fixtures.js';
import { cliBin, texts } from './helpers/paths.js';

function run(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [cliBin, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function decode(b64: string): Float32Array {
  const bytes = Buffer.from(b64, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

describe('chunkwise embed', () => {
  const seed = texts.enSliding;
  const text = readFileSync(seed, 'utf8');

  it('writes chunks with hashing vectors equal to the API', async () => {
    const r = run(['embed', seed, '--chunk-size', '120', '--chunk-overlap', '20', '--embedder', 'hashing']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(3);
    const api = await new HashingEmbedder().embed(records.map((c) => c.text));
    const d = records[0].dimension;
    expect(api.length).toBe(records.length * d);
    for (const [i, c] of records.entries()) {
      expect(c.text).toBe(text.slice(c.start, c.end));
      const v = decode(c.vector);
      expect(v.length).toBe(d);
      expect(Array.from(v)).toEqual(Array.from(api.subarray(i * d, (i + 1) * d)));
      const norm = Math.hypot(...v);
      expect(norm).toBeCloseTo(1, 5);
    }
  });

  it('writes an .npy matrix with the right shape, and ONNX / static folders load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkwise-embed-'));
    const onnx = join(dir, 'onnx');
    writeOnnxFolder(onnx, makeStaticOnnx(16, 3).bytes, { pooling: 'mean' });
    const stat = join(dir, 'static');
    makeModel2VecFolder(stat, { d: 8 });
    for (const [spec, d] of [[`onnx:${onnx}`, 16], [`static:${stat}`, 8], ['hashing:64', 64]] as const) {
      const out = join(dir, `${d}.npy`);
      const r = run(['embed', seed, '--chunk-size', '200', '--chunk-overlap', '0', '--embedder', spec, '--format', 'npy', '--out', out]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const header = readFileSync(out).subarray(0, 128).toString('latin1');
      expect(header).toMatch(new RegExp(`'shape': \\(\\d+, ${d}\\)`));
    }
  });

  it('npy without --out is a usage error; a missing model folder exits 1', () => {
    const a = run(['embed', seed, '--format', 'npy']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/--out/);
    const b = run(['embed', seed, '--embedder', 'onnx:/nonexistent/model']);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('/nonexistent/model');
    const c = run(['embed', seed, '--embedder', 'bogus']);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/bogus/);
  });
});
