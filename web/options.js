// The options the page offers per strategy, in one place. The page builds its controls,
// its code snippets and its CLI commands from these descriptions; the strategies
// themselves come from the registry (`strategies()`), so a newly registered strategy
// appears without a change here (with the generic unit and chunkSize fields until it is
// described).
//
// Until the registry describes each strategy's options itself, OPTION_TABLE below does.
// `describeStrategy` prefers the registry's description when a definition carries one:
// `definition.schema` (a StrategySchema of src/core/schema.ts: `{ name, options }`) or
// `definition.options` (its name → OptionSpec map), so once every strategy is registered
// with its schema, OPTION_TABLE can be deleted (PAGE_VALUES stays: the page's own
// starting values). A field of the table (the page's shape):
//   name     the option's name in the API (camelCase)
//   type     'integer' | 'number' | 'enum' | 'boolean' | 'string' | 'json'
//   default  the library's default (undefined: computed, see defaultDoc)
//   defaultDoc  text shown when the default depends on other options
//   min, max the range (inclusive) of numbers
//   choices  the values of an enum (strings, or booleans for true/false)
//   doc      one line for the label's description
//   cli      the flag of `chunkwise chunk` (default: --kebab-case of name); false: none;
//            for booleans { on: '--flag' } (given when true) or { off: '--no-flag' }
// A strategy entry: { options: [field…], embedder?: 'optional' | 'required' }.

const UNIT = { name: 'unit', type: 'enum', choices: ['token', 'word', 'char'], default: 'token', doc: 'what budgets are measured in' };
const ENCODING = { name: 'encoding', type: 'enum', choices: ['cl100k_base', 'o200k_base'], default: 'cl100k_base', doc: 'BPE encoding for token units and tokenCount' };
const int = (name, def, doc, extra = {}) => ({ name, type: 'integer', min: 0, default: def, doc, ...extra });
const OVERLAP_DEFAULT = 'min(64, ⌊chunkSize / 8⌋)';

export const OPTION_TABLE = {
  sliding: {
    options: [
      UNIT,
      ENCODING,
      int('windowSize', 512, 'units per window', { min: 1 }),
      int('stride', 256, 'units the window moves (≤ windowSize)', { min: 1 }),
      { name: 'allowGaps', type: 'boolean', default: false, doc: 'allow stride > windowSize (loses the text between windows)', cli: { on: '--allow-gaps' } },
    ],
  },
  fixed: {
    options: [
      UNIT,
      ENCODING,
      int('chunkSize', 512, 'units per chunk', { min: 1 }),
      int('chunkOverlap', undefined, 'units shared with the previous chunk (< chunkSize)', { defaultDoc: OVERLAP_DEFAULT }),
    ],
  },
  sentence: {
    options: [
      UNIT,
      ENCODING,
      int('chunkSize', 512, 'budget per chunk of whole sentences', { min: 1 }),
      int('overlapSentences', 0, 'sentences repeated from the previous chunk'),
      { name: 'locale', type: 'string', default: 'en', doc: 'BCP 47 locale of the sentence segmenter' },
    ],
  },
  recursive: {
    options: [
      UNIT,
      ENCODING,
      int('chunkSize', 512, 'budget per chunk', { min: 1 }),
      int('chunkOverlap', undefined, 'units merged chunks may share (< chunkSize)', { defaultDoc: OVERLAP_DEFAULT }),
      { name: 'separators', type: 'json', defaultDoc: 'paragraph, line, sentence, space, grapheme', doc: 'JSON array, coarsest first: strings or {"kind": "paragraph|line|sentence|grapheme"}' },
      { name: 'keepSeparator', type: 'enum', choices: [true, 'end', false], default: true, doc: 'separator at the start of the next piece (true), the end of the previous one, or in none' },
    ],
  },
  markdown: {
    options: [
      UNIT,
      ENCODING,
      int('chunkSize', 512, 'budget per chunk of heading sections', { min: 1 }),
      int('chunkOverlap', undefined, 'units shared where the fallback splits one block', { defaultDoc: OVERLAP_DEFAULT }),
      { name: 'fallback', type: 'enum', choices: 'fallbacks', default: 'recursive', doc: 'splitter for a block over the budget' },
      { name: 'contextualHeaders', type: 'boolean', default: false, doc: 'prefix embedText with the heading path', cli: { on: '--contextual-headers' } },
    ],
  },
  'parent-child': {
    options: [
      UNIT,
      ENCODING,
      int('parentSize', 1024, 'units per parent', { min: 1 }),
      int('childSize', 128, 'units per child (≤ parentSize)', { min: 1 }),
      int('childOverlap', undefined, 'units shared by neighbouring children', { defaultDoc: '⌊childSize / 8⌋' }),
      { name: 'markdown', type: 'enum', choices: ['auto', true, false], default: 'auto', doc: 'cut parents along Markdown structure' },
    ],
  },
  semantic: {
    options: [
      UNIT,
      ENCODING,
      { name: 'breakpoint', type: 'enum', choices: 'breakpoints', default: 'percentile', doc: 'how the break threshold is chosen' },
      { name: 'threshold', type: 'number', defaultDoc: 'percentile 95, standardDeviation 3, interquartile 1.5, gradient 95', doc: 'percentile, std devs or IQR multiplier' },
      int('bufferSize', 1, 'sentences joined on each side before embedding'),
      int('minChunkSize', 0, 'no break while the chunk is smaller (units)'),
      int('maxChunkSize', 512, 'no chunk larger (units)', { min: 1 }),
      { name: 'locale', type: 'string', default: 'en', doc: 'BCP 47 locale of the sentence segmenter' },
    ],
    embedder: 'optional',
  },
  late: {
    options: [UNIT, ENCODING, int('chunkSize', 256, 'span budget (spans: fixed)', { min: 1 }), { name: 'spans', type: 'string', default: 'fixed', doc: 'strategy that supplies the spans' }],
    embedder: 'required',
  },
};

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

/** The description of a strategy the table does not know yet. */
const GENERIC = { options: [UNIT, ENCODING, int('chunkSize', 512, 'budget per chunk', { min: 1 })] };

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
 * How the page presents `definition` (a registry entry): its option fields (unit and
 * encoding first), whether it takes an embedder, and the page's initial values. The
 * registry's own schema wins over OPTION_TABLE; `dynamic` resolves choice lists named by
 * a string ('fallbacks', 'breakpoints') from the loaded library.
 */
export function describeStrategy(definition, dynamic = {}) {
  const specs = registrySpecs(definition);
  const table = OPTION_TABLE[definition.name];
  let options;
  let embedder = table?.embedder;
  if (specs) {
    options = Object.entries(specs).map(([name, spec]) => fromSpec(name, spec)).filter(Boolean);
    const first = ['unit', 'encoding'];
    options = [...options.filter((f) => first.includes(f.name)).sort((a, b) => first.indexOf(a.name) - first.indexOf(b.name)), ...options.filter((f) => !first.includes(f.name))];
    if (specs.embedder) embedder = 'optional';
  } else options = (table ?? GENERIC).options;
  options = options.map((f) => (typeof f.choices === 'string' ? { ...f, choices: dynamic[f.choices] ?? [f.default] } : f));
  return {
    name: definition.name,
    description: definition.description,
    options,
    embedder,
    page: PAGE_VALUES[definition.name] ?? (specs || table ? {} : PAGE_VALUES.generic),
    described: Boolean(specs || table),
  };
}

/** `windowSize` → `--window-size`. */
export function kebabFlag(name) {
  return '--' + name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}
