/**
 * Node-only: reads model folders from the file system for `OnnxEmbedder.load(path)` and
 * `StaticEmbedder.load(path)`.
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelLoadError } from '../../engine/errors.js';
import type { OnnxModelBytes } from '../../embedders/onnx-embedder.js';
import type { StaticModelBytes } from '../../embedders/static-embedder.js';

async function required(dir: string, file: string): Promise<Buffer> {
  const path = join(dir, file);
  try {
    return await readFile(path);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new ModelLoadError(path, code === 'ENOENT' ? `${file} not found in the folder` : String(cause));
  }
}

async function optional(dir: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(join(dir, file), 'utf8');
  } catch {
    return undefined;
  }
}

async function checkDir(dir: string): Promise<void> {
  const s = await stat(dir).catch(() => undefined);
  if (!s) throw new ModelLoadError(dir, 'no such folder');
  if (!s.isDirectory()) throw new ModelLoadError(dir, 'not a folder');
}

/**
 * Reads an ONNX model folder: `model.onnx` (or `modelFile`, e.g. `onnx/model.onnx`) and
 * `tokenizer.json` (required); `config.json`, `tokenizer_config.json`, `modules.json`,
 * `1_Pooling/config.json` (optional). Falls back to `onnx/model.onnx` (the layout of
 * many Hub exports) when `model.onnx` is missing.
 * @throws {ModelLoadError} naming the missing file.
 */
export async function readOnnxFolder(dir: string, modelFile?: string): Promise<OnnxModelBytes> {
  await checkDir(dir);
  let model: Buffer;
  if (modelFile) model = await required(dir, modelFile);
  else {
    try {
      model = await required(dir, 'model.onnx');
    } catch (first) {
      model = await required(dir, join('onnx', 'model.onnx')).catch(() => {
        throw first;
      });
    }
  }
  const tokenizer = (await required(dir, 'tokenizer.json')).toString('utf8');
  const [config, tokenizerConfig, modules, pooling] = await Promise.all([
    optional(dir, 'config.json'),
    optional(dir, 'tokenizer_config.json'),
    optional(dir, 'modules.json'),
    optional(dir, join('1_Pooling', 'config.json')),
  ]);
  return { model: new Uint8Array(model.buffer, model.byteOffset, model.byteLength), tokenizer, config, tokenizerConfig, modules, pooling };
}

/**
 * Reads a Model2Vec folder: `model.safetensors` and `tokenizer.json` (required),
 * `config.json` (optional).
 * @throws {ModelLoadError} naming the missing file.
 */
export async function readStaticFolder(dir: string): Promise<StaticModelBytes> {
  await checkDir(dir);
  const st = await required(dir, 'model.safetensors');
  const tokenizer = (await required(dir, 'tokenizer.json')).toString('utf8');
  const config = await optional(dir, 'config.json');
  return { safetensors: new Uint8Array(st.buffer, st.byteOffset, st.byteLength), tokenizer, config };
}

/** A `file:` URL as a path (for `OnnxEmbedder.load(new URL('file:///…'))` in Node). */
export function fileUrlToPath(url: string | URL): string {
  return fileURLToPath(url);
}
