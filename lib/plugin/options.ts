import { UsageError } from './errors';
import { parseState, State } from './state';

/** One command-line option of a plugin. Every option is long; `short` is its one-letter alias. */
export interface OptionSpec {
  long: string;
  short?: string;
  /** `list` is a repeatable string; `count` a repeatable flag such as -vvv. */
  type: 'string' | 'number' | 'boolean' | 'count' | 'list';
  /** Placeholder of the value in --help, e.g. PATH. */
  arg?: string;
  /** The value may be left out (`--kubeconfig` alone means the default file): gives ''. */
  optionalValue?: boolean;
  default?: string | number | boolean;
  description: string;
  choices?: readonly string[];
  /** The value is a secret: it is redacted from every output. */
  secret?: boolean;
}

export type OptionValue = string | number | boolean | string[] | undefined;
/** Parsed options keyed by their long name. */
export type ParsedOptions = Record<string, OptionValue>;

/** Options every plugin has. */
export const COMMON_OPTIONS: readonly OptionSpec[] = [
  { long: 'help', short: 'h', type: 'boolean', description: 'Print this help and exit (state UNKNOWN, as the guidelines ask).' },
  { long: 'version', short: 'V', type: 'boolean', description: 'Print the version and exit (state UNKNOWN).' },
  {
    long: 'verbose',
    short: 'v',
    type: 'count',
    description: 'More output; repeat up to 3 times: -v detail on the first line, -vv long output with the configuration, -vvv HTTP trace on stderr (secrets redacted).',
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
    description: 'Read options from an ini file (section defaults to the plugin name; file defaults to $MP_CONFIG_FILE or the standard monitoring-plugins.ini locations). Command-line options win.',
  },
];

/** A count option (--max-nodes, --max-pods) as a whole number >= 1, or a UsageError. */
export function positiveInteger(n: unknown, option: string): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new UsageError(`invalid ${option} ${String(n)}: expected a whole number >= 1`);
  return n;
}

/** Parses `-t SECONDS[:STATE]`. */
export function parseTimeout(text: string): { seconds: number; state: State } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?::\s*(\S+))?\s*$/.exec(text);
  const state = m?.[2] === undefined ? State.UNKNOWN : parseState(m[2]);
  const seconds = m ? Number(m[1]) : NaN;
  if (!m || state === undefined || !(seconds > 0) || seconds > 3600) {
    throw new UsageError(`invalid -t/--timeout ${JSON.stringify(text)}: expected SECONDS[:STATE], e.g. 10 or 30:CRITICAL (0 < SECONDS <= 3600)`);
  }
  return { seconds, state };
}

/**
 * Parses argv against the specs: unknown options, stray arguments, missing values, bad
 * numbers or choices, and a single-value option given twice are UsageErrors. `defaults`
 * (the options read from --extra-opts files) are a lower layer: the command line overrides
 * them option by option, as the monitoring-plugins convention has it. Defaults are filled in.
 */
export function parseOptions(argv: readonly string[], specs: readonly OptionSpec[], defaults: readonly string[] = []): ParsedOptions {
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
  if (spec.type === 'boolean') return raw === undefined ? (spec.default as boolean | undefined) ?? false : true;
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
    if (spec.choices && !spec.choices.every((c) => new RegExp(`\\b${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text))) text += ` One of: ${spec.choices.join(', ')}.`;
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
    if (words[i].startsWith('-') && !words[i].includes('=') && next !== undefined && !next.startsWith('-') && words[i].length + 1 + next.length <= HELP_WIDTH - 10) {
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
