import { describe, expect, it, vi } from 'vitest';
import { FixedSizeChunker, HashingEmbedder } from '../src/index.js';
import { QASC_CANDIDATES_PER_RESULT, QascRetriever, evaluateRetriever, type EvalQuestion } from '../src/evaluation/index.js';

describe('QASC hybrid as a Retriever', () => {
  const animals = [
    'Zebras have black and white stripes.',
    'Lions hunt in groups on the savanna.',
    'Elephants remember water holes for decades.',
    'Giraffes eat leaves from tall acacia trees.',
  ].join(' ');
  const cooking = ['Bread needs flour, water, salt and yeast.', 'Pasta cooks in boiling salted water.', 'Soup simmers slowly on the stove.'].join(' ');
  const corpora = [
    { id: 'animals', text: animals },
    { id: 'cooking', text: cooking },
  ];

  it('returns at most k spans of the right corpus, and finds the sentence asked about', async () => {
    const retriever = await QascRetriever.build(corpora, {
      embedder: new HashingEmbedder(),
      chunker: new FixedSizeChunker({ unit: 'word', chunkSize: 12, chunkOverlap: 0 }),
    });
    expect(retriever.index.documentCount).toBe(2);
    const spans = await retriever.retrieve('Which animals have black and white stripes?', 2);
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.length).toBeLessThanOrEqual(2);
    const zebra = animals.indexOf('Zebras have black and white stripes.');
    expect(spans[0].corpusId).toBe('animals');
    expect(spans[0].start).toBeLessThanOrEqual(zebra);
    expect(spans[0].end).toBeGreaterThanOrEqual(zebra + 'Zebras have black and white stripes.'.length);

    // k results are chosen from the top 3k pre-chunks (QASC_CANDIDATES_PER_RESULT), ranked 'fused'
    expect(QASC_CANDIDATES_PER_RESULT).toBe(3);
    expect(retriever.index.rank).toBe('fused');
    const query = vi.spyOn(retriever.index, 'query');
    await retriever.retrieve('Which animals have black and white stripes?', 2);
    expect(query).toHaveBeenCalledWith('Which animals have black and white stripes?', { topK: 6, maxResults: 2 });
    query.mockRestore();

    const start = cooking.indexOf('Pasta');
    const questions: EvalQuestion[] = [
      { question: 'How does pasta cook in boiling salted water?', corpusId: 'cooking', references: [{ content: 'Pasta cooks in boiling salted water.', start, end: start + 36 }] },
    ];
    const r = await evaluateRetriever(retriever, questions, { k: 2 });
    expect(r.perQuestion[0].recall).toBe(1);
    expect(r.perQuestion[0].precision).toBeGreaterThan(0);
    expect(r.perQuestion[0].precision).toBeLessThanOrEqual(1);
  });
});
