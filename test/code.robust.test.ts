/**
 * The code strategy on hostile input: text tree-sitter's grammars skip before the first
 * token (format characters such as U+200B and U+2060, which are text, not whitespace) is
 * kept like every other strategy keeps it; a parse that runs past its work or time
 * budget, or aborts the tree-sitter runtime, falls back to the recursive splitter with
 * `metadata.fallback` saying why, and the next call in the same process parses again;
 * generated garbage in every language chunks quickly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'web-tree-sitter';
import { describe, expect, it, vi } from 'vitest';
import { CODE_LANGUAGES, CodeChunker, languageForPath } from '../src/code.js';
import { createChunker, strategyNames, type Chunk } from '../src/index.js';
import { isBlank, isSpace } from '../src/engine/text.js';
import { expectInvariants } from './helpers/invariants.js';
import { repoRoot } from './helpers/paths.js';

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

  it('blank is JavaScript \\s, code unit by code unit, in src/engine/text.ts (which the invariant checker uses)', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if (isSpace(c) !== /\s/.test(ch) || isBlank(`${ch}${ch}`) !== /^\s+$/.test(ch)) throw new Error(`U+${c.toString(16)}`);
    }
    expect(isBlank(' a ', 0, 1)).toBe(true);
    expect(isBlank(' a ', 0, 2)).toBe(false);
    expect(isSpace(0x200b) || isSpace(0x2060) || isSpace(0x00ad)).toBe(false);
  });
});

// ---------------------------------------------------------------- parse budget, aborts, garbage

const fixturesDir = join(repoRoot, 'test', 'fixtures', 'code');
const FIXTURES = readdirSync(fixturesDir).sort();
const fixtureOf = (language: string) => readFileSync(join(fixturesDir, FIXTURES.find((f) => languageForPath(f)?.name === language)!), 'utf8');

/** The input that made web-tree-sitter 0.25.10 run for minutes with the TypeScript and TSX grammars (JavaScript: 20 ms). */
const HANG = "[l=b?>'e\n\"r}{#";
/** Punctuation and fragments every grammar's error recovery meets. */
const GARBAGE = "[](){}<>'\"`?=:;#/\\*\n \tlabexr$@!%^&|,.-+~01_\u200b";
/** A seeded garbage file of `n` code units (a linear congruential generator: the same files on every run). */
function garbage(seed: number, n: number): string {
  let x = seed;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += GARBAGE[x % GARBAGE.length];
  }
  return s;
}

/** Chunks `text`, timed. */
function timed(chunker: CodeChunker, text: string): { chunks: Chunk[]; ms: number } {
  const t0 = performance.now();
  const chunks = chunker.chunk(text);
  return { chunks, ms: performance.now() - t0 };
}

describe('a parse with a budget', () => {
  it(`${JSON.stringify(HANG)} in TypeScript and TSX: chunked by the recursive splitter in under 2 s with metadata.fallback naming the budget, then the next file parses (was: past 60 s)`, async () => {
    for (const language of ['typescript', 'tsx']) {
      const chunker = await CodeChunker.create({ language, unit: 'char', chunkSize: 64 });
      const { chunks, ms } = timed(chunker, HANG);
      expect(ms, language).toBeLessThan(2000);
      expect(spans(chunks)).toEqual([[0, HANG.length]]);
      expect(chunks[0].metadata.fallback).toMatch(/^the parse ran past its (work|time) budget \(\d+ (steps of 100 parser operations|ms) for 14 code units\)$/);
      expect(chunks[0].metadata).toMatchObject({ strategy: 'code', language, symbolPath: [], symbols: [], startLine: 1, endLine: 2 });
      expect(chunker.lastFallback).toBe(chunks[0].metadata.fallback);
      expect(chunker.hasSyntaxErrors(HANG)).toBe(true);
      expect(chunker.definitions(HANG)).toEqual([]);
      const next = chunker.chunk('function f(a: number) {\n  return a;\n}\n');
      expect(next.map((c) => [c.metadata.symbolPath, c.metadata.fallback])).toEqual([[['function f'], undefined]]);
      expect(chunker.lastFallback).toBeUndefined();
    }
    // JavaScript parses it whole (error recovery, no budget reached)
    const js = await CodeChunker.create({ language: 'javascript', unit: 'char', chunkSize: 64 });
    expect(js.chunk(HANG)[0].metadata.fallback).toBeUndefined();
  });

  it('generated garbage in every language chunks in under 2 s per file, loses nothing, holds the budget, and the next call parses the language\'s fixture', async () => {
    const slow: string[] = [];
    const fellBack: string[] = [];
    for (const [k, { name }] of CODE_LANGUAGES.entries()) {
      const chunker = await CodeChunker.create({ language: name, unit: 'char', chunkSize: 64 });
      for (const text of [garbage(7 + k, 2283), garbage(1000 + k, 600), HANG]) {
        const { chunks, ms } = timed(chunker, text);
        if (ms >= 2000) slow.push(`${name} ${text.length}: ${Math.round(ms)} ms`);
        expectInvariants(text, chunks, { unit: 'char', budget: 64 });
        if (chunks[0].metadata.fallback !== undefined) fellBack.push(`${name} ${text.length}`);
        const next = chunker.chunk(fixtureOf(name));
        expect(next.filter((c) => c.metadata.fallback !== undefined), name).toEqual([]);
        expect(next.some((c) => (c.metadata.symbolPath as string[]).length > 0), name).toBe(true);
      }
    }
    expect(slow).toEqual([]);
    expect(fellBack).toEqual(expect.arrayContaining(['typescript 14', 'tsx 14']));
  }, 60_000);
});

describe('a tree-sitter runtime that aborts', () => {
  it('is replaced by a fresh one: the file that aborted is chunked by the recursive splitter (metadata.fallback), the next calls parse again, the registry entry too', async () => {
    const chunker = await CodeChunker.create({ language: 'typescript', unit: 'char', chunkSize: 64 });
    const lazy = createChunker('code', { language: 'python', unit: 'char', chunkSize: 64 });
    expect((await lazy.chunk('def f():\n    return 1\n'))[0].metadata.symbolPath).toEqual(['function f']);
    const source = 'function f() {\n  return 1;\n}\n';
    // the fault web-tree-sitter raised after minutes on a generated TSX file: Emscripten's abort
    const spy = vi.spyOn(Parser.prototype, 'parse').mockImplementationOnce(() => {
      throw new WebAssembly.RuntimeError('Aborted(). Build with -sASSERTIONS for more info.');
    });
    try {
      const aborted = chunker.chunk(source);
      expect(aborted.map((c) => [c.start, c.end, c.metadata.fallback])).toEqual([[0, source.length - 1, 'tree-sitter aborted (Aborted(). Build with -sASSERTIONS for more info.)']]);
      // until the fresh runtime is loaded, the recursive splitter, saying so
      expect(chunker.chunk(source)[0].metadata.fallback).toBe('the tree-sitter runtime aborted earlier and is being loaded again');
      await chunker.ready();
      expect(chunker.chunk(source).map((c) => [c.metadata.symbolPath, c.metadata.fallback])).toEqual([[['function f'], undefined]]);
      // a chunker built before the abort, and one built after, parse on the fresh runtime
      expect((await lazy.chunk('def g():\n    return 2\n'))[0].metadata.symbolPath).toEqual(['function g']);
      const after = await CodeChunker.create({ language: 'rust', unit: 'char', chunkSize: 64 });
      expect(after.chunk('fn h() -> u8 { 3 }\n')[0].metadata.symbolPath).toEqual(['function h']);
      expect(spy).toHaveBeenCalledTimes(1); // the aborted module's parsers are never used again
    } finally {
      spy.mockRestore();
    }
  });
});

describe('construction', () => {
  it('new CodeChunker() is a typed chunkwise error naming what was passed, not a plain TypeError', async () => {
    const { InvalidOptionError, ChunkwiseError } = await import('../src/index.js');
    const New = CodeChunker as unknown as new (options?: unknown) => CodeChunker;
    for (const given of [undefined, { language: 'python' }]) {
      let error: unknown;
      try {
        new New(given);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect(error).toBeInstanceOf(ChunkwiseError);
      expect((error as Error).message).toBe(
        `Invalid option new CodeChunker: ${given === undefined ? 'undefined' : '{"language":"python"}'} (the constructor is internal: build it with await CodeChunker.create(options), since loading tree-sitter and the grammar is asynchronous)`,
      );
    }
  });
});
