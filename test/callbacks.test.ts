/**
 * User callbacks (a `sizer`, `tokenizer`, `embedder`, `splitter`, `lengthFunction`,
 * `childSplitter`, a late-chunking `embedTokens`): a malformed one is an
 * InvalidOptionError at construction naming the option and the missing member; one that
 * returns something unusable is a typed error naming it (never 0 chunks, NaN offsets or an
 * internal TypeError); one that throws is a CallbackError naming the option with the
 * original error as `cause`.
 */
import { describe, expect, it } from 'vitest';
import {
  CallbackError,
  ClusterSemanticChunker,
  createChunker,
  EmbeddingError,
  FixedSizeChunker,
  InvalidOptionError,
  LateChunker,
  ParentChildChunker,
  RecursiveChunker,
  SemanticChunker,
  strategies,
  type Sizer,
  type TokenEmbedder,
  type TokenEmbeddings,
} from '../src/index.js';
import { segmentChars } from '../src/engine/size/chars.js';
import { hashVector, StubEmbedder } from './helpers/stub-embedders.js';

const TEXT = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} talks about ${i % 3 === 0 ? 'cats' : 'the weather'} at some length.`).join(' ');

/** The error `f` throws (synchronously or as a rejection). */
async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
}

/** A sizer in characters (code points) whose members can be replaced. */
function charSizer(over: Partial<Record<keyof Sizer, unknown>> = {}): Sizer {
  return { unit: 'custom', name: 'mine', size: (t: string) => [...t].length, segment: segmentChars, ...over } as Sizer;
}

/** A token-level stub: one token per word, vectors from the word's hash. */
function tokenStub(embedTokens?: (text: string) => Promise<unknown>): TokenEmbedder {
  const d = 4;
  return {
    dimension: d,
    embed: new StubEmbedder(d, (t) => hashVector(t, d)).embed,
    embedTokens:
      (embedTokens as TokenEmbedder['embedTokens']) ??
      (async (text: string): Promise<TokenEmbeddings> => {
        const words = [...text.matchAll(/\S+/g)];
        const offsets = new Int32Array(words.length * 2);
        const vectors = new Float32Array(words.length * d);
        words.forEach((m, t) => {
          offsets[2 * t] = m.index!;
          offsets[2 * t + 1] = m.index! + m[0].length;
          vectors.set(hashVector(m[0], d), t * d);
        });
        return { vectors, offsets, special: new Uint8Array(words.length), truncated: false };
      }),
  };
}

describe('the shape of an object option is checked at construction', () => {
  it('a sizer without segment, size or name: InvalidOptionError naming sizer and the member, in every strategy that takes one', () => {
    const takers = strategies().filter((d) => 'sizer' in d.schema.options);
    expect(takers.map((d) => d.name)).toEqual(expect.arrayContaining(['recursive', 'fixed', 'sliding', 'markdown', 'semantic', 'cluster-semantic']));
    for (const def of takers) {
      for (const member of ['segment', 'size', 'name'] as const) {
        const e = (() => {
          try {
            createChunker(def.name, { sizer: charSizer({ [member]: undefined }), ...(def.name === 'code' ? { language: 'javascript' } : {}) });
          } catch (error) {
            return error;
          }
          return undefined;
        })();
        expect(e, `${def.name} without ${member}`).toBeInstanceOf(InvalidOptionError);
        expect((e as InvalidOptionError).option).toBe('sizer');
        expect((e as Error).message).toContain(`no ${member} (`);
      }
    }
    expect(() => new RecursiveChunker({ sizer: charSizer({ segment: 'chars' }) })).toThrow(/sizer.*Sizer: wrong type of segment \(segment\(text\) → \{ starts, ends, count \}\)/);
    expect(() => new RecursiveChunker({ sizer: charSizer({ gapSize: 0 }) })).toThrow(/wrong type of gapSize/);
    expect(() => new RecursiveChunker({ sizer: charSizer({ additive: 'yes' }) })).toThrow(/wrong type of additive \(additive: boolean\)/);
    expect(() => new RecursiveChunker({ sizer: charSizer({ joinSize: -1 }) })).toThrow(/wrong type of joinSize/);
  });

  it('a tokenizer, an embedder, a token embedder, a splitter, a childSplitter and a lengthFunction of the wrong shape', () => {
    expect(() => new FixedSizeChunker({ tokenizer: { encoding: 'x', encodeWithOffsets: () => ({}) } as never })).toThrow(/Invalid option tokenizer: .*Tokenizer: it has no count \(count\(text\) → number\)/);
    expect(() => new SemanticChunker({ embedder: { embed: async () => new Float32Array(0) } as never })).toThrow(/Invalid option embedder: .*Embedder: it has no dimension/);
    expect(() => new ClusterSemanticChunker({ embedder: { dimension: 2.5, embed: async () => new Float32Array(0) } as never })).toThrow(/embedder.*wrong type of dimension \(dimension: an integer ≥ 1\)/);
    expect(() => new ClusterSemanticChunker({ embedder: { dimension: 4 } as never })).toThrow(/it has no embed \(embed\(texts\)/);
    const plain = new StubEmbedder(4, (t) => hashVector(t, 4));
    expect(() => new LateChunker({ embedder: plain as never })).toThrow(/Invalid option embedder: .*it has no embedTokens/);
    expect(() => createChunker('late', { embedder: plain })).toThrow(/it has no embedTokens/);
    expect(() => new SemanticChunker({ splitter: { split: () => [] } as never })).toThrow(/Invalid option splitter: .*must be a function/);
    expect(() => new ParentChildChunker({ childSplitter: 'fixed' as never })).toThrow(/childSplitter.*must be a function/);
    expect(() => new RecursiveChunker({ lengthFunction: 3 as never })).toThrow(/Invalid option lengthFunction: 3 \(must be a function\)/);
  });
});

describe('what a callback returns is checked', () => {
  it("a sizer whose segment does not return { starts, ends, count } is an error naming sizer (it gave 0 chunks)", async () => {
    const wrong = [
      [(t: string) => [...t].map((_, i) => [i, i + 1]), /starts is missing/],
      [() => null, /it returned null/],
      [(t: string) => ({ starts: new Int32Array([0]), ends: new Int32Array([t.length + 5]), count: 1 }), /unit 0 is \[0, \d+\) in a text of \d+ code units/],
      [() => ({ starts: new Int32Array(2), ends: new Int32Array(2), count: 3 }), /count is 3/],
    ] as const;
    for (const [segment, message] of wrong) {
      for (const name of ['fixed', 'sliding']) {
        const chunker = createChunker(name, { sizer: charSizer({ segment }), ...(name === 'sliding' ? { windowSize: 10, stride: 5 } : { chunkSize: 10, chunkOverlap: 0 }) });
        const e = await thrown(() => chunker.chunk(TEXT));
        expect(e, `${name} ${String(message)}`).toBeInstanceOf(InvalidOptionError);
        expect((e as InvalidOptionError).option).toBe('sizer');
        expect((e as Error).message).toMatch(message);
      }
    }
    // arrays of integers are accepted as well as Int32Arrays: same chunks
    const asArrays = charSizer({ segment: (t: string) => ({ starts: [...Array(t.length).keys()], ends: [...Array(t.length).keys()].map((i) => i + 1), count: t.length }) });
    expect(new FixedSizeChunker({ sizer: asArrays, chunkSize: 20, chunkOverlap: 0 }).chunk('abc def ghi jkl mno pqr stu vwx').map((c) => c.text)).toEqual(
      new FixedSizeChunker({ sizer: charSizer(), chunkSize: 20, chunkOverlap: 0 }).chunk('abc def ghi jkl mno pqr stu vwx').map((c) => c.text),
    );
    expect(() => new RecursiveChunker({ sizer: charSizer({ size: () => Number.NaN }), chunkSize: 10, chunkOverlap: 0 }).chunk(TEXT)).toThrow(/Invalid option sizer: NaN \(size\(text\) must return a finite number ≥ 0/);
  });

  it('a semantic splitter returning null, tuples or offsets outside its range is an InvalidOptionError naming splitter', async () => {
    const opts = { unit: 'char' as const, maxChunkSize: 40, threshold: 100, embedder: new StubEmbedder(4, (t) => hashVector(t, 4)) };
    const cases = [
      [() => null, /Invalid option splitter: .*it returned null/],
      [(t: string) => [[0, t.length]], /span 0 is \[/],
      [(t: string) => [{ start: -1, end: t.length }], /span 0 is \{"start":-1/],
      [(t: string) => [{ start: 0, end: t.length + 1 }], /≤ end ≤ \d+ \(the text's length\)/],
      [() => [{ start: 0, end: 1.5 }], /integer offsets/],
    ] as const;
    for (const [splitter, message] of cases) {
      const e = await thrown(() => new SemanticChunker({ ...opts, splitter: splitter as never }).chunk(TEXT));
      expect(e).toBeInstanceOf(InvalidOptionError);
      expect((e as InvalidOptionError).option).toBe('splitter');
      expect((e as Error).message).toMatch(message);
    }
    // a good splitter's spans are used as given
    const halves = (t: string) => [{ start: 0, end: t.length >> 1 }, { start: t.length >> 1, end: t.length }];
    const chunks = await new SemanticChunker({ ...opts, splitter: halves }).chunk(TEXT);
    expect(chunks.length).toBe(2);
    expect(chunks.every((c) => c.text === TEXT.slice(c.start, c.end) && Number.isInteger(c.start))).toBe(true);
  });

  it('late chunking: embedTokens returning null, no offsets or the wrong number of vectors is an EmbeddingError saying what', async () => {
    const good = await tokenStub().embedTokens('two words');
    const cases = [
      [async () => null, /embedTokens\(text\) must return \{ vectors, offsets, special, truncated \}; it returned null/],
      [async () => ({ ...good, offsets: undefined }), /offsets is missing/],
      [async () => ({ ...good, vectors: new Float32Array(3) }), /vectors is 3 values, not a Float32Array of 2 tokens × 4/],
      [async () => ({ ...good, special: undefined }), /special is undefined/],
      [async () => ({ ...good, offsets: new Int32Array([0, 3, 4, 99]) }), /token 1 spans \[4, 99\)/],
    ] as const;
    for (const [embedTokens, message] of cases) {
      const e = await thrown(() => new LateChunker({ embedder: tokenStub(embedTokens) }).chunk('two words'));
      expect(e).toBeInstanceOf(EmbeddingError);
      expect((e as Error).message).toMatch(message);
    }
    const ok = await new LateChunker({ embedder: tokenStub() }).chunk('two words');
    expect(ok).toHaveLength(1);
    expect(ok[0].vector).toHaveLength(4);
  });

  it('an embedder returning the wrong matrix is an EmbeddingError in the semantic strategies', async () => {
    const short = { dimension: 4, embed: async (texts: string[]) => new Float32Array(texts.length * 4 - 1) };
    await expect(new SemanticChunker({ embedder: short }).chunk(TEXT)).rejects.toThrow(/returned \d+ values, expected 12 × 4/);
    const none = { dimension: 4, embed: async () => undefined as never };
    await expect(new ClusterSemanticChunker({ embedder: none, unit: 'char', maxChunkSize: 100, pieceSize: 20 }).chunk(TEXT)).rejects.toThrow(EmbeddingError);
  });
});

describe('a callback that throws is a CallbackError naming the option, the original as cause', () => {
  const boom = new RangeError('model offline');
  const failing = { dimension: 4, embed: async () => Promise.reject(boom) };

  it('embedders: semantic, cluster-semantic and late', async () => {
    for (const run of [
      () => new SemanticChunker({ embedder: failing }).chunk(TEXT),
      () => new ClusterSemanticChunker({ embedder: failing, unit: 'char', maxChunkSize: 100, pieceSize: 20 }).chunk(TEXT),
    ]) {
      const e = await thrown(run);
      expect(e).toBeInstanceOf(CallbackError);
      expect((e as CallbackError).option).toBe('embedder.embed');
      expect((e as Error).cause).toBe(boom);
      expect((e as Error).message).toBe('The embedder.embed option threw: RangeError: model offline');
    }
    const late = await thrown(() =>
      new LateChunker({
        embedder: tokenStub(async () => {
          throw boom;
        }),
      }).chunk('two words'),
    );
    expect(late).toBeInstanceOf(CallbackError);
    expect((late as CallbackError).option).toBe('embedder.embedTokens');
    expect((late as Error).cause).toBe(boom);
  });

  it('splitters, sizers and length functions; a chunkwise error from inside passes unchanged', async () => {
    const thrower = () => {
      throw boom;
    };
    const cases: Array<[() => unknown, string]> = [
      [() => new SemanticChunker({ unit: 'char', maxChunkSize: 40, threshold: 100, splitter: thrower }).chunk(TEXT), 'splitter'],
      [() => new ParentChildChunker({ unit: 'char', parentSize: 200, childSize: 50, childSplitter: thrower }).chunk(TEXT), 'childSplitter'],
      [() => new RecursiveChunker({ lengthFunction: thrower, chunkSize: 10, chunkOverlap: 0 }).chunk(TEXT), 'lengthFunction'],
      [() => new RecursiveChunker({ sizer: charSizer({ size: thrower }), chunkSize: 10, chunkOverlap: 0 }).chunk(TEXT), 'sizer.size'],
      [() => new FixedSizeChunker({ sizer: charSizer({ segment: thrower }), chunkSize: 10, chunkOverlap: 0 }).chunk(TEXT), 'sizer.segment'],
    ];
    for (const [run, option] of cases) {
      const e = await thrown(run);
      expect(e, option).toBeInstanceOf(CallbackError);
      expect((e as CallbackError).option).toBe(option);
      expect((e as Error).cause).toBe(boom);
    }
    const typed = new InvalidOptionError('chunkSize', 0, 'inner');
    const e = await thrown(() =>
      new RecursiveChunker({
        lengthFunction: () => {
          throw typed;
        },
      }).chunk(TEXT),
    );
    expect(e).toBe(typed);
  });
});
