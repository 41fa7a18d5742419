// Code for the settings chosen on the page: a TypeScript module and a `chunkwise chunk`
// command that print the same JSONL records as the page's export (chunkRecord per chunk,
// source = the document's name). Pure functions; test/web.test.ts runs both.
import { kebabFlag } from './options.js';

/** A JavaScript literal for a JSON value (keys unquoted where they are identifiers). */
function literal(value) {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `{ ${Object.entries(value).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v)}`).join(', ')} }`;
  }
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'` : JSON.stringify(value);
}

/** POSIX shell quoting: bare when safe, else single quotes. */
export function shellQuote(word) {
  const s = String(word);
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The TypeScript module for `strategy` with `options` (plain JSON values, no embedder)
 * over the file `source`. `embedder` is undefined, `{ kind: 'hashing' }` or
 * `{ kind: 'static', path }`.
 */
export function typescriptSnippet({ strategy, options, source, embedder }) {
  const imports = ['chunkRecord', 'createChunker'];
  let embedderExpr;
  if (embedder?.kind === 'hashing') {
    imports.push('HashingEmbedder');
    embedderExpr = 'new HashingEmbedder()';
  } else if (embedder?.kind === 'static') {
    imports.push('StaticEmbedder');
    embedderExpr = `await StaticEmbedder.load(${literal(embedder.path)})`;
  }
  const entries = Object.entries(options).map(([k, v]) => `${k}: ${literal(v)}`);
  if (embedderExpr) entries.push(`embedder: ${embedderExpr}`);
  const oneLine = `{ ${entries.join(', ')} }`;
  const object = entries.length === 0 ? '{}' : oneLine.length <= 80 ? oneLine : `{\n${entries.map((e) => `  ${e},`).join('\n')}\n}`;
  const out = strategy.replace(/[^\w-]/g, '') + '.jsonl';
  return [
    `// chunkwise: strategy ${strategy} as set on the page. Save as chunk.mts; run: npx tsx chunk.mts > ${out}`,
    `import { readFileSync } from 'node:fs';`,
    `import { ${imports.sort((a, b) => a.localeCompare(b)).join(', ')} } from 'chunkwise';`,
    ``,
    `const source = ${literal(source)};`,
    `const text = readFileSync(source, 'utf8');`,
    `const chunker = createChunker(${literal(strategy)}, ${object});`,
    `for (const chunk of await chunker.chunk(text)) console.log(JSON.stringify(chunkRecord(chunk, source)));`,
    ``,
  ].join('\n');
}

/**
 * The `chunkwise chunk` command for the same settings, one option a line, and the options it cannot express
 * (fields with `cli: false`). `fields` are the strategy's option fields (options.js).
 */
export function cliSnippet({ strategy, fields, options, source, embedder }) {
  const args = [`npx chunkwise chunk ${shellQuote(source)}`, `--strategy ${shellQuote(strategy)}`];
  const missing = [];
  for (const [name, value] of Object.entries(options)) {
    const field = fields.find((f) => f.name === name) ?? { name };
    const cli = field.cli ?? (field.type === 'boolean' ? { on: kebabFlag(name) } : kebabFlag(name));
    if (cli === false) missing.push(name);
    else if (typeof cli === 'object') {
      if (value === true && cli.on) args.push(cli.on);
      else if (value === false && cli.off) args.push(cli.off);
      else if ((value === true && !cli.on) || (value === false && !cli.off && field.default !== false)) missing.push(name);
    } else args.push(`${cli} ${shellQuote(typeof value === 'string' ? value : JSON.stringify(value))}`);
  }
  if (embedder?.kind === 'hashing') args.push('--embedder hashing');
  else if (embedder?.kind === 'static') args.push(`--embedder ${shellQuote(`static:${embedder.path}`)}`);
  args.push(`> ${shellQuote(strategy.replace(/[^\w-]/g, '') + '.jsonl')}`);
  // one option a line (a backslash continues the command), so it reads on a phone too
  const command = args.join(' \\\n  ');
  return { command: missing.length ? `# not on the command line: ${missing.join(', ')} (the TypeScript module sets them)\n${command}` : command, missing };
}
