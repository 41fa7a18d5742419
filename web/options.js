// How the page presents each strategy: its option fields come from the registry, each
// definition's `schema` (a StrategySchema of src/engine/options/schema.ts: `{ name, options }`, or
// `definition.options`, its name → OptionSpec map); the page builds its controls, its code
// snippets and its CLI commands from them, so a newly registered strategy appears with its
// own options without a change here. PAGE_VALUES holds the page's own starting values. A
// field (the page's shape):
//   name     the option's name in the API (camelCase)
//   type     'integer' | 'number' | 'enum' | 'boolean' | 'string' | 'json'
//   default  the library's default (undefined: computed, see defaultDoc)
//   defaultDoc  text shown when the default depends on other options
//   min, max the range (inclusive) of numbers
//   choices  the values of an enum (strings, or booleans for true/false)
//   doc      one line for the label's description
//   cli      the flag of `chunkwise chunk` (default: --kebab-case of name); false: none;
//            for booleans { on: '--flag' } (given when true) or { off: '--no-flag' }

const UNIT = { name: 'unit', type: 'enum', choices: ['token', 'word', 'char'], default: 'token', doc: 'what budgets are measured in' };
const ENCODING = { name: 'encoding', type: 'enum', choices: ['cl100k_base', 'o200k_base'], default: 'cl100k_base', doc: 'BPE encoding for token units and tokenCount' };

/** The page's starting values: smaller budgets than the library's 512-token defaults, so a short document shows several chunks. */
export const PAGE_VALUES = {
  sliding: { windowSize: 128, stride: 96 },
  fixed: { chunkSize: 256, chunkOverlap: 32 },
  sentence: { chunkSize: 256 },
  recursive: { chunkSize: 256, chunkOverlap: 32 },
  markdown: { chunkSize: 256 },
  'parent-child': { parentSize: 512, childSize: 128, childOverlap: 16 },
  semantic: { maxChunkSize: 256 },
  generic: { chunkSize: 256 },
};

/** The fields of a definition that carries no schema: unit, encoding and a chunkSize. */
const GENERIC = [UNIT, ENCODING, { name: 'chunkSize', type: 'integer', min: 1, default: 512, doc: 'budget per chunk' }];

const TYPE_NAMES = { int: 'integer', integer: 'integer', number: 'number', float: 'number', enum: 'enum', select: 'enum', boolean: 'boolean', bool: 'boolean', string: 'string', json: 'json', array: 'json' };

/**
 * A registry-provided option spec in the page's shape, or null for an option the page
 * cannot set (`object` and `function` options: tokenizers, splitters, embedders).
 * A default that is a function of other options is shown by its defaultDoc.
 */
function fromSpec(name, spec) {
  if (spec.type === 'object' || spec.type === 'function') return null;
  const choices = spec.values ?? spec.choices ?? spec.enum;
  const type = choices ? 'enum' : (TYPE_NAMES[spec.type] ?? 'string');
  const computed = typeof spec.default === 'function';
  let cli;
  if (spec.cli === false) cli = false;
  else if (type === 'boolean') {
    const flag = spec.cli?.flag ?? (spec.cli?.negate ? `--no-${kebabFlag(name).slice(2)}` : kebabFlag(name));
    cli = spec.cli?.negate ? { off: flag } : { on: flag };
  } else cli = spec.cli?.flag ?? kebabFlag(name);
  return {
    name,
    type,
    default: computed ? undefined : spec.default,
    defaultDoc: spec.defaultDoc ?? (computed ? 'computed from the other options' : undefined),
    min: spec.min ?? spec.minimum,
    max: spec.max ?? spec.maximum,
    choices,
    doc: spec.doc ?? spec.description ?? '',
    cli,
  };
}

/** The registry's option specs of a definition as a name → spec map, if it has any. */
function registrySpecs(definition) {
  const s = definition.schema ?? definition.options;
  if (!s || typeof s !== 'object') return undefined;
  if (Array.isArray(s)) return Object.fromEntries(s.map((f) => [f.name, f]));
  // a StrategySchema ({ name, options, check }) or its options map
  return s.options && typeof s.options === 'object' && typeof s.options.type !== 'string' ? s.options : s;
}

/**
 * How the page presents `definition` (a registry entry): its option fields from its
 * schema (unit and encoding first), whether it takes an embedder (an `embedder` option),
 * and the page's initial values; `dynamic` resolves choice lists named by a string
 * ('fallbacks', 'breakpoints') from the loaded library.
 */
export function describeStrategy(definition, dynamic = {}) {
  const specs = registrySpecs(definition);
  let options = GENERIC;
  if (specs) {
    options = Object.entries(specs).map(([name, spec]) => fromSpec(name, spec)).filter(Boolean);
    const first = ['unit', 'encoding'];
    options = [...options.filter((f) => first.includes(f.name)).sort((a, b) => first.indexOf(a.name) - first.indexOf(b.name)), ...options.filter((f) => !first.includes(f.name))];
  }
  options = options.map((f) => (typeof f.choices === 'string' ? { ...f, choices: dynamic[f.choices] ?? [f.default] } : f));
  return {
    name: definition.name,
    description: definition.description,
    options,
    embedder: specs?.embedder ? 'optional' : undefined,
    page: PAGE_VALUES[definition.name] ?? (specs ? {} : PAGE_VALUES.generic),
    described: Boolean(specs),
  };
}

/** `windowSize` → `--window-size`. */
export function kebabFlag(name) {
  return '--' + name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}
