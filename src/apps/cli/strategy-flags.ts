/**
 * The strategy options of the CLI, generated from the registry's option schemas: one
 * flag per option any registered strategy takes (its type gives the parser, its doc and
 * default the help line, the strategies that take it are named), mapped back to the
 * chosen strategy's options after parsing. A flag the chosen strategy does not take is a
 * usage error (exit 2). Adding an option to a schema adds its flag, `--help` line and
 * docs row; nothing here names a strategy.
 * @module
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { cliFlag, defaultText, placeholder, type OptionSpec } from '../../engine/options/schema.js';
import { strategies, strategyDefinition, type StrategyOptions } from '../../strategies/index.js';
import { UsageError } from './usage-error.js';

/** Parses a CLI integer; rejects anything but an optionally signed run of digits. */
export function parseIntegerArg(value: string): number {
  if (!/^[+-]?\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected an integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Parses a CLI count that must be at least 1 (`--top-k`, `--candidates`, `--batch-size` …), so the message names the flag the user typed. */
export function parsePositiveIntegerArg(value: string): number {
  const n = parseIntegerArg(value);
  if (n < 1) throw new InvalidArgumentError(`expected an integer ≥ 1, got ${JSON.stringify(value)}`);
  return n;
}

/** Parses a CLI number (finite decimal). */
export function parseNumberArg(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`expected a number, got ${JSON.stringify(value)}`);
  return n;
}

/** One generated flag: the option it sets and the strategies that take it. */
export interface StrategyFlag {
  /** The option name (commander's attribute name is the same, camelCase). */
  name: string;
  flag: string;
  spec: OptionSpec;
  strategies: string[];
  /** Each strategy's spec of the option (defaults may differ: semantic 512, cluster-semantic 400). */
  specs: OptionSpec[];
}

/** Short forms kept from before the flags were generated. */
const SHORT: Readonly<Record<string, string>> = { unit: '-u', encoding: '-e' };

/**
 * Every CLI flag of every registered strategy's schema, in registration order (first
 * definition of an option wins its doc; the strategies that take it are listed).
 * @throws {Error} when two strategies give one option different types (a bug in a schema).
 */
export function strategyFlags(): StrategyFlag[] {
  const byName = new Map<string, StrategyFlag>();
  for (const definition of strategies()) {
    for (const [name, spec] of Object.entries(definition.schema.options)) {
      const flag = cliFlag(name, spec);
      if (!flag) continue;
      const seen = byName.get(name);
      if (seen) {
        if (seen.spec.type !== spec.type) throw new Error(`option ${name}: ${seen.strategies[0]} says ${seen.spec.type}, ${definition.name} says ${spec.type}`);
        seen.strategies.push(definition.name);
        seen.specs.push(spec);
      } else byName.set(name, { name, flag, spec, strategies: [definition.name], specs: [spec] });
    }
    for (const alias of Object.keys(definition.aliases ?? {})) byName.get(alias)?.strategies.push(definition.name);
  }
  return [...byName.values()];
}

/** The value parser of an option's flag. */
function parserOf(name: string, spec: OptionSpec): ((value: string) => unknown) | undefined {
  switch (spec.type) {
    case 'integer':
      return spec.infinity ? (value) => (/^(infinity|inf)$/i.test(value.trim()) ? Infinity : parseIntegerArg(value)) : parseIntegerArg;
    case 'number':
      return parseNumberArg;
    case 'json':
      return (value) => {
        try {
          return JSON.parse(value);
        } catch {
          throw new InvalidArgumentError(`expected JSON, got ${JSON.stringify(value)}`);
        }
      };
    case 'enum':
      return (value) => {
        const v = value === 'true' ? true : value === 'false' ? false : value;
        if (!spec.values!.includes(v)) throw new InvalidArgumentError(`expected one of ${spec.values!.map(String).join(', ')}, got ${JSON.stringify(value)}`);
        return v;
      };
    default:
      void name;
      return undefined;
  }
}

/**
 * The flag of one option of a schema that is not a strategy's (`--wait-timeout` of
 * `embed --wait`): its placeholder, its doc and default as the help line, its type's parser.
 * No commander default: the schema fills it in when the options are resolved.
 * @throws {Error} for an API-only option (a bug in the caller).
 */
export function schemaOption(name: string, spec: OptionSpec): Option {
  const flag = cliFlag(name, spec);
  if (!flag) throw new Error(`option ${name} has no CLI flag`);
  const ph = placeholder(spec);
  const def = defaultText(spec).replace(/`/g, '');
  const option = new Option(`${flag}${ph ? ' ' + ph : ''}`, `${spec.doc.replace(/`/g, '')}${def !== '—' ? ` [default: ${def}]` : ''}`);
  const parse = parserOf(name, spec);
  if (parse) option.argParser(parse);
  return option;
}

/**
 * Adds every strategy option's flag to `command`, with help from the schemas:
 * `doc (strategies) [default]`. No commander defaults: an option not given is left to the
 * strategy's own default.
 */
export function addStrategyFlags(command: Command): Command {
  for (const f of strategyFlags()) {
    const ph = placeholder(f.spec);
    const flags = `${SHORT[f.name] ? SHORT[f.name] + ', ' : ''}${f.flag}${ph ? ' ' + ph : ''}`;
    // name the strategies of an option only a few take (unit, encoding … are everyone's)
    const who = f.strategies.length <= 3 ? ` (${f.strategies.join(', ')})` : '';
    const defaults = f.specs.map((spec) => defaultText(spec).replace(/`/g, ''));
    const def =
      f.spec.cli && f.spec.cli.negate
        ? ''
        : defaults.every((d) => d === defaults[0])
          ? defaults[0]
          : defaults.map((d, k) => `${d} (${f.strategies[k]})`).join(', ');
    const doc = (f.spec.cli && f.spec.cli.negateDoc) || f.spec.doc;
    const option = new Option(flags, `${doc.replace(/`/g, '')}${who}${def && def !== '—' ? ` [default: ${def}]` : ''}`);
    const parse = parserOf(f.name, f.spec);
    if (parse) option.argParser(parse);
    if (f.spec.type === 'enum' && !f.spec.values!.some((v) => typeof v === 'boolean')) option.choices(f.spec.values!.map(String));
    command.addOption(option);
  }
  return command;
}

/**
 * The chosen strategy's options from parsed CLI values: every generated flag that was
 * given, mapped to its option (negated booleans: `--no-token-count` gives
 * `countTokens: false`).
 * @throws {UsageError} for a flag the strategy does not take, naming the flags it does.
 */
export function strategyOptionsFromFlags(strategy: string, values: Record<string, unknown>): StrategyOptions {
  const definition = strategyDefinition(strategy);
  const out: StrategyOptions = {};
  // `auto` (a strategy per file) is not a strategy: its options come from autoStrategyOptions
  if (!definition) return out;
  const own = new Set([...Object.keys(definition.schema.options), ...Object.keys(definition.aliases ?? {})]);
  // a pass-through strategy (late) also takes its span strategy's options
  if (definition?.passThrough) {
    const spans = strategyDefinition(String(values.spans ?? 'fixed'));
    for (const k of Object.keys(spans?.schema.options ?? {})) own.add(k);
  }
  for (const { flag, value } of givenFlags(values)) {
    if (!own.has(flag.name)) {
      const flags = strategyFlags()
        .filter((g) => own.has(g.name))
        .map((g) => g.flag);
      throw new UsageError(`${flag.flag} is not an option of the ${strategy} strategy (its options: ${flags.join(' ')})`);
    }
    out[flag.name] = value;
  }
  return out;
}

/** The generated flags given in parsed CLI values, with their option values (negated booleans: `false`). */
function givenFlags(values: Record<string, unknown>): { flag: StrategyFlag; value: unknown }[] {
  const out: { flag: StrategyFlag; value: unknown }[] = [];
  for (const f of strategyFlags()) {
    const negate = f.spec.cli && f.spec.cli.negate;
    // commander keeps a `--no-x` flag under `x` (true unless given)
    const key = negate ? f.flag.replace(/^--no-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) : f.name;
    const value = values[key];
    if (negate ? value === false : value !== undefined) out.push({ flag: f, value: negate ? false : value });
  }
  return out;
}

/**
 * `--strategy auto`: the options of each strategy a file may get (every registered
 * strategy with `extensions`, and `fallback` for other files), each with the given flags
 * its schema takes (`--chunk-size` goes to all of them, `--contextual-headers` to
 * markdown only, `--drop` to html, `--context-headers` to code).
 * @throws {UsageError} for a flag none of them takes.
 */
export function autoStrategyOptions(values: Record<string, unknown>, fallback = 'fixed'): Record<string, StrategyOptions> {
  const names = [...new Set([...strategies().filter((d) => d.extensions?.length).map((d) => d.name), fallback])];
  const given = givenFlags(values);
  const out: Record<string, StrategyOptions> = {};
  for (const name of names) {
    const definition = strategyDefinition(name);
    const own = { ...definition?.schema.options, ...definition?.aliases };
    out[name] = Object.fromEntries(given.filter((g) => g.flag.name in own).map((g) => [g.flag.name, g.value])) as StrategyOptions;
  }
  for (const { flag } of given) {
    if (!names.some((n) => flag.name in out[n])) throw new UsageError(`${flag.flag} is not an option of any strategy --strategy auto picks (${names.join(', ')})`);
  }
  return out;
}
