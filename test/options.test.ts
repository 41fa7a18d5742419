/**
 * Option validation at construction (src/engine/options/options.ts): `null` is not "left out" (it
 * was silently replaced by the default), and a malformed locale fails when the chunker is
 * built for every strategy that segments sentences (semantic and QASC threw a RangeError
 * from Intl.Segmenter on the first text).
 */
import { describe, expect, it } from 'vitest';
import {
  FixedSizeChunker,
  InvalidOptionError,
  MarkdownChunker,
  ParentChildChunker,
  QueryAdaptiveChunker,
  RecursiveChunker,
  SemanticChunker,
  SentenceChunker,
  SlidingWindowChunker,
} from '../src/index.js';
import { QascIndex } from '../src/evaluation/index.js';
import { integerOption, localeOption, numberOption } from '../src/engine/options/options.js';

describe('null options', () => {
  const cases: Array<[string, string, () => unknown]> = [
    ['FixedSizeChunker', 'chunkSize', () => new FixedSizeChunker({ chunkSize: null as never })],
    ['FixedSizeChunker', 'chunkOverlap', () => new FixedSizeChunker({ chunkSize: 10, chunkOverlap: null as never })],
    ['SlidingWindowChunker', 'windowSize', () => new SlidingWindowChunker({ windowSize: null as never })],
    ['SlidingWindowChunker', 'stride', () => new SlidingWindowChunker({ windowSize: 8, stride: null as never })],
    ['SentenceChunker', 'chunkSize', () => new SentenceChunker({ chunkSize: null as never })],
    ['SentenceChunker', 'overlapSentences', () => new SentenceChunker({ overlapSentences: null as never })],
    ['RecursiveChunker', 'chunkSize', () => new RecursiveChunker({ chunkSize: null as never })],
    ['MarkdownChunker', 'chunkOverlap', () => new MarkdownChunker({ chunkSize: 64, chunkOverlap: null as never })],
    ['ParentChildChunker', 'parentSize', () => new ParentChildChunker({ parentSize: null as never })],
    ['ParentChildChunker', 'childOverlap', () => new ParentChildChunker({ childOverlap: null as never })],
    ['SemanticChunker', 'maxChunkSize', () => new SemanticChunker({ maxChunkSize: null as never })],
    ['SemanticChunker', 'threshold', () => new SemanticChunker({ threshold: null as never })],
    ['QueryAdaptiveChunker', 'm', () => new QueryAdaptiveChunker({ m: null as never })],
    ['QueryAdaptiveChunker', 'p', () => new QueryAdaptiveChunker({ p: null as never })],
  ];
  it.each(cases)('%s rejects %s: null (was: the default)', (_cls, option, make) => {
    expect(make).toThrow(InvalidOptionError);
    expect(make).toThrow(`Invalid option ${option}: null`);
  });

  it('undefined still means the default', () => {
    expect(new FixedSizeChunker({ chunkSize: undefined }).chunk('a b c').length).toBe(1);
    expect(integerOption('x', undefined, 7)).toBe(7);
    expect(numberOption('x', undefined, 0.5, 0, 1)).toBe(0.5);
    expect(() => integerOption('x', null, 7)).toThrow('Invalid option x: null (must be an integer ≥ 1)');
    expect(() => numberOption('x', 2, 0.5, 0, 1)).toThrow('Invalid option x: 2 (must be a finite number in [0, 1])');
  });
});

describe('locale is checked at construction', () => {
  const bad = 'en_US!';
  const makers: Array<[string, (locale: string) => unknown]> = [
    ['SentenceChunker', (locale) => new SentenceChunker({ locale })],
    ['SemanticChunker', (locale) => new SemanticChunker({ locale })],
    ['QueryAdaptiveChunker', (locale) => new QueryAdaptiveChunker({ locale })],
    ['QascIndex', (locale) => new QascIndex({ locale })],
  ];
  it.each(makers)('%s: a malformed tag is an InvalidOptionError naming it', (_name, make) => {
    expect(() => make(bad)).toThrow(InvalidOptionError);
    expect(() => make(bad)).toThrow(`Invalid option locale: "${bad}" (must be a BCP 47 language tag such as en, nl or fr)`);
    expect(() => make(null as never)).toThrow('Invalid option locale: null');
    for (const ok of ['en', 'nl-BE', 'fr', 'xx']) expect(() => make(ok)).not.toThrow();
  });

  it('the validator: default en, the tag kept as given', () => {
    expect(localeOption('locale', undefined)).toBe('en');
    expect(localeOption('locale', 'nl-NL')).toBe('nl-NL');
    expect(() => localeOption('locale', 42)).toThrow('Invalid option locale: 42');
  });
});
