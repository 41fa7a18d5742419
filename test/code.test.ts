/**
 * The code strategy (issue 13): every grammar loads in the pinned web-tree-sitter; worked
 * examples of symbol paths and line ranges; functions that fit the budget are never cut
 * (on this repository's src/, commander and the fixtures, in every unit); the invariants
 * (exact slices, nothing lost, budgets for text and embedText); syntax errors; linear work
 * on generated large and deeply nested files; typed errors; the lazy registry entry; and
 * that the root entry's module graph holds no web-tree-sitter.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Language, Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODE_LANGUAGES, CodeChunker, languageForPath } from '../src/code.js';
import { createChunker, GrammarLoadError, InvalidOptionError, type Chunk } from '../src/index.js';
import { expectInvariants, measure, type Unit } from './helpers/invariants.js';
import { definitionOf, MemoNode, type SyntaxNode } from '../src/strategies/code/syntax.js';
import { repoRoot } from './helpers/paths.js';

const SLOW = 240_000;
const fixturesDir = join(repoRoot, 'test', 'fixtures', 'code');
const grammarsDir = join(repoRoot, 'node_modules', 'tree-sitter-wasms', 'out');
const fixture = (name: string) => readFileSync(join(fixturesDir, name), 'utf8');
const FIXTURES = readdirSync(fixturesDir).sort();

/** Real code: this repository's src/ (a sample), commander's lib/ and the fixtures. */
function realFiles(): Array<{ name: string; text: string }> {
  const src = join(repoRoot, 'src');
  const ours = ['strategies/recursive/recursive.ts', 'strategies/markdown/markdown.ts', 'engine/pack/pack.ts', 'engine/boundaries/sentences.ts', 'apps/cli/main.ts', 'engine/options/schema.ts'].map((f) => join(src, f));
  const commander = ['command.js', 'help.js', 'option.js'].map((f) => join(repoRoot, 'node_modules', 'commander', 'lib', f));
  return [...ours, ...commander, ...FIXTURES.map((f) => join(fixturesDir, f))].map((f) => ({ name: f.slice(repoRoot.length + 1), text: readFileSync(f, 'utf8') }));
}

const lineOf = (text: string, i: number) => text.slice(0, i).split(/\r\n|\r|\n/).length;

describe('grammars', () => {
  it('every language has its grammar from tree-sitter-wasms, of an ABI web-tree-sitter 0.25 reads (13–15), and parses its fixture without errors', async () => {
    await Parser.init();
    expect(CODE_LANGUAGES.map((l) => l.name)).toEqual(['typescript', 'tsx', 'javascript', 'python', 'rust', 'go', 'java', 'c', 'cpp', 'csharp', 'ruby', 'php']);
    const abis: Record<string, number> = {};
    for (const spec of CODE_LANGUAGES) {
      const language = await Language.load(readFileSync(join(grammarsDir, `tree-sitter-${spec.grammar}.wasm`)));
      abis[spec.name] = (language as unknown as { abiVersion: number }).abiVersion;
      const file = FIXTURES.find((f) => languageForPath(f)?.name === spec.name)!;
      const chunker = await CodeChunker.create({ filename: file, chunkSize: 64 });
      expect(chunker.language).toBe(spec.name);
      expect(chunker.hasSyntaxErrors(fixture(file)), file).toBe(false);
      expect(chunker.chunk(fixture(file)).length).toBeGreaterThan(1);
    }
    // tree-sitter-wasms 0.1.13 was built with tree-sitter-cli 0.20: ABI 14 (C# 13)
    expect(abis).toEqual({ typescript: 14, tsx: 14, javascript: 14, python: 14, rust: 14, go: 14, java: 14, c: 14, cpp: 14, csharp: 13, ruby: 14, php: 14 });
  });

  it('extensions choose the language', () => {
    const pick = (f: string) => languageForPath(f)?.name;
    expect(['a.ts', 'a.mts', 'b.tsx', 'c.js', 'c.MJS', 'c.cjs', 'c.jsx', 'd.py', 'e.rs', 'f.go', 'G.java', 'h.c', 'h.h', 'i.cc', 'i.cpp', 'i.hpp', 'j.cs', 'k.rb', 'l.php'].map(pick)).toEqual([
      'typescript', 'typescript', 'tsx', 'javascript', 'javascript', 'javascript', 'javascript', 'python', 'rust', 'go', 'java', 'c', 'c', 'cpp', 'cpp', 'cpp', 'csharp', 'ruby', 'php',
    ]);
    expect(pick('README.md')).toBeUndefined();
    expect(pick('Makefile')).toBeUndefined();
  });
});

describe('memo nodes', () => {
  /** A node of the SyntaxNode shape whose every read is counted in `reads` (what a web-tree-sitter getter costs: a call into WebAssembly). */
  function fakeNode(reads: Record<string, number>, type: string, start: number, end: number, named: boolean, kids: SyntaxNode[] = [], fields: Record<string, SyntaxNode> = {}): SyntaxNode {
    const read = <T>(key: string, v: T): T => {
      reads[key] = (reads[key] ?? 0) + 1;
      return v;
    };
    return {
      startIndex: start,
      get type() { return read('type', type); },
      get endIndex() { return read('endIndex', end); },
      get isNamed() { return read('isNamed', named); },
      get isError() { return read('isError', false); },
      get isMissing() { return read('isMissing', false); },
      get hasError() { return read('hasError', false); },
      get childCount() { return read('childCount', kids.length); },
      get children() { return read('children', kids); },
      child: (k: number) => read('child', kids[k] ?? null),
      get namedChildCount() { return read('namedChildCount', kids.filter((c) => c.isNamed).length); },
      namedChild: (k: number) => read('namedChild', kids.filter((c) => c.isNamed)[k] ?? null),
      childForFieldName: (name: string) => read('field', fields[name] ?? null),
    };
  }

  it('read each field of the node they wrap once, give the values it gives, and wrap its children and field children', () => {
    const text = 'function add(a, b) { return a + b; }';
    const reads: Record<string, number> = {};
    const name = fakeNode(reads, 'identifier', 9, 12, true);
    const body = fakeNode(reads, 'statement_block', 19, 36, true);
    const keyword = fakeNode(reads, 'function', 0, 8, false);
    const fn = fakeNode(reads, 'function_declaration', 0, 36, true, [keyword, name, fakeNode(reads, 'formal_parameters', 12, 18, true), body], { name, body });
    const root = new MemoNode(fakeNode(reads, 'program', 0, 36, true, [fn]));
    for (let pass = 0; pass < 3; pass++) {
      const kids = root.children;
      expect(kids.length).toBe(1);
      const f = kids[0]!;
      expect([f.type, f.startIndex, f.endIndex, f.isNamed, f.childCount]).toEqual(['function_declaration', 0, 36, true, 4]);
      expect(f.children.map((c) => [c!.type, c!.startIndex, c!.endIndex, c!.isNamed])).toEqual([
        ['function', 0, 8, false],
        ['identifier', 9, 12, true],
        ['formal_parameters', 12, 18, true],
        ['statement_block', 19, 36, true],
      ]);
      expect(f.childForFieldName('name')?.endIndex).toBe(12);
      expect(f.childForFieldName('declarator')).toBeNull();
      expect(definitionOf(f, text)).toMatchObject({ kind: 'function', name: 'add', label: 'function add', signature: 'function add(a, b)', start: 0, end: 36 });
    }
    // three passes, and definitionOf reading fields besides: each node's fields crossed once
    expect(reads.children).toBe(2); // the root's and the function's
    expect(reads.type).toBe(5); // the function and its four children (the root's is never asked)
    expect(reads.field).toBe(3); // name, body, declarator: one each, a miss remembered too
    expect(reads.endIndex).toBeLessThanOrEqual(6);
    expect(reads.isNamed).toBeLessThanOrEqual(6);
  });
});

describe('worked examples', () => {
  let help: string;
  let chunks: Chunk[];
  beforeAll(async () => {
    help = fixture('help.ts');
    chunks = (await CodeChunker.create({ filename: 'help.ts', chunkSize: 80 })).chunk(help);
  });

  it('symbol paths name the enclosing definitions; a chunk that is one definition ends with it', () => {
    const format = chunks.find((c) => c.text.includes('formatHelp(cmd: Command'))!;
    expect(format.metadata.symbolPath).toEqual(['class Help', 'method formatHelp']);
    // the doc comment stays with its method, and the method is whole
    expect(format.text.startsWith('/**\n   * The help text of `cmd`.')).toBe(true);
    expect(format.text.endsWith("return lines.join('\\n');\n  }")).toBe(true);
    const visible = chunks.find((c) => c.text.includes('visibleOptions(cmd: Command)'))!;
    expect(visible.text.startsWith('@memoize()')).toBe(true); // the decorator stays with what follows it
    expect(visible.metadata.symbolPath).toEqual(['class Help']);
    expect(visible.metadata.symbols).toEqual(['method visibleOptions']);
    const tail = chunks[chunks.length - 1];
    expect(tail.metadata.symbols).toEqual(['function wrap', 'interface HelpConfiguration']);
    expect(tail.metadata.symbolPath).toEqual([]);
  });

  it('1-based line ranges of the first and last character, and the language', () => {
    for (const c of chunks) {
      expect(c.metadata.startLine).toBe(lineOf(help, c.start));
      expect(c.metadata.endLine).toBe(lineOf(help, c.end - 1));
      expect(c.metadata.language).toBe('typescript');
      expect(c.metadata.strategy).toBe('code');
    }
    expect(chunks[0]).toMatchObject({ text: "import { Command } from './command.js';\nimport type { Option } from './option.js';", metadata: { startLine: 1, endLine: 2, symbolPath: [] } });
  });

  it('Python: decorators and the class head start the class; methods are methods', async () => {
    const py = fixture('stats.py');
    const out = (await CodeChunker.create({ language: 'python', chunkSize: 30 })).chunk(py);
    const cls = out.find((c) => c.text.startsWith('@dataclass'))!;
    expect(cls.text.startsWith('@dataclass\nclass Summary:')).toBe(true);
    expect(cls.metadata.symbolPath).toEqual(['class Summary']);
    expect(out.find((c) => c.text.startsWith('def interval'))!.metadata.symbolPath).toEqual(['class Summary', 'method interval']);
    // an opened function's signature starts the chunk of its first statements
    expect(out.find((c) => c.text.startsWith('def summarize'))!.text).toMatch(/^def summarize\(values: list\[float\]\) -> Summary:\n {4}if not values:/);
  });

  it('Rust impl blocks, C++ qualified names, Go methods, Ruby modules in symbol paths', async () => {
    const defs = async (file: string) => (await CodeChunker.create({ filename: file })).definitions(fixture(file)).map((d) => d.label);
    expect(await defs('shapes.rs')).toEqual(['struct Point', 'impl Point', 'method distance', 'impl fmt::Display for Point', 'method fmt', 'trait Shape', 'function total_area']);
    expect(await defs('matrix.cpp')).toContain('function Matrix::multiply');
    expect(await defs('cache.go')).toEqual(['type Cache', 'type entry', 'function New', 'method Get', 'method Set']);
    expect(await defs('greeter.rb')).toEqual(['module Greeting', 'class Greeter', 'method initialize', 'method greet', 'method languages']);
    expect(await defs('Orders.cs')).toEqual(['namespace Shop', 'class Order', 'method Add', 'method AddLine', 'record Customer']);
  });

  it('definitions are plain data: their signatures read after the syntax tree is gone (and another file parsed)', async () => {
    const chunker = await CodeChunker.create({ language: 'typescript' });
    const defs = chunker.definitions('export class Box<T> {\n  get(key: string,\n      fallback: T): T {\n    return fallback;\n  }\n}\n');
    chunker.chunk('function other(): void {}\n'.repeat(50));
    expect(JSON.parse(JSON.stringify(defs))).toEqual([
      { kind: 'class', name: 'Box', label: 'class Box', signature: 'class Box<T>', start: 7, end: 91 },
      { kind: 'method', name: 'get', label: 'method get', signature: 'get(key: string, fallback: T): T', start: 24, end: 89 },
    ]);
    expect(defs.every((d) => Object.getOwnPropertyDescriptor(d, 'signature')?.value !== undefined)).toBe(true);
  });
});

/** Chunkers by unit and budget (char budgets ×4). */
const CONFIGS: Array<{ unit: Unit; chunkSize: number }> = [
  { unit: 'token', chunkSize: 64 },
  { unit: 'token', chunkSize: 256 },
  { unit: 'char', chunkSize: 400 },
  { unit: 'char', chunkSize: 1000 },
  { unit: 'word', chunkSize: 40 },
];

describe('functions that fit are never cut; invariants on real code', () => {
  it('every definition whose own size is within the budget lies wholly inside one chunk (src/, commander, fixtures; char, word, token)', async () => {
    let kept = 0;
    for (const { name, text } of realFiles()) {
      for (const cfg of CONFIGS) {
        const chunker = await CodeChunker.create({ filename: name, ...cfg });
        const chunks = chunker.chunk(text);
        expectInvariants(text, chunks, { unit: cfg.unit, budget: cfg.chunkSize });
        for (const d of chunker.definitions(text)) {
          if (measure(cfg.unit, text.slice(d.start, d.end)) > cfg.chunkSize) continue;
          const whole = chunks.some((c) => c.start <= d.start && c.end >= d.end);
          expect(whole, `${name} ${JSON.stringify(cfg)}: ${d.label} [${d.start}, ${d.end}) is cut`).toBe(true);
          kept++;
        }
      }
    }
    expect(kept).toBeGreaterThan(1000);
  }, SLOW);

  it('with contextHeaders: embedText = header + text, the text unchanged, the budget held by embedText in every unit', async () => {
    for (const { name, text } of realFiles().slice(0, 8)) {
      for (const cfg of CONFIGS) {
        const chunks = (await CodeChunker.create({ filename: name, contextHeaders: true, ...cfg })).chunk(text);
        expectInvariants(text, chunks, { unit: cfg.unit, budget: cfg.chunkSize });
        for (const c of chunks) {
          expect(c.embedText!.endsWith('\n' + c.text)).toBe(true);
          expect(c.embedText!.startsWith('// ')).toBe(true);
        }
      }
    }
  }, SLOW);

  it('the header holds the file, the imports and the enclosing signatures', async () => {
    const help = fixture('help.ts');
    const chunks = (await CodeChunker.create({ filename: 'src/help.ts', chunkSize: 100, contextHeaders: true })).chunk(help);
    const method = chunks.find((c) => c.text.includes('formatHelp(cmd'))!;
    expect(method.embedText!.split('\n').slice(0, 3)).toEqual([
      '// File: src/help.ts',
      "// Imports: import { Command } from './command.js'; import type { Option } from './option.js';",
      '// In: class Help',
    ]);
    const py = (await CodeChunker.create({ filename: 'stats.py', chunkSize: 40, contextHeaders: true })).chunk(fixture('stats.py'));
    const body = py.find((c) => c.text.startsWith('var ='))!;
    expect(body.embedText!.split('\n')[0]).toBe('# File: stats.py');
    expect(body.embedText).toContain('# In: def summarize(values: list[float]) -> Summary');
  });
});

describe('syntax errors, huge tokens, linear time', () => {
  it('a file with syntax errors chunks exactly (tree-sitter recovers) and the chunks holding errors are flagged', async () => {
    const broken = fixture('help.ts').replace('for (const option of', 'for (const option of ))) {{ @@@').replace('interface HelpConfiguration {', 'interface HelpConfiguration {{ ]] «»');
    const chunker = await CodeChunker.create({ language: 'typescript', chunkSize: 60 });
    expect(chunker.hasSyntaxErrors(broken)).toBe(true);
    const chunks = chunker.chunk(broken);
    expectInvariants(broken, chunks, { unit: 'token', budget: 60 });
    const flagged = chunks.filter((c) => c.metadata.syntaxErrors);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged.some((c) => c.text.includes('@@@'))).toBe(true);
    expect(chunker.chunk(fixture('help.ts')).some((c) => c.metadata.syntaxErrors)).toBe(false);
    // prose given as code: chunks all the same
    const prose = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expectInvariants(prose, chunker.chunk(prose), { unit: 'token', budget: 60 });
  });

  it('a string literal larger than the budget is split at spaces and line breaks, nothing else is', async () => {
    const words = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');
    const text = `function f() {\n  return 1;\n}\nconst s = "${words}";\nfunction g() {\n  return 2;\n}\n`;
    const chunks = (await CodeChunker.create({ language: 'javascript', chunkSize: 64 })).chunk(text);
    expectInvariants(text, chunks, { unit: 'token', budget: 64 });
    expect(chunks[0].text.startsWith('function f() {\n  return 1;\n}')).toBe(true);
    expect(chunks[chunks.length - 1].text.endsWith('function g() {\n  return 2;\n}')).toBe(true);
    const inside = chunks.slice(0, -1);
    expect(inside.length).toBeGreaterThan(15);
    for (const c of inside) {
      // a cut lies at whitespace inside the string, or between the string and its quotes
      const at = `${text[c.end - 1]}${text[c.end] ?? ''}`;
      expect(/\s/.test(at) || at.includes('"'), JSON.stringify(text.slice(c.end - 5, c.end + 5))).toBe(true);
    }
  });

  /** Work of one chunk() call. */
  async function work(text: string, language: string, unit: Unit, chunkSize: number): Promise<number> {
    const chunker = await CodeChunker.create({ language, unit, chunkSize });
    const counted = { operations: 0 };
    const chunks = chunker.chunk(text, { work: counted });
    expectInvariants(text, chunks, { unit, budget: chunkSize, skip: { tokenCount: 'counted elsewhere; js-tiktoken is slow on large inputs' } });
    return counted.operations;
  }

  it('linear work: doubling a generated file doubles the work (many functions; one huge function; deep nesting)', async () => {
    const fn = (i: number) => `/** Doc ${i}. */\nexport function f${i}(a: number, b: string): string {\n  const x = a * ${i};\n  if (x > 10) {\n    return b.repeat(2);\n  }\n  return b + x;\n}\n`;
    const many = (n: number) => Array.from({ length: n }, (_, i) => fn(i)).join('\n');
    const huge = (n: number) => `function big() {\n${Array.from({ length: n }, (_, i) => `  const v${i} = compute(${i}, "x${i}");`).join('\n')}\n}\n`;
    const nested = (n: number) => `const deep = ${'['.repeat(n)}1${']'.repeat(n)};\n`;
    const ifs = (n: number) => `function f() {\n${'if (a) {\n'.repeat(n)}x();\n${'}\n'.repeat(n)}}\n`;
    const ratios: Record<string, number> = {};
    for (const [name, gen, n] of [
      ['many', many, 400],
      ['huge', huge, 3000],
      ['nested', nested, 2000],
      ['ifs', ifs, 1500],
    ] as const) {
      for (const [unit, size] of [
        ['char', 400],
        ['token', 64],
      ] as const) {
        const a = await work(gen(n), 'typescript', unit, size);
        const b = await work(gen(2 * n), 'typescript', unit, size);
        ratios[`${name}/${unit}`] = Math.round((b / a) * 100) / 100;
      }
    }
    for (const [k, r] of Object.entries(ratios)) expect(r, `${k}: ${JSON.stringify(ratios)}`).toBeLessThan(2.25);
    for (const [k, r] of Object.entries(ratios)) expect(r, `${k}: ${JSON.stringify(ratios)}`).toBeGreaterThan(1.75);
  }, SLOW);
});

describe('loading and options', () => {
  it('typed errors: unknown language, no language, an extension of no language, bad grammar bytes, a missing grammar file', async () => {
    await expect(CodeChunker.create({ language: 'cobol' })).rejects.toThrow(InvalidOptionError);
    await expect(CodeChunker.create({})).rejects.toThrow(/Invalid option language: undefined \(give language/);
    await expect(CodeChunker.create({ filename: 'notes.md' })).rejects.toThrow(/Invalid option filename: "notes.md"/);
    await expect(CodeChunker.create({ language: 'go', grammar: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) })).rejects.toThrow(GrammarLoadError);
    await expect(CodeChunker.create({ language: 'go', grammar: '/nonexistent/tree-sitter-go.wasm' })).rejects.toThrow(/Could not load the go grammar from "\/nonexistent\/tree-sitter-go.wasm"/);
    await expect(CodeChunker.create({ language: 'go', grammar: 42 as never })).rejects.toThrow(/Invalid option grammar: 42/);
    await expect(CodeChunker.create({ language: 'go', chunkSise: 10 } as never)).rejects.toThrow(/did you mean chunkSize/);
    const chunker = await CodeChunker.create({ language: 'go' });
    expect(() => chunker.chunk(42 as never)).toThrow(/text must be a string/);
    expect(chunker.chunk('  \n\t ')).toEqual([]);
  });

  it('grammars from bytes, a folder (grammarBase) or a compiled WebAssembly.Module give the same chunks', async () => {
    const text = fixture('cache.go');
    const reference = (await CodeChunker.create({ language: 'go', chunkSize: 50 })).chunk(text);
    const bytes = readFileSync(join(grammarsDir, 'tree-sitter-go.wasm'));
    expect((await CodeChunker.create({ language: 'go', chunkSize: 50, grammar: new Uint8Array(bytes) })).chunk(text)).toEqual(reference);
    expect((await CodeChunker.create({ language: 'go', chunkSize: 50, grammarBase: grammarsDir })).chunk(text)).toEqual(reference);
    const module = await WebAssembly.compile(bytes);
    expect((await CodeChunker.create({ language: 'go', chunkSize: 50, grammar: module })).chunk(text)).toEqual(reference);
  });

  it('the registry entry is lazy: options checked at once, chunk() a Promise of the same chunks', async () => {
    expect(() => createChunker('code', { chunkSize: 0, language: 'python' })).toThrow(InvalidOptionError);
    expect(() => createChunker('code', {})).toThrow(/give language/);
    const text = fixture('stats.py');
    const lazy = createChunker('code', { language: 'python', chunkSize: 40, unit: 'word' });
    const pending = lazy.chunk(text);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual((await CodeChunker.create({ language: 'python', chunkSize: 40, unit: 'word' })).chunk(text));
  });

  it("the root entry's module graph has no web-tree-sitter (esbuild bundle of src/index.ts)", async () => {
    const result = await build({
      entryPoints: [join(repoRoot, 'src', 'index.ts')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      external: ['onnxruntime-web', 'node:*'],
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((f) => f.includes('src/strategies/code/schema.ts'))).toBe(true);
    expect(inputs.filter((f) => /web-tree-sitter|tree-sitter-wasms|strategies\/code\.ts/.test(f))).toEqual([]);
  });
});
