/**
 * `defineStrategy` and `registerStrategy` (src/engine/define.ts, src/engine/registry.ts)
 * check what a user gives them: a malformed definition is an InvalidOptionError naming
 * the field, a strategy without boundaries fails at construction, and the boundaries a
 * definition returns are checked on every call (exact offsets in order; a throw is a
 * CallbackError) — never a chunk with `end` past the text or a raw TypeError.
 */
import { describe, expect, it } from 'vitest';
import { CallbackError, createChunker, InvalidOptionError, strategyNames } from '../src/index.js';
import { capacitySchema, defineStrategy, packLevels, registerStrategy } from '../src/engine.js';

const schema = capacitySchema('probe', {}, { overlap: false });
const probe = (spans: (text: string) => { start: number; end: number }[]) =>
  new (defineStrategy({ name: 'probe', description: 'd', schema, spans: packLevels((text) => spans(text)) }))({ unit: 'char', chunkSize: 100 });

describe('defineStrategy and registerStrategy check the definition', () => {
  it('a malformed definition names the field', () => {
    const create = () => createChunker('fixed', {});
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x', description: 'd', schema, create, spams: 1 }, /definition\.spams: 1 \(no such field/],
      [{ name: '', description: 'd', schema, create }, /definition\.name: ""/],
      [{ name: 42, description: 'd', schema, create }, /definition\.name: 42/],
      [{ name: 'x', description: 'd', schema, create, extensions: 'json' }, /definition\.extensions: "json"/],
      [{ name: 'x', description: 'd', schema, create, budget: { size: 'chunkSzie' } }, /definition\.budget\.size: "chunkSzie" \(the name of an option/],
      [{ name: 'x', description: 'd', create }, /definition\.schema: undefined/],
      [{ name: 'x', description: 'd', schema }, /definition\.create: undefined/],
    ];
    for (const [definition, message] of cases) {
      expect(() => registerStrategy(definition as never), JSON.stringify(definition)).toThrow(InvalidOptionError);
      expect(() => registerStrategy(definition as never)).toThrow(message);
    }
    expect(strategyNames()).not.toContain('x');
    expect(() => defineStrategy({ name: 'x', description: 'd', schema, spams: 1 } as never)).toThrow(/definition\.spams/);
  });

  it('a strategy with no boundaries fails at construction, naming spans', () => {
    const Bare = defineStrategy({ name: 'bare', description: 'd', schema });
    expect(() => new (Bare as unknown as new (o: object) => unknown)({})).toThrow(/definition\.spans: undefined \(boundaries for strategy bare/);
  });

  it('the boundaries are checked on every call: offsets in [0, text.length], in order; a throw is a CallbackError', () => {
    expect(probe(() => [{ start: 0, end: 5 }, { start: 6, end: 11 }]).chunk('hello world').map((c) => c.text)).toEqual(['hello world']);
    expect(() => probe(() => [{ start: 0, end: 500 }]).chunk('hello world')).toThrow(/Invalid option spans: .*0 ≤ start ≤ end ≤ 11/);
    expect(() => probe(() => [{ start: 5, end: 2 }]).chunk('hello world')).toThrow(InvalidOptionError);
    const thrown = (() => {
      try {
        probe(() => {
          throw new Error('boom');
        }).chunk('hello world');
      } catch (error) {
        return error as Error;
      }
    })();
    expect(thrown).toBeInstanceOf(CallbackError);
    expect(thrown?.message).toMatch(/spans/);
    expect((thrown?.cause as Error).message).toBe('boom');
  });
});
