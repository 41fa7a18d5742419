/**
 * Option schemas: one per strategy, each option with its type, range, default and a
 * one-line doc. A schema validates options at construction (unknown keys rejected with
 * the closest valid name suggested), and the CLI flags, `--help` text and the docs'
 * option tables are generated from it, so the API, the CLI and the docs cannot drift.
 * Core module: no Node built-ins.
 * @module
 */
import { describe, InvalidOptionError } from '../errors.js';

/** What an option holds. `object` and `function` options are API-only (no CLI flag). */
export type OptionType = 'integer' | 'number' | 'boolean' | 'string' | 'enum' | 'json' | 'object' | 'function';

/**
 * What a member of an object option must be: a method, an integer ≥ 1, a string, or (with
 * `?`) a method that may be absent.
 */
export type MemberKind = 'function' | 'function?' | 'boolean?' | 'count' | 'string';

/**
 * The interface an `object` option must implement (a `Sizer`, a `Tokenizer`, an
 * `Embedder`): its name for messages and the members chunkwise calls or reads, each with
 * its signature as the message shows it.
 */
export interface OptionShape {
  readonly name: string;
  readonly members: Readonly<Record<string, { readonly kind: MemberKind; readonly doc: string }>>;
}

/** An Embedder's members, which a TokenEmbedder has too. */
const EMBEDDER_MEMBERS = {
  dimension: { kind: 'count', doc: 'dimension: an integer ≥ 1' },
  embed: { kind: 'function', doc: 'embed(texts) → Promise<Float32Array>' },
} as const;

/** The optional members of a sizer or tokenizer that say where a stream may cut (`safeCut`, `cutAt`). */
const CUT_MEMBERS = {
  safeCut: { kind: 'function?', doc: 'safeCut(text, from) → offset' },
  cutAt: { kind: 'function?', doc: 'cutAt(text, p) → boolean' },
} as const;

/**
 * The interfaces of the object options, defined once: every strategy's schema that takes
 * one of these options names its shape, so a malformed object is an InvalidOptionError at
 * construction naming the option and the missing member (never 0 chunks or a TypeError
 * on the first text).
 */
export const OPTION_SHAPES = {
  sizer: {
    name: 'Sizer',
    members: {
      name: { kind: 'string', doc: 'name: string' },
      size: { kind: 'function', doc: 'size(text) → number' },
      segment: { kind: 'function', doc: 'segment(text) → { starts, ends, count }' },
      ...CUT_MEMBERS,
      gapSize: { kind: 'function?', doc: 'gapSize(gap) → number' },
      additive: { kind: 'boolean?', doc: 'additive: boolean' },
      blankUnits: { kind: 'boolean?', doc: 'blankUnits: boolean' },
      clusterAligned: { kind: 'boolean?', doc: 'clusterAligned: boolean' },
      joinSize: { kind: 'function?', doc: 'joinSize(text, p) → number' },
      singleCodeUnits: { kind: 'function?', doc: 'singleCodeUnits(text, from, to) → boolean' },
    },
  },
  tokenizer: {
    name: 'Tokenizer',
    members: {
      encoding: { kind: 'string', doc: 'encoding: string' },
      count: { kind: 'function', doc: 'count(text) → number' },
      encodeWithOffsets: { kind: 'function', doc: 'encodeWithOffsets(text) → { ids, starts, ends }' },
      encode: { kind: 'function?', doc: 'encode(text) → Uint32Array' },
      decode: { kind: 'function?', doc: 'decode(ids) → string' },
      ...CUT_MEMBERS,
    },
  },
  embedder: { name: 'Embedder', members: EMBEDDER_MEMBERS },
  tokenEmbedder: {
    name: 'TokenEmbedder (a token-level model, e.g. OnnxEmbedder; CLI --embedder onnx:<folder>)',
    members: {
      ...EMBEDDER_MEMBERS,
      embedTokens: { kind: 'function', doc: 'embedTokens(text) → Promise<{ vectors, offsets, special, truncated }>' },
    },
  },
} as const satisfies Readonly<Record<string, OptionShape>>;

/** Why `value` does not implement `shape` (the first missing or mistyped member), or undefined when it does. */
export function shapeProblem(shape: OptionShape, value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `must be a ${shape.name}`;
  const v = value as Record<string, unknown>;
  for (const [member, { kind, doc }] of Object.entries(shape.members)) {
    const m = v[member];
    const ok =
      kind === 'function' ? typeof m === 'function'
      : kind === 'function?' ? m === undefined || typeof m === 'function'
      : kind === 'boolean?' ? m === undefined || typeof m === 'boolean'
      : kind === 'count' ? typeof m === 'number' && Number.isInteger(m) && m >= 1
      : typeof m === 'string';
    if (!ok) return `must be a ${shape.name}: ${m === undefined ? 'it has no' : 'wrong type of'} ${member} (${doc})`;
  }
  return undefined;
}

/** One option of a schema. */
export interface OptionSpec {
  readonly type: OptionType;
  /** One line: what it means, with its unit. */
  readonly doc: string;
  /** The default, or a function of the options resolved before it (schema order). */
  readonly default?: unknown;
  /** How docs and `--help` show a computed default (e.g. `min(64, ⌊chunkSize/8⌋)`). */
  readonly defaultDoc?: string;
  /** An `integer` option that also takes `Infinity` (no limit; `Infinity` on the command line). */
  readonly infinity?: boolean;
  /** Inclusive bounds of `integer` and `number` options. */
  readonly min?: number;
  readonly max?: number;
  /**
   * API-only forms a CLI-typed option also takes (a `fallback` name or, in the API, a
   * function): values of these types pass the type check, then `check` runs.
   */
  readonly alsoAccepts?: readonly ('function' | 'object')[];
  /** Allowed values of an `enum` option (strings, or `true`/`false` for mixed options such as `'auto' | boolean`). */
  readonly values?: readonly (string | boolean)[];
  /**
   * Extra validation after the type check (or instead of it for `object`, `function`
   * and `json`): return an error requirement (a phrase) or undefined when valid.
   */
  readonly check?: (value: unknown, resolved: Readonly<Record<string, unknown>>) => string | undefined;
  /** For an `object` option: the interface its value must implement (see {@link OPTION_SHAPES}), checked before `check`. */
  readonly shape?: OptionShape;
  /**
   * CLI: `false` for API-only options; otherwise overrides of the generated flag: `flag`
   * (default `--kebab-name`), `placeholder` (`<n>`, `<name>` …), `negate` for a boolean
   * that defaults to true and is switched off by a `--no-…` flag, `negateDoc` what that
   * flag does (its help line; `doc` describes the option).
   */
  readonly cli?: false | { readonly flag?: string; readonly placeholder?: string; readonly negate?: boolean; readonly negateDoc?: string };
}

/** A strategy's options: name → spec, in the order they are resolved and documented. */
export type OptionsSchema = Readonly<Record<string, OptionSpec>>;

/** A schema with a name (for error messages) and cross-option checks. */
export interface StrategySchema {
  /** The strategy name, e.g. `recursive`. */
  readonly name: string;
  readonly options: OptionsSchema;
  /** Checks across options, after every option is resolved (e.g. `chunkOverlap < chunkSize`); throws InvalidOptionError. */
  readonly check?: (resolved: Record<string, unknown>) => void;
}

/** The type-only key a {@link typed} spec carries its values' TypeScript type under. */
declare const VALUE: unique symbol;

/** An option spec whose values have the TypeScript type `T` (see {@link typed}). */
export type TypedSpec<T, S extends OptionSpec = OptionSpec> = S & { readonly [VALUE]?: T };

/**
 * Marks `spec` as taking values of type `T`, for options whose `type` does not say it
 * (`object`, `function` and `json` options, and options with `alsoAccepts`):
 * `typed<Sizer>()({ type: 'object', … })`. Returns `spec` itself; the mark is type-only.
 */
export function typed<T>(): <const S extends OptionSpec>(spec: S) => TypedSpec<T, S> {
  return (spec) => spec;
}

/** The TypeScript type of the values of the option `S` (its {@link typed} mark, else read from `type` and `values`). */
export type ValueOf<S> = S extends { readonly [VALUE]?: infer T }
  ? T
  : S extends { readonly type: 'integer' | 'number' }
    ? number
    : S extends { readonly type: 'boolean' }
      ? boolean
      : S extends { readonly type: 'string' }
        ? string
        : S extends { readonly type: 'enum'; readonly values: readonly (infer V)[] }
          ? V
          : S extends { readonly type: 'function' }
            ? (...args: never[]) => unknown
            : unknown;

/** The options a strategy's constructor takes, read from its schema: every option optional (left out: its default). */
export type OptionsOf<S extends { readonly options: OptionsSchema }> = {
  -readonly [K in keyof S['options']]?: ValueOf<S['options'][K]>;
};

/** The options after {@link resolveOptions}: an option with a default is always set; one without may be undefined. */
export type ResolvedOf<S extends { readonly options: OptionsSchema }> = {
  readonly [K in keyof S['options']]: ValueOf<S['options'][K]> | (S['options'][K] extends { readonly default: unknown } ? never : undefined);
};

/** An option name the strategy does not have. `suggestion` is the closest valid name, if any. */
export class UnknownOptionError extends InvalidOptionError {
  readonly suggestion: string | undefined;
  /** `owner` names whose option it is: a strategy name (`recursive`), or with `kind: ''` a class (`QascIndex`). */
  constructor(option: string, value: unknown, owner: string, suggestion: string | undefined, known: readonly string[], kind = 'strategy') {
    super(
      option,
      value,
      `unknown option of ${kind ? `the ${owner} ${kind}` : owner}${suggestion ? `; did you mean ${suggestion}?` : ''} (options: ${known.join(', ')})`,
    );
    this.suggestion = suggestion;
  }
}

/** Levenshtein distance between two short strings. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** Case-, `_`- and `-`-insensitive form: `chunk_size`, `chunk-size` and `chunkSize` meet. */
const fold = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, '');

/** The known name closest to `name` (same folded form, or within ⌈len/3⌉ edits), if any. */
export function suggestOption(name: string, known: readonly string[]): string | undefined {
  const f = fold(name);
  const same = known.find((k) => fold(k) === f);
  if (same) return same;
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(f, fold(k));
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return bestD <= Math.max(1, Math.ceil(f.length / 3)) ? best : undefined;
}

/** Why `value` is not of the spec's type, or undefined when it is. */
function typeProblem(spec: OptionSpec, value: unknown, resolved: Record<string, unknown>): string | undefined {
  if (spec.alsoAccepts?.some((t) => (t === 'function' ? typeof value === 'function' : typeof value === 'object' && value !== null))) return undefined;
  switch (spec.type) {
    case 'integer': {
      if (spec.infinity && value === Infinity) return undefined;
      if (typeof value !== 'number' || !Number.isInteger(value)) return `must be an integer${bounds(spec)}${spec.infinity ? ' or Infinity' : ''}`;
      if (value < (spec.min ?? -Infinity) || value > (spec.max ?? Infinity)) return `must be an integer${bounds(spec)}`;
      if (value > 0x7fffffff) return 'must be at most 2147483647';
      return undefined;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a finite number${bounds(spec)}`;
      if (value < (spec.min ?? -Infinity) || value > (spec.max ?? Infinity)) return `must be a finite number${bounds(spec)}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'enum':
      return spec.values!.includes(value as string) ? undefined : `one of ${spec.values!.map(String).join(', ')}`;
    case 'function':
      return typeof value === 'function' ? undefined : 'must be a function';
    case 'object':
      if (spec.shape) return shapeProblem(spec.shape, value);
      return typeof value === 'object' && value !== null ? undefined : 'must be an object';
    case 'json':
      return undefined;
  }
  void resolved;
}

/**
 * Why `value` is not a valid value of the option `spec` (type, range, shape, then the
 * spec's `check`), or undefined when it is: what {@link resolveOptions} checks per option.
 */
export function optionProblem(spec: OptionSpec, value: unknown, resolved: Readonly<Record<string, unknown>> = {}): string | undefined {
  return typeProblem(spec, value, resolved as Record<string, unknown>) ?? spec.check?.(value, resolved);
}

function bounds(spec: OptionSpec): string {
  const max = spec.max;
  const lo = spec.min !== undefined ? `≥ ${spec.min}` : '';
  const hi = max !== undefined && max !== Infinity ? `≤ ${max}` : '';
  return lo && hi ? ` in [${spec.min}, ${max}]` : lo || hi ? ` ${lo || hi}` : '';
}

/**
 * Rejects keys of `input` that are not in `known` (a record with every option name of the
 * options interface, so the compiler keeps it complete): for classes whose options are
 * checked one by one rather than by a {@link StrategySchema} (embedders, QASC, late chunking).
 * Keys whose value is `undefined` pass, as in {@link resolveOptions}.
 * @throws {UnknownOptionError} naming the key, `owner` and the closest known name.
 */
export function rejectUnknownOptions<T>(owner: string, input: T | undefined, known: { readonly [K in keyof Required<T>]: true }): void {
  if (input === undefined || input === null || typeof input !== 'object') return;
  const names = Object.keys(known);
  for (const key of Object.keys(input)) {
    if ((input as Record<string, unknown>)[key] !== undefined && !Object.prototype.hasOwnProperty.call(known, key)) {
      throw new UnknownOptionError(key, (input as Record<string, unknown>)[key], owner, suggestOption(key, names), names, '');
    }
  }
}

/**
 * Validates `input` against `schema` and fills in defaults.
 *
 * - An unknown key (with a value other than `undefined`) is an {@link UnknownOptionError}
 *   naming it and suggesting the closest valid name.
 * - `undefined` means "the default"; `null` is rejected for every option (it is not a
 *   size, a flag or a name: omit the option to get its default).
 * - Values are checked by type, range and the spec's `check`; then the schema's
 *   cross-option `check` runs on the resolved set.
 * @returns every option of the schema, resolved (defaults filled in), in schema order.
 * @throws {InvalidOptionError} for a bad value, {@link UnknownOptionError} for an unknown key.
 */
export function resolveOptions<T extends object>(schema: StrategySchema, input: unknown): Required<T> {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new InvalidOptionError('options', input, `the options of the ${schema.name} strategy must be an object`);
  }
  const given = (input ?? {}) as Record<string, unknown>;
  const known = Object.keys(schema.options);
  for (const key of Object.keys(given)) {
    if (given[key] !== undefined && !Object.prototype.hasOwnProperty.call(schema.options, key)) {
      throw new UnknownOptionError(key, given[key], schema.name, suggestOption(key, known), known);
    }
  }
  const resolved: Record<string, unknown> = {};
  for (const key of known) {
    const spec = schema.options[key];
    let value = given[key];
    if (value === null) throw new InvalidOptionError(key, null, 'null is not a value: omit the option for its default');
    if (value === undefined) {
      value = typeof spec.default === 'function' && spec.type !== 'function' ? (spec.default as (r: Record<string, unknown>) => unknown)(resolved) : spec.default;
      if (value === undefined) {
        resolved[key] = undefined;
        continue;
      }
    }
    const problem = optionProblem(spec, value, resolved);
    if (problem) throw new InvalidOptionError(key, value, problem);
    resolved[key] = value;
  }
  schema.check?.(resolved);
  return resolved as Required<T>;
}

/** `chunkSize` → `chunk-size`. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/** How docs and `--help` show an option's default. */
export function defaultText(spec: OptionSpec): string {
  if (spec.defaultDoc !== undefined) return spec.defaultDoc;
  if (spec.default === undefined) return '—';
  if (typeof spec.default === 'function') return '(computed)';
  if (spec.default === Infinity) return '`Infinity`';
  if (typeof spec.default === 'string') return `\`'${spec.default}'\``;
  return `\`${describe(spec.default)}\``;
}

/** The value placeholder of an option's CLI flag (`<n>`, `<x>`, `<name>`, `<json>`), or '' for a boolean flag. */
export function placeholder(spec: OptionSpec): string {
  if (spec.cli && spec.cli.placeholder !== undefined) return spec.cli.placeholder;
  switch (spec.type) {
    case 'integer':
      return '<n>';
    case 'number':
      return '<x>';
    case 'boolean':
      return '';
    case 'json':
      return '<json>';
    case 'enum':
      return spec.values!.some((v) => typeof v === 'boolean') ? '[mode]' : '<name>';
    default:
      return '<value>';
  }
}

/** The CLI flag of an option (`--chunk-size`), or undefined for an API-only option. */
export function cliFlag(name: string, spec: OptionSpec): string | undefined {
  if (spec.cli === false || spec.type === 'object' || spec.type === 'function') return undefined;
  if (spec.cli?.flag) return spec.cli.flag;
  return spec.cli?.negate ? `--no-${kebabCase(name)}` : `--${kebabCase(name)}`;
}

/**
 * The options table of a schema, in Markdown: option, CLI flag, default, meaning — the
 * block `scripts/gen-docs.ts` writes into the docs.
 */
export function optionsTable(schema: StrategySchema): string {
  const rows = ['| option | CLI | default | meaning |', '|---|---|---|---|'];
  for (const [name, spec] of Object.entries(schema.options)) {
    const flag = cliFlag(name, spec);
    const ph = placeholder(spec);
    const values = spec.type === 'enum' ? ` (${spec.values!.map((v) => `\`${String(v)}\``).join(', ')})` : '';
    rows.push(`| \`${name}\` | ${flag ? `\`${flag}${ph ? ' ' + ph : ''}\`` : 'API only'} | ${defaultText(spec)} | ${spec.doc.replace(/\|/g, '\\|')}${values} |`);
  }
  return rows.join('\n');
}

/**
 * A rule between two options: `option` may not exceed `bound` (a piece within its chunk,
 * a child within its parent).
 * @returns a schema `check` that throws {@link InvalidOptionError} naming `option`.
 */
export function notAbove(option: string, bound: string): (r: Readonly<Record<string, unknown>>) => void {
  return (r) => {
    if ((r[option] as number) > (r[bound] as number)) throw new InvalidOptionError(option, r[option], `must be ≤ ${bound} (${r[bound]})`);
  };
}

/** A default of `n` units, or the option `bound` where that is smaller: `{ default, defaultDoc }` of a schema entry. */
export function cappedDefault(n: number, bound: string): { default: (r: Readonly<Record<string, unknown>>) => number; defaultDoc: string } {
  return { default: (r) => Math.min(n, r[bound] as number), defaultDoc: `min(${n}, ${bound})` };
}
