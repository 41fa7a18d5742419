/**
 * The code strategy cuts only between statements (issue 38: on a real module it cut twice
 * between an `if` and its condition and left a method's signature alone in a chunk): a
 * compound statement's head (`if cond:`, `def f(x):`, `try:`) stays with its body's first
 * statements where they fit, a docstring over the budget starts with its class's head, and
 * a statement cut inside (only where it alone is over the budget) shares no chunk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodeChunker } from '../src/strategies/code/code.js';
import { expectInvariants } from './helpers/invariants.js';
import { repoRoot } from './helpers/paths.js';

const source = readFileSync(join(repoRoot, 'test/fixtures/statements/options.py'), 'utf8');

/** A head line of a Python compound statement or definition. */
const HEAD = /^\s*(?:async\s+)?(?:def|class|if|elif|else|for|while|try|except|finally|with)\b.*:\s*$/;

describe('code: cuts only between statements (Python, tokens)', () => {
  for (const chunkSize of [64, 128, 256]) {
    it(`at ${chunkSize} tokens every chunk is whole lines and no chunk ends with a head`, async () => {
      const chunks = (await CodeChunker.create({ language: 'python', chunkSize })).chunk(source);
      expectInvariants(source, chunks, { unit: 'token', budget: chunkSize });
      const problems: string[] = [];
      for (const c of chunks) {
        const lineStart = source.lastIndexOf('\n', c.start - 1) + 1;
        const lineEnd = source.indexOf('\n', c.end);
        if (source.slice(lineStart, c.start).trim() !== '') problems.push(`starts inside line ${c.metadata.startLine}: ${JSON.stringify(c.text.slice(0, 40))}`);
        if (source.slice(c.end, lineEnd < 0 ? source.length : lineEnd).trim() !== '') problems.push(`ends inside line ${c.metadata.endLine}: ${JSON.stringify(c.text.slice(-40))}`);
        const last = c.text.split('\n').pop()!;
        if (HEAD.test(last)) problems.push(`ends with a head: ${JSON.stringify(last)}`);
      }
      expect(problems).toEqual([]);
    });
  }

  it('the class head starts the first piece of a docstring over the budget; a method head leads its first statements', async () => {
    const chunks = (await CodeChunker.create({ language: 'python', chunkSize: 128 })).chunk(source);
    const cls = chunks.find((c) => c.text.includes('class Formatter'))!;
    expect(cls.text).toMatch(/class Formatter\(object\):\n {4}"""Formats help messages/);
    const method = chunks.find((c) => c.text.includes('def format_usage'))!;
    expect(method.text).toMatch(/^ {0}def format_usage\(self, usage, actions, groups, prefix\):\n {8}if prefix is None:\n/);
    // the `if` over the budget: its head and condition together, with its first statements
    const wrap = chunks.find((c) => c.text.includes('if len(prefix) + len(usage) > text_width:'))!;
    expect(wrap.text).toMatch(/if len\(prefix\) \+ len\(usage\) > text_width:\n\s+# step 0/);
  });
});
