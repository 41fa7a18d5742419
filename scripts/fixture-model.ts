// Writes the test suite's tiny ONNX encoder as a model folder, so the late-chunking and
// embedder examples run offline: `npx tsx scripts/fixture-model.ts models/fixture-encoder`.
// One self-attention layer with seeded random weights, 16 dimensions, `last_hidden_state`
// output, a 100-word WordPiece vocabulary, 64 tokens at most (test/helpers/embedder-fixtures.ts):
// the layout of a real sentence-transformers export, vectors that mean nothing.
import { makeEncoderOnnx, writeOnnxFolder } from '../test/helpers/embedder-fixtures.js';

const dir = process.argv[2] ?? 'models/fixture-encoder';
writeOnnxFolder(dir, makeEncoderOnnx({ d: 16, seed: 7, maxPositions: 64 }).bytes, { pooling: 'mean', maxLength: 64 });
console.log(`wrote ${dir}: model.onnx, tokenizer.json, tokenizer_config.json, config.json, 1_Pooling/config.json`);
