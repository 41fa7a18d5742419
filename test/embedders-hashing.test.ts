import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EmbeddingError, InvalidOptionError } from '../src/engine/errors.js';
import { HashingEmbedder } from '../src/embedders/index.js';
import { texts } from './helpers/paths.js';

const read = (file: string) => readFileSync(file, 'utf8');

function sentences(text: string, locale: string): string[] {
  const seg = new Intl.Segmenter(locale, { granularity: 'sentence' });
  return [...seg.segment(text)].map((s) => s.segment.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
}

function best(e: HashingEmbedder, query: string, candidates: string[]): { index: number; scores: number[] } {
  const d = e.dimension;
  const m = e.embedSync([query, ...candidates]);
  const scores = candidates.map((_, i) => {
    let s = 0;
    for (let j = 0; j < d; j++) s += m[j] * m[(i + 1) * d + j];
    return s;
  });
  return { index: scores.indexOf(Math.max(...scores)), scores };
}

function fnv(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

describe('HashingEmbedder', () => {
  const e = new HashingEmbedder();

  it('gives unit vectors of the chosen dimension, deterministically', () => {
    const texts = ['Sliding-window chunking met overlap', 'La fenêtre glissante', 'The quick brown fox'];
    const a = e.embedSync(texts);
    expect(a.length).toBe(3 * 384);
    for (let i = 0; i < 3; i++) {
      let n = 0;
      for (let j = 0; j < 384; j++) n += a[i * 384 + j] ** 2;
      expect(n).toBeCloseTo(1, 5);
    }
    expect(new HashingEmbedder().embedSync(texts)).toEqual(a);
    expect(new HashingEmbedder({ dimension: 256 }).dimension).toBe(256);
  });

  it('is bit-identical to the pinned vectors (the same in every runtime)', () => {
    const v = e.embedSync(['Query-Adaptieve Semantische Chunking (QASC): latentie 380 ms.', 'Fenêtre glissante — œuvre ﬁnale', '']);
    // Pinned from Node 20; a browser or edge runtime must produce the same bytes.
    expect(fnv(new Uint8Array(v.buffer))).toBe(PINNED);
  });

  it('normalises: case, NFKC and (by default) diacritics', () => {
    const [a, b] = [e.embedSync(['Fenêtre Glissante ﬁ']), e.embedSync(['fenetre glissante fi'])];
    expect(b).toEqual(a);
    const keep = new HashingEmbedder({ stripDiacritics: false });
    expect(keep.embedSync(['fenêtre'])).not.toEqual(keep.embedSync(['fenetre']));
    expect(e.normalize('Ｆｅｎêtre')).toBe('fenetre');
  });

  it('an empty text or one without words gets the zero vector', () => {
    const v = e.embedSync(['', '  ?! ', 'word']);
    expect(v.subarray(0, 768).every((x) => x === 0)).toBe(true);
    expect(v.subarray(768).some((x) => x !== 0)).toBe(true);
    expect(e.embedSync([])).toEqual(new Float32Array(0));
  });

  it('character n-grams make inflections similar', () => {
    const { scores } = best(e, 'chunking', ['chunks', 'retrieval']);
    expect(scores[0]).toBeGreaterThan(scores[1] + 0.1);
  });

  it('rejects bad options and non-string texts', async () => {
    expect(() => new HashingEmbedder({ dimension: 4 })).toThrow(InvalidOptionError);
    expect(() => new HashingEmbedder({ dimension: 100.5 })).toThrow(InvalidOptionError);
    expect(() => new HashingEmbedder({ minN: 4, maxN: 3 })).toThrow(InvalidOptionError);
    expect(() => new HashingEmbedder({ charWeight: -1 })).toThrow(InvalidOptionError);
    await expect(e.embed([null as unknown as string])).rejects.toBeInstanceOf(EmbeddingError);
    expect(() => e.embedSync('text' as unknown as string[])).toThrow(EmbeddingError);
  });
});

describe('HashingEmbedder on texts/: where is QASC latency stated?', () => {
  const e = new HashingEmbedder();

  it('Dutch: "wat is de latentie van QASC?" → the first sentence of the latency bullet of nl-qasc.txt', () => {
    const s = sentences(read(texts.nlQasc), 'nl');
    const { index } = best(e, 'wat is de latentie van QASC?', s);
    expect(s[index]).toBe('• Latentie: QASC maakt elke vraag trager dan het opzoeken van vooraf geknipte chunks.');
  });

  // The English and French texts do not mention QASC. These tests translate the Dutch
  // latency bullet and three distractor bullets of nl-qasc.txt themselves and add them to
  // the sentences of the text in that language.
  const EN = {
    latency:
      'Latency: QASC makes every query slower than looking up chunks cut in advance. In a worked example with 300 sentences and a small model on one processor core, a query takes about 380 ms, against 110 to 120 ms for ordinary chunks; that stays well under a second.',
    distractors: [
      'Computation per query: the similarity of every sentence to the query has to be computed again for each query.',
      'Memory: whoever keeps sentence embeddings stores many more vectors per document than with large chunks, about one per sentence instead of one per 500 tokens.',
      'Dependence on the model: the quality of the seed sentences stands or falls with the embedding model.',
    ],
  };
  const FR = {
    latency:
      "Latence : QASC rend chaque requête plus lente que la recherche de chunks découpés à l'avance. Dans un exemple chiffré avec 300 phrases et un petit modèle sur un seul cœur de processeur, une requête prend environ 380 ms, contre 110 à 120 ms pour des chunks ordinaires ; cela reste bien en dessous d'une seconde.",
    distractors: [
      'Calcul par requête : la similarité de chaque phrase avec la requête doit être recalculée à chaque requête.',
      "Mémoire : conserver les embeddings des phrases revient à stocker beaucoup plus de vecteurs par document qu'avec de grands chunks, environ un par phrase au lieu d'un pour 500 tokens.",
      "Dépendance au modèle : la qualité des phrases germes dépend entièrement du modèle d'embedding.",
    ],
  };

  it('English: "what is the latency of QASC?" against en-sliding-window.txt + translated nl-qasc.txt bullets', () => {
    const s = [...sentences(read(texts.enSliding), 'en'), ...EN.distractors, EN.latency];
    const { index } = best(e, 'what is the latency of QASC?', s);
    expect(s[index]).toBe(EN.latency);
  });

  it('French: "quelle est la latence de QASC ?" against fr-fenetre-glissante.txt + translated nl-qasc.txt bullets', () => {
    const s = [...sentences(read(texts.frSliding), 'fr'), ...FR.distractors, FR.latency];
    const { index } = best(e, 'quelle est la latence de QASC ?', s);
    expect(s[index]).toBe(FR.latency);
  });
});

const PINNED = 'a0c1e118';

describe('HashingEmbedder stopwords', () => {
  it('leaves out built-in function words unless told not to', () => {
    const e = new HashingEmbedder();
    expect(e.embedSync(['de latentie van QASC'])).toEqual(e.embedSync(['latentie QASC']));
    const all = new HashingEmbedder({ stopwords: false });
    expect(all.embedSync(['de latentie van QASC'])).not.toEqual(all.embedSync(['latentie QASC']));
    const own = new HashingEmbedder({ stopwords: ['Latentie'] });
    expect(own.embedSync(['latentie QASC'])).toEqual(own.embedSync(['QASC']));
  });
});
