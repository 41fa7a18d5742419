import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmbeddingError, InvalidOptionError } from '../src/engine/errors.js';
import { HashingEmbedder } from '../src/embedders/index.js';
import { seedsDir } from './helpers/paths.js';

const seed = (prefix: string) => readFileSync(resolve(seedsDir, readdirSync(seedsDir).find((f) => f.startsWith(prefix))!), 'utf8');

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

describe('HashingEmbedder on the seeds: where is QASC latency stated?', () => {
  const e = new HashingEmbedder();

  it('Dutch: "wat is de latentie van QASC?" → the 380 ms sentence of 004', () => {
    const s = sentences(seed('004_'), 'nl');
    const { index } = best(e, 'wat is de latentie van QASC?', s);
    expect(s[index]).toContain('QASC introduceerde extra latentie (380 ms)');
  });

  // The English (003) and French (002) seeds do not mention QASC. These tests translate
  // the Dutch latency sentence and three distractor sentences of 004 themselves
  // (translations ours) and add them to the sentences of the seed in that language.
  const EN = {
    latency:
      'Latency: QASC introduced additional latency (380 ms) compared to fixed chunking (110–120 ms) due to query-time processing, but remained comparable to embedding-based semantic chunking (340 ms) and well within sub-second interactive thresholds.',
    distractors: [
      'Reliability: QASC achieved the highest reliability score (0.87), indicating a significant reduction in hallucinated or unsupported claims compared to baselines.',
      'Practical applicability: although it introduces query-time latency, the article argues that this is a necessary trade-off for high-quality generation.',
      'The algorithm works at query time, which means that chunking is performed dynamically for each specific query instead of being precomputed during indexing.',
    ],
  };
  const FR = {
    latency:
      "Latence : QASC a introduit une latence supplémentaire (380 ms) par rapport au découpage de taille fixe (110–120 ms) en raison du traitement au moment de la requête, mais est resté comparable au découpage sémantique fondé sur les plongements (340 ms) et bien en deçà des seuils interactifs inférieurs à la seconde.",
    distractors: [
      "Fiabilité : QASC a obtenu le score de fiabilité le plus élevé (0,87), ce qui indique une réduction significative des affirmations hallucinées ou non étayées par rapport aux méthodes de référence.",
      "Applicabilité pratique : bien qu'il introduise une latence au moment de la requête, l'article soutient qu'il s'agit d'un compromis nécessaire pour une génération de haute qualité.",
      "L'algorithme fonctionne au moment de la requête, ce qui signifie que le découpage est effectué dynamiquement pour chaque requête spécifique au lieu d'être précalculé lors de l'indexation.",
    ],
  };

  it('English: "what is the latency of QASC?" against seed 003 + translated 004 sentences', () => {
    const s = [...sentences(seed('003_'), 'en'), ...EN.distractors, EN.latency];
    const { index } = best(e, 'what is the latency of QASC?', s);
    expect(s[index]).toBe(EN.latency);
  });

  it('French: "quelle est la latence de QASC ?" against seed 002 + translated 004 sentences', () => {
    const s = [...sentences(seed('002_'), 'fr'), ...FR.distractors, FR.latency];
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
