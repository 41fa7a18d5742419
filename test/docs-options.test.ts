/**
 * Docs and `--help` come from the option schemas: the committed option tables
 * (docs/options.md and every `<!-- options:NAME -->` block) equal what
 * scripts/gen-docs.ts generates from the registry now, and `chunk --help` lists every
 * schema option's flag with its default.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_SCHEMAS, generated } from '../scripts/gen-docs.js';
import { buildProgram } from '../src/apps/cli/main.js';
import { cliFlag, defaultText } from '../src/engine/options/schema.js';
import { createChunker, InvalidOptionError, strategies } from '../src/index.js';
import { UnknownOptionError } from '../src/engine/options/schema.js';
import { ChunkwiseError, HashingEmbedder, InvalidInputError, LateChunker, QueryAdaptiveChunker } from '../src/index.js';
import { utf16ToCodePointOffset, utf16ToUtf8Offset } from '../src/engine.js';
import { QascIndex } from '../src/strategies/qasc/qasc-index.js';
import { OpenAIEmbedder } from '../src/embedders/openai.js';

describe('docs generated from the schemas', () => {
  it('every generated file is up to date (run npx tsx scripts/gen-docs.ts)', () => {
    for (const [file, text] of generated()) expect(readFileSync(file, 'utf8'), file).toBe(text);
  });

  it('chunk --help names every CLI option of every strategy, with its default', () => {
    const chunk = buildProgram().commands.find((c) => c.name() === 'chunk')!;
    const help = chunk.helpInformation().replace(/\s+/g, ' ');
    for (const d of strategies()) {
      for (const [name, spec] of Object.entries(d.schema.options)) {
        const flag = cliFlag(name, spec);
        if (!flag) continue;
        expect(help, `${d.name}.${name}`).toContain(flag);
        const def = defaultText(spec).replace(/`/g, '');
        if (def !== '—' && !(spec.cli && spec.cli.negate)) expect(help, `${d.name}.${name} default`).toContain(def.split(' ')[0]);
      }
    }
  });
});

describe('options of commands (not strategies) come from schemas too', () => {
  it('embed --help has --wait-timeout with its doc and default', () => {
    const embed = buildProgram().commands.find((c) => c.name() === 'embed')!;
    const help = embed.helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('--wait-timeout <seconds> seconds to go on waiting while no job is taken or finished');
    for (const [name, spec] of Object.entries(COMMAND_SCHEMAS['queue-wait'].options)) expect(help, name).toContain(`${cliFlag(name, spec)} <seconds> ${spec.doc}`.slice(0, 60));
    expect(help).toMatch(/--wait-timeout <seconds>.*\[default: 600\]/);
  });
});

describe('unknown options', () => {
  it('are typed errors naming the key and suggesting the closest valid name', () => {
    const cases: [string, Record<string, unknown>, string, string | undefined][] = [
      ['sentence', { chunk_size: 3 }, 'chunk_size', 'chunkSize'],
      ['recursive', { chunkSize: 100, overlapp: 3 }, 'overlapp', undefined],
      ['recursive', { chunkSize: 100, chunkOverlapp: 3 }, 'chunkOverlapp', 'chunkOverlap'],
      ['fixed', { windowSize: 8 }, 'windowSize', undefined],
      ['markdown', { contextualHeader: true }, 'contextualHeader', 'contextualHeaders'],
      ['parent-child', { childsize: 8 }, 'childsize', 'childSize'],
      ['semantic', { treshold: 90 }, 'treshold', 'threshold'],
    ];
    for (const [strategy, options, key, suggestion] of cases) {
      let error: unknown;
      try {
        createChunker(strategy, options);
      } catch (e) {
        error = e;
      }
      expect(error, `${strategy} ${key}`).toBeInstanceOf(UnknownOptionError);
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as UnknownOptionError).option).toBe(key);
      expect((error as UnknownOptionError).suggestion).toBe(suggestion);
      expect((error as Error).message).toContain(`Invalid option ${key}`);
      if (suggestion) expect((error as Error).message).toContain(`did you mean ${suggestion}?`);
    }
  });

  it('null is rejected rather than silently replaced by the default', () => {
    expect(() => createChunker('fixed', { chunkSize: null as never })).toThrow(/Invalid option chunkSize: null/);
  });

  it('classes outside the registry reject unknown options too, with the class and a suggestion', async () => {
    const token = { dimension: 4, maxTokens: 8, embed: async () => new Float32Array(4), embedTokens: async () => ({}) } as never;
    const cases: [string, () => unknown, string, string | undefined][] = [
      ['QueryAdaptiveChunker', () => new QueryAdaptiveChunker({ lamda: 0.5 } as never), 'lamda', 'lambda'],
      ['QascIndex', () => new QascIndex({ lamda: 0.5 } as never), 'lamda', undefined],
      ['QascIndex, a QASC parameter outside qasc', () => new QascIndex({ lambda: 0.5 } as never), 'lambda', 'qasc.lambda'],
      ['QascIndex qasc', () => new QascIndex({ qasc: { kapa: 1 } as never }), 'kapa', 'kappa'],
      ['LateChunker', () => new LateChunker({ embedder: token, spanz: 'fixed' } as never), 'spanz', undefined],
      ['HashingEmbedder', () => new HashingEmbedder({ dimensions: 10 } as never), 'dimensions', 'dimension'],
      ['OpenAIEmbedder', () => new OpenAIEmbedder({ model: 'm', apiKey: 'k', dimension: 8, baseUrl: 'http://localhost:9' } as never), 'baseUrl', 'baseURL'],
    ];
    for (const [name, make, key, suggestion] of cases) {
      let error: unknown;
      try {
        make();
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(UnknownOptionError);
      expect((error as UnknownOptionError).option, name).toBe(key);
      if (suggestion) expect((error as UnknownOptionError).suggestion, name).toBe(suggestion);
    }
    await expect(new QueryAdaptiveChunker().query('A b. C d.', 'b', { topk: 1 } as never)).rejects.toThrow(/unknown option of query\(\); did you mean topK\?/);
    await expect(new QascIndex().query('b', { maxresults: 1 } as never)).rejects.toThrow(/did you mean maxResults\?/);
  });
});

describe('bad input to the helpers is typed', () => {
  it('an empty QASC query is an InvalidInputError (every result would be arbitrary)', async () => {
    await expect(new QueryAdaptiveChunker().query('One sentence. Two sentences.', '  ')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(new QascIndex().query('')).rejects.toThrow(/query must not be empty/);
  });

  it('offset conversions throw ChunkwiseErrors naming the offset', () => {
    expect(utf16ToUtf8Offset('aé', 2)).toBe(3);
    expect(utf16ToCodePointOffset('a😀b', 3)).toBe(2);
    for (const f of [utf16ToUtf8Offset, utf16ToCodePointOffset]) {
      expect(() => f('abc', 10)).toThrow(ChunkwiseError);
      expect(() => f('abc', 1.5)).toThrow(/offset must be an integer in \[0, 3\].*got 1\.5/);
    }
  });
});

