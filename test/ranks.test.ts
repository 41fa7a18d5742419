/**
 * The binary rank tables (bindings/bpe-table.ts) and how they load (bindings/bpe-ranks.ts):
 * built from js-tiktoken's ranks byte for byte, carried to bundlers as string modules
 * holding the same bytes, loaded per encoding on first use (a word user loads none, a
 * cl100k_base user only cl100k_base), and outside Node only after `loadTokenizer` (or
 * the static `chunkwise/encodings/<encoding>` module), with a typed error naming both
 * ways otherwise. Id equality with js-tiktoken on every shared file: test/bpe.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { loadRankTable, setRankTable } from '../bindings/bpe-ranks.js';
import { rankTableFromStrings, rankTableFromTiktoken, readRankTable, writeRankTable } from '../bindings/bpe-table.js';
import cl100kParts from '../bindings/generated/ranks/cl100k_base.js';
import o200kParts from '../bindings/generated/ranks/o200k_base.js';
import { UnknownEncodingError, WasmError } from '../src/engine/errors.js';
import { repoRoot, texts } from './helpers/paths.js';

const DATA = { cl100k_base: cl100k, o200k_base: o200k } as const;
const PARTS = { cl100k_base: cl100kParts, o200k_base: o200kParts } as const;
const tableFile = (e: string) => join(repoRoot, 'bindings', 'generated', 'ranks', `${e}.bpe`);

/** Runs an ES module script in a fresh Node process; returns its stdout parsed as JSON. */
function inNode(script: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('the rank tables', () => {
  for (const encoding of ['cl100k_base', 'o200k_base'] as const) {
    it(`${encoding}: the built file is js-tiktoken's ranks, and its string modules carry the same bytes`, () => {
      const file = new Uint8Array(readFileSync(tableFile(encoding)));
      expect(Buffer.from(rankTableFromTiktoken(DATA[encoding])).equals(Buffer.from(file))).toBe(true);
      expect(Buffer.from(rankTableFromStrings(PARTS[encoding])).equals(Buffer.from(file))).toBe(true);
      expect(PARTS[encoding].every((p) => p.length <= 700_000)).toBe(true);
      const info = readRankTable(file);
      expect(info.pattern).toBe(encoding === 'cl100k_base' ? 0 : 1);
      expect(Object.fromEntries([...info.specials].map(([id, text]) => [text, id]))).toEqual(DATA[encoding].special_tokens);
      // every rank's bytes, as js-tiktoken decodes them
      const ref = new Tiktoken(DATA[encoding]) as unknown as { textMap: Map<number, Uint8Array> };
      expect(info.rankCount).toBe(ref.textMap.size);
      const lengths = file.subarray(16, 16 + info.rankCount);
      let at = 16 + info.rankCount;
      for (let r = 0; r < info.rankCount; r += 997) {
        const want = ref.textMap.get(r)!;
        let off = at;
        for (let k = 0; k < r; k++) off += lengths[k];
        expect(Array.from(file.subarray(off, off + lengths[r])), `rank ${r}`).toEqual(Array.from(want));
      }
    });
  }

  it('rejects what is not a rank table, naming why', () => {
    const good = writeRankTable([new Uint8Array([97]), undefined, new Uint8Array([98, 99])], 0, { '<|x|>': 7 });
    expect(readRankTable(good)).toEqual({ pattern: 0, rankCount: 3, specials: new Map([[7, '<|x|>']]) });
    const bad = (bytes: Uint8Array, why: RegExp) => expect(() => readRankTable(bytes)).toThrow(why);
    bad(new Uint8Array(4), /Not a chunkwise BPE rank table \(4 bytes\)/);
    bad(new TextEncoder().encode('x'.repeat(40)), /bad magic number/);
    const v2 = good.slice();
    v2[4] = 2;
    bad(v2, /format version 2, expected 1/);
    const pattern = good.slice();
    pattern[5] = 9;
    bad(pattern, /unknown split pattern 9/);
    const lengths = good.slice();
    lengths[16] = 2;
    bad(lengths, /token lengths do not add up/);
    bad(good.subarray(0, good.length - 2), /truncated special tokens/);
    expect(() => writeRankTable([new Uint8Array(256)], 0, {})).toThrow(WasmError);
    expect(() => rankTableFromTiktoken({ ...cl100k, pat_str: '\\w+' })).toThrow(/only the cl100k_base and o200k_base split patterns/);
  });

  it('setRankTable and loadRankTable check the encoding and the bytes', async () => {
    const o200kTable = new Uint8Array(readFileSync(tableFile('o200k_base')));
    expect(() => setRankTable('cl100k_base', o200kTable)).toThrow(/The rank table given for cl100k_base is another encoding's/);
    expect(() => setRankTable('p50k_base' as 'cl100k_base', o200kTable)).toThrow(UnknownEncodingError);
    await expect(loadRankTable('cl100k_base', new Uint8Array(8))).rejects.toThrow(/Not a chunkwise BPE rank table/);
    await expect(loadRankTable('cl100k_base', 42 as unknown as Uint8Array)).rejects.toThrow(/Could not load the cl100k_base rank table: expected bytes/);
    await expect(loadRankTable('r50k_base' as 'cl100k_base')).rejects.toThrow(UnknownEncodingError);
  });
});

describe('loading per encoding, on first use', () => {
  it('Node: nothing on import, nothing for word units, only cl100k_base for cl100k_base tokens', () => {
    const dist = pathToFileURL(join(repoRoot, 'dist')).href;
    const out = inNode(`
      const cw = await import('${dist}/src/index.js');
      const { hasRankTable } = await import('${dist}/bindings/bpe-ranks.js');
      const state = () => [hasRankTable('cl100k_base'), hasRankTable('o200k_base')];
      const seen = { imported: state() };
      new cw.SlidingWindowChunker({ unit: 'word', windowSize: 5, stride: 3, countTokens: false }).chunk('one two three four five six seven');
      seen.words = state();
      const chunks = new cw.SlidingWindowChunker({ unit: 'token', windowSize: 4, stride: 2 }).chunk('Sliding windows over tokens of cl100k_base.');
      seen.tokens = state();
      seen.counts = chunks.map((c) => c.tokenCount);
      console.log(JSON.stringify(seen));`);
    const n = new Tiktoken(cl100k).encode('Sliding windows over tokens of cl100k_base.', [], []).length;
    const counts: number[] = [];
    for (let start = 0; ; start += 2) {
      counts.push(Math.min(4, n - start));
      if (start + 4 >= n) break;
    }
    expect(out).toEqual({ imported: [false, false], words: [false, false], tokens: [true, false], counts });
  });

  it('a bundle outside the package layout: a typed error naming both ways, then loadTokenizer', () => {
    const bundle = pathToFileURL(join(repoRoot, 'dist', 'bundle', 'inline', 'index.js')).href;
    const text = readFileSync(texts.nlSliding, 'utf8').slice(0, 3000);
    const out = inNode(`
      const cw = await import('${bundle}');
      const text = ${JSON.stringify(text)};
      const error = (f) => { try { f(); return 'no error'; } catch (e) { return [e.name, e instanceof cw.WasmError, e.encoding, e.message]; } };
      const before = error(() => cw.getTokenizer('cl100k_base'));
      const tok = await cw.loadTokenizer('cl100k_base');
      const after = Array.from(cw.getTokenizer('cl100k_base').encode(text));
      console.log(JSON.stringify({ before, same: tok === cw.getTokenizer('cl100k_base'), after, o200k: error(() => cw.getTokenizer('o200k_base')) }));`) as {
      before: unknown[];
      same: boolean;
      after: number[];
      o200k: unknown[];
    };
    expect(out.before).toEqual([
      'EncodingNotLoadedError',
      true,
      'cl100k_base',
      "The cl100k_base rank table is not loaded: call await loadTokenizer(\"cl100k_base\") first, or bundle it for synchronous use with the side-effect module chunkwise/encodings/cl100k_base",
    ]);
    expect(out.same).toBe(true);
    expect(out.after).toEqual(new Tiktoken(cl100k).encode(text, [], []));
    expect(out.o200k[0]).toBe('EncodingNotLoadedError');
  });

  it('chunkwise/encodings/<encoding> registers its table for synchronous use, decoded on first use', () => {
    const dir = pathToFileURL(join(repoRoot, 'dist', 'bundle', 'inline')).href;
    const out = inNode(`
      const cw = await import('${dir}/index.js');
      await import('${dir}/encodings/o200k_base.js');
      console.log(JSON.stringify(Array.from(cw.getTokenizer('o200k_base').encode('Lazy tables, per encoding.'))));`);
    expect(out).toEqual(new Tiktoken(o200k).encode('Lazy tables, per encoding.', [], []));
  });
});
