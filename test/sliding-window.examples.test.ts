import { describe, expect, it } from 'vitest';
import { FixedSizeChunker, InvalidOptionError, SlidingWindowChunker } from '../src/index.js';

const RAG = 'RAG enhances LLMs by retrieving external data. This process reduces hallucinations.';
const FOX = 'The quick brown fox jumps over the lazy dog';

describe('SPEC section 1 worked examples', () => {
  it('words, windowSize 5, stride 3 → 3 chunks', () => {
    const chunks = new SlidingWindowChunker({ unit: 'word', windowSize: 5, stride: 3 }).chunk(RAG);
    expect(chunks.map((c) => c.text)).toEqual([
      'RAG enhances LLMs by retrieving',
      'by retrieving external data. This',
      'data. This process reduces hallucinations.',
    ]);
    for (const c of chunks) expect(RAG.slice(c.start, c.end)).toBe(c.text);
    expect(chunks.map((c) => c.metadata.overlapUnits)).toEqual([0, 2, 2]);
    expect(chunks[1].metadata.overlap).toBe('by retrieving'.length);
  });

  it('words, 8 / 4 → 2 chunks, the second "jumps over the lazy dog"', () => {
    const chunks = new SlidingWindowChunker({ unit: 'word', windowSize: 8, stride: 4 }).chunk(FOX);
    expect(chunks).toHaveLength(2);
    expect(chunks[1].text).toBe('jumps over the lazy dog');
  });

  it('characters, 20 / 10, 43 characters → 4 chunks at 0, 10, 20, 30', () => {
    expect(FOX.length).toBe(43);
    const chunks = new SlidingWindowChunker({ unit: 'char', windowSize: 20, stride: 10 }).chunk(FOX);
    expect(chunks.map((c) => c.start)).toEqual([0, 10, 20, 30]);
    expect(chunks.map((c) => c.end)).toEqual([20, 30, 40, 43]);
  });

  it('fixed size is the same windows with stride = chunkSize − chunkOverlap', () => {
    const a = new FixedSizeChunker({ unit: 'word', chunkSize: 5, chunkOverlap: 2 }).chunk(RAG);
    expect(a.map((c) => c.text)).toEqual([
      'RAG enhances LLMs by retrieving',
      'by retrieving external data. This',
      'data. This process reduces hallucinations.',
    ]);
    expect(a[0].metadata.strategy).toBe('fixed');
  });
});

describe('bad options are typed errors naming the option and value', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ windowSize: 0, stride: 1 }, 'windowSize'],
    [{ windowSize: -3, stride: 1 }, 'windowSize'],
    [{ windowSize: NaN, stride: 1 }, 'windowSize'],
    [{ windowSize: 2.5, stride: 1 }, 'windowSize'],
    [{ windowSize: 10, stride: 0 }, 'stride'],
    [{ windowSize: 10, stride: NaN }, 'stride'],
    [{ windowSize: 10, stride: 1.5 }, 'stride'],
    [{ windowSize: 10, stride: 11 }, 'stride'],
    [{ windowSize: 10, stride: 5, unit: 'sentence' }, 'unit'],
    [{ windowSize: 10, stride: 5, encoding: 'p50k_base' }, 'encoding'],
  ];
  for (const [options, option] of cases) {
    it(`${JSON.stringify(options)} → ${option}`, () => {
      let error: unknown;
      try {
        new SlidingWindowChunker({ unit: 'word', ...options });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as InvalidOptionError).option).toBe(option);
      expect((error as Error).message).toContain(option);
      expect((error as Error).message).toContain(String((options as Record<string, unknown>)[option]));
    });
  }
  it('chunkOverlap ≥ chunkSize', () => {
    expect(() => new FixedSizeChunker({ chunkSize: 10, chunkOverlap: 10 })).toThrow(/chunkOverlap: 10/);
    expect(() => new FixedSizeChunker({ chunkSize: 10, chunkOverlap: 12 })).toThrow(InvalidOptionError);
    expect(() => new FixedSizeChunker({ chunkSize: 10, chunkOverlap: -1 })).toThrow(InvalidOptionError);
  });
  it('gaps only when asked for', () => {
    const chunks = new SlidingWindowChunker({ unit: 'word', windowSize: 2, stride: 3, allowGaps: true }).chunk(FOX);
    expect(chunks.map((c) => c.text)).toEqual(['The quick', 'fox jumps', 'the lazy']);
  });
});
