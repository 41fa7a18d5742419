/**
 * A reader for the safetensors format: an 8-byte little-endian header length N, N bytes
 * of JSON (`{ name: { dtype, shape, data_offsets: [begin, end] }, "__metadata__": … }`),
 * then the raw tensor data (offsets relative to its start). No Node built-ins.
 * @module
 */
import { ModelLoadError } from '../engine/errors.js';

/** One tensor's entry in a safetensors header. */
export interface SafetensorsEntry {
  dtype: string;
  shape: number[];
  /** [begin, end) byte offsets into the data section. */
  data_offsets: [number, number];
}

/** A parsed safetensors file: its header and a view of its data section. */
export interface Safetensors {
  tensors: Record<string, SafetensorsEntry>;
  metadata: Record<string, string>;
  data: Uint8Array;
}

/**
 * Parses safetensors bytes (no copy of the data).
 * @throws {ModelLoadError} for a truncated file, a header that is not JSON, or offsets
 *   outside the data.
 */
export function parseSafetensors(bytes: Uint8Array, source = 'model.safetensors'): Safetensors {
  if (bytes.length < 8) throw new ModelLoadError(source, `${bytes.length} bytes is too short for safetensors`);
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  if (n > bytes.length - 8 || n > 100_000_000) throw new ModelLoadError(source, `header length ${n} exceeds the file (${bytes.length} bytes)`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as Record<string, unknown>;
  } catch (cause) {
    throw new ModelLoadError(source, `the safetensors header is not JSON (${String((cause as Error).message)})`);
  }
  const data = bytes.subarray(8 + n);
  const tensors: Record<string, SafetensorsEntry> = {};
  let metadata: Record<string, string> = {};
  for (const [name, v] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = (v ?? {}) as Record<string, string>;
      continue;
    }
    const e = v as SafetensorsEntry;
    const [a, b] = e?.data_offsets ?? [];
    if (!Array.isArray(e?.shape) || typeof e.dtype !== 'string' || !(a >= 0 && b >= a && b <= data.length)) {
      throw new ModelLoadError(source, `tensor ${JSON.stringify(name)} has a malformed entry or offsets outside the data`);
    }
    tensors[name] = e;
  }
  return { tensors, metadata, data };
}

function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/**
 * A tensor's values as Float32Array (F32 copied, F16 and BF16 converted; F64 narrowed).
 * @throws {ModelLoadError} for a missing tensor, another dtype, or a size that does not
 *   match its shape.
 */
export function tensorToF32(st: Safetensors, name: string, source = 'model.safetensors'): { shape: number[]; values: Float32Array } {
  const e = st.tensors[name];
  if (!e) throw new ModelLoadError(source, `no tensor named ${JSON.stringify(name)} (tensors: ${Object.keys(st.tensors).join(', ')})`);
  const count = e.shape.reduce((a, b) => a * b, 1);
  const [a, b] = e.data_offsets;
  const raw = st.data.slice(a, b); // aligned copy
  const size: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8 };
  if (!(e.dtype in size)) throw new ModelLoadError(source, `tensor ${name} has dtype ${e.dtype}; supported: F32, F16, BF16, F64`);
  if (raw.length !== count * size[e.dtype]) {
    throw new ModelLoadError(source, `tensor ${name}: ${raw.length} bytes for shape [${e.shape.join(', ')}] of ${e.dtype}`);
  }
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const values = new Float32Array(count);
  if (e.dtype === 'F32') for (let i = 0; i < count; i++) values[i] = dv.getFloat32(i * 4, true);
  else if (e.dtype === 'F64') for (let i = 0; i < count; i++) values[i] = dv.getFloat64(i * 8, true);
  else if (e.dtype === 'F16') for (let i = 0; i < count; i++) values[i] = halfToFloat(dv.getUint16(i * 2, true));
  else {
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    for (let i = 0; i < count; i++) {
      u[0] = dv.getUint16(i * 2, true) << 16;
      values[i] = f[0];
    }
  }
  return { shape: e.shape, values };
}
