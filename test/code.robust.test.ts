/**
 * The code strategy on hostile input: text tree-sitter's grammars skip before the first
 * token (format characters such as U+200B and U+2060, which are text, not whitespace) is
 * kept like every other strategy keeps it; a parse that runs past its work or time
 * budget, or aborts the tree-sitter runtime, falls back to the recursive splitter with
 * `metadata.fallback` saying why, and the next call in the same process parses again;
 * generated garbage in every language chunks quickly.
 */
import { describe, expect, it } from 'vitest';
import { CODE_LANGUAGES, CodeChunker } from '../src/code.js';
import { createChunker, strategyNames, type Chunk } from '../src/index.js';
import { isBlank, isSpace } from '../src/core/text.js';
import { expectInvariants } from './helpers/invariants.js';

const spans = (chunks: readonly Chunk[]) => chunks.map((c) => [c.start, c.end]);

describe('format characters are text, in every language and every strategy', () => {
  it("'\\u200blet a = 1;\\n' in JavaScript: one chunk [0, 11), offset 0 included (was [1, 11))", async () => {
    const chunks = await createChunker('code', { language: 'javascript', unit: 'char', chunkSize: 50 }).chunk('\u200blet a = 1;\n');
    expect(spans(chunks)).toEqual([[0, 11]]);
    expect(chunks[0].text).toBe('\u200blet a = 1;');
  });

  it('every language keeps a leading and a trailing format character and a document of only U+2060 (was: no chunk in typescript, tsx, javascript, python)', async () => {
    const lost: string[] = [];
    for (const { name } of CODE_LANGUAGES) {
      const chunker = await CodeChunker.create({ language: name, unit: 'char', chunkSize: 50 });
      for (const text of ['\u2060', '\u200bx = 1\n', 'x = 1\n\u2060', '\ufeff\u200b\u2060\n', '\u00ad x\n\u200b']) {
        const chunks = chunker.chunk(text);
        try {
          expectInvariants(text, chunks, { unit: 'char', budget: 50 });
        } catch (e) {
          lost.push(`${name} ${JSON.stringify(text)}: ${JSON.stringify(spans(chunks))} ${(e as Error).message.split('\n')[1]}`);
        }
      }
      expect(spans(chunker.chunk('\u2060')), name).toEqual([[0, 1]]);
    }
    expect(lost).toEqual([]);
  });

  it('every registered strategy keeps a document of only U+2060 (one definition of blank)', async () => {
    for (const name of strategyNames()) {
      if (name === 'late') continue; // needs a token-level model
      const chunks = await createChunker(name, name === 'code' ? { language: 'typescript' } : {}).chunk('\u2060');
      expect(chunks.length, name).toBeGreaterThan(0);
      expect(chunks.every((c) => c.start === 0 && c.end === 1), name).toBe(true);
    }
  });

  it('blank is JavaScript \\s, code unit by code unit, in src/core/text.ts (which the invariant checker uses)', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if (isSpace(c) !== /\s/.test(ch) || isBlank(`${ch}${ch}`) !== /^\s+$/.test(ch)) throw new Error(`U+${c.toString(16)}`);
    }
    expect(isBlank(' a ', 0, 1)).toBe(true);
    expect(isBlank(' a ', 0, 2)).toBe(false);
    expect(isSpace(0x200b) || isSpace(0x2060) || isSpace(0x00ad)).toBe(false);
  });
});
