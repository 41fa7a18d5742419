/**
 * The memory model of bindings/kernels.ts: WasmArray views survive memory growth,
 * handles die with their job, jobs nest, a huge job does not leave its memory behind,
 * the module loads from every source initKernels() accepts, and bindings/ stays free
 * of Node built-ins.
 */
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Kernels, getKernels, initKernels, kernelsWasmBytes, topK } from '../bindings/index.js';
import { WasmError } from '../src/engine/errors.js';

const MiB = 1024 * 1024;
const module = new WebAssembly.Module(kernelsWasmBytes() as BufferSource);
const fresh = (retainBytes?: number) => Kernels.fromModule(module, retainBytes ? { retainBytes } : {});

describe('WasmArray views', () => {
  it('are renewed after memory growth and still read the right values', () => {
    const k = fresh();
    k.job(() => {
      const a = k.copyF32([1.5, 2.5, 3.5]);
      const i = k.copyI32([7, -8, 9]);
      const oldView = a.view;
      const oldBuffer = k.exports.memory.buffer;
      const before = k.memoryBytes;
      const big = k.allocF32(8 * MiB); // 32 MiB: forces growth
      big.view[big.length - 1] = 42;
      expect(k.memoryBytes).toBeGreaterThan(before);
      expect(k.exports.memory.buffer).not.toBe(oldBuffer);
      expect(oldView.length).toBe(0); // the old buffer was detached by growth
      expect(Array.from(a.view)).toEqual([1.5, 2.5, 3.5]);
      expect(Array.from(i.view)).toEqual([7, -8, 9]);
      expect(a.view.buffer).toBe(k.exports.memory.buffer);
      expect(big.view[big.length - 1]).toBe(42);
      // kernels see the same memory through the pointer
      const idx = k.allocI32(2);
      expect(k.exports.topK(a.ptr, a.length, 2, idx.ptr)).toBe(2);
      expect(Array.from(idx.view)).toEqual([2, 1]);
    });
  });

  it('allocations are 16-byte aligned and do not overlap', () => {
    const k = fresh();
    k.job(() => {
      const a = k.allocF32(3);
      const b = k.allocF64(5);
      const c = k.allocI32(1);
      for (const x of [a, b, c]) expect(x.ptr % 16).toBe(0);
      expect(b.ptr).toBeGreaterThanOrEqual(a.ptr + 12);
      expect(c.ptr).toBeGreaterThanOrEqual(b.ptr + 40);
      expect(() => k.allocF32(-1)).toThrow(WasmError);
      expect(() => k.allocF32(1.5)).toThrow(WasmError);
      expect(() => k.allocF32(2 ** 30)).toThrow(WasmError); // 4 GiB
    });
  });
});

describe('jobs', () => {
  it('a handle used after its job ended throws WasmError', () => {
    const k = fresh();
    const h = k.job(() => k.copyF32([1, 2]));
    expect(() => h.view).toThrow(WasmError);
    expect(() => h.toArray()).toThrow(WasmError);
    expect(k.allocatedBytes).toBe(0);
  });

  it('a job that throws still frees what it allocated', () => {
    const k = fresh();
    let h: ReturnType<Kernels['allocF32']> | undefined;
    expect(() =>
      k.job(() => {
        h = k.allocF32(100);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(k.allocatedBytes).toBe(0);
    expect(() => h!.view).toThrow(WasmError);
  });

  it('nest: inner handles die with the inner job, outer ones live on', () => {
    const k = fresh();
    let outerHandle: ReturnType<Kernels['allocF32']> | undefined;
    k.job(() => {
      const a = k.copyF32([1, 2, 3]);
      outerHandle = a;
      const afterA = k.allocatedBytes;
      const b = k.job(() => {
        const b = k.copyF32([4, 5]);
        const deeper = k.job(() => k.copyF32([6]));
        expect(() => deeper.view).toThrow(WasmError);
        expect(Array.from(a.view)).toEqual([1, 2, 3]); // outer handle usable inside
        return b;
      });
      expect(k.allocatedBytes).toBe(afterA);
      expect(() => b.view).toThrow(WasmError);
      expect(Array.from(a.view)).toEqual([1, 2, 3]);
      // the freed space is reused; the stale handle still refuses to read it
      const c = k.copyF32([9, 9]);
      expect(c.ptr).toBe(b.ptr);
      expect(() => b.view).toThrow(WasmError);
      expect(Array.from(c.view)).toEqual([9, 9]);
      expect(() => k.reset()).toThrow(WasmError);
    });
    expect(() => outerHandle!.view).toThrow(WasmError);
    expect(k.allocatedBytes).toBe(0);
  });

  it('a ~1 GiB job followed by a small one leaves memory below retainBytes', () => {
    const k = fresh();
    expect(k.retainBytes).toBe(64 * MiB);
    const big = k.job(() => {
      const big = k.allocF32(256 * MiB); // 1 GiB
      big.view[0] = 1;
      big.view[big.length - 1] = 2;
      expect(k.memoryBytes).toBeGreaterThanOrEqual(1024 * MiB);
      // a kernel over the top end of the 1 GiB array (pointer near 1 GiB)
      const idx = k.allocI32(1);
      const tail = 1 << 20;
      k.exports.topK(big.ptr + (big.length - tail) * 4, tail, 1, idx.ptr);
      expect(idx.view[0]).toBe(tail - 1);
      return big;
    });
    expect(k.memoryBytes).toBeLessThan(k.retainBytes);
    expect(() => big.view).toThrow(WasmError); // the instance was replaced
    const r = k.job(() => {
      const s = k.copyF32([0.1, 0.9, 0.5]);
      const out = k.allocI32(2);
      k.exports.topK(s.ptr, 3, 2, out.ptr);
      return out.toArray();
    });
    expect(Array.from(r)).toEqual([1, 2]);
    expect(k.memoryBytes).toBeLessThan(k.retainBytes);
  });

  it('memory under retainBytes is kept across jobs (no needless re-instantiation)', () => {
    const k = fresh();
    k.job(() => k.allocF32(4 * MiB)); // 16 MiB < 64 MiB
    const grown = k.memoryBytes;
    expect(grown).toBeGreaterThanOrEqual(16 * MiB);
    const kept = k.job(() => k.allocF32(1));
    expect(k.memoryBytes).toBe(grown);
    expect(() => kept.view).toThrow(WasmError);
  });

  it('allocations outside any job survive later jobs even above retainBytes', () => {
    const k = fresh(8 * MiB);
    const matrix = k.allocF32(4 * MiB); // 16 MiB kept across calls: the no-copy path
    matrix.view[0] = 3;
    matrix.view[matrix.length - 1] = 4;
    const out = k.job(() => {
      const idx = k.allocI32(1);
      k.exports.topK(matrix.ptr, matrix.length, 1, idx.ptr);
      return idx.view[0];
    });
    expect(out).toBe(matrix.length - 1);
    k.job(() => k.allocF32(1)); // a small job does not trim the instance away either
    expect(matrix.view[0]).toBe(3);
    expect(matrix.view[matrix.length - 1]).toBe(4);
    expect(k.memoryBytes).toBeGreaterThan(k.retainBytes); // kept until reset()
  });

  it('reset() frees root allocations and gives memory back', () => {
    const k = fresh(8 * MiB);
    const root = k.allocF32(4 * MiB); // 16 MiB outside any job
    root.view[0] = 3;
    expect(k.allocatedBytes).toBeGreaterThan(0);
    k.reset();
    expect(k.allocatedBytes).toBe(0);
    expect(k.memoryBytes).toBeLessThan(8 * MiB);
    expect(() => root.view).toThrow(WasmError);
  });
});

describe('initKernels', () => {
  const check = (k: Kernels) => {
    expect(getKernels()).toBe(k);
    expect(Array.from(topK(Float32Array.of(0.2, 0.8, 0.5), 2))).toEqual([1, 2]);
  };

  it('loads from the built-in bytes, bytes, an ArrayBuffer, a compiled module and a Response', async () => {
    const bytes = kernelsWasmBytes();
    check(await initKernels());
    check(await initKernels(bytes as BufferSource));
    check(await initKernels(bytes.slice().buffer));
    check(await initKernels(await WebAssembly.compile(bytes as BufferSource)));
    check(await initKernels(new Response(bytes as BodyInit, { headers: { 'content-type': 'application/wasm' } })));
  });

  it('passes options through and replaces the shared instance', async () => {
    const a = await initKernels(undefined, { retainBytes: 8 * MiB });
    expect(a.retainBytes).toBe(8 * MiB);
    const b = await initKernels(module);
    expect(b).not.toBe(a);
    expect(getKernels()).toBe(b);
  });

  it('rejects bad bytes and unreachable URLs with WasmError', async () => {
    await expect(initKernels(new Uint8Array([0, 1, 2, 3]))).rejects.toBeInstanceOf(WasmError);
    await expect(initKernels('http://127.0.0.1:9/chunkwise.wasm')).rejects.toBeInstanceOf(WasmError);
  });
});

describe('bindings/ imports no Node built-in', () => {
  const root = join(import.meta.dirname, '..', 'bindings');
  const files = (readdirSync(root, { recursive: true }) as string[])
    .filter((f) => /\.(ts|js|mjs|cjs)$/.test(f))
    .map((f) => join(root, f));
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

  it('finds the binding sources', () => {
    expect(files.some((f) => f.endsWith('kernels.ts'))).toBe(true);
    expect(files.some((f) => f.endsWith('index.ts'))).toBe(true);
  });

  it('has only relative imports, none of node:*, fs, path or another built-in', () => {
    const spec = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      const specifiers = [...source.matchAll(spec)].map((m) => m[1]);
      for (const s of specifiers) {
        expect(builtins.has(s) || s.startsWith('node:'), `${file} imports ${s}`).toBe(false);
        expect(s.startsWith('.'), `${file} imports package ${s}`).toBe(true);
      }
      expect(/\brequire\s*\(/.test(source), `${file} calls require()`).toBe(false);
      expect(/\bprocess\.|\bBuffer\.|__dirname/.test(source), `${file} uses a Node global`).toBe(false);
    }
  });
});
