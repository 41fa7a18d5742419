import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelLoadError } from '../src/engine/errors.js';
import { HfTokenizer } from '../src/embedders/index.js';
import { makeTokenizerJson } from './helpers/embedder-fixtures.js';

const spansOf = (t: HfTokenizer, text: string, max = 100) => {
  const e = t.encode(text, max, true);
  return { e, spans: Array.from({ length: e.ids.length }, (_, i) => text.slice(e.offsets[2 * i], e.offsets[2 * i + 1])) };
};

const added = (id: number, content: string) => ({ id, content, special: true, normalized: false, lstrip: false, rstrip: false, single_word: false });

/** A SentencePiece-style Unigram tokenizer with a Metaspace pre-tokenizer (no normaliser). */
function unigramJson() {
  const pieces = ['▁the', '▁quick', '▁fox', '▁', 'es', 'f', 'o', 'x', 't', 'h', 'e', 'q', 'u', 'i', 'c', 'k', 's', 'é', 'T'];
  return {
    version: '1.0',
    added_tokens: [added(0, '<unk>'), added(1, '<s>'), added(2, '</s>')],
    normalizer: null,
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
      pair: [],
      special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] }, '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } },
    },
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: {
      type: 'Unigram',
      unk_id: 0,
      byte_fallback: false,
      vocab: [['<unk>', 0], ['<s>', 0], ['</s>', 0], ...pieces.map((p, i) => [p, -1 - i / 10])],
    },
  };
}

describe('HfTokenizer offsets (UTF-16, by alignment)', () => {
  it('WordPiece with BertNormalizer: lowercasing, accents, [UNK], surrogate pairs', () => {
    const t = new HfTokenizer(makeTokenizerJson());
    const text = 'QUICK 🦊 Fóx, the dogs';
    const { e, spans } = spansOf(t, text);
    expect(t.inner.encode(text).tokens).toEqual(['[CLS]', 'quick', '[UNK]', 'fox', ',', 'the', 'dog', '##s', '[SEP]']);
    expect(spans).toEqual(['', 'QUICK', '🦊', 'Fóx', ',', 'the', 'dog', 's', '']);
    expect(e.truncated).toBe(false);
  });

  it('WordPiece: a run the vocabulary lacks ([[[[, ……) gives one span per [UNK], not one span then empty ones', () => {
    const t = new HfTokenizer(makeTokenizerJson());
    // the BERT pre-tokenizer splits punctuation into one word per character; WordPiece maps each to [UNK]
    const a = spansOf(t, 'a [[[[ b');
    expect(t.inner.encode('a [[[[ b').tokens).toEqual(['[CLS]', 'a', '[UNK]', '[UNK]', '[UNK]', '[UNK]', 'b', '[SEP]']);
    expect(a.spans).toEqual(['', 'a', '[', '[', '[', '[', 'b', '']);
    expect([...a.e.offsets.slice(4, 12)]).toEqual([2, 3, 3, 4, 4, 5, 5, 6]);
    expect(spansOf(t, 'the …… fox').spans).toEqual(['', 'the', '…', '…', 'fox', '']);
    expect(spansOf(t, 'the [[[[').spans).toEqual(['', 'the', '[', '[', '[', '[', '']);
    expect(spansOf(t, 'foxé[[').spans).toEqual(['', 'fox', 'é', '[', '[', '']);
    // a word WordPiece cannot spell is one [UNK] for the whole word, even where a later token's text occurs inside it
    expect(spansOf(t, 'fo🦊x xylo').spans).toEqual(['', 'fo🦊x', 'x', 'y', 'l', 'o', '']);
    expect(spansOf(t, '🦊🦊🦊 fox').spans).toEqual(['', '🦊🦊🦊', 'fox', '']);
    // special tokens written in the text are matched before lowercasing
    expect(spansOf(t, 'a [SEP] b [UNK] c').spans).toEqual(['', 'a', '[SEP]', 'b', '[UNK]', 'c', '']);
  });

  it('offsets are ordered, within the text, and cover every non-space character once (fast-check)', () => {
    const t = new HfTokenizer(makeTokenizerJson());
    const alphabet = ['a', 'fox', ' ', '  ', '[', '…', '🦊', 'é', ',', 'qq', '\n'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const { e } = spansOf(t, text, 1000);
        let prev = 0;
        let covered = 0;
        for (let i = 0; i < e.ids.length; i++) {
          const [s, f] = [e.offsets[2 * i], e.offsets[2 * i + 1]];
          expect(s).toBeGreaterThanOrEqual(prev);
          expect(f).toBeGreaterThanOrEqual(s);
          expect(f).toBeLessThanOrEqual(text.length);
          if (e.special[i]) expect(f).toBe(s);
          else expect(f).toBeGreaterThan(s); // every content token has its own text
          covered += text.slice(s, f).replace(/\s/g, '').length;
          prev = f;
        }
        expect(covered).toBe(text.replace(/\s/g, '').length);
      }),
      { numRuns: 300, seed: 16 },
    );
  });

  it('Unigram with Metaspace: bare "▁" pieces are zero-width, words map back to the text', () => {
    const t = new HfTokenizer(unigramJson());
    const text = 'The  quick foxes fé';
    const { e, spans } = spansOf(t, text);
    const tokens: string[] = t.inner.encode(text).tokens;
    const expected = tokens.map((tok: string, i: number) => (i === 0 || i === tokens.length - 1 || tok === '▁' ? '' : tok.replace(/^▁/, '')));
    expect(spans).toEqual(expected);
    expect([...e.special]).toEqual(tokens.map((_: string, i: number) => (i === 0 || i === tokens.length - 1 ? 1 : 0)));
  });

  it('truncation keeps the special tokens and reports the lost tokens', () => {
    const t = new HfTokenizer(makeTokenizerJson());
    const { e, spans } = spansOf(t, 'the quick brown fox jumps', 4);
    expect(e.truncated).toBe(true);
    expect(e.totalTokens).toBe(8);
    expect(e.ids).toHaveLength(4);
    expect(spans).toEqual(['', 'the', 'quick', '']);
    expect([...e.offsets.slice(6)]).toEqual([9, 9]);
  });

  it('rejects tokenizers it cannot build', () => {
    expect(() => new HfTokenizer({})).toThrow(ModelLoadError);
    expect(() => new HfTokenizer(makeTokenizerJson({ modelType: 'WordLevel' }))).toThrow(/unknown tokenizer model type "WordLevel"/);
    const badNormalizer = { ...makeTokenizerJson(), normalizer: { type: 'Bogus' } };
    expect(() => new HfTokenizer(badNormalizer)).toThrow(/could not be built.*Bogus/);
  });
});
