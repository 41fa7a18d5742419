/**
 * Deterministic test fixtures for the embedders (issue 4), written by code, never
 * downloaded:
 *
 * - {@link makeTokenizerJson}: a WordPiece `tokenizer.json` (BertNormalizer,
 *   BertPreTokenizer, TemplateProcessing `[CLS] $A [SEP]`).
 * - {@link makeStaticOnnx}: a static embedding model as ONNX (Gather + masked mean →
 *   `sentence_embedding`, B × d).
 * - {@link makeEncoderOnnx}: a one-layer encoder with single-head self-attention and a
 *   residual, seeded random weights → `last_hidden_state` (B × T × d).
 * - {@link makeModel2VecFolder}: a Model2Vec folder (`model.safetensors` with an
 *   `embeddings` tensor in f32 or f16, `tokenizer.json`, `config.json`).
 *
 * Each model comes with a plain TypeScript reference of the same math
 * ({@link referenceStatic}, {@link referenceEncoder}) that tests compare against.
 * ModelProto bytes are written with the `onnx-proto` package.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { f32ToF16 } from './f16.js';
import { rng } from './random.js';

export { f32ToF16 };
export { rng };

const { onnx } = onnxProto as unknown as { onnx: typeof import('onnx-proto').onnx };


/** A seeded matrix of `rows × cols` f32 values uniform in [−scale, scale). */
export function randomMatrix(rows: number, cols: number, seed: number, scale = 1): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) out[i] = (r() * 2 - 1) * scale;
  return out;
}

const WORDS = (
  'the quick brown fox jump over lazy dog a cat sat on mat . , ? ! what is of latency qasc ' +
  'wat de van la le est quelle ms query chunk chunks sentence window model token tokens'
).split(' ');
const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');

/** The fixture vocabulary: specials first ([PAD]=0, [UNK]=1, [CLS]=2, [SEP]=3). */
export function fixtureVocab(): string[] {
  return [
    '[PAD]',
    '[UNK]',
    '[CLS]',
    '[SEP]',
    ...WORDS,
    '##s',
    '##ing',
    '##ed',
    ...LETTERS,
    ...LETTERS.map((c) => '##' + c),
  ];
}

/** A WordPiece tokenizer.json over {@link fixtureVocab} (BERT-style, lowercasing). */
export function makeTokenizerJson(options: { modelType?: string } = {}): Record<string, unknown> {
  const vocab = fixtureVocab();
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]'), special(2, '[CLS]'), special(3, '[SEP]')],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: options.modelType ?? 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

/** tokenizer_config.json for the fixtures (BERT-style, with a model_max_length). */
export function makeTokenizerConfig(maxLength = 32): Record<string, unknown> {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: maxLength,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
  };
}

// ---------------------------------------------------------------- ONNX building

type Dim = number | string;

function f32Tensor(name: string, dims: number[], values: Float32Array) {
  return onnx.TensorProto.create({
    name,
    dims,
    dataType: onnx.TensorProto.DataType.FLOAT,
    rawData: new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)),
  });
}
function i64Tensor(name: string, dims: number[], values: number[]) {
  const b = new BigInt64Array(values.map((v) => BigInt(v)));
  return onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.INT64, rawData: new Uint8Array(b.buffer) });
}
function valueInfo(name: string, elemType: number, dims: Dim[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: onnx.TypeProto.create({
      tensorType: onnx.TypeProto.Tensor.create({
        elemType,
        shape: onnx.TensorShapeProto.create({
          dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })),
        }),
      }),
    }),
  });
}
function node(opType: string, inputs: string[], outputs: string[], attrs: Record<string, number | number[]> = {}) {
  const attribute = Object.entries(attrs).map(([name, v]) =>
    Array.isArray(v)
      ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v })
      : Number.isInteger(v)
        ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: v })
        : onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.FLOAT, f: v }),
  );
  return onnx.NodeProto.create({ opType, input: inputs, output: outputs, attribute, name: `${opType}_${outputs[0]}` });
}

function modelBytes(graph: ReturnType<typeof onnx.GraphProto.create>): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'chunkwise-fixtures',
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

const INT64 = onnx.TensorProto.DataType.INT64;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** Weights of the static fixture model. */
export interface StaticWeights {
  vocab: number;
  d: number;
  embeddings: Float32Array;
}

/**
 * A static embedding model as ONNX: `sentence_embedding[b] = Σ_t mask[b,t]·E[ids[b,t]] /
 * Σ_t mask[b,t]` (B × d). Inputs `input_ids`, `attention_mask` (int64, B × T).
 */
export function makeStaticOnnx(d = 16, seed = 1): { bytes: Uint8Array; weights: StaticWeights } {
  const vocab = fixtureVocab().length;
  const embeddings = randomMatrix(vocab, d, seed);
  const graph = onnx.GraphProto.create({
    name: 'static',
    initializer: [f32Tensor('E', [vocab, d], embeddings), i64Tensor('axis1', [1], [1]), i64Tensor('axisLast', [1], [-1])],
    input: [valueInfo('input_ids', INT64, ['batch', 'seq']), valueInfo('attention_mask', INT64, ['batch', 'seq'])],
    output: [valueInfo('sentence_embedding', FLOAT, ['batch', d])],
    node: [
      node('Gather', ['E', 'input_ids'], ['X'], { axis: 0 }),
      node('Cast', ['attention_mask'], ['M'], { to: FLOAT }),
      node('Unsqueeze', ['M', 'axisLast'], ['M3']),
      node('Mul', ['X', 'M3'], ['XM']),
      node('ReduceSum', ['XM', 'axis1'], ['S'], { keepdims: 0 }),
      node('ReduceSum', ['M', 'axis1'], ['C'], { keepdims: 1 }),
      node('Div', ['S', 'C'], ['sentence_embedding']),
    ],
  });
  return { bytes: modelBytes(graph), weights: { vocab, d, embeddings } };
}

/** Weights of the encoder fixture model. */
export interface EncoderWeights {
  vocab: number;
  d: number;
  maxPositions: number;
  E: Float32Array;
  P: Float32Array;
  TT: Float32Array;
  Wq: Float32Array;
  Wk: Float32Array;
  Wv: Float32Array;
  Wo: Float32Array;
}

/**
 * A one-layer encoder: X = E[ids] + P[pos] + TT[type]; single-head self-attention
 * with key mask (bias −10000 on padded keys), A = softmax(QKᵀ/√d)·V; output
 * `last_hidden_state = tanh(X + A·Wo)` (B × T × d). Inputs `input_ids`,
 * `attention_mask`, `token_type_ids` (int64, B × T), unless `withTokenTypes` is false.
 */
export function makeEncoderOnnx(
  options: { d?: number; seed?: number; maxPositions?: number; withTokenTypes?: boolean; outputName?: string } = {},
): { bytes: Uint8Array; weights: EncoderWeights } {
  const d = options.d ?? 16;
  const seed = options.seed ?? 7;
  const maxPositions = options.maxPositions ?? 64;
  const withTT = options.withTokenTypes ?? true;
  const vocab = fixtureVocab().length;
  const s = 1 / Math.sqrt(d);
  const w: EncoderWeights = {
    vocab,
    d,
    maxPositions,
    E: randomMatrix(vocab, d, seed),
    P: randomMatrix(maxPositions, d, seed + 1, 0.5),
    TT: randomMatrix(2, d, seed + 2, 0.5),
    Wq: randomMatrix(d, d, seed + 3, s * 2),
    Wk: randomMatrix(d, d, seed + 4, s * 2),
    Wv: randomMatrix(d, d, seed + 5, s * 2),
    Wo: randomMatrix(d, d, seed + 6, s * 2),
  };
  const inputs = [valueInfo('input_ids', INT64, ['batch', 'seq']), valueInfo('attention_mask', INT64, ['batch', 'seq'])];
  if (withTT) inputs.push(valueInfo('token_type_ids', INT64, ['batch', 'seq']));
  const out = options.outputName ?? 'last_hidden_state';
  const nodes = [
    node('Gather', ['E', 'input_ids'], ['Xe'], { axis: 0 }),
    node('Shape', ['input_ids'], ['shape']),
    node('Gather', ['shape', 'one'], ['T'], { axis: 0 }),
    node('Range', ['zero', 'T', 'one'], ['pos']),
    node('Gather', ['P', 'pos'], ['Xp'], { axis: 0 }),
    node('Add', ['Xe', 'Xp'], withTT ? ['Xep'] : ['X']),
    ...(withTT ? [node('Gather', ['TT', 'token_type_ids'], ['Xt'], { axis: 0 }), node('Add', ['Xep', 'Xt'], ['X'])] : []),
    node('MatMul', ['X', 'Wq'], ['Q']),
    node('MatMul', ['X', 'Wk'], ['K']),
    node('MatMul', ['X', 'Wv'], ['V']),
    node('Transpose', ['K'], ['Kt'], { perm: [0, 2, 1] }),
    node('MatMul', ['Q', 'Kt'], ['QK']),
    node('Mul', ['QK', 'scale'], ['QKs']),
    node('Cast', ['attention_mask'], ['Mf'], { to: FLOAT }),
    node('Sub', ['onef', 'Mf'], ['notM']),
    node('Mul', ['notM', 'negbig'], ['bias2']),
    node('Unsqueeze', ['bias2', 'one'], ['bias3']),
    node('Add', ['QKs', 'bias3'], ['logits']),
    node('Softmax', ['logits'], ['attn'], { axis: -1 }),
    node('MatMul', ['attn', 'V'], ['AV']),
    node('MatMul', ['AV', 'Wo'], ['AVo']),
    node('Add', ['X', 'AVo'], ['H']),
    node('Tanh', ['H'], [out]),
  ];
  const graph = onnx.GraphProto.create({
    name: 'encoder',
    initializer: [
      f32Tensor('E', [vocab, d], w.E),
      f32Tensor('P', [maxPositions, d], w.P),
      f32Tensor('TT', [2, d], w.TT),
      f32Tensor('Wq', [d, d], w.Wq),
      f32Tensor('Wk', [d, d], w.Wk),
      f32Tensor('Wv', [d, d], w.Wv),
      f32Tensor('Wo', [d, d], w.Wo),
      i64Tensor('zero', [], [0]),
      i64Tensor('one', [], [1]),
      f32Tensor('scale', [], new Float32Array([1 / Math.sqrt(d)])),
      f32Tensor('onef', [], new Float32Array([1])),
      f32Tensor('negbig', [], new Float32Array([-10000])),
    ],
    input: inputs,
    output: [valueInfo(out, FLOAT, ['batch', 'seq', d])],
    node: nodes,
  });
  return { bytes: modelBytes(graph), weights: w };
}

/** A model whose only output is `scores` of shape B (not an embedding): for error tests. */
export function makeScalarOutputOnnx(): Uint8Array {
  const graph = onnx.GraphProto.create({
    name: 'scalar',
    initializer: [i64Tensor('axis1', [1], [1])],
    input: [valueInfo('input_ids', INT64, ['batch', 'seq']), valueInfo('attention_mask', INT64, ['batch', 'seq'])],
    output: [valueInfo('scores', INT64, ['batch'])],
    node: [node('ReduceSum', ['input_ids', 'axis1'], ['scores'], { keepdims: 0 })],
  });
  return modelBytes(graph);
}

// ---------------------------------------------------------------- references (plain TypeScript)

/** L2-normalises each row of an n × d matrix in place (zero rows stay zero). */
export function normalizeRowsRef(m: Float64Array | Float32Array, d: number): void {
  for (let i = 0; i < m.length / d; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += m[i * d + j] * m[i * d + j];
    const n = Math.sqrt(s);
    if (n > 0) for (let j = 0; j < d; j++) m[i * d + j] /= n;
  }
}

/** Mean of E's rows for `ids` (length d). */
export function referenceStatic(w: { embeddings: Float32Array; d: number }, ids: number[]): Float64Array {
  const out = new Float64Array(w.d);
  for (const id of ids) for (let j = 0; j < w.d; j++) out[j] += w.embeddings[id * w.d + j];
  for (let j = 0; j < w.d; j++) out[j] /= ids.length;
  return out;
}

/** The encoder's last_hidden_state for one unpadded sequence (T × d, row-major). */
export function referenceEncoder(w: EncoderWeights, ids: number[], typeIds?: number[]): Float64Array {
  const T = ids.length;
  const d = w.d;
  const X = new Float64Array(T * d);
  for (let t = 0; t < T; t++)
    for (let j = 0; j < d; j++)
      X[t * d + j] = w.E[ids[t] * d + j] + w.P[t * d + j] + w.TT[(typeIds?.[t] ?? 0) * d + j];
  const mm = (A: Float64Array, B: Float32Array) => {
    const R = new Float64Array(T * d);
    for (let t = 0; t < T; t++)
      for (let j = 0; j < d; j++) {
        let s = 0;
        for (let k = 0; k < d; k++) s += A[t * d + k] * B[k * d + j];
        R[t * d + j] = s;
      }
    return R;
  };
  const Q = mm(X, w.Wq);
  const K = mm(X, w.Wk);
  const V = mm(X, w.Wv);
  const AV = new Float64Array(T * d);
  for (let t = 0; t < T; t++) {
    const logits = new Float64Array(T);
    let max = -Infinity;
    for (let u = 0; u < T; u++) {
      let s = 0;
      for (let k = 0; k < d; k++) s += Q[t * d + k] * K[u * d + k];
      logits[u] = s / Math.sqrt(d);
      max = Math.max(max, logits[u]);
    }
    let z = 0;
    for (let u = 0; u < T; u++) z += logits[u] = Math.exp(logits[u] - max);
    for (let u = 0; u < T; u++) for (let j = 0; j < d; j++) AV[t * d + j] += (logits[u] / z) * V[u * d + j];
  }
  const O = mm(AV, w.Wo);
  for (let i = 0; i < T * d; i++) O[i] = Math.tanh(X[i] + O[i]);
  return O;
}

// ---------------------------------------------------------------- safetensors / Model2Vec

/** Writes safetensors bytes for the given tensors (f32 values, stored as F32 or F16). */
export function makeSafetensors(tensors: Record<string, { shape: number[]; data: Float32Array; dtype?: 'F32' | 'F16' }>): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    const dtype = t.dtype ?? 'F32';
    let bytes: Uint8Array;
    if (dtype === 'F32') bytes = new Uint8Array(t.data.slice().buffer);
    else bytes = new Uint8Array(Uint16Array.from(t.data, (v) => f32ToF16(v)).buffer);
    header[name] = { dtype, shape: t.shape, data_offsets: [offset, offset + bytes.length] };
    parts.push(bytes);
    offset += bytes.length;
  }
  let json = JSON.stringify(header);
  while ((8 + json.length) % 8) json += ' ';
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Writes a Model2Vec folder; returns its embeddings (as stored, i.e. after f16 rounding if asked). */
export function makeModel2VecFolder(dir: string, options: { d?: number; seed?: number; dtype?: 'F32' | 'F16' } = {}): StaticWeights {
  const d = options.d ?? 8;
  const vocab = fixtureVocab().length;
  let embeddings = randomMatrix(vocab, d, options.seed ?? 3);
  if (options.dtype === 'F16') {
    const h = new Uint16Array(embeddings.length);
    for (let i = 0; i < h.length; i++) h[i] = f32ToF16(embeddings[i]);
    embeddings = Float32Array.from(h, f16ToF32);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'model.safetensors'), makeSafetensors({ embeddings: { shape: [vocab, d], data: embeddings, dtype: options.dtype } }));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(makeTokenizerJson()));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'model2vec', normalize: true, hidden_dim: d }));
  return { vocab, d, embeddings };
}

function f16ToF32(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** Writes an ONNX model folder (model.onnx, tokenizer.json, tokenizer_config.json, config.json, optional 1_Pooling). */
export function writeOnnxFolder(
  dir: string,
  model: Uint8Array,
  options: { pooling?: 'mean' | 'cls' | 'lasttoken'; maxLength?: number; hidden?: number } = {},
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'model.onnx'), model);
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(makeTokenizerJson()));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(makeTokenizerConfig(options.maxLength ?? 32)));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', max_position_embeddings: 64, hidden_size: options.hidden ?? 16 }));
  if (options.pooling) {
    mkdirSync(join(dir, '1_Pooling'), { recursive: true });
    writeFileSync(
      join(dir, '1_Pooling', 'config.json'),
      JSON.stringify({
        word_embedding_dimension: options.hidden ?? 16,
        pooling_mode_cls_token: options.pooling === 'cls',
        pooling_mode_mean_tokens: options.pooling === 'mean',
        pooling_mode_max_tokens: false,
        pooling_mode_lasttoken: options.pooling === 'lasttoken',
      }),
    );
  }
}

/**
 * A model folder in the layout Transformers.js reads (`config.json`, `tokenizer.json`,
 * `tokenizer_config.json`, `onnx/model.onnx`), with the files of {@link writeOnnxFolder}
 * beside them, so OnnxEmbedder and TransformersJsEmbedder load the same model.
 */
export function writeTransformersFolder(dir: string, model: Uint8Array, options: Parameters<typeof writeOnnxFolder>[2] = {}): void {
  writeOnnxFolder(dir, model, options);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), model);
}
