import { parseDuration } from './duration';
import { UsageError } from './errors';
import { parseState, State } from './state';

/** One command-line option of a plugin. Every option is long; `short` is its one-letter alias. */
export interface OptionSpec {
  readonly long: string;
  readonly short?: string;
  /** `list` is a repeatable string; `count` a repeatable flag such as -vvv. */
  readonly type: 'string' | 'number' | 'boolean' | 'count' | 'list';
  /** Placeholder of the value in --help, e.g. PATH. */
  readonly arg?: string;
  /** The value may be left out (`--kubeconfig` alone means the default file): gives ''. */
  readonly optionalValue?: boolean;
  readonly default?: string | number | boolean;
  readonly description: string;
  readonly choices?: readonly string[];
  /** The value is a secret: it is redacted from every output. */
  readonly secret?: boolean;
}

export type OptionValue = string | number | boolean | string[] | undefined;
/** Parsed options keyed by their long name, when the specs are not known to the compiler. */
export type ParsedOptions = Record<string, OptionValue>;

/** The value of one option: a choice, string or number (undefined unless it has a default), a flag, a count or a list. */
type ScalarOf<S extends OptionSpec> = S['type'] extends 'number' ? number : S extends { readonly choices: readonly (infer C)[] } ? C : string;
type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['type'] extends 'count'
    ? number
    : S['type'] extends 'list'
      ? string[]
      : S extends { readonly default: string | number }
        ? ScalarOf<S>
        : ScalarOf<S> | undefined;

/**
 * The options parsed from specs declared with `defineOptions`, keyed by long name and typed
 * by each spec: reading an option that is not declared does not compile. Specs the compiler
 * cannot see into (a plain `OptionSpec[]`) give the untyped `ParsedOptions`.
 */
export type OptionsOf<Specs extends readonly OptionSpec[]> = string extends Specs[number]['long']
  ? ParsedOptions
  : { readonly [S in Specs[number] as S['long']]: ValueOf<S> };

/** Option specs kept as written (names, types, choices), so that `OptionsOf` can type what they parse to. */
export function defineOptions<const Specs extends readonly OptionSpec[]>(specs: Specs): Specs {
  return specs;
}

/** A spec renamed `<prefix>-<long>`, without its one-letter alias. */
export type PrefixedSpec<P extends string, S> = S extends OptionSpec
  ? Omit<S, 'long' | 'short' | 'description'> & { readonly long: `${P}-${S['long']}`; readonly description: string }
  : never;

/**
 * Another plugin's options under a prefix (`--warning` of check_vm_cpu as `--cpu-warning`),
 * typed as they are there: a plugin that runs another's judgement takes its options without
 * copying them, so they cannot drift apart.
 */
export function prefixOptions<const P extends string, const Specs extends readonly OptionSpec[]>(
  prefix: P,
  specs: Specs,
  describe: (spec: OptionSpec) => string,
): { readonly [K in keyof Specs]: PrefixedSpec<P, Specs[K]> } {
  return specs.map(({ short: _short, ...spec }) => ({ ...spec, long: `${prefix}-${spec.long}`, description: describe(spec) })) as unknown as {
    readonly [K in keyof Specs]: PrefixedSpec<P, Specs[K]>;
  };
}

/** The spec of one option of a list, by its long name, typed as declared. */
export function optionNamed<const Specs extends readonly OptionSpec[], const L extends Specs[number]['long']>(
  specs: Specs,
  long: L,
): Extract<Specs[number], { readonly long: L }> {
  const spec = specs.find((s) => s.long === long);
  if (!spec) throw new Error(`no option --${long}`);
  return spec as Extract<Specs[number], { readonly long: L }>;
}

/** Options every plugin has. */
export const COMMON_OPTIONS = defineOptions([
  { long: 'help', short: 'h', type: 'boolean', description: 'Print this help and exit (state UNKNOWN, as the guidelines ask).' },
  { long: 'version', short: 'V', type: 'boolean', description: 'Print the version and exit (state UNKNOWN).' },
  {
    long: 'verbose',
    short: 'v',
    type: 'count',
    description:
      'More output; repeat up to 3 times: -v detail on the first line, -vv long output with the configuration, -vvv HTTP trace on stderr (secrets redacted).',
  },
  {
    long: 'timeout',
    short: 't',
    type: 'string',
    arg: 'SECONDS[:STATE]',
    default: '10',
    description: 'Give up after SECONDS and report STATE (OK, WARNING, CRITICAL or UNKNOWN).',
  },
  {
    long: 'output',
    type: 'string',
    arg: 'FORMAT',
    default: 'nagios',
    choices: ['nagios', 'json'],
    description: 'nagios: the plugin line and long output; json: one object (state, code, summary, items, metrics) for Zabbix dependent items and scripts.',
  },
  {
    long: 'extra-opts',
    type: 'string',
    arg: '[SECTION][@FILE]',
    optionalValue: true,
    description:
      'Read options from an ini file (section defaults to the plugin name; file defaults to $MP_CONFIG_FILE or the standard monitoring-plugins.ini locations). Command-line options win.',
  },
]);

/** The options every plugin has, as parsed. */
export type CommonOptions = OptionsOf<typeof COMMON_OPTIONS>;

/** A count option (--max-nodes, --max-pods) as a whole number >= 1, or a UsageError. */
export function positiveInteger(n: unknown, option: string): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new UsageError(`invalid ${option} ${String(n)}: expected a whole number >= 1`);
  return n;
}

/** Parses `-t SECONDS[:STATE]` (the seconds as any duration: `10`, `90s`, `2m`). */
export function parseTimeout(text: string, defaultState: State = State.UNKNOWN): { seconds: number; state: State } {
  const m = /^([^:]*)(?::\s*(\S+))?\s*$/.exec(text);
  const state = m?.[2] === undefined ? defaultState : parseState(m[2]);
  if (!m || state === undefined) {
    throw new UsageError(`invalid -t/--timeout ${JSON.stringify(text)}: expected SECONDS[:STATE], e.g. 10 or 30:CRITICAL (0 < SECONDS <= 3600)`);
  }
  return { seconds: parseDuration(m[1], '-t/--timeout', { bareSeconds: true, maxSeconds: 3600 }), state };
}

/**
 * Parses argv against the specs: unknown options, stray arguments, missing values, bad
 * numbers or choices, and a single-value option given twice are UsageErrors. `defaults`
 * (the options read from --extra-opts files) are a lower layer: the command line overrides
 * them option by option, as the monitoring-plugins convention has it. Defaults are filled in.
 */
export function parseOptions<const Specs extends readonly OptionSpec[]>(
  argv: readonly string[],
  specs: Specs,
  defaults: readonly string[] = [],
): OptionsOf<Specs> {
  // The one place where values meet their declared types: convert() gives each spec's type.
  return parseUntyped(argv, specs, defaults) as OptionsOf<Specs>;
}

/**
 * The options of `specs` out of options parsed against a longer list that holds them (the
 * simulator parses its own options and every module's at once), typed by the specs as
 * `parseOptions` types them.
 */
export function pickOptions<const Specs extends readonly OptionSpec[]>(parsed: ParsedOptions, specs: Specs): OptionsOf<Specs> {
  return Object.fromEntries(specs.map((s) => [s.long, parsed[s.long]])) as OptionsOf<Specs>;
}

/** What a plugin's run is given: its own options and the common ones, typed by their specs. */
export type PluginOptions<Specs extends readonly OptionSpec[]> = OptionsOf<Specs> & CommonOptions;

/**
 * Parses argv against the common options and a plugin's own: `options` typed for the
 * plugin (and the runtime, through the common ones), `all` by name for the runtime's loops.
 */
export function parsePluginOptions<Specs extends readonly OptionSpec[]>(
  argv: readonly string[],
  specs: Specs,
  defaults: readonly string[] = [],
): { options: PluginOptions<Specs>; all: ParsedOptions } {
  const all = parseUntyped(argv, [...COMMON_OPTIONS, ...specs], defaults);
  return { options: all as PluginOptions<Specs>, all };
}

function parseUntyped(argv: readonly string[], specs: readonly OptionSpec[], defaults: readonly string[]): ParsedOptions {
  const byName = new Map<string, OptionSpec>();
  for (const spec of specs) {
    byName.set(spec.long, spec);
    if (spec.short) byName.set(spec.short, spec);
  }
  const raw = readArgv(argv, byName);
  for (const spec of specs) {
    const values = raw.get(spec.long);
    // "Last one wins" would silently drop what the operator wrote first (`--node a --node b`
    // checks only b): a value option that is not a list may be given once.
    if (values && values.length > 1 && (spec.type === 'string' || spec.type === 'number')) {
      // A secret's values are never echoed (the redactor does not know them yet).
      const shown = spec.secret ? '' : ` (${values.map((v) => JSON.stringify(v)).join(', ')})`;
      throw new UsageError(`${flagName(spec)} given ${values.length} times${shown}; give it once`);
    }
  }
  if (defaults.length > 0) {
    // Lists and counts add up (file entries first); a single value from the files is used
    // only when the command line has none, and among several sections the last wins.
    for (const [name, values] of readArgv(defaults, byName)) {
      const type = byName.get(name)?.type;
      if (type === 'list' || type === 'count') raw.set(name, [...values, ...(raw.get(name) ?? [])]);
      else if (!raw.has(name)) raw.set(name, values.slice(-1));
    }
  }
  const out: ParsedOptions = {};
  for (const spec of specs) out[spec.long] = convert(spec, raw.get(spec.long));
  return out;
}

/**
 * Splits argv the way getopt_long does: `--name value`, `--name=value`, `-n value`, `-nvalue`,
 * grouped flags `-kvv`, and `--` to end the options. A value option followed by another
 * long option gets no value (so `--url --insecure` is "needs a value", not a URL).
 * Written here rather than taken from a CLI library: it is every run's first work, and a
 * library's start-up cost is paid by thousands of checks an hour.
 */
function readArgv(argv: readonly string[], byName: ReadonlyMap<string, OptionSpec>): Map<string, Array<string | true>> {
  const raw = new Map<string, Array<string | true>>();
  const add = (spec: OptionSpec, value: string | true) => {
    const list = raw.get(spec.long);
    if (list) list.push(value);
    else raw.set(spec.long, [value]);
  };
  const takesValue = (spec: OptionSpec) => spec.type !== 'boolean' && spec.type !== 'count';
  let i = 0;
  const nextValue = (spec: OptionSpec): string => {
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--') || (spec.optionalValue && next.startsWith('-') && next !== '-')) return '';
    i++;
    return next;
  };
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      if (i + 1 < argv.length) throw new UsageError(`unexpected argument ${JSON.stringify(argv[i + 1])}`);
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const spec = name.length > 1 ? byName.get(name) : undefined;
      if (!spec) throw new UsageError(`unknown option --${name}`);
      if (!takesValue(spec)) {
        if (eq >= 0) throw new UsageError(`--${spec.long} takes no value`);
        add(spec, true);
      } else add(spec, eq >= 0 ? arg.slice(eq + 1) : nextValue(spec));
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let k = 1; k < arg.length; k++) {
        const spec = byName.get(arg[k]);
        if (!spec || spec.short !== arg[k]) throw new UsageError(`unknown option -${arg[k]}`);
        if (!takesValue(spec)) {
          add(spec, true);
          continue;
        }
        const rest = arg.slice(k + 1).replace(/^=/, '');
        add(spec, rest !== '' ? rest : nextValue(spec));
        break;
      }
    } else {
      throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    }
  }
  return raw;
}

function flagName(spec: OptionSpec): string {
  return spec.short ? `-${spec.short}/--${spec.long}` : `--${spec.long}`;
}

function convert(spec: OptionSpec, raw: Array<string | true> | undefined): OptionValue {
  const name = flagName(spec);
  if (spec.type === 'boolean') return raw === undefined ? spec.default === true : true;
  if (spec.type === 'count') return raw?.length ?? 0;
  const values = (raw ?? []).map((v) => String(v));
  for (const v of values) {
    if (v === '' && !spec.optionalValue) throw new UsageError(`${name} needs a value${spec.arg ? ` (${spec.arg})` : ''}`);
    if (spec.choices && !spec.choices.includes(v)) {
      throw new UsageError(`invalid ${name} ${JSON.stringify(v)}: expected one of ${spec.choices.join(', ')}`);
    }
  }
  if (spec.type === 'list') return values;
  const last = values.length > 0 ? values[values.length - 1] : spec.default === undefined ? undefined : String(spec.default);
  if (last === undefined) return undefined;
  if (spec.type === 'number') {
    if (!/^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(last)) throw new UsageError(`invalid ${name} ${JSON.stringify(last)}: expected a number`);
    return Number(last);
  }
  return last;
}

/** The long option names of the specs that carry secrets. */
export function secretOptionNames(specs: readonly OptionSpec[]): string[] {
  return specs.filter((s) => s.secret).map((s) => s.long);
}

/** The width --help fits in: a terminal of 80 columns, as the guidelines' own plugins do. */
export const HELP_WIDTH = 80;

/** Renders --help: usage, every option with its default and choices, and examples, in 80 columns. */
export function renderHelp(info: {
  command: string;
  version: string;
  description: string;
  usage: string;
  specs: readonly OptionSpec[];
  examples: readonly string[];
  notes?: readonly string[];
}): string {
  const lines = [`${info.command} ${info.version}`, '', ...wrap(info.description, HELP_WIDTH), ''];
  lines.push(...hang('Usage: ', groups(info.usage), HELP_WIDTH), '', 'Options:');
  for (const spec of info.specs) {
    const names = (spec.short ? `-${spec.short}, ` : '    ') + `--${spec.long}`;
    const arg = spec.arg ? (spec.optionalValue ? ` [${spec.arg.replace(/^\[(.*)\]$/, '$1')}]` : ` ${spec.arg}`) : '';
    lines.push(`  ${names}${arg}`);
    let text = spec.description;
    // The accepted values, unless the description already names every one of them.
    if (spec.choices && !spec.choices.every((c) => new RegExp(`\\b${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text)))
      text += ` One of: ${spec.choices.join(', ')}.`;
    if (spec.default !== undefined && spec.type !== 'boolean') text += ` (default: ${spec.default})`;
    for (const l of wrap(text, HELP_WIDTH - 8)) lines.push(`        ${l}`);
  }
  if (info.notes && info.notes.length > 0) {
    lines.push('');
    for (const n of info.notes) lines.push(...wrap(n, HELP_WIDTH));
  }
  lines.push('', 'Examples:');
  // Long command lines continue with a backslash, as they would be pasted into a shell.
  for (const e of info.examples) {
    const wrapped = hang('  ', optionPairs(e.split(' ')), HELP_WIDTH - 2, '      ');
    lines.push(...wrapped.map((l, i) => (i < wrapped.length - 1 ? `${l} \\` : l)));
  }
  return lines.join('\n') + '\n';
}

/** Command-line words with each option kept beside its value (`--token-file PATH`). */
function optionPairs(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const next = words[i + 1];
    if (
      words[i].startsWith('-') &&
      !words[i].includes('=') &&
      next !== undefined &&
      !next.startsWith('-') &&
      words[i].length + 1 + next.length <= HELP_WIDTH - 10
    ) {
      out.push(`${words[i]} ${next}`);
      i++;
    } else out.push(words[i]);
  }
  return out;
}

/** Words of a usage line, keeping `[-w RANGE]` and `(--url URL | -H HOST)` groups whole where they fit. */
function groups(usage: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const word of usage.split(/\s+/)) {
    if (depth > 0 && out.length > 0 && out[out.length - 1].length + word.length < 40) out[out.length - 1] += ` ${word}`;
    else out.push(word);
    for (const c of word) depth += c === '[' || c === '(' ? 1 : c === ']' || c === ')' ? -1 : 0;
    if (depth < 0) depth = 0;
  }
  return out;
}

/** Words laid out after `first` on the first line and `rest` (default: as wide as `first`) after. */
function hang(first: string, words: readonly string[], width: number, rest = ' '.repeat(first.length)): string[] {
  const out: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && line.length + 1 + word.length > width) {
      out.push(line);
      line = rest + word;
    } else line = empty ? line + word : `${line} ${word}`;
    empty = false;
  }
  out.push(line);
  return out;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}
